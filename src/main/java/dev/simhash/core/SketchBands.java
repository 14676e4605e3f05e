package dev.simhash.core;

import org.apache.lucene.util.BytesRef;

/**
 * The candidate stage of a high {@code min_similarity} threshold: the 512 bits of a minhash-v1 sketch cut into
 * {@value #BANDS} bands of {@value #BAND_BITS} bits (band j is bytes 2j and 2j+1), each indexed as an exact-match term
 * of 3 bytes {@code [j, byte 2j, byte 2j+1]}. Documents that share at least {@link #required} bands with the query's
 * sketch are the candidates; the sketch estimate then decides. Two sketches whose estimate is s differ in
 * {@code 512 (1 - s) / 2} bins; with those at random places ({@link #shareProbability}) a pair shares one band with
 * probability 0.991 at s = 0.75, and two bands with probability 0.994 at 0.79 and 0.997 at 0.8. Two unrelated sketches
 * share a band's value by chance with probability 2^-16 per band: one band is shared with about 1/2,000 of an index, two
 * with about 1/8,700,000. So from {@link #TWO_FROM} on, where two bands still keep at least 0.99 of the pairs at the
 * threshold, the candidates must share two. Below {@link #FROM} the fingerprint's candidate radius
 * ({@link CandidateRadius}) is used instead. Contract: docs/spec/minhash-v1.md, "Candidates".
 */
public final class SketchBands {

    public static final int BANDS = 32;
    public static final int BAND_BITS = 16;
    /** The lowest threshold whose candidates come from the bands (one shared band): from here, at least 0.99 of the pairs at the threshold. */
    public static final double FROM = 0.75;
    /** The lowest threshold whose candidates share two bands: from here, two keep at least 0.99 of the pairs at the threshold. */
    public static final double TWO_FROM = 0.79;

    private static final int BAND_BYTES = BAND_BITS / 8;
    /** A term: the band number, then the band's bytes. */
    private static final int TERM_BYTES = 1 + BAND_BYTES;

    private SketchBands() {}

    /** Whether a {@code min_similarity} threshold finds its candidates by bands (else by the fingerprint radius). */
    public static boolean covers(double minSimilarity) {
        return minSimilarity >= FROM;
    }

    /** How many bands a candidate shares with the query's sketch at a threshold: 0 below {@link #FROM} (no band rule), 1, or 2. */
    public static int required(double minSimilarity) {
        return minSimilarity >= TWO_FROM ? 2 : covers(minSimilarity) ? 1 : 0;
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

    /** How many bands the sketches at {@code a[aOff..]} and {@code b[bOff..]} hold the same bits in. */
    public static int sharedBands(byte[] a, int aOff, byte[] b, int bOff) {
        int shared = 0;
        for (int j = 0; j < BANDS; j++) {
            int i = BAND_BYTES * j;
            if (a[aOff + i] == b[bOff + i] && a[aOff + i + 1] == b[bOff + i + 1]) {
                shared++;
            }
        }
        return shared;
    }

    /**
     * The probability that two sketches differing in {@code differing} of their 512 bins (at random places) share at
     * least {@code atLeast} whole bands. Counted exactly, band by band: the ways to spread the differing bins over the
     * bands (C(16, x) for x of them in one band), by how many bands are left whole (capped at {@code atLeast}), over all
     * C(512, d) ways. Every term is positive, so nothing cancels.
     */
    public static double shareProbability(int differing, int atLeast) {
        int bins = BANDS * BAND_BITS;
        if (differing < 0 || differing > bins || atLeast < 0) {
            throw new IllegalArgumentException("differing bins in [0, " + bins + "] and atLeast >= 0, got [" + differing + ", "
                + atLeast + "]");
        }
        // ways[used][whole]: placements of `used` differing bins in the bands so far, with `whole` (capped) bands untouched
        double[][] ways = new double[differing + 1][atLeast + 1];
        ways[0][0] = 1;
        double[] choose = new double[BAND_BITS + 1];
        for (int x = 0; x <= BAND_BITS; x++) {
            choose[x] = Math.exp(logChoose(BAND_BITS, x));
        }
        for (int band = 0; band < BANDS; band++) {
            double[][] next = new double[differing + 1][atLeast + 1];
            for (int used = 0; used <= differing; used++) {
                for (int whole = 0; whole <= atLeast; whole++) {
                    double w = ways[used][whole];
                    if (w == 0) {
                        continue;
                    }
                    for (int x = 0; x <= BAND_BITS && used + x <= differing; x++) {
                        int nw = x == 0 ? Math.min(atLeast, whole + 1) : whole;
                        next[used + x][nw] += w * choose[x];
                    }
                }
            }
            ways = next;
        }
        return Math.min(1, ways[differing][atLeast] / Math.exp(logChoose(bins, differing)));
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
