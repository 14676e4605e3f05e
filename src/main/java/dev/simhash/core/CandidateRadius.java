package dev.simhash.core;

/**
 * The Hamming radius within which simhash-v2 fingerprints are candidates for a {@code min_similarity}
 * threshold (its contract: docs/spec/minhash-v1.md, "Candidate radius"). A model of two texts that share
 * a Jaccard similarity {@code s} of their w-token shingles: when a share {@code q} of the tokens survive an
 * edit, a share {@code q^w} of the shingles do, so {@code q = (2s / (1 + s))^(1/w)}; simhash-v2's features
 * (tokens and adjacent pairs, binary weights) then share {@code g = (q + q^2) / 2}, the cosine of the two
 * feature vectors is about {@code g}, and each fingerprint bit differs with probability
 * {@code p = arccos(g) / pi} (Charikar 2002). The radius is the smallest {@code r} with
 * {@code P[Binomial(64, p) <= r] >= 0.95}, capped at {@link #MAX_RADIUS}. The model is taken at
 * {@link #MODEL_SHINGLE} = 2 whatever the sketch's shingles: natural edits come in runs, so fewer shingles are
 * lost per edited token than independent edits would lose, and the mean distances measured on six corpora of
 * natural near-duplicates follow the model at w = 2 (at w = 5 it kept only 85-91% of the pairs at 0.8 on four of
 * them; at w = 2, 97-100%).
 */
public final class CandidateRadius {

    /** Share of the pairs at the threshold that the radius keeps, in the model. */
    public static final double RECALL = 0.95;
    /** The widest radius chosen: candidate generation beyond it costs more than a scan of small indices. */
    public static final int MAX_RADIUS = 16;
    /** The shingle size of the model (see the class comment). */
    public static final int MODEL_SHINGLE = 2;

    private CandidateRadius() {}

    /** The per-bit difference probability of the model at Jaccard similarity {@code s} of {@code w}-token shingles. */
    public static double bitFlipProbability(double s, int shingleSize) {
        if (!(s > 0 && s <= 1)) {
            throw new IllegalArgumentException("similarity must be in (0, 1], got [" + s + "]");
        }
        double shared = 2 * s / (1 + s);
        double q = Math.pow(shared, 1.0 / shingleSize);
        double g = (q + q * q) / 2;
        return Math.acos(Math.min(1, g)) / Math.PI;
    }

    /** The candidate radius for threshold {@code s} on sketches of {@code shingleSize}-token shingles. */
    public static int radius(double s, int shingleSize) {
        double p = bitFlipProbability(s, shingleSize);
        double cdf = 0;
        int n = SimHash.BITS;
        for (int r = 0; r <= n; r++) {
            cdf += binomial(n, r, p);
            if (cdf >= RECALL) {
                return Math.min(r, MAX_RADIUS);
            }
        }
        return MAX_RADIUS;
    }

    /** The candidate radius of a {@code min_similarity} threshold {@code s}. */
    public static int radius(double s) {
        return radius(s, MODEL_SHINGLE);
    }

    static double binomial(int n, int k, double p) {
        if (p == 0) {
            return k == 0 ? 1 : 0;
        }
        double logC = 0;
        for (int i = 1; i <= k; i++) {
            logC += Math.log(n - k + i) - Math.log(i);
        }
        return Math.exp(logC + k * Math.log(p) + (n - k) * Math.log1p(-p));
    }
}
