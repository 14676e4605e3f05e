package dev.simhash.calibrate;

import dev.simhash.core.MinHashSketch;
import dev.simhash.threshold.Verification;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EditSimilarityTest {

    /** The equal bins of two sketches whose estimated similarity is (at least) {@code s}; -1 for NaN (no sketch). */
    private static int bins(double s) {
        return Double.isNaN(s) ? -1 : MinHashSketch.V1.equalBinsFor(s);
    }

    private static void add(EditSimilarity e, int distance, double similarity, boolean shareABand) {
        e.add(distance, bins(similarity), shareABand);
    }

    /**
     * Five copies: (distance, similarity, shares a band) = (0, 1.0, yes), (3, 0.9, yes), (16, 0.8, yes), (-1, 0.7, no),
     * (2, no sketch).
     */
    private static EditSimilarity five() {
        EditSimilarity e = new EditSimilarity(0.05);
        add(e, 0, 1.0, true);
        add(e, 3, 0.9, true);
        add(e, 16, 0.8, true);
        add(e, -1, 0.7, false);
        add(e, 2, Double.NaN, false);
        return e;
    }

    @Test
    void aCopyIsFoundByItsThresholdsOwnRule() {
        EditSimilarity e = five();
        assertEquals(5, e.copies());
        assertEquals(1, e.withoutSketch());
        // s = 0.8, by the bands: (0, 1.0), (3, 0.9) and (16, 0.8), whatever their distance; not the copy without a
        // fingerprint, nor the one without a sketch
        assertEquals(3, e.found(Verification.of(0.8)));
        assertEquals(0.6, e.recall(Verification.of(0.8)), 1e-12);
        // s = 0.75, by the radius (14 bits): the copy 16 bits away is no candidate although its similarity is high enough
        assertEquals(2, e.found(Verification.of(0.75)));
        // s = 0.95: only the identical copy
        assertEquals(1, e.found(Verification.of(0.95)));
        // the bands decide from 0.78 on: the same copies without a shared band are not found, however similar
        EditSimilarity apart = new EditSimilarity(0.05);
        add(apart, 0, 1.0, false);
        add(apart, 3, 0.9, false);
        assertEquals(0, apart.found(Verification.of(0.8)));
        assertEquals(2, apart.found(Verification.of(0.7)));
    }

    @Test
    void quantilesByNearestRankWithNoSketchAsZero() {
        EditSimilarity e = five();
        // sorted: 0 (no sketch), 0.7, 0.8, 0.9, 1.0; median: rank ceil(2.5) = 3; 5th percentile: rank ceil(0.25) = 1
        assertEquals(MinHashSketch.V1.similarityOfEqualBins(bins(0.8)), e.similarityQuantile(0.5), 0);
        assertEquals(0.0, e.similarityQuantile(0.05), 0);
        assertEquals(1.0, e.similarityQuantile(1.0), 0);
        EditSimilarity four = new EditSimilarity(0.01);
        for (double s : new double[] { 0.4, 0.1, 0.3, 0.2 }) {
            add(four, 1, s, false);
        }
        // the lower median: rank 2 of 0.1, 0.2, 0.3, 0.4 (as the sketch can estimate them: the smallest estimate at least that)
        assertEquals(MinHashSketch.V1.similarityOfEqualBins(bins(0.2)), four.similarityQuantile(0.5), 0);
    }

    @Test
    void emptyAndBadInput() {
        EditSimilarity e = new EditSimilarity(0.1);
        assertTrue(Double.isNaN(e.recall(Verification.of(0.8))));
        assertTrue(Double.isNaN(e.similarityQuantile(0.5)));
        assertThrows(IllegalArgumentException.class, () -> e.add(65, 300, false));
        assertThrows(IllegalArgumentException.class, () -> e.add(3, 513, false));
    }

    @Test
    void manyCopiesGrowTheArrays() {
        EditSimilarity e = new EditSimilarity(0.02);
        for (int i = 0; i < 1000; i++) {
            add(e, i % 20, (i % 100) / 100.0, false);
        }
        // at 0.5 the candidates are within 16 bits: i % 20 in 0..16; similarity >= 0.5: i % 100 in 50..99; both: of every
        // 100, the values 50..99 whose remainder by 20 is at most 16: 50-56, 60-76, 80-96 = 7 + 17 + 17 = 41
        assertEquals(410, e.found(Verification.of(0.5)));
    }
}
