package dev.simhash.core;

import org.apache.lucene.util.BytesRef;

/**
 * The candidate stage of a high {@code min_similarity} threshold: the 512 bits of a minhash-v1 sketch cut into
 * {@value #BANDS} bands of {@value #BAND_BITS} bits (band j is bytes 2j and 2j+1), each indexed as an exact-match term
 * of 3 bytes {@code [j, byte 2j, byte 2j+1]}. Documents that share at least one band with the query's sketch are the
 * candidates; the sketch estimate then decides. Two sketches whose estimate is s differ in {@code 512 (1 - s) / 2} bins;
 * with those at random places ({@link #shareProbability}) a pair at s = 0.8 shares a band with probability 0.9998, at
 * 0.75 0.991 and at 0.7 0.938, while two unrelated sketches share a band's value by chance (2^-16 per band, about
 * 1/2,000 of an index over the 32 bands). Below {@link #FROM} the fingerprint's candidate radius ({@link CandidateRadius})
 * is used instead. Contract: docs/spec/minhash-v1.md, "Candidates".
 */
public final class SketchBands {

    public static final int BANDS = 32;
    public static final int BAND_BITS = 16;
    /** The lowest threshold whose candidates come from the bands: from here, at least 0.99 of the pairs at the threshold. */
    public static final double FROM = 0.75;

    private static final int BAND_BYTES = BAND_BITS / 8;
    /** A term: the band number, then the band's bytes. */
    private static final int TERM_BYTES = 1 + BAND_BYTES;

    private SketchBands() {}

    /** Whether a {@code min_similarity} threshold finds its candidates by bands (else by the fingerprint radius). */
    public static boolean covers(double minSimilarity) {
        return minSimilarity >= FROM;
    }

    /** The band terms of a 64-byte sketch, band 0 first (views of one array: a document's terms cost one allocation). */
    public static BytesRef[] terms(byte[] sketch) {
        check(sketch.length);
        byte[] all = new byte[BANDS * TERM_BYTES];
        BytesRef[] terms = new BytesRef[BANDS];
        for (int j = 0; j < BANDS; j++) {
            int at = TERM_BYTES * j;
            all[at] = (byte) j;
            all[at + 1] = sketch[BAND_BYTES * j];
            all[at + 2] = sketch[BAND_BYTES * j + 1];
            terms[j] = new BytesRef(all, at, TERM_BYTES);
        }
        return terms;
    }

    /** Whether the sketches at {@code a[aOff..]} and {@code b[bOff..]} hold the same bits in at least one band. */
    public static boolean shareBand(byte[] a, int aOff, byte[] b, int bOff) {
        for (int j = 0; j < BANDS; j++) {
            int i = BAND_BYTES * j;
            if (a[aOff + i] == b[bOff + i] && a[aOff + i + 1] == b[bOff + i + 1]) {
                return true;
            }
        }
        return false;
    }

    /**
     * The probability that two sketches differing in {@code differing} of their 512 bins (at random places) share at
     * least one whole band: 1 minus, by inclusion-exclusion over the sets of bands left whole, the chance that none is.
     */
    public static double shareProbability(int differing) {
        int bins = BANDS * BAND_BITS;
        double none = 0;
        for (int i = 0; i <= BANDS; i++) {
            int left = bins - i * BAND_BITS;
            if (left < differing) {
                break;
            }
            // C(32, i) * C(left, d) / C(512, d): i given bands whole, the differing bins all elsewhere
            double term = Math.exp(logChoose(BANDS, i) + logChoose(left, differing) - logChoose(bins, differing));
            none += (i % 2 == 0 ? 1 : -1) * term;
        }
        return Math.min(1, Math.max(0, 1 - none));
    }

    private static double logChoose(int n, int k) {
        double s = 0;
        for (int i = 0; i < k; i++) {
            s += Math.log((double) (n - i) / (k - i));
        }
        return s;
    }

    private static void check(int length) {
        if (length != BANDS * BAND_BYTES) {
            throw new IllegalArgumentException("a sketch has " + BANDS * BAND_BYTES + " bytes, got [" + length + "]");
        }
    }
}
