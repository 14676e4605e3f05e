package dev.simhash.it;

import dev.simhash.core.FeatureAnalyzer;
import dev.simhash.core.FingerprintOptions;
import dev.simhash.core.GoldenVectors;
import dev.simhash.core.GoldenVectorsV2;
import dev.simhash.core.SimHash;
import dev.simhash.core.TextFingerprinter;
import dev.simhash.core.Weighting;
import dev.simhash.it.support.Fixtures;
import dev.simhash.it.support.RealNodeExtension;
import dev.simhash.it.support.Rest;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static dev.simhash.it.support.Fixtures.EN;
import static dev.simhash.it.support.Fixtures.MIXED;
import static dev.simhash.it.support.Fixtures.ZH;
import static dev.simhash.it.support.Rest.toJson;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The token filter and the ingest processor on a real node, checked against the core. */
@ExtendWith(RealNodeExtension.class)
class IndexTimeIT {

    private final Rest rest;

    IndexTimeIT(Rest rest) {
        this.rest = rest;
    }

    @AfterEach
    void cleanUp() {
        rest.delete("/idx-*");
        rest.delete("/_ingest/pipeline/it-*");
    }

    static long core(String text) {
        return new TextFingerprinter(FeatureAnalyzer.DEFAULT, FingerprintOptions.DEFAULTS).fingerprint(text).getAsLong();
    }

    private List<String> analyze(String path, Object body) {
        Rest.Answer a = rest.post(path, toJson(body));
        assertEquals(200, a.status(), a.toString());
        List<Map<String, Object>> tokens = a.at("tokens");
        List<String> out = new ArrayList<>();
        tokens.forEach(t -> out.add((String) t.get("token")));
        return out;
    }

    private static Map<String, Object> simhashChain(String text, Map<String, Object> filter) {
        return Map.of("tokenizer", "simhash_smartcn", "filter", List.of("lowercase", "simhash_smartcn_stop", filter), "text", text);
    }

    @Test
    void analyzeWithTheFilterGivesTheCoreFingerprint() {
        for (String text : List.of(EN, ZH, MIXED)) {
            long fp = core(text);
            assertEquals(List.of(SimHash.toHex(fp)), analyze("/_analyze", simhashChain(text, Map.of("type", "simhash"))));
            List<String> both = analyze("/_analyze", simhashChain(text, Map.of("type", "simhash", "output", "both")));
            assertEquals(5, both.size());
            assertEquals(SimHash.toHex(fp), both.get(0));
            for (int j = 0; j < 4; j++) {
                assertEquals("b" + j + "_" + SimHash.blockTerm(SimHash.block(fp, j)), both.get(j + 1));
            }
        }
        assertEquals(List.of(), analyze("/_analyze", simhashChain("，。！", Map.of("type", "simhash"))));
        assertEquals(List.of("elasticsearch", "是", "一个", "分布式", "搜索引擎", "it", "s", "fast"),
            analyze("/_analyze", Map.of("analyzer", "simhash_text", "text", "Elasticsearch 是一个分布式搜索引擎, It's fast!")));
    }

    @Test
    void filterOptionsInAnIndexAnalyzer() {
        String settings = """
            {"settings": {"number_of_replicas": 0, "analysis": {
               "filter": {"fp": {"type": "simhash", "shingle_size": 2, "weighting": "log_tf", "min_features": 3}},
               "analyzer": {"fp": {"tokenizer": "simhash_smartcn", "filter": ["lowercase", "simhash_smartcn_stop", "fp"]}}}},
             "mappings": {"properties": {"body": {"type": "text", "fields": {"fp": {"type": "text", "analyzer": "fp"}}}}}}""";
        rest.ok("PUT", "/idx-filter", settings);
        long expected = new TextFingerprinter(FeatureAnalyzer.DEFAULT, new FingerprintOptions(2, Weighting.LOG_TF, 3)).fingerprint(ZH)
            .getAsLong();
        assertEquals(List.of(SimHash.toHex(expected)), analyze("/idx-filter/_analyze", Map.of("analyzer", "fp", "text", ZH)));
        assertEquals(List.of(), analyze("/idx-filter/_analyze", Map.of("analyzer", "fp", "text", "你好")));
        // an indexed fingerprint term finds the exact duplicate
        rest.ok("PUT", "/idx-filter/_doc/1?refresh=true", toJson(Map.of("body", ZH)));
        Rest.Answer hits = rest.ok("POST", "/idx-filter/_search",
            toJson(Map.of("query", Map.of("term", Map.of("body.fp", SimHash.toHex(expected))))));
        assertEquals(1, (int) hits.at("hits.total.value"));
    }

