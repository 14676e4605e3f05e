package dev.simhash.fold;

import dev.simhash.core.SimHash;
import dev.simhash.core.FingerprintSets;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class GreedyFoldingTest {

    /** Reference: the rule written as literally as possible, over lists. */
    static int[] reference(long[] hashes, boolean[] hasHash, int r) {
        int[] repOf = new int[hashes.length];
        List<Integer> reps = new ArrayList<>();
        for (int i = 0; i < hashes.length; i++) {
            repOf[i] = GreedyFolding.SELF;
            if (hasHash[i]) {
                for (int rep : reps) {
                    if (hasHash[rep] && SimHash.distance(hashes[i], hashes[rep]) <= r) {
                        repOf[i] = rep;
                        break;
                    }
                }
            }
            if (repOf[i] == GreedyFolding.SELF) {
                reps.add(i);
            }
        }
        return repOf;
    }

    /** Reference of the fold by keys: a hit joins the first earlier representative that shares a key and verifies. */
    static int[] referenceByKeys(long[][] keys, GreedyFolding.Verifier verifier) {
        int[] repOf = new int[keys.length];
        List<Integer> reps = new ArrayList<>();
        for (int i = 0; i < keys.length; i++) {
            repOf[i] = GreedyFolding.SELF;
            for (int rep : reps) {
                if (keys[i] != null && keys[rep] != null && shareAKey(keys[i], keys[rep]) && !Double.isNaN(verifier.verify(i, rep))) {
                    repOf[i] = rep;
                    break;
                }
            }
            if (repOf[i] == GreedyFolding.SELF) {
                reps.add(i);
            }
        }
        return repOf;
    }

    static boolean shareAKey(long[] a, long[] b) {
        for (long x : a) {
            for (long y : b) {
                if (x == y) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * A fold by keys as {@link #referenceByKeys} folds: each hit's representative, its fingerprints' distance to it and the
     * verifier's similarity ({@code similarity}, 1 for a representative). Returns the hits folded.
     */
    private static int assertFoldsAsTheReference(GreedyFolding f, long[] hashes, long[][] keys, GreedyFolding.Verifier verifier,
                                                 double similarity, int round) {
        int[] expected = referenceByKeys(keys, verifier);
        int folded = 0;
        for (int i = 0; i < hashes.length; i++) {
            assertEquals(expected[i], f.representativeOf(i), "round " + round + ", hit " + i);
            int rep = f.representativeOf(i);
            if (rep != GreedyFolding.SELF) {
                assertEquals(SimHash.distance(hashes[i], hashes[rep]), f.distance(i));
                assertEquals(similarity, f.similarity(i));
                folded++;
            } else {
                assertEquals(1.0, f.similarity(i));
            }
        }
        return folded;
    }

    @Test
    void foldByKeysEqualsTheReferenceOnRandomRankedLists() {
        Random random = new Random(23);
        int folded = 0;
        int skippedUnverified = 0;
        for (int round = 0; round < 200; round++) {
            int n = 1 + random.nextInt(400);
            int values = 2 + random.nextInt(60);
            long[][] keys = new long[n][];
            long[] hashes = new long[n];
            boolean[] hasHash = new boolean[n];
            for (int i = 0; i < n; i++) {
                hashes[i] = random.nextLong();
                hasHash[i] = random.nextInt(15) != 0;
                if (hasHash[i]) {
                    keys[i] = new long[1 + random.nextInt(4)];
                    for (int k = 0; k < keys[i].length; k++) {
                        keys[i][k] = random.nextInt(values);
                    }
                }
            }
            // a pair verifies when a hash-derived coin says so: some candidates are rejected, in no particular order
            GreedyFolding.Verifier verifier = (i, rep) -> ((hashes[i] ^ hashes[rep]) & 3) != 0 ? 0.9 : Double.NaN;
            GreedyFolding f = GreedyFolding.foldByKeys(hashes, hasHash, keys, verifier);
            folded += assertFoldsAsTheReference(f, hashes, keys, verifier, 0.9, round);
            for (int i = 0; i < n; i++) {
                int rep = f.representativeOf(i);
                for (int earlier = 0; rep != GreedyFolding.SELF && earlier < rep; earlier++) {
                    if (f.representativeOf(earlier) == GreedyFolding.SELF && keys[earlier] != null && shareAKey(keys[i], keys[earlier])) {
                        skippedUnverified++;
                    }
                }
            }
        }
        assertTrue(folded > 1000, "folds happen: " + folded);
        assertTrue(skippedUnverified > 50, "earlier candidates that did not verify were passed over: " + skippedUnverified);
    }

    @Test
    void foldBySketchBandsEqualsTheReferenceOnRandomSketches() {
        Random random = new Random(29);
        int folded = 0;
        int pastTheScan = 0;
        for (int round = 0; round < 150; round++) {
            int n = 1 + random.nextInt(400);
            int values = 2 + random.nextInt(random.nextBoolean() ? 40 : 4000);
            long[] hashes = new long[n];
            boolean[] hasHash = new boolean[n];
            byte[][] sketches = new byte[n][];
            long[][] keys = new long[n][];
            for (int i = 0; i < n; i++) {
                hashes[i] = random.nextLong();
                hasHash[i] = random.nextInt(15) != 0;
                if (random.nextInt(20) == 0) {
                    continue; // no sketch
                }
                // minhash-v1: 64 bytes of bins, then 14 band keys of 5 bytes, big-endian (docs/spec/minhash-v1.md)
                byte[] sketch = new byte[64 + 14 * 5];
                random.nextBytes(sketch);
                long[] mine = new long[14];
                for (int band = 0; band < 14; band++) {
                    // few distinct keys, and their last bytes fewer still: equal last bytes of different keys are common
                    long key = (long) random.nextInt(values) << 8 | random.nextInt(4);
                    for (int b = 0; b < 5; b++) {
                        sketch[64 + 5 * band + b] = (byte) (key >>> (8 * (4 - b)));
                    }
                    mine[band] = (long) band << 40 | key;
                }
                sketches[i] = sketch;
                keys[i] = hasHash[i] ? mine : null;
            }
            GreedyFolding.Verifier verifier = (i, rep) -> ((hashes[i] ^ hashes[rep]) & 3) != 0 ? 0.85 : Double.NaN;
            GreedyFolding f = GreedyFolding.foldBySketchBands(hashes, hasHash, sketches, verifier);
            folded += assertFoldsAsTheReference(f, hashes, keys, verifier, 0.85, round);
            if (f.groupCount() > GreedyFolding.SCAN_UP_TO + 20) {
                pastTheScan++;
            }
        }
        assertTrue(folded > 1000, "folds happen: " + folded);
        assertTrue(pastTheScan > 30, "many folds go on by the map after the pass over the first representatives: " + pastTheScan);
    }

    @Test
    void equalsTheReferenceAndSatisfiesTheRuleOnRandomRankedLists() {
        Random random = new Random(17);
        int folded = 0;
        for (int round = 0; round < 200; round++) {
            int n = 1 + random.nextInt(400);
            int r = random.nextInt(12);
            long[] hashes = FingerprintSets.planted(random, n, 1 + random.nextInt(20), r + 3);
            boolean[] hasHash = new boolean[n];
            for (int i = 0; i < n; i++) {
                hasHash[i] = random.nextInt(12) != 0;
            }
            GreedyFolding f = GreedyFolding.fold(hashes, hasHash, r);
            int[] expected = reference(hashes, hasHash, r);
            int[] actual = new int[n];
            for (int i = 0; i < n; i++) {
                actual[i] = f.representativeOf(i);
            }
            assertArrayEquals(expected, actual, "round " + round);
            checkRule(hashes, hasHash, r, f);
            folded += n - f.groupCount();
        }
        assertTrue(folded > 5000, "planted near-duplicates must fold, folded " + folded);
    }

    /** The defining properties, checked independently of any implementation. */
    static void checkRule(long[] hashes, boolean[] hasHash, int r, GreedyFolding f) {
        int[] counted = new int[hashes.length];
        List<Integer> reps = new ArrayList<>();
        for (int i = 0; i < hashes.length; i++) {
            int rep = f.representativeOf(i);
            if (rep == GreedyFolding.SELF) {
                reps.add(i);
                assertEquals(0, f.distance(i));
                if (hasHash[i]) {
                    for (int earlier : reps) {
                        if (earlier < i && hasHash[earlier]) {
                            assertTrue(SimHash.distance(hashes[i], hashes[earlier]) > r, "representative " + i + " is near " + earlier);
                        }
                    }
                }
            } else {
                assertTrue(hasHash[i] && hasHash[rep] && rep < i);
                assertEquals(GreedyFolding.SELF, f.representativeOf(rep));
                assertEquals(SimHash.distance(hashes[i], hashes[rep]), f.distance(i));
                assertTrue(f.distance(i) <= r);
                for (int earlier : reps) {
                    if (earlier < rep && hasHash[earlier]) {
                        assertTrue(SimHash.distance(hashes[i], hashes[earlier]) > r, i + " should have joined " + earlier);
                    }
                }
                counted[rep]++;
            }
        }
        for (int i = 0; i < hashes.length; i++) {
            assertEquals(counted[i], f.foldedInto(i));
        }
        assertArrayEquals(reps.stream().mapToInt(Integer::intValue).toArray(), f.representatives());
    }

    @Test
    void handWorkedExample() {
        long a = 0L;
        long b = 0b11L;        // 2 from a
        long c = 0b1111_0000L; // 4 from a, 6 from b
        long d = 0b1111_0001L; // 1 from c, 5 from a
        long[] hashes = { a, c, b, d, 0, a };
        boolean[] hasHash = { true, true, true, true, false, true };
        GreedyFolding f = GreedyFolding.fold(hashes, hasHash, 3);
        assertEquals(GreedyFolding.SELF, f.representativeOf(0));
        assertEquals(GreedyFolding.SELF, f.representativeOf(1));
        assertEquals(0, f.representativeOf(2));
        assertEquals(2, f.distance(2));
        assertEquals(1, f.representativeOf(3));
        assertEquals(GreedyFolding.SELF, f.representativeOf(4), "no fingerprint: never folded");
        assertEquals(0, f.representativeOf(5));
        assertArrayEquals(new int[] { 0, 1, 4 }, f.representatives());
        assertEquals(2, f.foldedInto(0));
        assertEquals(1, f.foldedInto(1));
        assertEquals(3, f.groupCount());
    }

    @Test
    void aHitJoinsTheFirstRepresentativeNotTheNearest() {
        long first = 0b111L;  // 3 bits from the hit
        long second = 0L;     // identical to the hit
        GreedyFolding f = GreedyFolding.fold(new long[] { first, second | (1L << 40) | (1L << 41) | (1L << 42) | (1L << 43), 0L },
            new boolean[] { true, true, true }, 3);
        assertEquals(0, f.representativeOf(2));
        assertEquals(3, f.distance(2));
    }

    @Test
    void radiusZeroFoldsOnlyIdenticalFingerprints() {
        GreedyFolding f = GreedyFolding.fold(new long[] { 1, 3, 1, 3, 2 }, new boolean[] { true, true, true, true, true }, 0);
        assertArrayEquals(new int[] { 0, 1, 4 }, f.representatives());
        assertFalse(f.representativeOf(2) == GreedyFolding.SELF);
    }
}
