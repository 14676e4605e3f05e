package dev.simhash.it;

import dev.simhash.core.FeatureAnalyzer;
import dev.simhash.core.FingerprintOptions;
import dev.simhash.core.SimHash;
import dev.simhash.core.SimHashV2;
import dev.simhash.core.TextFingerprinter;
import dev.simhash.it.support.RealNodeExtension;
import dev.simhash.it.support.Rest;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.simhash.it.support.Rest.toJson;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every component of the installed plugin once, on one small index: the field type, the processor, the token filter and
 * tokenizer, the query (hash, text, like), the script, the fold and the report. The smoke set that CI runs on every
 * supported Elasticsearch version besides the default (with the golden vectors); fingerprints are compared with the
 * core's, so a version whose node fingerprints differently fails here.
 */
@ExtendWith(RealNodeExtension.class)
@Tag("smoke")
class ComponentsSmokeIT {

    private static final String INDEX = "smoke-news";
    private static final String CPI = "国家统计局今天发布数据显示，10月份全国居民消费价格同比上涨0.4%，其中食品价格降幅较大，猪肉价格连续第三个月回落。";
    private static final String TYPHOON = "受今年第14号台风“云雀”影响，浙江沿海地区今晚起将出现狂风暴雨，气象部门已发布台风橙色预警。";
    private static final String RATES = "The central bank left its benchmark interest rate unchanged at 4.25 percent on Thursday, citing cooling "
        + "inflation and a slower labour market.";
    /** id -> body: two planted pairs (a source line added, one word changed) and one unrelated text. */
    private static final Map<String, String> DOCS = Map.of(
        "1", CPI,
        "2", CPI + "来源：新华财经",
        "3", TYPHOON,
        "4", RATES,
        "5", RATES.replace("left", "kept"));
    private static final int RADIUS = 8;

    private static boolean loaded;

    /** The index, written once for all tests: a simhash field under the text and the processor's object beside it. */
    private static synchronized void load(Rest rest) {
        if (loaded) {
            return;
        }
        rest.delete("/" + INDEX);
        rest.ok("PUT", "/_ingest/pipeline/smoke-fingerprint", toJson(Map.of("processors", List.of(Map.of("simhash", Map.of("field", "body"))))));
        rest.ok("PUT", "/" + INDEX, toJson(Map.of(
            "settings", Map.of("number_of_shards", 1, "number_of_replicas", 0, "index.default_pipeline", "smoke-fingerprint"),
            "mappings", Map.of("properties", Map.of(
                "body", Map.of("type", "text", "fields", Map.of("simhash", Map.of("type", "simhash", "version", "v1"),
                    "v2", Map.of("type", "simhash"))),
                "simhash", Map.of("properties", Map.of("hash", Map.of("type", "long"), "b0", Map.of("type", "keyword"),
                    "b1", Map.of("type", "keyword"), "b2", Map.of("type", "keyword"), "b3", Map.of("type", "keyword"))))))));
        StringBuilder bulk = new StringBuilder();
        for (String id : List.of("1", "2", "3", "4", "5")) {
            bulk.append(toJson(Map.of("index", Map.of("_id", id)))).append('\n').append(toJson(Map.of("body", DOCS.get(id)))).append('\n');
        }
        Rest.Answer a = rest.bulk("/" + INDEX + "/_bulk?refresh=true", bulk.toString());
        assertEquals(200, a.status(), a.toString());
        assertEquals(Boolean.FALSE, a.at("errors"), a.toString());
        loaded = true;
    }

    private static long core(String text) {
        return new TextFingerprinter(FeatureAnalyzer.DEFAULT, FingerprintOptions.DEFAULTS).fingerprint(text).getAsLong();
    }

    private static List<String> ids(Rest.Answer a) {
        assertEquals(200, a.status(), a.toString());
        assertEquals(0, ((Number) a.at("_shards.failed")).intValue(), a.toString());
        List<Map<String, Object>> hits = a.at("hits.hits");
        List<String> out = new ArrayList<>();
        hits.forEach(h -> out.add((String) h.get("_id")));
        return out;
    }

    private static Rest.Answer search(Rest rest, Map<String, Object> body) {
        return rest.post("/" + INDEX + "/_search", toJson(body));
    }

    @Test
    void fieldTypeStoresTheCoreFingerprint(Rest rest) {
        load(rest);
        for (String id : DOCS.keySet()) {
            Rest.Answer a = search(rest, Map.of("query", Map.of("ids", Map.of("values", List.of(id))), "_source", false,
                "fields", List.of("body.simhash")));
            Map<String, Object> fields = a.at("hits.hits.0.fields");
            assertEquals(List.of(SimHash.toHex(core(DOCS.get(id)))), fields.get("body.simhash"), a.toString());
        }
    }