    @Test
    void invalidFilterSettingsFailIndexCreationWith400NamingTheSetting() {
        Map<String, String> cases = new LinkedHashMap<>();
        cases.put("\"output\": \"hex\"", "[output]");
        cases.put("\"weighting\": \"idf\"", "[weighting]");
        cases.put("\"shingle_size\": 0", "[shingle_size]");
        cases.put("\"shingle_size\": \"two\"", "[shingle_size]");
        cases.put("\"min_features\": -3", "[min_features]");
        cases.put("\"bits\": 32", "unknown setting [bits]");
        cases.put("\"version\": \"v2\"", "[version] [v2] is not available in the token filter");
        for (Map.Entry<String, String> c : cases.entrySet()) {
            String body = "{\"settings\": {\"analysis\": {\"filter\": {\"fp\": {\"type\": \"simhash\", " + c.getKey() + "}}}}}";
            Rest.Answer a = rest.put("/idx-bad", body);
            assertEquals(400, a.status(), c.getKey() + " -> " + a);
            assertTrue(a.body().contains(c.getValue()), c.getKey() + " -> " + a);
        }
        Rest.Answer a = rest.post("/_analyze", toJson(simhashChain("x", Map.of("type", "simhash", "weighting", "bm25"))));
        assertEquals(400, a.status(), a.toString());
        assertTrue(a.body().contains("[weighting]"), a.toString());
        assertEquals("green", rest.get("/_cluster/health").at("status"));
    }

