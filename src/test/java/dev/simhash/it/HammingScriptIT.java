package dev.simhash.it;

import dev.simhash.compat.CompatTestNode;
import dev.simhash.core.FeatureAnalyzer;
import dev.simhash.core.FingerprintOptions;
import dev.simhash.core.SimHash;
import dev.simhash.core.TextFingerprinter;
import dev.simhash.it.support.EsCluster;
import dev.simhash.it.support.Fixtures;
import dev.simhash.it.support.RealNodeExtension;
import dev.simhash.it.support.RealNodes;
import dev.simhash.it.support.Rest;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.simhash.it.support.Rest.toJson;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The {@code simhash} script language on a real node: script_score, the script rescorer, script
 * sort and script_fields agree exactly with client-side distances; bad input is a 400 naming it.
 */
@ExtendWith(RealNodeExtension.class)
class HammingScriptIT {

    static final String INDEX = "script-docs";
    static final String PIPELINE = "script-fp";

    /** The query fingerprint: the one of {@link IndexTimeIT#EN}, so the texts indexed through the pipeline are near it. */
    static final long QUERY = core(Fixtures.EN);

    private final Rest rest;
    /** Expected distance to {@link #QUERY} per document id (64 for documents without a fingerprint). */
    private final Map<String, Integer> expected = new LinkedHashMap<>();

    HammingScriptIT(Rest rest) {
        this.rest = rest;
    }

    @AfterEach
    void cleanUp() {
        // by name: wildcard index deletion is refused (action.destructive_requires_name defaults to true)
        for (String index : rest.ok("GET", "/_cat/indices/script-*?h=index", null).body().split("\\s+")) {
            if (!index.isEmpty()) {
                rest.ok("DELETE", "/" + index, null);
            }
        }
        rest.delete("/_ingest/pipeline/" + PIPELINE);
        rest.delete("/_scripts/script-similarity");
    }

    static long core(String text) {
        return new TextFingerprinter(FeatureAnalyzer.DEFAULT, FingerprintOptions.DEFAULTS).fingerprint(text).getAsLong();
    }

    /**
     * Builds the test index: planted fingerprints at chosen distances from {@link #QUERY}, random
     * ones, a multi-valued one, documents without a fingerprint and real texts through the pipeline.
     */
    private void createCorpus() {
        rest.ok("PUT", "/_ingest/pipeline/" + PIPELINE,
            toJson(Map.of("processors", List.of(Map.of("simhash", Map.of("field", "body", "ignore_missing", true))))));
        rest.ok("PUT", "/" + INDEX, """
            {"settings": {"number_of_shards": 2, "number_of_replicas": 0},
             "mappings": {"properties": {"body": {"type": "text"}, "simhash": %s,
               "kw": {"properties": {"hash": {"type": "keyword"}}},
               "nodv": {"properties": {"hash": {"type": "long", "doc_values": false}}}}}}""".formatted(Fixtures.FP_MAPPING));

        Random r = new Random(2024);
        StringBuilder bulk = new StringBuilder();
        int[] planted = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 16, 24, 32, 40, 48, 56, 63, 64 };
        for (int d : planted) {
            long fp = QUERY;
            Set<Integer> bits = new HashSet<>();
            while (bits.size() < d) {
                bits.add(r.nextInt(64));
            }
            for (int b : bits) {
                fp ^= 1L << b;
            }
            addDirect(bulk, "d" + d, Map.of("simhash", Fixtures.storedForm(fp)), d);
        }
        for (int i = 0; i < 20; i++) {
            long fp = r.nextLong();
            addDirect(bulk, "random" + i, Map.of("simhash", Fixtures.storedForm(fp)), SimHash.distance(fp, QUERY));
        }
        // several fingerprints in one document: the nearest one counts
        addDirect(bulk, "multi", Map.of("simhash", Map.of("hash", List.of(~QUERY, QUERY ^ 0b11L, QUERY ^ 0xF0L))), 2);
        addDirect(bulk, "none", Map.of("title", "no fingerprint at all"), 64);
        rest.bulk("/" + INDEX + "/_bulk", bulk.toString());