    @Test
    void fieldTypeDefaultsToSimhashV2WithItsOwnRadius(Rest rest) {
        load(rest);
        Rest.Answer mapping = rest.get("/" + INDEX + "/_mapping");
        assertEquals("v2", mapping.at(INDEX + ".mappings.properties.body.fields.v2.version"), mapping.toString());
        for (String id : DOCS.keySet()) {
            Rest.Answer a = search(rest, Map.of("query", Map.of("ids", Map.of("values", List.of(id))), "_source", false,
                "fields", List.of("body.v2")));
            Map<String, Object> fields = a.at("hits.hits.0.fields");
            assertEquals(List.of(SimHash.toHex(SimHashV2.fingerprint(DOCS.get(id), 1).getAsLong())), fields.get("body.v2"), a.toString());
        }
        // a bare hash without max_distance: v2's default radius (6 bits), every document within it of the text's v2 fingerprint
        // and no other (a text without max_distance is verified with the field's sketch at the default min_similarity instead)
        long q = SimHashV2.fingerprint(RATES, 1).getAsLong();
        List<String> expected = DOCS.entrySet().stream()
            .filter(e -> SimHash.distance(q, SimHashV2.fingerprint(e.getValue(), 1).getAsLong()) <= 6).map(Map.Entry::getKey).sorted().toList();
        assertTrue(expected.contains("4"), expected.toString());
        assertEquals(expected, ids(search(rest, Map.of("query", Map.of("simhash", Map.of("field", "body.v2", "hash", SimHash.toHex(q))))))
            .stream().sorted().toList());
    }

    @Test
    void processorWritesTheCoreFingerprintAndBlocks(Rest rest) {
        load(rest);
        Rest.Answer a = rest.get("/" + INDEX + "/_doc/1");
        assertEquals(200, a.status(), a.toString());
        long h = core(CPI);
        assertEquals(h, ((Number) a.at("_source.simhash.hash")).longValue());
        for (int j = 0; j < 4; j++) {
            assertEquals(String.format(java.util.Locale.ROOT, "%04x", (h >>> (16 * j)) & 0xFFFF), a.at("_source.simhash.b" + j));
        }
    }

    @Test
    void tokenFilterTokenizerAndAnalyzerGiveTheCoreFingerprint(Rest rest) {
        Rest.Answer a = rest.post("/_analyze", toJson(Map.of("tokenizer", "simhash_smartcn",
            "filter", List.of("lowercase", "simhash_smartcn_stop", Map.of("type", "simhash")), "text", CPI)));
        assertEquals(200, a.status(), a.toString());
        assertEquals(SimHash.toHex(core(CPI)), a.at("tokens.0.token"), a.toString());
        Rest.Answer words = rest.post("/_analyze", toJson(Map.of("analyzer", "simhash_text", "text", "国家统计局今天发布数据")));
        assertEquals(200, words.status(), words.toString());
        List<Map<String, Object>> tokens = words.at("tokens");
        assertTrue(tokens.size() >= 3, words.toString());
    }

    @Test
    void queryByHashTextAndLike(Rest rest) {
        load(rest);
        for (String field : List.of("body.simhash", "simhash")) {
            List<String> byHash = ids(search(rest, Map.of("query", Map.of("simhash", Map.of("field", field, "hash", SimHash.toHex(core(CPI)),
                "max_distance", RADIUS)))));
            assertEquals(List.of("1", "2"), byHash.stream().sorted().toList(), field);
            List<String> byText = ids(search(rest, Map.of("query", Map.of("simhash", Map.of("field", field, "text", RATES,
                "max_distance", RADIUS)))));
            assertEquals(List.of("4", "5"), byText.stream().sorted().toList(), field);
            List<String> byLike = ids(search(rest, Map.of("query", Map.of("simhash", Map.of("field", field,
                "like", Map.of("index", INDEX, "id", "1"), "max_distance", RADIUS)))));
            assertEquals(List.of("2"), byLike, field);
            List<String> nearest = ids(search(rest, Map.of("query", Map.of("simhash", Map.of("field", field, "hash",
                SimHash.toHex(core(TYPHOON)), "k", 1)))));
            assertEquals(List.of("3"), nearest, field);
        }
    }

