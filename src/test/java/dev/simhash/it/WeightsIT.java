package dev.simhash.it;

import dev.simhash.core.SimHash;
import dev.simhash.core.SimHashV2;
import dev.simhash.it.support.EsCluster;
import dev.simhash.it.support.Fixtures;
import dev.simhash.it.support.RealNodes;
import dev.simhash.it.support.Rest;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static dev.simhash.it.support.Rest.toJson;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Feature-weight tables on a dedicated single node with security: a table computed from an index (and one computed in the
 * background), used by a pipeline, a {@code simhash} field and a {@code text} query; the node restarted (SIGKILL): the table
 * and every fingerprint are unchanged and the pipeline and field still fingerprint with it; errors: bad names, malformed
 * uploads, missing tables, other versions, a table in use (by pipelines, indices and index templates of every kind); a user
 * without {@code manage} cannot create tables; concurrent puts and deletes (batched on the master) as if one after another.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WeightsIT {

    static final String PASSWORD = "simhash-secret-1";

    private EsCluster cluster;
    private Rest admin;

    @BeforeAll
    void start() throws Exception {
        cluster = EsCluster.builder(RealNodes.distribution(), RealNodes.workDir().resolve("weights")).name("weights")
            .security("admin", PASSWORD)
            .role("""
                weights_viewer:
                  cluster: ['monitor']
                  indices:
                    - names: ['*']
                      privileges: ['read']
                """)
            .user("viewer", PASSWORD, "weights_viewer")
            .build().start();
        admin = cluster.rest();
    }

    @AfterAll
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    /**
     * Ten documents: "common" in all ten, "rare" in two (0, 1), "once" in one (2); each also has its own word "wN". With
     * N = 10 and factor ln(1 + N / df) (README): common ln 2, rare ln 6; once has df 1 < min_df 2, so it takes the default
     * weight ln(1 + 10 / 1) = ln 11.
     */
    static String doc(int i) {
        return "common w" + i + (i < 2 ? " rare" : "") + (i == 2 ? " once" : "") + " common";
    }

    private static final String TEXT = "common rare once w3 common w7 w8 w9 something new";

    @SuppressWarnings("unchecked")
    private Map<String, Double> features(String table) {
        Map<String, Object> t = admin.ok("GET", "/_simhash/weights/" + table + "?features=true", null).json();
        Map<String, Double> out = new LinkedHashMap<>();
        ((Map<String, Object>) t.get("features")).forEach((k, v) -> out.put(k, ((Number) v).doubleValue()));
        return out;
    }

    /** The v2 fingerprint the core's reference path gives with the table's factors as the node reports them. */
    private long expected(String text, Map<String, Double> factors, double defaultWeight) {
        return SimHashV2.fingerprint(List.of(text), 1, f -> factors.getOrDefault(f, defaultWeight)).getAsLong();
    }

    private static long hashOf(Rest.Answer doc) {
        return ((Number) doc.at("_source.simhash.hash")).longValue();
    }

    @Test
    void computedTableUsedByPipelineFieldAndQuerySurvivesARestart() throws Exception {
        StringBuilder nd = new StringBuilder();
        for (int i = 0; i < 10; i++) {
            nd.append(toJson(Map.of("index", Map.of("_id", "n" + i)))).append('\n').append(toJson(Map.of("body", doc(i)))).append('\n');
        }
        admin.ok("PUT", "/news", "{\"settings\": {\"number_of_shards\": 2, \"number_of_replicas\": 0}}");
        assertEquals(200, admin.bulk("/news/_bulk?refresh=true", nd.toString()).status());

        Rest.Answer put = admin.ok("PUT", "/_simhash/weights/news-idf",
            "{\"index\": \"news\", \"field\": \"body\", \"version\": \"v2\", \"sample_size\": 1000, \"min_df\": 2}");
        assertEquals("news-idf", put.at("name"));
        assertEquals("v2", put.at("version"));
        Map<String, Double> f = features("news-idf");
        assertEquals(Math.log(2), f.get("common"), 1e-12);
        assertEquals(Math.log(6), f.get("rare"), 1e-12);
        assertEquals(Math.log(6), f.get("rare common"), 1e-12, "bigram in docs 0 and 1");
        assertTrue(!f.containsKey("once") && !f.containsKey("w3"), "df 1 < min_df: not listed " + f.keySet());
        Map<String, Object> meta = admin.ok("GET", "/_simhash/weights/news-idf", null).json();
        double defaultWeight = ((Number) meta.get("default_weight")).doubleValue();
        assertEquals(Math.log(11), defaultWeight, 1e-12);
        assertEquals(10, ((Number) ((Map<?, ?>) meta.get("source")).get("documents")).intValue());
        assertEquals("all", ((Map<?, ?>) meta.get("source")).get("sampling"), "no more documents than the sample size: all of them");
        assertEquals(f.size(), ((Number) meta.get("feature_count")).intValue());
        assertTrue(!meta.containsKey("features"), "features only on request");
        assertEquals(2, ((Map<?, ?>) admin.ok("GET", "/_simhash/weights/news-idf?size=2", null).json().get("features")).size());
        List<Map<String, Object>> list = admin.ok("GET", "/_simhash/weights", null).at("tables");
        assertTrue(list.stream().anyMatch(t -> "news-idf".equals(t.get("name"))), list.toString());
        // immutable: the name is taken
        Rest.Answer again = admin.put("/_simhash/weights/news-idf", "{\"version\": \"v2\", \"features\": {\"a\": 1}}");
        assertEquals(409, again.status(), again.toString());
        assertTrue(again.body().contains("already exists; tables are immutable: a new table is a new name"), again.body());

        // the background path: the task id at once, the task's result when done
        Rest.Answer async = admin.ok("PUT", "/_simhash/weights/news-idf-bg?wait_for_completion=false",
            "{\"index\": \"news\", \"field\": \"body\", \"version\": \"v2\", \"min_df\": 2}");
        String task = async.at("task");
        Rest.Answer done = admin.ok("GET", "/_tasks/" + task + "?wait_for_completion=true&timeout=60s", null);
        assertEquals(Boolean.TRUE, done.at("completed"), done.toString());
        assertEquals("news-idf-bg", done.at("response.name"), done.toString());
        assertEquals(f, features("news-idf-bg"), "the same sample, the same table");

        long weighted = expected(TEXT, f, defaultWeight);
        long plain = SimHashV2.fingerprint(TEXT, 1).getAsLong();
        assertNotEquals(plain, weighted, "the table changes this fingerprint");

        // a pipeline
        admin.ok("PUT", "/_ingest/pipeline/weighted",
            "{\"processors\": [{\"simhash\": {\"field\": \"body\", \"version\": \"v2\", \"weights\": \"news-idf\"}}]}");
        admin.ok("PUT", "/piped", Fixtures.objectFormIndex(1));
        admin.ok("PUT", "/piped/_doc/1?pipeline=weighted&refresh=true", toJson(Map.of("body", TEXT)));
        assertEquals(Fixtures.storedForm(weighted), admin.ok("GET", "/piped/_doc/1", null).at("_source.simhash"));
        // a simhash field
        admin.ok("PUT", "/fielded", "{\"settings\": {\"number_of_replicas\": 0}, \"mappings\": {\"properties\": {\"body\": {\"type\": \"text\", \"fields\": {\"simhash\": "
            + "{\"type\": \"simhash\", \"version\": \"v2\", \"weights\": \"news-idf\"}}}}}}");
        admin.ok("PUT", "/fielded/_doc/1?refresh=true", toJson(Map.of("body", TEXT)));
        admin.ok("PUT", "/fielded/_doc/2?refresh=true", toJson(Map.of("body", "unrelated words entirely, nothing in common here")));
        assertEquals("news-idf", admin.ok("GET", "/fielded/_mapping", null).at("fielded.mappings.properties.body.fields.simhash.weights"));
        Rest.Answer byValue = admin.ok("POST", "/fielded/_search", "{\"query\": {\"simhash\": {\"field\": \"body.simhash\", \"hash\": \""
            + SimHash.toHex(weighted) + "\", \"max_distance\": 0}}}");
        assertEquals(List.of("1"), Fixtures.ids(byValue), "the field stored the weighted fingerprint: " + byValue);
        // text queries: the field's own table, and the object form naming it
        String textQuery = "{\"query\": {\"simhash\": {\"field\": \"body.simhash\", \"text\": " + toJson(TEXT) + ", \"max_distance\": 0}}}";
        assertEquals(List.of("1"), Fixtures.ids(admin.ok("POST", "/fielded/_search", textQuery)));
        String objectQuery = "{\"query\": {\"simhash\": {\"field\": \"simhash\", \"text\": " + toJson(TEXT)
            + ", \"version\": \"v2\", \"weights\": \"news-idf\", \"max_distance\": 0}}}";
        assertEquals(List.of("1"), Fixtures.ids(admin.ok("POST", "/piped/_search", objectQuery)));
        String unweighted = "{\"query\": {\"simhash\": {\"field\": \"simhash\", \"text\": " + toJson(TEXT)
            + ", \"version\": \"v2\", \"max_distance\": 0}}}";
        assertEquals(List.of(), Fixtures.ids(admin.ok("POST", "/piped/_search", unweighted)), "without the table: another fingerprint");

        // in use: not deleted, the users named
        Rest.Answer inUse = admin.delete("/_simhash/weights/news-idf");
        assertEquals(409, inUse.status(), inUse.toString());
        assertTrue(inUse.body().contains("pipeline [weighted]") && inUse.body().contains("index [fielded] field [body.simhash]"),
            inUse.body());

        // restart (SIGKILL, as a crash): the table comes back from the persisted cluster state before pipelines and indices
        cluster.killNode(0);
        cluster.restartNode(0);
        cluster.waitForGreen(Duration.ofSeconds(180));
        assertEquals(f, features("news-idf"), "the table is unchanged");
        assertEquals(defaultWeight, ((Number) admin.ok("GET", "/_simhash/weights/news-idf", null).at("default_weight")).doubleValue());
        assertEquals(Fixtures.storedForm(weighted), admin.ok("GET", "/piped/_doc/1", null).at("_source.simhash"));
        // the pipeline was re-created with its table: it still fingerprints with it
        admin.ok("PUT", "/piped/_doc/2?pipeline=weighted&refresh=true", toJson(Map.of("body", TEXT)));
        assertEquals(weighted, hashOf(admin.ok("GET", "/piped/_doc/2", null)));
        // and the field's index was recovered with it
        admin.ok("PUT", "/fielded/_doc/3?refresh=true", toJson(Map.of("body", TEXT)));
        List<String> ids = new ArrayList<>(Fixtures.ids(admin.ok("POST", "/fielded/_search", textQuery)));
        ids.sort(null);
        assertEquals(List.of("1", "3"), ids);
        assertEquals(List.of("1", "2"), sortedIds(admin.ok("POST", "/piped/_search", objectQuery)));

        // once nothing uses it, it can go
        admin.ok("DELETE", "/_ingest/pipeline/weighted", null);
        admin.ok("DELETE", "/fielded", null);
        admin.ok("DELETE", "/_simhash/weights/news-idf", null);
        assertEquals(404, admin.get("/_simhash/weights/news-idf").status());
        admin.ok("DELETE", "/_simhash/weights/news-idf-bg", null);
    }

    /**
     * 300 documents in one shard, in index order 60 with "early" then 240 with "late": the first 50 documents (the old
     * sample) have no "late"; a uniform sample of 50 has about 40 of them, and the same seed draws the same sample again.
     */
    @Test
    void aComputedTableSamplesTheWholeIndexAtRandom() {
        StringBuilder nd = new StringBuilder();
        for (int i = 0; i < 300; i++) {
            nd.append(toJson(Map.of("index", Map.of("_id", "s" + i)))).append('\n')
                .append(toJson(Map.of("body", (i < 60 ? "early" : "late") + " w" + i))).append('\n');
        }
        admin.ok("PUT", "/sampled", "{\"settings\": {\"number_of_shards\": 1, \"number_of_replicas\": 0}}");
        assertEquals(200, admin.bulk("/sampled/_bulk?refresh=true", nd.toString()).status());

        admin.ok("PUT", "/_simhash/weights/sampled-idf", "{\"index\": \"sampled\", \"field\": \"body\", \"version\": \"v2\", "
            + "\"sample_size\": 50}");
        Map<String, Double> f = features("sampled-idf");
        assertTrue(f.containsKey("late"), "features of later documents: " + f.keySet());
        Map<?, ?> source = (Map<?, ?>) admin.ok("GET", "/_simhash/weights/sampled-idf", null).json().get("source");
        assertEquals(50, ((Number) source.get("documents")).intValue(), source.toString());
        assertEquals(300, ((Number) source.get("matching")).intValue(), source.toString());
        assertEquals("random", source.get("sampling"), source.toString());
        assertEquals(0, ((Number) source.get("seed")).intValue(), "the default seed: " + source);
        // "late" is in about 4/5 of the sample, "early" in about 1/5: "late" weighs less
        assertTrue(f.get("late") < Math.log(1 + 50 / 25.0), "late in more than half the sample: " + f.get("late"));

        // reproducible: the same (default) seed, the same sample, the same table
        admin.ok("PUT", "/_simhash/weights/sampled-idf-2", "{\"index\": \"sampled\", \"field\": \"body\", \"version\": \"v2\", "
            + "\"sample_size\": 50, \"seed\": 0}");
        assertEquals(f, features("sampled-idf-2"));
        // another seed: still a sample of 50 from the whole index
        admin.ok("PUT", "/_simhash/weights/sampled-idf-3", "{\"index\": \"sampled\", \"field\": \"body\", \"version\": \"v2\", "
            + "\"sample_size\": 50, \"seed\": 12345}");
        assertTrue(features("sampled-idf-3").containsKey("late"));
        assertEquals(12345, ((Number) admin.ok("GET", "/_simhash/weights/sampled-idf-3", null).at("source.seed")).intValue());
        assertBadRequest(admin.put("/_simhash/weights/seeded-upload", "{\"version\": \"v2\", \"features\": {}, \"seed\": 1}"),
            "[seed] only applies when computing a table from an [index]");

        for (String t : List.of("sampled-idf", "sampled-idf-2", "sampled-idf-3")) {
            admin.ok("DELETE", "/_simhash/weights/" + t, null);
        }
        admin.ok("DELETE", "/sampled", null);
    }

    @Test
    void tablesUsedByIndexTemplatesAreNotDeleted() {
        admin.ok("PUT", "/_simhash/weights/tpl-idf", "{\"version\": \"v2\", \"features\": {\"the\": 0.1}, \"default_weight\": 2}");
        admin.ok("PUT", "/_component_template/tpl-comp", "{\"template\": {\"mappings\": {\"properties\": {\"body\": {\"type\": \"text\", "
            + "\"fields\": {\"simhash\": {\"type\": \"simhash\", \"version\": \"v2\", \"weights\": \"tpl-idf\"}}}}}}}");
        admin.ok("PUT", "/_index_template/tpl-index", "{\"index_patterns\": [\"tpl-logs-*\"], \"composed_of\": [\"tpl-comp\"], "
            + "\"template\": {\"mappings\": {\"properties\": {\"title\": {\"type\": \"simhash\", \"version\": \"v2\", "
            + "\"weights\": \"tpl-idf\"}}}}}");
        // legacy templates are deprecated (a warning header) but still honoured on every supported line
        admin.ok("PUT", "/_template/tpl-legacy", "{\"index_patterns\": [\"tpl-old-*\"], \"mappings\": {\"dynamic_templates\": [{\"texts\": "
            + "{\"match_mapping_type\": \"string\", \"mapping\": {\"type\": \"text\", \"fields\": {\"fp\": {\"type\": \"simhash\", "
            + "\"version\": \"v2\", \"weights\": \"tpl-idf\"}}}}}], \"properties\": {\"meta\": {\"properties\": {\"fp\": "
            + "{\"type\": \"simhash\", \"version\": \"v2\", \"weights\": \"tpl-idf\"}}}}}}");

        Rest.Answer inUse = admin.delete("/_simhash/weights/tpl-idf");
        assertEquals(409, inUse.status(), inUse.toString());
        for (String user : List.of("index template [tpl-index] field [title]", "component template [tpl-comp] field [body.simhash]",
            "legacy template [tpl-legacy] field [meta.fp]", "legacy template [tpl-legacy] dynamic template [texts]")) {
            assertTrue(inUse.body().contains(user), "expected [" + user + "] in " + inUse.body());
        }
        assertTrue(inUse.body().contains("feature-weight table [tpl-idf] is in use by 4: "), inUse.body());
        // the templates still work: an index created from one fingerprints with the table
        admin.ok("PUT", "/tpl-logs-1/_doc/1?refresh=true", toJson(Map.of("body", "the quick brown fox", "title", "the lazy dog")));
        assertEquals("tpl-idf", admin.ok("GET", "/tpl-logs-1/_mapping", null).at("tpl-logs-1.mappings.properties.title.weights"));
        admin.ok("DELETE", "/tpl-logs-1", null);

        // one template less at a time: the rest are still named
        admin.ok("DELETE", "/_index_template/tpl-index", null);
        Rest.Answer still = admin.delete("/_simhash/weights/tpl-idf");
        assertEquals(409, still.status(), still.toString());
        assertTrue(still.body().contains("component template [tpl-comp] field [body.simhash]") && !still.body().contains("tpl-index"),
            still.body());
        admin.ok("DELETE", "/_component_template/tpl-comp", null);
        Rest.Answer legacyOnly = admin.delete("/_simhash/weights/tpl-idf");
        assertEquals(409, legacyOnly.status(), legacyOnly.toString());
        assertTrue(legacyOnly.body().contains("is in use by 2: legacy template [tpl-legacy]"), legacyOnly.body());
        admin.ok("DELETE", "/_template/tpl-legacy", null);
        admin.ok("DELETE", "/_simhash/weights/tpl-idf", null);
        assertEquals(404, admin.get("/_simhash/weights/tpl-idf").status());
    }

    /** Sends the requests all at once (one thread each, released together) and gives their answers in the same order. */
    private static List<Rest.Answer> concurrently(List<Callable<Rest.Answer>> requests) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(requests.size());
        try {
            CyclicBarrier start = new CyclicBarrier(requests.size());
            List<Future<Rest.Answer>> futures = new ArrayList<>();
            for (Callable<Rest.Answer> r : requests) {
                futures.add(pool.submit(() -> {
                    start.await(30, TimeUnit.SECONDS);
                    return r.call();
                }));
            }
            List<Rest.Answer> answers = new ArrayList<>();
            for (Future<Rest.Answer> f : futures) {
                answers.add(f.get(120, TimeUnit.SECONDS));
            }
            return answers;
        } finally {
            pool.shutdownNow();
        }
    }

    private static final int CONCURRENT = 8;

    /**
     * Table changes reach the master together and run there as batches: of concurrent puts of one new name exactly one
     * stores its table and the others are refused as for a taken name (a batch whose changes did not each see the ones
     * before it would store several, the last one winning, and answer 200 to all); concurrent puts of distinct names are
     * all stored (none lost by a later change of the batch overwriting the tables an earlier one left); of concurrent
     * deletes of one table exactly one deletes it and the others find it gone.
     */
    @Test
    void concurrentChangesOfTablesAreAppliedOneAfterAnother() throws Exception {
        List<Callable<Rest.Answer>> sameName = new ArrayList<>();
        for (int i = 0; i < CONCURRENT; i++) {
            String body = "{\"version\": \"v2\", \"features\": {\"the\": 0.5}, \"default_weight\": " + (i + 1) + "}";
            sameName.add(() -> admin.put("/_simhash/weights/race-idf", body));
        }
        List<Rest.Answer> puts = concurrently(sameName);
        List<Integer> winners = new ArrayList<>();
        for (int i = 0; i < CONCURRENT; i++) {
            Rest.Answer a = puts.get(i);
            if (a.status() == 200) {
                winners.add(i);
            } else {
                assertEquals(409, a.status(), a.toString());
                assertTrue(a.body().contains("feature-weight table [race-idf] already exists; tables are immutable: a new table is a new "
                    + "name (delete the old one when nothing uses it)"), a.body());
            }
        }
        assertEquals(1, winners.size(), "exactly one put stores the table: " + puts);
        // the stored table is the winner's (each put had its own default weight)
        assertEquals(winners.get(0) + 1.0,
            ((Number) admin.ok("GET", "/_simhash/weights/race-idf", null).at("default_weight")).doubleValue(), 0.0);

        List<Callable<Rest.Answer>> distinct = new ArrayList<>();
        for (int i = 0; i < CONCURRENT; i++) {
            String name = "race-" + i;
            distinct.add(() -> admin.put("/_simhash/weights/" + name, "{\"version\": \"v2\", \"features\": {\"w" + name + "\": 1}}"));
        }
        for (Rest.Answer a : concurrently(distinct)) {
            assertEquals(200, a.status(), a.toString());
        }
        List<Map<String, Object>> list = admin.ok("GET", "/_simhash/weights", null).at("tables");
        List<String> names = list.stream().map(t -> (String) t.get("name")).toList();
        for (int i = 0; i < CONCURRENT; i++) {
            assertTrue(names.contains("race-" + i), "race-" + i + " is listed: " + names);
            assertEquals(List.of("wrace-" + i), List.copyOf(((Map<?, ?>) admin.ok("GET", "/_simhash/weights/race-" + i + "?features=true", null)
                .json().get("features")).keySet()));
        }
        assertTrue(names.contains("race-idf"), names.toString());

        List<Callable<Rest.Answer>> deletes = new ArrayList<>();
        for (int i = 0; i < CONCURRENT; i++) {
            deletes.add(() -> admin.delete("/_simhash/weights/race-idf"));
        }
        List<Rest.Answer> deleted = concurrently(deletes);
        int ok = 0;
        for (Rest.Answer a : deleted) {
            if (a.status() == 200) {
                ok++;
                assertEquals(Boolean.TRUE, a.json().get("acknowledged"), a.toString());
            } else {
                assertEquals(404, a.status(), a.toString());
                assertTrue(a.body().contains("feature-weight table [race-idf] not found"), a.body());
            }
        }
        assertEquals(1, ok, "exactly one delete removes the table: " + deleted);
        assertEquals(404, admin.get("/_simhash/weights/race-idf").status());

        // the distinct tables go the same way, all at once
        List<Callable<Rest.Answer>> cleanup = new ArrayList<>();
        for (int i = 0; i < CONCURRENT; i++) {
            String name = "race-" + i;
            cleanup.add(() -> admin.delete("/_simhash/weights/" + name));
        }
        for (Rest.Answer a : concurrently(cleanup)) {
            assertEquals(200, a.status(), a.toString());
        }
        List<Map<String, Object>> left = admin.ok("GET", "/_simhash/weights", null).at("tables");
        assertTrue(left.stream().noneMatch(t -> ((String) t.get("name")).startsWith("race-")), left.toString());
    }

    private static List<String> sortedIds(Rest.Answer a) {
        List<String> ids = new ArrayList<>(Fixtures.ids(a));
        ids.sort(null);
        return ids;
    }

    private void assertBadRequest(Rest.Answer a, String... parts) {
        assertEquals(400, a.status(), a.toString());
        for (String p : parts) {
            assertTrue(a.body().contains(p), "expected [" + p + "] in " + a.body());
        }
    }

    @Test
    void badNamesAndMalformedUploadsAre400sNamingTheProblem() {
        String ok = "{\"version\": \"v2\", \"features\": {\"the\": 0.1}}";
        assertBadRequest(admin.put("/_simhash/weights/BAD%20NAME", ok), "invalid feature-weight table name [BAD NAME]");
        assertBadRequest(admin.put("/_simhash/weights/Upper", ok), "must contain only lowercase letters");
        assertBadRequest(admin.put("/_simhash/weights/%2E%2E", ok), "must not start with [_], [-] or [.]");
        assertBadRequest(admin.put("/_simhash/weights/_x", ok), "must not start with");
        assertBadRequest(admin.get("/_simhash/weights/Upper"), "invalid feature-weight table name");
        assertBadRequest(admin.put("/_simhash/weights/neg", "{\"version\": \"v2\", \"features\": {\"the\": -0.5}}"),
            "[features] factor of [the] must be a finite number between 0 and 1000000, got [-0.5]");
        assertBadRequest(admin.put("/_simhash/weights/nan", "{\"version\": \"v2\", \"features\": {\"the\": \"NaN\"}}"),
            "[features] factor of [the] must be a number, got [NaN]");
        assertBadRequest(admin.put("/_simhash/weights/notobj", "{\"version\": \"v2\", \"features\": [\"the\", 0.1]}"),
            "[features] must be an object of feature to factor");
        assertBadRequest(admin.put("/_simhash/weights/nover", "{\"features\": {\"the\": 0.1}}"), "[version] is required");
        assertBadRequest(admin.put("/_simhash/weights/v9", "{\"version\": \"v9\", \"features\": {}}"), "unknown version [v9]");
        assertBadRequest(admin.put("/_simhash/weights/both", "{\"version\": \"v2\", \"features\": {}, \"index\": \"x\"}"),
            "[features] and [index] exclude each other");
        assertBadRequest(admin.put("/_simhash/weights/unknown", "{\"version\": \"v2\", \"features\": {}, \"idf\": true}"), "idf");
        StringBuilder big = new StringBuilder("{\"version\": \"v2\", \"features\": {");
        for (int i = 0; i <= 200_000; i++) {
            big.append(i == 0 ? "" : ",").append("\"f").append(i).append("\":1");
        }
        assertBadRequest(admin.put("/_simhash/weights/big", big.append("}}").toString()), "[features] has more than 200000 features");
        assertEquals(404, admin.get("/_simhash/weights/never-made").status());
        Rest.Answer del = admin.delete("/_simhash/weights/never-made");
        assertEquals(404, del.status(), del.toString());
        assertTrue(del.body().contains("feature-weight table [never-made] not found"), del.body());
        for (String name : List.of("neg", "nan", "notobj", "nover", "v9", "both", "unknown", "big")) {
            assertEquals(404, admin.get("/_simhash/weights/" + name).status(), name + " was not created");
        }
    }

    @Test
    void missingTablesAndOtherVersionsAreRefusedWhereTheyAreNamed() {
        admin.ok("PUT", "/_simhash/weights/v2-up", "{\"version\": \"v2\", \"features\": {\"the\": 0.0}, \"default_weight\": 2}");
        assertBadRequest(admin.put("/_ingest/pipeline/bad", "{\"processors\": [{\"simhash\": {\"field\": \"body\", \"version\": \"v2\", "
            + "\"weights\": \"absent\"}}]}"), "[weights] no feature-weight table [absent]");
        assertBadRequest(admin.put("/_ingest/pipeline/bad", "{\"processors\": [{\"simhash\": {\"field\": \"body\", "
            + "\"weights\": \"v2-up\"}}]}"), "[weights]", "table [v2-up] holds simhash-v2 features, this fingerprint is simhash-v1");
        assertBadRequest(admin.put("/badmap", "{\"mappings\": {\"properties\": {\"t\": {\"type\": \"simhash\", \"weights\": \"absent\"}}}}"),
            "[weights] no feature-weight table [absent]");
        assertEquals(404, admin.get("/badmap").status(), "the index was not created");
        admin.ok("PUT", "/objq", Fixtures.objectFormIndex(1));
        assertBadRequest(admin.post("/objq/_search", "{\"query\": {\"simhash\": {\"field\": \"simhash\", \"text\": \"a b c\", "
            + "\"version\": \"v2\", \"weights\": \"absent\"}}}"), "[weights] no feature-weight table [absent]");
        assertBadRequest(admin.post("/_analyze", "{\"tokenizer\": \"standard\", \"filter\": [{\"type\": \"simhash\", "
            + "\"weights\": \"v2-up\"}], \"text\": \"a\"}"), "[weights] is not available in the simhash token filter");
        admin.ok("DELETE", "/objq", null);
        admin.ok("DELETE", "/_simhash/weights/v2-up", null);
    }

    @Test
    void managingTablesNeedsAClusterPrivilege() {
        Rest viewer = cluster.restAs("viewer");
        Rest.Answer denied = viewer.put("/_simhash/weights/viewer-made", "{\"version\": \"v2\", \"features\": {\"the\": 0.5}}");
        assertEquals(403, denied.status(), denied.toString());
        assertTrue(denied.body().contains("cluster:admin/simhash/weights/put"), denied.body());
        admin.ok("PUT", "/_simhash/weights/admin-made", "{\"version\": \"v2\", \"features\": {\"the\": 0.5}}");
        assertEquals(200, viewer.get("/_simhash/weights/admin-made").status(), "monitor reads tables");
        assertEquals(403, viewer.delete("/_simhash/weights/admin-made").status());
        admin.ok("DELETE", "/_simhash/weights/admin-made", null);
    }
}
