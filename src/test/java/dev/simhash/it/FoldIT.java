package dev.simhash.it;

import dev.simhash.core.SimHash;
import dev.simhash.it.support.RealNodeExtension;
import dev.simhash.it.support.Rest;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static dev.simhash.it.support.Rest.ordered;
import static dev.simhash.it.support.Rest.toJson;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code _simhash/fold} on a real 3-shard index: equal to greedy folding of the same ranked hits, paging, window, errors. */
@ExtendWith(RealNodeExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FoldIT {

    static final String INDEX = "collapse-fold";

    private final Rest rest;
    private final CollapseCorpus corpus = CollapseCorpus.planted(606, 1500, 25, 6);

    FoldIT(Rest rest) {
        this.rest = rest;
    }

    @BeforeAll
    void load() {
        rest.delete("/collapse-fold*");
        corpus.load(rest, INDEX, 3, null);
    }

    @AfterAll
    void drop() {
        rest.delete("/collapse-fold*");
    }

    /** One folded hit as the test compares it: id, folded count, listed members with distances. */
    record Folded(String id, int folded, List<String> members) {}

    /** The ranked hits of a plain _search with the same body: ids and fingerprints (null: none). */
    List<Map.Entry<String, Long>> ranked(Map<String, Object> body, int window) {
        Map<String, Object> search = new LinkedHashMap<>(body);
        search.put("size", window);
        search.put("from", 0);
        search.put("docvalue_fields", List.of("simhash.hash"));
        search.put("_source", false);
        Rest.Answer a = rest.ok("POST", "/" + INDEX + "/_search", toJson(search));
        List<Map<String, Object>> hits = a.at("hits.hits");
        List<Map.Entry<String, Long>> out = new ArrayList<>();
        for (Map<String, Object> h : hits) {
            @SuppressWarnings("unchecked")
            Map<String, List<Object>> fields = (Map<String, List<Object>>) h.get("fields");
            Long hash = fields == null || fields.get("simhash.hash") == null ? null : ((Number) fields.get("simhash.hash").get(0)).longValue();
            out.add(new AbstractMap.SimpleImmutableEntry<>((String) h.get("_id"), hash));
        }
        return out;
    }

    /** Client-side greedy folding by rank, written independently of the plugin. */
    static List<Folded> greedy(List<Map.Entry<String, Long>> ranked, int r, int members) {
        List<Integer> reps = new ArrayList<>();
        Map<Integer, List<String>> listed = new LinkedHashMap<>();
        Map<Integer, Integer> folded = new LinkedHashMap<>();
        for (int i = 0; i < ranked.size(); i++) {
            Long h = ranked.get(i).getValue();
            Integer joined = null;
            if (h != null) {
                for (int rep : reps) {
                    Long rh = ranked.get(rep).getValue();
                    if (rh != null && SimHash.distance(h, rh) <= r) {
                        joined = rep;
                        break;
                    }
                }
            }
            if (joined == null) {
                reps.add(i);
                listed.put(i, new ArrayList<>());
                folded.put(i, 0);
            } else {
                folded.merge(joined, 1, Integer::sum);
                if (listed.get(joined).size() < members) {
                    listed.get(joined).add(ranked.get(i).getKey() + "@" + SimHash.distance(h, ranked.get(joined).getValue()));
                }
            }
        }
        List<Folded> out = new ArrayList<>();
        for (int rep : reps) {
            out.add(new Folded(ranked.get(rep).getKey(), folded.get(rep), listed.get(rep)));
        }
        return out;
    }

    Rest.Answer fold(String params, Map<String, Object> body) {
        return rest.post("/" + INDEX + "/_simhash/fold?" + params, toJson(body));
    }

    static List<Folded> folded(Rest.Answer a) {
        List<Map<String, Object>> hits = a.at("hits.hits");
        List<Folded> out = new ArrayList<>();
        for (Map<String, Object> h : hits) {
            @SuppressWarnings("unchecked")
            Map<String, Object> s = (Map<String, Object>) h.get("_simhash");
            List<String> members = new ArrayList<>();
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> listed = (List<Map<String, Object>>) s.getOrDefault("members", List.of());
            for (Map<String, Object> m : listed) {
                members.add(m.get("_id") + "@" + m.get("distance"));
            }
            out.add(new Folded((String) h.get("_id"), ((Number) s.get("folded")).intValue(), members));
        }
        return out;
    }


    @Test
    void equalsClientSideGreedyFoldingOfTheSameRankedHits() {
        long base = corpus.docs.stream().filter(d -> d.hash() != null).findFirst().orElseThrow().hash();
        List<Map<String, Object>> bodies = List.of(
            ordered("query", Map.of("match_all", Map.of()), "sort", List.of(Map.of("rank", "asc"))),
            ordered("query", Map.of("term", Map.of("tag", "a")), "sort", List.of(Map.of("rank", "desc"))),
            ordered("query", Map.of("simhash", Map.of("field", "simhash", "hash", SimHash.toHex(base), "max_distance", 14))),
            ordered("query", Map.of("bool", Map.of("should", List.of(Map.of("range", Map.of("rank", Map.of("lt", 400))),
                Map.of("term", Map.of("tag", "b")))))));
        int[][] settings = { { 3, 300, 3 }, { 5, 500, 0 }, { 0, 100, 100 }, { 8, 1000, 2 } };
        int foldedHits = 0;
        for (Map<String, Object> b : bodies) {
            for (int[] s : settings) {
                int r = s[0];
                int window = s[1];
                int members = s[2];
                List<Folded> expected = greedy(ranked(b, window), r, members);
                Map<String, Object> withPage = new LinkedHashMap<>(b);
                withPage.put("size", window);
                Rest.Answer a = fold("field=simhash&max_distance=" + r + "&window=" + window + "&members=" + members, withPage);
                assertEquals(200, a.status(), a.toString());
                List<Folded> actual = folded(a);
                assertEquals(expected, actual, "body " + toJson(b) + " r=" + r + " window=" + window);
                assertEquals(expected.size(), ((Number) a.at("simhash_fold.groups")).intValue());
                int considered = ((Number) a.at("simhash_fold.considered")).intValue();
                assertEquals(ranked(b, window).size(), considered);
                foldedHits += considered - expected.size();
            }
        }
        assertTrue(foldedHits > 500, "the planted groups must fold many hits, folded " + foldedHits);
    }

    @Test
    void pagesOfTheFoldedListConcatenateToTheWholeList() {
        Map<String, Object> b = ordered("query", Map.of("match_all", Map.of()), "sort", List.of(Map.of("rank", "asc")));
        List<Folded> whole = greedy(ranked(b, 400), 4, 1);
        List<Folded> paged = new ArrayList<>();
        for (int from = 0; ; from += 7) {
            Map<String, Object> page = new LinkedHashMap<>(b);
            page.put("from", from);
            page.put("size", 7);
            Rest.Answer a = fold("field=simhash&max_distance=4&window=400&members=1", page);
            assertEquals(200, a.status(), a.toString());
            List<Folded> hits = folded(a);
            if (hits.isEmpty()) {
                assertTrue(from >= whole.size(), "a page beyond the groups is empty, and only then");
                break;
            }
            paged.addAll(hits);
        }
        assertEquals(whole, paged);
        // URL from/size as in _search
        Rest.Answer url = rest.post("/" + INDEX + "/_simhash/fold?field=simhash&max_distance=4&window=400&members=1&from=7&size=7",
            toJson(b));
        assertEquals(whole.subList(7, 14), folded(url));
    }

    @Test
    void onlyTheWindowIsFolded() {
        // the top hit and a near-duplicate ranked just beyond the window
        Map<String, Object> b = ordered("query", Map.of("match_all", Map.of()), "sort", List.of(Map.of("rank", "asc")));
        List<Map.Entry<String, Long>> all = ranked(b, 1500);
        int window = 50;
        List<Folded> expected = greedy(all.subList(0, window), 6, 0);
        Rest.Answer a = fold("field=simhash&max_distance=6&window=" + window, ordered("query", Map.of("match_all", Map.of()),
            "sort", List.of(Map.of("rank", "asc")), "size", 1000));
        assertEquals(expected, folded(a));
        assertEquals(window, ((Number) a.at("simhash_fold.considered")).intValue());
        assertEquals(1500, ((Number) a.at("hits.total.value")).intValue(), "hits.total is the inner search's total");
        // folding the whole list absorbs more hits into the same representatives
        int inWindow = folded(a).stream().mapToInt(Folded::folded).sum();
        List<Folded> wide = greedy(all, 6, 0);
        int wideFolded = wide.stream().filter(f -> expected.stream().anyMatch(e -> e.id().equals(f.id()))).mapToInt(Folded::folded).sum();
        assertTrue(wideFolded > inWindow, "near-duplicates beyond the window are not folded: " + wideFolded + " vs " + inWindow);
    }

    @Test
    void responseLooksLikeASearchResponse() {
        Rest.Answer a = fold("field=simhash&members=2", ordered("query", Map.of("match_all", Map.of()), "sort", List.of(Map.of("rank", "asc")),
            "_source", List.of("rank")));
        assertEquals(200, a.status(), a.toString());
        assertTrue(a.json().get("took") instanceof Number);
        assertEquals(Boolean.FALSE, a.at("timed_out"));
        assertEquals(3, ((Number) a.at("_shards.total")).intValue());
        assertEquals(3, ((Number) a.at("_shards.successful")).intValue());
        assertEquals("eq", a.at("hits.total.relation"));
        List<Map<String, Object>> hits = a.at("hits.hits");
        assertEquals(10, hits.size(), "default size 10");
        Map<String, Object> first = hits.get(0);
        assertEquals(INDEX, first.get("_index"));
        assertEquals(Map.of("rank", 0), first.get("_source"));
        assertNull(first.get("fields"), "the fingerprint doc values the fold adds are not shown unless requested");
        assertEquals(List.of(0), first.get("sort"));
        Map<String, Object> fold = a.at("simhash_fold");
        assertEquals(Map.of("field", "simhash", "max_distance", 3, "window", 100, "considered", 100, "groups", fold.get("groups")), fold);

        Rest.Answer withFields = fold("field=simhash", ordered("query", Map.of("match_all", Map.of()), "sort", List.of(Map.of("rank", "asc")),
            "docvalue_fields", List.of("simhash.hash", "rank")));
        Map<String, Object> hit = withFields.at("hits.hits.0");
        @SuppressWarnings("unchecked")
        Map<String, Object> fields = (Map<String, Object>) hit.get("fields");
        assertTrue(fields.containsKey("simhash.hash") && fields.containsKey("rank"), fields.toString());
    }

    @Test
    void hitsWithoutFingerprintAreNeverFolded() {
        Map<String, Object> b = ordered("query", Map.of("bool", Map.of("must_not", List.of(Map.of("exists", Map.of("field", "simhash.hash"))))),
            "sort", List.of(Map.of("rank", "asc")), "size", 100);
        Rest.Answer a = fold("field=simhash&max_distance=64&window=100", b);
        List<Map<String, Object>> hits = a.at("hits.hits");
        long noFp = corpus.docs.stream().filter(d -> d.hash() == null).count();
        assertTrue(noFp > 10);
        assertEquals(Math.min(100, noFp), hits.size(), "r=64 would fold every fingerprinted hit; these have none");
        for (Map<String, Object> h : hits) {
            assertEquals(Map.of("folded", 0), h.get("_simhash"));
        }
        // and with fingerprints, r=64 folds everything into the first hit that has one
        Rest.Answer all = fold("field=simhash&max_distance=64&window=200", ordered("sort", List.of(Map.of("rank", "asc")), "size", 200));
        long fingerprinted = folded(all).stream().filter(f -> f.folded() > 0).count();
        assertEquals(1, fingerprinted);
    }

    @Test
    void getWithoutBodyAllIndicesAndUrlQuery() {
        Rest.Answer get = rest.get("/" + INDEX + "/_simhash/fold?field=simhash");
        assertEquals(200, get.status(), get.toString());
        assertEquals(100, ((Number) get.at("simhash_fold.considered")).intValue());
        Rest.Answer q = rest.get("/" + INDEX + "/_simhash/fold?field=simhash&q=tag:a&sort=rank:asc&size=3");
        assertEquals(200, q.status(), q.toString());
        List<Map<String, Object>> hits = q.at("hits.hits");
        assertEquals(3, hits.size());
        hits.forEach(h -> assertEquals("a", ((Map<?, ?>) h.get("_source")).get("tag")));
        Rest.Answer everywhere = rest.post("/_simhash/fold?field=simhash", toJson(ordered("query",
            Map.of("term", Map.of("_index", INDEX)), "sort", List.of(Map.of("rank", "asc")))));
        assertEquals(200, everywhere.status(), everywhere.toString());
        assertEquals(folded(fold("field=simhash", ordered("sort", List.of(Map.of("rank", "asc"))))), folded(everywhere));
    }

    @Test
    void otherSearchFeaturesPassThrough() {
        // collapse: the inner search returns one hit per tag, and those are folded
        Rest.Answer collapsed = fold("field=simhash&max_distance=64", ordered("collapse", Map.of("field", "tag"),
            "sort", List.of(Map.of("rank", "asc"))));
        assertEquals(200, collapsed.status(), collapsed.toString());
        assertEquals(2, ((Number) collapsed.at("simhash_fold.considered")).intValue());
        // explain
        Rest.Answer explained = fold("field=simhash", ordered("explain", true, "query", Map.of("term", Map.of("tag", "a")), "size", 1));
        assertTrue(((Map<?, ?>) explained.at("hits.hits.0")).containsKey("_explanation"), explained.toString());
        // a point in time: same folded list as the index route, and the response carries pit_id
        Rest.Answer pit = rest.ok("POST", "/" + INDEX + "/_pit?keep_alive=1m", null);
        String id = pit.at("id");
        Map<String, Object> sorted = ordered("sort", List.of(Map.of("rank", "asc")), "size", 20);
        Map<String, Object> withPit = new LinkedHashMap<>(sorted);
        withPit.put("pit", Map.of("id", id, "keep_alive", "1m"));
        Rest.Answer viaPit = rest.post("/_simhash/fold?field=simhash&max_distance=5", toJson(withPit));
        assertEquals(200, viaPit.status(), viaPit.toString());
        assertTrue(viaPit.json().get("pit_id") instanceof String, viaPit.toString());
        assertEquals(folded(fold("field=simhash&max_distance=5", sorted)), folded(viaPit));
        rest.call("DELETE", "/_pit", toJson(Map.of("id", id)));
    }

    /**
     * The response byte for byte (with {@code took} masked), compared with answers recorded before the fold became a
     * transport action: key order, number formats, which keys appear (hits without a fingerprint, no {@code members}
     * by default, no {@code hits.total} without total tracking, docvalue fields kept when the body asks for them).
     */
    @Test
    void responseIsExactlyAsRecorded() throws IOException {
        Map<String, String> requests = new LinkedHashMap<>();
        Map<String, Object> byRank = ordered("query", Map.of("range", Map.of("rank", Map.of("lt", 60))), "sort",
            List.of(Map.of("rank", "asc")), "_source", List.of("rank"));
        requests.put("members", "field=simhash&max_distance=5&members=3|" + toJson(byRank));
        Map<String, Object> paged = new LinkedHashMap<>(byRank);
        paged.put("from", 2);
        paged.put("size", 3);
        paged.put("track_total_hits", false);
        paged.put("docvalue_fields", List.of("simhash.hash"));
        requests.put("paged", "field=simhash&max_distance=8&window=40|" + toJson(paged));
        requests.put("scored", "field=simhash&max_distance=4&members=2&window=30|" + toJson(ordered("query", Map.of("function_score",
            Map.of("query", Map.of("term", Map.of("tag", "a")), "field_value_factor", Map.of("field", "rank"), "boost_mode", "replace")),
            "_source", false, "size", 4)));
        requests.put("empty", "field=simhash|" + toJson(ordered("query", Map.of("term", Map.of("tag", "none")))));
        Path actualDir = Path.of("target", "fold-recorded");
        Files.createDirectories(actualDir);
        Map<String, String> answers = new LinkedHashMap<>();
        for (Map.Entry<String, String> r : requests.entrySet()) {
            String[] parts = r.getValue().split("\\|", 2);
            Rest.Answer a = fold(parts[0], parts[1]);
            assertEquals(200, a.status(), a.toString());
            String actual = a.body().replaceFirst("^\\{\"took\":\\d+,", "{\"took\":0,");
            Files.writeString(actualDir.resolve(r.getKey() + ".json"), actual);
            answers.put(r.getKey(), actual);
        }
        for (Map.Entry<String, String> r : answers.entrySet()) {
            try (InputStream expected = FoldIT.class.getResourceAsStream("fold-recorded/" + r.getKey() + ".json")) {
                assertTrue(expected != null, "no recorded answer for " + r.getKey() + "; this run's is in " + actualDir);
                assertEquals(new String(expected.readAllBytes(), StandardCharsets.UTF_8).strip(), r.getValue(), r.getKey());
            }
        }
    }

    Rest.Answer fold(String params, String body) {
        return rest.post("/" + INDEX + "/_simhash/fold?" + params, body);
    }

    @Test
    void invalidParametersAnswer400NamingThem() {
        rest.ok("PUT", "/collapse-fold-wrong", "{\"mappings\": {\"properties\": {\"simhash\": {\"properties\": "
            + "{\"hash\": {\"type\": \"keyword\"}}}, \"body\": {\"type\": \"text\"}}}}");
        String all = toJson(ordered("query", Map.of("match_all", Map.of())));
        Map<String, String> cases = new LinkedHashMap<>();
        // the hint names the field type first (the processor's object is the legacy form)
        cases.put("/" + INDEX + "/_simhash/fold", "[field] is required: the [simhash] field to read fingerprints from, e.g. [body.simhash]");
        cases.put("/" + INDEX + "/_simhash/fold?field=", "[field] is required: the [simhash] field to read fingerprints from");
        cases.put("/" + INDEX + "/_simhash/fold?field=simhash&max_distance=70", "[max_distance] must be between 0 and 64, got [70]");
        cases.put("/" + INDEX + "/_simhash/fold?field=simhash&max_distance=-1", "[max_distance] must be between 0 and 64, got [-1]");
        cases.put("/" + INDEX + "/_simhash/fold?field=simhash&max_distance=abc", "[max_distance] must be an integer, got [abc]");
        cases.put("/" + INDEX + "/_simhash/fold?field=simhash&window=0", "[window] must be between 1 and 10000, got [0]");
        cases.put("/" + INDEX + "/_simhash/fold?field=simhash&window=10001", "[window] must be between 1 and 10000, got [10001]");
        cases.put("/" + INDEX + "/_simhash/fold?field=simhash&members=101", "[members] must be between 0 and 100, got [101]");
        cases.put("/" + INDEX + "/_simhash/fold?field=simhash&members=2.5", "[members] must be an integer, got [2.5]");
        cases.put("/" + INDEX + "/_simhash/fold?field=simhash&bogus=1", "unrecognized parameter: [bogus]");
        cases.put("/" + INDEX + "/_simhash/fold?field=simhash&scroll=1m", "[scroll] is not supported");
        cases.put("/" + INDEX + "/_simhash/fold?field=body", "[field] [body] is a [text] field");
        cases.put("/" + INDEX + "/_simhash/fold?field=nope", "[field] [nope] is neither a [simhash] field nor a fingerprint object");
        cases.put("/collapse-fold-wrong/_simhash/fold?field=simhash", "[field] [simhash.hash] must be mapped as [long] with doc values, found [keyword]");
        for (Map.Entry<String, String> c : cases.entrySet()) {
            Rest.Answer a = rest.post(c.getKey(), all);
            assertEquals(400, a.status(), c.getKey() + " -> " + a);
            assertTrue(a.body().contains(c.getValue().replace("\"", "\\\"")), c.getKey() + " -> " + a);
        }
        Map<String, String> bodies = new LinkedHashMap<>();
        bodies.put(toJson(ordered("search_after", List.of(1))), "[search_after] is not supported");
        bodies.put(toJson(ordered("aggs", Map.of("t", Map.of("terms", Map.of("field", "tag"))))), "[aggs] is not supported");
        bodies.put(toJson(ordered("profile", true)), "[profile] is not supported");
        bodies.put(toJson(ordered("size", -1)), "[size]");
        bodies.put(toJson(ordered("bogus", 1)), "[bogus]");
        bodies.put("{\"query\": ", "");
        bodies.put(toJson(ordered("query", Map.of("simhash", Map.of("field", "simhash", "hash", "xyz")))), "[hash]");
        for (Map.Entry<String, String> c : bodies.entrySet()) {
            Rest.Answer a = rest.post("/" + INDEX + "/_simhash/fold?field=simhash", c.getKey());
            assertEquals(400, a.status(), c.getKey() + " -> " + a);
            assertTrue(a.body().contains(c.getValue()), c.getKey() + " -> " + a);
        }
        Rest.Answer missing = rest.post("/collapse-fold-missing/_simhash/fold?field=simhash", all);
        assertEquals(404, missing.status(), missing.toString());
        rest.delete("/collapse-fold-wrong");
        Rest.Answer health = rest.get("/_cluster/health/" + INDEX + "?wait_for_status=green&timeout=10s");
        assertEquals("green", health.at("status"));
        assertFalse(health.body().contains("\"timed_out\":true"));
    }
}
