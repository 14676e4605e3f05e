package dev.simhash.threshold;

import dev.simhash.core.CandidateRadius;
import dev.simhash.core.MinHashSketch;
import dev.simhash.core.SimHash;
import dev.simhash.core.SketchBands;

/**
 * A {@code min_similarity} threshold as every endpoint applies it (the query, fold, report, calibrate and the ingest
 * processor): from {@link SketchBands#FROM} on,
 * pairs whose sketches share a band are candidates ({@link #byBands()}); below, pairs of fingerprints within the threshold's
 * candidate radius ({@link CandidateRadius}). A candidate pair is linked only if the two documents' minhash-v1 sketches
 * estimate a similarity of at least the threshold. The integer form of the check ({@link #minEqualBins}) is the
 * same rule as {@code similarity >= threshold}, without floating point in the inner loops.
 */
public record Verification(double minSimilarity, int radius, int minEqualBins) {

    /** The sketch this plugin verifies with, and the format the {@code fields} option reads it in. */
    public static final MinHashSketch SKETCH = MinHashSketch.V1;
    public static final String SKETCH_FORMAT = MinHashSketch.ALGORITHM;

    public static Verification of(double minSimilarity) {
        Thresholds.minSimilarity(minSimilarity);
        return new Verification(minSimilarity, CandidateRadius.radius(minSimilarity), SKETCH.equalBinsFor(minSimilarity));
    }

    /** Whether the candidates come from the sketches' bands (else from the fingerprint radius {@link #radius()}). */
    public boolean byBands() {
        return SketchBands.covers(minSimilarity);
    }

    /** The candidate rule of threshold {@code minSimilarity} as responses name it: {@code bands} or {@code radius}. */
    public static String candidateRule(double minSimilarity) {
        return SketchBands.covers(minSimilarity) ? "bands" : "radius";
    }

    /**
     * Whether two documents, with fingerprints {@code hashA} and {@code hashB} and sketches at {@code a[aOff..]} and
     * {@code b[bOff..]}, are a candidate pair this threshold links: by the bands, sketches that share a band value; by the
     * radius, fingerprints within it; and either way sketches similar enough ({@link #linked}).
     */
    public boolean accepts(long hashA, byte[] a, int aOff, long hashB, byte[] b, int bOff) {
        // only the rule's own measure is taken: the shared bands or the distance
        boolean bands = byBands();
        return candidates(bands ? 0 : SimHash.distance(hashA, hashB), bands && SketchBands.sharedBands(a, aOff, b, bOff) > 0)
            && linked(a, aOff, b, bOff);
    }

    /**
     * Whether a pair whose fingerprints are {@code distance} bits apart (-1: one has none) and whose sketches do or do not
     * share a band value is a candidate of this threshold, for callers that measure a pair once for many thresholds.
     */
    public boolean candidates(int distance, boolean shareABand) {
        // a document without a fingerprint stores no sketch either: never a candidate
        return distance >= 0 && (byBands() ? shareABand : distance <= radius);
    }

    /** Whether the sketches at {@code a[aOff..]} and {@code b[bOff..]} are similar enough to link their documents. */
    public boolean linked(byte[] a, int aOff, byte[] b, int bOff) {
        return passes(SKETCH.equalBins(a, aOff, b, bOff));
    }

    /**
     * Whether two sketches with {@code equalBins} equal bins pass this threshold: the rule every endpoint applies, the same as
     * {@code similarity >= minSimilarity} on the estimate, in integers. A negative count (no sketch) never passes.
     */
    public boolean passes(int equalBins) {
        return equalBins >= minEqualBins;
    }

    /** The estimated similarity of two sketches. */
    public static double similarity(byte[] a, int aOff, byte[] b, int bOff) {
        return SKETCH.similarity(a, aOff, b, bOff);
    }
}
