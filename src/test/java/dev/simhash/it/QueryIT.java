package dev.simhash.it;

import dev.simhash.core.FeatureAnalyzer;
import dev.simhash.core.FingerprintOptions;
import dev.simhash.core.SimHash;
import dev.simhash.core.TextFingerprinter;
import dev.simhash.it.support.Fixtures;
import dev.simhash.it.support.RealNodeExtension;
import dev.simhash.it.support.Rest;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.opentest4j.AssertionFailedError;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static dev.simhash.it.support.Fixtures.flip;
import static dev.simhash.it.support.Fixtures.ids;
import static dev.simhash.it.support.Rest.toJson;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The simhash query on a real multi-shard index: exact for every radius, composable, clear errors. */
@ExtendWith(RealNodeExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class QueryIT {

    static final String INDEX = "query-exact";
    static final int DOCS = 4000;
    static final int[] RADII = { 0, 1, 2, 3, 4, 7, 11, 20 };

    private final Rest rest;
    private final Map<String, Long> corpus = new LinkedHashMap<>();
    private final List<Long> bases = new ArrayList<>();

    QueryIT(Rest rest) {
        this.rest = rest;
    }

    @BeforeAll
    void loadCorpus() {
        rest.delete("/query-*");
        rest.ok("PUT", "/" + INDEX, Fixtures.objectFormIndex(3));
        Random r = new Random(20261122);
        while (corpus.size() < DOCS) {
            long base = r.nextLong();
            bases.add(base);
            corpus.put("c" + corpus.size(), base);
            // planted neighbours at every distance 0..20
            for (int d = 0; d <= 20 && corpus.size() < DOCS; d += 1 + r.nextInt(3)) {
                corpus.put("c" + corpus.size(), flip(r, base, d));
            }
            for (int i = 0; i < 10 && corpus.size() < DOCS; i++) {
                corpus.put("c" + corpus.size(), r.nextLong());
            }
        }
        StringBuilder ndjson = new StringBuilder();
        corpus.forEach((id, h) -> ndjson.append(toJson(Map.of("index", Map.of("_id", id)))).append('\n')
            .append(toJson(Map.of("simhash", Fixtures.storedForm(h)))).append('\n'));
        Rest.Answer bulk = rest.bulk("/" + INDEX + "/_bulk?refresh=true", ndjson.toString());
        assertEquals(Boolean.FALSE, bulk.at("errors"), bulk.body().substring(0, 500));
    }

    @AfterAll
    void dropIndices() {
        rest.delete("/query-*");
    }

    /** Hit ids with their distances, from a search with the simhash query; checks score = (64 - d) / 64 and order. */
    Map<String, Integer> search(String index, Map<String, Object> simhash) {
        Rest.Answer a = rest.post("/" + index + "/_search", toJson(Map.of("size", 10000, "track_total_hits", true,
            "query", Map.of("simhash", simhash))));
        assertEquals(200, a.status(), a.toString());
        List<Map<String, Object>> hits = a.at("hits.hits");
        assertEquals(hits.size(), ((Number) a.at("hits.total.value")).intValue());
        Map<String, Integer> out = new TreeMap<>();
        double last = Double.MAX_VALUE;
        long query = SimHash.parse(String.valueOf(simhash.get("hash")));
        for (Map<String, Object> h : hits) {
            String id = (String) h.get("_id");
            int d = SimHash.distance(corpus.get(id), query);
            double score = ((Number) h.get("_score")).doubleValue();
            assertEquals((64 - d) / 64.0, score, 1e-7, id);
            assertTrue(score <= last, "hits ordered by distance");
            last = score;
            out.put(id, d);
        }
        return out;
    }

    Map<String, Integer> bruteForce(long query, int r) {
        Map<String, Integer> out = new TreeMap<>();
        corpus.forEach((id, h) -> {
            int d = SimHash.distance(h, query);
            if (d <= r) {
                out.put(id, d);
            }
        });
        return out;
    }

    static void assertSameHits(Map<String, Integer> expected, Map<String, Integer> actual, String what) {
        if (!expected.equals(actual)) {
            Map<String, Integer> missing = new TreeMap<>(expected);
            actual.keySet().forEach(missing::remove);
            Map<String, Integer> extra = new TreeMap<>(actual);
            expected.keySet().forEach(extra::remove);
            throw new AssertionFailedError(what + ": missing " + missing + ", unexpected " + extra);
        }
    }

    @Test
    void exactForEveryRadius() {
        Random r = new Random(7);
        int compared = 0;
        for (int radius : RADII) {
            for (int q = 0; q < 6; q++) {
                long query = q < 4 ? flip(r, bases.get(r.nextInt(bases.size())), r.nextInt(4)) : r.nextLong();
                Map<String, Integer> expected = bruteForce(query, radius);
                Map<String, Integer> actual = search(INDEX, Map.of("field", "simhash", "hash", SimHash.toHex(query), "max_distance", radius));
                assertSameHits(expected, actual, "r=" + radius + " hash=" + SimHash.toHex(query));
                compared += expected.size();
            }
        }
        assertTrue(compared > 100, "the planted neighbours must produce many matches, got " + compared);
    }

    /** An oracle check (reported apart from the plugin's tests): the comparison above catches one match too many or too few. */
    @Test
    void oracleDetectsOneDroppedOrAddedMatch() {
        long query = bases.get(0);
        Map<String, Integer> right = bruteForce(query, 7);
        // a wrong verifier that is off by one bit either way must be caught
        assertThrows(AssertionFailedError.class, () -> assertSameHits(right, bruteForce(query, 6), "dropped"));
        assertThrows(AssertionFailedError.class, () -> assertSameHits(right, bruteForce(query, 8), "added"));
        Map<String, Integer> oneLess = new TreeMap<>(right);
        oneLess.remove(oneLess.keySet().iterator().next());
        assertThrows(AssertionFailedError.class, () -> assertSameHits(right, oneLess, "one dropped"));
    }

    @Test
    void hashAsSignedLongAndLargeRadii() {
        long query = bases.get(3);
        assertSameHits(bruteForce(query, 3), search(INDEX, Map.of("field", "simhash", "hash", query)), "default radius 3, signed long");
        for (int radius : new int[] { 24, 32, 64 }) {
            Rest.Answer a = rest.post("/" + INDEX + "/_search", toJson(Map.of("size", 0, "track_total_hits", true,
                "query", Map.of("simhash", Map.of("field", "simhash", "hash", query, "max_distance", radius)))));
            assertEquals(bruteForce(query, radius).size(), ((Number) a.at("hits.total.value")).intValue(), "r=" + radius);
        }
    }

    @Test
    void textAndLikeInputs() {
        rest.ok("PUT", "/query-text", Fixtures.objectFormIndex(2));
        rest.ok("PUT", "/_ingest/pipeline/query-fp", toJson(Map.of("processors", List.of(Map.of("simhash", Map.of("field", "body"))))));
        String a = "国家统计局今天发布了最新一期的居民消费价格指数，食品价格环比上涨。Prices rose 0.2 percent in October.";
        String b = "国家统计局今天发布了最新一期的居民消费价格指数，食品价格环比上涨。Prices rose 0.3 percent in October.";
        String c = "The quick brown fox jumps over the lazy dog while the farmer sleeps.";
        rest.ok("PUT", "/query-text/_doc/a?pipeline=query-fp", toJson(Map.of("body", a)));
        rest.ok("PUT", "/query-text/_doc/b?pipeline=query-fp", toJson(Map.of("body", b)));
        rest.ok("PUT", "/query-text/_doc/c?pipeline=query-fp", toJson(Map.of("body", c)));
        rest.ok("PUT", "/query-text/_doc/nofp", toJson(Map.of("body", "no pipeline")));
        rest.ok("POST", "/query-text/_refresh", null);
        TextFingerprinter fp = new TextFingerprinter(FeatureAnalyzer.DEFAULT, FingerprintOptions.DEFAULTS);
        int dab = SimHash.distance(fp.fingerprint(a).getAsLong(), fp.fingerprint(b).getAsLong());
        int radius = Math.max(3, dab);

        Rest.Answer byText = rest.ok("POST", "/query-text/_search", toJson(Map.of("query",
            Map.of("simhash", Map.of("field", "simhash", "text", a, "max_distance", radius)))));
        assertEquals(List.of("a", "b"), ids(byText));
        assertEquals(1.0, ((Number) byText.at("hits.hits.0._score")).doubleValue());

        Rest.Answer byLike = rest.ok("POST", "/query-text/_search", toJson(Map.of("query",
            Map.of("simhash", Map.of("field", "simhash", "like", Map.of("index", "query-text", "id", "b"), "max_distance", radius)))));
        assertEquals(List.of("a"), ids(byLike), "the liked document is left out");
        Rest.Answer byLikeIncluded = rest.ok("POST", "/query-text/_search", toJson(Map.of("query",
            Map.of("simhash", Map.of("field", "simhash", "like", Map.of("index", "query-text", "id", "b"), "max_distance", radius,
                "include", true)))));
        assertEquals(List.of("b", "a"), ids(byLikeIncluded));
        Rest.Answer byLikeId = rest.ok("POST", "/query-text/_search", toJson(Map.of("query",
            Map.of("simhash", Map.of("field", "simhash", "like", "c", "include", true)))));
        assertEquals(List.of("c"), ids(byLikeId));

        Rest.Answer unknown = rest.post("/query-text/_search", toJson(Map.of("query",
            Map.of("simhash", Map.of("field", "simhash", "like", Map.of("index", "query-text", "id", "zzz"))))));
        assertEquals(404, unknown.status(), unknown.toString());
        assertTrue(unknown.body().contains("[like] document [query-text/zzz] not found"), unknown.toString());
        Rest.Answer noFp = rest.post("/query-text/_search", toJson(Map.of("query",
            Map.of("simhash", Map.of("field", "simhash", "like", Map.of("index", "query-text", "id", "nofp"))))));
        assertEquals(400, noFp.status(), noFp.toString());
        assertTrue(noFp.body().contains("[like] document [query-text/nofp] has no fingerprint in [simhash]"), noFp.toString());
        Rest.Answer noFeatures = rest.post("/query-text/_search", toJson(Map.of("query",
            Map.of("simhash", Map.of("field", "simhash", "text", "，。！")))));
        assertEquals(400, noFeatures.status(), noFeatures.toString());
        assertTrue(noFeatures.body().contains("[text] has no fingerprint"), noFeatures.toString());
    }

    @Test
    void composesWithBoolFunctionScoreConstantScoreNameBoostExplainAndProfile() {
        long query = bases.get(1);
        Map<String, Integer> expected = bruteForce(query, 7);
        Map<String, Object> simhash = new LinkedHashMap<>(Map.of("field", "simhash", "hash", SimHash.toHex(query), "max_distance", 7));
        simhash.put("_name", "near");
        simhash.put("boost", 2.0);
        Rest.Answer bool = rest.ok("POST", "/" + INDEX + "/_search", toJson(Map.of("size", 100, "explain", true, "query",
            Map.of("bool", Map.of("must", List.of(Map.of("simhash", simhash)), "must_not", List.of(Map.of("ids",
                Map.of("values", List.of(expected.keySet().iterator().next())))))))));
        List<Map<String, Object>> hits = bool.at("hits.hits");
        assertEquals(expected.size() - 1, hits.size());
        for (Map<String, Object> h : hits) {
            int d = expected.get((String) h.get("_id"));
            assertEquals(2.0 * (64 - d) / 64, ((Number) h.get("_score")).doubleValue(), 1e-6);
            assertEquals(List.of("near"), h.get("matched_queries"));
            assertTrue(toJson(h.get("_explanation")).contains("hamming distance [" + d + "]"), toJson(h.get("_explanation")));
        }
        Rest.Answer constant = rest.ok("POST", "/" + INDEX + "/_search", toJson(Map.of("size", 100, "query",
            Map.of("constant_score", Map.of("filter", Map.of("simhash", Map.of("field", "simhash", "hash", query, "max_distance", 7)),
                "boost", 5)))));
        assertEquals(expected.size(), ids(constant).size());
        assertEquals(5.0, ((Number) constant.at("hits.hits.0._score")).doubleValue());
        Rest.Answer fs = rest.ok("POST", "/" + INDEX + "/_search", toJson(Map.of("size", 100, "query",
            Map.of("function_score", Map.of("query", Map.of("simhash", Map.of("field", "simhash", "hash", query, "max_distance", 7)),
                "weight", 3, "boost_mode", "replace")))));
        assertEquals(expected.size(), ids(fs).size());
        Rest.Answer profile = rest.ok("POST", "/" + INDEX + "/_search", toJson(Map.of("profile", true, "query",
            Map.of("simhash", Map.of("field", "simhash", "hash", query)))));
        assertTrue(profile.body().contains("SimHashQuery"), "profile names our query");
        Rest.Answer explainApi = rest.ok("POST", "/" + INDEX + "/_explain/" + expected.keySet().iterator().next(), toJson(Map.of("query",
            Map.of("simhash", Map.of("field", "simhash", "hash", query, "max_distance", 7)))));
        assertEquals(Boolean.TRUE, explainApi.at("matched"));
    }

    /**
     * {@code exclude}'s {@code index} is an index expression, resolved as a search resolves it (as {@code like}'s is): an
     * alias, a pattern, {@code _all} and a list leave the document out of every index they name, and only of those.
     */
    @Test
    void excludeResolvesIndexExpressions() {
        long h = bases.get(5);
        for (String index : List.of("query-ex1", "query-ex2")) {
            rest.ok("PUT", "/" + index, Fixtures.objectFormIndex(1));
            for (String id : List.of("1", "2")) {
                rest.ok("PUT", "/" + index + "/_doc/" + id, toJson(Map.of("simhash", Fixtures.storedForm(h))));
            }
        }
        rest.ok("POST", "/_aliases", toJson(Map.of("actions", List.of(Map.of("add", Map.of("index", "query-ex1", "alias", "query-exa"))))));
        rest.ok("POST", "/query-ex1,query-ex2/_refresh", null);
        Map<String, List<String>> cases = new LinkedHashMap<>();
        cases.put("query-ex1", List.of("query-ex1/2", "query-ex2/1", "query-ex2/2"));
        cases.put("query-exa", List.of("query-ex1/2", "query-ex2/1", "query-ex2/2"));
        cases.put("query-ex2", List.of("query-ex1/1", "query-ex1/2", "query-ex2/2"));
        cases.put("query-ex*", List.of("query-ex1/2", "query-ex2/2"));
        cases.put("_all", List.of("query-ex1/2", "query-ex2/2"));
        cases.put("query-ex1,query-ex2", List.of("query-ex1/2", "query-ex2/2"));
        cases.put("query-exa,query-ex2", List.of("query-ex1/2", "query-ex2/2"));
        cases.put("query-ex*,-query-ex2", List.of("query-ex1/2", "query-ex2/1", "query-ex2/2"));
        cases.put("query-nope*", List.of("query-ex1/1", "query-ex1/2", "query-ex2/1", "query-ex2/2"));
        for (Map.Entry<String, List<String>> c : cases.entrySet()) {
            Rest.Answer a = rest.ok("POST", "/query-ex1,query-ex2/_search", toJson(Map.of("size", 10, "query", Map.of("simhash",
                Map.of("field", "simhash", "hash", h, "max_distance", 0, "exclude", Map.of("index", c.getKey(), "id", "1"))))));
            List<String> hits = new ArrayList<>();
            for (Map<String, Object> hit : a.<List<Map<String, Object>>>at("hits.hits")) {
                hits.add(hit.get("_index") + "/" + hit.get("_id"));
            }
            java.util.Collections.sort(hits);
            assertEquals(c.getValue(), hits, "exclude index [" + c.getKey() + "]");
            assertEquals(0, ((Number) a.at("_shards.failed")).intValue(), a.toString());
        }
    }

    @Test
    void unmappedFieldInAMultiIndexSearchMatchesNothingThere() {
        rest.ok("PUT", "/query-other", "{\"settings\": {\"number_of_replicas\": 0}, \"mappings\": {\"properties\": {\"title\": {\"type\": \"text\"}}}}");
        rest.ok("PUT", "/query-other/_doc/1?refresh=true", toJson(Map.of("title", "x")));
        long query = bases.get(2);
        Rest.Answer a = rest.ok("POST", "/" + INDEX + ",query-other/_search", toJson(Map.of("size", 1000, "query",
            Map.of("simhash", Map.of("field", "simhash", "hash", query, "max_distance", 4)))));
        assertEquals(bruteForce(query, 4).size(), ids(a).size());
        assertEquals(0, ((Number) a.at("_shards.failed")).intValue());
    }

    @Test
    void badRequestsAre400NamingTheProblem() {
        Map<String, String> cases = new LinkedHashMap<>();
        cases.put("{\"field\": \"simhash\", \"hash\": \"xyz\"}", "[hash]");
        cases.put("{\"field\": \"simhash\", \"hash\": \"0123456789abcdeg\"}", "[hash]");
        cases.put("{\"field\": \"simhash\", \"hash\": 123456789012345678901234}", "[hash]");
        cases.put("{\"field\": \"simhash\", \"hash\": 1, \"max_distance\": 70}", "[max_distance] must be between 0 and 64, got [70]");
        cases.put("{\"field\": \"simhash\", \"hash\": 1, \"max_distance\": -1}", "[max_distance]");
        cases.put("{\"field\": \"simhash\", \"hash\": 1, \"max_distance\": \"far\"}", "[max_distance]");
        cases.put("{\"hash\": 1}", "requires [field]");
        cases.put("{\"field\": \"simhash\"}", "exactly one of [hash], [text] or [like]");
        cases.put("{\"field\": \"simhash\", \"hash\": 1, \"text\": \"x\"}", "exactly one of [hash], [text] or [like]");
        cases.put("{\"field\": \"simhash\", \"hash\": 1, \"distance\": 3}", "[simhash] unknown field [distance]");
        cases.put("{\"field\": \"simhash\", \"text\": \"x\", \"weighting\": \"bm25\"}", "[weighting]");
        cases.put("{\"field\": \"simhash\", \"text\": \"x\", \"shingle_size\": 99}", "[shingle_size]");
        cases.put("{\"field\": \"simhash\", \"text\": \"x\", \"analyzer\": \"nope\"}", "[analyzer] unknown analyzer [nope]");
        cases.put("{\"field\": \"simhash\", \"like\": {\"idx\": \"a\"}}", "[like] unknown field [idx]");
        cases.put("{\"field\": \"simhash\", \"hash\": 1, \"shingle_size\": 2}", "only apply to [text]");
        cases.put("{\"field\": \"body\", \"hash\": 1}", "[field] [body] is a [text] field");
        // whole numbers beyond an int: the range, naming the parameter (not the JSON parser's message quoting the body)
        cases.put("{\"field\": \"simhash\", \"hash\": 1, \"k\": 99999999999}", "[k] must be between 1 and 10000, got [99999999999]");
        cases.put("{\"field\": \"simhash\", \"hash\": 1, \"max_distance\": 99999999999}",
            "[max_distance] must be between 0 and 64, got [99999999999]");
        // a sketch as base64 wrapped over two lines: the parameter and what it must be, the line break shown
        cases.put("{\"field\": \"simhash\", \"hash\": 1, \"min_similarity\": 0.8, \"sketch\": \"" + "A".repeat(44) + "\\n"
            + "A".repeat(44) + "\"}", "[sketch] must be base64 of 134 bytes");
        for (Map.Entry<String, String> c : cases.entrySet()) {
            Rest.Answer a = rest.post("/" + INDEX + ",query-text/_search?ignore_unavailable=true",
                "{\"query\": {\"simhash\": " + c.getKey() + "}}");
            assertEquals(400, a.status(), c.getKey() + " -> " + a);
            assertTrue(a.body().contains(c.getValue()), c.getKey() + " -> " + a);
            assertFalse(a.body().contains("Source: "), "the request body is not echoed: " + a);
            assertFalse(a.body().contains("Illegal base64 character"), "the decoder's message alone names no parameter: " + a);
        }
        rest.ok("PUT", "/query-badmap", "{\"settings\": {\"number_of_replicas\": 0}, \"mappings\": {\"properties\": {\"fp\": {\"properties\": "
            + "{\"hash\": {\"type\": \"keyword\"}, \"b0\": {\"type\": \"keyword\"}}}}}}");
        Rest.Answer bad = rest.post("/query-badmap/_search", "{\"query\": {\"simhash\": {\"field\": \"fp\", \"hash\": 1}}}");
        assertEquals(400, bad.status(), bad.toString());
        assertTrue(bad.body().contains("[fp.hash] must be mapped as [long] with doc values, found [keyword]"), bad.toString());
        assertEquals("green", rest.get("/_cluster/health").at("status"));
    }
}
