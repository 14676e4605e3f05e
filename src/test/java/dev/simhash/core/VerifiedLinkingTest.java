package dev.simhash.core;

import dev.simhash.core.FingerprintSets;
import dev.simhash.core.MinHashSketch;
import dev.simhash.core.SimHash;
import dev.simhash.fold.GreedyFolding;
import dev.simhash.threshold.Verification;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.BitSet;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Grouping and folding with sketches: only pairs within the radius whose sketches estimate at least the threshold are
 * linked, and groups are the connected components of those verified pairs.
 */
class VerifiedLinkingTest {

    private static final Runnable NEVER = () -> {};
    private static final int BYTES = MinHashSketch.BYTES;
    private static final int BITS = BYTES * 8;

    /** A sketch of one-bit bins where bins [from, to) are set. */
    static byte[] sketch(int from, int to) {
        byte[] b = new byte[BYTES];
        for (int i = from; i < to; i++) {
            b[i >>> 3] |= (byte) (1 << (i & 7));
        }
        return b;
    }

    static NearDuplicateComponents.Sketches sketches(byte[][] perDoc, Verification v) {
        byte[] all = new byte[perDoc.length * BYTES];
        BitSet present = new BitSet();
        for (int d = 0; d < perDoc.length; d++) {
            if (perDoc[d] != null) {
                System.arraycopy(perDoc[d], 0, all, d * BYTES, BYTES);
                present.set(d);
            }
        }
        return new NearDuplicateComponents.Sketches(all, present, BYTES, v::linked);
    }

    static NearDuplicateComponents group(long[] hashes, byte[][] perDoc, Verification v) {
        return NearDuplicateComponents.find(hashes, sketches(perDoc, v), v.radius(), NEVER, g -> {}, null, 1);
    }

    /** The rule written literally: BFS over all pairs within the radius whose estimated similarity reaches the threshold. */
    static int[] bruteForce(long[] hashes, byte[][] perDoc, int r, double s) {
        return NearDuplicateComponentsTest.components(hashes.length, (a, b) -> perDoc[a] != null && perDoc[b] != null
            && SimHash.distance(hashes[a], hashes[b]) <= r && MinHashSketch.V1.similarity(perDoc[a], perDoc[b]) >= s);
    }

    @Test
    void aChainIsGroupedOnlyThroughItsVerifiedLinks() {
        Verification v = Verification.of(0.8);
        // a-b and b-c differ in 40 of 512 bins (0.84375), a-c in 80 (0.6875): below the threshold
        byte[] a = sketch(0, 0);
        byte[] b = sketch(0, 40);
        byte[] c = sketch(0, 80);
        assertTrue(MinHashSketch.V1.similarity(a, b) >= 0.8 && MinHashSketch.V1.similarity(b, c) >= 0.8);
        assertTrue(MinHashSketch.V1.similarity(a, c) < 0.8);
        long h = 0x1234_5678_9abc_def0L;
        long[] hashes = { h, h ^ 1, h ^ 3, 0x0f0f_0f0f_0f0f_0f0fL };
        NearDuplicateComponents chain = group(hashes, new byte[][] { a, b, c, sketch(0, 0) }, v);
        assertEquals(chain.componentOf(0), chain.componentOf(1));
        assertEquals(chain.componentOf(1), chain.componentOf(2));
        assertNotEquals(chain.componentOf(0), chain.componentOf(3), "an equal sketch beyond the radius is no candidate");
        assertEquals(3, chain.componentSize(chain.componentOf(0)));

        // without b, a and c are within the radius but below the threshold: not linked
        NearDuplicateComponents pair = group(new long[] { h, h ^ 3 }, new byte[][] { a, c }, v);
        assertNotEquals(pair.componentOf(0), pair.componentOf(1));
        // the same pair without verification is one group
        assertEquals(1, NearDuplicateComponents.find(new long[] { h, h ^ 3 }, v.radius(), NEVER).componentCount());
    }

    @Test
    void equalFingerprintsWithDifferentTextsFormSeparateGroupsWithUniqueIds() {
        Verification v = Verification.of(0.8);
        long h = 0x00ff_00ff_00ff_00ffL;
        // two pairs of equal fingerprints: documents 0, 1 share a sketch, 2 and 3 differ from them (and 2 from 3 by 40 bins);
        // 4 has the next fingerprint value, h + 1, as its own smallest; 5 has no sketch
        long[] hashes = { h, h, h, h, h + 1, h };
        byte[][] perDoc = { sketch(0, 0), sketch(0, 0), sketch(200, 440), sketch(200, 400), sketch(0, 512), null };
        NearDuplicateComponents c = group(hashes, perDoc, v);
        assertEquals(c.componentOf(0), c.componentOf(1));
        assertEquals(c.componentOf(2), c.componentOf(3));
        assertNotEquals(c.componentOf(0), c.componentOf(2));
        assertNotEquals(c.componentOf(5), c.componentOf(0), "a document without a sketch links to none");
        assertNotEquals(c.componentOf(5), c.componentOf(2));
        Set<Long> ids = new HashSet<>();
        for (int comp = 0; comp < c.componentCount(); comp++) {
            assertTrue(ids.add(c.componentMinHash(comp)), "group ids are unique");
        }
        assertEquals(h, c.componentMinHash(c.componentOf(0)), "the first in sketch order keeps its smallest fingerprint");
        assertEquals(h + 1, c.componentMinHash(c.componentOf(4)), "a group's own smallest fingerprint is never taken by another");
        assertEquals(0, c.representative(c.componentOf(1)));
        assertTrue(c.representative(c.componentOf(3)) == 2 || c.representative(c.componentOf(3)) == 3);
    }

