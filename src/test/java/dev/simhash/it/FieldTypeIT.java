package dev.simhash.it;

import dev.simhash.core.MinHashSketch;
import dev.simhash.core.SimHash;
import dev.simhash.core.SimHashV2;
import dev.simhash.it.support.Fixtures;
import dev.simhash.it.support.RealNodeExtension;
import dev.simhash.it.support.Rest;
import dev.simhash.it.support.SampleCorpus;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static dev.simhash.it.support.Rest.ordered;
import static dev.simhash.it.support.Rest.toJson;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The {@code simhash} field type on a real node: as a multi-field of a text and as a {@code copy_to}
 * target, on Chinese and English documents, gives the same fingerprints as the processor's object form
 * built from the same texts, and the query (hash, text, like, k), the scripts, the fold and the report
 * give the same answers on both; each answer is also checked against brute force over the fingerprints.
 */
@ExtendWith(RealNodeExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FieldTypeIT {

    static final String TYPED = "ft-typed";
    static final String OBJECT = "ft-object";
    static final String PIPELINE = "ft-object-pipeline";

    private final Rest rest;
    private final List<SampleCorpus.Doc> docs = SampleCorpus.load().docs();
    /** Fingerprints of the body (multi-field / processor) and of title + body (copy_to / processor on an array), by id. */
    private final Map<String, Long> body = new TreeMap<>();
    private final Map<String, Long> all = new TreeMap<>();

    FieldTypeIT(Rest rest) {
        this.rest = rest;
    }

    static String title(SampleCorpus.Doc d) {
        return d.kind() + " " + d.lang() + " " + d.id().replaceAll("-[0-9]+$", "");
    }

    @BeforeAll
    void load() {
        rest.delete("/ft-*");
        rest.ok("PUT", "/_ingest/pipeline/" + PIPELINE, """
            {"processors": [{"simhash": {"field": "body", "target_field": "simhash", "version": "v2"}},
                            {"simhash": {"field": "combined", "target_field": "simhash_all", "version": "v2"}}]}""");
        rest.ok("PUT", "/" + OBJECT, """
            {"settings": {"number_of_shards": 2, "number_of_replicas": 0, "default_pipeline": "%s"},
             "mappings": {"properties": {"rank": {"type": "integer"}, "title": {"type": "text"}, "body": {"type": "text"},
               "combined": {"type": "text"}, "dup_group": {"type": "keyword"}, "simhash": %s, "simhash_all": %s}}}""".formatted(PIPELINE, Fixtures.FP_MAPPING,
            Fixtures.FP_MAPPING));
        // the one-line mappings users write
        rest.ok("PUT", "/" + TYPED, """
            {"settings": {"number_of_shards": 3, "number_of_replicas": 0},
             "mappings": {"properties": {"rank": {"type": "integer"}, "dup_group": {"type": "keyword"},
               "title": {"type": "text", "copy_to": "all_fp"},
               "body": {"type": "text", "copy_to": "all_fp", "fields": {"simhash": {"type": "simhash"}}},
               "all_fp": {"type": "simhash"}}}}""");
        StringBuilder typed = new StringBuilder();
        StringBuilder object = new StringBuilder();
        int rank = 0;
        for (SampleCorpus.Doc d : docs) {
            String t = title(d);
            typed.append(toJson(Map.of("index", Map.of("_id", d.id())))).append('\n')
                .append(toJson(ordered("rank", rank, "title", t, "body", d.body()))).append('\n');
            object.append(toJson(Map.of("index", Map.of("_id", d.id())))).append('\n')
                .append(toJson(ordered("rank", rank, "title", t, "body", d.body(), "combined", List.of(t, d.body())))).append('\n');
            rank++;
        }
        Rest.Answer typedBulk = rest.bulk("/" + TYPED + "/_bulk?refresh=true", typed.toString());
        assertEquals(Boolean.FALSE, typedBulk.at("errors"), () -> typedBulk.body().substring(0, Math.min(3000, typedBulk.body().length())));
        Rest.Answer objectBulk = rest.bulk("/" + OBJECT + "/_bulk?refresh=true", object.toString());
        assertEquals(Boolean.FALSE, objectBulk.at("errors"), () -> objectBulk.body().substring(0, Math.min(3000, objectBulk.body().length())));
        Map<String, Map<String, Object>> typedValues = docValues(TYPED, "body.simhash", "all_fp");
        Map<String, Map<String, Object>> objectValues = docValues(OBJECT, "simhash.hash", "simhash_all.hash");
        for (SampleCorpus.Doc d : docs) {
            body.put(d.id(), SimHash.parse((String) typedValues.get(d.id()).get("body.simhash")));
            all.put(d.id(), SimHash.parse((String) typedValues.get(d.id()).get("all_fp")));
            assertEquals(((Number) objectValues.get(d.id()).get("simhash.hash")).longValue(), body.get(d.id()), d.id());
            assertEquals(((Number) objectValues.get(d.id()).get("simhash_all.hash")).longValue(), all.get(d.id()), d.id());
        }
    }

    /**
     * Every fingerprint of a document is computed while it is parsed, never inside Lucene's indexing chain: a text array
     * whose features a weights table all weighs 0 has no fingerprint (like the same text as one value), instead of a
     * fingerprint field added for it that fails when Lucene indexes the document; the shard stays healthy and
     * indexes the next documents.
     */
    @Test
    @Tag("smoke")
    void aTextArrayWithoutAFingerprintIndexesWithoutOneAndTheShardStaysHealthy() {
        String index = "ft-weighted";
        rest.ok("PUT", "/_simhash/weights/ft-only-kept", """
            {"version": "v2", "features": {"kept": 1, "words": 1}, "default_weight": 0}""");
        try {
            rest.ok("PUT", "/" + index, """
                {"settings": {"number_of_shards": 1, "number_of_replicas": 0},
                 "mappings": {"properties": {"body": {"type": "text",
                   "fields": {"simhash": {"type": "simhash", "weights": "ft-only-kept"}}}}}}""");
            // one value: all features weigh 0, so no fingerprint (as before)
            rest.ok("PUT", "/" + index + "/_doc/single?refresh=true", toJson(Map.of("body", "alpha beta gamma")));
            // several values, all features weigh 0: no fingerprint either, and no failure of the shard
            Rest.Answer array = rest.put("/" + index + "/_doc/array?refresh=true",
                toJson(Map.of("body", List.of("alpha beta gamma", "delta epsilon zeta"))));
            assertEquals(201, array.status(), array::body);
            // a later array value with kept features gives the document a fingerprint: the one of all its texts together
            rest.ok("PUT", "/" + index + "/_doc/late?refresh=true",
                toJson(Map.of("body", List.of("alpha beta gamma", "kept words"))));
            rest.ok("PUT", "/" + index + "/_doc/plain?refresh=true", toJson(Map.of("body", "alpha beta gamma kept words")));
            Rest.Answer health = rest.get("/_cluster/health/" + index + "?wait_for_status=green&timeout=10s");
            assertEquals("green", health.at("status"), health::body);
            Rest.Answer search = rest.ok("POST", "/" + index + "/_search", toJson(Map.of("size", 10, "_source", false,
                "docvalue_fields", List.of("body.simhash"))));
            Map<String, Object> values = new TreeMap<>();
            for (Map<String, Object> hit : search.<List<Map<String, Object>>>at("hits.hits")) {
                @SuppressWarnings("unchecked")
                Map<String, List<Object>> f = (Map<String, List<Object>>) hit.get("fields");
                values.put((String) hit.get("_id"), f == null ? null : f.get("body.simhash").get(0));
            }
            assertEquals(List.of("array", "late", "plain", "single"), List.copyOf(values.keySet()), values::toString);
            assertNull(values.get("single"), values::toString);
            assertNull(values.get("array"), values::toString);
            assertNotNull(values.get("late"), values::toString);
            // only [kept] and [words] weigh anything (every bigram weighs the default 0): the same features, the same fingerprint
            assertEquals(values.get("plain"), values.get("late"), values::toString);
        } finally {
            rest.delete("/" + index);
            rest.call("DELETE", "/_simhash/weights/ft-only-kept", null);
        }
    }

    /**
     * The mapping {@code GET _mapping?include_defaults=true} shows for a simhash field can be put again as it is, and gives
     * the same field (an option without a default was shown as null, which a mapping refuses).
     */
    @Test
    void aFieldMappingWithItsDefaultsCanBePutAgain() {
        rest.ok("PUT", "/ft-defaults", """
            {"mappings": {"properties": {"fp": {"type": "simhash"}, "given": {"type": "simhash", "input": "fingerprint"},
              "old": {"type": "simhash", "version": "v1", "shingle_size": 2}}}}""");
        for (String field : List.of("fp", "given", "old")) {
            Rest.Answer shown = rest.ok("GET", "/ft-defaults/_mapping/field/" + field + "?include_defaults=true", null);
            Map<String, Object> withDefaults = shown.at("ft-defaults.mappings." + field + ".mapping." + field);
            String copy = "ft-defaults-" + field;
            Rest.Answer put = rest.put("/" + copy, toJson(Map.of("mappings", Map.of("properties", Map.of(field, withDefaults)))));
            assertEquals(200, put.status(), put::body);
            Rest.Answer again = rest.ok("GET", "/" + copy + "/_mapping/field/" + field + "?include_defaults=true", null);
            assertEquals(withDefaults, again.at(copy + ".mappings." + field + ".mapping." + field), field);
        }
    }

    @AfterAll
    void drop() {
        rest.delete("/ft-*");
        rest.call("DELETE", "/_ingest/pipeline/" + PIPELINE, null);
    }


    /** The first doc value of each field of every document, by id. */
    Map<String, Map<String, Object>> docValues(String index, String... fields) {
        Rest.Answer a = rest.ok("POST", "/" + index + "/_search", toJson(Map.of("size", 1000, "_source", false,
            "docvalue_fields", List.of(fields))));
        Map<String, Map<String, Object>> out = new TreeMap<>();
        for (Map<String, Object> hit : a.<List<Map<String, Object>>>at("hits.hits")) {
            @SuppressWarnings("unchecked")
            Map<String, List<Object>> f = (Map<String, List<Object>>) hit.get("fields");
            Map<String, Object> values = new LinkedHashMap<>();
            for (String field : fields) {
                assertNotNull(f, "no doc values for " + hit.get("_id"));
                values.put(field, f.get(field).get(0));
            }
            out.put((String) hit.get("_id"), values);
        }
        return out;
    }

    /** The ids of a search with the simhash query. */
    Map<String, Double> hits(String index, Map<String, Object> simhash, int size) {
        Rest.Answer a = rest.post("/" + index + "/_search", toJson(Map.of("size", size, "_source", false,
            "query", Map.of("simhash", simhash))));
        assertEquals(200, a.status(), a.toString());
        Map<String, Double> out = new TreeMap<>();
        for (Map<String, Object> hit : a.<List<Map<String, Object>>>at("hits.hits")) {
            out.put((String) hit.get("_id"), ((Number) hit.get("_score")).doubleValue());
        }
        return out;
    }

    static Map<String, Double> bruteForce(Map<String, Long> fps, long query, int r) {
        Map<String, Double> out = new TreeMap<>();
        fps.forEach((id, h) -> {
            int d = SimHash.distance(h, query);
            if (d <= r) {
                out.put(id, (64 - d) / 64.0);
            }
        });
        return out;
    }


    @Test
    void fieldsAndDocvalueFieldsShowSixteenHexDigitsAndSourceIsUnchanged() {
        Rest.Answer a = rest.ok("POST", "/" + TYPED + "/_search", toJson(Map.of("query", Map.of("ids", Map.of("values", List.of(
            "zh-cpi-1"))), "fields", List.of("body.simhash", "all_fp"), "docvalue_fields", List.of(Map.of("field", "all_fp",
            "format", "long")))));
        Map<String, Object> hit = a.<List<Map<String, Object>>>at("hits.hits").get(0);
        @SuppressWarnings("unchecked")
        Map<String, List<Object>> fields = (Map<String, List<Object>>) hit.get("fields");
        assertEquals(List.of(SimHash.toHex(body.get("zh-cpi-1"))), fields.get("body.simhash"));
        assertTrue(((String) fields.get("body.simhash").get(0)).matches("[0-9a-f]{16}"));
        @SuppressWarnings("unchecked")
        Map<String, Object> source = (Map<String, Object>) hit.get("_source");
        assertEquals(List.of("rank", "title", "body"), List.copyOf(source.keySet()), "the source is what was sent");
        Rest.Answer mapping = rest.ok("GET", "/" + TYPED + "/_mapping", null);
        assertEquals("v2", mapping.at(TYPED + ".mappings.properties.all_fp.version"),
            "a new field gets the latest version, written into the mapping");
    }

    @Test
    void hashQueryEqualsTheObjectFormAndBruteForce() {
        Random r = new Random(12);
        for (int i = 0; i < 12; i++) {
            SampleCorpus.Doc d = docs.get(r.nextInt(docs.size()));
            for (int radius : new int[] { 0, 3, 8, 16 }) {
                long h = body.get(d.id());
                Map<String, Double> typed = hits(TYPED, ordered("field", "body.simhash", "hash", SimHash.toHex(h), "max_distance", radius), 1000);
                Map<String, Double> object = hits(OBJECT, ordered("field", "simhash", "hash", SimHash.toHex(h), "max_distance", radius), 1000);
                assertEquals(bruteForce(body, h, radius), typed, d.id() + " r=" + radius);
                assertEquals(object, typed, d.id() + " r=" + radius);
                long ha = all.get(d.id());
                assertEquals(bruteForce(all, ha, radius), hits(TYPED, ordered("field", "all_fp", "hash", ha, "max_distance", radius), 1000));
                assertEquals(hits(OBJECT, ordered("field", "simhash_all", "hash", ha, "max_distance", radius), 1000),
                    hits(TYPED, ordered("field", "all_fp", "hash", ha, "max_distance", radius), 1000));
            }
        }
    }

    @Test
    void textQueryUsesTheFieldsOwnOptions() {
        for (SampleCorpus.TextQuery t : SampleCorpus.TEXT_QUERIES) {
            Map<String, Double> typed = hits(TYPED, ordered("field", "body.simhash", "text", t.text(), "max_distance", 12), 1000);
            // the object form does not know its version: the query says it
            Map<String, Double> object = hits(OBJECT, ordered("field", "simhash", "text", t.text(), "max_distance", 12, "version", "v2"), 1000);
            assertEquals(object, typed, t.text());
            assertFalse(typed.isEmpty(), "the pasted copy finds its story: " + t.text());
            assertTrue(SampleCorpus.load().group(t.group()).containsAll(typed.keySet()), typed + " within group " + t.group());
            // repeating the field's options is allowed
            assertEquals(typed, hits(TYPED, ordered("field", "body.simhash", "text", t.text(), "max_distance", 12, "version", "v2",
                "min_features", 1), 1000));
            // a bare hash without max_distance: the field's version default, 6 bits for simhash-v2 (a text without it is
            // verified with the field's sketch at the default min_similarity: VerifiedQueryIT)
            long h = SimHashV2.fingerprint(t.text(), 1).getAsLong();
            assertEquals(bruteForce(body, h, 6), hits(TYPED, ordered("field", "body.simhash", "hash", SimHash.toHex(h)), 1000), t.text());
            // an option v2 does not have is a 400 naming it
            Rest.Answer a = rest.post("/" + TYPED + "/_search", toJson(Map.of("query", Map.of("simhash",
                ordered("field", "body.simhash", "text", t.text(), "analyzer", "standard")))));
            assertEquals(400, a.status(), a.toString());
            assertTrue(a.body().contains("[analyzer] does not apply to the [simhash] field [body.simhash]"), a.body());
        }
    }

    @Test
    void likeLeavesTheLikedDocumentOutUnlessIncludeIsTrue() {
        for (String id : List.of("zh-cpi-1", "en-bridge-1")) {
            long h = body.get(id);
            Map<String, Double> expected = bruteForce(body, h, 10);
            Map<String, Double> with = hits(TYPED, ordered("field", "body.simhash", "like", Map.of("index", TYPED, "id", id), "include", true,
                "max_distance", 10), 1000);
            assertEquals(expected, with, id);
            expected.remove(id);
            assertEquals(expected, hits(TYPED, ordered("field", "body.simhash", "like", Map.of("index", TYPED, "id", id), "max_distance", 10),
                1000), id);
            assertEquals(expected, hits(OBJECT, ordered("field", "simhash", "like", Map.of("index", OBJECT, "id", id), "max_distance", 10),
                1000), id + " object form");
        }
    }

    @Test
    void kGivesTheExactKNearest() {
        Random r = new Random(5);
        for (int i = 0; i < 8; i++) {
            long query = i < 4 ? body.get(docs.get(r.nextInt(docs.size())).id()) ^ (1L << r.nextInt(64)) : r.nextLong();
            for (int k : new int[] { 1, 3, 10 }) {
                Map<String, Double> typed = hits(TYPED, ordered("field", "body.simhash", "hash", SimHash.toHex(query), "k", k), k);
                Map<String, Double> object = hits(OBJECT, ordered("field", "simhash", "hash", SimHash.toHex(query), "k", k), k);
                List<Double> expected = body.values().stream().map(h -> (64 - SimHash.distance(h, query)) / 64.0)
                    .sorted(Comparator.reverseOrder()).limit(k).toList();
                assertEquals(expected, typed.values().stream().sorted(Comparator.reverseOrder()).toList(), "k=" + k);
                assertEquals(expected, object.values().stream().sorted(Comparator.reverseOrder()).toList(), "k=" + k);
                typed.forEach((id, score) -> assertEquals((64 - SimHash.distance(body.get(id), query)) / 64.0, score, 1e-9, id));
            }
            // with a filter: the k nearest among the documents it matches (English ones here), not the k nearest then filtered
            List<Double> english = docs.stream().filter(d -> d.lang().equals("en"))
                .map(d -> (64 - SimHash.distance(body.get(d.id()), query)) / 64.0).sorted(Comparator.reverseOrder()).limit(3).toList();
            Map<String, Double> filtered = hits(TYPED, ordered("field", "body.simhash", "hash", SimHash.toHex(query), "k", 3, "filter",
                Map.of("match", Map.of("title", "en"))), 3);
            assertEquals(english, filtered.values().stream().sorted(Comparator.reverseOrder()).toList());
            filtered.keySet().forEach(id -> assertTrue(id.startsWith("en-"), id));
                        // with max_distance: at most the k nearest within it
            Map<String, Double> capped = hits(TYPED, ordered("field", "body.simhash", "hash", SimHash.toHex(query), "k", 5, "max_distance", 4), 5);
            Map<String, Double> within = bruteForce(body, query, 4);
            assertEquals(Math.min(5, within.size()), capped.size());
            assertTrue(within.keySet().containsAll(capped.keySet()));
        }
    }

    @Test
    void scriptsReadTheFieldType() {
        long h = body.get("en-bridge-1");
        for (String[] fieldAndIndex : new String[][] { { "body.simhash", TYPED }, { "simhash", OBJECT } }) {
            Rest.Answer a = rest.ok("POST", "/" + fieldAndIndex[1] + "/_search", toJson(Map.of("size", 1000, "_source", false,
                "query", Map.of("script_score", Map.of("query", Map.of("match_all", Map.of()), "script", Map.of("lang", "simhash",
                    "source", "hamming", "params", Map.of("field", fieldAndIndex[0], "hash", SimHash.toHex(h))))))));
            List<Map<String, Object>> hits = a.at("hits.hits");
            assertEquals(docs.size(), hits.size());
            for (Map<String, Object> hit : hits) {
                String id = (String) hit.get("_id");
                assertEquals(SimHash.distance(h, body.get(id)), ((Number) hit.get("_score")).doubleValue(), 1e-6, id);
            }
        }
    }

    @Test
    void foldAndReportGiveTheSameAnswersAsOnTheObjectForm() {
        String search = toJson(Map.of("query", Map.of("match_all", Map.of()), "sort", List.of(Map.of("rank", "asc")), "size", 100));
        Rest.Answer typed = rest.ok("POST", "/" + TYPED + "/_simhash/fold?field=body.simhash&max_distance=8", search);
        Rest.Answer object = rest.ok("POST", "/" + OBJECT + "/_simhash/fold?field=simhash&max_distance=8", search);
        List<String> typedFolds = folds(typed);
        assertEquals(folds(object), typedFolds);
        assertTrue(typedFolds.size() < docs.size(), "planted groups fold: " + typedFolds);
        Map<String, Object> first = typed.<List<Map<String, Object>>>at("hits.hits").get(0);
        @SuppressWarnings("unchecked")
        Map<String, Object> ours = (Map<String, Object>) first.get("_simhash");
        assertEquals(SimHash.toHex(body.get((String) first.get("_id"))), ours.get("hash"));
        assertNull(first.get("fields"), "the doc values the fold reads are not shown unless requested");

        for (int r : new int[] { 3, 8 }) {
            Rest.Answer rt = rest.ok("POST", "/" + TYPED + "/_simhash/duplicates", toJson(Map.of("field", "all_fp", "max_distance", r)));
            Rest.Answer ro = rest.ok("POST", "/" + OBJECT + "/_simhash/duplicates", toJson(Map.of("field", "simhash_all", "max_distance", r)));
            assertEquals(groups(ro), groups(rt), "r=" + r);
        }
        // group ids written into the documents, for collapse: the same partition on both forms
        rest.ok("POST", "/" + TYPED + "/_simhash/duplicates", toJson(Map.of("field", "body.simhash", "max_distance", 8,
            "write_group_id", "dup_group")));
        rest.ok("POST", "/" + OBJECT + "/_simhash/duplicates", toJson(Map.of("field", "simhash", "max_distance", 8,
            "write_group_id", "dup_group")));
        rest.ok("POST", "/" + TYPED + "," + OBJECT + "/_refresh", null);
        Map<String, Map<String, Object>> typedGroups = docValues(TYPED, "dup_group");
        Map<String, Map<String, Object>> objectGroups = docValues(OBJECT, "dup_group");
        assertEquals(partition(objectGroups), partition(typedGroups));
        assertTrue(partition(typedGroups).stream().anyMatch(g -> g.size() > 1), "planted groups share a group id");
        assertEquals(body.get("zh-cpi-1"), SimHash.parse((String) docValues(TYPED, "body.simhash").get("zh-cpi-1").get("body.simhash")),
            "writing the group id re-parses the document: the fingerprint stays");
    }

    /** Ids grouped by their group id value, as a set of sorted id lists. */
    private static java.util.Set<List<String>> partition(Map<String, Map<String, Object>> groupOf) {
        Map<Object, List<String>> byGroup = new TreeMap<>();
        groupOf.forEach((id, v) -> byGroup.computeIfAbsent(v.get("dup_group"), g -> new ArrayList<>()).add(id));
        java.util.Set<List<String>> out = new java.util.HashSet<>();
        byGroup.values().forEach(ids -> out.add(ids.stream().sorted().toList()));
        return out;
    }

    private static List<String> folds(Rest.Answer a) {
        List<String> out = new ArrayList<>();
        for (Map<String, Object> hit : a.<List<Map<String, Object>>>at("hits.hits")) {
            @SuppressWarnings("unchecked")
            Map<String, Object> s = (Map<String, Object>) hit.get("_simhash");
            out.add(hit.get("_id") + "+" + s.get("folded"));
        }
        return out;
    }

    private static List<List<String>> groups(Rest.Answer a) {
        List<List<String>> out = new ArrayList<>();
        for (Map<String, Object> g : a.<List<Map<String, Object>>>at("groups")) {
            List<String> ids = new ArrayList<>();
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> members = (List<Map<String, Object>>) g.get("members");
            for (Map<String, Object> m : members) {
                ids.add((String) m.get("_id"));
            }
            ids.sort(null);
            out.add(ids);
        }
        out.sort(Comparator.comparing(Object::toString));
        return out;
    }

    @Test
    void foldAndReportDefaultToTheFieldsVersionRadius() {
        // field caps show the version (how fold and report learn it with read privileges); the mapping's meta stays the user's
        Rest.Answer caps = rest.ok("GET", "/" + TYPED + "/_field_caps?fields=body.simhash", null);
        Map<String, Object> capsFields = caps.at("fields");
        assertEquals(List.of("v2"), new Rest.Answer(200, toJson(capsFields.get("body.simhash"))).at("simhash.meta.simhash_version"),
            caps.toString());
        Rest.Answer mapping = rest.ok("GET", "/" + TYPED + "/_mapping", null);
        assertNull(mapping.at(TYPED + ".mappings.properties.body.fields.simhash.meta"), mapping.toString());
        String search = toJson(Map.of("query", Map.of("match_all", Map.of()), "sort", List.of(Map.of("rank", "asc")), "size", 100));
        // a simhash-v2 field with a similarity sketch: the default threshold (with its candidate radius) instead of the radius
        Rest.Answer byDefault = rest.ok("POST", "/" + TYPED + "/_simhash/fold?field=body.simhash", search);
        assertEquals(MinHashSketch.DEFAULT_MIN_SIMILARITY, ((Number) byDefault.at("simhash_fold.min_similarity")).doubleValue(),
            byDefault.toString());
        // its candidate radius is no max_distance a caller may send: the fold shows the threshold only
        assertNull(byDefault.at("simhash_fold.max_distance"), byDefault.toString());
        assertEquals(folds(rest.ok("POST", "/" + TYPED + "/_simhash/fold?field=body.simhash&min_similarity="
            + MinHashSketch.DEFAULT_MIN_SIMILARITY, search)), folds(byDefault));
        Rest.Answer radius = rest.ok("POST", "/" + TYPED + "/_simhash/fold?field=body.simhash&max_distance=6", search);
        assertNull(radius.at("simhash_fold.min_similarity"), "an explicit radius is the radius alone");
        // the object form keeps simhash-v1's radius
        Rest.Answer object = rest.ok("POST", "/" + OBJECT + "/_simhash/fold?field=simhash", search);
        assertEquals(3, ((Number) object.at("simhash_fold.max_distance")).intValue(), object.toString());
        Rest.Answer report = rest.ok("POST", "/" + TYPED + "/_simhash/duplicates", toJson(Map.of("field", "all_fp")));
        assertEquals(MinHashSketch.DEFAULT_MIN_SIMILARITY, ((Number) report.at("min_similarity")).doubleValue(), report.toString());
        assertEquals(groups(rest.ok("POST", "/" + TYPED + "/_simhash/duplicates", toJson(Map.of("field", "all_fp", "min_similarity",
            MinHashSketch.DEFAULT_MIN_SIMILARITY)))), groups(report));
        Rest.Answer byRadius = rest.ok("POST", "/" + TYPED + "/_simhash/duplicates", toJson(Map.of("field", "all_fp", "max_distance", 6)));
        assertEquals(6, ((Number) byRadius.at("max_distance")).intValue(), byRadius.toString());
        assertNull(byRadius.at("min_similarity"), byRadius.toString());
    }

    @Test
    void inputFingerprintTakesHexAndSignedLongs() {
        rest.ok("PUT", "/ft-fingerprints", """
            {"mappings": {"properties": {"fp": {"type": "simhash", "input": "fingerprint"}}}}""");
        long a = 0x8000_0000_0000_0001L;
        rest.ok("PUT", "/ft-fingerprints/_doc/hex?refresh=true", toJson(Map.of("fp", SimHash.toHex(a))));
        rest.ok("PUT", "/ft-fingerprints/_doc/long?refresh=true", "{\"fp\": " + (a ^ 3) + "}");
        rest.ok("PUT", "/ft-fingerprints/_doc/decimal?refresh=true", toJson(Map.of("fp", Long.toString(a ^ 7))));
        rest.ok("PUT", "/ft-fingerprints/_doc/two?refresh=true", toJson(Map.of("fp", List.of(SimHash.toHex(~a), SimHash.toHex(a ^ 0xF0)))));
        assertEquals(Map.of("hex", 1.0, "long", 62 / 64.0, "decimal", 61 / 64.0, "two", 60 / 64.0),
            hits("ft-fingerprints", ordered("field", "fp", "hash", SimHash.toHex(a), "max_distance", 4), 10));
        for (Object bad : List.of("xyz", "0x8000000000000001", 1.5, true, Map.of("a", 1), "123456789012345678901")) {
            Rest.Answer r = rest.call("PUT", "/ft-fingerprints/_doc/bad", toJson(Map.of("fp", bad)));
            assertEquals(400, r.status(), bad + ": " + r);
            assertTrue(r.body().contains("[fp]"), r.body());
        }
        Rest.Answer text = rest.post("/ft-fingerprints/_search", toJson(Map.of("query", Map.of("simhash", Map.of("field", "fp", "text",
            "hello world")))));
        assertEquals(400, text.status(), text.toString());
        assertTrue(text.body().contains("[input] = [fingerprint]"), text.body());
    }

    @Test
    void wrongUsesAnswer400NamingTheProblem() {
        Map<String, String> mappings = new LinkedHashMap<>();
        mappings.put("{\"type\": \"simhash\", \"shingel_size\": 2}", "shingel_size");
        mappings.put("{\"type\": \"simhash\", \"shingle_size\": 0}", "[shingle_size] must be between 1 and 8");
        mappings.put("{\"type\": \"simhash\", \"weighting\": \"idf\"}", "[weighting]");
        mappings.put("{\"type\": \"simhash\", \"version\": \"v9\"}", "[version] unknown version [v9]");
        mappings.put("{\"type\": \"simhash\", \"version\": \"v1\", \"analyzer\": \"nope\"}", "[analyzer] unknown analyzer [nope]");
        mappings.put("{\"type\": \"simhash\", \"analyzer\": \"standard\"}", "[analyzer] does not apply to simhash-v2");
        mappings.put("{\"type\": \"simhash\", \"version\": \"v2\", \"weighting\": \"binary\"}", "[weighting] does not apply to simhash-v2");
        mappings.put("{\"type\": \"simhash\", \"input\": \"fingerprint\", \"analyzer\": \"standard\"}", "[analyzer] does not apply");
        mappings.put("{\"type\": \"simhash\", \"input\": \"bytes\"}", "[input] must be one of [text, fingerprint]");
        for (Map.Entry<String, String> e : mappings.entrySet()) {
            Rest.Answer r = rest.call("PUT", "/ft-bad", "{\"mappings\": {\"properties\": {\"f\": " + e.getKey() + "}}}");
            assertEquals(400, r.status(), e.getKey() + ": " + r);
            assertTrue(r.body().contains(e.getValue()), e.getKey() + ": " + r.body());
        }
        // options are fixed at creation
        Rest.Answer change = rest.call("PUT", "/" + TYPED + "/_mapping", """
            {"properties": {"all_fp": {"type": "simhash", "shingle_size": 2}}}""");
        assertEquals(400, change.status(), change.toString());
        assertTrue(change.body().contains("Cannot update parameter [shingle_size]"), change.body());
        // a text simhash field given a number itself; through a text parent or copy_to a number is read as text, as the parent reads it
        Rest.Answer number = rest.call("PUT", "/" + TYPED + "/_doc/bad", "{\"all_fp\": 42}");
        assertEquals(400, number.status(), number.toString());
        assertTrue(number.body().contains("takes text, got a number"), number.body());
        Rest.Answer object = rest.call("PUT", "/" + TYPED + "/_doc/bad", "{\"all_fp\": {\"a\": \"b\"}}");
        assertEquals(400, object.status(), object.toString());
        rest.ok("PUT", "/" + TYPED + "/_doc/numbers?refresh=true", "{\"rank\": 10000, \"title\": 2026, \"body\": 42}");
        try {
            Map<String, Object> numbers = docValues(TYPED, "body.simhash", "all_fp").get("numbers");
            assertNotNull(numbers);
            assertEquals(List.of("numbers"), List.copyOf(hits(TYPED, ordered("field", "body.simhash", "text", "42", "max_distance", 0), 10)
                .keySet()));
        } finally {
            rest.ok("DELETE", "/" + TYPED + "/_doc/numbers?refresh=true", null);
        }

        Map<Map<String, Object>, String> queries = new LinkedHashMap<>();
        queries.put(ordered("field", "body.simhash", "text", "some text here", "shingle_size", 2),
            "[shingle_size] does not apply to the [simhash] field [body.simhash], which fingerprints text with simhash-v2");
        queries.put(ordered("field", "body.simhash", "text", "some text here", "version", "v1"), "[version] [v1] contradicts");
        queries.put(ordered("field", "body.simhash", "hash", 1, "k", 0), "[k] must be between 1 and 10000");
        queries.put(ordered("field", "body.simhash", "hash", 1, "k", 10001), "[k] must be between 1 and 10000");
        queries.put(ordered("field", "body.simhash", "hash", 1, "include", true), "[include] only applies to [like]");
        queries.put(ordered("field", "title", "hash", 1), "[field] [title] is a [text] field");
        for (Map.Entry<Map<String, Object>, String> e : queries.entrySet()) {
            Rest.Answer r = rest.post("/" + TYPED + "/_search", toJson(Map.of("query", Map.of("simhash", e.getKey()))));
            assertEquals(400, r.status(), e.getKey() + ": " + r);
            assertTrue(r.body().contains(e.getValue()), e.getKey() + ": " + r.body());
        }
    }

    @Test
    void likeOnADocumentWithoutFingerprintIs400() {
        rest.ok("PUT", "/" + TYPED + "/_doc/empty?refresh=true", toJson(Map.of("rank", 9999, "body", "")));
        try {
            Rest.Answer r = rest.post("/" + TYPED + "/_search", toJson(Map.of("query", Map.of("simhash", Map.of("field", "body.simhash",
                "like", Map.of("index", TYPED, "id", "empty"))))));
            assertEquals(400, r.status(), r.toString());
            assertTrue(r.body().contains("[like] document [" + TYPED + "/empty] has no fingerprint in [body.simhash]"), r.body());
            Rest.Answer exists = rest.ok("POST", "/" + TYPED + "/_count", toJson(Map.of("query", Map.of("bool", Map.of("must_not",
                Map.of("exists", Map.of("field", "body.simhash")))))));
            assertEquals(1, ((Number) exists.at("count")).intValue(), "a text without features indexes nothing");
        } finally {
            rest.ok("DELETE", "/" + TYPED + "/_doc/empty?refresh=true", null);
        }
    }

    /**
     * The values of an array are one token sequence, whichever value reaches min_features: the field type's fingerprint of
     * each array equals the processor's (_simulate on the same array), and an array short of min_features has none.
     */
    @Test
    void arraysAreOneTokenSequenceAcrossMinFeatures() {
        rest.ok("PUT", "/ft-arrays", """
            {"mappings": {"properties": {"t": {"type": "simhash", "min_features": 8}}}}""");
        String longText = docs.get(1).body();
        List<List<String>> arrays = List.of(
            List.of("red fox", "jumps over the lazy dog"), // neither value alone has 8 features, the two together have
            List.of(longText, "and a short tail"),          // the first already has them
            List.of("tiny", longText),                      // only the second brings them
            List.of("a", "b"),                              // never enough: no fingerprint
            List.of(longText));
        StringBuilder bulk = new StringBuilder();
        List<Map<String, Object>> simulated = new ArrayList<>();
        for (int i = 0; i < arrays.size(); i++) {
            bulk.append(toJson(Map.of("index", Map.of("_id", "a" + i)))).append('\n').append(toJson(Map.of("t", arrays.get(i)))).append('\n');
            simulated.add(Map.of("_source", Map.of("t", arrays.get(i))));
        }
        Rest.Answer b = rest.bulk("/ft-arrays/_bulk?refresh=true", bulk.toString());
        assertEquals(Boolean.FALSE, b.at("errors"), b::toString);
        Rest.Answer sim = rest.post("/_ingest/pipeline/_simulate", toJson(Map.of("pipeline", Map.of("processors", List.of(
            Map.of("simhash", Map.of("field", "t", "target_field", "fp", "version", "v2", "min_features", 8, "ignore_missing", true)))),
            "docs", simulated)));
        assertEquals(200, sim.status(), sim::toString);
        Rest.Answer search = rest.ok("POST", "/ft-arrays/_search", toJson(Map.of("size", 10, "_source", false, "docvalue_fields", List.of("t"))));
        Map<String, String> typed = new TreeMap<>();
        for (Map<String, Object> hit : search.<List<Map<String, Object>>>at("hits.hits")) {
            @SuppressWarnings("unchecked")
            Map<String, List<Object>> f = (Map<String, List<Object>>) hit.get("fields");
            typed.put((String) hit.get("_id"), f == null ? null : (String) f.get("t").get(0));
        }
        for (int i = 0; i < arrays.size(); i++) {
            Object fp = sim.at("docs." + i + ".doc._source.fp");
            String expected = fp == null ? null : SimHash.toHex(((Number) ((Map<?, ?>) fp).get("hash")).longValue());
            assertEquals(expected, typed.get("a" + i), "array " + i + ": " + arrays.get(i));
        }
        assertNull(typed.get("a3"), "two one-word values have fewer than 8 features");
        assertNotNull(typed.get("a0"), "the two values of a0 together have 8 features or more");
        rest.delete("/ft-arrays");
    }

    @Test
    void updatesKeepTheFingerprintRight() {
        String newBody = "The city council approved a new budget for public libraries on Tuesday, adding weekend hours.";
        rest.ok("PUT", "/ft-update", """
            {"mappings": {"properties": {"body": {"type": "text", "fields": {"simhash": {"type": "simhash"}}}}}}""");
        rest.ok("PUT", "/ft-update/_doc/a?refresh=true", toJson(Map.of("body", docs.get(0).body(), "tag", "x")));
        rest.ok("PUT", "/ft-update/_doc/reference?refresh=true", toJson(Map.of("body", newBody)));
        long before = SimHash.parse((String) docValues("ft-update", "body.simhash").get("a").get("body.simhash"));
        assertEquals(body.get(docs.get(0).id()), before);
        rest.ok("POST", "/ft-update/_update/a?refresh=true", toJson(Map.of("doc", Map.of("body", newBody))));
        Map<String, Map<String, Object>> after = docValues("ft-update", "body.simhash");
        assertEquals(after.get("reference"), after.get("a"), "a partial update re-fingerprints the new text");
        assertNotEquals(before, SimHash.parse((String) after.get("a").get("body.simhash")));
        // an update that does not touch the text keeps the fingerprint
        rest.ok("POST", "/ft-update/_update/a?refresh=true", toJson(Map.of("doc", Map.of("tag", "y"))));
        assertEquals(after.get("reference"), docValues("ft-update", "body.simhash").get("a"));
        // backfill after adding the field type to an existing text field: documents written again get it
        rest.ok("PUT", "/ft-backfill", "{\"mappings\": {\"properties\": {\"body\": {\"type\": \"text\"}}}}");
        rest.ok("PUT", "/ft-backfill/_doc/old?refresh=true", toJson(Map.of("body", newBody)));
        rest.ok("PUT", "/ft-backfill/_mapping", "{\"properties\": {\"body\": {\"type\": \"text\", \"fields\": {\"simhash\": "
            + "{\"type\": \"simhash\"}}}}}");
        assertEquals(0, ((Number) rest.ok("POST", "/ft-backfill/_count", toJson(Map.of("query", Map.of("exists", Map.of("field",
            "body.simhash"))))).at("count")).intValue());
        // what _update_by_query does for each document (the reindex module is not in the test distribution): index it again
        rest.ok("POST", "/ft-backfill/_update/old?refresh=true", toJson(Map.of("doc", Map.of("body", newBody), "detect_noop", false)));
        assertEquals(after.get("reference"), docValues("ft-backfill", "body.simhash").get("old"));
    }

    @Test
    void processorFieldAndQueryGiveTheSameFingerprintForTheSameAnalyzerName() {
        // [keyword] is an analyzer of Elasticsearch itself: the node (processor) and every index (field, query) know it
        rest.ok("PUT", "/_ingest/pipeline/ft-simple", """
            {"processors": [{"simhash": {"field": "body", "analyzer": "keyword"}}]}""");
        try {
            rest.ok("PUT", "/ft-analyzers", """
                {"settings": {"index.default_pipeline": "ft-simple", "analysis": {"analyzer": {"my_text": {"type": "custom",
                   "tokenizer": "simhash_smartcn"}}}},
                 "mappings": {"properties": {"body": {"type": "text", "fields": {
                   "simple": {"type": "simhash", "version": "v1", "analyzer": "keyword"},
                   "custom": {"type": "simhash", "version": "v1", "analyzer": "my_text"}}},
                   "simhash": %s}}}""".formatted(Fixtures.FP_MAPPING));
            String text = "The Quick Brown Fox jumps over the LAZY dog, twice: fox-trot";
            rest.ok("PUT", "/ft-analyzers/_doc/1?refresh=true", toJson(Map.of("body", text)));
            Map<String, Object> values = docValues("ft-analyzers", "body.simple", "simhash.hash", "body.custom").get("1");
            assertEquals(((Number) values.get("simhash.hash")).longValue(), SimHash.parse((String) values.get("body.simple")));
            assertEquals(Map.of("1", 1.0), hits("ft-analyzers", ordered("field", "simhash", "text", text, "analyzer", "keyword",
                "max_distance", 0), 10), "the query fingerprints as the processor did");
            assertEquals(Map.of("1", 1.0), hits("ft-analyzers", ordered("field", "body.simple", "text", text, "max_distance", 0), 10));
            assertEquals(Map.of("1", 1.0), hits("ft-analyzers", ordered("field", "body.custom", "text", text, "max_distance", 0), 10),
                "a field may use an analyzer of its index");
            assertNotEquals(values.get("body.simple"), values.get("body.custom"));
            // on a simhash-v1 field the query may repeat the field's options, not contradict them
            assertEquals(Map.of("1", 1.0), hits("ft-analyzers", ordered("field", "body.simple", "text", text, "analyzer", "keyword",
                "max_distance", 0), 10));
            Rest.Answer contradiction = rest.post("/ft-analyzers/_search", toJson(Map.of("query", Map.of("simhash", Map.of(
                "field", "body.simple", "text", text, "analyzer", "standard")))));
            assertEquals(400, contradiction.status(), contradiction.toString());
            assertTrue(contradiction.body().contains("[analyzer] [standard] contradicts the [simhash] field [body.simple]"),
                contradiction.body());
            // the processor cannot see an index's analyzers, so the query on its object form refuses them
            Rest.Answer custom = rest.post("/ft-analyzers/_search", toJson(Map.of("query", Map.of("simhash", Map.of("field", "simhash",
                "text", text, "analyzer", "my_text")))));
            assertEquals(400, custom.status(), custom.toString());
            assertTrue(custom.body().contains("[analyzer] [my_text] is defined in the settings of index [ft-analyzers]"), custom.body());
            Rest.Answer pipeline = rest.call("PUT", "/_ingest/pipeline/ft-custom", """
                {"processors": [{"simhash": {"field": "body", "analyzer": "my_text"}}]}""");
            assertEquals(400, pipeline.status(), pipeline.toString());
            assertTrue(pipeline.body().contains("unknown analyzer [my_text]"), pipeline.body());
        } finally {
            rest.delete("/ft-analyzers");
            rest.call("DELETE", "/_ingest/pipeline/ft-simple", null);
        }
    }
}
