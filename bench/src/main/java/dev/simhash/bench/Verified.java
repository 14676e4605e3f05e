package dev.simhash.bench;

import dev.simhash.core.CandidateRadius;
import dev.simhash.core.MinHashSketch;
import dev.simhash.core.SimHashV2;
import dev.simhash.core.SketchBands;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;

/**
 * The verified near-duplicate mode on a natural corpus: a pair is reported iff its simhash-v2 fingerprints
 * are within {@link CandidateRadius#radius(double, int)} of the threshold s and the minhash sketches of
 * the two texts estimate a Jaccard similarity >= s. Scores several sketch variants (shingle size, bins,
 * bits per bin) across thresholds, and the candidate stage alone against the truth's Jaccard. The released sketch is
 * also scored with the rule as shipped: from {@link SketchBands#FROM} on, the candidates are the pairs whose sketches
 * share a band key ({@link SketchBands#sharedBands}), at any distance.
 */
final class Verified {

    /** Thresholds (min_similarity) measured. */
    static final double[] THRESHOLDS = { 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95 };
    /** The default threshold of the report's headline table (provisional until measured: see the README). */
    static final double DEFAULT_THRESHOLD = 0.8;
    /** Share of pairs the candidate radius must keep. */
    static final double TARGET_CANDIDATE_RECALL = 0.95;
    /** Width of the Jaccard band [s, s + BAND) whose pairs are "at the threshold". */
    static final double BAND = 0.05;
    /** Length-adaptive variants: texts with fewer tokens than this (by default) are shingled by 2 tokens, longer ones by 5. */
    static final int ADAPTIVE_TOKENS = 64;
    /** Widest candidate radius collected (the model is capped there). */
    static final int MAX_D = CandidateRadius.MAX_RADIUS;
    /** Exact variants: the Jaccard similarity in millionths, compared as the sketches' equal bins are. */
    static final int EXACT_SCALE = 1_000_000;
    /** Shingle sizes whose candidate radius is checked. */
    static final int[] SHINGLE_SIZES = { 2, 3, 4, 5 };

    /** A sketch variant: shingle size (0 = length-adaptive 2/5), bins, bits per bin; bins 0: the exact Jaccard of the shingle sets (no sketch). */
    record Variant(String name, int shingleSize, int bins, int bits, int adaptiveTokens) {
        int bytes() {
            return (bins * bits + 7) / 8;
        }

        boolean exact() {
            return bins == 0;
        }

        boolean released() {
            MinHashSketch v1 = MinHashSketch.V1;
            return shingleSize == MinHashSketch.SHINGLE && bins == v1.bins() && bits == v1.bitsPerBin();
        }

        /** The shingle size whose radius model the candidate stage uses: the widest (2) for the adaptive variant. */
        int radiusShingle() {
            return shingleSize == 0 ? 2 : shingleSize;
        }

        static Variant of(int w, int bins, int bits) {
            return adaptive(w, bins, bits, ADAPTIVE_TOKENS);
        }

        /** A variant whose adaptive rule (w = 0) shingles texts of fewer than {@code limit} tokens by 2, others by 5. */
        static Variant adaptive(int w, int bins, int bits, int limit) {
            String shingles = w == 0 ? "w2/5@" + limit : "w" + w;
            return new Variant(bins == 0 ? shingles + " exact J" : String.format(Locale.ROOT, "%s %dx%d", shingles, bins, bits), w, bins, bits, limit);
        }
    }

    /** The grid of variants at 64 bytes: shingle 2..5 and the adaptive rule, times 512x1, 256x2, 128x4, 64x8. */
    static List<Variant> grid() {
        List<Variant> out = new ArrayList<>();
        for (int w : new int[] { 2, 3, 4, 5, 0 }) {
            for (int bits : new int[] { 1, 2, 4, 8 }) {
                out.add(Variant.of(w, 512 / bits, bits));
            }
        }
        // where the adaptive rule switches from 2 to 5
        for (int limit : new int[] { 32, 128 }) {
            out.add(Variant.adaptive(0, 512, 1, limit));
        }
        // the sketches' upper bound: what a perfect estimator of the same shingle sets would report
        for (int w : new int[] { 2, 3, 4, 5, 0 }) {
            out.add(Variant.of(w, 0, 0));
        }
        return out;
    }

