package dev.simhash.calibrate;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EditSimilarityTest {

    /** Five copies: (distance, similarity) = (0, 1.0), (3, 0.9), (9, 0.8), (-1, 0.7), (2, no sketch). */
    private static EditSimilarity five() {
        EditSimilarity e = new EditSimilarity(0.05);
        e.add(0, 1.0);
        e.add(3, 0.9);
        e.add(9, 0.8);
        e.add(-1, 0.7);
        e.add(2, Double.NaN);
        return e;
    }

    @Test
    void aCopyIsFoundWithinTheRadiusAndAtOrAboveTheThreshold() {
        EditSimilarity e = five();
        assertEquals(5, e.copies());
        assertEquals(1, e.withoutSketch());
        // s = 0.8, radius 13: (0, 1.0), (3, 0.9), (9, 0.8); not the copy without a fingerprint, nor the one without a sketch
        assertEquals(3, e.found(0.8, 13));
        assertEquals(0.6, e.recall(0.8, 13), 1e-12);
        // radius 8 leaves out the copy at 9 bits although its similarity is high enough
        assertEquals(2, e.found(0.8, 8));
        // s = 0.95: only the identical copy
        assertEquals(1, e.found(0.95, 16));
        // s = 0.5, radius 0: only the copy at distance 0
        assertEquals(1, e.found(0.5, 0));
    }

    @Test
    void quantilesByNearestRankWithNoSketchAsZero() {
        EditSimilarity e = five();
        // sorted: 0 (no sketch), 0.7, 0.8, 0.9, 1.0; median: rank ceil(2.5) = 3; 5th percentile: rank ceil(0.25) = 1
        assertEquals(0.8, e.similarityQuantile(0.5), 0);
        assertEquals(0.0, e.similarityQuantile(0.05), 0);
        assertEquals(1.0, e.similarityQuantile(1.0), 0);
        EditSimilarity four = new EditSimilarity(0.01);
        for (double s : new double[] { 0.4, 0.1, 0.3, 0.2 }) {
            four.add(1, s);
        }
        // the lower median: rank 2 of 0.1, 0.2, 0.3, 0.4
        assertEquals(0.2, four.similarityQuantile(0.5), 0);
    }

    @Test
    void emptyAndBadInput() {
        EditSimilarity e = new EditSimilarity(0.1);
        assertTrue(Double.isNaN(e.recall(0.8, 13)));
        assertTrue(Double.isNaN(e.similarityQuantile(0.5)));
        assertThrows(IllegalArgumentException.class, () -> e.add(65, 0.5));
        assertThrows(IllegalArgumentException.class, () -> e.add(3, 1.5));
    }

    @Test
    void manyCopiesGrowTheArrays() {
        EditSimilarity e = new EditSimilarity(0.02);
        for (int i = 0; i < 1000; i++) {
            e.add(i % 20, (i % 100) / 100.0);
        }
        // distance <= 13: i % 20 in 0..13 (700 copies); similarity >= 0.5: i % 100 in 50..99; both: i % 100 in 50..99 with
        // i % 20 <= 13, i.e. of every 100, the 50 values 50..99 whose remainder by 20 is at most 13: 50-53, 60-73, 80-93 = 4+14+14 = 32
        assertEquals(320, e.found(0.5, 13));
    }
}
