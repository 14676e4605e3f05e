package dev.simhash.it;

import dev.simhash.it.support.EsCluster;
import dev.simhash.it.support.Fixtures;
import dev.simhash.it.support.RealNodes;
import dev.simhash.it.support.Rest;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

import static dev.simhash.it.support.Rest.toJson;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The plugin's messages between two real nodes, each in its wire envelope: the index's only shard is on node 0 and
 * every request goes to node 1, so the query (with a query inside it), the field's hex format, the fold's and the
 * report's searches, a background report read back through the other node, and the feature-weight tables (stored by
 * the master, published in the cluster state) all cross the transport between the nodes.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WireTwoNodesIT {

    static final String INDEX = "wire-two";
    static final long A = 0xe31d03c463b55037L;
    /** Two groups: A and two fingerprints 1 and 2 bits from it; ~A and one 1 bit from it; and one far from all. */
    static final Map<String, Long> DOCS = new LinkedHashMap<>();

    static {
        DOCS.put("a", A);
        DOCS.put("a1", A ^ 1L);
        DOCS.put("a2", A ^ 0x8000000000000001L);
        DOCS.put("b", ~A);
        DOCS.put("b1", ~A ^ (1L << 40));
        DOCS.put("c", A ^ 0x00000000ffffffffL);
    }

    private EsCluster cluster;
    /** Holds the shard. */
    private Rest holder;
    /** Holds none: every request below is sent here. */
    private Rest other;

    @BeforeAll
    void start() throws Exception {
        cluster = EsCluster.builder(RealNodes.distribution(), RealNodes.workDir().resolve("wire-two")).name("wire-two").nodes(2)
            .build().start();
        holder = cluster.rest(0);
        other = cluster.rest(1);
        holder.ok("PUT", "/" + INDEX, """
            {"settings": {"number_of_shards": 1, "number_of_replicas": 0, "index.routing.allocation.require._name": "%s"},
             "mappings": {"properties": {"fp": {"type": "simhash", "input": "fingerprint"}, "tag": {"type": "keyword"}}}}"""
            .formatted(cluster.nodeName(0)));
        StringBuilder bulk = new StringBuilder();
        for (Map.Entry<String, Long> d : DOCS.entrySet()) {
            bulk.append(toJson(Map.of("index", Map.of("_id", d.getKey())))).append('\n')
                .append(toJson(Map.of("fp", hex(d.getValue()), "tag", d.getKey().substring(0, 1)))).append('\n');
        }
        Rest.Answer a = other.bulk("/" + INDEX + "/_bulk?refresh=true", bulk.toString());
        assertEquals(Boolean.FALSE, a.at("errors"), a.toString());
        holder.ok("GET", "/_cluster/health/" + INDEX + "?wait_for_status=green&timeout=120s", null);
        List<Map<String, Object>> shards = new Rest.Answer(200, "{\"s\":"
            + holder.ok("GET", "/_cat/shards/" + INDEX + "?format=json&h=node", null).body() + "}").at("s");
        assertEquals(List.of(Map.of("node", cluster.nodeName(0))), shards, "the premise: the shard is on node 0 only");
    }

    @AfterAll
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    static String hex(long h) {
        return String.format(Locale.ROOT, "%016x", h);
    }

    /** The documents within {@code r} bits of {@code h} (and with tag {@code tag} unless null), by brute force. */
    static TreeSet<String> within(long h, int r, String tag) {
        TreeSet<String> out = new TreeSet<>();
        DOCS.forEach((id, fp) -> {
            if (Long.bitCount(fp ^ h) <= r && (tag == null || id.startsWith(tag))) {
                out.add(id);
            }
        });
        return out;
    }

    static TreeSet<String> ids(Rest.Answer a) {
        TreeSet<String> out = new TreeSet<>();
        for (Map<String, Object> hit : a.<List<Map<String, Object>>>at("hits.hits")) {
            out.add((String) hit.get("_id"));
        }
        return out;
    }

    @Test
    void theQueryAndItsFilterReachTheShardOnTheOtherNode() {
        for (int r : new int[] { 0, 1, 2, 40 }) {
            Rest.Answer plain = other.ok("POST", "/" + INDEX + "/_search", toJson(Map.of("size", 10,
                "query", Map.of("simhash", Map.of("field", "fp", "hash", hex(A), "max_distance", r)))));
            assertEquals(within(A, r, null), ids(plain), plain.toString());
            Rest.Answer filtered = other.ok("POST", "/" + INDEX + "/_search", toJson(Map.of("size", 10,
                "query", Map.of("simhash", Map.of("field", "fp", "hash", hex(A), "max_distance", r,
                    "filter", Map.of("term", Map.of("tag", "a")))))));
            assertEquals(within(A, r, "a"), ids(filtered), filtered.toString());
        }
    }

    /**
     * A {@code like} sent to the node without the shard reads the liked document on the node that holds it (the shard-level
     * request and its answer cross the transport): the hits are those of its fingerprint, and the index serves one get and
     * no search besides the query's own.
     */
    @Test
    void likeReadsTheLikedDocumentOnTheNodeThatHoldsIt() {
        long searches = Fixtures.primariesStat(holder, INDEX, "search.query_total");
        long gets = Fixtures.primariesStat(holder, INDEX, "get.total");
        for (int r : new int[] { 1, 2, 40 }) {
            Rest.Answer liked = other.ok("POST", "/" + INDEX + "/_search", toJson(Map.of("size", 10,
                "query", Map.of("simhash", Map.of("field", "fp", "like", Map.of("index", INDEX, "id", "a"), "max_distance", r)))));
            TreeSet<String> expected = within(A, r, null);
            expected.remove("a"); // like leaves the liked document out
            assertEquals(expected, ids(liked), liked.toString());
        }
        assertEquals(searches + 3, Fixtures.primariesStat(holder, INDEX, "search.query_total"),
            "searches of the index: the three queries alone");
        assertEquals(gets + 3, Fixtures.primariesStat(holder, INDEX, "get.total"), "gets of the index");
    }

    /** A terms aggregation's shard result carries the field's hex format to the coordinating node: its keys as strings. */
    @Test
    void aggregationKeysComeBackInTheHexFormat() {
        Rest.Answer a = other.ok("POST", "/" + INDEX + "/_search", "{\"size\": 0, \"aggs\": {\"fps\": {\"terms\": {\"field\": \"fp\", "
            + "\"size\": 10}}}}");
        TreeSet<String> expected = new TreeSet<>();
        DOCS.values().forEach(h -> expected.add(hex(h)));
        TreeSet<String> keys = new TreeSet<>();
        for (Map<String, Object> bucket : a.<List<Map<String, Object>>>at("aggregations.fps.buckets")) {
            assertEquals(hex(((Number) bucket.get("key")).longValue()), bucket.get("key_as_string"), bucket.toString());
            keys.add((String) bucket.get("key_as_string"));
        }
        assertEquals(expected, keys, a.toString());
    }

    @Test
    void foldAndReportsCoordinatedByTheNodeWithoutTheShard() throws Exception {
        Rest.Answer fold = other.ok("POST", "/" + INDEX + "/_simhash/fold?field=fp&max_distance=2", "{\"size\": 10}");
        assertEquals(DOCS.size(), ((Number) fold.at("simhash_fold.considered")).intValue(), fold.toString());
        assertEquals(3, ((Number) fold.at("simhash_fold.groups")).intValue(), "{a, a1, a2}, {b, b1}, {c}: " + fold);

        String body = "{\"field\": \"fp\", \"max_distance\": 2}";
        Rest.Answer sync = other.ok("POST", "/" + INDEX + "/_simhash/duplicates", body);
        assertEquals(2, ((Number) sync.at("groups_total")).intValue(), sync.toString());
        assertEquals(5, ((Number) sync.at("duplicates_total")).intValue(), sync.toString());

        String id = other.ok("POST", "/" + INDEX + "/_simhash/duplicates?wait_for_completion=false", body).at("id");
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        Rest.Answer done;
        do {
            Thread.sleep(200);
            done = holder.ok("GET", "/_simhash/duplicates/" + id, null);
        } while (!Boolean.FALSE.equals(done.at("is_running")) && System.nanoTime() < deadline);
        assertEquals(Boolean.FALSE, done.at("is_running"), done.toString());
        assertEquals(sync.<Object>at("groups"), done.at("response.groups"), done.toString());
        assertEquals(DOCS.size(), ((Number) done.at("status.docs_read")).intValue(), done.toString());
        assertEquals(200, other.delete("/_simhash/duplicates/" + id).status());
    }

    @Test
    void featureWeightTablesReachEveryNode() {
        // one table put through each node: at least one of them is not the master, which stores it
        other.ok("PUT", "/_simhash/weights/wire-fw-1", "{\"version\": \"v2\", \"features\": {\"the\": 0, \"fox\": 2.5}}");
        holder.ok("PUT", "/_simhash/weights/wire-fw-2", "{\"version\": \"v2\", \"features\": {\"a\": 0.5}, \"default_weight\": 3}");
        for (Rest node : List.of(holder, other)) {
            Rest.Answer one = node.ok("GET", "/_simhash/weights/wire-fw-1?size=10", null);
            assertEquals(2, ((Number) one.at("feature_count")).intValue(), one.toString());
            assertEquals(Map.of("the", 0.0, "fox", 2.5), one.at("features"), one.toString());
            Rest.Answer two = node.ok("GET", "/_simhash/weights/wire-fw-2", null);
            assertEquals(3.0, ((Number) two.at("default_weight")).doubleValue(), two.toString());
        }
        assertEquals(200, holder.delete("/_simhash/weights/wire-fw-1").status());
        assertEquals(200, other.delete("/_simhash/weights/wire-fw-2").status());
    }
}
