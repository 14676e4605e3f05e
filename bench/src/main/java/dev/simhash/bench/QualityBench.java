package dev.simhash.bench;

import dev.simhash.core.FeatureAnalyzer;
import dev.simhash.core.FingerprintOptions;
import dev.simhash.core.SimHash;
import dev.simhash.core.TextFingerprinter;
import dev.simhash.core.Weighting;

import org.apache.lucene.analysis.Analyzer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.stream.IntStream;

/**
 * Quality of near-duplicate detection by Hamming distance on real text. The corpus of one language
 * is its original documents plus, for each, copies edited at 2%, 5% and 10% of its words (see
 * {@link Perturb}). A pair of corpus documents is a near-duplicate when both come from the same
 * original (labelled by construction), or when their originals are natural near-duplicates: exact
 * Jaccard similarity of their word 3-shingle sets at least {@value #NATURAL}. Pairs whose originals
 * have a Jaccard similarity in [{@value #GREY}, {@value #NATURAL}) are counted as false positives
 * but also reported separately. Every pair of the corpus is compared.
 */
public final class QualityBench {

    static final double NATURAL = 0.8;
    static final double GREY = 0.5;
    static final int SHINGLE = 3;
    static final int KMAX = 24;
    static final double[] CORPUS_RATES = { 0.02, 0.05, 0.10 };
    static final double[] CURVE_RATES = { 0.01, 0.02, 0.05, 0.10, 0.20, 0.30, 0.50 };

    /** A fingerprint configuration under test. */
    public record Setting(String name, FeatureAnalyzer analyzer, FingerprintOptions options) {}

    public static final List<Setting> SETTINGS = List.of(
        new Setting("default analyzer, shingle 1, tf (processor default)", FeatureAnalyzer.DEFAULT, FingerprintOptions.DEFAULTS),
        new Setting("default analyzer, shingle 2, tf", FeatureAnalyzer.DEFAULT, new FingerprintOptions(2, Weighting.TF, 1)),
        new Setting("default analyzer, shingle 1, log_tf", FeatureAnalyzer.DEFAULT, new FingerprintOptions(1, Weighting.LOG_TF, 1)),
        new Setting("standard analyzer, shingle 1, tf", FeatureAnalyzer.STANDARD, FingerprintOptions.DEFAULTS));

    /** Counts at each distance threshold k (pairs with distance <= k). */
    public record Curve(long[] samePairs, long[] naturalPairs, long[] greyPairs, long[] otherPairs, long sameTotal, long naturalTotal) {
        public long tp(int k) {
            return samePairs[k] + naturalPairs[k];
        }

        public long fp(int k) {
            return greyPairs[k] + otherPairs[k];
        }

        public double precision(int k) {
            long all = tp(k) + fp(k);
            return all == 0 ? Double.NaN : tp(k) / (double) all;
        }

        public double precisionWithoutGrey(int k) {
            long all = tp(k) + otherPairs[k];
            return all == 0 ? Double.NaN : tp(k) / (double) all;
        }

        public double recall(int k) {
            return tp(k) / (double) (sameTotal + naturalTotal);
        }

        public double recallPerturbed(int k) {
            return samePairs[k] / (double) sameTotal;
        }

        public double recallNatural(int k) {
            return naturalTotal == 0 ? Double.NaN : naturalPairs[k] / (double) naturalTotal;
        }

        public double f1(int k) {
            double p = precision(k);
            double r = recall(k);
            return Double.isNaN(p) || p + r == 0 ? 0 : 2 * p * r / (p + r);
        }

        public int bestK() {
            int best = 0;
            for (int k = 1; k <= KMAX; k++) {
                if (f1(k) > f1(best)) {
                    best = k;
                }
            }
            return best;
        }
    }

    /** Results of one language and setting. */
    public record Result(String lang, Setting setting, int originals, int corpusDocs, long naturalOriginalPairs, long greyOriginalPairs,
                         Curve curve, Map<Double, double[]> rateDistances) {}

    private final Log log;
    public final List<Result> results = new ArrayList<>();

    public QualityBench(Log log) {
        this.log = log;
    }

