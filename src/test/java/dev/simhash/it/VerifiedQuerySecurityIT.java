package dev.simhash.it;

import dev.simhash.core.MinHashSketch;
import dev.simhash.it.support.EsCluster;
import dev.simhash.it.support.Fixtures;
import dev.simhash.it.support.RealNodes;
import dev.simhash.it.support.Rest;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
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
@Tag("smoke")
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
            .setting("xpack.license.self_generated.type", "trial") // field-level security needs it
            .role("reader_a:\n  indices:\n    - names: ['vsec-a']\n      privileges: ['read']\n")
            .user("reader", "reader-pw-123456", "reader_a")
            .role("fls_a:\n  indices:\n    - names: ['vsec-a']\n      privileges: ['read']\n"
                + "      field_security:\n        grant: ['*']\n        except: ['body', 'body.simhash']\n")
            .user("fls", "fls-pw-123456", "fls_a")
            .role("dls_a:\n  indices:\n    - names: ['vsec-a']\n      privileges: ['read']\n"
                + "      query: '{\"ids\": {\"values\": [\"a2\"]}}'\n")
            .user("dls", "dls-pw-123456", "dls_a")
            .role("alias_c:\n  indices:\n    - names: ['vsec-cf']\n      privileges: ['read']\n")
            .user("aliased", "aliased-pw-123456", "alias_c")
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
        admin.ok("PUT", "/vsec-c", """
            {"settings": {"number_of_shards": 1, "number_of_replicas": 0},
             "mappings": {"properties": {"tag": {"type": "keyword"},
                                         "body": {"type": "text", "fields": {"simhash": {"type": "simhash"}}}}},
             "aliases": {"vsec-cf": {"filter": {"term": {"tag": "shown"}}}}}""");
        admin.ok("PUT", "/vsec-c/_doc/shown?refresh=true", toJson(Map.of("tag", "shown", "body", STORY)));
        admin.ok("PUT", "/vsec-c/_doc/shown2?refresh=true", toJson(Map.of("tag", "shown", "body", COPY)));
        admin.ok("PUT", "/vsec-c/_doc/hidden?refresh=true", toJson(Map.of("tag", "hidden", "body", COPY + " secret")));
    }

    /** Field-level security that hides the fingerprint field hides its sketch and everything derived from it. */
    @Test
    void fieldLevelSecurityHidesTheSketchWithItsField() {
        Rest fls = cluster.restAs("fls");
        String sketch = Base64.getEncoder().encodeToString(MinHashSketch.V1.sketch(STORY));
        for (Rest user : List.of(admin, fls)) {
            boolean sees = user == admin;
            Rest.Answer fetched = user.post("/vsec-a/_search", """
                {"query": {"ids": {"values": ["a1"]}}, "_source": false,
                 "fields": [{"field": "body.simhash", "format": "minhash-v1"}, {"field": "body.simhash", "format": "long+minhash-v1"}]}""");
            assertEquals(200, fetched.status(), fetched.toString());
            assertEquals(sees, fetched.body().contains(sketch), fetched.toString());
            for (Map<String, Object> query : List.of(
                ordered("field", "body.simhash", "text", COPY),
                ordered("field", "body.simhash", "text", COPY, "min_similarity", 0.5),
                ordered("field", "body.simhash", "text", COPY, "k", 3),
                ordered("field", "body.simhash", "hash", 0, "sketch", sketch, "min_similarity", 0.8))) {
                Rest.Answer a = user.post("/vsec-a/_search", toJson(Map.of("query", Map.of("simhash", query))));
                assertEquals(200, a.status(), a.toString());
                assertEquals(sees, !Fixtures.ids(a).isEmpty(), query + " " + a);
            }
        }
        // the liked document's sketch is hidden too: its fingerprint is not found, as with max_distance
        Rest.Answer like = fls.post("/vsec-a/_search", toJson(Map.of("query", Map.of("simhash",
            ordered("field", "body.simhash", "like", Map.of("index", "vsec-a", "id", "a1"))))));
        assertEquals(400, like.status(), like.toString());
        assertFalse(like.body().contains(sketch), like.toString());
    }

    /**
     * {@code like} reads the liked document with the caller's privileges on {@code like.index} and its alias filter, as a
     * GET would: no privilege on the concrete index behind an alias is a 403 whatever the document, and a document the
     * alias filter hides answers exactly as a missing one.
     */
    @Test
    void likeHonoursTheLikedIndexPrivilegesAndAliasFilter() {
        Rest aliased = cluster.restAs("aliased");
        assertEquals(403, aliased.get("/vsec-c/_doc/shown").status());
        for (String id : List.of("shown", "hidden", "missing")) {
            for (Map<String, Object> query : List.of(
                ordered("field", "body.simhash", "like", Map.of("index", "vsec-c", "id", id)),
                ordered("field", "body.simhash", "like", Map.of("index", "vsec-c", "id", id), "min_similarity", 0.5),
                ordered("field", "body.simhash", "like", Map.of("index", "vsec-c", "id", id), "max_distance", 12))) {
                Rest.Answer a = aliased.post("/vsec-cf/_search", toJson(Map.of("query", Map.of("simhash", query), "profile", true)));
                assertEquals(403, a.status(), query + " " + a);
            }
        }
        // through the alias: the shown document is liked; the hidden one answers as a missing one does
        Rest.Answer shown = aliased.post("/vsec-cf/_search", toJson(Map.of("query", Map.of("simhash",
            ordered("field", "body.simhash", "like", Map.of("index", "vsec-cf", "id", "shown"))))));
        assertEquals(200, shown.status(), shown.toString());
        assertEquals(List.of("shown2"), Fixtures.ids(shown), shown.toString());
        for (Map<String, Object> extra : List.of(Map.<String, Object>of(), Map.<String, Object>of("max_distance", 12))) {
            Map<String, Rest.Answer> answers = new java.util.TreeMap<>();
            for (String id : List.of("hidden", "missing")) {
                Map<String, Object> query = ordered("field", "body.simhash", "like", Map.of("index", "vsec-cf", "id", id));
                query.putAll(extra);
                answers.put(id, aliased.post("/vsec-cf/_search", toJson(Map.of("query", Map.of("simhash", query)))));
            }
            assertEquals(404, answers.get("missing").status(), answers.toString());
            assertEquals(answers.get("missing").status(), answers.get("hidden").status(), answers.toString());
            assertEquals(answers.get("missing").body().replace("missing", "ID"), answers.get("hidden").body().replace("hidden", "ID"),
                answers.toString());
        }
    }

    /**
     * Document-level security hides the liked document as it hides a hit: a document the role's query leaves out answers
     * exactly as a missing one, whatever the threshold, and a document it shows is liked.
     */
    @Test
    void likeOfADocumentHiddenByDocumentLevelSecurityAnswersAsAMissingOne() {
        Rest dls = cluster.restAs("dls");
        for (Map<String, Object> extra : List.of(Map.<String, Object>of(), Map.<String, Object>of("min_similarity", 0.5),
            Map.<String, Object>of("max_distance", 12))) {
            Map<String, Rest.Answer> answers = new java.util.TreeMap<>();
            for (String id : List.of("a1", "missing", "a2")) {
                Map<String, Object> query = ordered("field", "body.simhash", "like", Map.of("index", "vsec-a", "id", id));
                query.putAll(extra);
                answers.put(id, dls.post("/vsec-a/_search", toJson(Map.of("query", Map.of("simhash", query)))));
            }
            assertEquals(404, answers.get("missing").status(), answers.toString());
            assertEquals(404, answers.get("a1").status(), answers.toString());
            assertEquals(answers.get("missing").body().replace("missing", "ID"), answers.get("a1").body().replace("a1", "ID"),
                answers.toString());
            // the shown document is liked; the only other document it could find is the hidden one
            assertEquals(200, answers.get("a2").status(), answers.toString());
            assertEquals(List.of(), Fixtures.ids(answers.get("a2")), answers.toString());
        }
    }

    @AfterAll
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    /**
     * The report at the default reads the shards through the caller's searcher: document-level security hides documents
     * from it as from a search, and so does an alias's filter.
     */
    @Test
    void theDefaultReportSeesWhatTheCallerSees() {
        String report = "{\"field\": \"body.simhash\"}";
        Rest.Answer all = admin.post("/vsec-a/_simhash/duplicates", report);
        assertEquals(200, all.status(), all.toString());
        assertEquals(2, ((Number) all.at("total_docs")).intValue(), all.toString());
        assertEquals(1, ((Number) all.at("groups_total")).intValue(), all.toString());
        Rest.Answer dls = cluster.restAs("dls").post("/vsec-a/_simhash/duplicates", report);
        assertEquals(200, dls.status(), dls.toString());
        assertEquals(1, ((Number) dls.at("total_docs")).intValue(), dls.toString());
        assertEquals(0, ((Number) dls.at("groups_total")).intValue(), dls.toString());
        assertFalse(dls.body().contains("a1"), dls.toString());

        Rest.Answer index = admin.post("/vsec-c/_simhash/duplicates", report);
        assertEquals(200, index.status(), index.toString());
        assertEquals(3, ((Number) index.at("total_docs")).intValue(), index.toString());
        assertEquals(3, ((Number) index.at("groups.0.size")).intValue(), index.toString());
        Rest.Answer alias = admin.post("/vsec-cf/_simhash/duplicates", report);
        assertEquals(200, alias.status(), alias.toString());
        assertEquals(2, ((Number) alias.at("total_docs")).intValue(), alias.toString());
        assertEquals(2, ((Number) alias.at("groups.0.size")).intValue(), alias.toString());
        assertFalse(alias.body().contains("hidden"), alias.toString());
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
