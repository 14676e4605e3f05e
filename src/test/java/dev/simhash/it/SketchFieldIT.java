package dev.simhash.it;

import dev.simhash.core.MinHashSketch;
import dev.simhash.it.support.RealNodeExtension;
import dev.simhash.it.support.Rest;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.Base64;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The similarity sketch of a {@code simhash} field on a real node: which fields store one (recorded in the mapping),
 * what a document's stored sketch is (read through {@code fields} with the format {@code minhash-v1}: equal to the
 * sketch of its texts read as one token sequence), and the 400s of the option.
 */
@ExtendWith(RealNodeExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Tag("smoke")
class SketchFieldIT {

    static final String INDEX = "sketch-field";

    private final Rest rest;

    SketchFieldIT(Rest rest) {
        this.rest = rest;
    }

    @BeforeAll
    void load() {
        rest.delete("/sketch-*");
        rest.ok("PUT", "/" + INDEX, """
            {"settings": {"number_of_shards": 2, "number_of_replicas": 0},
             "mappings": {"properties": {
               "body": {"type": "text", "fields": {"fp": {"type": "simhash"}}},
               "all": {"type": "simhash"},
               "title": {"type": "text", "copy_to": "all"},
               "text": {"type": "text", "copy_to": "all"},
               "plain": {"type": "simhash", "sketch": "none"},
               "old": {"type": "simhash", "version": "v1"},
               "given": {"type": "simhash", "input": "fingerprint"}}}}""");
        rest.ok("PUT", "/" + INDEX + "/_doc/1?refresh=true", """
            {"body": "The river rose overnight and the town council met at dawn to plan the evacuation.",
             "title": "Flood warning", "text": "The river rose overnight", "plain": "no sketch here, only a fingerprint",
             "old": "a simhash-v1 field", "given": "0123456789abcdef"}""");
        rest.ok("PUT", "/" + INDEX + "/_doc/2?refresh=true", """
            {"body": "一 二", "title": ["one", "two"], "text": "three"}""");
    }

    @Test
    void theMappingRecordsWhichFieldsStoreASketch() {
        Map<String, Object> props = rest.ok("GET", "/" + INDEX + "/_mapping", null).at(INDEX + ".mappings.properties");
        assertEquals(MinHashSketch.ALGORITHM, at(props, "body.fields.fp.sketch"), "a new simhash-v2 text field stores one by default");
        assertEquals(MinHashSketch.ALGORITHM, at(props, "all.sketch"));
        assertEquals("none", at(props, "plain.sketch"));
        assertEquals("none", at(props, "old.sketch"), "simhash-v1 fields have none");
        assertNull(at(props, "given.sketch"), "input fingerprint fields have no such option");
        Map<String, Object> caps = rest.ok("GET", "/" + INDEX + "/_field_caps?fields=all,plain", null).json();
        assertEquals(List.of(MinHashSketch.ALGORITHM), at(caps, "fields.all.simhash.meta.simhash_sketch"));
        assertNull(at(caps, "fields.plain.simhash.meta.simhash_sketch"));
    }

    @Test
    void theStoredSketchIsTheSketchOfTheDocumentsTexts() {
        Rest.Answer a = rest.ok("POST", "/" + INDEX + "/_search", """
            {"query": {"ids": {"values": ["1", "2"]}}, "sort": ["_doc"], "_source": false,
             "fields": [{"field": "body.fp", "format": "minhash-v1"}, {"field": "all", "format": "minhash-v1"}]}""");
        Map<String, String> expected = Map.of(
            "1/body.fp", "The river rose overnight and the town council met at dawn to plan the evacuation.");
        List<Map<String, Object>> hits = a.at("hits.hits");
        for (Map<String, Object> hit : hits) {
            @SuppressWarnings("unchecked")
            Map<String, List<String>> fields = (Map<String, List<String>>) hit.get("fields");
            String id = (String) hit.get("_id");
            byte[] all = Base64.getDecoder().decode(fields.get("all").get(0));
            // copy_to sources in document order, read as one token sequence, as the fingerprint reads them
            List<String> texts = id.equals("1") ? List.of("Flood warning", "The river rose overnight") : List.of("one", "two", "three");
            assertArrayEquals(MinHashSketch.V1.sketch(texts), all, "doc " + id + " [all]");
            assertEquals(MinHashSketch.BYTES, all.length);
            if (id.equals("1")) {
                byte[] body = Base64.getDecoder().decode(fields.get("body.fp").get(0));
                assertArrayEquals(MinHashSketch.V1.sketch(expected.get("1/body.fp")), body);
            }
        }
        assertEquals(2, hits.size());
    }

    @Test
    void theOptionIsCheckedWhenTheMappingIsPut() {
        Rest.Answer bad = rest.call("PUT", "/sketch-bad", """
            {"mappings": {"properties": {"f": {"type": "simhash", "sketch": "minhash-v9"}}}}""");
        assertEquals(400, bad.status(), bad.body());
        assertTrue(bad.body().contains("[sketch] must be one of [minhash-v1, none]"), bad.body());
        Rest.Answer v1 = rest.call("PUT", "/sketch-bad", """
            {"mappings": {"properties": {"f": {"type": "simhash", "version": "v1", "sketch": "minhash-v1"}}}}""");
        assertEquals(400, v1.status(), v1.body());
        assertTrue(v1.body().contains("[sketch] [minhash-v1] needs [version] [v2]"), v1.body());
        Rest.Answer given = rest.call("PUT", "/sketch-bad", """
            {"mappings": {"properties": {"f": {"type": "simhash", "input": "fingerprint", "sketch": "none"}}}}""");
        assertEquals(400, given.status(), given.body());
        assertTrue(given.body().contains("[sketch] does not apply"), given.body());
        Rest.Answer change = rest.call("PUT", "/" + INDEX + "/_mapping", """
            {"properties": {"plain": {"type": "simhash", "sketch": "minhash-v1"}}}""");
        assertEquals(400, change.status(), change.body());
        assertTrue(change.body().contains("[sketch]"), change.body());
        // the same mapping put again, with or without the recorded default, is accepted
        rest.ok("PUT", "/" + INDEX + "/_mapping", """
            {"properties": {"all": {"type": "simhash"}, "plain": {"type": "simhash", "sketch": "none"}}}""");
        // without the option, a field without a sketch never gains one: 9.x keeps the recorded one (200), 8.19 reads the
        // absent option as the default and refuses the change (400 naming [sketch])
        Rest.Answer again = rest.call("PUT", "/" + INDEX + "/_mapping", """
            {"properties": {"plain": {"type": "simhash"}}}""");
        assertTrue(again.status() == 200 || (again.status() == 400 && again.body().contains("Cannot update parameter [sketch] from [none]")),
            again.body());
        Map<String, Object> props = rest.ok("GET", "/" + INDEX + "/_mapping", null).at(INDEX + ".mappings.properties");
        assertEquals("none", at(props, "plain.sketch"));
        assertEquals(MinHashSketch.ALGORITHM, at(props, "all.sketch"));
    }

    /**
     * The format {@code long+minhash-v1} reads the fingerprint (as the {@code long} format gives it) followed by the sketch
     * (as the {@code minhash-v1} format gives it); on a field without sketches, the fingerprint alone instead of a failure.
     */
    @Test
    void theFingerprintAndSketchFormatReadsTheFingerprintAloneWhereNoSketchIsStored() {
        Rest.Answer both = rest.ok("POST", "/" + INDEX + "/_search", """
            {"query": {"ids": {"values": ["1"]}}, "_source": false,
             "fields": [{"field": "plain", "format": "long+minhash-v1"}, {"field": "all", "format": "long+minhash-v1"}]}""");
        Rest.Answer apart = rest.ok("POST", "/" + INDEX + "/_search", """
            {"query": {"ids": {"values": ["1"]}}, "_source": false,
             "fields": [{"field": "plain", "format": "long"}, {"field": "all", "format": "long"}]}""");
        Rest.Answer sketch = rest.ok("POST", "/" + INDEX + "/_search", """
            {"query": {"ids": {"values": ["1"]}}, "_source": false, "fields": [{"field": "all", "format": "minhash-v1"}]}""");
        assertEquals(0, ((Number) both.at("_shards.failed")).intValue(), both.body());
        List<Object> plain = both.at("hits.hits.0.fields.plain");
        List<Object> all = both.at("hits.hits.0.fields.all");
        assertEquals(apart.<List<Object>>at("hits.hits.0.fields.plain"), plain, "the fingerprint alone");
        assertEquals(2, all.size(), all.toString());
        assertEquals(apart.<List<Object>>at("hits.hits.0.fields.all").get(0), all.get(0));
        assertEquals(sketch.<List<Object>>at("hits.hits.0.fields.all").get(0), all.get(1));
    }

    /** As for any bad {@code fields} format, the shards that fetch hits fail with the reason (a 400 when every shard does). */
    @Test
    void askingForTheSketchOfAFieldWithoutOneFailsWithTheReason() {
        Rest.Answer a = rest.call("POST", "/" + INDEX + "/_search", """
            {"query": {"ids": {"values": ["1"]}}, "fields": [{"field": "plain", "format": "minhash-v1"}]}""");
        assertTrue(a.status() == 400 || (a.status() == 200 && ((Number) a.at("_shards.failed")).intValue() >= 1), a.body());
        assertTrue(a.body().contains("field [plain] stores no similarity sketch (its [sketch] is [none])"), a.body());
        assertEquals(List.of(), a.at("hits.hits"), a.body());
    }

    /**
     * The sketch formats in {@code docvalue_fields} (which read the fingerprint's doc values): a 400 before any shard runs,
     * naming the format and pointing to {@code fields}, instead of a 200 with the hits of the failed shards missing; for a
     * search and for a fold.
     */
    @Test
    void sketchFormatsInDocvalueFieldsAre400PointingToFields() {
        for (String format : List.of("minhash-v1", "long+minhash-v1")) {
            String body = """
                {"query": {"match_all": {}}, "_source": false, "docvalue_fields": [{"field": "body.fp", "format": "%s"}]}"""
                .formatted(format);
            for (String path : List.of("/" + INDEX + "/_search", "/" + INDEX + "/_simhash/fold?field=body.fp")) {
                Rest.Answer a = rest.call("POST", path, body);
                assertEquals(400, a.status(), path + " " + a.body());
                assertTrue(a.body().contains("[docvalue_fields] the format [" + format + "] of [body.fp] reads the similarity sketch"),
                    path + " " + a.body());
                assertTrue(a.body().contains("ask for it in [fields]"), path + " " + a.body());
            }
        }
        // the formats of the fingerprint itself still work there
        Rest.Answer hex = rest.call("POST", "/" + INDEX + "/_search", """
            {"query": {"ids": {"values": ["1"]}}, "_source": false, "docvalue_fields": [{"field": "body.fp", "format": "long"}]}""");
        assertEquals(200, hex.status(), hex.body());
        assertEquals(0, ((Number) hex.at("_shards.failed")).intValue(), hex.body());
    }

    /**
     * What a simhash-v2 field fingerprints (every v2 field has the same features; its options only weight them): folded
     * tokens and adjacent pairs, shown by the analyzer simhash_v2, in an index or not.
     */
    @Test
    void analyzeShowsTheFeaturesOfASimhashV2Field() {
        List<String> expected = List.of("hello", "world", "hello world", "东", "world 东", "京", "东 京");
        List<String> expectedTypes = List.of("token", "token", "bigram", "token", "bigram", "token", "bigram");
        for (String path : List.of("/" + INDEX + "/_analyze", "/_analyze")) {
            String by = path;
            Rest.Answer a = rest.ok("POST", path, "{\"analyzer\": \"simhash_v2\", \"text\": \"Hello, WORLD! 東京\"}");
            List<Map<String, Object>> tokens = a.at("tokens");
            assertEquals(expected, tokens.stream().map(t -> t.get("token")).toList(), by);
            assertEquals(expectedTypes, tokens.stream().map(t -> t.get("type")).toList(), by);
            assertEquals(List.of(0, 1, 1, 2, 2, 3, 3), tokens.stream().map(t -> t.get("position")).toList(), by);
        }
    }

    @SuppressWarnings("unchecked")
    private static <T> T at(Map<String, Object> map, String path) {
        Object cur = map;
        for (String part : path.split("\\.")) {
            if (!(cur instanceof Map<?, ?> m)) {
                return null;
            }
            cur = m.get(part);
        }
        return (T) cur;
    }
}
