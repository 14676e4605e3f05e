package dev.simhash.it;

import dev.simhash.it.support.EsCluster;
import dev.simhash.it.support.RealNodes;
import dev.simhash.it.support.Rest;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static dev.simhash.it.CalibrateIT.assertError;
import static dev.simhash.it.CalibrateIT.num;
import static dev.simhash.it.support.Rest.ordered;
import static dev.simhash.it.support.Rest.toJson;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code _simhash/calibrate} on a two-node cluster whose index has all its shards on node 0: coordinated by node 1, which
 * holds no shard, the field type comes from a mapper service built from the index metadata instead of the index's own.
 * The fields use options that only the index's settings can resolve (an analyzer defined in them), a non-default
 * shingle size and a feature-weight table from the cluster state, so a field type built without the index's mapping,
 * analysis or the node's tables would show in the report; both nodes must give the same report, and the same errors.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CalibrateTwoNodesIT {

    static final String INDEX = "calib-remote";
    static final String READY = "calib-remote-ready";
    static final String TABLE = "calib-remote-fw";

    private EsCluster cluster;
    /** Holds every shard: its own mapper service. */
    private Rest holder;
    /** Holds none: a mapper service from the index metadata. */
    private Rest other;
    private int docs;

    @BeforeAll
    void start() throws Exception {
        cluster = EsCluster.builder(RealNodes.distribution(), RealNodes.workDir().resolve("calib-two")).name("calib-two").nodes(2)
            .build().start();
        holder = cluster.rest(0);
        other = cluster.rest(1);
        other.ok("PUT", "/_simhash/weights/" + TABLE,
            "{\"version\": \"v2\", \"features\": {\"the\": 0, \"a\": 0, \"of\": 0, \"to\": 0, \"and\": 0.5}, \"default_weight\": 1.0}");
        String settings = """
            "number_of_shards": 2, "number_of_replicas": 0, "index.routing.allocation.require._name": "%s"
            """.formatted(cluster.nodeName(0));
        holder.ok("PUT", "/" + INDEX, """
            {"settings": {%s,
               "analysis": {"analyzer": {"my_text": {"type": "custom", "tokenizer": "simhash_smartcn"}}}},
             "mappings": {"properties": {"lang": {"type": "keyword"}, "title": {"type": "text"},
               "body": {"type": "text", "fields": {"simhash": {"type": "simhash", "version": "v1", "analyzer": "my_text",
                 "shingle_size": 2}, "v2": {"type": "simhash", "version": "v2", "weights": "%s"}}}}}}""".formatted(settings, TABLE));
        holder.ok("PUT", "/" + READY, """
            {"settings": {%s}, "mappings": {"properties": {"fp": {"type": "simhash", "input": "fingerprint"}}}}""".formatted(settings));
        holder.ok("GET", "/_cluster/health/" + INDEX + "," + READY + "?wait_for_status=green&timeout=120s", null);

        StringBuilder bulk = new StringBuilder();
        List<Map<String, Object>> texts = CalibrateIT.texts();
        for (Map<String, Object> t : texts) {
            Map<String, Object> source = new LinkedHashMap<>(t);
            String id = (String) source.remove("id");
            bulk.append(toJson(Map.of("index", Map.of("_id", id)))).append('\n').append(toJson(source)).append('\n');
        }
        Rest.Answer a = other.bulk("/" + INDEX + "/_bulk?refresh=true", bulk.toString());
        assertEquals(200, a.status(), a.toString());
        assertEquals(Boolean.FALSE, a.at("errors"), a.toString());
        docs = texts.size();
        holder.ok("PUT", "/" + READY + "/_doc/1?refresh=true", "{\"fp\": \"e31d03c463b55037\"}");

        // the premise: every shard copy is on node 0, none on node 1
        List<Map<String, Object>> shards = new Rest.Answer(200, "{\"s\":"
            + holder.ok("GET", "/_cat/shards/" + INDEX + "," + READY + "?format=json&h=index,shard,prirep,state,node", null).body() + "}")
            .at("s");
        assertEquals(4, shards.size(), shards.toString());
        for (Map<String, Object> s : shards) {
            assertEquals("STARTED", s.get("state"), s.toString());
            assertEquals(cluster.nodeName(0), s.get("node"), s.toString());
        }
    }

    @AfterAll
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static Rest.Answer calibrate(Rest rest, String index, Map<String, Object> body) {
        return rest.post("/" + index + "/_simhash/calibrate", toJson(body));
    }

    /**
     * The report without what legitimately depends on the coordinating node: {@code took_ms} (wall time). Nothing else
     * may differ: the sample is the same seeded search over the same shard copies (the random score depends on the seed,
     * the index, the shard and {@code _seq_no}, not on the node), and the edits are seeded by the request.
     */
    private static Map<String, Object> withoutTime(Rest.Answer a) {
        Map<String, Object> report = new LinkedHashMap<>(a.json());
        assertNotNull(report.remove("took_ms"), a.toString());
        return report;
    }

    /** The report of node 1, once checked equal to node 0's and real; the caller checks its [fingerprint]. */
    private Rest.Answer assertSameReport(Map<String, Object> body) {
        Rest.Answer remote = calibrate(other, INDEX, body);
        Rest.Answer local = calibrate(holder, INDEX, body);
        assertEquals(200, remote.status(), remote.toString());
        assertEquals(200, local.status(), local.toString());
        assertEquals(withoutTime(local), withoutTime(remote), "the report of the node without shards");

        // a real report: a sample, edited copies, a recommendation
        String field = (String) body.get("field");
        assertEquals(holder.ok("GET", "/" + INDEX + "/_mapping", null).<Object>at(INDEX + ".mappings.properties.body.fields."
            + field.substring("body.".length()) + ".version"), remote.at("fingerprint.version"), "the field's version");
        assertEquals("body", remote.at("source_field"));
        assertEquals(List.of(INDEX), remote.at("indices"));
        assertEquals(docs, ((Number) remote.at("sample.docs_total")).intValue());
        int sampled = ((Number) remote.at("sample.sampled")).intValue();
        assertEquals(Math.min(docs, ((Number) body.get("sample_size")).intValue()), sampled, remote.toString());
        assertTrue(((Number) remote.at("sample.edited_docs")).intValue() > sampled / 2, remote.toString());
        assertTrue(((Number) remote.at("random_pairs.pairs")).longValue() > 0, remote.toString());
        // node 1 fingerprints the texts exactly as node 0 did when it indexed them: the same field type
        assertEquals(0, ((Number) remote.at("sample.stored_fingerprint_differs")).intValue(), remote.toString());
        assertNotNull(remote.at("recommendation.max_distance"), remote.toString());
        int k = ((Number) remote.at("recommendation.max_distance")).intValue();
        assertTrue(k >= 0 && k <= 16, remote.toString());
        List<Map<String, Object>> byK = remote.at("by_k");
        assertEquals(17, byK.size());
        assertTrue(num(CalibrateIT.recall(byK.get(16)).get("1%")) > 0, byK.get(16).toString());
        return remote;
    }

    /** The options of [body.simhash]: an analyzer of the index's settings, word pairs. */
    private static void assertCustomAnalyzerSpec(Rest.Answer a) {
        assertEquals("v1", a.at("fingerprint.version"), a.toString());
        assertEquals("my_text", a.at("fingerprint.analyzer"), a.toString());
        assertEquals(2, ((Number) a.at("fingerprint.shingle_size")).intValue(), a.toString());
    }

    @Test
    void theNodeWithoutShardsGivesTheSameReport() {
        assertCustomAnalyzerSpec(assertSameReport(ordered("field", "body.simhash", "seed", 5, "sample_size", 2000)));
    }

    @Test
    void theSameSampleOfPartOfTheIndex() {
        assertCustomAnalyzerSpec(assertSameReport(ordered("field", "body.simhash", "seed", 11, "sample_size", 150)));
    }

    @Test
    void aV2FieldWithAWeightsTable() {
        Rest.Answer a = assertSameReport(ordered("field", "body.v2", "seed", 3, "sample_size", 2000));
        assertEquals("v2", a.at("fingerprint.version"), a.toString());
        assertEquals(TABLE, a.at("fingerprint.weights"), a.toString());
    }

    @Test
    void errorsFromTheNodeWithoutShards() {
        assertError(calibrate(other, INDEX, ordered("field", "body")), 400, "[field] [body] is a [text] field");
        assertError(calibrate(other, INDEX, ordered("field", "lang")), 400, "[field] [lang] is a [keyword] field");
        assertError(calibrate(other, INDEX, ordered("field", "nope")), 400, "[field] [nope] is not mapped");
        assertError(calibrate(other, READY, ordered("field", "fp")), 400, "takes ready-made fingerprints ([input] = [fingerprint])");
        assertError(calibrate(other, "calib-remote-nope", ordered("field", "body.simhash")), 404, "calib-remote-nope");
    }
}
