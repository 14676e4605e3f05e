package dev.simhash.core;

import dev.simhash.core.MinHashSketch;
import dev.simhash.threshold.Verification;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Grouping by the sketches' bands: the components equal those of the rule written literally (every pair sharing a band key
 * whose sketches reach the threshold, linked transitively) wherever no bucket is hot; hot buckets stay linear; ids and
 * representatives follow the report's rule.
 */
class BandComponentsTest {

    private static final Runnable NEVER = () -> {};
    private static final int BYTES = MinHashSketch.BYTES;
    /** Where the band keys start and how long each is, written here from the contract (docs/spec/minhash-v1.md). */
    private static final int KEYS_AT = 64;
    private static final int KEY_BYTES = 5;
    private static final int BANDS = 14;

    static NearDuplicateComponents.Sketches sketches(byte[][] perDoc, Verification v) {
        return VerifiedLinkingTest.sketches(perDoc, v);
    }

    static boolean shareABand(byte[] a, byte[] b) {
        for (int j = 0; j < BANDS; j++) {
            int at = KEYS_AT + KEY_BYTES * j;
            if (Arrays.equals(a, at, at + KEY_BYTES, b, at, at + KEY_BYTES)) {
                return true;
            }
        }
        return false;
    }

    /** The rule written literally: BFS over all pairs that share a band and whose estimated similarity reaches the threshold. */
    static int[] bruteForce(byte[][] perDoc, double s) {
        return NearDuplicateComponentsTest.components(perDoc.length, (a, b) -> perDoc[a] != null && perDoc[b] != null
            && shareABand(perDoc[a], perDoc[b]) && MinHashSketch.V1.similarity(perDoc[a], perDoc[b]) >= s);
    }

    /**
     * Sketches of {@code n} documents drawn from {@code bases} random bases: each copies a base, flips some bins and redraws
     * some band keys (a near-duplicate shares some bands and not others), or has no sketch at all (1 in 40).
     */
    static byte[][] planted(Random random, int n, int bases) {
        byte[][] base = new byte[bases][];
        for (int i = 0; i < bases; i++) {
            base[i] = new byte[BYTES];
            random.nextBytes(base[i]);
        }
        byte[][] perDoc = new byte[n][];
        for (int d = 0; d < n; d++) {
            if (random.nextInt(40) == 0) {
                continue;
            }
            byte[] sk = base[random.nextInt(bases)].clone();
            int flips = random.nextInt(3) == 0 ? 0 : random.nextInt(180);
            for (int k = 0; k < flips; k++) {
                int bit = random.nextInt(KEYS_AT * 8);
                sk[bit >>> 3] ^= (byte) (1 << (bit & 7));
            }
            int redraw = random.nextInt(BANDS + 1);
            for (int j = 0; j < redraw; j++) {
                int band = random.nextInt(BANDS);
                byte[] key = new byte[KEY_BYTES];
                random.nextBytes(key);
                System.arraycopy(key, 0, sk, KEYS_AT + KEY_BYTES * band, KEY_BYTES);
            }
            perDoc[d] = sk;
        }
        return perDoc;
    }

    static int compareSketches(byte[] a, byte[] b) {
        if (a == null || b == null) {
            return a == null ? (b == null ? 0 : 1) : -1;
        }
        return Arrays.compareUnsigned(a, b);
    }

