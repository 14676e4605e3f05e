package dev.simhash.bench;

import dev.simhash.core.MinHashSketch;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class VerifiedTest {

    static String text(Random r, int words) {
        String[] vocab = "the bank rate left unchanged markets data price rose fell said on in of a 国 家 统 计 局".split(" ");
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < words; i++) {
            sb.append(vocab[r.nextInt(vocab.length)]).append(' ');
        }
        return sb.toString();
    }

    /** The packed word-wise comparison counts the same equal bins as the production sketch's own comparison. */
    @Test
    void equalBinsOfPackedSketchesMatchTheSketchClass() {
        Random r = new Random(7);
        for (int bits : new int[] { 1, 2, 4, 8 }) {
            MinHashSketch sk = new MinHashSketch(2, 512 / bits, bits);
            for (int i = 0; i < 50; i++) {
                String a = text(r, 3 + r.nextInt(60));
                // a near copy half of the time, so that high and low similarities both occur
                String b = r.nextBoolean() ? a + text(r, r.nextInt(4)) : text(r, 3 + r.nextInt(60));
                byte[] sa = sk.sketch(a);
                byte[] sb = sk.sketch(b);
                assertEquals(sk.equalBins(sa, 0, sb, 0), Verified.equalBins(Verified.pack(sa), Verified.pack(sb), sk.bins(), bits),
                    "bits " + bits + " pair " + i);
            }
        }
    }

    @Test
    void equalBinsCountsBinsNotBits() {
        // 2 bits per bin: bins 0 and 1 differ (one bit, two bits), bins 2..31 equal
        long[] a = { 0b0000L };
        long[] b = { 0b1110L };
        assertEquals(30, Verified.equalBins(a, b, 32, 2));
        // 8 bits per bin: bin 1 differs in its top bit only
        assertEquals(7, Verified.equalBins(new long[] { 0 }, new long[] { 0x8000L }, 8, 8));
        // 4 bits per bin: the lowest bit of bin 15 (bit 60)
        assertEquals(15, Verified.equalBins(new long[] { 0 }, new long[] { 1L << 60 }, 16, 4));
    }

    @Test
    void packIsLittleEndian() {
        assertArrayEquals(new long[] { 0x0201L, 0x03L }, Verified.pack(new byte[] { 1, 2, 0, 0, 0, 0, 0, 0, 3 }));
    }

    static long packed(int i, int j, double jac) {
        return ((((long) i << 20) | j) << 23) | Math.round(jac * 0x7FFFFF);
    }

    @Test
    void truthJaccardFindsStoredPairsAndOnlyThem() {
        long[] pairs = { packed(0, 3, 0.5), packed(1, 2, 0.9), packed(1, 5, 0.75), packed(7, 8, 1.0) };
        assertEquals(0.9, Verified.truthJaccard(pairs, 1, 2), 1e-6);
        assertEquals(0.75, Verified.truthJaccard(pairs, 1, 5), 1e-6);
        assertEquals(1.0, Verified.truthJaccard(pairs, 7, 8), 1e-6);
        assertEquals(0.5, Verified.truthJaccard(pairs, 0, 3), 1e-6);
        assertEquals(-1, Verified.truthJaccard(pairs, 1, 3));
        assertEquals(-1, Verified.truthJaccard(pairs, 2, 1));
        assertEquals(-1, Verified.truthJaccard(new long[0], 0, 1));
    }

    @Test
    void tallyReportsPairsWithinTheRadiusAndAboveTheBinsOnly() {
        // pairs: (distance, equal bins, J)
        int[] distance = { 2, 9, 3, 12, 5, 1 };
        int[] equal = { 500, 500, 400, 500, 480, 300 };
        double[] jac = { 0.95, 0.85, 0.6, 0.9, -1, 0.55 };
        // two thresholds: radius 10 and 100 equal bins; radius 4 and 450 equal bins
        Verified.Tally t = Verified.tally(distance, equal, jac, new int[] { 10, 4 }, new int[] { 450, 100 });
        // t0: pairs 0 (near), 1 (near), 4 (J < 0.5) within 10 bits with >= 450 bins; pair 3 is too far, 2 and 5 have too few bins
        assertArrayEquals(new long[] { 3, 3 }, t.reported());
        assertArrayEquals(new long[] { 2, 1 }, t.near());
        // t1: pairs 0 (near), 2 (grey), 5 (grey) within 4 bits with >= 100 bins
        assertArrayEquals(new long[] { 0, 2 }, t.grey());
        Verified.Scores s = new Verified.Scores(Verified.Variant.of(5, 512, 1), false, new int[] { 10, 4 }, t, 4, false);
        assertEquals(2 / 3.0, s.precision(0), 1e-12);
        assertEquals(2 / 3.0, s.precisionNoGrey(0), 1e-12); // no grey pair at t0: the J < 0.5 pair stays wrong
        assertEquals(0.5, s.recall(0), 1e-12);
        assertEquals(1 / 3.0, s.precision(1), 1e-12);
        assertEquals(1.0, s.precisionNoGrey(1), 1e-12);
        assertEquals(2 * (1 / 3.0) * 0.25 / (1 / 3.0 + 0.25), s.f1(1), 1e-12);
    }

    /** The rule as released: from 0.78 on a pair is a candidate iff its sketches share a band key, at any distance. */
    @Test
    void fromTheBandThresholdTheBandsAndNotTheRadiusMakeACandidate() {
        int n = Verified.THRESHOLDS.length;
        int[] radius = new int[n];
        java.util.Arrays.fill(radius, 16);
        int[] minEqual = new int[n]; // every pair's sketch passes
        // pair 0: 20 bits apart, shares one band; pair 1: 3 bits apart, shares none
        int[] distance = { 20, 3 };
        int[] equal = { 500, 500 };
        double[] jac = { 0.9, 0.9 };
        Verified.Tally t = Verified.tally(distance, equal, jac, radius, minEqual, new int[] { 1, 0 });
        for (int i = 0; i < n; i++) {
            boolean bands = Verified.THRESHOLDS[i] >= 0.78;
            assertEquals(1, t.reported()[i], "one pair either way at " + Verified.THRESHOLDS[i]);
            // which one: the far pair sharing a band from 0.78, the near pair without one below
            Verified.Tally only0 = Verified.tally(new int[] { 20 }, new int[] { 500 }, new double[] { 0.9 }, radius, minEqual, new int[] { 1 });
            assertEquals(bands ? 1 : 0, only0.reported()[i]);
        }
        Verified.Scores s = new Verified.Scores(Verified.released().get(0), false, radius, t, 2, true);
        assertEquals("1 band", s.rule(Verified.defaultIndex()));
        assertEquals("16", s.rule(0));
        assertTrue(s.label().endsWith(", 14 band keys from 0.78"), s.label());
    }

    @Test
    void candidateStageCountsPairsAtAndAboveTheThreshold() {
        int[] distance = { 3, 8, 14, 20, 5, 30 };
        double[] jac = { 0.95, 0.82, 0.81, 0.8, 0.7, 0.5 };
        Verified.CandidateStage c = Verified.candidateStage(distance, jac, new double[] { 0.8 }, new int[] { 5 });
        int r = c.radius()[0][0];
        assertEquals(dev.simhash.core.CandidateRadius.radius(0.8, 5), r);
        assertEquals(4, c.atLeast()[0]);
        long within = 0;
        for (int p = 0; p < 4; p++) {
            within += distance[p] <= r ? 1 : 0;
        }
        assertEquals(within, c.atLeastWithin()[0][0]);
        // at the threshold: J in [0.8, 0.85): distances 8, 14, 20
        assertEquals(3, c.band()[0]);
        assertEquals(20, c.r95Band()[0]);
        assertEquals((8 + 14 + 20) / 3.0, c.meanBandDistance()[0], 1e-12);
        // 95% of 4 pairs is all 4: the largest distance among J >= 0.8
        assertEquals(20, c.r95AtLeast()[0]);
    }

    @Test
    void quantileRadiusKeepsTheShare() {
        int[] d = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 40 };
        assertEquals(19, Verified.quantileRadius(d, 0.95));
        assertEquals(10, Verified.quantileRadius(d, 0.5));
        assertEquals(-1, Verified.quantileRadius(new int[0], 0.95));
    }
}
