package dev.simhash.it;

import dev.simhash.it.support.RealNodeExtension;
import dev.simhash.it.support.Rest;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static dev.simhash.it.support.Rest.toJson;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The shards' filters of band values on a real node: once a shard has one, a verified query whose band values no document
 * holds looks nothing up (its profile shows a query that matches nothing), and still every document is found by its own
 * text, whether it was indexed and refreshed before the filter, indexed before it but not yet refreshed, or indexed after.
 */
@ExtendWith(RealNodeExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BandFilterIT {

    static final String INDEX = "band-filter";
    static final String SETTING = "simhash.band_filter.enabled";

    private final Rest rest;
    private final Random random = new Random(20261129);
    private final Map<String, String> texts = new LinkedHashMap<>();

    BandFilterIT(Rest rest) {
        this.rest = rest;
    }

    @BeforeAll
    void create() {
        rest.delete("/" + INDEX);
        rest.ok("PUT", "/" + INDEX, """
            {"settings": {"number_of_shards": 2, "number_of_replicas": 0, "refresh_interval": -1},
             "mappings": {"properties": {"body": {"type": "text", "fields": {"simhash": {"type": "simhash"}}}}}}""");
    }

    @AfterAll
    void drop() {
        rest.ok("PUT", "/_cluster/settings", "{\"persistent\": {\"" + SETTING + "\": null}}");
        rest.delete("/" + INDEX);
    }

    @Test
    void everyDocumentIsFoundWhenItWasIndexedBeforeOrAfterTheFilter() throws InterruptedException {
        index("before", 200, true);
        // indexed before the filter exists, not refreshed: the filter's build refreshes before it reads the band points
        index("unrefreshed", 60, false);
        // the first verified query starts building the shards' filters, in the background
        long deadline = System.currentTimeMillis() + 30_000;
        while (filtered() == false) {
            assertTrue(System.currentTimeMillis() < deadline, "the shards' filters were not built within 30 s");
            Thread.sleep(200);
        }
        // indexed once the filter exists: each adds its band values as it is indexed
        index("after", 60, true);
        rest.ok("POST", "/" + INDEX + "/_refresh", null);
        List<String> missed = new ArrayList<>();
        for (Map.Entry<String, String> e : texts.entrySet()) {
            Rest.Answer a = rest.ok("POST", "/" + INDEX + "/_search", toJson(Map.of("size", 5, "_source", false,
                "query", Map.of("simhash", Map.of("field", "body.simhash", "text", e.getValue())))));
            if (a.body().contains("\"_id\":\"" + e.getKey() + "\"") == false) {
                missed.add(e.getKey());
            }
        }
        assertEquals(List.of(), missed, "documents their own text did not find");
        assertEquals(320, texts.size());

        // switched off, the filters are dropped: the band points are looked up again
        rest.ok("PUT", "/_cluster/settings", "{\"persistent\": {\"" + SETTING + "\": false}}");
        assertFalse(filtered(), "a query looked up nothing with the filters switched off");
    }

    /**
     * Whether a text that shares nothing with the index (its band values are held by no document, and the filters answer
     * "perhaps" for about 1 value in 100) is looked up in no shard: tried with a few texts, as one may hit a "perhaps".
     */
    private boolean filtered() {
        for (int attempt = 0; attempt < 5; attempt++) {
            Rest.Answer a = rest.ok("POST", "/" + INDEX + "/_search", toJson(Map.of("size", 0, "profile", true,
                "query", Map.of("simhash", Map.of("field", "body.simhash", "text", text(30))))));
            List<Map<String, Object>> shards = a.at("profile.shards");
            assertEquals(2, shards.size());
            boolean all = true;
            for (Map<String, Object> shard : shards) {
                String profile = toJson(shard);
                all &= profile.contains("MatchNoDocsQuery") && profile.contains("SketchBandQuery") == false;
            }
            if (all) {
                return true;
            }
        }
        return false;
    }

    private void index(String prefix, int n, boolean refresh) {
        StringBuilder ndjson = new StringBuilder();
        for (int i = 0; i < n; i++) {
            String id = prefix + i;
            String text = text(10 + random.nextInt(60));
            texts.put(id, text);
            ndjson.append(toJson(Map.of("index", Map.of("_id", id)))).append('\n').append(toJson(Map.of("body", text))).append('\n');
        }
        Rest.Answer bulk = rest.bulk("/" + INDEX + "/_bulk" + (refresh ? "?refresh=true" : ""), ndjson.toString());
        assertEquals(Boolean.FALSE, bulk.at("errors"), bulk.body().substring(0, Math.min(500, bulk.body().length())));
    }

    private String text(int words) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < words; i++) {
            b.append(i == 0 ? "" : " ").append("w").append(Integer.toString(random.nextInt(1 << 20), 36));
        }
        return b.toString();
    }
}