    /** The released parameters only. */
    static List<Variant> released() {
        MinHashSketch v1 = MinHashSketch.V1;
        return List.of(Variant.of(MinHashSketch.SHINGLE, v1.bins(), v1.bitsPerBin()));
    }

    /** Counts of one variant per threshold. */
    record Tally(long[] reported, long[] near, long[] grey) {}

    /** One variant's scores on one corpus, per threshold. */
    record Scores(Variant variant, boolean v2Radius, int[] radius, Tally tally, long nearPairs, boolean bands) {
        /** The row's name: the variant, "r(s,2)" when the candidate radius is the corrected model's, "bands" for the shipped rule. */
        String label() {
            String name = v2Radius && variant.radiusShingle() != 2 ? variant.name() + ", r(s,2)" : variant.name();
            return bands ? name + ", " + SketchBands.BANDS + " band keys from " + SketchBands.FROM : name;
        }

        /** The candidate rule at threshold index t, as the report's column shows it. */
        String rule(int t) {
            return !bands || !SketchBands.covers(THRESHOLDS[t]) ? String.valueOf(radius[t]) : "1 band";
        }

        double precision(int t) {
            return tally.reported[t] == 0 ? Double.NaN : tally.near[t] / (double) tally.reported[t];
        }

        double precisionNoGrey(int t) {
            long n = tally.reported[t] - tally.grey[t];
            return n == 0 ? Double.NaN : tally.near[t] / (double) n;
        }

        double recall(int t) {
            return nearPairs == 0 ? Double.NaN : tally.near[t] / (double) nearPairs;
        }

        double f1(int t) {
            double p = precision(t);
            double r = recall(t);
            return Double.isNaN(p) || Double.isNaN(r) || p + r == 0 ? 0 : 2 * p * r / (p + r);
        }
    }

    /** The candidate stage per shingle size and threshold: pairs with J >= s (and J in [s, s + BAND)) within radius(s, w). */
    record CandidateStage(int[][] radius, long[] atLeast, long[][] atLeastWithin, long[] band, long[][] bandWithin,
                          int[] r95AtLeast, int[] r95Band, double[] meanBandDistance) {
        double recall(int wi, int t) {
            return atLeast[t] == 0 ? Double.NaN : atLeastWithin[wi][t] / (double) atLeast[t];
        }

        double bandRecall(int wi, int t) {
            return band[t] == 0 ? Double.NaN : bandWithin[wi][t] / (double) band[t];
        }
    }

    /** v2 alone at its default radius (same pairs, same truth). */
    record Plain(int k, long reported, long near, long grey, long nearPairs) {
        double precision() {
            return reported == 0 ? Double.NaN : near / (double) reported;
        }

        double precisionNoGrey() {
            return reported - grey == 0 ? Double.NaN : near / (double) (reported - grey);
        }

        double recall() {
            return nearPairs == 0 ? Double.NaN : near / (double) nearPairs;
        }

        double f1() {
            double p = precision();
            double r = recall();
            return Double.isNaN(p) || Double.isNaN(r) || p + r == 0 ? 0 : 2 * p * r / (p + r);
        }
    }

    /** Everything measured on one corpus. */
    record Result(List<Scores> scores, CandidateStage candidates, Plain v2, long[] pairsWithin, double seconds) {
        long candidatePairs() {
            return pairsWithin[MAX_D];
        }
    }

    private Verified() {}

