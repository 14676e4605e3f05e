package dev.simhash.query;

import dev.simhash.SimHashPlugin;
import dev.simhash.compat.lucene.CompatClauses;
import dev.simhash.core.CandidateRadius;
import dev.simhash.core.FeatureAnalyzer;
import dev.simhash.core.FingerprintSpec;
import dev.simhash.core.MinHashSketch;
import dev.simhash.core.SimHashV2;
import dev.simhash.core.TextFingerprinter;
import dev.simhash.core.Weighting;
import dev.simhash.wire.WireTesting;

import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.Query;
import org.elasticsearch.common.ParsingException;
import org.elasticsearch.common.compress.CompressedXContent;
import org.elasticsearch.index.mapper.MapperService;
import org.elasticsearch.index.query.SearchExecutionContext;
import org.elasticsearch.index.query.TermQueryBuilder;
import org.elasticsearch.plugins.Plugin;
import org.elasticsearch.test.AbstractQueryTestCase;
import org.elasticsearch.xcontent.XContentParseException;

import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.Map;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.instanceOf;
import static org.hamcrest.Matchers.startsWith;

/**
 * Elasticsearch's query-builder contract: JSON and wire round trips, equals/hashCode, unknown
 * fields rejected, boost and _name, and the Lucene query it builds.
 */
public class SimHashQueryBuilderTest extends AbstractQueryTestCase<SimHashQueryBuilder> {

    private static final String FIELD = "fp";
    /** A simhash-v2 field with the default sketch (minhash-v1). */
    private static final String SKETCHED = "sk";

    @Override
    protected Collection<Class<? extends Plugin>> getPlugins() {
        return List.of(SimHashPlugin.class);
    }

    @Override
    protected void initializeAdditionalMappings(MapperService mapperService) throws IOException {
        mapperService.merge("_doc", new CompressedXContent("""
            {"properties": {"fp": {"properties": {"hash": {"type": "long"}, "b0": {"type": "keyword"}, "b1": {"type": "keyword"},
              "b2": {"type": "keyword"}, "b3": {"type": "keyword"}}}, "sk": {"type": "simhash"}}}"""),
            MapperService.MergeReason.MAPPING_UPDATE);
    }

    @Override
    protected SimHashQueryBuilder doCreateTestQueryBuilder() {
        return randomBoolean() ? objectFormBuilder() : sketchedBuilder();
    }

    /** On the field with a sketch: a hash with or without a sketch, or a text; with max_distance or min_similarity. */
    private SimHashQueryBuilder sketchedBuilder() {
        SimHashQueryBuilder b = new SimHashQueryBuilder(SKETCHED);
        boolean similarity = randomBoolean();
        if (randomBoolean()) {
            b.hash(randomLong());
            if (similarity) {
                b.sketch(randomByteArrayOfLength(MinHashSketch.BYTES));
            }
            if (randomBoolean()) {
                b.exclude("other-" + randomAlphaOfLength(4).toLowerCase(java.util.Locale.ROOT), randomAlphaOfLength(6));
            }
        } else {
            b.text(randomFrom("近似重复检测 near duplicate detection", "news story edited twice", "搜索引擎 search engine 2024"));
        }
        if (similarity) {
            b.minSimilarity(randomFrom(1.0, 0.5, randomDoubleBetween(0.01, 1.0, true)));
        } else if (randomBoolean()) {
            b.maxDistance(randomIntBetween(0, 64));
        }
        if (randomBoolean()) {
            b.k(randomIntBetween(1, SimHashQueryBuilder.MAX_K));
        }
        if (randomBoolean()) {
            b.filter(new TermQueryBuilder(KEYWORD_FIELD_NAME, randomAlphaOfLength(5)));
        }
        return b;
    }

