package dev.simhash.it;

import dev.simhash.core.MinHashSketch;
import dev.simhash.core.SketchBands;
import dev.simhash.it.support.RealNodeExtension;
import dev.simhash.it.support.Rest;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static dev.simhash.it.support.Rest.toJson;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The {@code simhash_dedup} ingest processor on a real node: a corpus with planted near-duplicates sent in random order
 * through the pipeline in bulks of 500 into a 3-shard index refreshed every second. What the processor says is checked
 * against brute force over every earlier document: a document is tagged (dropped, failed) only when an earlier document's
 * sketch is at or above the threshold with its own, and it is whenever an earlier one also shares a band with it (the
 * verified query's candidate rule; a document still in the node's window needs only the sketch).
 */
@ExtendWith(RealNodeExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DedupProcessorIT {

    static final String STORY = "the harbor street bridge will close to all traffic for six weeks from monday while crews replace "
        + "the deck and repaint the railings the city said on friday adding that buses will be diverted";
    private static final int MIN_EQUAL_BINS = MinHashSketch.V1.equalBinsFor(MinHashSketch.DEFAULT_MIN_SIMILARITY);

    private final Rest rest;

    DedupProcessorIT(Rest rest) {
        this.rest = rest;
    }

    @BeforeAll
    void clean() {
        rest.delete("/dedup-*");
    }

    private void index(String name, int shards) {
        rest.delete("/" + name);
        rest.ok("PUT", "/" + name, """
            {"settings": {"number_of_shards": %d, "number_of_replicas": 0, "refresh_interval": "1s"},
             "mappings": {"properties": {"body": {"type": "text", "fields": {"simhash": {"type": "simhash"}}},
                                         "duplicate_of": {"properties": {"index": {"type": "keyword"}, "id": {"type": "keyword"},
                                                                         "similarity": {"type": "float"}}}}}}""".formatted(shards));
    }

    private void pipeline(String name, String options) {
        rest.ok("PUT", "/_ingest/pipeline/" + name, "{\"processors\": [{\"simhash_dedup\": {\"field\": \"body\"" + options + "}}]}");
    }

    /** Random documents, planted copies (a word or two changed, a line added) and chains of copies of copies, shuffled. */
    static List<Map.Entry<String, String>> corpus(Random r, int bases) {
        String[] words = new String[4000];
        for (int i = 0; i < words.length; i++) {
            words[i] = "w" + Integer.toString(i * 7919 % 100_003, 36);
        }
        List<Map.Entry<String, String>> docs = new ArrayList<>();
        for (int b = 0; b < bases; b++) {
            List<String> text = new ArrayList<>();
            int n = 40 + r.nextInt(120);
            for (int i = 0; i < n; i++) {
                text.add(words[r.nextInt(words.length)]);
            }
            docs.add(Map.entry("b" + b, String.join(" ", text)));
            if (r.nextInt(3) == 0) {
                List<String> copy = new ArrayList<>(text);
                int copies = 1 + r.nextInt(3);
                for (int c = 0; c < copies; c++) {
                    // a chain: each copy edits the one before it
                    copy = new ArrayList<>(copy);
                    if (r.nextBoolean()) {
                        copy.set(r.nextInt(copy.size()), words[r.nextInt(words.length)]);
                    } else {
                        copy.add("source newswire");
                    }
                    docs.add(Map.entry("b" + b + "-c" + c, String.join(" ", copy)));
                }
            }
        }
        Collections.shuffle(docs, r);
        return docs;
    }

    /** Sends the documents in bulks of 500 through the pipeline; returns the bulk items in order. */
    @SuppressWarnings("unchecked")
    private List<Map<String, Object>> send(String index, String pipeline, List<Map.Entry<String, String>> docs, boolean conflictsExpected) {
        List<Map<String, Object>> items = new ArrayList<>();
        for (int from = 0; from < docs.size(); from += 500) {
            StringBuilder nd = new StringBuilder();
            for (Map.Entry<String, String> d : docs.subList(from, Math.min(docs.size(), from + 500))) {
                nd.append(toJson(Map.of("index", Map.of("_index", index, "_id", d.getKey())))).append('\n');
                nd.append(toJson(Map.of("body", d.getValue()))).append('\n');
            }
            Rest.Answer answer = rest.bulk("/_bulk?pipeline=" + pipeline, nd.toString());
            assertEquals(200, answer.status(), answer.body());
            List<Map<String, Object>> answered = answer.at("items");
            for (Map<String, Object> item : answered) {
                Map<String, Object> result = (Map<String, Object>) item.get("index");
                if (result.get("error") != null && (conflictsExpected == false || ((Number) result.get("status")).intValue() != 409)) {
                    throw new AssertionError("bulk item failed: " + item);
                }
            }
            items.addAll(answered);
        }
        return items;
    }

    /** What brute force says of one document against those sent before it. */
    record Truth(Set<String> linked, Set<String> candidates) {}

    static Map<String, Truth> truth(List<Map.Entry<String, String>> docs, Set<String> among) {
        Map<String, Truth> out = new HashMap<>();
        List<Map.Entry<String, byte[]>> earlier = new ArrayList<>();
        for (Map.Entry<String, String> d : docs) {
            byte[] s = MinHashSketch.V1.sketch(d.getValue());
            Set<String> linked = new HashSet<>();
            Set<String> candidates = new HashSet<>();
            for (Map.Entry<String, byte[]> e : earlier) {
                if (among != null && among.contains(e.getKey()) == false) {
                    continue;
                }
                if (MinHashSketch.V1.equalBins(e.getValue(), 0, s, 0) >= MIN_EQUAL_BINS) {
                    linked.add(e.getKey());
                    if (SketchBands.sharedBands(e.getValue(), 0, s, 0) > 0) {
                        candidates.add(e.getKey());
                    }
                }
            }
            out.put(d.getKey(), new Truth(linked, candidates));
            earlier.add(Map.entry(d.getKey(), s));
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private Map<String, Map<String, Object>> tags(String index) {
        rest.ok("POST", "/" + index + "/_refresh", null);
        Rest.Answer all = rest.post("/" + index + "/_search", "{\"size\": 10000, \"_source\": [\"duplicate_of\"]}");
        Map<String, Map<String, Object>> out = new LinkedHashMap<>();
        for (Map<String, Object> hit : (List<Map<String, Object>>) all.at("hits.hits")) {
            Map<String, Object> source = (Map<String, Object>) hit.get("_source");
            out.put((String) hit.get("_id"), (Map<String, Object>) source.get("duplicate_of"));
        }
        return out;
    }

    @Test
    void taggedExactlyWhenAnEarlierDocumentIsANearDuplicate() {
        taggedExactly("dedup-tag", 3, 20261129L, 1000);
    }

    /**
     * Sends a corpus in random order through a {@code tag} pipeline (all through the node this class's client talks to) and
     * checks every document's tag against brute force over the documents sent before it.
     */
    void taggedExactly(String index, int shards, long seed, int bases) {
        index(index, shards);
        pipeline(index, "");
        Random r = new Random(seed);
        List<Map.Entry<String, String>> docs = corpus(r, bases);
        send(index, index, docs, false);
        Map<String, Truth> truth = truth(docs, null);
        Map<String, Map<String, Object>> tags = tags(index);
        assertEquals(docs.size(), tags.size());
        int tagged = 0;
        int planted = 0;
        for (Map.Entry<String, String> d : docs) {
            Truth t = truth.get(d.getKey());
            Map<String, Object> tag = tags.get(d.getKey());
            if (d.getKey().contains("-c") && t.candidates().isEmpty() == false) {
                planted++;
            }
            if (t.candidates().isEmpty() == false) {
                assertNotNull(tag, d.getKey() + " has earlier near-duplicates " + t.candidates() + " but no tag");
            }
            if (tag != null) {
                tagged++;
                assertEquals(index, tag.get("index"));
                assertTrue(t.linked().contains(tag.get("id")), d.getKey() + " is tagged with " + tag + ", which is not an earlier "
                    + "near-duplicate; those are " + t.linked());
                double similarity = ((Number) tag.get("similarity")).doubleValue();
                assertTrue(similarity >= MinHashSketch.DEFAULT_MIN_SIMILARITY, tag.toString());
                assertEquals(MinHashSketch.V1.similarity(MinHashSketch.V1.sketch(d.getValue()),
                    MinHashSketch.V1.sketch(text(docs, (String) tag.get("id")))), similarity, 1e-6, tag.toString());
            }
        }
        // the corpus plants enough copies for the check to mean something
        assertTrue(planted > bases / 4, "planted copies after their originals: " + planted);
        assertTrue(tagged >= planted, tagged + " tagged");
    }

    @Test
    void dropKeepsOneDocumentOfEachGroupOfNearDuplicates() {
        keepsOneDocumentOfEachGroup("drop", 7L);
    }

    @Test
    void failRefusesEveryDocumentThatDropWouldDrop() {
        keepsOneDocumentOfEachGroup("fail", 11L);
    }

    /**
     * With {@code drop} or {@code fail}, a document is left out exactly when an earlier document that was kept is its
     * near-duplicate: its bulk item answers {@code noop} (drop) or 409 naming a kept document (fail).
     */
    @SuppressWarnings("unchecked")
    private void keepsOneDocumentOfEachGroup(String onDuplicate, long seed) {
        String index = "dedup-" + onDuplicate;
        index(index, 3);
        pipeline(index, ", \"on_duplicate\": \"" + onDuplicate + "\"");
        List<Map.Entry<String, String>> docs = corpus(new Random(seed), 400);
        List<Map<String, Object>> items = send(index, index, docs, onDuplicate.equals("fail"));
        Set<String> keptIds = tags(index).keySet();
        assertEquals(docs.size(), items.size());
        // a document is left out exactly when an earlier kept document is its near-duplicate (found by bands, or in the window)
        Map<String, Truth> againstKept = truth(docs, keptIds);
        int left = 0;
        for (int i = 0; i < docs.size(); i++) {
            String id = docs.get(i).getKey();
            Truth t = againstKept.get(id);
            Map<String, Object> item = (Map<String, Object>) items.get(i).get("index");
            assertEquals(id, item.get("_id"), items.get(i).toString());
            if (keptIds.contains(id)) {
                assertTrue(t.candidates().isEmpty(), id + " was kept although earlier kept documents " + t.candidates()
                    + " are its near-duplicates");
                continue;
            }
            left++;
            assertTrue(t.linked().isEmpty() == false, id + " was left out without an earlier kept near-duplicate");
            if (onDuplicate.equals("drop")) {
                assertEquals("noop", item.get("result"), items.get(i).toString());
            } else {
                assertEquals(409, ((Number) item.get("status")).intValue(), items.get(i).toString());
                String reason = (String) Rest.at(item, "error.reason");
                String named = reason.replaceAll(".*near-duplicate of document \\[([^]]+)\\].*", "$1");
                assertTrue(t.linked().contains(named), reason + " names a document that is not an earlier kept near-duplicate");
            }
        }
        assertTrue(left > 100, "left out: " + left);
    }

    /**
     * A hot cluster of copies fills a batch's answer (its search returns at most 1,000 hits): a document of the same bulk
     * whose original is not among them is searched alone, and still tagged.
     */
    @Test
    void aBatchCutOffByAHotClusterStillFindsEveryOriginal() {
        String index = "dedup-hot";
        index(index, 1);
        pipeline(index, "");
        String hot = STORY;
        String rare = "heavy snow closed the mountain pass on tuesday and the road authority said it would reopen once ploughs "
            + "had cleared the drifts near the summit tunnel";
        StringBuilder nd = new StringBuilder();
        for (int i = 0; i < 1100; i++) {
            nd.append(toJson(Map.of("index", Map.of("_id", "hot-" + i)))).append('\n').append(toJson(Map.of("body", hot))).append('\n');
        }
        nd.append(toJson(Map.of("index", Map.of("_id", "rare")))).append('\n').append(toJson(Map.of("body", rare))).append('\n');
        assertEquals(Boolean.FALSE, rest.bulk("/" + index + "/_bulk?refresh=true", nd.toString()).at("errors"));
        List<Map.Entry<String, String>> incoming = List.of(Map.entry("new-hot", hot + " again"), Map.entry("new-rare", rare + " again"));
        send(index, index, incoming, false);
        Map<String, Map<String, Object>> tags = tags(index);
        assertTrue(((String) tags.get("new-hot").get("id")).startsWith("hot-"), String.valueOf(tags.get("new-hot")));
        assertEquals("rare", tags.get("new-rare").get("id"), String.valueOf(tags.get("new-rare")));
    }

    @Test
    void failAnswersConflictNamingTheOriginal() {
        String index = "dedup-fail-one";
        index(index, 1);
        pipeline(index, ", \"on_duplicate\": \"fail\"");
        String story = STORY;
        rest.ok("PUT", "/" + index + "/_doc/original?pipeline=dedup-fail-one&refresh=true", toJson(Map.of("body", story)));
        Rest.Answer copy = rest.put("/" + index + "/_doc/copy?pipeline=dedup-fail-one", toJson(Map.of("body", story + " for the whole period")));
        assertEquals(409, copy.status(), copy.body());
        assertTrue(copy.body().contains("near-duplicate of document [original] of index [dedup-fail-one]"), copy.body());
        // the original sent again under its own id is not its own duplicate
        rest.ok("PUT", "/" + index + "/_doc/original?pipeline=dedup-fail-one", toJson(Map.of("body", story)));
        Rest.Answer other = rest.put("/" + index + "/_doc/other?pipeline=dedup-fail-one",
            toJson(Map.of("body", "a completely different story about the weather in the mountains this weekend")));
        assertEquals(201, other.status(), other.body());
        assertEquals(404, rest.get("/" + index + "/_doc/copy").status());
    }

    @Test
    void badOptionsAreA400NamingTheOption() {
        rest.ok("PUT", "/dedup-plain", """
            {"mappings": {"properties": {"body": {"type": "text", "fields": {"simhash": {"type": "simhash", "sketch": "none"},
                                                                               "kw": {"type": "keyword"}}}}}}""");
        Map<String, String> cases = new LinkedHashMap<>();
        cases.put("\"min_similarity\": 1.5", "[min_similarity]");
        cases.put("\"min_similarity\": \"high\"", "[min_similarity]");
        cases.put("\"on_duplicate\": \"delete\"", "[on_duplicate]");
        cases.put("\"window_size\": -1", "[window_size]");
        cases.put("\"timeout\": \"soon\"", "[timeout]");
        cases.put("\"target\": \"dedup-plain\"", "stores no similarity sketch");
        cases.put("\"target\": \"dedup-plain\", \"simhash_field\": \"body.kw\"", "[simhash_field]");
        cases.put("\"target\": \"dedup-plain\", \"simhash_field\": \"nothing\"", "is not mapped");
        cases.put("\"unknown_option\": 1", "unknown_option");
        for (Map.Entry<String, String> c : cases.entrySet()) {
            Rest.Answer a = rest.put("/_ingest/pipeline/dedup-bad", "{\"processors\": [{\"simhash_dedup\": {\"field\": \"body\", "
                + c.getKey() + "}}]}");
            assertEquals(400, a.status(), c.getKey() + ": " + a.body());
            assertTrue(a.body().contains(c.getValue()), c.getKey() + ": " + a.body());
        }
        Rest.Answer noField = rest.put("/_ingest/pipeline/dedup-bad", "{\"processors\": [{\"simhash_dedup\": {}}]}");
        assertEquals(400, noField.status(), noField.body());
        assertTrue(noField.body().contains("[field]"), noField.body());
        // a document into an index that does not exist yet, or whose text is not a string: that item's 400
        pipeline("dedup-ok", "");
        Rest.Answer missingIndex = rest.put("/dedup-none/_doc/1?pipeline=dedup-ok", toJson(Map.of("body", "some text here")));
        assertEquals(400, missingIndex.status(), missingIndex.body());
        assertTrue(missingIndex.body().contains("[target] [dedup-none] matches no index"), missingIndex.body());
        index("dedup-types", 1);
        Rest.Answer number = rest.put("/dedup-types/_doc/1?pipeline=dedup-ok", toJson(Map.of("body", Map.of("a", 1))));
        assertEquals(400, number.status(), number.body());
        assertTrue(number.body().contains("must be a string or an array of strings"), number.body());
        // a failed lookup follows the pipeline's failure handling: on_failure runs (here: the test node's one other processor),
        // ignore_failure lets the document in
        rest.ok("PUT", "/_ingest/pipeline/dedup-handled", """
            {"processors": [{"simhash_dedup": {"field": "body", "target": "dedup-none",
                             "on_failure": [{"simhash": {"field": "body", "target_field": "fallback"}}]}}]}""");
        rest.ok("PUT", "/dedup-types/_doc/2?pipeline=dedup-handled&refresh=true", toJson(Map.of("body", "some text here")));
        assertNotNull(rest.get("/dedup-types/_doc/2").at("_source.fallback.hash"));
        rest.ok("PUT", "/_ingest/pipeline/dedup-ignored", """
            {"processors": [{"simhash_dedup": {"field": "body", "target": "dedup-none", "ignore_failure": true}}]}""");
        rest.ok("PUT", "/dedup-types/_doc/3?pipeline=dedup-ignored&refresh=true", toJson(Map.of("body", "some text here")));
        assertNull(rest.get("/dedup-types/_doc/3").at("_source.duplicate_of"));
    }

    private static String text(List<Map.Entry<String, String>> docs, String id) {
        for (Map.Entry<String, String> d : docs) {
            if (d.getKey().equals(id)) {
                return d.getValue();
            }
        }
        throw new AssertionError("no document " + id);
    }
}