    @Test
    void aReportNamesTheSameRepresentativeWhateverOrderIdenticalDocumentsWereReadIn() {
        Verification v = Verification.of(0.8);
        long h = 0x0123_4567_89ab_cdefL;
        byte[] same = sketch(100, 300);
        // three identical texts (same fingerprint and sketch) and an edited copy, read in every order the shards may give
        String[] ids = { "d3", "d1", "d2", "e" };
        int[][] orders = { {0, 1, 2, 3}, {3, 2, 1, 0}, {1, 3, 0, 2}, {2, 0, 3, 1} };
        for (int[] order : orders) {
            FingerprintTable table = new FingerprintTable();
            long[] hashes = new long[order.length];
            byte[][] perDoc = new byte[order.length][];
            for (int k = 0; k < order.length; k++) {
                boolean edited = ids[order[k]].equals("e");
                hashes[k] = edited ? h ^ 0x10 : h; // a larger fingerprint: never the representative
                perDoc[k] = edited ? sketch(100, 330) : same;
                table.add("news", ids[order[k]], hashes[k], null);
            }
            NearDuplicateComponents c = group(hashes, perDoc, v);
            DuplicateGroups.Page page = DuplicateGroups.page(table, c, 0, 10, 10,
                (a, b) -> MinHashSketch.V1.similarity(perDoc[a], perDoc[b]));
            assertEquals(1, page.groups().size(), Arrays.toString(order));
            DuplicateGroups.Group g = page.groups().get(0);
            assertEquals("d1", g.representative().id(), "the first by _id of the identical documents, read in order " + Arrays.toString(order));
            assertEquals(1.0, g.members().stream().filter(m -> m.id().equals("d3")).findFirst().orElseThrow().similarity());
        }
    }

    @Test
    void equalsBruteForceOnRandomFingerprintsAndSketches() {
        Random random = new Random(7);
        for (double s : new double[] { 0.5, 0.7, 0.8, 0.9 }) {
            Verification v = Verification.of(s);
            for (int round = 0; round < 4; round++) {
                int n = 600;
                long[] hashes = FingerprintSets.planted(random, n, 20, Math.max(1, v.radius()));
                // a few base texts; each document's sketch is a base with some bins changed (or none)
                byte[][] bases = new byte[12][];
                for (int i = 0; i < bases.length; i++) {
                    bases[i] = new byte[BYTES];
                    random.nextBytes(bases[i]);
                }
                byte[][] perDoc = new byte[n][];
                for (int d = 0; d < n; d++) {
                    if (random.nextInt(50) == 0) {
                        continue;
                    }
                    byte[] sk = bases[random.nextInt(bases.length)].clone();
                    int changes = random.nextInt(4) == 0 ? 0 : random.nextInt(BITS / 6);
                    for (int k = 0; k < changes; k++) {
                        int bit = random.nextInt(BITS);
                        sk[bit >>> 3] ^= (byte) (1 << (bit & 7));
                    }
                    perDoc[d] = sk;
                }
                // parallel and single-threaded grouping agree with the rule
                NearDuplicateComponents one = group(hashes, perDoc, v);
                NearDuplicateComponents parallel = NearDuplicateComponents.find(hashes, sketches(perDoc, v), v.radius(), NEVER, g -> {},
                    Runnable::run, 4);
                int[] expected = bruteForce(hashes, perDoc, v.radius(), s);
                assertArrayEquals(expected, NearDuplicateComponentsTest.canonical(one), "s " + s + " round " + round);
                assertArrayEquals(expected, NearDuplicateComponentsTest.canonical(parallel), "s " + s + " round " + round);
                Set<Long> ids = new HashSet<>();
                for (int comp = 0; comp < one.componentCount(); comp++) {
                    assertTrue(ids.add(one.componentMinHash(comp)));
                }
            }
        }
    }

    @Test
    void foldingSkipsARepresentativeItsSketchDoesNotVerify() {
        long h = 0x5555_aaaa_5555_aaaaL;
        long[] hashes = { h, h ^ 0xF0L, h ^ 1 };
        boolean[] hasHash = { true, true, true };
        // hit 2 is 1 bit from hit 0 but another text; 5 bits from hit 1 (within the radius) with its text
        byte[][] sk = { sketch(0, 300), sketch(0, 0), sketch(0, 20) };
        Verification v = Verification.of(0.8);
        assertTrue(v.radius() >= 5, "the test needs a radius of at least 5, got " + v.radius());
        GreedyFolding f = GreedyFolding.fold(hashes, hasHash, v.radius(), (i, rep) -> v.linked(sk[i], 0, sk[rep], 0)
            ? Verification.similarity(sk[i], 0, sk[rep], 0) : Double.NaN);
        assertEquals(GreedyFolding.SELF, f.representativeOf(0));
        assertEquals(GreedyFolding.SELF, f.representativeOf(1), "within the radius of hit 0 but not verified");
        assertEquals(1, f.representativeOf(2));
        assertEquals(5, f.distance(2));
        assertEquals(MinHashSketch.V1.similarity(sk[2], sk[1]), f.similarity(2));
        assertEquals(1.0, f.similarity(1));
        // without the verifier, the radius alone folds both under hit 0
        GreedyFolding plain = GreedyFolding.fold(hashes, hasHash, v.radius());
        assertEquals(0, plain.representativeOf(1));
        assertEquals(0, plain.representativeOf(2));
        assertTrue(Double.isNaN(plain.similarity(2)));
    }
}