    private SimHashQueryBuilder objectFormBuilder() {
        SimHashQueryBuilder b = new SimHashQueryBuilder(FIELD);
        if (randomBoolean()) {
            b.hash(randomLong());
            if (randomBoolean()) {
                // what a like query becomes once its document is fetched; another index than the test's, so the Lucene
                // query stays the plain simhash query checked below
                b.exclude("other-" + randomAlphaOfLength(4).toLowerCase(java.util.Locale.ROOT), randomAlphaOfLength(6));
            }
        } else {
            b.text(randomFrom("近似重复检测 near duplicate detection", "news story edited twice", "搜索引擎 search engine 2024"))
                .textOptions(randomFrom(Map.of(), Map.of("version", "v2"), Map.of("version", "v2", "min_features", 2),
                    Map.of("analyzer", randomFrom("default", "standard", "whitespace"),
                        "shingle_size", randomIntBetween(1, 2), "weighting", randomFrom(Weighting.values()).optionName())));
        }
        if (randomBoolean()) {
            b.maxDistance(randomIntBetween(0, 64));
        }
        if (randomBoolean()) {
            b.k(randomIntBetween(1, SimHashQueryBuilder.MAX_K));
        }
        if (randomBoolean()) {
            b.filter(new TermQueryBuilder(KEYWORD_FIELD_NAME, randomAlphaOfLength(5)));
        }
        return b;
    }

    @Override
    protected void doAssertLuceneQuery(SimHashQueryBuilder builder, Query query, SearchExecutionContext context) {
        if (builder.k() != null) {
            assertThat(query, instanceOf(SimHashNearestQuery.class));
            assertEquals(builder.minSimilarity() != null, ((SimHashNearestQuery) query).check() != null);
            return;
        }
        if (builder.filter() != null) {
            // the filter is a clause beside the simhash query
            assertThat(query, instanceOf(BooleanQuery.class));
            assertEquals(2, ((BooleanQuery) query).clauses().size());
            assertEquals(BooleanClause.Occur.FILTER, CompatClauses.occur(((BooleanQuery) query).clauses().get(1)));
            query = CompatClauses.query(((BooleanQuery) query).clauses().get(0));
        }
        if (builder.field().equals(SKETCHED)) {
            // a text with neither max_distance nor min_similarity (nor k) on a field with a sketch: the default threshold
            Double s = builder.minSimilarity() != null ? builder.minSimilarity()
                : builder.text() != null && builder.maxDistance() == null ? (Double) MinHashSketch.DEFAULT_MIN_SIMILARITY : null;
            if (s != null && s >= 0.78) {
                // from 0.78 on, the candidates share a band of the sketch: the fingerprint plays no part
                assertThat(query, instanceOf(SketchBandQuery.class));
                assertEquals(s, ((SketchBandQuery) query).check().minSimilarity(), 0.0);
                assertEquals("sk._minhash", ((SketchBandQuery) query).check().sketchField());
                return;
            }
            assertThat(query, instanceOf(SimHashQuery.class));
            SimHashQuery q = (SimHashQuery) query;
            long expected = builder.hash() != null ? builder.hash() : SimHashV2.fingerprint(builder.text(), 1).getAsLong();
            assertEquals(expected, q.hash());
            if (s != null) {
                // the candidate radius of the threshold, verified by the sketch
                assertEquals(CandidateRadius.radius(s), q.maxDistance());
                assertEquals(s, q.check().minSimilarity(), 0.0);
                assertEquals("sk._minhash", q.check().sketchField());
            } else {
                assertNull(q.check());
                assertEquals(builder.maxDistance() != null ? (int) builder.maxDistance() : 6, q.maxDistance());
            }
            return;
        }
        assertThat(query, instanceOf(SimHashQuery.class));
        SimHashQuery q = (SimHashQuery) query;
        assertNull(q.check());
        long expected = builder.hash() != null ? builder.hash()
            : builder.textSpec().version() == FingerprintSpec.Version.V2 ? SimHashV2.fingerprint(builder.text(), 1).getAsLong()
            : new TextFingerprinter(FeatureAnalyzer.fromOption(builder.textSpec().analyzer()), builder.textSpec().options())
                .fingerprint(builder.text()).getAsLong();
        assertEquals(expected, q.hash());
        // no max_distance: the object form's default, that of the version a text is fingerprinted with (v1: 3, v2: 6)
        int radius = builder.maxDistance() != null ? builder.maxDistance()
            : builder.hash() == null && builder.textSpec().version() == FingerprintSpec.Version.V2 ? 6 : 3;
        assertEquals(radius, q.maxDistance());
    }

    /** A query sent by a node of the next plugin release (fields appended to its envelope) keeps its meaning here. */
    public void testReadsTheNextReleasesWireForm() throws IOException {
        for (int i = 0; i < 20; i++) {
            // boost and name left at their defaults: WireTesting finds the envelope after them
            SimHashQueryBuilder b = doCreateTestQueryBuilder();
            assertEquals(b, WireTesting.roundTrip(b, namedWriteableRegistry(), SimHashQueryBuilder::new));
            assertEquals(b, WireTesting.fromNextRelease(b, namedWriteableRegistry(), SimHashQueryBuilder::new));
        }
    }

