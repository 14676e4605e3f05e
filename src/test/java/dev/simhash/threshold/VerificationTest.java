package dev.simhash.threshold;

import dev.simhash.core.MinHashSketch;

import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The candidate rule of a threshold: the sketch's bands from 0.78 on, the fingerprint radius below, verified either way. */
class VerificationTest {

    /** The bins' 64 bytes, then the 14 band keys of 5 bytes (docs/spec/minhash-v1.md). */
    static byte[] sketch(int binsFill, int keysFill) {
        byte[] s = new byte[MinHashSketch.BYTES];
        Arrays.fill(s, 0, 64, (byte) binsFill);
        Arrays.fill(s, 64, s.length, (byte) keysFill);
        return s;
    }

    @Test
    void fromTheBandsRangeOnACandidateSharesABandAtAnyDistance() {
        Verification v = Verification.of(0.8);
        assertEquals("bands", Verification.candidateRule(0.8));
        byte[] a = sketch(0, 1);
        long h = 0x0123_4567_89ab_cdefL;
        assertTrue(v.accepts(h, a, 0, ~h, sketch(0, 1), 0), "equal bins, shared bands: 64 bits apart is no obstacle");
        byte[] oneBand = sketch(0, 2);
        System.arraycopy(a, 64 + 5 * 13, oneBand, 64 + 5 * 13, 5);
        assertTrue(v.accepts(h, a, 0, h, oneBand, 0), "one shared band is enough");
        assertFalse(v.accepts(h, a, 0, h, sketch(0, 2), 0), "equal bins and fingerprints but no shared band: not a candidate");
        assertFalse(v.accepts(h, a, 0, h, sketch(0x55, 1), 0), "shared bands, but half the bins differ: not similar enough");
    }

    @Test
    void belowTheBandsRangeACandidateIsWithinTheRadius() {
        Verification v = Verification.of(0.7);
        assertEquals("radius", Verification.candidateRule(0.7));
        long h = 0x0123_4567_89ab_cdefL;
        long near = h ^ ((1L << v.radius()) - 1);
        long far = h ^ ((1L << (v.radius() + 1)) - 1);
        assertTrue(v.accepts(h, sketch(0, 1), 0, near, sketch(0, 2), 0), "within the radius, no shared band needed");
        assertFalse(v.accepts(h, sketch(0, 1), 0, far, sketch(0, 1), 0), "one bit beyond the radius, whatever the bands");
    }

    /**
     * The integer rule every endpoint applies (the query's sketch check included) is the estimate's rule: a pair passes
     * exactly when its estimated similarity is at least the threshold, at every count of equal bins.
     */
    @Test
    void passingOnEqualBinsIsTheEstimateAtLeastTheThreshold() {
        java.util.Random r = new java.util.Random(11);
        MinHashSketch sketch = Verification.SKETCH;
        for (int round = 0; round < 200; round++) {
            // thresholds on the estimate's own grid (where a rounding would show) and in between
            double s = round % 2 == 0 ? sketch.similarityOfEqualBins(256 + r.nextInt(257)) : 0.001 + 0.999 * r.nextDouble();
            if (s <= 0) {
                continue;
            }
            Verification v = Verification.of(s);
            for (int equal = -1; equal <= sketch.bins(); equal++) {
                boolean byEstimate = equal >= 0 && sketch.similarityOfEqualBins(equal) >= s;
                assertEquals(byEstimate, v.passes(equal), "threshold " + s + ", " + equal + " equal bins");
            }
        }
    }
}
