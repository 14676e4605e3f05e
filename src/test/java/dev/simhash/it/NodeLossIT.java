package dev.simhash.it;

import dev.simhash.core.FeatureAnalyzer;
import dev.simhash.core.FingerprintOptions;
import dev.simhash.core.SimHash;
import dev.simhash.core.TextFingerprinter;
import dev.simhash.it.support.EsCluster;
import dev.simhash.it.support.Fixtures;
import dev.simhash.it.support.RealNodes;
import dev.simhash.it.support.Rest;

import org.junit.jupiter.api.Test;

import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;

import static dev.simhash.it.support.Rest.toJson;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A 3-node cluster indexing through the pipeline while a node is SIGKILLed and restarted: no
 * acknowledged document is lost, every shard copy holds the core's fingerprints, and the query is
 * exact again once the cluster is green.
 */
class NodeLossIT {

    static final String[] WORDS = { "news", "story", "edit", "headline", "market", "rates", "新闻", "转载", "媒体", "标题",
        "修改", "价格", "指数", "上涨", "crawl", "page" };
    static final TextFingerprinter CORE = new TextFingerprinter(FeatureAnalyzer.DEFAULT, FingerprintOptions.DEFAULTS);

    static String text(int n) {
        Random r = new Random(n / 3); // three documents share a seed: near-duplicate families
        StringBuilder sb = new StringBuilder();
        int len = 20 + r.nextInt(30);
        for (int i = 0; i < len; i++) {
            sb.append(WORDS[r.nextInt(WORDS.length)]).append(' ');
        }
        return sb.append(n % 3 == 0 ? "" : WORDS[n % WORDS.length]).toString();
    }

    /** Sends one bulk of documents [from, from+count); returns the ids the cluster acknowledged. */
    static Set<String> indexBatch(Rest rest, int from, int count) {
        StringBuilder nd = new StringBuilder();
        for (int n = from; n < from + count; n++) {
            nd.append(toJson(Map.of("index", Map.of("_id", "d" + n)))).append('\n').append(toJson(Map.of("body", text(n)))).append('\n');
        }
        Set<String> acked = new HashSet<>();
        try {
            Rest.Answer a = rest.bulk("/loss/_bulk", nd.toString());
            if (a.status() != 200) {
                return acked;
            }
            List<Map<String, Object>> items = a.at("items");
            for (Map<String, Object> item : items) {
                @SuppressWarnings("unchecked")
                Map<String, Object> result = (Map<String, Object>) item.get("index");
                int status = ((Number) result.get("status")).intValue();
                if (status == 200 || status == 201) {
                    acked.add((String) result.get("_id"));
                }
            }
        } catch (UncheckedIOException e) {
            // the request was lost with the node: nothing of it counts as acknowledged
        }
        return acked;
    }

