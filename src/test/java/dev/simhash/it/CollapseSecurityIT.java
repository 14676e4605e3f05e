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
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Fold and report under Elasticsearch security (its own single node with security enabled and
 * file-realm users): both run with the caller's privileges, the report as an
 * {@code indices:data/read/*} action, and writing group ids needs the {@code write} privilege.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CollapseSecurityIT {

    static final String PASSWORD = "simhash-secret-1";
    static final String INDEX = "collapse-sec";

    private EsCluster cluster;
    private Rest admin;
    private final CollapseCorpus corpus = CollapseCorpus.planted(808, 600, 15, 4);
    private long fingerprinted;

    @BeforeAll
    void start() throws Exception {
        cluster = EsCluster.builder(RealNodes.distribution(), RealNodes.workDir().resolve("collapse-secure")).name("collapse-secure")
            .security("admin", PASSWORD)
            .role("""
                collapse_reader:
                  indices:
                    - names: ['collapse-sec*']
                      privileges: ['read']
                collapse_writer:
                  indices:
                    - names: ['collapse-sec*']
                      privileges: ['read', 'write']
                other_reader:
                  indices:
                    - names: ['other-*']
                      privileges: ['read']
                """)
            .user("reader", PASSWORD, "collapse_reader")
            .user("writer", PASSWORD, "collapse_writer")
            .user("outsider", PASSWORD, "other_reader")
            .build().start();
        admin = cluster.rest();
        corpus.load(admin, INDEX, 2, null);
        admin.ok("PUT", "/other-docs/_doc/1?refresh=true", "{\"simhash\": {\"hash\": 1}}");
        fingerprinted = corpus.docs.stream().filter(d -> d.hash() != null).count();
    }

    @AfterAll
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    static String report(String extra) {
        return "{\"field\": \"simhash\", \"max_distance\": 4" + extra + "}";
    }

    @Test
    void anonymousRequestsAreRejected() {
        Rest anonymous = cluster.restAs(null);
        assertEquals(401, anonymous.post("/" + INDEX + "/_simhash/duplicates", report("")).status());
    }

    @Test
    void aReaderRunsTheReportAndTheFoldButCannotWriteGroupIds() {
        Rest reader = cluster.restAs("reader");
        Rest.Answer a = reader.post("/" + INDEX + "/_simhash/duplicates", report(""));
        assertEquals(200, a.status(), a.toString());
        assertEquals(fingerprinted, ((Number) a.at("total_docs")).longValue());
        assertTrue(((Number) a.at("groups_total")).intValue() > 10, a.toString());

        Rest.Answer fold = reader.post("/" + INDEX + "/_simhash/fold?field=simhash&max_distance=4", toJson(Map.of("sort",
            List.of(Map.of("rank", "asc")))));
        assertEquals(200, fold.status(), fold.toString());
        assertTrue(((Number) fold.at("simhash_fold.groups")).intValue() < 100, fold.toString());

        Rest.Answer write = reader.post("/" + INDEX + "/_simhash/duplicates", report(", \"write_group_id\": \"dup_group\""));
        assertEquals(403, write.status(), write.toString());
        assertTrue(write.body().contains("security_exception"), write.toString());
        admin.ok("POST", "/" + INDEX + "/_refresh", null);
        Rest.Answer written = admin.ok("POST", "/" + INDEX + "/_count", "{\"query\": {\"exists\": {\"field\": \"dup_group\"}}}");
        assertEquals(0, ((Number) written.at("count")).intValue(), "a forbidden report writes nothing");
    }

    @Test
    void wildcardsResolveToTheIndicesTheUserMayRead() {
        Rest reader = cluster.restAs("reader");
        Rest.Answer a = reader.post("/*/_simhash/duplicates", report(""));
        assertEquals(200, a.status(), a.toString());
        Rest.Answer readable = admin.post("/collapse-sec*/_simhash/duplicates", report(""));
        assertEquals(((Number) readable.at("total_docs")).longValue(), ((Number) a.at("total_docs")).longValue(),
            "other-docs is not readable by [reader]: " + a);
        Rest.Answer everything = admin.post("/*/_simhash/duplicates", report(""));
        assertEquals(((Number) readable.at("total_docs")).longValue() + 1, ((Number) everything.at("total_docs")).longValue());
    }

    @Test
    void aUserWithoutReadPrivilegeIsForbidden() {
        Rest outsider = cluster.restAs("outsider");
        Rest.Answer report = outsider.post("/" + INDEX + "/_simhash/duplicates", report(""));
        assertEquals(403, report.status(), report.toString());
        assertTrue(report.body().contains("indices:data/read/simhash/duplicates"), report.toString());
        Rest.Answer fold = outsider.post("/" + INDEX + "/_simhash/fold?field=simhash", "{}");
        assertEquals(403, fold.status(), fold.toString());
        Rest.Answer own = outsider.post("/other-docs/_simhash/duplicates", report(""));
        assertEquals(200, own.status(), own.toString());
        assertEquals(1, ((Number) own.at("total_docs")).intValue());
    }

    @Test
    void aWriterWritesGroupIds() {
        Rest writer = cluster.restAs("writer");
        Rest.Answer a = writer.post("/" + INDEX + "-w/_simhash/duplicates", report(""));
        assertEquals(404, a.status(), "no such index: " + a);
        corpus.load(admin, INDEX + "-w", 1, null);
        Rest.Answer write = writer.post("/" + INDEX + "-w/_simhash/duplicates", report(", \"write_group_id\": \"dup_group\""));
        assertEquals(200, write.status(), write.toString());
        assertEquals(fingerprinted, ((Number) write.at("write_group_id.updated")).longValue());
    }
}
