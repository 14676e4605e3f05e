package dev.simhash.bench;

import java.util.Arrays;
import java.util.Collection;

/**
 * Recall of a near-duplicate search against the exact answer. The exact answer is every document
 * within the radius; a search that returns at most {@code k} hits is expected to return the
 * {@code min(k, |exact|)} nearest, where ties at the k-th distance may be broken any way: a returned
 * hit counts as correct when its true distance is at most the distance of the k-th nearest.
 */
public final class Recall {

    private Recall() {}

    /**
     * Recall in [0, 1], or NaN when the exact answer is empty (nothing to find: the query is left out
     * of averages).
     *
     * @param exactDistances distances of every document within the radius (any order)
     * @param returnedDistances true distances of the hits the search returned
     * @param k the number of hits the search was asked for
     * @param radius the radius; returned hits beyond it are never correct
     */
    public static double of(int[] exactDistances, Collection<Integer> returnedDistances, int k, int radius) {
        if (exactDistances.length == 0) {
            return Double.NaN;
        }
        int[] sorted = exactDistances.clone();
        Arrays.sort(sorted);
        int expected = Math.min(k, sorted.length);
        int kth = sorted[expected - 1];
        int correct = 0;
        for (int d : returnedDistances) {
            if (d <= kth && d <= radius) {
                correct++;
            }
        }
        return Math.min(correct, expected) / (double) expected;
    }
}
