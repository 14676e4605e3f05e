package dev.simhash.it;

import dev.simhash.it.support.EsCluster;
import dev.simhash.it.support.RealNodes;
import dev.simhash.it.support.Rest;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.simhash.it.support.Rest.toJson;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Feature-weight tables on a secured node: a table's features (the vocabulary of the index it was computed from) go only to
 * users who may read that index or who have {@code manage}; the metadata stays visible to {@code monitor}. Tables are bounded
 * in bytes, one by one and all together.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Tag("smoke")
class WeightsGuardsIT {

    static final String PASSWORD = "simhash-secret-2";

    private EsCluster cluster;
    private Rest admin;

    @BeforeAll
    void start() throws Exception {
        cluster = EsCluster.builder(RealNodes.distribution(), RealNodes.workDir().resolve("weights-guards")).name("weights-guards")
            .security("admin", PASSWORD)
            .role("""
                monitor_only:
                  cluster: ['monitor']
                hr_reader:
                  cluster: ['monitor']
                  indices:
                    - names: ['hr-mail']
                      privileges: ['read']
                other_reader:
                  cluster: ['monitor']
                  indices:
                    - names: ['public-mail', 'hr-*-archive']
                      privileges: ['read']
                weights_manager:
                  cluster: ['manage']
                """)
            .setting("path.repo", "[\"" + RealNodes.workDir().resolve("weights-guards").resolve("repo") + "\"]")
            .user("monitor", PASSWORD, "monitor_only")
            .user("hr", PASSWORD, "hr_reader")
            .user("other", PASSWORD, "other_reader")
            .user("manager", PASSWORD, "weights_manager")
            .build().start();
        admin = cluster.rest();
    }

    @AfterAll
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    /** An upload of {@code count} distinct 1,000-character ASCII features: 1,008 bytes each as the limits count them. */
    private static String longUpload(String prefix, int count) {
        Map<String, Object> features = new LinkedHashMap<>();
        for (int i = 0; i < count; i++) {
            String head = prefix + i + "-";
            features.put(head + "x".repeat(1_000 - head.length()), 0.5);
        }
        return toJson(Map.of("version", "v2", "features", features));
    }

    /**
     * Tables are bounded in bytes, not only in features: 8,400 features of 1,000 characters (8.5 MB) are too many for one
     * table, and three tables of 5,600 such features (5.6 MB each) too many for the cluster; each refusal a 400 naming
     * {@code [features]} with the figures, and nothing stored.
     */
    @Test
    void tablesAreBoundedInBytes() {
        Rest.Answer big = admin.put("/_simhash/weights/too-big", longUpload("b", 8_400));
        assertEquals(400, big.status(), big.toString());
        assertTrue(big.body().contains("[features] holds more than 8388608 bytes (UTF-8 bytes of the features + 8 per factor)"),
            big.toString());
        assertEquals(404, admin.get("/_simhash/weights/too-big").status());

        admin.ok("PUT", "/_simhash/weights/long-1", longUpload("p", 5_600));
        admin.ok("PUT", "/_simhash/weights/long-2", longUpload("q", 5_600));
        Rest.Answer third = admin.put("/_simhash/weights/long-3", longUpload("r", 5_600));
        assertEquals(400, third.status(), third.toString());
        Matcher m = Pattern.compile("\\[features\\] the cluster's feature-weight tables would hold (\\d+) bytes \\(UTF-8 bytes of their "
            + "features \\+ 8 per factor\\), at most 16777216 are allowed").matcher(third.body());
        assertTrue(m.find(), third.toString());
        assertTrue(Long.parseLong(m.group(1)) >= 3L * 5_600 * 1_008, third.toString());
        assertEquals(404, admin.get("/_simhash/weights/long-3").status());
        // the limit is on what is stored: with one table less the third fits
        admin.ok("DELETE", "/_simhash/weights/long-1", null);
        admin.ok("PUT", "/_simhash/weights/long-3", longUpload("r", 5_600));
        admin.ok("DELETE", "/_simhash/weights/long-2", null);
        admin.ok("DELETE", "/_simhash/weights/long-3", null);
    }

    private static String weightedMapping(String extra) {
        return "{\"settings\": {\"number_of_shards\": 1, \"number_of_replicas\": 0}, \"mappings\": {\"properties\": {\"body\": "
            + "{\"type\": \"text\", \"fields\": {\"simhash\": {\"type\": \"simhash\", \"version\": \"v2\", \"weights\": "
            + "\"digest-t\"" + extra + "}}}}}}";
    }

    private static final String TEXT = "the central bank left its benchmark interest rate unchanged";

    private void assertNotTheFieldsTable(Rest.Answer a) {
        assertEquals(400, a.status(), a.toString());
        assertTrue(a.body().contains("[weights] table [digest-t] is not the table this field was created with"), a.toString());
    }

