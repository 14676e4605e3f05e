package dev.simhash.bench;

import java.util.Arrays;

/** Latency and throughput statistics: nearest-rank percentiles, median, mean. */
public final class Stats {

    private Stats() {}

    /**
     * The p-th percentile (0 < p <= 100) by the nearest-rank method: the smallest value such that at
     * least p percent of the values are less than or equal to it. Sorts a copy of the values.
     */
    public static double percentile(double[] values, double p) {
        if (values.length == 0) {
            throw new IllegalArgumentException("no values");
        }
        if (!(p > 0 && p <= 100)) {
            throw new IllegalArgumentException("percentile must be in (0, 100], got [" + p + "]");
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(0, rank - 1)];
    }

    public static double median(double[] values) {
        return percentile(values, 50);
    }

    public static double mean(double[] values) {
        if (values.length == 0) {
            throw new IllegalArgumentException("no values");
        }
        double s = 0;
        for (double v : values) {
            s += v;
        }
        return s / values.length;
    }

    public static double max(double[] values) {
        return Arrays.stream(values).max().orElseThrow();
    }
}
