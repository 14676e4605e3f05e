package dev.simhash.bench;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StatsTest {

    @Test
    void nearestRankPercentiles() {
        double[] v = new double[100];
        for (int i = 0; i < 100; i++) {
            v[i] = 100 - i; // 100 .. 1, unsorted on purpose
        }
        assertEquals(50, Stats.percentile(v, 50));
        assertEquals(99, Stats.percentile(v, 99));
        assertEquals(100, Stats.percentile(v, 100));
        assertEquals(1, Stats.percentile(v, 0.5));
        assertEquals(100, v[0], "the input is not sorted in place");
    }

    @Test
    void smallSamples() {
        assertEquals(7, Stats.percentile(new double[] { 7 }, 99));
        assertEquals(2, Stats.median(new double[] { 3, 1, 2 }));
        assertEquals(2, Stats.median(new double[] { 4, 1, 2, 3 }));
        assertEquals(4, Stats.percentile(new double[] { 4, 1, 2, 3 }, 99));
        assertEquals(2.5, Stats.mean(new double[] { 4, 1, 2, 3 }));
        assertThrows(IllegalArgumentException.class, () -> Stats.percentile(new double[0], 50));
        assertThrows(IllegalArgumentException.class, () -> Stats.percentile(new double[] { 1 }, 0));
    }

    @Test
    void recallCountsNearestHitsWithTies() {
        // exact: distances 0,1,3,3,3 within r=3; k=3 expects the 3 nearest (0,1 and one of the 3s)
        int[] exact = { 3, 0, 3, 1, 3 };
        assertEquals(1.0, Recall.of(exact, List.of(0, 1, 3), 3, 3));
        assertEquals(1.0, Recall.of(exact, List.of(3, 3, 3), 3, 3), "ties at the k-th distance are interchangeable");
        assertEquals(2 / 3.0, Recall.of(exact, List.of(0, 3), 3, 3), 1e-12);
        // fewer matches than k: all of them are expected
        assertEquals(0.5, Recall.of(new int[] { 2, 5 }, List.of(2), 10, 7));
        assertEquals(1.0, Recall.of(new int[] { 2, 5 }, List.of(5, 2), 10, 7));
        // a hit beyond the radius is wrong
        assertEquals(0.5, Recall.of(new int[] { 2, 5 }, List.of(2, 9), 10, 7));
        assertTrue(Double.isNaN(Recall.of(new int[0], List.of(), 10, 3)));
        // k-th nearest is 1: a returned 3 does not count, however many
        assertEquals(0.5, Recall.of(new int[] { 0, 1, 3 }, List.of(0, 3), 2, 3));
    }
}
