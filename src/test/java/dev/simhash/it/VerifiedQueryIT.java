package dev.simhash.it;

import dev.simhash.core.CandidateRadius;
import dev.simhash.core.MinHashSketch;
import dev.simhash.core.SimHash;
import dev.simhash.core.SimHashV2;
import dev.simhash.it.support.Fixtures;
import dev.simhash.it.support.RealNodeExtension;
import dev.simhash.it.support.Rest;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.opentest4j.AssertionFailedError;

import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static dev.simhash.it.support.Rest.ordered;
import static dev.simhash.it.support.Rest.toJson;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The {@code simhash} query with {@code min_similarity} on a real 3-shard index of random texts with edited
 * near-duplicates: for {@code text} and {@code like} it returns exactly the documents brute force selects from the
 * indexed texts (candidate iff the two minhash-v1 sketches hold the same 16 bits at one of their 32 bands, from
 * {@code min_similarity} 0.75 on, at two of them from 0.79 on, else iff the simhash-v2 fingerprints are within the threshold's radius; match iff the
 * sketches' estimated similarity reaches the threshold), scored by that similarity; every 400 of the parameters.
 */
@ExtendWith(RealNodeExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Tag("smoke")
class VerifiedQueryIT {

    static final String INDEX = "verified-news";
    static final String PLAIN = "verified-plain";
    static final String FIELD = "body.simhash";
    static final double[] THRESHOLDS = { 0.3, 0.5, 0.6, 0.7, 0.74, 0.75, 0.78, 0.79, 0.8, 0.9, 1.0 };
    /** The lowest threshold whose candidates are found by sketch bands (docs/spec/minhash-v1.md, "Candidates"). */
    static final double BANDS_FROM = 0.75;
    /** The lowest threshold whose candidates share two bands. */
    static final double TWO_BANDS_FROM = 0.79;

    private final Rest rest;
    private final Random random = new Random(20261126);
    private final List<String> vocabulary = new ArrayList<>();
    /** The indexed texts by id, with their fingerprints and sketches computed here from the texts. */
    private final Map<String, String> texts = new LinkedHashMap<>();
    private final Map<String, Long> fingerprints = new LinkedHashMap<>();
    private final Map<String, byte[]> sketches = new LinkedHashMap<>();
    private final List<String> bases = new ArrayList<>();

    VerifiedQueryIT(Rest rest) {
        this.rest = rest;
    }

    @BeforeAll
    void load() {
        rest.delete("/verified-*");
        rest.ok("PUT", "/" + INDEX, """
            {"settings": {"number_of_shards": 3, "number_of_replicas": 0},
             "mappings": {"properties": {"body": {"type": "text", "fields": {"simhash": {"type": "simhash"}}}}}}""");
        for (int i = 0; i < 1500; i++) {
            StringBuilder w = new StringBuilder();
            for (int c = 3 + random.nextInt(6); c > 0; c--) {
                w.append((char) ('a' + random.nextInt(26)));
            }
            vocabulary.add(w.toString());
        }
        StringBuilder ndjson = new StringBuilder();
        while (texts.size() < 1200) {
            String base = randomText(20 + random.nextInt(120));
            bases.add(base);
            add("d" + texts.size(), base, ndjson);
            for (int v = random.nextInt(6); v > 0; v--) {
                // light edits: with 5-token shingles, 5% of the words edited already leave a Jaccard similarity near 0.6
                add("d" + texts.size(), edit(base, random.nextInt(4) == 0 ? 0 : random.nextDouble() * 0.12), ndjson);
            }
        }
        Rest.Answer bulk = rest.bulk("/" + INDEX + "/_bulk?refresh=true", ndjson.toString());
        assertEquals(Boolean.FALSE, bulk.at("errors"), bulk.body().substring(0, Math.min(500, bulk.body().length())));
    }

    @AfterAll
    void drop() {
        rest.delete("/verified-*");
    }

    private void add(String id, String text, StringBuilder ndjson) {
        texts.put(id, text);
        fingerprints.put(id, SimHashV2.fingerprint(text, 1).getAsLong());
        sketches.put(id, MinHashSketch.V1.sketch(text));
        ndjson.append(toJson(Map.of("index", Map.of("_id", id)))).append('\n').append(toJson(Map.of("body", text))).append('\n');
    }

    /** Words from the vocabulary, now and then a run of Han characters (one token each in simhash-v2). */
    private String randomText(int words) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < words; i++) {
            out.add(random.nextInt(12) == 0 ? han(1 + random.nextInt(4)) : vocabulary.get(random.nextInt(vocabulary.size())));
        }
        return String.join(" ", out);
    }

    private String han(int n) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n; i++) {
            b.append((char) (0x4E00 + random.nextInt(400)));
        }
        return b.toString();
    }

    /** The text with a share {@code rate} of its words deleted, replaced or followed by an inserted word. */
    private String edit(String text, double rate) {
        List<String> out = new ArrayList<>();
        for (String w : text.split(" ")) {
            double u = random.nextDouble();
            if (u < rate / 3) {
                continue;
            }
            out.add(u < 2 * rate / 3 ? vocabulary.get(random.nextInt(vocabulary.size())) : w);
            if (u >= 2 * rate / 3 && u < rate) {
                out.add(vocabulary.get(random.nextInt(vocabulary.size())));
            }
        }
        return out.isEmpty() ? text : String.join(" ", out);
    }

    /** Brute force: ids with their similarity, the candidates (see the class comment) whose sketches reach the threshold. */
    private Map<String, Double> bruteForce(long fingerprint, byte[] sketch, double s, String excluded) {
        int radius = CandidateRadius.radius(s);
        Map<String, Double> out = new TreeMap<>();
        for (String id : texts.keySet()) {
            boolean candidate = s >= BANDS_FROM ? sharedBands(sketches.get(id), sketch) >= (s >= TWO_BANDS_FROM ? 2 : 1)
                : SimHash.distance(fingerprints.get(id), fingerprint) <= radius;
            if (id.equals(excluded) || !candidate) {
                continue;
            }
            double similarity = MinHashSketch.V1.similarity(sketches.get(id), sketch);
            if (similarity >= s) {
                out.put(id, similarity);
            }
        }
        return out;
    }

    /** In how many of the 32 two-byte slices starting at even bytes the two 64-byte sketches are equal. */
    static int sharedBands(byte[] a, byte[] b) {
        int shared = 0;
        for (int band = 0; band < 32; band++) {
            if (a[2 * band] == b[2 * band] && a[2 * band + 1] == b[2 * band + 1]) {
                shared++;
            }
        }
        return shared;
    }

    /** The hits of a simhash query with their scores, checked in descending order. */
    private Map<String, Double> search(Map<String, Object> simhash) {
        Rest.Answer a = rest.post("/" + INDEX + "/_search", toJson(Map.of("size", 10000, "track_total_hits", true,
            "query", Map.of("simhash", simhash))));
        assertEquals(200, a.status(), a.toString());
        List<Map<String, Object>> hits = a.at("hits.hits");
        assertEquals(hits.size(), ((Number) a.at("hits.total.value")).intValue());
        Map<String, Double> out = new TreeMap<>();
        double last = Double.MAX_VALUE;
        for (Map<String, Object> h : hits) {
            double score = ((Number) h.get("_score")).doubleValue();
            assertTrue(score <= last, "hits ordered by similarity");
            last = score;
            out.put((String) h.get("_id"), score);
        }
        return out;
    }

    /** Same ids, and each score is boost * the similarity brute force estimated (as a float). */
    static void assertSameHits(Map<String, Double> expected, Map<String, Double> actual, double boost, String what) {
        if (!expected.keySet().equals(actual.keySet())) {
            Map<String, Double> missing = new TreeMap<>(expected);
            actual.keySet().forEach(missing::remove);
            Map<String, Double> extra = new TreeMap<>(actual);
            expected.keySet().forEach(extra::remove);
            throw new AssertionFailedError(what + ": missing " + missing + ", unexpected " + extra);
        }
        expected.forEach((id, s) -> assertEquals((float) (boost * s), actual.get(id), 1e-6, what + " score of " + id));
    }

    @Test
    void textWithMinSimilarityReturnsExactlyTheVerifiedNearDuplicates() {
        int nonEmpty = 0;
        for (int q = 0; q < 40; q++) {
            String text = edit(bases.get(random.nextInt(bases.size())), random.nextDouble() * 0.06);
            double s = THRESHOLDS[q % THRESHOLDS.length];
            double boost = q % 4 == 0 ? 2.5 : 1;
            Map<String, Double> expected = bruteForce(SimHashV2.fingerprint(text, 1).getAsLong(), MinHashSketch.V1.sketch(text), s, null);
            Map<String, Object> query = ordered("field", FIELD, "text", text, "min_similarity", s);
            if (boost != 1) {
                query.put("boost", boost);
            }
            assertSameHits(expected, search(query), boost, "text query " + q + " at " + s);
            nonEmpty += expected.isEmpty() ? 0 : 1;
        }
        assertTrue(nonEmpty >= 15, "many queries find near-duplicates: " + nonEmpty);
    }

    @Test
    void likeWithMinSimilarityReturnsExactlyTheVerifiedNearDuplicatesButTheLikedDocument() {
        List<String> ids = new ArrayList<>(texts.keySet());
        int others = 0;
        for (int q = 0; q < 30; q++) {
            String id = ids.get(random.nextInt(ids.size()));
            double s = THRESHOLDS[q % THRESHOLDS.length];
            boolean include = q % 5 == 0;
            Map<String, Double> expected = bruteForce(fingerprints.get(id), sketches.get(id), s, include ? null : id);
            Map<String, Object> like = q % 2 == 0 ? Map.of("index", INDEX, "id", id) : Map.of("id", id);
            Map<String, Object> query = ordered("field", FIELD, "like", like, "min_similarity", s);
            if (include) {
                query.put("include", true);
                assertEquals(1.0, expected.get(id), 0.0, "a document is identical to itself");
            }
            assertSameHits(expected, search(query), 1, "like " + id + " at " + s);
            others += expected.size() > (include ? 1 : 0) ? 1 : 0;
        }
        assertTrue(others >= 8, "many liked documents have near-duplicates: " + others);
    }

    /**
     * Neither max_distance, min_similarity nor k on a field with a sketch: text and like are verified at the default
     * threshold; a bare hash keeps simhash-v2's default radius of 6 bits, scored by distance.
     */
    @Test
    void textAndLikeWithoutRadiusOrThresholdUseTheDefaultMinSimilarity() {
        double d = MinHashSketch.DEFAULT_MIN_SIMILARITY;
        List<String> ids = new ArrayList<>(texts.keySet());
        int found = 0;
        for (int q = 0; q < 10; q++) {
            String text = edit(bases.get(random.nextInt(bases.size())), random.nextDouble() * 0.04);
            Map<String, Double> expected = bruteForce(SimHashV2.fingerprint(text, 1).getAsLong(), MinHashSketch.V1.sketch(text), d, null);
            assertSameHits(expected, search(ordered("field", FIELD, "text", text)), 1, "default text query " + q);
            found += expected.isEmpty() ? 0 : 1;
            String id = ids.get(random.nextInt(ids.size()));
            assertSameHits(bruteForce(fingerprints.get(id), sketches.get(id), d, id),
                search(ordered("field", FIELD, "like", Map.of("index", INDEX, "id", id))), 1, "default like " + id);
            long h = fingerprints.get(id);
            Map<String, Double> byDistance = new TreeMap<>();
            fingerprints.forEach((other, f) -> {
                int distance = SimHash.distance(f, h);
                if (distance <= SimHashV2.DEFAULT_MAX_DISTANCE) {
                    byDistance.put(other, (64 - distance) / 64.0);
                }
            });
            assertSameHits(byDistance, search(ordered("field", FIELD, "hash", SimHash.toHex(h))), 1, "bare hash " + id);
        }
        assertTrue(found >= 3, "some default text queries find near-duplicates: " + found);
    }

    /** A hash with the sketch read through fields/format is the same query as the like it stands for. */
    @Test
    void theSketchReadThroughFieldsIsTheClientSideSketchAndQueriesWithHash() {
        List<String> ids = new ArrayList<>(texts.keySet()).subList(0, 50);
        Rest.Answer a = rest.post("/" + INDEX + "/_search", toJson(Map.of("size", 100, "_source", false,
            "query", Map.of("ids", Map.of("values", ids)),
            "fields", List.of(Map.of("field", FIELD, "format", MinHashSketch.ALGORITHM)))));
        assertEquals(200, a.status(), a.toString());
        List<Map<String, Object>> hits = a.at("hits.hits");
        assertEquals(ids.size(), hits.size());
        for (Map<String, Object> h : hits) {
            String id = (String) h.get("_id");
            @SuppressWarnings("unchecked")
            List<String> values = (List<String>) ((Map<String, Object>) h.get("fields")).get(FIELD);
            assertEquals(1, values.size(), id);
            byte[] stored = Base64.getDecoder().decode(values.get(0));
            assertArrayEquals(sketches.get(id), stored, id);
        }
        String id = ids.get(7);
        Map<String, Double> expected = bruteForce(fingerprints.get(id), sketches.get(id), 0.5, id);
        assertSameHits(expected, search(ordered("field", FIELD, "hash", SimHash.toHex(fingerprints.get(id)),
            "sketch", Base64.getEncoder().encodeToString(sketches.get(id)), "min_similarity", 0.5,
            "exclude", Map.of("index", INDEX, "id", id))), 1, "hash + sketch");
    }

    /** With k: the k most similar of each shard among the verified; with size k, the k best scores of the index. */
    @Test
    void kWithMinSimilarityKeepsTheMostSimilarVerifiedDocuments() {
        for (int q = 0; q < 10; q++) {
            String text = edit(bases.get(random.nextInt(bases.size())), 0.05);
            int k = 1 + random.nextInt(3);
            List<Double> expected = new ArrayList<>(bruteForce(SimHashV2.fingerprint(text, 1).getAsLong(), MinHashSketch.V1.sketch(text),
                0.3, null).values());
            expected.sort((x, y) -> Double.compare(y, x));
            Rest.Answer a = rest.post("/" + INDEX + "/_search", toJson(Map.of("size", k, "query", Map.of("simhash",
                ordered("field", FIELD, "text", text, "min_similarity", 0.3, "k", k)))));
            assertEquals(200, a.status(), a.toString());
            List<Map<String, Object>> hits = a.at("hits.hits");
            assertEquals(Math.min(k, expected.size()), hits.size(), a.toString());
            for (int i = 0; i < hits.size(); i++) {
                assertEquals((float) (double) expected.get(i), ((Number) hits.get(i).get("_score")).doubleValue(), 1e-6, "rank " + i);
            }
        }
    }

    /**
     * A liked document deleted since the last refresh is not found, whatever the threshold: the realtime GET that every
     * {@code like} with an index starts with sees the delete, where a search would still read the old document.
     */
    @Test
    void aLikedDocumentDeletedButNotRefreshedIsNotFoundWhateverTheThreshold() {
        String index = INDEX + "-deleted";
        rest.ok("PUT", "/" + index, """
            {"settings": {"number_of_shards": 1, "number_of_replicas": 0, "refresh_interval": -1},
             "mappings": {"properties": {"body": {"type": "text", "fields": {"simhash": {"type": "simhash"}}}}}}""");
        String text = randomText(40);
        rest.ok("PUT", "/" + index + "/_doc/gone", toJson(Map.of("body", text)));
        rest.ok("PUT", "/" + index + "/_doc/kept", toJson(Map.of("body", text + " " + randomText(2))));
        rest.ok("POST", "/" + index + "/_refresh", null);
        rest.ok("DELETE", "/" + index + "/_doc/gone", null);
        for (Map<String, Object> extra : List.of(Map.<String, Object>of(), Map.<String, Object>of("min_similarity", 0.5),
            Map.<String, Object>of("max_distance", 12))) {
            Map<String, Object> query = ordered("field", "body.simhash", "like", Map.of("index", index, "id", "gone"));
            query.putAll(extra);
            Rest.Answer a = rest.post("/" + index + "/_search", toJson(Map.of("query", Map.of("simhash", query))));
            assertEquals(404, a.status(), query + " " + a);
            assertTrue(a.body().contains("[like] document [" + index + "/gone] not found"), a.toString());
        }
        rest.delete("/" + index);
    }

    /**
     * {@code like} with an index reads the liked document on its shard in one request: the liked index serves a realtime
     * get for each query and no search (the steps {@code like} takes when that request reads nothing would search it), and
     * the hits are those of the same query written with the document's hash and sketch.
     */
    @Test
    void likeReadsTheLikedDocumentWithAGetAndNoSearchOfItsIndex() {
        String liked = INDEX + "-liked";
        rest.ok("PUT", "/" + liked, """
            {"settings": {"number_of_shards": 2, "number_of_replicas": 0},
             "mappings": {"properties": {"body": {"type": "text", "fields": {"simhash": {"type": "simhash"}}}}}}""");
        String id = "d1";
        rest.ok("PUT", "/" + liked + "/_doc/" + id + "?routing=r7&refresh=true", toJson(Map.of("body", texts.get(id))));
        List<Map<String, Object>> extras = List.of(Map.of(), Map.of("min_similarity", 0.5), Map.of("max_distance", 12));
        long searches = Fixtures.primariesStat(rest, liked, "search.query_total");
        long gets = Fixtures.primariesStat(rest, liked, "get.total");
        for (Map<String, Object> extra : extras) {
            Map<String, Object> byLike = ordered("field", FIELD, "like", Map.of("index", liked, "id", id, "routing", "r7"));
            byLike.putAll(extra);
            Rest.Answer a = rest.post("/" + INDEX + "/_search", toJson(Map.of("query", Map.of("simhash", byLike), "size", 50)));
            assertEquals(200, a.status(), a.toString());
            Map<String, Object> byHash = ordered("field", FIELD, "hash", SimHash.toHex(fingerprints.get(id)));
            if (!extra.containsKey("max_distance")) {
                byHash.put("sketch", Base64.getEncoder().encodeToString(sketches.get(id)));
            }
            byHash.putAll(extra);
            Rest.Answer b = rest.post("/" + INDEX + "/_search", toJson(Map.of("query", Map.of("simhash", byHash), "size", 50)));
            assertEquals(Fixtures.ids(b), Fixtures.ids(a), extra + " " + a);
            assertTrue(Fixtures.ids(a).contains(id), a.toString()); // the liked document is of another index: not excluded here
        }
        assertEquals(searches, Fixtures.primariesStat(rest, liked, "search.query_total"), "searches of the liked index");
        assertEquals(gets + extras.size(), Fixtures.primariesStat(rest, liked, "get.total"), "gets of the liked index");
        rest.delete("/" + liked);
    }

    /**
     * {@code like} with an index pattern finds the document in the one index that holds it, and says which indices hold it
     * when several do; a {@code field} that is the text (not its {@code simhash} field) is named as such.
     */
    @Test
    void likeWithAPatternAndLikeOnTheTextFieldAnswerWhatIsWrong() {
        String text = randomText(40);
        for (String index : List.of(INDEX + "-pat1", INDEX + "-pat2")) {
            rest.ok("PUT", "/" + index, """
                {"settings": {"number_of_shards": 2, "number_of_replicas": 0},
                 "mappings": {"properties": {"body": {"type": "text", "fields": {"simhash": {"type": "simhash"}}}}}}""");
            rest.ok("PUT", "/" + index + "/_doc/twice", toJson(Map.of("body", text)));
        }
        rest.ok("PUT", "/" + INDEX + "-pat1/_doc/once", toJson(Map.of("body", text + " " + randomText(1))));
        rest.ok("POST", "/" + INDEX + "-pat*/_refresh", null);
        String pattern = INDEX + "-pat*";
        for (Map<String, Object> extra : List.of(Map.<String, Object>of(), Map.<String, Object>of("max_distance", 12))) {
            Map<String, Object> once = ordered("field", "body.simhash", "like", Map.of("index", pattern, "id", "once"));
            once.putAll(extra);
            Rest.Answer found = rest.post("/" + pattern + "/_search", toJson(Map.of("query", Map.of("simhash", once))));
            assertEquals(200, found.status(), found.toString());
            assertEquals(2, ((List<?>) found.at("hits.hits")).size(), found.toString());
            Map<String, Object> twice = ordered("field", "body.simhash", "like", Map.of("index", pattern, "id", "twice"));
            twice.putAll(extra);
            Rest.Answer several = rest.post("/" + pattern + "/_search", toJson(Map.of("query", Map.of("simhash", twice))));
            assertEquals(400, several.status(), several.toString());
            assertTrue(several.body().contains("exists in several indices"), several.toString());
            Map<String, Object> onText = ordered("field", "body", "like", Map.of("index", INDEX + "-pat1", "id", "once"));
            onText.putAll(extra);
            Rest.Answer text400 = rest.post("/" + INDEX + "-pat1/_search", toJson(Map.of("query", Map.of("simhash", onText))));
            assertEquals(400, text400.status(), text400.toString());
            assertTrue(text400.body().contains("[field] [body] is a [text] field; it must name a [simhash] field"), text400.toString());
        }
        rest.delete("/" + INDEX + "-pat*");
        // a simhash field inside a nested object: the liked document itself has no fingerprint there, and the 400 says why
        String nested = INDEX + "-nested";
        rest.ok("PUT", "/" + nested, """
            {"settings": {"number_of_shards": 1, "number_of_replicas": 0},
             "mappings": {"properties": {"comments": {"type": "nested", "properties": {
               "body": {"type": "text", "fields": {"simhash": {"type": "simhash"}}}}}}}}""");
        rest.ok("PUT", "/" + nested + "/_doc/n1?refresh=true", toJson(Map.of("comments", List.of(Map.of("body", text)))));
        for (Map<String, Object> extra : List.of(Map.<String, Object>of(), Map.<String, Object>of("max_distance", 12))) {
            Map<String, Object> q = ordered("field", "comments.body.simhash", "like", Map.of("index", nested, "id", "n1"));
            q.putAll(extra);
            Rest.Answer a = rest.post("/" + nested + "/_search", toJson(Map.of("query", Map.of("simhash", q))));
            assertEquals(400, a.status(), a.toString());
            assertTrue(a.body().contains("[field] [comments.body.simhash] is inside the [nested] field [comments]"), a.toString());
        }
        rest.delete("/" + nested);
    }

    @Test
    void theMappingRecordsTheSketch() {
        rest.ok("PUT", "/" + PLAIN + "-mapping", """
            {"mappings": {"properties": {"body": {"type": "text", "fields": {"simhash": {"type": "simhash"},
               "nosketch": {"type": "simhash", "sketch": "none"}}}}}}""");
        Rest.Answer m = rest.ok("GET", "/" + INDEX + "/_mapping", null);
        assertEquals(MinHashSketch.ALGORITHM, m.at(INDEX + ".mappings.properties.body.fields.simhash.sketch"), m.toString());
        Rest.Answer p = rest.ok("GET", "/" + PLAIN + "-mapping/_mapping", null);
        assertEquals(MinHashSketch.ALGORITHM, p.at(PLAIN + "-mapping.mappings.properties.body.fields.simhash.sketch"), p.toString());
        assertEquals("none", p.at(PLAIN + "-mapping.mappings.properties.body.fields.nosketch.sketch"), p.toString());
    }

    private void assert400(String index, Map<String, Object> simhash, String message) {
        Rest.Answer a = rest.post("/" + index + "/_search", toJson(Map.of("query", Map.of("simhash", simhash))));
        assertEquals(400, a.status(), a.toString());
        assertTrue(a.body().contains(message), "expected [" + message + "] in " + a);
    }

    @Test
    void badValuesAndCombinationsAre400sNamingTheParameter() {
        String text = texts.get("d0");
        for (Object bad : List.of(0, -0.1, 1.5, "high", List.of(0.5))) {
            assert400(INDEX, ordered("field", FIELD, "text", text, "min_similarity", bad), "[min_similarity]");
        }
        assert400(INDEX, ordered("field", FIELD, "text", text, "min_similarity", 0.8, "max_distance", 4),
            "[min_similarity] and [max_distance] exclude each other");
        assert400(INDEX, ordered("field", FIELD, "hash", "00000000000000ff", "min_similarity", 0.8),
            "a bare [hash] has no sketch");
        String sketch = Base64.getEncoder().encodeToString(sketches.get("d0"));
        assert400(INDEX, ordered("field", FIELD, "hash", "00000000000000ff", "sketch", "%%%", "min_similarity", 0.8), "[sketch] must be base64");
        assert400(INDEX, ordered("field", FIELD, "hash", "00000000000000ff", "sketch", sketch.substring(8), "min_similarity", 0.8),
            "[sketch] must be the 134 bytes");
        assert400(INDEX, ordered("field", FIELD, "text", text, "sketch", sketch, "min_similarity", 0.8), "[sketch] only applies to [hash]");
        assert400(INDEX, ordered("field", FIELD, "hash", "00000000000000ff", "sketch", sketch, "max_distance", 3),
            "[sketch] only applies with [min_similarity], or with neither [max_distance] nor [k]");
    }

    /** Fields without sketches: sketch none, simhash-v1, input fingerprint and the processor's object form. */
    @Test
    void fieldsWithoutASketchAre400sSayingSo() {
        String index = PLAIN + "-nosketch";
        rest.ok("PUT", "/" + index, """
            {"settings": {"number_of_shards": 1, "number_of_replicas": 0},
             "mappings": {"properties": {"body": {"type": "text", "fields": {"none": {"type": "simhash", "sketch": "none"},
               "v1": {"type": "simhash", "version": "v1"}}}, "given": {"type": "simhash", "input": "fingerprint"},
               "simhash": %s}}}""".formatted(Fixtures.FP_MAPPING));
        String text = texts.get("d0");
        rest.ok("PUT", "/" + index + "/_doc/1?refresh=true", toJson(Map.of("body", text, "given", "00000000000000ff",
            "simhash", Fixtures.storedForm(255L))));
        String sketch = Base64.getEncoder().encodeToString(sketches.get("d0"));
        Map<String, String> reasons = Map.of("body.none", "its [sketch] is [none]", "body.v1", "it fingerprints with simhash-v1",
            "given", "it takes ready-made fingerprints", "simhash", "it is the object the simhash processor writes");
        reasons.forEach((field, reason) -> {
            String stores = "[min_similarity] needs similarity sketches, but [" + field + "] stores none: " + reason;
            if (!field.equals("given")) {
                assert400(index, ordered("field", field, "text", text, "min_similarity", 0.8), stores);
            }
            assert400(index, ordered("field", field, "hash", "00000000000000ff", "sketch", sketch, "min_similarity", 0.8), stores);
            // like: the coordinator finds that the liked document's field has no sketch
            assert400(index, ordered("field", field, "like", Map.of("index", index, "id", "1"), "min_similarity", 0.8),
                "[min_similarity] needs similarity sketches, but [" + field + "] stores none in index [" + index + "], where the [like] document");
            // without radius or threshold a like keeps working there: the liked document's field has no sketch to verify with
            Rest.Answer likeDefault = rest.post("/" + index + "/_search", toJson(Map.of("query", Map.of("simhash",
                ordered("field", field, "like", Map.of("index", index, "id", "1"), "include", true)))));
            assertEquals(200, likeDefault.status(), likeDefault.toString());
            assertEquals(List.of("1"), Fixtures.ids(likeDefault), field);
            // max_distance still works there
            Rest.Answer ok = rest.post("/" + index + "/_search", toJson(Map.of("query", Map.of("simhash",
                ordered("field", field, "hash", "00000000000000ff", "max_distance", 64)))));
            assertEquals(200, ok.status(), ok.toString());
        });
    }
}