    public void testParsesHexAndSignedLongHashes() throws IOException {
        SimHashQueryBuilder hex = (SimHashQueryBuilder) parseQuery("""
            {"simhash": {"field": "fp", "hash": "ffffffffffffffff", "max_distance": 7}}""");
        assertEquals(-1L, (long) hex.hash());
        assertEquals(7, (int) hex.maxDistance());
        SimHashQueryBuilder number = (SimHashQueryBuilder) parseQuery("""
            {"simhash": {"field": "fp", "hash": -1}}""");
        assertEquals(-1L, (long) number.hash());
        assertNull(number.maxDistance());
        SimHashQueryBuilder like = (SimHashQueryBuilder) parseQuery("""
            {"simhash": {"field": "fp", "like": {"index": "news", "id": "42", "routing": "r"}}}""");
        assertEquals(new Like("news", "42", "r"), like.like());
        SimHashQueryBuilder excluding = (SimHashQueryBuilder) parseQuery("""
            {"simhash": {"field": "fp", "hash": "00000000000000ff", "exclude": {"index": "news", "id": "42"}}}""");
        assertEquals("news", excluding.excludeIndex());
        assertEquals("42", excluding.excludeId());
    }

    /**
     * A {@code like} query becomes, once its document is fetched, a {@code hash} that leaves the liked document out: its
     * JSON form (what profile, explain and a re-parse see) still leaves it out.
     */
    public void testTheExcludedDocumentIsPartOfTheJsonForm() throws IOException {
        SimHashQueryBuilder b = new SimHashQueryBuilder(FIELD).hash(255L).maxDistance(3).exclude("news", "42");
        String json = org.elasticsearch.common.Strings.toString(b);
        assertThat(json, containsString("\"exclude\":{\"index\":\"news\",\"id\":\"42\"}"));
        SimHashQueryBuilder parsed = (SimHashQueryBuilder) parseQuery(json);
        assertEquals(b, parsed);
        assertNotEquals(new SimHashQueryBuilder(FIELD).hash(255L).maxDistance(3), parsed);
    }

    /** Invalid values and combinations: a parsing error naming the parameter, as before the parser used ObjectParser. */
    public void testInvalidValuesNameTheParameter() {
        assertLocated("{\"simhash\": {\"field\": \"fp\", \"hash\": 1, \"max_distance\": 65}}", 1,
            "[simhash] failed to parse field [max_distance]", "[max_distance] must be between 0 and 64, got [65]");
        assertLocated("{\"simhash\": {\"field\": \"fp\", \"hash\": 1, \"k\": 0}}", 1, "[simhash] failed to parse field [k]",
            "[k] must be between 1 and 10000, got [0]");
        assertParseError("{\"simhash\": {\"hash\": 1}}", "[simhash] query requires [field]");
        assertParseError("{\"simhash\": {\"field\": \"fp\", \"hash\": 1, \"like\": \"x\"}}",
            "[simhash] query requires exactly one of [hash], [text] or [like], got 2");
        assertParseError("{\"simhash\": {\"field\": \"fp\", \"hash\": 1, \"shingle_size\": 2}}", "[simhash] [[shingle_size]] only apply to [text]");
        assertParseError("{\"simhash\": {\"field\": \"fp\", \"hash\": 1, \"include\": true}}", "[simhash] [include] only applies to [like]");
        assertParseError("{\"simhash\": {\"field\": \"fp\", \"like\": \"7\", \"exclude\": {\"index\": \"a\", \"id\": \"1\"}}}",
            "[simhash] [exclude] only applies to [hash]");
        assertParseError("{\"simhash\": {\"field\": \"fp\", \"hash\": 1, \"exclude\": {\"id\": \"1\"}}}",
            "[simhash] [exclude] requires [index] and [id]");
        assertParseError("{\"simhash\": {\"field\": \"fp\", \"text\": \"x\", \"min_features\": 0}}", "[min_features]");
    }

    private void assertParseError(String json, String message) {
        Exception e = expectThrows(Exception.class, () -> parseQuery(json));
        assertThat(e, instanceOf(ParsingException.class));
        assertThat(e.getMessage(), containsString(message));
    }

