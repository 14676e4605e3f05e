package dev.simhash.weights;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The two-pass random sample: the first pass keeps a little more than the sample, the threshold cuts it to the sample size. */
class WeightsSamplingTest {

    @Test
    void passProbabilityKeepsALittleMoreThanTheSample() {
        assertEquals(1.0, WeightsSampling.passProbability(10, 10));
        assertEquals(1.0, WeightsSampling.passProbability(0, 10));
        assertEquals(1.0, WeightsSampling.passProbability(10_400, 10_000), "within the margin: everything");
        double p = WeightsSampling.passProbability(10_000_000, 10_000);
        assertEquals((10_000 + 400 + 16) / 10_000_000.0, p, 1e-15);
        assertEquals(1.0, WeightsSampling.retry(0.7));
        assertEquals(0.2, WeightsSampling.retry(0.1), 1e-15);
    }

    @Test
    void minScoreIsAScoreValueKeepingAtLeastThatFraction() {
        assertEquals(0f, WeightsSampling.minScore(1));
        assertEquals(0.5f, WeightsSampling.minScore(0.5));
        for (double p : new double[] {0.3, 1e-3, 1e-6, 0.999}) {
            float m = WeightsSampling.minScore(p);
            double k = m * (double) (1 << WeightsSampling.SCORE_BITS);
            assertEquals(Math.rint(k), k, 0, "a score value k / 2^24");
            double kept = 1 - m; // the fraction of score values >= m
            assertTrue(kept >= p && kept < p + 1.0 / (1 << WeightsSampling.SCORE_BITS), p + " -> " + kept);
        }
    }

    @Test
    void thresholdIsTheLowestScoreOfTheSample() {
        float[] scores = {0.9f, 0.1f, 0.5f, 0.7f, 0.3f};
        assertEquals(0.7f, WeightsSampling.threshold(scores, 5, 2));
        assertEquals(0.1f, WeightsSampling.threshold(scores, 5, 5), "exactly the sample size: all of them");
        assertEquals(0f, WeightsSampling.threshold(scores, 5, 6), "fewer than the sample: everything");
        assertEquals(0.9f, WeightsSampling.threshold(scores, 3, 1), "only the first count scores");
    }

    /** Simulated on uniform scores: the first pass keeps enough, and the threshold gives exactly the sample size. */
    @Test
    void simulatedPassesGiveExactlyTheSampleSize() {
        Random random = new Random(42);
        int n = 1_000;
        long matching = 200_000;
        int tooFew = 0;
        for (int run = 0; run < 50; run++) {
            float[] all = new float[(int) matching];
            for (int i = 0; i < all.length; i++) {
                all[i] = random.nextInt(1 << WeightsSampling.SCORE_BITS) / (float) (1 << WeightsSampling.SCORE_BITS);
            }
            float min = WeightsSampling.minScore(WeightsSampling.passProbability(matching, n));
            float[] kept = new float[all.length];
            int count = 0;
            for (float s : all) {
                if (s >= min) {
                    kept[count++] = s;
                }
            }
            if (count < n) {
                tooFew++;
                continue;
            }
            assertTrue(count < 2 * n, "a little more than the sample: " + count);
            float t = WeightsSampling.threshold(kept, count, n);
            int sample = 0;
            for (float s : all) {
                sample += s >= t ? 1 : 0;
            }
            assertTrue(sample >= n && sample <= n + 2, "ties aside, exactly the sample size: " + sample);
        }
        assertTrue(tooFew <= 1, "the first pass rarely keeps too few: " + tooFew);
    }
}
