package dev.simhash.it;

import dev.simhash.core.CandidateRadius;
import dev.simhash.core.MinHashSketch;
import dev.simhash.core.SimHash;
import dev.simhash.core.SimHashV2;
import dev.simhash.it.support.Rest;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

import static dev.simhash.it.support.Rest.ordered;
import static dev.simhash.it.support.Rest.toJson;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Texts with near-duplicates of every degree for the verified fold and report tests, and the verified rule computed on
 * the client, independently of the plugin: simhash-v2 fingerprints and minhash-v1 sketches of the texts, candidates that
 * share a band key from {@link #BANDS_FROM} on and lie within the threshold's radius below, linked when their estimated
 * similarity reaches the threshold; groups are the connected components of the linked pairs.
 */
final class VerifiedCorpus {

    /** From this threshold on, candidates come from the sketch's bands (docs/spec/minhash-v1.md, "Candidates"). */
    static final double BANDS_FROM = 0.78;

    /** Texts by id. */
    final Map<String, String> texts = new HashMap<>();
    /** Ids in rank order (the {@code rank} field of {@link #bulk()} sorts them). */
    final List<String> ids = new ArrayList<>();
    private final Map<String, byte[]> sketches = new HashMap<>();

    /**
     * Base texts of 60 words from a small vocabulary, each with variants that replace 1 to 30 words (shingle similarity from
     * near 1 to well below any threshold tested; some edit the previous variant: chains), some exact copies, and unrelated
     * texts, in a random rank order.
     */
    VerifiedCorpus(long seed) {
        Random random = new Random(seed);
        List<String> vocabulary = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            StringBuilder w = new StringBuilder();
            int len = 3 + random.nextInt(6);
            for (int k = 0; k < len; k++) {
                w.append((char) ('a' + random.nextInt(26)));
            }
            vocabulary.add(w.toString());
        }
        List<String> corpus = new ArrayList<>();
        int[] edits = { 0, 1, 2, 3, 4, 6, 8, 12, 20, 30 };
        for (int b = 0; b < 30; b++) {
            List<String> base = new ArrayList<>();
            for (int i = 0; i < 60; i++) {
                base.add(vocabulary.get(random.nextInt(vocabulary.size())));
            }
            corpus.add(String.join(" ", base));
            int variants = 2 + random.nextInt(6);
            List<String> previous = base;
            for (int v = 0; v < variants; v++) {
                List<String> from = random.nextBoolean() ? previous : base;
                List<String> copy = new ArrayList<>(from);
                int n = edits[random.nextInt(edits.length)];
                for (int e = 0; e < n; e++) {
                    copy.set(random.nextInt(copy.size()), vocabulary.get(random.nextInt(vocabulary.size())));
                }
                corpus.add(String.join(" ", copy));
                previous = copy;
            }
        }
        for (int i = 0; i < 40; i++) {
            List<String> words = new ArrayList<>();
            for (int k = 0; k < 60; k++) {
                words.add(vocabulary.get(random.nextInt(vocabulary.size())));
            }
            corpus.add(String.join(" ", words));
        }
        // rank order unrelated to the corpus order, so representatives are not simply the bases
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < corpus.size(); i++) {
            order.add(i);
        }
        Collections.shuffle(order, random);
        for (int rank = 0; rank < order.size(); rank++) {
            String id = String.format(Locale.ROOT, "d%03d", order.get(rank));
            texts.put(id, corpus.get(order.get(rank)));
            ids.add(id);
        }
    }

    /** The corpus as a bulk body: {@code rank} and {@code body} per document, ids as above. */
    String bulk() {
        StringBuilder bulk = new StringBuilder();
        for (int rank = 0; rank < ids.size(); rank++) {
            bulk.append(toJson(Map.of("index", Map.of("_id", ids.get(rank))))).append('\n')
                .append(toJson(ordered("rank", rank, "body", texts.get(ids.get(rank))))).append('\n');
        }
        return bulk.toString();
    }

    long hash(String id) {
        return SimHashV2.fingerprint(texts.get(id), 1).orElseThrow();
    }

    byte[] sketch(String id) {
        return sketches.computeIfAbsent(id, k -> MinHashSketch.V1.sketch(texts.get(k)));
    }

    double similarity(String a, String b) {
        return MinHashSketch.V1.similarity(sketch(a), sketch(b));
    }

    /** Whether two texts' minhash-v1 sketches share a band key (the 14 keys of 5 bytes after the 64 bytes of bins). */
    boolean shareABand(String a, String b) {
        byte[] x = sketch(a);
        byte[] y = sketch(b);
        for (int at = 64; at < x.length; at += 5) {
            if (Arrays.equals(x, at, at + 5, y, at, at + 5)) {
                return true;
            }
        }
        return false;
    }

    /** The candidate rule of the contract: a shared band from 0.78 on, below it the threshold's fingerprint radius. */
    boolean candidates(String a, String b, int radius, double s) {
        return s >= BANDS_FROM ? shareABand(a, b) : SimHash.distance(hash(a), hash(b)) <= radius;
    }

    boolean linked(String a, String b, int radius, double s) {
        return candidates(a, b, radius, s) && similarity(a, b) >= s;
    }

    /** Connected components of the verified pairs, groups of two or more, as sets of ids. */
    Set<Set<String>> clientGroups(double s) {
        int radius = CandidateRadius.radius(s);
        Map<String, Integer> label = new HashMap<>();
        Set<Set<String>> groups = new HashSet<>();
        for (String start : ids) {
            if (label.containsKey(start)) {
                continue;
            }
            Set<String> group = new TreeSet<>();
            ArrayDeque<String> queue = new ArrayDeque<>(List.of(start));
            label.put(start, 0);
            while (!queue.isEmpty()) {
                String a = queue.poll();
                group.add(a);
                for (String b : ids) {
                    if (!label.containsKey(b) && linked(a, b, radius, s)) {
                        label.put(b, 0);
                        queue.add(b);
                    }
                }
            }
            if (group.size() > 1) {
                groups.add(group);
            }
        }
        return groups;
    }

    /**
     * The groups of a report response as sets of ids, checking on the way that each member's similarity is its estimate to
     * the group's representative, that the representative is a member and that the size counts the members.
     */
    @SuppressWarnings("unchecked")
    Set<Set<String>> reportGroups(Map<String, Object> response) {
        Set<Set<String>> out = new HashSet<>();
        for (Map<String, Object> g : (List<Map<String, Object>>) response.get("groups")) {
            String rep = (String) ((Map<String, Object>) g.get("representative")).get("_id");
            Set<String> members = new TreeSet<>();
            for (Map<String, Object> m : (List<Map<String, Object>>) g.get("members")) {
                String id = (String) m.get("_id");
                members.add(id);
                assertEquals(similarity(id, rep), ((Number) m.get("similarity")).doubleValue(), "similarity of " + id + " to " + rep);
            }
            assertTrue(members.contains(rep), g.toString());
            assertEquals(((Number) g.get("size")).intValue(), members.size());
            out.add(members);
        }
        return out;
    }

    /** The same, from a {@link Rest.Answer}. */
    Set<Set<String>> reportGroups(Rest.Answer a) {
        return reportGroups(a.json());
    }
}