    public void run(Corpora.Corpus corpus, int maxOriginals, long seed) {
        List<String> originals = corpus.docs().size() > maxOriginals ? corpus.docs().subList(0, maxOriginals) : corpus.docs();
        int n = originals.size();
        Analyzer analyzer = FeatureAnalyzer.DEFAULT.analyzer();
        Perturb perturb = new Perturb(analyzer);
        // vocabulary for insertions and replacements: words of the corpus itself
        List<String> vocabulary = new ArrayList<>();
        Random vr = new Random(seed);
        for (int i = 0; i < Math.min(n, 2000); i++) {
            List<String> u = perturb.units(originals.get(vr.nextInt(n)));
            for (int j = 0; j < Math.min(50, u.size()); j++) {
                vocabulary.add(u.get(vr.nextInt(u.size())));
            }
        }
        log.info(String.format(Locale.ROOT, "quality %s: %,d originals, perturbing at %s ...", corpus.name(), n, Arrays.toString(CURVE_RATES)));
        String[][] copies = new String[n][CURVE_RATES.length];
        IntStream.range(0, n).parallel().forEach(i -> {
            Random r = new Random(seed * 31 + i);
            for (int c = 0; c < CURVE_RATES.length; c++) {
                copies[i][c] = perturb.perturb(originals.get(i), CURVE_RATES[c], vocabulary, r);
            }
        });
        // the corpus: originals, then the copies at the corpus rates
        List<String> docs = new ArrayList<>(originals);
        List<Integer> origin = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            origin.add(i);
        }
        for (double rate : CORPUS_RATES) {
            int c = Arrays.binarySearch(CURVE_RATES, rate);
            for (int i = 0; i < n; i++) {
                docs.add(copies[i][c]);
                origin.add(i);
            }
        }
        log.info("  exact Jaccard of word 3-shingles between all pairs of originals ...");
        Map<Long, Float> jaccard = naturalPairs(originals, analyzer);
        long natural = jaccard.values().stream().filter(j -> j >= NATURAL).count();
        long grey = jaccard.size() - natural;
        log.info(String.format(Locale.ROOT, "  %,d natural near-duplicate pairs of originals (J >= %.1f), %,d grey (%.1f <= J < %.1f)",
            natural, NATURAL, grey, GREY, NATURAL));
        int[] originArr = origin.stream().mapToInt(Integer::intValue).toArray();
        for (Setting s : SETTINGS) {
            TextFingerprinter fp = new TextFingerprinter(s.analyzer(), s.options());
            long[] h = new long[docs.size()];
            boolean[] has = new boolean[docs.size()];
            IntStream.range(0, docs.size()).parallel().forEach(i -> {
                OptionalLong f = fp.fingerprint(docs.get(i));
                has[i] = f.isPresent();
                h[i] = f.orElse(0);
            });
            Curve curve = curve(h, has, originArr, n, jaccard);
            Map<Double, double[]> rateDist = new java.util.LinkedHashMap<>();
            for (int c = 0; c < CURVE_RATES.length; c++) {
                int cc = c;
                // the originals are the first n corpus documents: their fingerprints are h[0..n)
                double[] d = IntStream.range(0, n).parallel().mapToDouble(i -> {
                    OptionalLong b = fp.fingerprint(copies[i][cc]);
                    return has[i] && b.isPresent() ? SimHash.distance(h[i], b.getAsLong()) : -1;
                }).filter(x -> x >= 0).toArray();
                rateDist.put(CURVE_RATES[c], d);
            }
            Result res = new Result(corpus.name(), s, n, docs.size(), natural, grey, curve, rateDist);
            results.add(res);
            int bk = curve.bestK();
            log.info(String.format(Locale.ROOT, "  %-52s k=3: P %.3f R %.3f | best k=%d: P %.3f R %.3f F1 %.3f", s.name(),
                curve.precision(3), curve.recall(3), bk, curve.precision(bk), curve.recall(bk), curve.f1(bk)));
        }
    }

    /** Word 3-shingle sets (hashed) of each text, sorted and without repeats. */
    static long[] shingles(Analyzer analyzer, String text) {
        List<String> t = FingerprintBench.tokens(analyzer, text);
        if (t.size() < SHINGLE) {
            return t.isEmpty() ? new long[0] : new long[] { SimHash.featureHash(String.join(" ", t)) };
        }
        long[] out = new long[t.size() - SHINGLE + 1];
        for (int i = 0; i + SHINGLE <= t.size(); i++) {
            out[i] = SimHash.featureHash(String.join(" ", t.subList(i, i + SHINGLE)));
        }
        return Arrays.stream(out).sorted().distinct().toArray();
    }

    static double jaccard(long[] a, long[] b) {
        int i = 0;
        int j = 0;
        int common = 0;
        while (i < a.length && j < b.length) {
            if (a[i] == b[j]) {
                common++;
                i++;
                j++;
            } else if (a[i] < b[j]) {
                i++;
            } else {
                j++;
            }
        }
        int union = a.length + b.length - common;
        return union == 0 ? 0 : common / (double) union;
    }

    /**
     * Every pair of texts (i < j) with exact Jaccard similarity >= {@value #GREY}, keyed {@code i << 32 | j}.
     * Uses an inverted index from shingle to texts, so only pairs that share a shingle are counted.
     */
    static Map<Long, Float> naturalPairs(List<String> texts, Analyzer analyzer) {
        int n = texts.size();
        long[][] sh = new long[n][];
        IntStream.range(0, n).parallel().forEach(i -> sh[i] = shingles(analyzer, texts.get(i)));
        Map<Long, List<Integer>> postings = new HashMap<>();
        for (int i = 0; i < n; i++) {
            for (long s : sh[i]) {
                postings.computeIfAbsent(s, x -> new ArrayList<>(2)).add(i);
            }
        }
        Map<Long, int[]> post = new HashMap<>();
        postings.forEach((k, v) -> post.put(k, v.stream().mapToInt(Integer::intValue).toArray()));
        Map<Long, Float> out = new java.util.concurrent.ConcurrentHashMap<>();
        IntStream.range(0, n).parallel().forEach(i -> {
            int[] common = new int[n];
            int[] touched = new int[n];
            int t = 0;
            for (long s : sh[i]) {
                for (int j : post.get(s)) {
                    if (j > i) {
                        if (common[j]++ == 0) {
                            touched[t++] = j;
                        }
                    }
                }
            }
            for (int x = 0; x < t; x++) {
                int j = touched[x];
                int union = sh[i].length + sh[j].length - common[j];
                double jac = common[j] / (double) union;
                if (jac >= GREY) {
                    out.put(((long) i << 32) | j, (float) jac);
                }
            }
        });
        return out;
    }

    /** Compares every pair of the corpus and counts, per distance threshold, the pairs of each label. */
    static Curve curve(long[] h, boolean[] has, int[] origin, int originals, Map<Long, Float> jaccard) {
        int m = h.length;
        AtomicLongArray same = new AtomicLongArray(KMAX + 1);
        AtomicLongArray nat = new AtomicLongArray(KMAX + 1);
        AtomicLongArray grey = new AtomicLongArray(KMAX + 1);
        AtomicLongArray other = new AtomicLongArray(KMAX + 1);
        IntStream.range(0, m).parallel().forEach(i -> {
            if (!has[i]) {
                return;
            }
            long[] s = new long[KMAX + 1];
            long[] na = new long[KMAX + 1];
            long[] g = new long[KMAX + 1];
            long[] o = new long[KMAX + 1];
            long hi = h[i];
            for (int j = i + 1; j < m; j++) {
                int d = Long.bitCount(hi ^ h[j]);
                if (d > KMAX || !has[j]) {
                    continue;
                }
                int oi = origin[i];
                int oj = origin[j];
                if (oi == oj) {
                    s[d]++;
                } else {
                    Float jac = jaccard.get(oi < oj ? ((long) oi << 32) | oj : ((long) oj << 32) | oi);
                    if (jac == null) {
                        o[d]++;
                    } else if (jac >= NATURAL) {
                        na[d]++;
                    } else {
                        g[d]++;
                    }
                }
            }
            for (int d = 0; d <= KMAX; d++) {
                same.addAndGet(d, s[d]);
                nat.addAndGet(d, na[d]);
                grey.addAndGet(d, g[d]);
                other.addAndGet(d, o[d]);
            }
        });
        // totals of positive pairs among documents that have a fingerprint
        int[] present = new int[originals];
        for (int i = 0; i < m; i++) {
            if (has[i]) {
                present[origin[i]]++;
            }
        }
        long sameTotal = 0;
        for (int c : present) {
            sameTotal += (long) c * (c - 1) / 2;
        }
        long naturalTotal = 0;
        for (Map.Entry<Long, Float> e : jaccard.entrySet()) {
            if (e.getValue() >= NATURAL) {
                naturalTotal += (long) present[(int) (e.getKey() >>> 32)] * present[(int) (e.getKey() & 0xFFFFFFFFL)];
            }
        }
        return new Curve(cumulative(same), cumulative(nat), cumulative(grey), cumulative(other), sameTotal, naturalTotal);
    }

    private static long[] cumulative(AtomicLongArray a) {
        long[] out = new long[a.length()];
        long s = 0;
        for (int i = 0; i < a.length(); i++) {
            s += a.get(i);
            out[i] = s;
        }
        return out;
    }
}