    /**
     * A field records the digest of its table when it is created; after a snapshot, the table deleted and another made
     * under its name, the restored field refuses the other table (documents and text queries: 400 naming [weights]) rather
     * than fingerprinting with other weights; a mapping naming a digest that is not the table's is refused; a field created
     * now records the new table's digest and works.
     */
    @Test
    void aFieldRefusesATableThatIsNotTheOneItWasCreatedWith() {
        admin.ok("PUT", "/_simhash/weights/digest-t", "{\"version\": \"v2\", \"features\": {\"bank\": 0.1, \"rate\": 5}}");
        String first = admin.ok("GET", "/_simhash/weights/digest-t", null).at("digest");
        assertTrue(first != null && first.matches("[0-9a-f]{32}"), first);
        admin.ok("PUT", "/digest-src", weightedMapping(""));
        assertEquals(first, admin.ok("GET", "/digest-src/_mapping", null)
            .at("digest-src.mappings.properties.body.fields.simhash.weights_digest"), "recorded when the field is created");
        admin.ok("PUT", "/digest-src/_doc/1?refresh=true", toJson(Map.of("body", TEXT)));
        String query = toJson(Map.of("query", Map.of("simhash", Map.of("field", "body.simhash", "text", TEXT, "max_distance", 0))));
        assertEquals(1, ((Number) admin.ok("POST", "/digest-src/_search", query).at("hits.total.value")).intValue());
        // the same mapping again (without the digest, which users do not write) is no change
        String sameMapping = "{\"properties\": {\"body\": {\"type\": \"text\", \"fields\": {\"simhash\": "
            + "{\"type\": \"simhash\", \"version\": \"v2\", \"weights\": \"digest-t\"}}}}}";
        admin.ok("PUT", "/digest-src/_mapping", sameMapping);
        assertEquals(first, admin.ok("GET", "/digest-src/_mapping", null)
            .at("digest-src.mappings.properties.body.fields.simhash.weights_digest"));

        admin.ok("PUT", "/_snapshot/guards", "{\"type\": \"fs\", \"settings\": {\"location\": \"guards\"}}");
        Rest.Answer snap = admin.ok("PUT", "/_snapshot/guards/before?wait_for_completion=true", "{\"indices\": \"digest-src\"}");
        assertEquals("SUCCESS", snap.at("snapshot.state"), snap.toString());
        admin.ok("DELETE", "/digest-src", null);
        admin.ok("DELETE", "/_simhash/weights/digest-t", null);
        admin.ok("PUT", "/_simhash/weights/digest-t", "{\"version\": \"v2\", \"features\": {\"bank\": 5, \"rate\": 0.1}}");
        String second = admin.ok("GET", "/_simhash/weights/digest-t", null).at("digest");
        assertFalse(first.equals(second), "other weights, another digest");

        Rest.Answer restore = admin.ok("POST", "/_snapshot/guards/before/_restore?wait_for_completion=true", "{\"indices\": \"digest-src\"}");
        assertEquals(1, ((Number) restore.at("snapshot.shards.successful")).intValue(), restore.toString());
        admin.ok("GET", "/_cluster/health/digest-src?wait_for_status=green&timeout=60s", null);
        assertEquals(first, admin.ok("GET", "/digest-src/_mapping", null)
            .at("digest-src.mappings.properties.body.fields.simhash.weights_digest"));
        // the stored fingerprint is still found by its hash; nothing is fingerprinted with the other table
        assertNotTheFieldsTable(admin.put("/digest-src/_doc/2?refresh=true", toJson(Map.of("body", TEXT))));
        assertNotTheFieldsTable(admin.post("/digest-src/_search", query));
        assertEquals(1, ((Number) admin.ok("POST", "/digest-src/_count", null).at("count")).intValue());
        // nor is the field moved to the other table by putting its mapping again: 9.5 merges the mappings' builders and keeps
        // the recorded digest (200); 9.2 and 8.19 compare the digest the new table would give with the recorded one and refuse
        // the change (400 naming [weights_digest]); either way the field keeps its digest and still refuses the other table
        Rest.Answer again = admin.put("/digest-src/_mapping", sameMapping);
        if (again.status() != 200) {
            assertEquals(400, again.status(), again.toString());
            assertTrue(again.body().contains("[weights_digest]"), again.toString());
        }
        assertEquals(first, admin.ok("GET", "/digest-src/_mapping", null)
            .at("digest-src.mappings.properties.body.fields.simhash.weights_digest"));
        assertNotTheFieldsTable(admin.put("/digest-src/_doc/3?refresh=true", toJson(Map.of("body", TEXT))));

        // a mapping naming a digest that is not the table's: its documents are refused, not fingerprinted with this table
        admin.ok("PUT", "/digest-stale", weightedMapping(", \"weights_digest\": \"" + first + "\""));
        assertNotTheFieldsTable(admin.put("/digest-stale/_doc/1?refresh=true", toJson(Map.of("body", TEXT))));
        admin.ok("DELETE", "/digest-stale", null);
        // a field made now records the table it gets
        admin.ok("PUT", "/digest-new", weightedMapping(""));
        assertEquals(second, admin.ok("GET", "/digest-new/_mapping", null)
            .at("digest-new.mappings.properties.body.fields.simhash.weights_digest"));
        admin.ok("PUT", "/digest-new/_doc/1?refresh=true", toJson(Map.of("body", TEXT)));
        assertEquals(1, ((Number) admin.ok("POST", "/digest-new/_search", query).at("hits.total.value")).intValue());

        admin.ok("DELETE", "/digest-src,digest-new", null);
        admin.ok("DELETE", "/_simhash/weights/digest-t", null);
    }

