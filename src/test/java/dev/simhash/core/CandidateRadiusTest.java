package dev.simhash.core;

import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The candidate radius of a {@code min_similarity} threshold: the documented table, its shape and its limits. */
class CandidateRadiusTest {

    /** The table of docs/spec/minhash-v1.md ("Candidate radius"), which users read. */
    @Test
    void theDocumentedRadiiAreTheOnesUsed() {
        Map<Double, Integer> documented = new TreeMap<>(Map.of(0.5, 16, 0.6, 16, 0.7, 16, 0.8, 13, 0.9, 10, 0.95, 7));
        documented.forEach((s, r) -> assertEquals(r, CandidateRadius.radius(s), "min_similarity " + s));
    }

    @Test
    void aHigherThresholdNeverWidensTheRadiusAndIdenticalTextsNeedNone() {
        int previous = Integer.MAX_VALUE;
        for (int i = 1; i <= 100; i++) {
            int r = CandidateRadius.radius(i / 100.0);
            assertTrue(r <= previous, "radius grew at " + i / 100.0);
            assertTrue(r <= CandidateRadius.MAX_RADIUS);
            previous = r;
        }
        assertEquals(0, CandidateRadius.radius(1.0));
    }

    /** In the model, the radius keeps at least 95% of the pairs at the threshold and one bit less keeps fewer. */
    @Test
    void theRadiusIsTheSmallestThatKeeps95PercentInTheModel() {
        for (double s : new double[] { 0.75, 0.8, 0.85, 0.9, 0.95 }) {
            double p = CandidateRadius.bitFlipProbability(s, CandidateRadius.MODEL_SHINGLE);
            int r = CandidateRadius.radius(s);
            assertTrue(binomialCdf(r, p) >= 0.95, "s " + s);
            assertTrue(binomialCdf(r - 1, p) < 0.95, "s " + s);
        }
    }

    @Test
    void thresholdsOutsideZeroToOneAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> CandidateRadius.radius(0));
        assertThrows(IllegalArgumentException.class, () -> CandidateRadius.radius(1.01));
        assertThrows(IllegalArgumentException.class, () -> CandidateRadius.radius(Double.NaN));
    }

    /** P[Binomial(64, p) <= r] by the product form of each term, independent of the production code's log form. */
    private static double binomialCdf(int r, double p) {
        double sum = 0;
        for (int k = 0; k <= r; k++) {
            double term = 1;
            for (int i = 0; i < k; i++) {
                term *= (64.0 - i) / (i + 1) * p;
            }
            for (int i = 0; i < 64 - k; i++) {
                term *= 1 - p;
            }
            sum += term;
        }
        return sum;
    }
}