    /** Bins of two packed sketches (little-endian longs, {@code bits} <= 8 per bin) whose bits are equal. */
    static int equalBins(long[] a, long[] b, int bins, int bits) {
        int diff = 0;
        for (int k = 0; k < a.length; k++) {
            long x = a[k] ^ b[k];
            // fold each bin's bits onto its lowest bit: a bin differs iff any of its bits does
            switch (bits) {
                case 1 -> { }
                case 2 -> x = (x | x >>> 1) & 0x5555555555555555L;
                case 4 -> {
                    x |= x >>> 1;
                    x |= x >>> 2;
                    x &= 0x1111111111111111L;
                }
                case 8 -> {
                    x |= x >>> 1;
                    x |= x >>> 2;
                    x |= x >>> 4;
                    x &= 0x0101010101010101L;
                }
                default -> throw new IllegalArgumentException("bits per bin must be 1, 2, 4 or 8, got " + bits);
            }
            diff += Long.bitCount(x);
        }
        return bins - diff;
    }

    /** A sketch's bytes as little-endian longs (the last one zero-padded). */
    static long[] pack(byte[] sketch) {
        long[] out = new long[(sketch.length + 7) / 8];
        for (int i = 0; i < sketch.length; i++) {
            out[i >>> 3] |= (sketch[i] & 0xFFL) << (8 * (i & 7));
        }
        return out;
    }