    /**
     * Malformed JSON, unknown fields and values of the wrong type: an XContentParseException with the line and column,
     * naming the field; the cause says what is wrong with the value.
     */
    public void testSyntaxErrorsCarryTheirLocationAndNameTheField() {
        assertLocated("{\"simhash\": {\"field\": \"fp\", \"hash\": 1,\n \"nope\": 1}}", 2, "[simhash] unknown field [nope]", null);
        assertLocated("{\"simhash\": {\"field\": \"fp\", \"hash\": \"nothex\"}}", 1, "[simhash] failed to parse field [hash]",
            "[hash] expected a fingerprint as 16 hex digits or a signed 64-bit integer, got [nothex]");
        assertLocated("{\"simhash\": {\"field\": \"fp\", \"hash\": [1, 2]}}", 1, "[simhash] failed to parse field [hash]",
            "hash doesn't support values of type: START_ARRAY");
        assertLocated("{\"simhash\": {\"field\": \"fp\", \"hash\": 1, \"max_distance\": \"far\"}}", 1,
            "[simhash] failed to parse field [max_distance]", "[max_distance] must be an integer, got [far]");
        assertLocated("{\"simhash\": {\"field\": \"fp\", \"hash\": 1, \"max_distance\": 3.5}}", 1,
            "[simhash] failed to parse field [max_distance]", "[max_distance] must be an integer, got [3.5]");
        assertLocated("{\"simhash\": {\"field\": \"fp\", \"hash\": 1, \"boost\": \"high\"}}", 1, "[simhash] failed to parse field [boost]",
            null);
        assertLocated("{\"simhash\": {\"field\": {\"name\": \"fp\"}, \"hash\": 1}}", 1, "[simhash] failed to parse field [field]",
            "field doesn't support values of type: START_OBJECT");
        assertLocated("{\"simhash\": {\"field\": \"fp\", \"hash\": 1, \"filter\": \"x\"}}", 1, "[simhash] failed to parse field [filter]",
            "filter doesn't support values of type: VALUE_STRING");
        assertLocated("{\"simhash\": {\"field\": \"fp\", \"like\": {\"id\": \"1\", \"idx\": \"a\"}}}", 1,
            "[simhash] failed to parse field [like]", "[like] unknown field [idx]");
        assertLocated("{\"simhash\": {\"field\": \"fp\", \"like\": {\"index\": \"a\"}}}", 1, "[simhash] failed to parse field [like]",
            "[like] requires [id]");
        XContentParseException truncated = expectThrows(XContentParseException.class,
            () -> parseQuery("{\"simhash\": {\"field\": \"fp\", \"hash\": "));
        assertThat(truncated.getMessage(), startsWith("[1:"));
    }

    private void assertLocated(String json, int line, String message, String cause) {
        XContentParseException e = expectThrows(XContentParseException.class, () -> parseQuery(json));
        assertThat(json, e.getMessage(), startsWith("[" + line + ":"));
        assertEquals(json, line, e.getLineNumber());
        assertThat(json, e.getMessage(), containsString(message));
        if (cause != null) {
            assertThat(json, e.getCause().getMessage(), containsString(cause));
        }
    }

    /** Every input form that was accepted before the parser used ObjectParser still is. */
    public void testAcceptsEveryInputForm() throws IOException {
        SimHashQueryBuilder b = (SimHashQueryBuilder) parseQuery("""
            {"simhash": {"field": "fp", "hash": "1", "max_distance": 5, "k": 3, "boost": "2", "_name": "n",
              "filter": {"term": {"tag": "a"}}}}""");
        assertEquals(1L, (long) b.hash());
        assertEquals(5, (int) b.maxDistance());
        assertEquals(3, (int) b.k());
        assertEquals(2f, b.boost(), 0f);
        assertEquals("n", b.queryName());
        assertEquals(new TermQueryBuilder("tag", "a"), b.filter());
        SimHashQueryBuilder text = (SimHashQueryBuilder) parseQuery("""
            {"simhash": {"field": "fp", "text": "news story", "shingle_size": "2", "analyzer": "standard"}}""");
        assertEquals("news story", text.text());
        assertEquals(Map.of("shingle_size", 2, "analyzer", "standard"), text.textOptions());
        SimHashQueryBuilder like = (SimHashQueryBuilder) parseQuery("""
            {"simhash": {"field": "fp", "like": "42", "include": "true"}}""");
        assertEquals(new Like(null, "42", null), like.like());
        assertTrue(like.include());
    }