        // real texts through the pipeline, fingerprinted on the node
        Map<String, String> texts = new LinkedHashMap<>();
        texts.put("en", Fixtures.EN);
        texts.put("en-edited", Fixtures.EN.replace("distributed", "scalable") + " It is fast.");
        texts.put("zh", Fixtures.ZH);
        texts.put("mixed", Fixtures.MIXED);
        texts.put("punctuation-only", "，。！");
        StringBuilder piped = new StringBuilder();
        for (Map.Entry<String, String> t : texts.entrySet()) {
            piped.append(toJson(Map.of("index", Map.of("_id", t.getKey())))).append('\n')
                .append(toJson(Map.of("body", t.getValue()))).append('\n');
            boolean hasFp = new TextFingerprinter(FeatureAnalyzer.DEFAULT, FingerprintOptions.DEFAULTS).fingerprint(t.getValue()).isPresent();
            expected.put(t.getKey(), hasFp ? SimHash.distance(core(t.getValue()), QUERY) : 64);
        }
        Rest.Answer a = rest.bulk("/" + INDEX + "/_bulk?pipeline=" + PIPELINE + "&refresh=true", piped.toString());
        assertEquals(Boolean.FALSE, a.at("errors"), a.body());
        assertEquals(64, expected.get("punctuation-only"));
        assertEquals(0, expected.get("en"));
        assertEquals(expected.size(), ((Number) rest.ok("GET", "/" + INDEX + "/_count", null).at("count")).intValue());
    }

    private void addDirect(StringBuilder bulk, String id, Map<String, Object> source, int distance) {
        bulk.append(toJson(Map.of("index", Map.of("_id", id)))).append('\n').append(toJson(source)).append('\n');
        expected.put(id, distance);
    }

    static Map<String, Object> script(String source, Object hash) {
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("field", "simhash");
        params.put("hash", hash);
        return script(source, params);
    }

    static Map<String, Object> script(String source, Map<String, Object> params) {
        return Map.of("lang", "simhash", "source", source, "params", params);
    }

    private List<Map<String, Object>> hits(Map<String, Object> request) {
        Map<String, Object> body = new LinkedHashMap<>(request);
        body.put("size", 1000);
        body.put("track_total_hits", true);
        Rest.Answer a = rest.post("/" + INDEX + "/_search", toJson(body));
        assertEquals(200, a.status(), a.toString());
        assertEquals(0, ((Number) a.at("_shards.failed")).intValue(), a.toString());
        return a.at("hits.hits");
    }

    private static double similarity(int distance) {
        return (64 - distance) / 64.0;
    }

    private static double score(Map<String, Object> hit) {
        return ((Number) hit.get("_score")).doubleValue();
    }

    @Test
    void scriptScoreSimilarityIsExactAndOrdered() {
        createCorpus();
        // every accepted form of the same fingerprint gives the same result
        List<Object> forms = new ArrayList<>(List.of(SimHash.toHex(QUERY), QUERY, SimHash.toHex(QUERY).toUpperCase(java.util.Locale.ROOT)));
        if (Long.toString(QUERY).length() != 16) {
            forms.add(Long.toString(QUERY));
        }
        for (Object hash : forms) {
            List<Map<String, Object>> hits = hits(Map.of("query",
                Map.of("script_score", Map.of("query", Map.of("match_all", Map.of()), "script", script("similarity", hash)))));
            assertEquals(expected.size(), hits.size());
            double previous = Double.MAX_VALUE;
            for (Map<String, Object> h : hits) {
                String id = (String) h.get("_id");
                assertEquals(similarity(expected.get(id)), score(h), 0, id + " with hash " + hash);
                assertTrue(score(h) <= previous, "not ordered by similarity: " + hits);
                previous = score(h);
            }
            assertEquals(Set.of("d0", "en"), Set.of(hits.get(0).get("_id"), hits.get(1).get("_id")), "the two exact matches first");
        }
        // the score is the distance with source hamming
        for (Map<String, Object> h : hits(Map.of("query", Map.of("script_score",
            Map.of("query", Map.of("match_all", Map.of()), "script", script("hamming", SimHash.toHex(QUERY))))))) {
            assertEquals(expected.get((String) h.get("_id")), score(h), 0);
        }
        // explain shows the distance
        Rest.Answer explained = rest.ok("POST", "/" + INDEX + "/_search", toJson(Map.of("explain", true, "query", Map.of("script_score",
            Map.of("query", Map.of("ids", Map.of("values", List.of("d3"))), "script", script("similarity", SimHash.toHex(QUERY)))))));
        assertEquals("simhash similarity = 0.953125: Hamming distance 3 from [" + SimHash.toHex(QUERY) + "]",
            explained.at("hits.hits.0._explanation.description"), explained.toString());
        // min_score turns the similarity into a near-duplicate threshold: distance <= 6 is similarity >= 58/64
        List<Map<String, Object>> near = hits(Map.of("query", Map.of("script_score", Map.of("query", Map.of("match_all", Map.of()),
            "script", script("similarity", SimHash.toHex(QUERY)), "min_score", 58 / 64.0))));
        Set<String> nearIds = new HashSet<>();
        near.forEach(h -> nearIds.add((String) h.get("_id")));
        Set<String> expectedNear = new HashSet<>();
        expected.forEach((id, d) -> {
            if (d <= 6) {
                expectedNear.add(id);
            }
        });
        assertEquals(expectedNear, nearIds);
        assertTrue(nearIds.containsAll(List.of("d0", "en", "multi", "d6")), nearIds.toString());
    }

    @Test
    void scriptRescorerReplacesTheScoreWithTheSimilarity() {
        assumeTrue(CompatTestNode.SCRIPT_RESCORER, "this Elasticsearch version has no script rescorer");
        createCorpus();
        // first pass: documents with a fingerprint (constant score); the window covers all of them on each shard
        Map<String, Object> request = Map.of("query", Map.of("exists", Map.of("field", "simhash.hash")),
            "rescore", Map.of("window_size", 100, "script", Map.of("script", script("similarity", SimHash.toHex(QUERY)))));
        List<Map<String, Object>> hits = hits(request);
        long withFp = expected.keySet().stream().filter(id -> !id.equals("none") && !id.equals("punctuation-only")).count();
        assertEquals(withFp, hits.size());
        double previous = Double.MAX_VALUE;
        for (Map<String, Object> h : hits) {
            assertEquals(similarity(expected.get((String) h.get("_id"))), score(h), 0, h.toString());
            assertTrue(score(h) <= previous);
            previous = score(h);
        }
        // a small window rescores only the top of each shard's first pass; the rescored score replaces the first-pass one
        // (here 100, so the rescored documents, all <= 1, end up last)
        Map<String, Object> small = Map.of("query", Map.of("constant_score", Map.of("filter", Map.of("exists", Map.of("field", "simhash.hash")),
            "boost", 100)), "rescore", Map.of("window_size", 3, "script", Map.of("script", script("similarity", SimHash.toHex(QUERY)))));
        int rescored = 0;
        for (Map<String, Object> h : hits(small)) {
            if (score(h) != 100.0) {
                assertEquals(similarity(expected.get((String) h.get("_id"))), score(h), 0, h.toString());
                rescored++;
            }
        }
        assertEquals(6, rescored, "window 3 on each of 2 shards");
    }

    @Test
    void sortByHammingAscending() {
        createCorpus();
        Map<String, Object> request = Map.of("query", Map.of("match_all", Map.of()),
            "sort", List.of(Map.of("_script", Map.of("type", "number", "order", "asc", "script", script("hamming", QUERY))), "_doc"));
        List<Map<String, Object>> hits = hits(request);
        assertEquals(expected.size(), hits.size());
        double previous = -1;
        for (Map<String, Object> h : hits) {
            double sortValue = ((Number) ((List<?>) h.get("sort")).get(0)).doubleValue();
            assertEquals(expected.get((String) h.get("_id")), sortValue, 0, h.toString());
            assertTrue(sortValue >= previous, "not ascending: " + hits);
            previous = sortValue;
        }
        Set<String> first = new HashSet<>();
        hits.subList(0, 2).forEach(h -> first.add((String) h.get("_id")));
        assertEquals(Set.of("d0", "en"), first);
        // descending similarity is the same order
        List<Map<String, Object>> bySimilarity = hits(Map.of("query", Map.of("match_all", Map.of()),
            "sort", List.of(Map.of("_script", Map.of("type", "number", "order", "desc", "script", script("similarity", QUERY))))));
        for (Map<String, Object> h : bySimilarity) {
            assertEquals(similarity(expected.get((String) h.get("_id"))), ((Number) ((List<?>) h.get("sort")).get(0)).doubleValue(), 0);
        }
    }

    @Test
    void scriptFieldsReturnDistanceAndSimilarity() {
        createCorpus();
        Map<String, Object> request = Map.of("query", Map.of("match_all", Map.of()), "_source", false,
            "script_fields", Map.of("distance", Map.of("script", script("hamming", SimHash.toHex(QUERY))),
                "similarity", Map.of("script", script("similarity", SimHash.toHex(QUERY)))));
        List<Map<String, Object>> hits = hits(request);
        assertEquals(expected.size(), hits.size());
        for (Map<String, Object> h : hits) {
            @SuppressWarnings("unchecked")
            Map<String, List<Object>> fields = (Map<String, List<Object>>) h.get("fields");
            int d = expected.get((String) h.get("_id"));
            assertEquals(List.of(d), fields.get("distance"), h.toString()); // an integer, not 3.0
            assertEquals(similarity(d), ((Number) fields.get("similarity").get(0)).doubleValue(), 0, h.toString());
        }
    }

    @Test
    void documentsWithoutFingerprintGet64AndZero() {
        createCorpus();
        Map<String, Object> request = Map.of("query", Map.of("ids", Map.of("values", List.of("none", "punctuation-only"))),
            "script_fields", Map.of("distance", Map.of("script", script("hamming", "0")),
                "similarity", Map.of("script", script("similarity", "0"))));
        List<Map<String, Object>> hits = hits(request);
        assertEquals(2, hits.size());
        for (Map<String, Object> h : hits) {
            @SuppressWarnings("unchecked")
            Map<String, List<Object>> fields = (Map<String, List<Object>>) h.get("fields");
            assertEquals(List.of(64), fields.get("distance"));
            assertEquals(0.0, ((Number) fields.get("similarity").get(0)).doubleValue(), 0);
        }
        List<Map<String, Object>> scored = hits(Map.of("query", Map.of("script_score", Map.of(
            "query", Map.of("ids", Map.of("values", List.of("none", "punctuation-only"))), "script", script("similarity", "0")))));
        scored.forEach(h -> assertEquals(0.0, score(h), 0));
    }

    /** The four ways a script reaches the engine; each must report bad input as a 400. */
    private static Map<String, Map<String, Object>> usages(Map<String, Object> script) {
        Map<String, Map<String, Object>> u = new LinkedHashMap<>();
        u.put("script_score", Map.of("query", Map.of("script_score", Map.of("query", Map.of("match_all", Map.of()), "script", script))));
        if (CompatTestNode.SCRIPT_RESCORER) {
            u.put("rescore", Map.of("query", Map.of("match_all", Map.of()), "rescore", Map.of("window_size", 10, "script",
                Map.of("script", script))));
        }
        u.put("sort", Map.of("sort", List.of(Map.of("_script", Map.of("type", "number", "script", script)))));
        u.put("script_fields", Map.of("script_fields", Map.of("f", Map.of("script", script))));
        return u;
    }

    private static Map<String, Object> params(Object... keyValues) {
        Map<String, Object> m = new HashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            m.put((String) keyValues[i], keyValues[i + 1]);
        }
        return m;
    }

    @Test
    void badInputIs400NamingTheProblem() {
        createCorpus();
        String hex = SimHash.toHex(QUERY);
        Map<String, Map<String, Object>> cases = new LinkedHashMap<>();
        cases.put("unknown simhash script [x], expected one of [hamming, similarity]", script("x", hex));
        cases.put("[field] param is required", script("hamming", params("hash", hex)));
        cases.put("[hash] param is required", script("hamming", params("field", "simhash")));
        cases.put("[hash] expected a fingerprint as 16 hex digits or a signed 64-bit integer, got [xyz]",
            script("hamming", params("field", "simhash", "hash", "xyz")));
        cases.put("[hash] must be 16 hex digits (a string) or a signed 64-bit integer, got [1.5] (a number)",
            script("hamming", params("field", "simhash", "hash", 1.5)));
        cases.put("[hash] [18446744073709551615] is outside the signed 64-bit range",
            script("hamming", params("field", "simhash", "hash", new BigInteger("18446744073709551615"))));
        cases.put("[hash] must be 16 hex digits (a string) or a signed 64-bit integer, got [true] (a boolean)",
            script("similarity", params("field", "simhash", "hash", true)));
        cases.put("[field] must be a string naming a simhash field or the target object of the simhash processor, got [42] (a number)",
            script("hamming", params("field", 42, "hash", hex)));
        cases.put("unknown simhash script param [max_distance], expected [field, hash]",
            script("hamming", params("field", "simhash", "hash", hex, "max_distance", 3)));
        cases.put("[field] is [nope] but [nope.hash] is not mapped", script("hamming", params("field", "nope", "hash", hex)));
        cases.put("[field] is [kw] but [kw.hash] is mapped as [keyword], expected [long]",
            script("hamming", params("field", "kw", "hash", hex)));
        cases.put("[field] is [nodv] but [nodv.hash] has no doc values", script("hamming", params("field", "nodv", "hash", hex)));
        cases.put("pass the target object [simhash], not its hash field", script("hamming", params("field", "simhash.hash", "hash", hex)));
        for (Map.Entry<String, Map<String, Object>> c : cases.entrySet()) {
            for (Map.Entry<String, Map<String, Object>> usage : usages(c.getValue()).entrySet()) {
                Rest.Answer a = rest.post("/" + INDEX + "/_search", toJson(usage.getValue()));
                assertEquals(400, a.status(), usage.getKey() + ": " + c.getKey() + " -> " + a);
                assertTrue(a.body().contains(c.getKey()), usage.getKey() + ": expected [" + c.getKey() + "] in " + a);
            }
        }
        // a context the engine does not serve: the script query (filter context)
        Rest.Answer filter = rest.post("/" + INDEX + "/_search",
            toJson(Map.of("query", Map.of("script", Map.of("script", script("hamming", hex))))));
        assertEquals(400, filter.status(), filter.toString());
        assertTrue(filter.body().contains("simhash scripts cannot be used in the [filter] context, only in [score, number_sort, field]"),
            filter.toString());
        assertEquals("green", rest.get("/_cluster/health/" + INDEX + "?wait_for_status=green&timeout=10s").at("status"));
        // and the node still answers correctly afterwards
        assertEquals(expected.size(), hits(Map.of("query", Map.of("script_score",
            Map.of("query", Map.of("match_all", Map.of()), "script", script("similarity", hex))))).size());
    }

    @Test
    void storedScriptAndLanguageInfo() {
        createCorpus();
        Rest.Answer languages = rest.ok("GET", "/_script_language", null);
        List<Map<String, Object>> langs = languages.at("language_contexts");
        Map<String, Object> ours = langs.stream().filter(l -> "simhash".equals(l.get("language"))).findFirst()
            .orElseThrow(() -> new AssertionError("simhash missing from " + languages));
        assertEquals(Set.of("score", "number_sort", "field"), new HashSet<>((List<?>) ours.get("contexts")));
        assertTrue(((List<?>) languages.at("types_allowed")).contains("inline"));

        rest.ok("PUT", "/_scripts/script-similarity/score", toJson(Map.of("script", Map.of("lang", "simhash", "source", "similarity"))));
        List<Map<String, Object>> hits = hits(Map.of("query", Map.of("script_score", Map.of("query", Map.of("match_all", Map.of()),
            "script", Map.of("id", "script-similarity", "params", Map.of("field", "simhash", "hash", SimHash.toHex(QUERY)))))));
        for (Map<String, Object> h : hits) {
            assertEquals(similarity(expected.get((String) h.get("_id"))), score(h), 0);
        }
        // a stored script is compiled when it is stored with a context
        Rest.Answer bad = rest.put("/_scripts/script-bad/score", toJson(Map.of("script", Map.of("lang", "simhash", "source", "cosine"))));
        assertEquals(400, bad.status(), bad.toString());
        assertTrue(bad.body().contains("unknown simhash script [cosine]"), bad.toString());
    }

    /**
     * Every JSON request of the script's documentation page runs as written, index and field names aside: here on this
     * test's object-form index (ReadmeExamplesIT runs them on the documentation's own data and simhash field).
     */
    @Test
    void readmeExamplesRun() throws Exception {
        createCorpus();
        String section = Files.readString(Path.of("docs/script.md"), StandardCharsets.UTF_8);
        assertTrue(section.startsWith("# Hamming-distance script (`lang: simhash`)"), "docs/script.md has another title");
        Matcher m = Pattern.compile("```json\\n(POST|GET) [a-z-]+/_search\\n(.*?)```", Pattern.DOTALL).matcher(section);
        int examples = 0;
        while (m.find()) {
            if (!CompatTestNode.SCRIPT_RESCORER && m.group(2).contains("\"rescore\"")) {
                examples++; // the page says the script rescorer needs Elasticsearch 9
                continue;
            }
            Rest.Answer a = rest.call(m.group(1), "/" + INDEX + "/_search", m.group(2).replace("\"body.simhash\"", "\"simhash\""));
            assertEquals(200, a.status(), m.group(2) + " -> " + a);
            assertEquals(0, ((Number) a.at("_shards.failed")).intValue(), a.toString());
            examples++;
        }
        assertEquals(3, examples);
    }

    /**
     * {@code script.allowed_types} and {@code script.allowed_contexts} are node settings, checked by
     * Elasticsearch before the engine sees a script: proven on a node of its own.
     */
    @Test
    void scriptSettingsAreEnforcedBeforeTheEngine() throws Exception {
        try (EsCluster restricted = EsCluster.builder(RealNodes.distribution(), RealNodes.workDir().resolve("script-restricted"))
            .name("script-restricted").setting("script.allowed_types", "stored").setting("script.allowed_contexts", "score")
            .build().start()) {
            Rest r = restricted.rest();
            r.ok("PUT", "/script-settings", "{\"settings\": {\"number_of_replicas\": 0}, \"mappings\": {\"properties\": {\"simhash\": "
                + Fixtures.FP_MAPPING + "}}}");
            r.ok("PUT", "/script-settings/_doc/1?refresh=true", toJson(Map.of("simhash", Fixtures.storedForm(QUERY ^ 1))));
            Map<String, Object> params = Map.of("field", "simhash", "hash", SimHash.toHex(QUERY));

            Rest.Answer inline = r.post("/script-settings/_search", toJson(Map.of("query", Map.of("script_score",
                Map.of("query", Map.of("match_all", Map.of()), "script", script("similarity", params))))));
            assertEquals(400, inline.status(), inline.toString());
            assertTrue(inline.body().contains("cannot execute [inline] scripts"), inline.toString());

            r.ok("PUT", "/_scripts/script-similarity", toJson(Map.of("script", Map.of("lang", "simhash", "source", "similarity"))));
            Map<String, Object> stored = Map.of("id", "script-similarity", "params", params);
            Rest.Answer scored = r.ok("POST", "/script-settings/_search", toJson(Map.of("query", Map.of("script_score",
                Map.of("query", Map.of("match_all", Map.of()), "script", stored)))));
            assertEquals(63 / 64.0, ((Number) scored.at("hits.hits.0._score")).doubleValue(), 0);

            Rest.Answer sort = r.post("/script-settings/_search",
                toJson(Map.of("sort", List.of(Map.of("_script", Map.of("type", "number", "script", stored))))));
            assertEquals(400, sort.status(), sort.toString());
            assertTrue(sort.body().contains("cannot execute scripts using [number_sort] context"), sort.toString());
        }
    }
}
