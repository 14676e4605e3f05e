package dev.simhash.bench;

import dev.simhash.core.SimHashV2;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class SketchWidthTest {

    @Test
    void firstHalfIsSimhashV2AndSecondHalfDiffers() {
        for (String text : List.of("The central bank left its rate unchanged.", "国家统计局今天发布数据", "a", "la di la di la di")) {
            long[] f = SketchWidth.fingerprints(text);
            assertEquals(SimHashV2.fingerprint(text, 1).getAsLong(), f[0], text);
            assertNotEquals(f[0], f[1], text);
        }
        assertNull(SketchWidth.fingerprints(" ,.; "));
    }

    @Test
    void remixIsABijectionOnSamples() {
        // the finalizer's inverse: undo each xor-shift and multiply by the inverse of each odd constant
        for (long z : new long[] { 0, 1, -1, 42, 0x9E3779B97F4A7C15L, Long.MIN_VALUE }) {
            long y = SketchWidth.remix(z);
            y ^= y >>> 33;
            y *= 0x9cb4b2f8129337dbL; // inverse of 0xc4ceb9fe1a85ec53 mod 2^64
            y ^= y >>> 33;
            y *= 0x4f74430c22a54005L; // inverse of 0xff51afd7ed558ccd mod 2^64
            y ^= y >>> 33;
            assertEquals(z, y);
        }
    }

    @Test
    void rowCountsCumulatively() {
        // distances 0..3: 2 pairs at 0 (both near), 1 grey pair at 1, 2 unrelated pairs at 2, 1 near pair at 3; 3 near in all
        long[] all = { 2, 1, 2, 1 };
        long[] near = { 2, 0, 0, 1 };
        long[] grey = { 0, 1, 0, 0 };
        // k=0: P 1, R 2/3, F1 0.8; k=3: P 3/6, R 1, F1 0.667; recall 1 first at k=3 with P 0.5 (w/o grey 3/5)
        assertEquals("| c | 64 | k=0: 1.000 (1.000) / 0.667 / 0.800 | k=3: 0.500 (0.600) |",
            SketchWidth.row("c", "64", SketchWidth.curve(all, near, grey, 3)));
        // with chance counts (one of the two unrelated pairs at distance 2 has J < 0.2; 1,000 pairs outside the truth)
        NaturalQuality.Curve counted = new NaturalQuality.Curve(NaturalQuality.cum(all), NaturalQuality.cum(near), NaturalQuality.cum(grey),
            NaturalQuality.cum(new long[] { 0, 0, 1, 0 }), 3, 1000, 0, 0, null, List.of(), null, 0);
        assertEquals("| c | 64 | k=0: 1.000 (1.000) / 0.667 / 0.800 | k=3: 0.500 (0.600); J < 0.2: 1.0e-03 |", SketchWidth.row("c", "64", counted));
    }

    @Test
    void perKRowGivesPrecisionWithoutGreyAndRecallFromThreeToTwelve() {
        // 13 distances: 4 near pairs of 5 at distance 3, 1 grey and 1 unrelated pair at 5, 1 near pair at 12
        long[] all = new long[13];
        long[] near = new long[13];
        long[] grey = new long[13];
        all[3] = 4;
        near[3] = 4;
        all[5] = 2;
        grey[5] = 1;
        all[12] = 1;
        near[12] = 1;
        // k=3,4: P w/o grey 4/4, R 4/5; k=5..11: 4/5 (the unrelated pair), R 4/5; k=12: 5/6, R 1
        assertEquals("| c | s | 1.000 / 0.800 | 1.000 / 0.800 |" + " 0.800 / 0.800 |".repeat(7) + " 0.833 / 1.000 |",
            SketchWidth.perKRow("c", "s", SketchWidth.curve(all, near, grey, 5)));
    }

    @Test
    void simhashOfV2sFeatureHashesIsV2() {
        for (String text : List.of("The central bank left its rate unchanged.", "国家统计局今天发布数据", "la di la di la di")) {
            assertEquals(SimHashV2.fingerprint(text, 1).getAsLong(), SketchWidth.simhash(SketchWidth.featureHashes(text)), text);
        }
    }

    @Test
    void oneBitMinHashDependsOnTheSetOnly() {
        assertEquals(SketchWidth.oneBitMinHash(new long[] { 3, 1, 2 }, 7), SketchWidth.oneBitMinHash(new long[] { 2, 3, 1 }, 7));
        assertEquals(0, SketchWidth.oneBitMinHash(new long[0], 7));
        assertNotEquals(SketchWidth.oneBitMinHash(new long[] { 1, 2, 3 }, 7), SketchWidth.oneBitMinHash(new long[] { 1, 2, 4 }, 7));
        assertNotEquals(SketchWidth.oneBitMinHash(new long[] { 1, 2, 3 }, 7), SketchWidth.oneBitMinHash(new long[] { 1, 2, 3 }, 8));
    }

    /**
     * For sets with Jaccard similarity J (built so, not measured), a bit differs with probability (1 - J) / 2: the mean
     * distance over many random pairs is 32 (1 - J), for sets smaller than the 64 bins (densified) as well as larger ones.
     */
    @Test
    void oneBitMinHashDistanceEstimatesJaccard() {
        Random random = new Random(20261124L);
        // {common, only in a, only in b}: J = common / (common + a + b)
        int[][] shapes = { { 160, 20, 20 }, { 100, 50, 50 }, { 40, 80, 80 }, { 0, 100, 100 }, { 8, 1, 1 }, { 5, 5, 5 }, { 0, 1, 1 } };
        int trials = 2000;
        long seed = random.nextLong();
        for (int[] shape : shapes) {
            double j = shape[0] / (double) (shape[0] + shape[1] + shape[2]);
            long sum = 0;
            for (int t = 0; t < trials; t++) {
                long[] common = random.longs(shape[0]).toArray();
                long[] a = concat(common, random.longs(shape[1]).toArray());
                long[] b = concat(common, random.longs(shape[2]).toArray());
                sum += Long.bitCount(SketchWidth.oneBitMinHash(a, seed) ^ SketchWidth.oneBitMinHash(b, seed));
            }
            double mean = sum / (double) trials;
            // the mean of 2000 distances has a standard error below 0.1 bits (a distance's deviation is at most 4 bits)
            assertEquals(32 * (1 - j), mean, 0.6, "J = " + j);
        }
    }

    private static long[] concat(long[] a, long[] b) {
        long[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