    private void putPipeline(String name, Map<String, Object> processorOptions) {
        rest.ok("PUT", "/_ingest/pipeline/" + name, toJson(Map.of("processors", List.of(Map.of("simhash", processorOptions)))));
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> simulate(Map<String, Object> processorOptions, List<Map<String, Object>> sources) {
        List<Map<String, Object>> docs = new ArrayList<>();
        sources.forEach(s -> docs.add(Map.of("_source", s)));
        Rest.Answer a = rest.post("/_ingest/pipeline/_simulate",
            toJson(Map.of("pipeline", Map.of("processors", List.of(Map.of("simhash", processorOptions))), "docs", docs)));
        assertEquals(200, a.status(), a.toString());
        return a.json();
    }

    @Test
    @Tag("smoke")
    void simulateReproducesEveryGoldenVector() {
        List<GoldenVectors.Case> cases = GoldenVectors.load();
        for (GoldenVectors.Case c : cases) {
            Map<String, Object> options = new LinkedHashMap<>();
            options.put("field", "f");
            options.put("min_features", c.minFeatures());
            if (!c.weighted()) {
                options.put("analyzer", c.analyzer());
                options.put("shingle_size", c.shingleSize());
                options.put("weighting", c.weighting());
            }
            Map<String, Object> source = new LinkedHashMap<>();
            source.put("f", c.weighted() ? c.features() : c.text());
            Map<String, Object> result = simulate(options, List.of(source));
            Object fp = new Rest.Answer(200, toJson(result)).at("docs.0.doc._source.simhash");
            if (c.expected() == null) {
                assertNull(fp, c.id());
            } else {
                long hash = ((Number) new Rest.Answer(200, toJson(result)).at("docs.0.doc._source.simhash.hash")).longValue();
                assertEquals(SimHash.parse(c.expected()), hash, c.id());
            }
        }
    }

    @Test
    @Tag("smoke")
    void fieldTypeAndProcessorReproduceEveryV2GoldenVector() {
        // the field type's default version and the processor with version v2; cases with per-feature factors need a weights table
        List<GoldenVectorsV2.Case> cases = GoldenVectorsV2.load().stream().filter(c -> c.featureWeights() == null).toList();
        rest.delete("/it-golden-v2");
        // one field per min_features: [f.fp] (the default, 1), [m<N>] for the others
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("f", Map.of("type", "text", "fields", Map.of("fp", Map.of("type", "simhash"))));
        cases.stream().filter(c -> c.minFeatures() != 1).forEach(c -> properties.put("m" + c.minFeatures(),
            Map.of("type", "simhash", "min_features", c.minFeatures())));
        rest.ok("PUT", "/it-golden-v2", toJson(Map.of("settings", Map.of("number_of_shards", 1, "number_of_replicas", 0),
            "mappings", Map.of("properties", properties))));
        try {
            StringBuilder bulk = new StringBuilder();
            for (GoldenVectorsV2.Case c : cases) {
                Object value = c.texts().size() == 1 ? c.texts().get(0) : c.texts();
                Map<String, Object> source = new LinkedHashMap<>();
                source.put(field(c), value);
                bulk.append(toJson(Map.of("index", Map.of("_id", c.id())))).append('\n').append(toJson(source)).append('\n');
                Map<String, Object> options = new LinkedHashMap<>();
                options.put("field", "f");
                options.put("version", "v2");
                options.put("min_features", c.minFeatures());
                Rest.Answer simulated = new Rest.Answer(200, toJson(simulate(options, List.of(Map.of("f", value)))));
                Object hash = simulated.at("docs.0.doc._source.simhash.hash");
                assertEquals(c.expected() == null ? null : SimHash.parse(c.expected()), hash == null ? null : ((Number) hash).longValue(),
                    "processor " + c.id());
            }
            Rest.Answer b = rest.bulk("/it-golden-v2/_bulk?refresh=true", bulk.toString());
            assertEquals(Boolean.FALSE, b.at("errors"), b.toString());
            Rest.Answer a = rest.ok("POST", "/it-golden-v2/_search", toJson(Map.of("size", 1000, "_source", false,
                "fields", List.of("f.fp", "m*"))));
            Map<String, Map<String, List<Object>>> stored = new LinkedHashMap<>();
            for (Map<String, Object> hit : a.<List<Map<String, Object>>>at("hits.hits")) {
                @SuppressWarnings("unchecked")
                Map<String, List<Object>> f = (Map<String, List<Object>>) hit.get("fields");
                stored.put((String) hit.get("_id"), f == null ? Map.of() : f);
            }
            assertEquals(cases.size(), stored.size());
            for (GoldenVectorsV2.Case c : cases) {
                String field = c.minFeatures() == 1 ? "f.fp" : field(c);
                List<Object> v = stored.get(c.id()).get(field);
                assertEquals(c.expected(), v == null ? null : v.get(0), "field type " + c.id());
            }
        } finally {
            rest.delete("/it-golden-v2");
        }
    }

    private static String field(GoldenVectorsV2.Case c) {
        return c.minFeatures() == 1 ? "f" : "m" + c.minFeatures();
    }

    @Test
    void invalidPipelineOptionsAre400NamingTheOption() {
        Map<String, Map<String, Object>> cases = new LinkedHashMap<>();
        cases.put("[field]", Map.of("target_field", "x"));
        cases.put("[weighting]", Map.of("field", "body", "weighting", "idf"));
        cases.put("[shingle_size]", Map.of("field", "body", "shingle_size", 9));
        cases.put("[min_features]", Map.of("field", "body", "min_features", 0));
        cases.put("[analyzer]", Map.of("field", "body", "analyzer", "no_such_analyzer"));
        cases.put("[ignore_missing]", Map.of("field", "body", "ignore_missing", "perhaps"));
        cases.put("[bits]", Map.of("field", "body", "bits", 32));
        cases.put("[analyzer] does not apply to simhash-v2", Map.of("field", "body", "version", "v2", "analyzer", "standard"));
        cases.put("[version] unknown version [v3]", Map.of("field", "body", "version", "v3"));
        for (Map.Entry<String, Map<String, Object>> c : cases.entrySet()) {
            Rest.Answer a = rest.put("/_ingest/pipeline/it-bad", toJson(Map.of("processors", List.of(Map.of("simhash", c.getValue())))));
            assertEquals(400, a.status(), c.getKey() + " -> " + a);
            assertTrue(a.body().contains(c.getKey()), c.getKey() + " -> " + a);
        }
        assertEquals(404, rest.get("/_ingest/pipeline/it-bad").status());
        assertEquals("green", rest.get("/_cluster/health").at("status"));
    }

    private void createIndex(String index, String pipeline) {
        rest.ok("PUT", "/" + index, "{\"settings\": {\"number_of_shards\": 2, \"number_of_replicas\": 0, \"index.default_pipeline\": \""
            + pipeline + "\"}, \"mappings\": {\"properties\": {\"body\": {\"type\": \"text\"}, \"simhash\": " + Fixtures.FP_MAPPING + "}}}");
    }

    @Test
    void indexingThroughThePipelineStoresHashAndBlocks() {
        putPipeline("it-fp", Map.of("field", "body"));
        createIndex("idx-docs", "it-fp");
        Map<String, String> docs = Map.of("en", EN, "zh", ZH, "mixed", MIXED);
        docs.forEach((id, text) -> rest.ok("PUT", "/idx-docs/_doc/" + id, toJson(Map.of("body", text))));
        rest.ok("POST", "/idx-docs/_refresh", null);
        for (Map.Entry<String, String> e : docs.entrySet()) {
            long fp = core(e.getValue());
            Rest.Answer doc = rest.ok("GET", "/idx-docs/_doc/" + e.getKey(), null);
            assertEquals(fp, ((Number) doc.at("_source.simhash.hash")).longValue(), e.getKey());
            for (int j = 0; j < 4; j++) {
                String term = SimHash.blockTerm(SimHash.block(fp, j));
                assertEquals(term, doc.at("_source.simhash.b" + j));
                Rest.Answer hits = rest.ok("POST", "/idx-docs/_search",
                    toJson(Map.of("query", Map.of("term", Map.of("simhash.b" + j, term)))));
                assertTrue(((Number) hits.at("hits.total.value")).intValue() >= 1);
            }
            // doc values of the long field hold the fingerprint
            Rest.Answer dv = rest.ok("POST", "/idx-docs/_search", toJson(Map.of("query", Map.of("ids", Map.of("values", List.of(e.getKey()))),
                "docvalue_fields", List.of("simhash.hash"), "_source", false)));
            Map<String, Object> fields = dv.at("hits.hits.0.fields");
            assertEquals(fp, ((Number) ((List<?>) fields.get("simhash.hash")).get(0)).longValue());
        }
    }

    @Test
    void bulkIndexingThroughThePipeline() {
        putPipeline("it-bulk", Map.of("field", "body", "target_field", "simhash"));
        createIndex("idx-bulk", "it-bulk");
        Random r = new Random(17);
        String[] words = { "news", "story", "edit", "headline", "新闻", "转载", "媒体", "标题", "修改", "crawl", "page", "重复" };
        Map<String, String> texts = new LinkedHashMap<>();
        StringBuilder ndjson = new StringBuilder();
        for (int i = 0; i < 300; i++) {
            StringBuilder t = new StringBuilder();
            for (int w = 0; w < 5 + r.nextInt(40); w++) {
                t.append(words[r.nextInt(words.length)]).append(' ');
            }
            texts.put("d" + i, t.toString());
            ndjson.append(toJson(Map.of("index", Map.of("_id", "d" + i)))).append('\n').append(toJson(Map.of("body", t.toString()))).append('\n');
        }
        Rest.Answer bulk = rest.bulk("/idx-bulk/_bulk?refresh=true", ndjson.toString());
        assertEquals(200, bulk.status(), bulk.toString());
        assertEquals(Boolean.FALSE, bulk.at("errors"), bulk.body());
        Rest.Answer all = rest.ok("POST", "/idx-bulk/_search", toJson(Map.of("size", 1000, "query", Map.of("match_all", Map.of()))));
        List<Map<String, Object>> hits = all.at("hits.hits");
        assertEquals(300, hits.size());
        for (Map<String, Object> h : hits) {
            @SuppressWarnings("unchecked")
            Map<String, Object> fp = (Map<String, Object>) ((Map<String, Object>) h.get("_source")).get("simhash");
            assertEquals(core(texts.get((String) h.get("_id"))), ((Number) fp.get("hash")).longValue());
        }
    }

    @Test
    void missingFieldsEmptyTextAndWrongTypes() {
        putPipeline("it-strict", Map.of("field", "body"));
        putPipeline("it-lenient", Map.of("field", "body", "ignore_missing", true));
        createIndex("idx-missing", "it-strict");
        Rest.Answer strict = rest.put("/idx-missing/_doc/1", toJson(Map.of("title", "no body")));
        assertEquals(400, strict.status(), strict.toString());
        assertTrue(strict.body().contains("body"), strict.toString());
        Rest.Answer lenient = rest.put("/idx-missing/_doc/2?pipeline=it-lenient", toJson(Map.of("title", "no body")));
        assertEquals(201, lenient.status(), lenient.toString());
        Rest.Answer empty = rest.put("/idx-missing/_doc/3", toJson(Map.of("body", "")));
        assertEquals(201, empty.status(), empty.toString());
        Rest.Answer wrongType = rest.put("/idx-missing/_doc/4", toJson(Map.of("body", 12345)));
        assertEquals(400, wrongType.status(), wrongType.toString());
        assertTrue(wrongType.body().contains("field [body] must be a string"), wrongType.toString());
        Rest.Answer array = rest.put("/idx-missing/_doc/5", toJson(Map.of("body", List.of(EN, ZH))));
        assertEquals(201, array.status(), array.toString());
        rest.ok("POST", "/idx-missing/_refresh", null);
        assertFalse(rest.ok("GET", "/idx-missing/_doc/2", null).body().contains("simhash"));
        assertFalse(rest.ok("GET", "/idx-missing/_doc/3", null).body().contains("simhash"));
        long arrayFp = new TextFingerprinter(FeatureAnalyzer.DEFAULT, FingerprintOptions.DEFAULTS).fingerprint(List.of(EN, ZH)).getAsLong();
        assertEquals(arrayFp, ((Number) rest.ok("GET", "/idx-missing/_doc/5", null).at("_source.simhash.hash")).longValue());
        assertEquals("green", rest.get("/_cluster/health").at("status"));
    }

    @Test
    void fiveMegabyteText() {
        putPipeline("it-big", Map.of("field", "body"));
        createIndex("idx-big", "it-big");
        StringBuilder sb = new StringBuilder();
        Random r = new Random(5);
        while (sb.length() < 5 * 1024 * 1024) {
            sb.append(r.nextBoolean() ? ZH : EN).append(' ').append(r.nextInt(100_000)).append(' ');
        }
        String text = sb.toString();
        Rest.Answer a = rest.put("/idx-big/_doc/big?refresh=true", toJson(Map.of("body", text)));
        assertEquals(201, a.status(), a.toString().substring(0, Math.min(500, a.toString().length())));
        Rest.Answer doc = rest.ok("POST", "/idx-big/_search", toJson(Map.of("_source", List.of("simhash"))));
        assertEquals(core(text), ((Number) doc.at("hits.hits.0._source.simhash.hash")).longValue());
        assertEquals("green", rest.get("/_cluster/health").at("status"));
    }

    @Test
    @Tag("smoke")
    void coreFilterAndProcessorAgreeOnTheRealNode() {
        for (String text : List.of(EN, ZH, MIXED, EN + " " + ZH)) {
            long core = core(text);
            long filter = SimHash.parse(analyze("/_analyze", simhashChain(text, Map.of("type", "simhash"))).get(0));
            Map<String, Object> sim = simulate(Map.of("field", "body"), List.of(Map.of("body", text)));
            long processor = ((Number) new Rest.Answer(200, toJson(sim)).at("docs.0.doc._source.simhash.hash")).longValue();
            assertEquals(core, filter, text);
            assertEquals(core, processor, text);
        }
    }
}