    @Test
    void featuresGoOnlyToReadersOfTheSourceIndexOrManagers() {
        StringBuilder nd = new StringBuilder();
        for (int i = 0; i < 4; i++) {
            nd.append(toJson(Map.of("index", Map.of("_id", "m" + i)))).append('\n')
                .append(toJson(Map.of("body", "confidential merger retention bonus memo " + i))).append('\n');
        }
        admin.ok("PUT", "/hr-mail", "{\"settings\": {\"number_of_shards\": 1, \"number_of_replicas\": 0}}");
        assertEquals(200, admin.bulk("/hr-mail/_bulk?refresh=true", nd.toString()).status());
        admin.ok("PUT", "/_simhash/weights/hr-idf", "{\"index\": \"hr-mail\", \"field\": \"body\", \"version\": \"v2\", \"min_df\": 1}");
        admin.ok("PUT", "/_simhash/weights/uploaded-idf", "{\"version\": \"v2\", \"features\": {\"secret handshake\": 0.5}}");

        Rest monitor = cluster.restAs("monitor");
        Rest hr = cluster.restAs("hr");
        Rest other = cluster.restAs("other");
        Rest manager = cluster.restAs("manager");

        // metadata without features: monitor is enough
        Rest.Answer meta = monitor.get("/_simhash/weights/hr-idf");
        assertEquals(200, meta.status(), meta.toString());
        assertTrue(((Number) meta.at("feature_count")).intValue() > 0, meta.toString());
        assertFalse(meta.json().containsKey("features"), meta.toString());
        assertEquals(200, monitor.get("/_simhash/weights").status());

        // features: not for monitor alone, nor for a reader of other indices (a pattern that would match is no read of it)
        for (Rest denied : List.of(monitor, other)) {
            for (String path : List.of("/_simhash/weights/hr-idf?features=true", "/_simhash/weights/hr-idf?size=3",
                "/_simhash/weights?features=true", "/_simhash/weights/uploaded-idf?features=true")) {
                Rest.Answer a = denied.get(path);
                assertEquals(403, a.status(), path + " " + a);
                assertFalse(a.body().contains("confidential") || a.body().contains("secret handshake"), a.toString());
            }
        }

        // a reader of the source index sees its table's features, not those of an upload
        Rest.Answer hrFeatures = hr.get("/_simhash/weights/hr-idf?features=true");
        assertEquals(200, hrFeatures.status(), hrFeatures.toString());
        Map<?, ?> features = (Map<?, ?>) hrFeatures.json().get("features");
        assertTrue(features.containsKey("confidential merger") && features.containsKey("retention"), features.toString());
        assertEquals(403, hr.get("/_simhash/weights/uploaded-idf?features=true").status());
        assertEquals(403, hr.get("/_simhash/weights?features=true").status(), "the list holds the upload too");

        // manage sees every table's features
        Rest.Answer all = manager.get("/_simhash/weights?features=true");
        assertEquals(200, all.status(), all.toString());
        assertTrue(all.body().contains("confidential merger") && all.body().contains("secret handshake"), all.toString());
        Rest.Answer one = manager.get("/_simhash/weights/hr-idf?size=1");
        assertEquals(200, one.status(), one.toString());
        assertEquals(1, ((Map<?, ?>) one.json().get("features")).size());

        // the table outlives its index: the recorded name still decides
        admin.ok("DELETE", "/hr-mail", null);
        assertEquals(200, hr.get("/_simhash/weights/hr-idf?features=true").status());
        assertEquals(403, monitor.get("/_simhash/weights/hr-idf?features=true").status());
        admin.ok("DELETE", "/_simhash/weights/hr-idf", null);
        admin.ok("DELETE", "/_simhash/weights/uploaded-idf", null);
    }
}
