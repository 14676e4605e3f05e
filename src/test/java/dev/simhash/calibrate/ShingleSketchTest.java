package dev.simhash.calibrate;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ShingleSketchTest {

    /** Two sets of distinct random hashes with {@code common} shared ones and {@code onlyA}, {@code onlyB} of their own. */
    private static long[][] sets(Random r, int common, int onlyA, int onlyB) {
        Set<Long> seen = new HashSet<>();
        long[] a = new long[common + onlyA];
        long[] b = new long[common + onlyB];
        for (int i = 0; i < common + onlyA + onlyB; i++) {
            long h;
            do {
                h = r.nextLong();
            } while (!seen.add(h));
            if (i < common) {
                a[i] = h;
                b[i] = h;
            } else if (i < common + onlyA) {
                a[i] = h;
            } else {
                b[i - onlyA] = h;
            }
        }
        return new long[][] { a, b };
    }

    @Test
    void smallSetsAreExact() {
        Random r = new Random(11);
        for (int t = 0; t < 200; t++) {
            int common = r.nextInt(100);
            int onlyA = r.nextInt(100);
            int onlyB = r.nextInt(100);
            long[][] s = sets(r, common, onlyA, onlyB);
            ShingleSketch a = ShingleSketch.ofHashes(s[0], 256);
            ShingleSketch b = ShingleSketch.ofHashes(s[1], 256);
            assertTrue(a.complete() && b.complete());
            double exact = common + onlyA + onlyB == 0 ? 0 : (double) common / (common + onlyA + onlyB);
            assertEquals(exact, a.jaccard(b), 1e-12, common + " " + onlyA + " " + onlyB);
        }
    }

    @Test
    void repeatsDoNotCount() {
        ShingleSketch a = ShingleSketch.ofHashes(new long[] { 1, 1, 2, 2, 3 }, 2);
        assertEquals(2, a.size());
        assertFalse(a.complete());
        ShingleSketch b = ShingleSketch.ofHashes(new long[] { 5, 5, 5, 4 }, 2);
        assertEquals(2, b.size());
        assertTrue(b.complete(), "exactly k distinct values: all of them kept");
    }

    @Test
    void largeSetsAreEstimatedWithinTheStatedError() {
        Random r = new Random(12);
        int k = ShingleSketch.DEFAULT_SIZE;
        for (double j : new double[] { 0.1, 0.3, 0.5, 0.7, 0.9 }) {
            double sum = 0;
            int trials = 60;
            for (int t = 0; t < trials; t++) {
                int union = 1_000 + r.nextInt(4_000);
                int common = (int) Math.round(j * union);
                int onlyA = r.nextInt(union - common + 1);
                long[][] s = sets(r, common, onlyA, union - common - onlyA);
                ShingleSketch a = ShingleSketch.ofHashes(s[0], k);
                ShingleSketch b = ShingleSketch.ofHashes(s[1], k);
                double truth = (double) common / union;
                double estimate = a.jaccard(b);
                // at most sqrt(J (1 - J) / k) standard error: 5 of them is a bound no seed should cross
                assertTrue(Math.abs(estimate - truth) <= 5 * Math.sqrt(truth * (1 - truth) / k) + 1e-9,
                    "J=" + truth + " estimate=" + estimate);
                sum += estimate - truth;
            }
            // unbiased: the mean error of 60 trials is within 4 standard errors of the mean (0.031 / sqrt(60) at J = 0.5)
            assertEquals(0, sum / trials, 4 * Math.sqrt(j * (1 - j) / k / trials), "bias at J=" + j);
        }
    }

    @Test
    void textsOfFewShinglesCompareExactlyLikeTheReference() {
        Random r = new Random(13);
        String[] vocab = { "alpha", "Beta", "gamma", "delta", "国", "家", "统", "计", "epsilon", "zeta" };
        for (int t = 0; t < 300; t++) {
            String x = randomText(r, vocab, r.nextInt(60));
            String y = r.nextBoolean() ? randomText(r, vocab, r.nextInt(60)) : x + " " + randomText(r, vocab, r.nextInt(5));
            double exact = jaccard(shingles(x), shingles(y));
            ShingleSketch a = ShingleSketch.of(x, 256);
            ShingleSketch b = ShingleSketch.of(y, 256);
            assertEquals(exact, a.jaccard(b), 1e-12, x + " | " + y);
        }
        assertEquals(0.5, ShingleSketch.of("a b c d", 16).jaccard(ShingleSketch.of("A b, c e", 16)), 0);
        assertEquals(1.0, ShingleSketch.of("Hello!", 16).jaccard(ShingleSketch.of("hello", 16)), 0);
        assertEquals(0.0, ShingleSketch.of("...", 16).jaccard(ShingleSketch.of("", 16)), 0);
    }

    @Test
    void longTextsKeepAtMostKHashesAndEstimateTheirJaccard() {
        Random r = new Random(14);
        List<String> vocab = new ArrayList<>();
        for (int i = 0; i < 5_000; i++) {
            vocab.add("w" + Integer.toString(i, 36));
        }
        List<String> words = new ArrayList<>();
        for (int i = 0; i < 200_000; i++) {
            words.add(vocab.get(r.nextInt(vocab.size())));
        }
        List<String> edited = new ArrayList<>(words);
        for (int i = 0; i < edited.size(); i++) {
            if (r.nextDouble() < 0.05) {
                edited.set(i, vocab.get(r.nextInt(vocab.size())));
            }
        }
        String x = String.join(" ", words);
        String y = String.join(" ", edited);
        ShingleSketch a = ShingleSketch.of(x, 256);
        ShingleSketch b = ShingleSketch.of(y, 256);
        assertEquals(256, a.size());
        assertFalse(a.complete());
        double exact = jaccard(shingles(x), shingles(y));
        assertEquals(exact, a.jaccard(b), 5 * Math.sqrt(exact * (1 - exact) / 256), "exact " + exact);
        assertEquals(ShingleSketch.bytes(256), 48 + 8 * 256);
    }

    @Test
    void sketchesOfDifferentSizesDoNotCompare() {
        assertThrows(IllegalArgumentException.class, () -> ShingleSketch.of("a b", 8).jaccard(ShingleSketch.of("a b", 16)));
        assertThrows(IllegalArgumentException.class, () -> ShingleSketch.of("a b", 0));
    }

    /** The test's own reference: the set of lowercased word bigrams (the one word of a text of one word). */
    static Set<String> shingles(String text) {
        List<String> words = TextEdits.words(text.toLowerCase(java.util.Locale.ROOT));
        Set<String> out = new HashSet<>();
        if (words.size() == 1) {
            out.add(words.get(0));
        }
        for (int i = 1; i < words.size(); i++) {
            out.add(words.get(i - 1) + " " + words.get(i));
        }
        return out;
    }

    /** |a ∩ b| / |a ∪ b|, 0 for two empty sets: the reference's. */
    static double jaccard(Set<String> a, Set<String> b) {
        if (a.isEmpty() && b.isEmpty()) {
            return 0;
        }
        Set<String> common = new HashSet<>(a);
        common.retainAll(b);
        return (double) common.size() / (a.size() + b.size() - common.size());
    }

    @Test
    void oracleWordBigramsAndJaccard() {
        assertEquals(Set.of("the cat", "cat sat", "sat down"), shingles("The cat sat, down."));
        assertEquals(Set.of("国 家", "家 统", "统 计"), shingles("国家统计"));
        assertEquals(Set.of("hello"), shingles("Hello!"));
        assertEquals(Set.of(), shingles("..."));
        // {a b, b c, c d} and {a b, b c, c e}: 2 common of 4 distinct
        assertEquals(0.5, jaccard(shingles("a b c d"), shingles("a b c e")), 0);
        assertEquals(0.0, jaccard(Set.of(), Set.of()), 0);
    }

    private static String randomText(Random r, String[] vocab, int words) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < words; i++) {
            b.append(vocab[r.nextInt(vocab.length)]).append(r.nextInt(4) == 0 ? ", " : " ");
        }
        return b.toString();
    }

    @Test
    void aBuilderFedTokenHashesSketchesTheirBigrams() {
        // the tokens 1, 2, 3, 2, 3: bigrams (1,2), (2,3), (3,2), (2,3): three distinct; against 1, 2, 3: two of three shared
        ShingleSketch.Builder a = ShingleSketch.builder(16);
        for (long h : new long[] { 1, 2, 3, 2, 3 }) {
            a.add(h);
        }
        ShingleSketch.Builder b = ShingleSketch.builder(16);
        for (long h : new long[] { 1, 2, 3 }) {
            b.add(h);
        }
        ShingleSketch sa = a.build();
        assertEquals(3, sa.size());
        assertEquals(2.0 / 3, sa.jaccard(b.build()), 1e-12);
        // one token is that token, not a bigram with nothing; none is empty
        ShingleSketch.Builder one = ShingleSketch.builder(16);
        one.add(7);
        assertEquals(1, one.build().size());
        assertEquals(0, ShingleSketch.builder(16).build().size());
    }
}
