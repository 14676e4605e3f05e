package dev.simhash.it;

import dev.simhash.core.MinHashSketch;
import dev.simhash.it.support.EsCluster;
import dev.simhash.it.support.Fixtures;
import dev.simhash.it.support.RealNodes;
import dev.simhash.it.support.Rest;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.util.Base64;
import java.util.List;
import java.util.Map;

import static dev.simhash.it.support.Rest.ordered;
import static dev.simhash.it.support.Rest.toJson;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * {@code like} with {@code min_similarity} on a node with security: the liked document's sketch is read with the
 * caller's own privileges (field capabilities and the {@code fields} option need only {@code read}), and a document of
 * an index the caller may not read is neither used nor revealed.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class VerifiedQuerySecurityIT {

    static final String STORY = "the harbor street bridge will close to all traffic for six weeks from monday while crews replace the "
        + "deck and repaint the railings the city said on friday adding that buses will be diverted";
    static final String COPY = STORY + " for the whole period";

    private EsCluster cluster;
    private Rest admin;
    private Rest reader;

    @BeforeAll
    void start() throws Exception {
        cluster = EsCluster.builder(RealNodes.distribution(), RealNodes.workDir().resolve("verified-security")).name("verified-security")
            .security("admin", "admin-pw-123456")
            .role("reader_a:\n  indices:\n    - names: ['vsec-a']\n      privileges: ['read']\n")
            .user("reader", "reader-pw-123456", "reader_a")
            .build().start();
        admin = cluster.rest();
        reader = cluster.restAs("reader");
        for (String index : List.of("vsec-a", "vsec-b")) {
            admin.ok("PUT", "/" + index, """
                {"settings": {"number_of_shards": 2, "number_of_replicas": 0},
                 "mappings": {"properties": {"body": {"type": "text", "fields": {"simhash": {"type": "simhash"}}}}}}""");
        }
        admin.ok("PUT", "/vsec-a/_doc/a1?refresh=true", toJson(Map.of("body", STORY)));
        admin.ok("PUT", "/vsec-a/_doc/a2?refresh=true", toJson(Map.of("body", COPY)));
        admin.ok("PUT", "/vsec-b/_doc/b1?refresh=true", toJson(Map.of("body", COPY + " secret")));
    }

    @AfterAll
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void aReaderLikesWithMinSimilarityAndTheDefaultInAnIndexItMayRead() {
        double expected = MinHashSketch.V1.similarity(MinHashSketch.V1.sketch(STORY), MinHashSketch.V1.sketch(COPY));
        for (Map<String, Object> query : List.of(
            ordered("field", "body.simhash", "like", Map.of("index", "vsec-a", "id", "a1"), "min_similarity", 0.5),
            ordered("field", "body.simhash", "like", Map.of("index", "vsec-a", "id", "a1")),
            ordered("field", "body.simhash", "like", "a1", "min_similarity", 0.5))) {
            Rest.Answer a = reader.post("/vsec-a/_search", toJson(Map.of("query", Map.of("simhash", query))));
            assertEquals(200, a.status(), a.toString());
            assertEquals(List.of("a2"), Fixtures.ids(a), a.toString());
            assertEquals((float) expected, ((Number) a.at("hits.hits.0._score")).doubleValue(), 1e-6, a.toString());
        }
    }

    @Test
    void aReaderCannotLikeADocumentOfAnIndexItMayNotRead() {
        String secret = Base64.getEncoder().encodeToString(MinHashSketch.V1.sketch(COPY + " secret"));
        Rest.Answer viaB = reader.post("/vsec-a/_search", toJson(Map.of("query", Map.of("simhash",
            ordered("field", "body.simhash", "like", Map.of("index", "vsec-b", "id", "b1"), "min_similarity", 0.5)))));
        assertEquals(403, viaB.status(), viaB.toString());
        assertFalse(viaB.body().contains(secret), viaB.toString());
        // without an index only the indices the reader may read are searched: the B-only id is not found
        Rest.Answer byId = reader.post("/vsec-a/_search", toJson(Map.of("query", Map.of("simhash",
            ordered("field", "body.simhash", "like", "b1", "min_similarity", 0.5)))));
        assertEquals(404, byId.status(), byId.toString());
        // the admin may
        Rest.Answer adminLike = admin.post("/vsec-a/_search", toJson(Map.of("query", Map.of("simhash",
            ordered("field", "body.simhash", "like", Map.of("index", "vsec-b", "id", "b1"), "min_similarity", 0.5)))));
        assertEquals(200, adminLike.status(), adminLike.toString());
        assertFalse(Fixtures.ids(adminLike).isEmpty(), adminLike.toString());
    }
}
