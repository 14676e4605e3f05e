package dev.simhash.calibrate;

/**
 * The Hamming distances of all pairs of a sample of fingerprints: how often two documents picked at random are within
 * k bits of each other by chance. Pairs whose texts are near-duplicates of each other ({@link Related}) are counted
 * apart: they are the matches a radius is for, not false ones. Where the sample shows no false match, a normal
 * approximation of the distance distribution (fitted to the sample's mean and standard deviation) gives an estimate,
 * labelled as such.
 */
public final class RandomPairs {

    /** Whether the documents at positions i and j are related (e.g. their texts are near-duplicates). */
    @FunctionalInterface
    public interface Related {
        boolean test(int i, int j);

        Related NONE = (i, j) -> false;
    }

    private final long pairs;
    private final long[] histogram = new long[65];
    private final long[] related = new long[65];
    private final double mean;
    private final double sd;

    private RandomPairs(long[] fingerprints, Related relatedPair, int maxChecked) {
        int n = fingerprints.length;
        for (int i = 0; i < n; i++) {
            long a = fingerprints[i];
            for (int j = i + 1; j < n; j++) {
                int d = Long.bitCount(a ^ fingerprints[j]);
                histogram[d]++;
                if (d <= maxChecked && relatedPair.test(i, j)) {
                    related[d]++;
                }
            }
        }
        pairs = (long) n * (n - 1) / 2;
        double sum = 0;
        double sumSq = 0;
        for (int d = 0; d <= 64; d++) {
            sum += (double) d * histogram[d];
            sumSq += (double) d * d * histogram[d];
        }
        mean = pairs == 0 ? Double.NaN : sum / pairs;
        sd = pairs == 0 ? Double.NaN : Math.sqrt(Math.max(0, sumSq / pairs - mean * mean));
    }

    /** Every pair of the given fingerprints (each unordered pair once), none of them related. */
    public static RandomPairs of(long[] fingerprints) {
        return new RandomPairs(fingerprints, Related.NONE, -1);
    }

    /**
     * Every pair of the given fingerprints; pairs within {@code maxChecked} bits are asked whether they are related, and
     * related ones do not count as false matches.
     */
    public static RandomPairs of(long[] fingerprints, Related related, int maxChecked) {
        return new RandomPairs(fingerprints, related, maxChecked);
    }

    public long pairs() {
        return pairs;
    }

    /** Pairs at exactly distance d, for d = 0..64. */
    public long atDistance(int d) {
        return histogram[d];
    }

    /** Pairs within k bits (distance <= k). */
    public long within(int k) {
        return upTo(histogram, k);
    }

    /** The sum of a distance histogram's counts at distances 0..k. */
    static long upTo(long[] histogram, int k) {
        long c = 0;
        for (int d = 0; d <= Math.min(k, histogram.length - 1); d++) {
            c += histogram[d];
        }
        return c;
    }

    /** Related pairs within k bits (only pairs within the checked distance are ever related). */
    public long relatedWithin(int k) {
        return upTo(related, k);
    }

    public double meanDistance() {
        return mean;
    }

    public double sdDistance() {
        return sd;
    }

    /** The share of the sample's pairs that are within k bits and not related: false matches; 0 when there are no pairs. */
    public double observedRate(int k) {
        return pairs == 0 ? 0 : (double) (within(k) - relatedWithin(k)) / pairs;
    }

    /** The smallest non-zero rate the sample can show: one pair in all of them. */
    public double resolution() {
        return pairs == 0 ? 1 : 1.0 / pairs;
    }

    /**
     * An estimate of the chance that a random pair is within k bits: P(D <= k) for D normal with the sample's mean and
     * standard deviation, with a continuity correction (k + 0.5). NaN without pairs, or when all pairs have one distance.
     */
    public double estimatedRate(int k) {
        if (pairs == 0 || !(sd > 0)) {
            return Double.NaN;
        }
        return Normal.lowerTail((k + 0.5 - mean) / sd);
    }

    /**
     * The false-match rate used to choose a radius: the larger of the observed and the estimated rate, so that neither
     * a sample too small to show rare pairs nor a distribution with a heavier tail than the normal one makes it look
     * lower than the data says. Non-decreasing in k.
     */
    public double falseMatchRate(int k) {
        double estimated = estimatedRate(k);
        double observed = observedRate(k);
        return Double.isNaN(estimated) ? observed : Math.max(observed, estimated);
    }

    /** The largest k in 0..maxK whose {@link #falseMatchRate} is at most {@code target}, or -1 if even k = 0 exceeds it. */
    public int largestKWithin(double target, int maxK) {
        int best = -1;
        for (int k = 0; k <= maxK; k++) {
            if (falseMatchRate(k) <= target) {
                best = k;
            } else {
                break;
            }
        }
        return best;
    }
}
