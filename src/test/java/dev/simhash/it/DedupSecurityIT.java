package dev.simhash.it;

import dev.simhash.it.support.EsCluster;
import dev.simhash.it.support.RealNodes;
import dev.simhash.it.support.Rest;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.util.List;
import java.util.Map;

import static dev.simhash.it.support.Rest.toJson;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The {@code simhash_dedup} processor on a secured two-node cluster: the planted corpus into shards on both nodes; its lookup runs with the privileges of the user who
 * sends the documents (an index that user may not read answers 403 and reveals nothing), the window of recent documents
 * matches a document only against documents its own sender sent, and a document sent through the other node before a
 * refresh is not seen (the documented limit), after one it is.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DedupSecurityIT {

    static final String STORY = "the harbor street bridge will close to all traffic for six weeks from monday while crews replace the "
        + "deck and repaint the railings the city said on friday adding that buses will be diverted";

    private EsCluster cluster;
    private Rest admin;

    @BeforeAll
    void start() throws Exception {
        cluster = EsCluster.builder(RealNodes.distribution(), RealNodes.workDir().resolve("dedup-security")).name("dedup-security")
            .nodes(2)
            .security("admin", "admin-pw-123456")
            .role("writer:\n  indices:\n    - names: ['dd-news*']\n      privileges: ['read', 'create_doc', 'index']\n")
            .user("writer", "writer-pw-123456", "writer")
            .user("writer2", "writer2-pw-123456", "writer")
            .build().start();
        admin = cluster.rest();
        for (String index : List.of("dd-news", "dd-news-b", "dd-archive")) {
            admin.ok("PUT", "/" + index, """
                {"settings": {"number_of_shards": 2, "number_of_replicas": 0, "refresh_interval": "-1"},
                 "mappings": {"properties": {"body": {"type": "text", "fields": {"simhash": {"type": "simhash"}}}}}}""");
        }
        admin.ok("PUT", "/dd-archive/_doc/secret?refresh=true", toJson(Map.of("body", STORY)));
        admin.ok("PUT", "/_ingest/pipeline/against-archive", """
            {"processors": [{"simhash_dedup": {"field": "body", "target": "dd-archive"}}]}""");
        admin.ok("PUT", "/_ingest/pipeline/against-all", """
            {"processors": [{"simhash_dedup": {"field": "body", "target": "dd-*"}}]}""");
        admin.ok("PUT", "/_ingest/pipeline/own-index", """
            {"processors": [{"simhash_dedup": {"field": "body"}}]}""");
    }

    @AfterAll
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private Map<String, Object> source(String index, String id) {
        admin.ok("POST", "/" + index + "/_refresh", null);
        Rest.Answer a = admin.get("/" + index + "/_doc/" + id);
        assertEquals(200, a.status(), a.body());
        return a.at("_source");
    }

    @Test
    @SuppressWarnings("unchecked")
    void anIndexTheSenderMayNotReadAnswers403AndRevealsNothing() {
        Rest writer = cluster.restAs("writer");
        Rest.Answer a = writer.put("/dd-news/_doc/w1?pipeline=against-archive", toJson(Map.of("body", STORY + " again")));
        assertEquals(403, a.status(), a.body());
        assertFalse(a.body().contains("secret"), a.body());
        // the same pipeline sent by the administrator tags the document with the archive's
        admin.ok("PUT", "/dd-news/_doc/a1?pipeline=against-archive", toJson(Map.of("body", STORY + " again")));
        assertEquals(Map.of("index", "dd-archive", "id", "secret"), withoutSimilarity(source("dd-news", "a1")));
        // a pattern covers what the sender may read: the archive's document is neither found nor named
        Rest.Answer b = writer.put("/dd-news-b/_doc/w2?pipeline=against-all", toJson(Map.of("body", STORY + " once more")));
        assertEquals(201, b.status(), b.body());
        Map<String, Object> tag = (Map<String, Object>) source("dd-news-b", "w2").get("duplicate_of");
        assertTrue(tag == null || "secret".equals(tag.get("id")) == false, String.valueOf(tag));
    }

    @Test
    void theWindowMatchesOnlyTheSendersOwnDocuments() {
        // one node: the window is the node's
        Rest writer = cluster.restAs("writer", 0);
        Rest writer2 = cluster.restAs("writer2", 0);
        String text = "the city council approved a new budget for the public library that adds weekend opening hours and funds "
            + "a mobile branch for the outlying villages starting next spring";
        // not refreshed: only the window can know these
        assertEquals(201, writer.put("/dd-news/_doc/x1?pipeline=own-index", toJson(Map.of("body", text))).status());
        assertEquals(201, writer2.put("/dd-news/_doc/x2?pipeline=own-index", toJson(Map.of("body", text + " officials said"))).status());
        assertEquals(201, writer.put("/dd-news/_doc/x3?pipeline=own-index", toJson(Map.of("body", text + " the mayor said"))).status());
        assertNull(source("dd-news", "x2").get("duplicate_of"), "another sender's recent document is not revealed");
        assertEquals(Map.of("index", "dd-news", "id", "x1"), withoutSimilarity(source("dd-news", "x3")));
    }

    @Test
    void theOtherNodesRecentDocumentsAreFoundOnceRefreshed() {
        String text = "heavy snow closed the mountain pass on tuesday and the road authority said it would reopen once ploughs "
            + "had cleared the drifts near the summit tunnel";
        Rest node0 = cluster.rest(0);
        Rest node1 = cluster.rest(1);
        assertEquals(201, node0.put("/dd-news-b/_doc/n1?pipeline=own-index", toJson(Map.of("body", text))).status());
        assertEquals(201, node1.put("/dd-news-b/_doc/n2?pipeline=own-index", toJson(Map.of("body", text + " by evening"))).status());
        assertNull(source("dd-news-b", "n2").get("duplicate_of"), "not searchable yet, and in the other node's window");
        assertEquals(201, node1.put("/dd-news-b/_doc/n3?pipeline=own-index", toJson(Map.of("body", text + " by the evening"))).status());
        Map<String, Object> tag = withoutSimilarity(source("dd-news-b", "n3"));
        assertTrue(List.of("n1", "n2").contains(tag.get("id")), tag.toString());
    }

    /** The planted corpus of {@link DedupProcessorIT}, through one node of two, into 3 shards spread over both. */
    @Test
    void plantedCorpusOnTwoNodes() {
        new DedupProcessorIT(cluster.rest(0)).taggedExactly("dd-corpus", 3, 42L, 600);
        Map<String, Object> holders = admin.get("/dd-corpus/_search_shards").at("nodes");
        assertEquals(2, holders.size(), "the shards are on both nodes: " + holders.keySet());
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> withoutSimilarity(Map<String, Object> source) {
        Map<String, Object> tag = (Map<String, Object>) source.get("duplicate_of");
        if (tag == null) {
            return null;
        }
        assertTrue(((Number) tag.get("similarity")).doubleValue() >= 0.8, tag.toString());
        return Map.of("index", tag.get("index"), "id", tag.get("id"));
    }
}