    /** The truth's Jaccard of documents i < j, or -1 when it is below {@link Truth#MIN_STORED} (not stored). */
    static double truthJaccard(long[] pairs, int i, int j) {
        long key = ((long) i << 20 | j);
        int lo = 0;
        int hi = pairs.length - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            long k = pairs[mid] >>> 23;
            if (k < key) {
                lo = mid + 1;
            } else if (k > key) {
                hi = mid - 1;
            } else {
                return Truth.jaccardOf(pairs[mid]);
            }
        }
        return -1;
    }

    /**
     * Counts the reported pairs per threshold t: a candidate pair is reported iff its distance is <= radius[t]
     * and its equal bins >= minEqual[t]; near if its Jaccard >= {@link Truth#NEAR}, grey if >= {@link Truth#MIN_STORED}.
     */
    static Tally tally(int[] distance, int[] equal, double[] jaccard, int[] radius, int[] minEqual) {
        return tally(distance, equal, jaccard, radius, minEqual, null);
    }

    /**
     * As above; with {@code sharedBands} (per pair), thresholds from {@link SketchBands#FROM} take the pairs whose sketches
     * share a band key as candidates instead of those within the radius.
     */
    static Tally tally(int[] distance, int[] equal, double[] jaccard, int[] radius, int[] minEqual, int[] sharedBands) {
        int n = radius.length;
        long[] reported = new long[n];
        long[] near = new long[n];
        long[] grey = new long[n];
        for (int p = 0; p < distance.length; p++) {
            for (int t = 0; t < n; t++) {
                boolean candidate = sharedBands != null && SketchBands.covers(THRESHOLDS[t])
                    ? sharedBands[p] >= 1 : distance[p] <= radius[t];
                if (candidate && equal[p] >= minEqual[t]) {
                    reported[t]++;
                    if (jaccard[p] >= Truth.NEAR) {
                        near[t]++;
                    } else if (jaccard[p] >= Truth.MIN_STORED) {
                        grey[t]++;
                    }
                }
            }
        }
        return new Tally(reported, near, grey);
    }

    /** The smallest r such that at least {@code share} of the sorted distances are <= r (-1 for none). */
    static int quantileRadius(int[] sortedDistances, double share) {
        if (sortedDistances.length == 0) {
            return -1;
        }
        int idx = (int) Math.ceil(share * sortedDistances.length) - 1;
        return sortedDistances[Math.max(0, idx)];
    }

    /**
     * The candidate stage against the truth: for the truth's pairs (J >= 0.5) with their Hamming distances, per
     * threshold the pairs with J >= s and those in the band [s, s + BAND), and how many of them each shingle size's
     * radius keeps; the empirical radius keeping {@link #TARGET_CANDIDATE_RECALL} of them.
     */
    static CandidateStage candidateStage(int[] distance, double[] jaccard, double[] thresholds, int[] shingleSizes) {
        int n = thresholds.length;
        int[][] radius = new int[shingleSizes.length][n];
        for (int wi = 0; wi < shingleSizes.length; wi++) {
            for (int t = 0; t < n; t++) {
                radius[wi][t] = CandidateRadius.radius(thresholds[t], shingleSizes[wi]);
            }
        }
        long[] atLeast = new long[n];
        long[] band = new long[n];
        long[][] atLeastWithin = new long[shingleSizes.length][n];
        long[][] bandWithin = new long[shingleSizes.length][n];
        int[] r95 = new int[n];
        int[] r95b = new int[n];
        double[] meanBand = new double[n];
        for (int t = 0; t < n; t++) {
            double s = thresholds[t];
            List<Integer> all = new ArrayList<>();
            List<Integer> inBand = new ArrayList<>();
            for (int p = 0; p < distance.length; p++) {
                // compare with a tolerance: the truth's Jaccard is stored in 23 bits
                if (jaccard[p] >= s - 1e-6) {
                    all.add(distance[p]);
                    if (jaccard[p] < s + BAND - 1e-6) {
                        inBand.add(distance[p]);
                    }
                }
            }
            atLeast[t] = all.size();
            band[t] = inBand.size();
            for (int wi = 0; wi < shingleSizes.length; wi++) {
                int r = radius[wi][t];
                atLeastWithin[wi][t] = all.stream().filter(d -> d <= r).count();
                bandWithin[wi][t] = inBand.stream().filter(d -> d <= r).count();
            }
            int[] a = all.stream().mapToInt(Integer::intValue).sorted().toArray();
            int[] b = inBand.stream().mapToInt(Integer::intValue).sorted().toArray();
            r95[t] = quantileRadius(a, TARGET_CANDIDATE_RECALL);
            r95b[t] = quantileRadius(b, TARGET_CANDIDATE_RECALL);
            meanBand[t] = Arrays.stream(b).average().orElse(Double.NaN);
        }
        return new CandidateStage(radius, atLeast, atLeastWithin, band, bandWithin, r95, r95b, meanBand);
    }

    /** Shingle hashes of a token sequence under a variant (the adaptive one picks 2 or 5 by length). */
    static long[] shingles(Variant v, List<String> tokens) {
        int w = v.shingleSize() != 0 ? v.shingleSize() : tokens.size() < v.adaptiveTokens() ? 2 : 5;
        // the shingle hashes depend on the shingle size only
        return new MinHashSketch(w, 512, 1).shingleHashes(tokens);
    }

    /** Scores the verified mode of every variant on one corpus. */
    static Result run(NaturalCorpora.Corpus corpus, Truth truth, List<Variant> variants, Log log) {
        long start = System.nanoTime();
        List<String> docs = corpus.docs();
        int n = docs.size();
        List<List<String>> tokens = new ArrayList<>(n);
        long[] h = new long[n];
        boolean[] has = new boolean[n];
        for (int i = 0; i < n; i++) {
            List<String> t = SimHashV2.tokens(docs.get(i));
            tokens.add(t);
            OptionalLong f = SimHashV2.fingerprint(docs.get(i), 1);
            // a document is searchable in the verified mode when it has both a fingerprint and a sketch
            has[i] = f.isPresent() && !t.isEmpty();
            h[i] = f.orElse(0);
        }
        // every pair within the widest radius: the candidates of every threshold
        int[] idx = new int[n];
        int m = 0;
        for (int i = 0; i < n; i++) {
            if (has[i]) {
                idx[m++] = i;
            }
        }
        long[] pairs = new long[1024];
        int[] dist = new int[1024];
        int count = 0;
        for (int x = 0; x < m; x++) {
            long a = h[idx[x]];
            for (int y = x + 1; y < m; y++) {
                int d = Long.bitCount(a ^ h[idx[y]]);
                if (d <= MAX_D) {
                    if (count == pairs.length) {
                        pairs = Arrays.copyOf(pairs, count * 2);
                        dist = Arrays.copyOf(dist, count * 2);
                    }
                    pairs[count] = (long) idx[x] << 20 | idx[y];
                    dist[count++] = d;
                }
            }
        }
        pairs = Arrays.copyOf(pairs, count);
        dist = Arrays.copyOf(dist, count);
        double[] jac = new double[count];
        for (int p = 0; p < count; p++) {
            jac[p] = truthJaccard(truth.pairs, (int) (pairs[p] >>> 20), (int) (pairs[p] & 0xFFFFF));
        }
        log.info(String.format(Locale.ROOT, "  verified: %,d v2 pairs within %d bits", count, MAX_D));
        // v2 alone at its default radius
        int k = NaturalQuality.v2DefaultK(corpus);
        long pr = 0;
        long pn = 0;
        long pg = 0;
        for (int p = 0; p < count; p++) {
            if (dist[p] <= k) {
                pr++;
                if (jac[p] >= Truth.NEAR) {
                    pn++;
                } else if (jac[p] >= Truth.MIN_STORED) {
                    pg++;
                }
            }
        }
        Plain plain = new Plain(k, pr, pn, pg, truth.nearPairs);
        // the candidate stage against the truth's pairs
        List<Integer> td = new ArrayList<>();
        List<Double> tj = new ArrayList<>();
        for (long p : truth.pairs) {
            int i = Truth.first(p);
            int j = Truth.second(p);
            if (has[i] && has[j]) {
                td.add(Long.bitCount(h[i] ^ h[j]));
                tj.add(Truth.jaccardOf(p));
            }
        }
        CandidateStage stage = candidateStage(td.stream().mapToInt(Integer::intValue).toArray(), tj.stream().mapToDouble(Double::doubleValue).toArray(),
            THRESHOLDS, SHINGLE_SIZES);
        List<Scores> scores = new ArrayList<>();
        int[] equal = new int[count];
        for (Variant v : variants) {
            int[] minEqual = new int[THRESHOLDS.length];
            byte[][] bytes = null; // the released variant's sketches, for the band rule
            if (v.exact()) {
                long[][] sets = new long[n][];
                for (int i = 0; i < n; i++) {
                    if (has[i]) {
                        sets[i] = Arrays.stream(shingles(v, tokens.get(i))).sorted().distinct().toArray();
                    }
                }
                for (int p = 0; p < count; p++) {
                    equal[p] = (int) Math.round(EXACT_SCALE * Truth.jaccard(sets[(int) (pairs[p] >>> 20)], sets[(int) (pairs[p] & 0xFFFFF)]));
                }
                for (int t = 0; t < THRESHOLDS.length; t++) {
                    minEqual[t] = (int) Math.round(EXACT_SCALE * THRESHOLDS[t]);
                }
            } else {
                // the released variant with its band keys (the same bins' bits as the measurement sketch of its parameters)
                MinHashSketch sk = v.released() ? MinHashSketch.V1 : new MinHashSketch(Math.max(1, v.shingleSize()), v.bins(), v.bits());
                long[][] packed = new long[n][];
                bytes = v.released() ? new byte[n][] : null;
                for (int i = 0; i < n; i++) {
                    if (has[i]) {
                        byte[] b = sk.sketchOfShingles(shingles(v, tokens.get(i)));
                        packed[i] = pack(Arrays.copyOf(b, sk.binBytes())); // the bins' bits (the released sketch's band keys follow)
                        if (bytes != null) {
                            bytes[i] = b;
                        }
                    }
                }
                for (int p = 0; p < count; p++) {
                    equal[p] = equalBins(packed[(int) (pairs[p] >>> 20)], packed[(int) (pairs[p] & 0xFFFFF)], v.bins(), v.bits());
                }
                for (int t = 0; t < THRESHOLDS.length; t++) {
                    minEqual[t] = sk.equalBinsFor(THRESHOLDS[t]);
                }
            }
            // the radius of the model as released (the sketch's shingle size), then the corrected one (shingle size 2 whatever the sketch's)
            for (boolean v2Radius : v.radiusShingle() == 2 ? new boolean[] { false } : new boolean[] { false, true }) {
                int[] radius = new int[THRESHOLDS.length];
                for (int t = 0; t < THRESHOLDS.length; t++) {
                    radius[t] = CandidateRadius.radius(THRESHOLDS[t], v2Radius ? 2 : v.radiusShingle());
                }
                Scores s = new Scores(v, v2Radius, radius, tally(dist, equal, jac, radius, minEqual), truth.nearPairs, false);
                scores.add(s);
                log(log, s);
            }
            if (bytes != null) {
                scores.add(banded(v, bytes, idx, m, h, pairs, dist, jac, equal, minEqual, truth, log));
            }
        }
        long[] within = new long[MAX_D + 1];
        for (int p = 0; p < count; p++) {
            within[dist[p]]++;
        }
        for (int r = 1; r <= MAX_D; r++) {
            within[r] += within[r - 1];
        }
        return new Result(scores, stage, plain, within, (System.nanoTime() - start) / 1e9);
    }

    private static void log(Log log, Scores s) {
        int d = defaultIndex();
        log.info(String.format(Locale.ROOT, "  %-34s %2d B s=%.2f r=%5s P %.3f (w/o grey %.3f) R %.3f F1 %.3f", s.label(), s.variant().bytes(),
            THRESHOLDS[d], s.rule(d), s.precision(d), s.precisionNoGrey(d), s.recall(d), s.f1(d)));
    }

    /**
     * The released sketch with the rule as shipped: the pairs within {@link #MAX_D} bits, plus every farther pair whose
     * sketches share a band; from {@link SketchBands#FROM} on a pair is a candidate iff its sketches share a band, below
     * iff it is within the radius.
     */
    private static Scores banded(Variant v, byte[][] sketches, int[] idx, int m, long[] h, long[] pairs, int[] dist, double[] jac,
                                 int[] equal, int[] minEqual, Truth truth, Log log) {
        int count = pairs.length;
        int[] d = Arrays.copyOf(dist, count);
        double[] j = Arrays.copyOf(jac, count);
        int[] e = Arrays.copyOf(equal, count);
        int[] share = new int[count];
        for (int p = 0; p < count; p++) {
            share[p] = SketchBands.sharedBands(sketches[(int) (pairs[p] >>> 20)], 0, sketches[(int) (pairs[p] & 0xFFFFF)], 0);
        }
        int total = count;
        for (int x = 0; x < m; x++) {
            byte[] a = sketches[idx[x]];
            for (int y = x + 1; y < m; y++) {
                int dd = Long.bitCount(h[idx[x]] ^ h[idx[y]]);
                int shared = dd > MAX_D ? SketchBands.sharedBands(a, 0, sketches[idx[y]], 0) : 0;
                if (shared > 0) {
                    if (total == d.length) {
                        d = Arrays.copyOf(d, total * 2);
                        j = Arrays.copyOf(j, total * 2);
                        e = Arrays.copyOf(e, total * 2);
                        share = Arrays.copyOf(share, total * 2);
                    }
                    d[total] = dd;
                    j[total] = truthJaccard(truth.pairs, idx[x], idx[y]);
                    e[total] = MinHashSketch.V1.equalBins(a, 0, sketches[idx[y]], 0);
                    share[total++] = shared;
                }
            }
        }
        log.info(String.format(Locale.ROOT, "  verified: %,d more pairs beyond %d bits share a sketch band", total - count, MAX_D));
        int[] radius = new int[THRESHOLDS.length];
        for (int t = 0; t < THRESHOLDS.length; t++) {
            radius[t] = CandidateRadius.radius(THRESHOLDS[t], v.radiusShingle());
        }
        Scores s = new Scores(v, false, radius, tally(Arrays.copyOf(d, total), Arrays.copyOf(e, total), Arrays.copyOf(j, total), radius,
            minEqual, Arrays.copyOf(share, total)), truth.nearPairs, true);
        log(log, s);
        return s;
    }

    /** Index of {@link #DEFAULT_THRESHOLD} in {@link #THRESHOLDS}. */
    static int defaultIndex() {
        for (int t = 0; t < THRESHOLDS.length; t++) {
            if (Math.abs(THRESHOLDS[t] - DEFAULT_THRESHOLD) < 1e-9) {
                return t;
            }
        }
        throw new IllegalStateException("default threshold not measured");
    }
}