    /** {@code min_similarity} and {@code sketch}: parsed, validated with the parameter named, and kept in the JSON form. */
    public void testMinSimilarityAndSketch() throws IOException {
        byte[] sketch = MinHashSketch.V1.sketch("a near duplicate of a news story");
        String b64 = java.util.Base64.getEncoder().encodeToString(sketch);
        SimHashQueryBuilder text = (SimHashQueryBuilder) parseQuery("""
            {"simhash": {"field": "sk", "text": "news story", "min_similarity": 0.7}}""");
        assertEquals(0.7, text.minSimilarity(), 0.0);
        SimHashQueryBuilder hash = (SimHashQueryBuilder) parseQuery("{\"simhash\": {\"field\": \"sk\", \"hash\": 5, \"sketch\": \"" + b64
            + "\", \"min_similarity\": 1, \"exclude\": {\"index\": \"news\", \"id\": \"4\"}}}");
        assertArrayEquals(sketch, hash.sketch());
        assertEquals(1.0, hash.minSimilarity(), 0.0);
        String json = org.elasticsearch.common.Strings.toString(hash);
        assertThat(json, containsString("\"sketch\":\"" + b64 + "\""));
        assertEquals(hash, parseQuery(json));
        byte[] other = sketch.clone();
        other[0] ^= 1;
        assertNotEquals(hash, new SimHashQueryBuilder("sk").hash(5).sketch(other).minSimilarity(1.0).exclude("news", "4"));
        SimHashQueryBuilder like = (SimHashQueryBuilder) parseQuery("""
            {"simhash": {"field": "sk", "like": "4", "min_similarity": 0.9, "k": 3}}""");
        assertEquals(0.9, like.minSimilarity(), 0.0);
        assertEquals(3, (int) like.k());
    }

    public void testMinSimilarityErrorsNameTheParameter() {
        String b64 = java.util.Base64.getEncoder().encodeToString(new byte[MinHashSketch.BYTES]);
        for (String bad : List.of("0", "-0.5", "1.01", "2")) {
            assertLocated("{\"simhash\": {\"field\": \"sk\", \"text\": \"x\", \"min_similarity\": " + bad + "}}", 1,
                "[simhash] failed to parse field [min_similarity]", "[min_similarity] must be greater than 0 and at most 1, got [");
        }
        assertLocated("{\"simhash\": {\"field\": \"sk\", \"text\": \"x\", \"min_similarity\": \"high\"}}", 1,
            "[simhash] failed to parse field [min_similarity]", "[min_similarity] must be a number, got [high]");
        assertLocated("{\"simhash\": {\"field\": \"sk\", \"text\": \"x\", \"min_similarity\": [0.5]}}", 1,
            "[simhash] failed to parse field [min_similarity]", "min_similarity doesn't support values of type: START_ARRAY");
        assertParseError("{\"simhash\": {\"field\": \"sk\", \"text\": \"x\", \"min_similarity\": 0.5, \"max_distance\": 3}}",
            "[simhash] [min_similarity] and [max_distance] exclude each other");
        assertParseError("{\"simhash\": {\"field\": \"sk\", \"hash\": 1, \"min_similarity\": 0.5}}",
            "[simhash] [min_similarity] needs the query's similarity sketch, and a bare [hash] has no sketch");
        assertParseError("{\"simhash\": {\"field\": \"sk\", \"text\": \"x\", \"sketch\": \"" + b64 + "\", \"min_similarity\": 0.5}}",
            "[simhash] [sketch] only applies to [hash]");
        assertParseError("{\"simhash\": {\"field\": \"sk\", \"hash\": 1, \"sketch\": \"" + b64 + "\", \"max_distance\": 3}}",
            "[simhash] [sketch] only applies with [min_similarity], or with neither [max_distance] nor [k]");
        assertParseError("{\"simhash\": {\"field\": \"sk\", \"hash\": 1, \"sketch\": \"" + b64 + "\", \"k\": 3}}",
            "[simhash] [sketch] only applies with [min_similarity], or with neither [max_distance] nor [k]");
        assertLocated("{\"simhash\": {\"field\": \"sk\", \"hash\": 1, \"sketch\": \"not base64!\", \"min_similarity\": 0.5}}", 1,
            "[simhash] failed to parse field [sketch]", "[sketch] must be base64");
        assertLocated("{\"simhash\": {\"field\": \"sk\", \"hash\": 1, \"sketch\": \"AAAA\", \"min_similarity\": 0.5}}", 1,
            "[simhash] failed to parse field [sketch]", "[sketch] must be the 134 bytes of a [minhash-v1] sketch, got [3] bytes");
    }

