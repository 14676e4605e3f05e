package dev.simhash.query;

import dev.simhash.SimHashPlugin;
import dev.simhash.compat.lucene.CompatClauses;
import dev.simhash.core.FeatureAnalyzer;
import dev.simhash.core.FingerprintSpec;
import dev.simhash.core.SimHashV2;
import dev.simhash.core.TextFingerprinter;
import dev.simhash.core.Weighting;

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

import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.Map;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.instanceOf;

/**
 * Elasticsearch's query-builder contract: JSON and wire round trips, equals/hashCode, unknown
 * fields rejected, boost and _name, and the Lucene query it builds.
 */
public class SimHashQueryBuilderTest extends AbstractQueryTestCase<SimHashQueryBuilder> {

    private static final String FIELD = "fp";

    @Override
    protected Collection<Class<? extends Plugin>> getPlugins() {
        return List.of(SimHashPlugin.class);
    }

    @Override
    protected void initializeAdditionalMappings(MapperService mapperService) throws IOException {
        mapperService.merge("_doc", new CompressedXContent("""
            {"properties": {"fp": {"properties": {"hash": {"type": "long"}, "b0": {"type": "keyword"}, "b1": {"type": "keyword"},
              "b2": {"type": "keyword"}, "b3": {"type": "keyword"}}}}}"""), MapperService.MergeReason.MAPPING_UPDATE);
    }

    @Override
    protected SimHashQueryBuilder doCreateTestQueryBuilder() {
        SimHashQueryBuilder b = new SimHashQueryBuilder(FIELD);
        if (randomBoolean()) {
            b.hash(randomLong());
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
            return;
        }
        if (builder.filter() != null) {
            // the filter is a clause beside the simhash query
            assertThat(query, instanceOf(BooleanQuery.class));
            assertEquals(2, ((BooleanQuery) query).clauses().size());
            assertEquals(BooleanClause.Occur.FILTER, CompatClauses.occur(((BooleanQuery) query).clauses().get(1)));
            query = CompatClauses.query(((BooleanQuery) query).clauses().get(0));
        }
        assertThat(query, instanceOf(SimHashQuery.class));
        SimHashQuery q = (SimHashQuery) query;
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
        assertEquals(new SimHashQueryBuilder.Like("news", "42", "r"), like.like());
    }

    public void testInvalidInputNamesTheParameter() {
        assertParseError("{\"simhash\": {\"field\": \"fp\", \"hash\": \"nothex\"}}", "[hash]");
        assertParseError("{\"simhash\": {\"field\": \"fp\", \"hash\": 1, \"max_distance\": 65}}", "[max_distance] must be between 0 and 64");
        assertParseError("{\"simhash\": {\"hash\": 1}}", "requires [field]");
        assertParseError("{\"simhash\": {\"field\": \"fp\", \"hash\": 1, \"like\": \"x\"}}", "exactly one of");
        assertParseError("{\"simhash\": {\"field\": \"fp\", \"hash\": 1, \"nope\": 1}}", "does not support [nope]");
        assertParseError("{\"simhash\": {\"field\": \"fp\", \"text\": \"x\", \"min_features\": 0}}", "[min_features]");
    }

    private void assertParseError(String json, String message) {
        Exception e = expectThrows(Exception.class, () -> parseQuery(json));
        assertThat(e, instanceOf(ParsingException.class));
        assertThat(e.getMessage(), containsString(message));
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
