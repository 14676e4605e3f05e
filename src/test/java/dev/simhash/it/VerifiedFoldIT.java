package dev.simhash.it;

import dev.simhash.core.CandidateRadius;
import dev.simhash.core.MinHashSketch;
import dev.simhash.core.SimHash;
import dev.simhash.core.SimHashV2;
import dev.simhash.it.support.RealNodeExtension;
import dev.simhash.it.support.Rest;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static dev.simhash.it.support.Rest.ordered;
import static dev.simhash.it.support.Rest.toJson;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code min_similarity} on {@code _simhash/fold} and {@code _simhash/duplicates} on a real node, over a 3-shard index of
 * texts with near-duplicates of every degree: both equal a client-side computation written independently of the plugin
 * (simhash-v2 fingerprints and minhash-v1 sketches of the indexed texts, candidates sharing a band from 0.78 on and within
 * the threshold's radius below, linked when their estimated similarity reaches the threshold; greedy folding by rank,
 * connected components for the report);
 * the 400s; the report's breaker charge back at its baseline.
 */
@ExtendWith(RealNodeExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class VerifiedFoldIT {

    static final String INDEX = "verified-fold";
    static final String PLAIN = "verified-fold-plain";
    static final double BANDS_FROM = VerifiedCorpus.BANDS_FROM;

    private final Rest rest;
    private final VerifiedCorpus corpus = new VerifiedCorpus(20261126);
    /** Texts by id, and ids in rank order (the rank field sorts them). */
    private final Map<String, String> texts = corpus.texts;
    private final List<String> ids = corpus.ids;

    VerifiedFoldIT(Rest rest) {
        this.rest = rest;
    }

    /** The corpus in a 3-shard index with sketches and in a 1-shard index without. */
    @BeforeAll
    void load() {
        rest.delete("/verified-fold*");
        String mapping = """
            {"settings": {"number_of_shards": %d, "number_of_replicas": 0},
             "mappings": {"properties": {"rank": {"type": "integer"}, "dup_group": {"type": "keyword"},
               "body": {"type": "text", "fields": {"simhash": {"type": "simhash"%s}}}}}}""";
        rest.ok("PUT", "/" + INDEX, mapping.formatted(3, ""));
        rest.ok("PUT", "/" + PLAIN, mapping.formatted(1, ", \"sketch\": \"none\""));
        String bulk = corpus.bulk();
        Rest.Answer a = rest.bulk("/" + INDEX + "/_bulk?refresh=true", bulk);
        assertEquals(200, a.status(), a.toString());
        assertEquals(Boolean.FALSE, a.at("errors"), a.body());
        rest.bulk("/" + PLAIN + "/_bulk?refresh=true", bulk);
    }

    @AfterAll
    void drop() {
        rest.delete("/verified-fold*");
    }

    long hash(String id) {
        return corpus.hash(id);
    }

    double similarity(String a, String b) {
        return corpus.similarity(a, b);
    }

    boolean linked(String a, String b, int radius, double s) {
        return corpus.linked(a, b, radius, s);
    }

    /** One folded hit: its id, how many it absorbed, and its listed members as id@distance@similarity. */
    record Folded(String id, int folded, List<String> members) {}

    /** Greedy folding in rank order: a hit joins the first earlier representative within the radius and the threshold. */
    List<Folded> clientFold(double s) {
        int radius = CandidateRadius.radius(s);
        List<String> reps = new ArrayList<>();
        Map<String, List<String>> members = new HashMap<>();
        Map<String, Integer> folded = new HashMap<>();
        for (String id : ids) {
            String joined = null;
            for (String rep : reps) {
                if (linked(id, rep, radius, s)) {
                    joined = rep;
                    break;
                }
            }
            if (joined == null) {
                reps.add(id);
                members.put(id, new ArrayList<>());
                folded.put(id, 0);
            } else {
                folded.merge(joined, 1, Integer::sum);
                members.get(joined).add(id + "@" + SimHash.distance(hash(id), hash(joined)) + "@" + similarity(id, joined));
            }
        }
        List<Folded> out = new ArrayList<>();
        for (String rep : reps) {
            out.add(new Folded(rep, folded.get(rep), members.get(rep)));
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    static List<Folded> folded(Rest.Answer a) {
        List<Folded> out = new ArrayList<>();
        for (Map<String, Object> h : a.<List<Map<String, Object>>>at("hits.hits")) {
            Map<String, Object> s = (Map<String, Object>) h.get("_simhash");
            List<String> members = new ArrayList<>();
            for (Map<String, Object> m : (List<Map<String, Object>>) s.get("members")) {
                members.add(m.get("_id") + "@" + m.get("distance") + "@" + ((Number) m.get("similarity")).doubleValue());
            }
            out.add(new Folded((String) h.get("_id"), ((Number) s.get("folded")).intValue(), members));
        }
        return out;
    }

    @Test
    void foldEqualsClientSideVerifiedFolding() {
        for (double s : new double[] { 0.5, 0.8, 0.95 }) {
            List<Folded> expected = clientFold(s);
            Rest.Answer a = rest.post("/" + INDEX + "/_simhash/fold?field=body.simhash&min_similarity=" + s + "&window=1000&members=100",
                toJson(ordered("size", 1000, "sort", List.of(Map.of("rank", "asc")), "_source", false)));
            assertEquals(200, a.status(), a.toString());
            assertEquals(expected, folded(a), "min_similarity " + s);
            assertEquals(s, ((Number) a.at("simhash_fold.min_similarity")).doubleValue());
            // the candidate radius is no max_distance a caller may send: a fold by threshold shows no radius
            assertNull(a.at("simhash_fold.max_distance"), a.toString());
            assertEquals(s >= BANDS_FROM ? "bands" : "radius", a.at("simhash_fold.candidates"), a.toString());
            assertEquals(expected.size(), ((Number) a.at("simhash_fold.groups")).intValue());
            assertTrue(expected.size() < ids.size(), "something folds at " + s);
            for (Map<String, Object> h : a.<List<Map<String, Object>>>at("hits.hits")) {
                assertNull(h.get("fields"), "the fold's own read of the fingerprint and sketch is not shown: " + h);
            }
            // a body that reads the fingerprint itself (then the sketches come from a second search): the same fold, and the
            // hits keep the field the body asked for
            Rest.Answer own = rest.post("/" + INDEX + "/_simhash/fold?field=body.simhash&min_similarity=" + s
                + "&window=1000&members=100", toJson(ordered("size", 1000, "sort", List.of(Map.of("rank", "asc")), "_source", false,
                    "docvalue_fields", List.of(Map.of("field", "body.simhash", "format", "long")))));
            assertEquals(200, own.status(), own.toString());
            assertEquals(expected, folded(own), "min_similarity " + s + ", fingerprint read by the body");
            for (Map<String, Object> h : own.<List<Map<String, Object>>>at("hits.hits")) {
                assertEquals(List.of(hash(h.get("_id").toString())), ((Map<?, ?>) h.get("fields")).get("body.simhash"), h.toString());
            }
        }
        // pairs the bands find but the threshold keeps apart exist in this corpus: verification matters here
        boolean apart = false;
        for (int i = 0; i < ids.size() && !apart; i++) {
            for (int j = i + 1; j < ids.size() && !apart; j++) {
                apart = corpus.shareABand(ids.get(i), ids.get(j)) && similarity(ids.get(i), ids.get(j)) < 0.8;
            }
        }
        assertTrue(apart, "the corpus has candidate pairs below the threshold");
    }

    /**
     * What the body asks to fetch never changes the groups: stored fields turned off ({@code _none_}, where hits carry no
     * {@code _id}), with or without {@code docvalue_fields}, the fingerprint asked for in {@code fields} in any of its
     * formats, by the default threshold and an explicit one. The hits show what the body asked for, no more.
     */
    @Test
    void whatTheBodyFetchesDoesNotChangeTheFold() {
        List<Folded> expected = clientFold(MinHashSketch.DEFAULT_MIN_SIMILARITY);
        List<Integer> expectedCounts = expected.stream().map(Folded::folded).toList();
        List<Map<String, Object>> bodies = List.of(
            ordered("stored_fields", "_none_"),
            ordered("stored_fields", "_none_", "docvalue_fields", List.of("rank")),
            ordered("stored_fields", "_none_", "docvalue_fields", List.of(Map.of("field", "body.simhash", "format", "long"))),
            ordered("_source", false, "fields", List.of(Map.of("field", "body.simhash", "format", "minhash-v1"))),
            ordered("_source", false, "fields", List.of(Map.of("field", "body.simhash", "format", "long"))),
            ordered("_source", false, "fields", List.of("body.simhash")));
        for (Map<String, Object> extra : bodies) {
            Map<String, Object> body = ordered("size", 1000, "sort", List.of(Map.of("rank", "asc")));
            body.putAll(extra);
            for (String threshold : new String[] { "", "&min_similarity=" + MinHashSketch.DEFAULT_MIN_SIMILARITY }) {
                String what = extra + threshold;
                Rest.Answer a = rest.post("/" + INDEX + "/_simhash/fold?field=body.simhash&window=1000&members=100" + threshold,
                    toJson(body));
                assertEquals(200, a.status(), what + " " + a);
                assertEquals(expected.size(), ((Number) a.at("simhash_fold.groups")).intValue(), what);
                List<Map<String, Object>> hits = a.at("hits.hits");
                assertEquals(expectedCounts, hits.stream().map(h -> ((Number) ((Map<?, ?>) h.get("_simhash")).get("folded")).intValue())
                    .toList(), what);
                for (int i = 0; i < hits.size(); i++) {
                    Map<String, Object> h = hits.get(i);
                    Map<?, ?> fields = (Map<?, ?>) h.get("fields");
                    if ("_none_".equals(extra.get("stored_fields"))) {
                        assertNull(h.get("_id"), "stored_fields _none_ shows no _id: " + what + " " + h);
                        assertEquals(expected.get(i).members().stream().map(m -> m.substring(0, m.indexOf('@'))).toList(),
                            ((List<?>) ((Map<?, ?>) h.get("_simhash")).get("members")).stream().map(m -> ((Map<?, ?>) m).get("_id"))
                                .toList(), what);
                        if (extra.containsKey("docvalue_fields")) {
                            assertEquals(1, fields.size(), "only what the body asked for: " + what + " " + h);
                        } else {
                            assertNull(fields, what + " " + h);
                        }
                    } else {
                        assertEquals(expected, folded(a), what);
                        Object shown = ((List<?>) fields.get("body.simhash")).get(0);
                        Object format = extra.toString().contains("minhash-v1") ? "minhash-v1" : extra.toString().contains("long") ? "long"
                            : "hex";
                        String id = expected.get(i).id();
                        Object want = switch (format.toString()) {
                            case "minhash-v1" -> java.util.Base64.getEncoder().encodeToString(MinHashSketch.V1.sketch(texts.get(id)));
                            case "long" -> hash(id);
                            default -> String.format(Locale.ROOT, "%016x", hash(id));
                        };
                        assertEquals(want.toString(), shown.toString(), "the field in the body's format: " + what);
                    }
                }
            }
        }
    }

    Set<Set<String>> clientGroups(double s) {
        return corpus.clientGroups(s);
    }

    Set<Set<String>> reportGroups(Map<String, Object> response, double s) {
        return corpus.reportGroups(response);
    }

    @Test
    void reportEqualsConnectedComponentsOfTheVerifiedPairsSyncAndAsync() throws InterruptedException {
        for (double s : new double[] { 0.5, 0.8, 0.95 }) {
            Set<Set<String>> expected = clientGroups(s);
            assertTrue(!expected.isEmpty(), "groups at " + s);
            String body = toJson(ordered("field", "body.simhash", "min_similarity", s, "size", 1000, "max_members", 10000));
            Rest.Answer a = rest.post("/" + INDEX + "/_simhash/duplicates", body);
            assertEquals(200, a.status(), a.toString());
            assertEquals(expected, reportGroups(a.json(), s), "min_similarity " + s);
            assertEquals(expected.size(), ((Number) a.at("groups_total")).intValue());
            assertEquals(s, ((Number) a.at("min_similarity")).doubleValue());
            // a report by threshold shows which rule found its candidates, and no max_distance: the radius of 0.5 is no
            // max_distance a caller could send, and from 0.78 on no radius is used at all
            assertNull(a.at("max_distance"), a.toString());
            assertEquals(s >= BANDS_FROM ? "bands" : "radius", a.at("candidates"), a.toString());
            assertTrue(((Number) a.at("peak_memory_bytes")).longValue() >= (long) ids.size() * MinHashSketch.BYTES,
                "the sketches are charged: " + a.at("peak_memory_bytes"));
        }
        // the same report in the background
        String body = toJson(ordered("field", "body.simhash", "min_similarity", 0.8, "size", 1000, "max_members", 10000));
        Rest.Answer started = rest.post("/" + INDEX + "/_simhash/duplicates?wait_for_completion=false", body);
        assertEquals(200, started.status(), started.toString());
        String id = started.at("id");
        Rest.Answer done = null;
        for (int i = 0; i < 300; i++) {
            done = rest.get("/_simhash/duplicates/" + id);
            if (Boolean.FALSE.equals(done.at("is_running"))) {
                break;
            }
            Thread.sleep(100);
        }
        assertEquals("completed", done.at("state"), done.toString());
        Map<String, Object> kept = done.at("response");
        assertEquals(clientGroups(0.8), reportGroups(kept, 0.8));
        rest.delete("/_simhash/duplicates/" + id);
    }

    @Test
    void refusesBothThresholdsBadValuesAndFieldsWithoutSketches() {
        Map<String, String> fold = Map.of(
            "/" + INDEX + "/_simhash/fold?field=body.simhash&min_similarity=0.8&max_distance=3", "[min_similarity] and [max_distance]",
            "/" + INDEX + "/_simhash/fold?field=body.simhash&min_similarity=0", "[min_similarity] must be greater than 0",
            "/" + INDEX + "/_simhash/fold?field=body.simhash&min_similarity=2", "[min_similarity] must be greater than 0",
            "/" + PLAIN + "/_simhash/fold?field=body.simhash&min_similarity=0.8", "[min_similarity] needs similarity sketches",
            "/" + INDEX + "," + PLAIN + "/_simhash/fold?field=body.simhash&min_similarity=0.8", "indices [" + PLAIN + "]");
        for (Map.Entry<String, String> c : fold.entrySet()) {
            Rest.Answer a = rest.post(c.getKey(), "{}");
            assertEquals(400, a.status(), c.getKey() + " " + a);
            assertTrue(a.body().contains(c.getValue()), c.getKey() + " " + a);
        }
        Map<String, String> report = Map.of(
            INDEX, "{\"field\": \"body.simhash\", \"min_similarity\": 0.8, \"max_distance\": 3}",
            PLAIN, "{\"field\": \"body.simhash\", \"min_similarity\": 0.8}",
            INDEX + "," + PLAIN, "{\"field\": \"body.simhash\", \"min_similarity\": 0.8}",
            INDEX + "/", "{\"field\": \"body.simhash\", \"min_similarity\": 1.5}");
        Map<String, String> expected = Map.of(INDEX, "[min_similarity] and [max_distance]", PLAIN, "[min_similarity] needs similarity sketches",
            INDEX + "," + PLAIN, "indices [" + PLAIN + "]", INDEX + "/", "[min_similarity] must be greater than 0");
        for (Map.Entry<String, String> c : report.entrySet()) {
            String path = "/" + (c.getKey().endsWith("/") ? c.getKey().substring(0, c.getKey().length() - 1) : c.getKey());
            Rest.Answer a = rest.post(path + "/_simhash/duplicates", c.getValue());
            assertEquals(400, a.status(), c + " " + a);
            assertTrue(a.body().contains(expected.get(c.getKey())), c + " " + a);
        }
    }

    @Test
    void withNeitherThresholdFieldsWithSketchesUseTheDefaultThreshold() {
        double s = MinHashSketch.DEFAULT_MIN_SIMILARITY;
        String search = toJson(ordered("size", 1000, "sort", List.of(Map.of("rank", "asc")), "_source", false));
        Rest.Answer fold = rest.post("/" + INDEX + "/_simhash/fold?field=body.simhash&window=1000&members=100", search);
        assertEquals(200, fold.status(), fold.toString());
        assertEquals(s, ((Number) fold.at("simhash_fold.min_similarity")).doubleValue());
        assertNull(fold.at("simhash_fold.max_distance"), "the threshold decided, not a radius: " + fold);
        assertEquals(clientFold(s), folded(fold));
        Rest.Answer report = rest.post("/" + INDEX + "/_simhash/duplicates", toJson(ordered("field", "body.simhash", "size", 1000,
            "max_members", 10000)));
        assertEquals(200, report.status(), report.toString());
        assertEquals(s, ((Number) report.at("min_similarity")).doubleValue());
        assertNull(report.at("max_distance"), "the threshold decided, not a radius: " + report);
        assertEquals(clientGroups(s), reportGroups(report.json(), s));
        // an index without sketches among the targets: the version's radius, as before (no threshold)
        Rest.Answer mixed = rest.post("/" + INDEX + "," + PLAIN + "/_simhash/duplicates", toJson(ordered("field", "body.simhash")));
        assertEquals(200, mixed.status(), mixed.toString());
        assertNull(mixed.at("min_similarity"), mixed.toString());
        assertEquals(SimHashV2.DEFAULT_MAX_DISTANCE, ((Number) mixed.at("max_distance")).intValue());
        Rest.Answer plainFold = rest.post("/" + PLAIN + "/_simhash/fold?field=body.simhash", search);
        assertEquals(200, plainFold.status(), plainFold.toString());
        assertNull(plainFold.at("simhash_fold.min_similarity"), plainFold.toString());
        assertEquals(SimHashV2.DEFAULT_MAX_DISTANCE, ((Number) plainFold.at("simhash_fold.max_distance")).intValue());
    }

    @Test
    void writeGroupIdWritesOneIdPerVerifiedGroup() {
        double s = 0.8;
        Rest.Answer a = rest.post("/" + INDEX + "/_simhash/duplicates", toJson(ordered("field", "body.simhash", "min_similarity", s,
            "write_group_id", "dup_group", "overwrite_group_id", true)));
        assertEquals(200, a.status(), a.toString());
        rest.ok("POST", "/" + INDEX + "/_refresh", null);
        Rest.Answer docs = rest.ok("POST", "/" + INDEX + "/_search", toJson(ordered("size", 1000, "_source", false,
            "docvalue_fields", List.of("dup_group"))));
        Map<String, Set<String>> byGroupId = new HashMap<>();
        for (Map<String, Object> h : docs.<List<Map<String, Object>>>at("hits.hits")) {
            @SuppressWarnings("unchecked")
            Map<String, List<Object>> fields = (Map<String, List<Object>>) h.get("fields");
            String group = (String) fields.get("dup_group").get(0);
            byGroupId.computeIfAbsent(group, k -> new TreeSet<>()).add((String) h.get("_id"));
        }
        // documents share a group id exactly when they are in one connected component of the verified pairs
        Set<Set<String>> groups = new HashSet<>();
        int singletons = 0;
        for (Set<String> members : byGroupId.values()) {
            if (members.size() > 1) {
                groups.add(members);
            } else {
                singletons++;
            }
        }
        Set<Set<String>> expected = clientGroups(s);
        assertEquals(expected, groups);
        int grouped = expected.stream().mapToInt(Set::size).sum();
        assertEquals(ids.size() - grouped, singletons, "every other document has an id of its own");
    }

    @Test
    void theReportsBreakerChargeReturnsToItsBaseline() throws InterruptedException {
        long baseline = requestBreakerBytes();
        Rest.Answer a = rest.post("/" + INDEX + "/_simhash/duplicates", toJson(ordered("field", "body.simhash", "min_similarity", 0.8)));
        assertEquals(200, a.status(), a.toString());
        assertTrue(((Number) a.at("peak_memory_bytes")).longValue() > 0);
        long now = requestBreakerBytes();
        for (int i = 0; i < 50 && now != baseline; i++) {
            Thread.sleep(100);
            now = requestBreakerBytes();
        }
        assertEquals(baseline, now, "the request breaker after the report");
    }

    private long requestBreakerBytes() {
        Map<String, Object> nodes = rest.ok("GET", "/_nodes/stats/breaker", null).at("nodes");
        @SuppressWarnings("unchecked")
        Map<String, Object> node = (Map<String, Object>) nodes.values().iterator().next();
        return ((Number) new Rest.Answer(200, toJson(node)).at("breakers.request.estimated_size_in_bytes")).longValue();
    }
}
