package dev.simhash.bench;

import dev.simhash.core.CandidateRadius;
import dev.simhash.core.SimHash;
import dev.simhash.core.SimHashV2;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SyntheticTextsTest {

    private static final int N = 3000;

    @Test
    void sameSeedSameTextsInAnyOrder() {
        SyntheticTexts a = new SyntheticTexts(N, 11);
        SyntheticTexts b = new SyntheticTexts(N, 11);
        // b is read backwards: a text depends on its number only, not on what was read before
        List<String> backwards = new ArrayList<>();
        for (int i = N - 1; i >= 0; i--) {
            backwards.add(b.text(i));
        }
        for (int i = 0; i < N; i++) {
            assertEquals(a.text(i), backwards.get(N - 1 - i), "document " + i);
            assertEquals(a.origin(i), b.origin(i));
        }
        SyntheticTexts other = new SyntheticTexts(N, 12);
        int same = 0;
        for (int i = 0; i < N; i++) {
            if (other.text(i).equals(a.text(i))) {
                same++;
            }
        }
        assertEquals(0, same, "another seed gives other texts");
    }

    @Test
    void theClusteredShareIsTheOneAskedFor() {
        for (double share : new double[] { 0.1, 0.4 }) {
            SyntheticTexts t = new SyntheticTexts(20_000, 5, share);
            Map<Integer, Integer> perOrigin = new HashMap<>();
            for (int i = 0; i < t.size(); i++) {
                perOrigin.merge(t.origin(i), 1, Integer::sum);
            }
            int inClusters = 0;
            for (int i = 0; i < t.size(); i++) {
                if (perOrigin.get(t.origin(i)) > 1) {
                    inClusters++;
                }
            }
            assertEquals(inClusters, t.clustered());
            assertEquals(share, inClusters / (double) t.size(), 0.03, "share " + share);
        }
    }

    @Test
    void spreadWithinBlocksEveryMultipleOfTheBlockHoldsWholeClusters() {
        SyntheticTexts whole = new SyntheticTexts(20_000, 5, 0.12);
        SyntheticTexts same = new SyntheticTexts(20_000, 5, 0.12, 20_000);
        SyntheticTexts blocks = new SyntheticTexts(20_000, 5, 0.12, 5_000);
        int moved = 0;
        for (int i = 0; i < 20_000; i++) {
            assertEquals(whole.origin(i), same.origin(i), "a block of the whole corpus is the corpus as before");
            moved += whole.origin(i) != blocks.origin(i) ? 1 : 0;
        }
        assertTrue(moved > 10_000, "blocks spread differently: " + moved);
        // the first k blocks: every cluster whole but the few laid across a block's end, the same share at every k
        for (int k = 1; k <= 4; k++) {
            int docs = 5_000 * k;
            Map<Integer, Integer> inPrefix = new HashMap<>();
            for (int i = 0; i < docs; i++) {
                inPrefix.merge(blocks.origin(i), 1, Integer::sum);
            }
            Map<Integer, Integer> inAll = new HashMap<>();
            for (int i = 0; i < 20_000; i++) {
                inAll.merge(blocks.origin(i), 1, Integer::sum);
            }
            int cut = 0;
            int clustered = 0;
            for (Map.Entry<Integer, Integer> e : inPrefix.entrySet()) {
                cut += e.getValue() < inAll.get(e.getKey()) ? 1 : 0;
                clustered += e.getValue() > 1 ? e.getValue() : 0;
            }
            assertTrue(cut <= k, "clusters cut at " + docs + ": " + cut);
            assertEquals(0.12, clustered / (double) docs, 0.03, "share at " + docs);
        }
    }

    @Test
    void realLikeShape() {
        SyntheticTexts t = new SyntheticTexts(N, 3);
        Map<String, Integer> freq = new HashMap<>();
        long words = 0;
        for (int i = 0; i < N; i++) {
            String s = t.text(i);
            assertTrue(s.matches("[A-Z][a-z]*( [A-Za-z]+\\.?)*\\."), "sentences of words: " + s);
            for (String w : s.toLowerCase(Locale.ROOT).replace(".", "").split(" ")) {
                freq.merge(w, 1, Integer::sum);
                words++;
            }
        }
        double mean = words / (double) N;
        assertTrue(mean > 50 && mean < 110, "mean length " + mean);
        // Zipf: the most frequent word is far above the median one, and the top 100 carry a large share
        List<Integer> counts = freq.values().stream().sorted((x, y) -> y - x).toList();
        long top100 = counts.stream().limit(100).mapToLong(Integer::longValue).sum();
        assertTrue(top100 > words * 0.3 && top100 < words * 0.8, "top 100 words' share " + top100 / (double) words);
        assertTrue(freq.size() > 10_000, "vocabulary in use " + freq.size());
    }

    @Test
    void plantedClustersAreNearDuplicatesAndOthersAreNot() {
        SyntheticTexts t = new SyntheticTexts(N, 5);
        Map<Integer, List<Integer>> clusters = new HashMap<>();
        for (int i = 0; i < N; i++) {
            clusters.computeIfAbsent(t.origin(i), k -> new ArrayList<>()).add(i);
        }
        int inClusters = 0;
        int pairs = 0;
        int pairsWithin = 0;
        int radius = CandidateRadius.radius(0.8);
        for (List<Integer> c : clusters.values()) {
            assertTrue(c.size() <= SyntheticTexts.MAX_CLUSTER);
            if (c.size() < 2) {
                continue;
            }
            inClusters += c.size();
            long originals = c.stream().filter(i -> t.editRate(i) == 0).count();
            assertEquals(1, originals, "one original per cluster");
            int orig = c.stream().filter(i -> t.editRate(i) == 0).findFirst().orElseThrow();
            for (int i : c) {
                if (i == orig) {
                    continue;
                }
                double j = jaccard(t.text(orig), t.text(i));
                // an edit (insert, delete or replace one word) removes at most 2 of the original's adjacent-word shingles
                // and adds at most 2: with e edits of L words, J >= (L - 1 - 2e) / (L - 1 + 2e) (repeats aside: a margin)
                int len = t.text(orig).split(" ").length;
                int e = Math.max(1, (int) Math.round(len * t.editRate(i)));
                double bound = (len - 1 - 2.0 * e) / (len - 1 + 2.0 * e) - 0.05;
                assertTrue(j >= bound, "copy " + i + " of " + orig + " at rate " + t.editRate(i) + ": shingle Jaccard " + j);
                pairs++;
                if (SimHash.distance(fp(t.text(orig)), fp(t.text(i))) <= radius) {
                    pairsWithin++;
                }
            }
        }
        assertEquals(inClusters, t.clustered());
        double share = inClusters / (double) N;
        assertTrue(Math.abs(share - SyntheticTexts.CLUSTERED_SHARE) < 0.08, "share in clusters " + share);
        assertTrue(pairsWithin >= pairs * 0.9, "copies within the candidate radius of their original: " + pairsWithin + "/" + pairs);
        // documents of different origins share few shingles
        for (int i = 0; i + 1 < 400; i += 2) {
            if (t.origin(i) != t.origin(i + 1)) {
                double j = jaccard(t.text(i), t.text(i + 1));
                assertTrue(j < 0.2, "unrelated " + i + ", " + (i + 1) + ": " + j);
            }
        }
    }

    @Test
    void clustersAreSpreadOverTheNumbers() {
        SyntheticTexts t = new SyntheticTexts(N, 9);
        int adjacentSameOrigin = 0;
        for (int i = 0; i + 1 < N; i++) {
            if (t.origin(i) == t.origin(i + 1)) {
                adjacentSameOrigin++;
            }
        }
        // laid out in order, about a third of the neighbours would share an origin; spread, almost none do
        assertTrue(adjacentSameOrigin < N / 50, "neighbours with the same origin: " + adjacentSameOrigin);
    }

    @Test
    void rejectsAnEmptyCorpus() {
        assertThrows(IllegalArgumentException.class, () -> new SyntheticTexts(0, 1));
        assertNotEquals(new SyntheticTexts(1, 1).text(0), "");
    }

    private static long fp(String text) {
        return SimHashV2.fingerprint(text, 1).orElseThrow();
    }

    private static double jaccard(String a, String b) {
        Set<String> x = shingles(a);
        Set<String> y = shingles(b);
        Set<String> inter = new HashSet<>(x);
        inter.retainAll(y);
        Set<String> union = new HashSet<>(x);
        union.addAll(y);
        return inter.size() / (double) union.size();
    }

    private static Set<String> shingles(String text) {
        String[] w = text.toLowerCase(Locale.ROOT).replace(".", "").split(" ");
        Set<String> s = new HashSet<>();
        for (int i = 0; i + 1 < w.length; i++) {
            s.add(w[i] + " " + w[i + 1]);
        }
        return s;
    }
}