    @Test
    void scriptScoresBySimilarity(Rest rest) {
        load(rest);
        Rest.Answer a = search(rest, Map.of("query", Map.of("script_score", Map.of(
            "query", Map.of("exists", Map.of("field", "body.simhash")),
            "script", Map.of("lang", "simhash", "source", "similarity",
                "params", Map.of("field", "body.simhash", "hash", SimHash.toHex(core(RATES))))))));
        List<String> ids = ids(a);
        assertEquals(5, ids.size(), a.toString());
        assertEquals("4", ids.get(0), a.toString());
        assertEquals(1.0, ((Number) a.at("hits.hits.0._score")).doubleValue(), 1e-9, a.toString());
        assertEquals("5", ids.get(1), a.toString());
        Rest.Answer distance = search(rest, Map.of("query", Map.of("ids", Map.of("values", List.of("2"))), "script_fields",
            Map.of("d", Map.of("script", Map.of("lang", "simhash", "source", "hamming",
                "params", Map.of("field", "simhash", "hash", SimHash.toHex(core(CPI))))))));
        int d = ((Number) distance.at("hits.hits.0.fields.d.0")).intValue();
        assertEquals(Long.bitCount(core(CPI) ^ core(DOCS.get("2"))), d, distance.toString());
    }

    @Test
    void foldShowsEachPlantedPairOnce(Rest rest) {
        load(rest);
        Rest.Answer a = rest.post("/" + INDEX + "/_simhash/fold?field=body.simhash&max_distance=" + RADIUS,
            toJson(Map.of("query", Map.of("match_all", Map.of()))));
        List<String> ids = ids(a);
        assertEquals(3, ids.size(), a.toString());
        int folded = 0;
        List<Map<String, Object>> hits = a.at("hits.hits");
        for (Map<String, Object> h : hits) {
            @SuppressWarnings("unchecked")
            Map<String, Object> s = (Map<String, Object>) h.get("_simhash");
            folded += ((Number) s.get("folded")).intValue();
        }
        assertEquals(2, folded, a.toString());
    }

    @Test
    void reportFindsBothPlantedGroups(Rest rest) {
        load(rest);
        for (String field : List.of("body.simhash", "simhash")) {
            Rest.Answer a = rest.post("/" + INDEX + "/_simhash/duplicates", toJson(Map.of("field", field, "max_distance", RADIUS)));
            assertEquals(200, a.status(), a.toString());
            assertEquals(5, ((Number) a.at("total_docs")).intValue(), a.toString());
            assertEquals(2, ((Number) a.at("groups_total")).intValue(), a.toString());
            assertEquals(4, ((Number) a.at("duplicates_total")).intValue(), a.toString());
            List<Map<String, Object>> groups = a.at("groups");
            assertFalse(groups.isEmpty(), a.toString());
        }
    }

    /** The dedup processor: a copy in the same bulk is found in the node's window, a later one by its search. */
    @Test
    void dedupProcessorTagsCopiesFromTheWindowAndTheIndex(Rest rest) {
        rest.delete("/smoke-dedup");
        rest.ok("PUT", "/smoke-dedup", toJson(Map.of("settings", Map.of("number_of_shards", 2, "number_of_replicas", 0),
            "mappings", Map.of("properties", Map.of("body", Map.of("type", "text", "fields", Map.of("simhash", Map.of("type", "simhash"))))))));
        rest.ok("PUT", "/_ingest/pipeline/smoke-dedup", toJson(Map.of("processors", List.of(Map.of("simhash_dedup",
            Map.of("field", "body"))))));
        String bulk = toJson(Map.of("index", Map.of("_id", "1"))) + "\n" + toJson(Map.of("body", RATES)) + "\n"
            + toJson(Map.of("index", Map.of("_id", "2"))) + "\n" + toJson(Map.of("body", RATES + " (Reuters)")) + "\n"
            + toJson(Map.of("index", Map.of("_id", "3"))) + "\n" + toJson(Map.of("body", TYPHOON)) + "\n";
        Rest.Answer a = rest.bulk("/smoke-dedup/_bulk?pipeline=smoke-dedup&refresh=true", bulk);
        assertEquals(Boolean.FALSE, a.at("errors"), a.toString());
        rest.ok("PUT", "/smoke-dedup/_doc/4?pipeline=smoke-dedup&refresh=true", toJson(Map.of("body", TYPHOON + " (AP)")));
        Map<String, String> tagged = new java.util.TreeMap<>();
        List<Map<String, Object>> hits = rest.post("/smoke-dedup/_search", "{\"query\": {\"exists\": {\"field\": \"duplicate_of\"}}}")
            .at("hits.hits");
        for (Map<String, Object> h : hits) {
            tagged.put((String) h.get("_id"), (String) Rest.at(h, "_source.duplicate_of.id"));
        }
        assertEquals(Map.of("2", "1", "4", "3"), tagged);
        rest.delete("/_ingest/pipeline/smoke-dedup");
        rest.delete("/smoke-dedup");
    }
}
