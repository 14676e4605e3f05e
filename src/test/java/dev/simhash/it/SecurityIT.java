package dev.simhash.it;

import dev.simhash.core.SimHash;
import dev.simhash.it.support.EsCluster;
import dev.simhash.it.support.Fixtures;
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
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A node with security enabled (file-realm users, HTTP Basic on loopback): our query, script and
 * processor run with the caller's privileges and never reveal an index the caller may not read.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SecurityIT {

    static final long SECRET = 0x5ec2_e7f0_0d15_ea5eL;
    private EsCluster cluster;
    private Rest admin;
    private Rest reader;
    private Rest anonymous;

    @BeforeAll
    void startSecuredNode() throws Exception {
        cluster = EsCluster.builder(RealNodes.distribution(), RealNodes.workDir().resolve("security")).name("security")
            .security("admin", "admin-pw-123456")
            .role("reader_a:\n  indices:\n    - names: ['sec-a']\n      privileges: ['read']\n")
            .user("reader", "reader-pw-123456", "reader_a")
            .build().start();
        admin = cluster.rest();
        reader = cluster.restAs("reader");
        anonymous = cluster.restAs(null);
        for (String index : List.of("sec-a", "sec-b")) {
            admin.ok("PUT", "/" + index, Fixtures.objectFormIndex(2));
        }
        admin.ok("PUT", "/sec-a/_doc/a1?refresh=true", toJson(Map.of("body", "public", "simhash", Fixtures.storedForm(SECRET ^ 0b1))));
        admin.ok("PUT", "/sec-b/_doc/b1?refresh=true", toJson(Map.of("body", "secret", "simhash", Fixtures.storedForm(SECRET))));
        admin.ok("PUT", "/sec-b/_doc/only-in-b?refresh=true", toJson(Map.of("body", "secret", "simhash",
            Fixtures.storedForm(SECRET ^ 0b11))));
        admin.ok("PUT", "/_ingest/pipeline/sec-fp", toJson(Map.of("processors", List.of(Map.of("simhash", Map.of("field", "body"))))));
    }

    @AfterAll
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static Map<String, Object> simhash(Object input) {
        return Map.of("query", Map.of("simhash", Map.of("field", "simhash", "hash", input, "max_distance", 3)));
    }

    @Test
    void unauthenticatedRequestsAreRejected() {
        assertEquals(401, anonymous.get("/_cluster/health").status());
        assertEquals(401, anonymous.post("/sec-a/_search", toJson(simhash(SimHash.toHex(SECRET)))).status());
        assertEquals(401, cluster.restAs(null).put("/_ingest/pipeline/x", toJson(Map.of("processors", List.of()))).status());
    }

    @Test
    void readerSeesIndexAButNothingOfIndexB() {
        Rest.Answer a = reader.post("/sec-a/_search", toJson(simhash(SimHash.toHex(SECRET))));
        assertEquals(200, a.status(), a.toString());
        assertEquals(List.of("a1"), Fixtures.ids(a));

        Rest.Answer b = reader.post("/sec-b/_search", toJson(simhash(SimHash.toHex(SECRET))));
        assertEquals(403, b.status(), b.toString());

        // a wildcard only expands to what the reader may read
        Rest.Answer all = reader.post("/sec-*/_search", toJson(simhash(SimHash.toHex(SECRET))));
        assertEquals(200, all.status(), all.toString());
        assertEquals(List.of("a1"), Fixtures.ids(all));
    }

    @Test
    void likeCannotReadAnotherIndexsDocument() {
        Rest.Answer viaB = reader.post("/sec-a/_search", toJson(Map.of("query", Map.of("simhash",
            Map.of("field", "simhash", "like", Map.of("index", "sec-b", "id", "b1"), "max_distance", 3)))));
        assertEquals(403, viaB.status(), viaB.toString());
        assertFalse(viaB.body().contains(SimHash.toHex(SECRET)), viaB.toString());
        assertFalse(viaB.body().contains(Long.toString(SECRET)), viaB.toString());

        // without an index the lookup searches only indices the reader may read: the B-only id is not found
        Rest.Answer byId = reader.post("/sec-a/_search", toJson(Map.of("query", Map.of("simhash",
            Map.of("field", "simhash", "like", "only-in-b")))));
        assertEquals(404, byId.status(), byId.toString());

        // the admin may do both
        Rest.Answer adminLike = admin.post("/sec-a/_search", toJson(Map.of("query", Map.of("simhash",
            Map.of("field", "simhash", "like", Map.of("index", "sec-b", "id", "b1"), "max_distance", 3)))));
        assertEquals(List.of("a1"), Fixtures.ids(adminLike));
    }

    @Test
    void scriptRunsWithTheCallersPrivileges() {
        Map<String, Object> body = Map.of("query", Map.of("script_score", Map.of("query", Map.of("match_all", Map.of()),
            "script", Map.of("lang", "simhash", "source", "hamming", "params", Map.of("field", "simhash", "hash", SimHash.toHex(SECRET))))));
        assertEquals(403, reader.post("/sec-b/_search", toJson(body)).status());
        Rest.Answer ok = reader.post("/sec-a/_search", toJson(body));
        assertEquals(200, ok.status(), ok.toString());
        assertEquals(1.0, ((Number) ok.at("hits.hits.0._score")).doubleValue());
    }

    @Test
    void readerCannotWriteOrManagePipelines() {
        assertEquals(403, reader.put("/_ingest/pipeline/mine", toJson(Map.of("processors", List.of(Map.of("simhash",
            Map.of("field", "body")))))).status());
        assertEquals(403, reader.put("/sec-a/_doc/new?pipeline=sec-fp", toJson(Map.of("body", "hello"))).status());
        Rest.Answer adminIndex = admin.put("/sec-a/_doc/new?pipeline=sec-fp&refresh=true", toJson(Map.of("body", "hello world")));
        assertEquals(201, adminIndex.status(), adminIndex.toString());
        assertTrue(admin.ok("GET", "/sec-a/_doc/new", null).body().contains("\"simhash\""));
        admin.delete("/sec-a/_doc/new?refresh=true");
    }
}