    @Test
    void noAcknowledgedWriteIsLostAndQueriesStayExact() throws Exception {
        try (EsCluster cluster = EsCluster.builder(RealNodes.distribution(), RealNodes.workDir().resolve("three")).name("three").nodes(3)
            .build().start()) {
            Rest rest = cluster.rest();
            rest.ok("PUT", "/_ingest/pipeline/loss-fp", toJson(Map.of("processors", List.of(Map.of("simhash", Map.of("field", "body"))))));
            // under load the client may time out on index creation and retry it on another node after it succeeded
            Rest.Answer created = rest.call("PUT", "/loss", "{\"settings\": {\"number_of_shards\": 3, \"number_of_replicas\": 1, \"index.default_pipeline\": "
                + "\"loss-fp\", \"index.unassigned.node_left.delayed_timeout\": \"0s\", \"index.routing.rebalance.enable\": \"none\"}, \"mappings\": {\"properties\": {\"body\": "
                + "{\"type\": \"text\"}, \"simhash\": " + Fixtures.FP_MAPPING + "}}}");
            assertTrue(created.status() == 200 || created.body().contains("resource_already_exists_exception"), created.toString());
            rest.ok("GET", "/_cluster/health/loss?wait_for_status=green&timeout=120s", null);

            Set<String> acked = new HashSet<>();
            int next = 0;
            for (int b = 0; b < 5; b++, next += 200) {
                acked.addAll(indexBatch(rest, next, 200));
            }
            cluster.killNode(2);
            for (int b = 0; b < 10; b++, next += 200) {
                acked.addAll(indexBatch(rest, next, 200));
            }
            cluster.restartNode(2);
            cluster.waitForGreen(Duration.ofSeconds(300));
            for (int b = 0; b < 5; b++, next += 200) {
                acked.addAll(indexBatch(rest, next, 200));
            }
            rest.ok("POST", "/loss/_refresh", null);
            // rebalancing may move copies back to the restarted node: read them once they have settled
            rest.ok("GET", "/_cluster/health/loss?wait_for_status=green&wait_for_no_relocating_shards=true"
                + "&wait_for_no_initializing_shards=true&timeout=180s", null);
            assertTrue(acked.size() >= 1000, "the writes before the kill must be acknowledged, got " + acked.size());

            // every shard copy, read on the node that holds it, has the core's fingerprint for every document
            Map<String, Long> present;
            List<Map<String, Object>> shards = new Rest.Answer(200, "{\"s\":" + rest.ok("GET", "/_cat/shards/loss?format=json&h=shard,prirep,state,node,id", null).body() + "}").at("s");
            Map<String, String> nodeIds = nodeIdsByName(rest);
            Map<String, Long> union = new TreeMap<>();
            int copies = 0;
            for (Map<String, Object> s : shards) {
                assertEquals("STARTED", s.get("state"), s.toString());
                String pref = "_shards:" + s.get("shard") + "|_only_nodes:" + nodeIds.get((String) s.get("node"));
                Map<String, Long> copy = readAll(rest, pref);
                for (Map.Entry<String, Long> e : copy.entrySet()) {
                    int n = Integer.parseInt(e.getKey().substring(1));
                    assertEquals(CORE.fingerprint(text(n)).getAsLong(), (long) e.getValue(), e.getKey() + " on " + s.get("node"));
                    Long other = union.put(e.getKey(), e.getValue());
                    assertTrue(other == null || other.equals(e.getValue()), "copies disagree on " + e.getKey());
                }
                copies++;
            }
            assertEquals(6, copies, "3 shards x 2 copies");
            present = union;
            System.out.printf(java.util.Locale.ROOT, "[NodeLossIT] sent %d, acknowledged %d, present %d after kill -9 and restart of node-2%n",
                next, acked.size(), present.size());
            for (String id : acked) {
                assertTrue(present.containsKey(id), "acknowledged document lost: " + id);
            }

            // exact again: hit sets equal brute force over what is present
            for (int q = 0; q < 6; q++) {
                String id = "d" + (q * 577 % next);
                if (!present.containsKey(id)) {
                    continue;
                }
                long hash = present.get(id);
                for (int r : new int[] { 3, 11 }) {
                    Rest.Answer a = rest.ok("POST", "/loss/_search", toJson(Map.of("size", 10000, "_source", false, "query",
                        Map.of("simhash", Map.of("field", "simhash", "hash", hash, "max_distance", r)))));
                    Set<String> expected = new HashSet<>();
                    present.forEach((k, h) -> {
                        if (SimHash.distance(h, hash) <= r) {
                            expected.add(k);
                        }
                    });
                    assertEquals(expected, new HashSet<>(Fixtures.ids(a)), id + " r=" + r);
                }
            }
        }
    }

    static Map<String, String> nodeIdsByName(Rest rest) {
        Map<String, Object> nodes = rest.ok("GET", "/_nodes/_all/none", null).at("nodes");
        Map<String, String> out = new HashMap<>();
        nodes.forEach((id, info) -> out.put((String) ((Map<?, ?>) info).get("name"), id));
        return out;
    }

    static Map<String, Long> readAll(Rest rest, String preference) {
        Rest.Answer a = rest.ok("POST", "/loss/_search?preference=" + java.net.URLEncoder.encode(preference, java.nio.charset.StandardCharsets.UTF_8),
            toJson(Map.of("size", 10000, "_source", false, "docvalue_fields", List.of("simhash.hash"), "query", Map.of("match_all", Map.of()))));
        assertEquals(0, ((Number) a.at("_shards.failed")).intValue(), a.toString());
        List<Map<String, Object>> hits = a.at("hits.hits");
        Map<String, Long> out = new TreeMap<>();
        for (Map<String, Object> h : hits) {
            Map<?, ?> fields = (Map<?, ?>) h.get("fields");
            out.put((String) h.get("_id"), ((Number) ((List<?>) fields.get("simhash.hash")).get(0)).longValue());
        }
        return out;
    }
}