    @Test
    void equalsBruteForceOnRandomSketchesWithPlantedGroups() {
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            equalsBruteForce(pool);
        } finally {
            pool.shutdownNow();
        }
    }

    private void equalsBruteForce(ExecutorService pool) {
        Random random = new Random(11);
        int rounds = 0;
        for (double s : new double[] { 0.78, 0.8, 0.9 }) {
            Verification v = Verification.of(s);
            for (int round = 0; round < 4; round++, rounds++) {
                int n = 500 + random.nextInt(300);
                byte[][] perDoc = planted(random, n, 15 + random.nextInt(30));
                long[] hashes = new long[n];
                for (int d = 0; d < n; d++) {
                    // few distinct fingerprints: equal ones in different groups must get distinct ids
                    hashes[d] = random.nextInt(4) == 0 ? random.nextInt(8) : random.nextLong();
                }
                NearDuplicateComponents c = BandComponents.find(hashes, sketches(perDoc, v), NEVER, g -> {}, null, 1);
                assertEquals(0, c.hotBuckets(), "no bucket holds more than " + BandComponents.HOT + " documents here");
                assertArrayEquals(bruteForce(perDoc, s), NearDuplicateComponentsTest.canonical(c), "s " + s + " round " + round);
                // joined in several threads (pool threads, or tasks run in the caller's thread in turn): the same groups, ids and
                // representatives
                NearDuplicateComponents parallel = BandComponents.find(hashes, sketches(perDoc, v), NEVER, g -> {},
                    round % 2 == 0 ? pool : Runnable::run, 2 + round);
                for (int d = 0; d < n; d++) {
                    assertEquals(c.componentMinHash(c.componentOf(d)), parallel.componentMinHash(parallel.componentOf(d)));
                    assertEquals(c.representative(c.componentOf(d)), parallel.representative(parallel.componentOf(d)));
                }
                checkIdsAndRepresentatives(hashes, perDoc, c);
            }
        }
        assertEquals(12, rounds);
    }

    /**
     * Ids unique; each component's representative is its member with the smallest fingerprint (unsigned), then the smallest
     * sketch; components numbered in that order, and each keeps its representative's fingerprint as id unless an earlier
     * component has it.
     */
    static void checkIdsAndRepresentatives(long[] hashes, byte[][] perDoc, NearDuplicateComponents c) {
        Set<Long> ids = new HashSet<>();
        int total = 0;
        for (int comp = 0; comp < c.componentCount(); comp++) {
            assertTrue(ids.add(c.componentMinHash(comp)), "group ids are unique");
            int rep = c.representative(comp);
            assertEquals(comp, c.componentOf(rep));
            total += c.componentSize(comp);
            if (comp > 0) {
                int previous = c.representative(comp - 1);
                int order = Long.compareUnsigned(hashes[previous], hashes[rep]);
                assertTrue(order < 0 || (order == 0 && compareSketches(perDoc[previous], perDoc[rep]) <= 0), "components in order");
                if (order < 0) {
                    assertEquals(hashes[rep], c.componentMinHash(comp));
                }
            }
        }
        assertEquals(hashes.length, total);
        for (int d = 0; d < hashes.length; d++) {
            int rep = c.representative(c.componentOf(d));
            int order = Long.compareUnsigned(hashes[rep], hashes[d]);
            assertTrue(order < 0 || (order == 0 && compareSketches(perDoc[rep], perDoc[d]) <= 0),
                "document " + d + " comes after its representative " + rep);
        }
    }

    @Test
    void aHotBucketIsCheckedAgainstItsAnchorsOnly() {
        Verification v = Verification.of(0.8);
        Random random = new Random(3);
        int n = 2_000;
        // every document shares band 0's key (boilerplate), otherwise unrelated: one hot bucket, no pair similar enough
        byte[][] perDoc = new byte[n][];
        long[] hashes = new long[n];
        for (int d = 0; d < n; d++) {
            perDoc[d] = new byte[BYTES];
            random.nextBytes(perDoc[d]);
            Arrays.fill(perDoc[d], KEYS_AT, KEYS_AT + KEY_BYTES, (byte) 7);
            hashes[d] = random.nextLong();
        }
        NearDuplicateComponents c = BandComponents.find(hashes, sketches(perDoc, v), NEVER, g -> {}, null, 1);
        assertEquals(1, c.hotBuckets());
        assertEquals(n, c.componentCount(), "unrelated texts stay apart");
        long anchorsPairs = (long) BandComponents.ANCHORS * n;
        assertTrue(c.comparisons() <= anchorsPairs, "linear in the bucket: " + c.comparisons() + " checks, not " + (long) n * (n - 1) / 2);
        assertTrue(c.comparisons() >= anchorsPairs - (long) BandComponents.ANCHORS * BandComponents.ANCHORS, "every member against every anchor");

        // the same bucket, all copies of one text: the anchors link every member into one group
        byte[] text = perDoc[0];
        for (int d = 0; d < n; d++) {
            perDoc[d] = text.clone();
            perDoc[d][d % KEYS_AT] ^= 1; // one bin apart from the text: similar enough, the band keys all equal
        }
        NearDuplicateComponents copies = BandComponents.find(hashes, sketches(perDoc, v), NEVER, g -> {}, null, 1);
        assertEquals(1, copies.componentCount());
        assertEquals(BANDS, copies.hotBuckets());
    }

    @Test
    void documentsWithoutASketchAreGroupsOfTheirOwnAndEqualSketchesAreOneGroup() {
        Verification v = Verification.of(0.8);
        Random random = new Random(5);
        byte[] a = new byte[BYTES];
        random.nextBytes(a);
        long h = 0x0f0f_0f0f_0f0f_0f0fL;
        // 0 and 2 have equal sketches and fingerprints far apart (no radius would find them), 1 and 3 have none
        NearDuplicateComponents c = BandComponents.find(new long[] { h, h, ~h, h }, sketches(new byte[][] { a, null, a.clone(), null }, v),
            NEVER, g -> {}, null, 1);
        assertEquals(c.componentOf(0), c.componentOf(2));
        assertNotEquals(c.componentOf(0), c.componentOf(1));
        assertNotEquals(c.componentOf(1), c.componentOf(3));
        assertEquals(3, c.componentCount());
        assertEquals(0, BandComponents.find(new long[0], sketches(new byte[0][], v), NEVER, g -> {}, null, 1).componentCount());
    }

    @Test
    void cancellationAbortsBetweenBandsAndWithinABand() {
        Verification v = Verification.of(0.8);
        byte[][] perDoc = planted(new Random(9), 400, 3);
        long[] hashes = new long[perDoc.length];
        int[] calls = new int[1];
        RuntimeException cancelled = new RuntimeException("cancelled");
        RuntimeException thrown = assertThrows(RuntimeException.class, () -> BandComponents.find(hashes, sketches(perDoc, v), () -> {
            if (++calls[0] == 3) {
                throw cancelled;
            }
        }, g -> {}, null, 1, 10));
        assertSame(cancelled, thrown, "the cancellation itself, as the caller threw it");
        assertEquals(3, calls[0]);
    }
}
