package dev.simhash.calibrate;

import java.util.Arrays;

/**
 * The edited copies of one edit rate as the verified rule sees them: for each copy, the Hamming distance of its
 * fingerprint from the original's and the estimated similarity of its sketch to the original's. A copy is found at a
 * threshold s when it is within {@link VerifiedPairs#radius} of s and its similarity is at least s; a copy without a
 * fingerprint or without a sketch is never found (its similarity counts as 0).
 */
public final class EditSimilarity {

    /** Heap per recorded copy: an int and a double in the growing arrays (doubling keeps at most twice that). */
    static final long BYTES_PER_COPY = 2 * (Integer.BYTES + Double.BYTES);

    private final double rate;
    private int[] distances = new int[16];
    private double[] similarities = new double[16];
    private int copies;
    private int withoutSketch;

    public EditSimilarity(double rate) {
        this.rate = rate;
    }

    /**
     * Records one copy.
     *
     * @param distance   the Hamming distance between the fingerprints of the text and of its copy, or -1 when the copy has
     *                   no fingerprint
     * @param similarity the estimated similarity of the copy's sketch to the text's, or NaN when either has no sketch
     */
    public void add(int distance, double similarity) {
        if (distance < -1 || distance > 64) {
            throw new IllegalArgumentException("a distance is between 0 and 64 (or -1 for no fingerprint), got [" + distance + "]");
        }
        if (!Double.isNaN(similarity) && (similarity < 0 || similarity > 1)) {
            throw new IllegalArgumentException("a similarity is between 0 and 1 (or NaN for no sketch), got [" + similarity + "]");
        }
        if (copies == distances.length) {
            distances = Arrays.copyOf(distances, copies * 2);
            similarities = Arrays.copyOf(similarities, copies * 2);
        }
        if (Double.isNaN(similarity)) {
            withoutSketch++;
        }
        distances[copies] = distance;
        similarities[copies] = similarity;
        copies++;
    }

    public double rate() {
        return rate;
    }

    public int copies() {
        return copies;
    }

    public int withoutSketch() {
        return withoutSketch;
    }

    /** Copies the verified rule finds at threshold {@code s}: within {@code radius} bits and similarity at least s. */
    public long found(double s, int radius) {
        long n = 0;
        for (int i = 0; i < copies; i++) {
            if (distances[i] >= 0 && distances[i] <= radius && similarities[i] >= s) { // NaN compares false: not found
                n++;
            }
        }
        return n;
    }

    /** The share of copies found at threshold {@code s} with candidate radius {@code radius}; NaN without copies. */
    public double recall(double s, int radius) {
        return copies == 0 ? Double.NaN : (double) found(s, radius) / copies;
    }

    /**
     * The p-quantile of the copies' similarities by nearest rank (the value at rank ceil(p n) of the sorted similarities,
     * a copy without a sketch counting as 0); NaN without copies.
     */
    public double similarityQuantile(double p) {
        if (copies == 0) {
            return Double.NaN;
        }
        double[] sorted = new double[copies];
        for (int i = 0; i < copies; i++) {
            sorted[i] = Double.isNaN(similarities[i]) ? 0 : similarities[i];
        }
        Arrays.sort(sorted);
        int rank = (int) Math.ceil(p * copies);
        return sorted[Math.max(0, Math.min(copies, rank) - 1)];
    }
}
