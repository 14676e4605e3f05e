package dev.simhash.it;

import dev.simhash.it.CollapseCorpus.Doc;
import dev.simhash.it.DuplicatesIT.Group;
import dev.simhash.it.FoldIT.Folded;
import dev.simhash.it.support.Fixtures;
import dev.simhash.it.support.RealNodeExtension;
import dev.simhash.it.support.Rest;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static dev.simhash.it.DuplicatesIT.assertSameGroups;
import static dev.simhash.it.support.Rest.ordered;
import static dev.simhash.it.support.Rest.toJson;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Unusual but legitimate requests that used to get wrong answers. A fingerprint with a control character or
 * surrounding whitespace is a 400 naming [hash] wherever it is parsed; the report and the fold work on indices with a
 * small {@code index.max_result_window}; a fold with a point in time checks the mappings of the point in time's indices
 * only; script compile errors name [source]. Expected values come from the corpus, never from the plugin.
 */
@ExtendWith(RealNodeExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class UnusualRequestsIT {

    static final String FP_INDEX = "unusual-fp";
    static final String SMALL_WINDOW = "unusual-window20";
    static final String DEFAULT_WINDOW = "unusual-window-default";
    static final String CONFLICTING = "unusual-conflicting";
    static final long STORED = 0x0123456789abcdefL;
    static final String STORED_HEX = "0123456789abcdef";

    private final Rest rest;
    private final CollapseCorpus corpus = CollapseCorpus.planted(1717, 600, 20, 5);

    UnusualRequestsIT(Rest rest) {
        this.rest = rest;
    }

    @BeforeAll
    void setUp() {
        rest.delete("/unusual-*");
        rest.ok("PUT", "/" + FP_INDEX, Fixtures.objectFormIndex(1));
        rest.ok("PUT", "/" + FP_INDEX + "/_doc/stored?refresh=true",
            toJson(Map.of("body", "x", "simhash", Fixtures.storedForm(STORED))));
        corpus.load(rest, SMALL_WINDOW, 2, null);
        rest.ok("PUT", "/" + SMALL_WINDOW + "/_settings", "{\"index.max_result_window\": 20}");
        corpus.load(rest, DEFAULT_WINDOW, 2, null);
        // another index on the node with the fingerprint's hash mapped as keyword (e.g. someone else's data)
        rest.ok("PUT", "/" + CONFLICTING, "{\"mappings\": {\"properties\": {\"simhash\": {\"properties\": "
            + "{\"hash\": {\"type\": \"keyword\"}}}, \"rank\": {\"type\": \"integer\"}}}}");
        rest.ok("PUT", "/" + CONFLICTING + "/_doc/1?refresh=true", "{\"simhash\": {\"hash\": \"abc\"}, \"rank\": 1}");
    }

    @AfterAll
    void tearDown() {
        rest.delete("/unusual-*");
    }

    private static void assert400Naming(Rest.Answer a, String parameter, String what) {
        assertEquals(400, a.status(), what + " -> " + a);
        assertTrue(a.body().contains(parameter), what + ": expected " + parameter + " in " + a);
    }

    // ---- item 1: a fingerprint string is exactly 16 hex digits or a signed decimal, everywhere ----

    static final List<String> MALFORMED = List.of(
        STORED_HEX + "\u0000", "\u0000" + STORED_HEX, STORED_HEX + "\n", "\t" + STORED_HEX, " " + STORED_HEX, STORED_HEX + " ",
        STORED_HEX + "\u00a0", "\u3000" + STORED_HEX, STORED_HEX + "\u200b", " 81985529216486895", "+81985529216486895",
        "\uff10\uff11\uff12", STORED_HEX + "0", "0x" + STORED_HEX.substring(2));

    private Map<String, Object> scriptScore(Object hash) {
        return Map.of("query", Map.of("script_score", Map.of("query", Map.of("match_all", Map.of()),
            "script", Map.of("lang", "simhash", "source", "similarity", "params", Map.of("field", "simhash", "hash", hash)))));
    }

    @Test
    void malformedFingerprintsAre400NamingHashInTheQueryScriptParamsAndFold() {
        for (String bad : MALFORMED) {
            String shown = bad.replace("\u0000", "\\u0000").replace("\n", "\\n").replace("\t", "\\t");
            Map<String, Object> query = Map.of("simhash", Map.of("field", "simhash", "hash", bad, "max_distance", 0));
            assert400Naming(rest.post("/" + FP_INDEX + "/_search", toJson(Map.of("query", query))), "[hash]", "query [" + shown + "]");
            assert400Naming(rest.post("/" + FP_INDEX + "/_search", toJson(scriptScore(bad))), "[hash]", "script params [" + shown + "]");
            assert400Naming(rest.post("/" + FP_INDEX + "/_simhash/fold?field=simhash", toJson(Map.of("query", query))), "[hash]",
                "fold query [" + shown + "]");
        }
        // a NUL in the hash is shown in the message, not swallowed
        Rest.Answer nul = rest.post("/" + FP_INDEX + "/_search",
            toJson(Map.of("query", Map.of("simhash", Map.of("field", "simhash", "hash", STORED_HEX + "\u0000")))));
        assertTrue(nul.body().contains("got [" + STORED_HEX + "\\\\u0000]"), nul.toString());

        // the well-formed values still work, in both forms (81985529216486895 is 0x0123456789abcdef in decimal)
        for (String good : List.of(STORED_HEX, STORED_HEX.toUpperCase(Locale.ROOT), "81985529216486895")) {
            Rest.Answer a = rest.post("/" + FP_INDEX + "/_search",
                toJson(Map.of("query", Map.of("simhash", Map.of("field", "simhash", "hash", good, "max_distance", 0)))));
            assertEquals(200, a.status(), a.toString());
            assertEquals(List.of("stored"), Fixtures.ids(a), good);
            Rest.Answer s = rest.post("/" + FP_INDEX + "/_search", toJson(scriptScore(good)));
            assertEquals(200, s.status(), s.toString());
            assertEquals(1.0, ((Number) s.at("hits.hits.0._score")).doubleValue(), 0.0, "similarity to itself");
        }
    }

    @Test
    void foldReadsFingerprintsRenderedWithAFormatOrSaysItCannot() {
        // a format that renders the long as a plain decimal: read as decimal (16 digits are not hex here)
        Rest.Answer plain = rest.post("/" + FP_INDEX + "/_simhash/fold?field=simhash",
            toJson(Map.of("docvalue_fields", List.of(Map.of("field", "simhash.hash", "format", "#")))));
        assertEquals(200, plain.status(), plain.toString());
        assertEquals(STORED_HEX, plain.at("hits.hits.0._simhash.hash"), plain.toString());
        // a format that makes it unreadable: an error naming the parameter, not a hit silently left unfolded
        Rest.Answer unreadable = rest.post("/" + FP_INDEX + "/_simhash/fold?field=simhash",
            toJson(Map.of("docvalue_fields", List.of(Map.of("field", "simhash.hash", "format", "0.0")))));
        assert400Naming(unreadable, "[docvalue_fields]", "format 0.0");
    }

    // ---- item 2: index.max_result_window ----

    @Test
    void theSmallWindowIsReallyThere() {
        Rest.Answer a = rest.post("/" + SMALL_WINDOW + "/_search", toJson(Map.of("size", 21)));
        assertEquals(400, a.status(), a.toString());
        assertTrue(a.body().contains("Result window is too large"), a.toString());
    }

    private List<Group> report(String index, int r) {
        Rest.Answer a = rest.post("/" + index + "/_simhash/duplicates",
            toJson(ordered("field", "simhash", "max_distance", r, "size", 1000, "max_members", 10000)));
        assertEquals(200, a.status(), index + " r=" + r + " -> " + a);
        assertEquals(corpus.docs.stream().filter(d -> d.hash() != null).count() * index.split(",").length,
            ((Number) a.at("total_docs")).longValue(), "every fingerprint read");
        return DuplicatesIT.groups(a);
    }

    private static List<Group> withoutIndex(List<Group> groups) {
        return groups.stream().map(g -> new Group(g.groupId(), g.size(),
            g.members().stream().map(m -> m.substring(m.indexOf('/') + 1)).toList())).toList();
    }

    @Test
    void reportOnAnIndexWithMaxResultWindow20EqualsBruteForceAndTheDefaultIndex() {
        int grouped = 0;
        for (int r : new int[] { 3, 7 }) {
            List<Group> small = report(SMALL_WINDOW, r);
            assertSameGroups(DuplicatesIT.expected(Map.of(SMALL_WINDOW, corpus.docs), r), small, "window 20, r=" + r);
            assertSameGroups(withoutIndex(report(DEFAULT_WINDOW, r)), withoutIndex(small), "window 20 vs default, r=" + r);
            grouped += small.size();
        }
        assertTrue(grouped > 20, "the planted groups must show, got " + grouped);
        // two indices with different windows: the smaller one sets the page size for both
        String both = SMALL_WINDOW + "," + DEFAULT_WINDOW;
        assertSameGroups(DuplicatesIT.expected(Map.of(SMALL_WINDOW, corpus.docs, DEFAULT_WINDOW, corpus.docs), 3), report(both, 3),
            "both indices");
    }

    @Test
    void writeGroupIdRewritesAGroupIdInAnotherSpelling() {
        Group first = DuplicatesIT.expected(Map.of(DEFAULT_WINDOW, corpus.docs), 3).stream()
            .filter(g -> g.groupId().matches(".*[a-f].*")).findFirst().orElseThrow();
        String member = first.members().get(0).substring(first.members().get(0).indexOf('/') + 1);
        String upper = first.groupId().toUpperCase(Locale.ROOT);
        rest.ok("POST", "/" + DEFAULT_WINDOW + "/_update/" + member + "?refresh=true", toJson(Map.of("doc", Map.of("dup_group", upper))));
        // not the form the report writes, so possibly user data: only replaced when the request says so
        Rest.Answer refused = rest.post("/" + DEFAULT_WINDOW + "/_simhash/duplicates",
            toJson(ordered("field", "simhash", "max_distance", 3, "write_group_id", "dup_group")));
        assertEquals(400, refused.status(), refused.toString());
        Rest.Answer a = rest.post("/" + DEFAULT_WINDOW + "/_simhash/duplicates",
            toJson(ordered("field", "simhash", "max_distance", 3, "write_group_id", "dup_group", "overwrite_group_id", true)));
        assertEquals(200, a.status(), a.toString());
        rest.ok("POST", "/" + DEFAULT_WINDOW + "/_refresh", null);
        Rest.Answer doc = rest.ok("GET", "/" + DEFAULT_WINDOW + "/_doc/" + member, null);
        // collapse compares keywords exactly: the uppercase spelling would be a group of its own
        assertEquals(first.groupId(), doc.at("_source.dup_group"), doc.toString());
    }

    /** Greedy folding (FoldIT's reference) of the corpus's first {@code window} documents by rank. */
    private List<Folded> expectedFold(int window, int r) {
        List<Map.Entry<String, Long>> ranked = corpus.docs.stream().sorted(Comparator.comparingInt(Doc::rank)).limit(window)
            .map(d -> (Map.Entry<String, Long>) new AbstractMap.SimpleImmutableEntry<>(d.id(), d.hash())).toList();
        return FoldIT.greedy(ranked, r, 0);
    }

    private static List<Folded> folded(Rest.Answer a) {
        return FoldIT.folded(a).stream().map(f -> new Folded(f.id(), f.folded(), List.of())).toList();
    }

    private static Map<String, Object> byRank(int size) {
        Map<String, Object> b = new LinkedHashMap<>();
        b.put("sort", List.of(Map.of("rank", "asc")));
        b.put("size", size);
        b.put("_source", false);
        return b;
    }

    @Test
    void foldWindowFitsTheIndexWhenDefaultedAndIsA400NamingWindowWhenGiven() {
        // the default window (100) shrinks to the index's 20
        Rest.Answer defaulted = rest.post("/" + SMALL_WINDOW + "/_simhash/fold?field=simhash&max_distance=5", toJson(byRank(100)));
        assertEquals(200, defaulted.status(), defaulted.toString());
        assertEquals(20, ((Number) defaulted.at("simhash_fold.window")).intValue());
        assertEquals(20, ((Number) defaulted.at("simhash_fold.considered")).intValue());
        assertEquals(expectedFold(20, 5), folded(defaulted));
        // an explicit window the index cannot serve is the caller's error, as from + size is in _search
        Rest.Answer explicit = rest.post("/" + SMALL_WINDOW + "/_simhash/fold?field=simhash&window=100", toJson(byRank(10)));
        assert400Naming(explicit, "[window]", "window 100 on max_result_window 20");
        assertTrue(explicit.body().contains("[" + SMALL_WINDOW + "]"), explicit.toString());
        assertFalse(explicit.body().contains("Result window is too large"), explicit.toString());
        // within the limit: as asked
        Rest.Answer fits = rest.post("/" + SMALL_WINDOW + "/_simhash/fold?field=simhash&max_distance=5&window=15", toJson(byRank(100)));
        assertEquals(200, fits.status(), fits.toString());
        assertEquals(expectedFold(15, 5), folded(fits));
        // the default index is unaffected: the default window is 100
        Rest.Answer other = rest.post("/" + DEFAULT_WINDOW + "/_simhash/fold?field=simhash&max_distance=5", toJson(byRank(100)));
        assertEquals(100, ((Number) other.at("simhash_fold.window")).intValue());
        assertEquals(expectedFold(100, 5), folded(other));
    }

    // ---- item 4: fold with a point in time checks the point in time's indices only ----

    private String openPit(String index) {
        return rest.ok("POST", "/" + index + "/_pit?keep_alive=1m", null).at("id");
    }

    private void closePit(String id) {
        rest.call("DELETE", "/_pit", toJson(Map.of("id", id)));
    }

    private Rest.Answer foldWithPit(String path, String id, int size) {
        Map<String, Object> b = byRank(size);
        b.put("pit", Map.of("id", id, "keep_alive", "1m"));
        return rest.post(path, toJson(b));
    }

    @Test
    void foldWithAPointInTimeIgnoresIndicesOutsideIt() {
        // without a point in time, an index the search targets is checked: the conflicting mapping is named
        Rest.Answer targeted = rest.post("/" + DEFAULT_WINDOW + "," + CONFLICTING + "/_simhash/fold?field=simhash", toJson(byRank(10)));
        assert400Naming(targeted, "[field]", "conflicting index targeted");
        assertTrue(targeted.body().contains(CONFLICTING), targeted.toString());

        String id = openPit(DEFAULT_WINDOW);
        try {
            Rest.Answer a = foldWithPit("/_simhash/fold?field=simhash&max_distance=5", id, 100);
            assertEquals(200, a.status(), a.toString());
            assertEquals(expectedFold(100, 5), folded(a));
            // naming indices together with a point in time is Elasticsearch's own validation error, before any mapping check
            Rest.Answer both = foldWithPit("/" + CONFLICTING + "/_simhash/fold?field=simhash", id, 10);
            assertEquals(400, both.status(), both.toString());
            assertTrue(both.body().contains("[indices] cannot be used with point in time"), both.toString());
        } finally {
            closePit(id);
        }
        // a point in time on the conflicting index: its mapping is checked
        String onConflicting = openPit(CONFLICTING);
        try {
            Rest.Answer a = foldWithPit("/_simhash/fold?field=simhash", onConflicting, 10);
            assert400Naming(a, "[field]", "point in time on the conflicting index");
            assertTrue(a.body().contains(CONFLICTING), a.toString());
        } finally {
            closePit(onConflicting);
        }
        // and the point in time's own index.max_result_window applies (no index in the URL)
        String onSmall = openPit(SMALL_WINDOW);
        try {
            Rest.Answer a = foldWithPit("/_simhash/fold?field=simhash&max_distance=5", onSmall, 100);
            assertEquals(200, a.status(), a.toString());
            assertEquals(20, ((Number) a.at("simhash_fold.window")).intValue());
            assertEquals(expectedFold(20, 5), folded(a));
        } finally {
            closePit(onSmall);
        }
    }

    // ---- error messages that name the parameter ----

    @Test
    void scriptSourceErrorsNameSource() {
        for (String source : List.of("", " hamming", "hamming\u0000", "cosine")) {
            Rest.Answer a = rest.post("/" + FP_INDEX + "/_search", toJson(Map.of("query", Map.of("script_score", Map.of(
                "query", Map.of("match_all", Map.of()),
                "script", Map.of("lang", "simhash", "source", source, "params", Map.of("field", "simhash", "hash", 1)))))));
            assert400Naming(a, "[source] unknown simhash script [", "source [" + source.replace("\u0000", "\\u0000") + "]");
            assertFalse(a.body().contains("Failed to compile"), a.toString());
        }
    }

    @Test
    void likeInsideAnAliasFilterIsA400() {
        // Elasticsearch validates alias filters without running the like lookup and wraps the failure in its own
        // "failed to parse filter for alias [...]" (AliasValidator); the status must be 400, not 500
        Rest.Answer a = rest.post("/_aliases", toJson(Map.of("actions", List.of(Map.of("add", Map.of("index", FP_INDEX,
            "alias", "unusual-alias", "filter", Map.of("simhash", Map.of("field", "simhash", "like", Map.of("index", FP_INDEX,
                "id", "stored")))))))));
        assertEquals(400, a.status(), a.toString());
        assertTrue(a.body().contains("failed to parse filter for alias [unusual-alias]"), a.toString());
    }

    // ---- item 3: like reads the liked document's fingerprint from doc values when _source cannot give it ----

    @Test
    void likeWorksWithSourceDisabledAndWithAHashSentAsADecimalString() {
        String noSource = "unusual-nosource";
        String mapping = Fixtures.objectFormIndex(2).replaceFirst("\"mappings\": \\{", "\"mappings\": {\"_source\": {\"enabled\": false}, ");
        rest.ok("PUT", "/" + noSource, mapping);
        long near = STORED ^ 0b10110L; // 3 bits away
        long far = STORED ^ 0xFFFF0000FFFF0000L; // 32 bits away
        rest.ok("PUT", "/" + noSource + "/_doc/nosrc-a", toJson(Map.of("simhash", Fixtures.storedForm(STORED))));
        rest.ok("PUT", "/" + noSource + "/_doc/nosrc-b", toJson(Map.of("simhash", Fixtures.storedForm(near))));
        rest.ok("PUT", "/" + noSource + "/_doc/nosrc-c", toJson(Map.of("simhash", Fixtures.storedForm(far))));
        // ?refresh=true on a document refreshes its own shard only: refresh both shards
        rest.ok("POST", "/" + noSource + "/_refresh", null);
        for (Object like : List.of(Map.of("index", noSource, "id", "nosrc-a"), "nosrc-a")) {
            Rest.Answer a = rest.post("/" + noSource + "/_search", toJson(Map.of("query", Map.of("simhash",
                Map.of("field", "simhash", "like", like, "max_distance", 3, "include", true)))));
            assertEquals(200, a.status(), like + " -> " + a);
            List<Map<String, Object>> hits = a.at("hits.hits");
            List<String> ids = new ArrayList<>();
            hits.forEach(h -> ids.add((String) h.get("_id")));
            ids.sort(Comparator.naturalOrder());
            assertEquals(List.of("nosrc-a", "nosrc-b"), ids, like + " -> " + a);
        }
        // a hash sent as a 16-digit decimal string: the long field reads it as decimal, and so must like
        long decimal = 1234567890123456L;
        Map<String, Object> form = new LinkedHashMap<>(Fixtures.storedForm(decimal));
        form.put("hash", Long.toString(decimal));
        rest.ok("PUT", "/" + FP_INDEX + "/_doc/decimal-string?refresh=true", toJson(Map.of("body", "y", "simhash", form)));
        Rest.Answer a = rest.post("/" + FP_INDEX + "/_search", toJson(Map.of("query", Map.of("simhash",
            Map.of("field", "simhash", "like", Map.of("index", FP_INDEX, "id", "decimal-string"), "max_distance", 0, "include", true)))));
        assertEquals(200, a.status(), a.toString());
        List<Map<String, Object>> hits = a.at("hits.hits");
        assertEquals(1, hits.size(), a.toString());
        assertEquals("decimal-string", hits.get(0).get("_id"), a.toString());
        rest.delete("/" + noSource);
    }
}
