package dev.simhash.weights;

import java.util.Arrays;

/**
 * How a table's sample is drawn from an index with more matching documents than the sample size: every document gets a
 * pseudo-random score in [0, 1) from the seed and its sequence number (a seeded {@code random_score}); the sample is the
 * {@code sample_size} documents with the highest scores, a uniform sample without replacement that the same seed draws again.
 * Finding them scales: a first pass keeps only documents scoring at least {@link #minScore} (a little more than the sample
 * size are expected to) and reads nothing but their scores; the sample size-th highest of those is the threshold; a second
 * pass reads the documents scoring at least the threshold, in index order. Both passes stream through a point in time.
 */
final class WeightsSampling {

    /** Scores have 24 random bits: a score is k / 2^24. */
    static final int SCORE_BITS = 24;

    private WeightsSampling() {}

    /**
     * The probability with which the first pass keeps a document: the sample size plus four standard deviations and a small
     * constant, over the matching documents, so the pass keeps fewer than the sample size about once in 30,000 runs (then it
     * is repeated with twice the probability); 1 when the index has no more documents than that.
     */
    static double passProbability(long matching, int sampleSize) {
        if (matching <= 0) {
            return 1;
        }
        return Math.min(1, (sampleSize + 4 * Math.sqrt(sampleSize) + 16) / matching);
    }

    /** The {@code min_score} that keeps a document with that probability: scores are uniform in [0, 1). */
    static float minScore(double probability) {
        if (probability >= 1) {
            return 0f;
        }
        // round down to a score value, so at least that fraction of the values passes
        double k = Math.floor((1 - probability) * (1 << SCORE_BITS));
        return (float) (k / (1 << SCORE_BITS));
    }

    /** The next probability after a first pass kept too few documents. */
    static double retry(double probability) {
        return Math.min(1, probability * 2);
    }

    /**
     * The {@code n}-th highest of the first {@code count} scores (the lowest score of the sample), or 0 when there are fewer
     * than {@code n}: every document is in the sample.
     */
    static float threshold(float[] scores, int count, int n) {
        if (count < n) {
            return 0f;
        }
        float[] sorted = Arrays.copyOf(scores, count);
        Arrays.sort(sorted);
        return sorted[count - n];
    }
}
