package dev.simhash.calibrate;

import dev.simhash.core.SketchBands;
import dev.simhash.threshold.Verification;

import java.util.Arrays;

/**
 * The edited copies of one edit rate as the verified rule sees them: for each copy, the Hamming distance of its
 * fingerprint from the original's, how many bins of its sketch equal the original's, and whether the two sketches share a
 * band value. A copy is found at a threshold when the threshold's own rule ({@link Verification}) takes the pair: a
 * candidate (a shared band from 0.78 on, within the candidate radius below) whose sketches pass; a copy without a
 * fingerprint or without a sketch is never found (its similarity counts as 0).
 */
public final class EditSimilarity {

    /** Heap per recorded copy: two ints and a boolean in the growing arrays (doubling keeps at most twice that). */
    static final long BYTES_PER_COPY = 2 * (2 * Integer.BYTES + 1);

    private final double rate;
    private int[] distances = new int[16];
    private int[] equalBins = new int[16];
    private boolean[] shareABand = new boolean[16];
    private int copies;
    private int withoutSketch;

    public EditSimilarity(double rate) {
        this.rate = rate;
    }

    /**
     * Records one copy.
     *
     * @param distance the Hamming distance between the fingerprints of the text and of its copy, or -1 when the copy has
     *                 no fingerprint
     * @param original the text's sketch, or null
     * @param copy     the copy's sketch, or null (either null: the copy is never found)
     */
    public void add(int distance, byte[] original, byte[] copy) {
        if (original == null || copy == null) {
            add(distance, -1, false);
        } else {
            add(distance, Verification.SKETCH.equalBins(original, 0, copy, 0), SketchBands.sharedBands(original, 0, copy, 0) > 0);
        }
    }

    /**
     * Records one copy by what the rule reads of it: {@code equal} bins of its sketch equal the original's (-1: either
     * has no sketch), and whether the two sketches {@code share} a band value.
     */
    void add(int distance, int equal, boolean share) {
        if (distance < -1 || distance > 64) {
            throw new IllegalArgumentException("a distance is between 0 and 64 (or -1 for no fingerprint), got [" + distance + "]");
        }
        if (equal < -1 || equal > Verification.SKETCH.bins()) {
            throw new IllegalArgumentException("equal bins are between 0 and " + Verification.SKETCH.bins() + " (or -1 for no sketch), got ["
                + equal + "]");
        }
        if (copies == distances.length) {
            distances = Arrays.copyOf(distances, copies * 2);
            equalBins = Arrays.copyOf(equalBins, copies * 2);
            shareABand = Arrays.copyOf(shareABand, copies * 2);
        }
        if (equal < 0) {
            withoutSketch++;
        }
        distances[copies] = distance;
        equalBins[copies] = equal;
        shareABand[copies] = share;
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

    /** Copies the rule of {@code threshold} finds: candidates of it whose sketches pass it. */
    public long found(Verification threshold) {
        long n = 0;
        for (int i = 0; i < copies; i++) {
            if (threshold.candidates(distances[i], shareABand[i]) && threshold.passes(equalBins[i])) {
                n++;
            }
        }
        return n;
    }

    /** The share of copies the rule of {@code threshold} finds; NaN without copies. */
    public double recall(Verification threshold) {
        return copies == 0 ? Double.NaN : (double) found(threshold) / copies;
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
            sorted[i] = equalBins[i] < 0 ? 0 : Verification.SKETCH.similarityOfEqualBins(equalBins[i]);
        }
        Arrays.sort(sorted);
        int rank = (int) Math.ceil(p * copies);
        return sorted[Math.max(0, Math.min(copies, rank) - 1)];
    }
}