    /**
     * The default threshold: a text, or a hash with a sketch (a rewritten like), with neither max_distance, min_similarity nor
     * k on a field with a sketch is verified at {@link MinHashSketch#DEFAULT_MIN_SIMILARITY}; a bare hash, a radius, k, or a
     * field without a sketch keep the distance alone.
     */
    public void testDefaultThresholdOnAFieldWithASketch() throws IOException {
        SearchExecutionContext context = createSearchExecutionContext();
        byte[] sketch = MinHashSketch.V1.sketch("news story edited twice");
        double d = MinHashSketch.DEFAULT_MIN_SIMILARITY;
        assertEquals(d, check(new SimHashQueryBuilder(SKETCHED).text("news story edited twice").toQuery(context)).minSimilarity(), 0.0);
        SimHashQueryBuilder liked = (SimHashQueryBuilder) parseQuery("{\"simhash\": {\"field\": \"sk\", \"hash\": 1, \"sketch\": \""
            + java.util.Base64.getEncoder().encodeToString(sketch) + "\"}}");
        assertNull(liked.minSimilarity());
        assertEquals(liked, parseQuery(org.elasticsearch.common.Strings.toString(liked)));
        SketchBandQuery q = (SketchBandQuery) liked.toQuery(context);
        assertEquals(d, q.check().minSimilarity(), 0.0);
        // below 0.75 the candidates are the fingerprints within the threshold's radius
        SimHashQuery low = (SimHashQuery) new SimHashQueryBuilder(SKETCHED).text("news story edited twice").minSimilarity(0.7)
            .toQuery(context);
        assertEquals(0.7, low.check().minSimilarity(), 0.0);
        assertEquals(CandidateRadius.radius(0.7), low.maxDistance());
        SimHashQuery bare = (SimHashQuery) new SimHashQueryBuilder(SKETCHED).hash(1L).toQuery(context);
        assertNull(bare.check());
        assertEquals(6, bare.maxDistance());
        SimHashQuery radius = (SimHashQuery) new SimHashQueryBuilder(SKETCHED).text("news story edited twice").maxDistance(9).toQuery(context);
        assertNull(radius.check());
        assertEquals(9, radius.maxDistance());
        assertNull(((SimHashNearestQuery) new SimHashQueryBuilder(SKETCHED).text("news story edited twice").k(2).toQuery(context)).check());
        SimHashQuery objectForm = (SimHashQuery) new SimHashQueryBuilder(FIELD).text("news story edited twice").toQuery(context);
        assertNull(objectForm.check());
        SimHashQuery objectFormWithSketch = (SimHashQuery) new SimHashQueryBuilder(FIELD).hash(1L).sketch(sketch).toQuery(context);
        assertNull(objectFormWithSketch.check());
    }

    private static SketchCheck check(Query q) {
        return q instanceof SketchBandQuery b ? b.check() : ((SimHashQuery) q).check();
    }

    /** On a field without a sketch (the processor's object form here) min_similarity is refused, saying why. */
    public void testMinSimilarityNeedsAFieldWithASketch() {
        SimHashQueryBuilder b = new SimHashQueryBuilder(FIELD).text("news story").minSimilarity(0.8);
        IllegalArgumentException e = expectThrows(IllegalArgumentException.class, () -> b.toQuery(createSearchExecutionContext()));
        assertThat(e.getMessage(), containsString("[simhash] [min_similarity] needs similarity sketches, but [fp] stores none: it is "
            + "the object the simhash processor writes"));
    }

    /** A leaf query has no nesting of its own (the inherited check is skipped); it must nest inside compound queries. */
    @Override
    public void testMaxNestedDepth() throws IOException {
        SimHashQueryBuilder inner = createTestQueryBuilder();
        org.elasticsearch.index.query.BoolQueryBuilder bool = new org.elasticsearch.index.query.BoolQueryBuilder().filter(
            new org.elasticsearch.index.query.BoolQueryBuilder().must(inner));
        org.elasticsearch.index.query.QueryBuilder parsed = parseQuery(org.elasticsearch.common.Strings.toString(bool));
        assertEquals(bool, parsed);
    }
}
