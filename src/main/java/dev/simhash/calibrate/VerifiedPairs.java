package dev.simhash.calibrate;

import dev.simhash.core.CandidateRadius;
import dev.simhash.core.MinHashSketch;
import dev.simhash.core.SketchBands;
import dev.simhash.threshold.Verification;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The random pairs of a sample as the verified rule of {@code min_similarity} sees them: for each threshold s of
 * {@link #GRID}, the pairs that threshold's own rule takes ({@link Verification}: candidates by a shared band value from
 * {@link SketchBands#FROM} on, by the candidate radius {@link CandidateRadius#radius(double)} below, whose sketches pass
 * s). Pairs whose texts are near-duplicates ({@link RandomPairs.Related}) are counted apart, as in {@link RandomPairs}.
 * Where the sample shows no false match, an upper estimate stands in: a pair the rule wrongly matches is a candidate
 * (by the radius: the simhash false-match rate of that radius; by the bands: the chance that texts sharing
 * {@link TextSimilarity#RELATED_JACCARD} of their shingles share a band) and its sketches agree on enough bins although
 * its texts share less than {@link TextSimilarity#RELATED_JACCARD} of their shingles (chance at most that of a pair at
 * exactly that similarity).
 */
public final class VerifiedPairs {

    /** The thresholds reported: 0.50, 0.55, ..., 0.95. */
    public static final List<Double> GRID;

    static {
        List<Double> grid = new ArrayList<>();
        for (int i = 10; i <= 19; i++) {
            grid.add(i / 20.0);
        }
        GRID = Collections.unmodifiableList(grid);
    }

    private final MinHashSketch sketch;
    private final RandomPairs simhash;
    private final long[] matched = new long[GRID.size()];
    private final long[] related = new long[GRID.size()];
    private final long sketchedPairs;

    /**
     * @param fingerprints the sample's fingerprints
     * @param sketches     their sketches by the same index (null: none; such a document is never matched)
     * @param sketch       the sketch's parameters
     * @param relatedPair  whether two documents' texts are near-duplicates
     * @param simhash      the same sample's {@link RandomPairs}, for the upper estimate
     */
    public VerifiedPairs(long[] fingerprints, byte[][] sketches, MinHashSketch sketch, RandomPairs.Related relatedPair,
                         RandomPairs simhash) {
        if (fingerprints.length != sketches.length) {
            throw new IllegalArgumentException("one sketch per fingerprint: " + fingerprints.length + " != " + sketches.length);
        }
        this.sketch = sketch;
        this.simhash = simhash;
        Verification[] rules = new Verification[GRID.size()];
        int widest = 0; // the widest radius of the thresholds the radius decides
        for (int t = 0; t < rules.length; t++) {
            rules[t] = Verification.of(GRID.get(t));
            widest = rules[t].byBands() ? widest : Math.max(widest, rules[t].radius());
        }
        long both = 0;
        int n = fingerprints.length;
        for (int i = 0; i < n; i++) {
            if (sketches[i] == null) {
                continue;
            }
            for (int j = i + 1; j < n; j++) {
                if (sketches[j] == null) {
                    continue;
                }
                both++;
                // what the rules read of a pair, once for all thresholds
                int d = Long.bitCount(fingerprints[i] ^ fingerprints[j]);
                boolean shared = SketchBands.sharedBands(sketches[i], 0, sketches[j], 0) > 0;
                if (d > widest && !shared) {
                    continue; // no threshold's candidate (most random pairs): the bins need not be compared
                }
                int equal = sketch.equalBins(sketches[i], 0, sketches[j], 0);
                Boolean rel = null; // asked once, only for a pair some threshold matches
                for (int t = 0; t < rules.length; t++) {
                    if (rules[t].candidates(d, shared) && rules[t].passes(equal)) {
                        matched[t]++;
                        if (rel == null) {
                            rel = relatedPair.test(i, j);
                        }
                        if (rel) {
                            related[t]++;
                        }
                    }
                }
            }
        }
        sketchedPairs = both;
    }

    /** The candidate radius of threshold {@code s}, as the query derives it (its candidates below {@link SketchBands#FROM}). */
    public static int radius(double s) {
        return CandidateRadius.radius(s);
    }

    /** All pairs of the sample (the denominator of the rates, as in {@link RandomPairs#pairs()}). */
    public long pairs() {
        return simhash.pairs();
    }

    /** Pairs of which both documents have a sketch. */
    public long sketchedPairs() {
        return sketchedPairs;
    }

    private static int index(double s) {
        int t = GRID.indexOf(s);
        if (t < 0) {
            throw new IllegalArgumentException("[" + s + "] is not a threshold of the grid " + GRID);
        }
        return t;
    }

    /** Pairs the verified rule matches at threshold {@code s} (a value of {@link #GRID}). */
    public long matched(double s) {
        return matched[index(s)];
    }

    /** Of those, pairs whose texts are near-duplicates. */
    public long relatedMatched(double s) {
        return related[index(s)];
    }

    /** The share of all pairs that the rule matches at s and that are not related; 0 without pairs. */
    public double observedRate(double s) {
        return pairs() == 0 ? 0 : (double) (matched(s) - relatedMatched(s)) / pairs();
    }

    /**
     * The chance that the sketches of two texts whose true similarity is {@code j} give an estimate of at least s: at
     * least {@link MinHashSketch#equalBinsFor} of its bins hold equal bits, each with probability j + (1 - j) 2^-bits.
     */
    public double sketchPassChance(double s, double j) {
        double p = j + (1 - j) * Math.pow(2, -sketch.bitsPerBin());
        return binomialUpperTail(sketch.bins(), sketch.equalBinsFor(s), p);
    }

    /**
     * The upper estimate at s: the chance that an unrelated pair (similarity below {@link TextSimilarity#RELATED_JACCARD})
     * is a candidate (by the bands: that it shares a band at that similarity; by the radius: the simhash false-match rate of
     * the candidate radius) times the chance that it passes the sketch. NaN without pairs.
     */
    public double estimatedRate(double s) {
        if (pairs() == 0) {
            return Double.NaN;
        }
        double candidate = Verification.of(s).byBands() ? SketchBands.shareProbability(TextSimilarity.RELATED_JACCARD)
            : simhash.falseMatchRate(radius(s));
        return candidate * sketchPassChance(s, TextSimilarity.RELATED_JACCARD);
    }

    /** The rate a recommendation uses: the larger of the observed and the estimated one. Non-increasing in s. */
    public double falseMatchRate(double s) {
        double estimated = estimatedRate(s);
        double observed = observedRate(s);
        return Double.isNaN(estimated) ? observed : Math.max(observed, estimated);
    }

    /** Which of the two {@link #falseMatchRate} is: {@code observed} or {@code estimate}. */
    public String falseMatchRateFrom(double s) {
        double estimated = estimatedRate(s);
        return Double.isNaN(estimated) || observedRate(s) >= estimated ? "observed" : "estimate";
    }

    /** The lowest threshold of {@link #GRID} whose {@link #falseMatchRate} is at most {@code target}; NaN if none is. */
    public double lowestWithin(double target) {
        for (double s : GRID) {
            if (falseMatchRate(s) <= target) {
                return s;
            }
        }
        return Double.NaN;
    }

    /** P[X >= k] for X binomial(n, p), summed in log space so that tails far below 1e-300 stay finite (as 0). */
    static double binomialUpperTail(int n, int k, double p) {
        if (k <= 0) {
            return 1;
        }
        if (k > n) {
            return 0;
        }
        if (p >= 1) {
            return 1;
        }
        if (p <= 0) {
            return 0;
        }
        double sum = 0;
        double logC = 0; // log C(n, k) built up from C(n, 0)
        for (int i = 1; i <= k; i++) {
            logC += Math.log(n - i + 1) - Math.log(i);
        }
        for (int i = k; i <= n; i++) {
            sum += Math.exp(logC + i * Math.log(p) + (n - i) * Math.log1p(-p));
            logC += Math.log(n - i) - Math.log(i + 1);
        }
        return Math.min(1, sum);
    }
}
