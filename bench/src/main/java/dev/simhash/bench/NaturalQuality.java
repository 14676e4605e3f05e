package dev.simhash.bench;

import dev.simhash.core.CharFolding;
import dev.simhash.core.FeatureAnalyzer;
import dev.simhash.core.FeatureBag;
import dev.simhash.core.FingerprintOptions;
import dev.simhash.core.ScriptAwareTokenizer;
import dev.simhash.core.SimHashV2;
import dev.simhash.core.TextFingerprinter;
import dev.simhash.core.Weighting;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.Normalizer;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Random;
import java.util.function.Function;

/**
 * Detection quality on corpora with natural near-duplicates ({@code ./run bench-quality}): truth by
 * exact shingle Jaccard over all pairs ({@link Truth}); every pair of fingerprints compared; simhash-v1
 * (exactly what the plugin computes), candidate feature pipelines for simhash-v2, the chosen v2
 * through its production entry point {@link SimHashV2}, v2 with weights learned from the corpus, and
 * a MinHash baseline on the same pairs. Single-threaded, no Elasticsearch node. Writes report.md.
 */
public final class NaturalQuality {

    static final int KMAX = 16;
    /** Pairs within this many bits are checked for chance collisions (J < 0.2) by exact Jaccard. */
    static final int CHANCE_K = 10;
    static final int V1_DEFAULT_K = 3;
    static final double[] MINHASH_T = { 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95 };
    static final double MINHASH_DEFAULT_T = 0.8;
    static final double[] EDIT_RATES = { 0.02, 0.05, 0.10, 0.20 };
    static final int EDIT_SAMPLE = 300;

    /** Text normalisation before tokenizing. */
    enum Norm { LOWER, NFKC_LOWER, FOLD, FOLD_PHRASES }

    /** Tokenizer of a candidate. */
    enum Tok { SMARTCN, UNICODE_HANCHARS, UNICODE_SMARTCN_HAN }

    /** Which n-grams of tokens are features. */
    enum Grams { UNI, UNI_BI, BI, UNI_BI_TRI, TRI, HALFUNI_BI, BI_TRI }

    /** Weights learned from the corpus (document frequencies of the same features). */
    enum Learned { NONE, IDF, CAP50 }

    /** A fingerprint configuration under test. */
    record Candidate(String name, String description, Norm norm, Tok tok, Grams grams, Weighting weighting, Learned learned,
                     boolean v1, boolean v2Production) {}

    static final List<Candidate> CANDIDATES = List.of(
        new Candidate("v1", "simhash-v1 defaults: smartcn, unigrams, tf (the processor's default)", null, null, null, null, Learned.NONE, true, false),
        new Candidate("v1 log_tf", "simhash-v1, weighting log_tf", null, null, null, Weighting.LOG_TF, Learned.NONE, true, false),
        new Candidate("v1 shingle 2", "simhash-v1, shingle_size 2 (bigrams only), tf", null, null, null, null, Learned.NONE, true, false),
        new Candidate("A fold+uni+bin", "fold, Unicode words / Han chars, unigrams, binary", Norm.FOLD, Tok.UNICODE_HANCHARS, Grams.UNI, Weighting.BINARY, Learned.NONE, false, false),
        new Candidate("B fold+uni+bi+tf", "fold, Unicode words / Han chars, uni+bigrams, tf", Norm.FOLD, Tok.UNICODE_HANCHARS, Grams.UNI_BI, Weighting.TF, Learned.NONE, false, false),
        new Candidate("C fold+bi+bin", "fold, Unicode words / Han chars, bigrams only, binary", Norm.FOLD, Tok.UNICODE_HANCHARS, Grams.BI, Weighting.BINARY, Learned.NONE, false, false),
        new Candidate("D nfkc+uni+bi+bin", "NFKC+lowercase (no Han folding), Unicode words / Han chars, uni+bigrams, binary", Norm.NFKC_LOWER, Tok.UNICODE_HANCHARS, Grams.UNI_BI, Weighting.BINARY, Learned.NONE, false, false),
        new Candidate("E fold+smartcn+uni+bi+bin", "fold, smartcn for Han runs + Unicode words, uni+bigrams, binary", Norm.FOLD, Tok.UNICODE_SMARTCN_HAN, Grams.UNI_BI, Weighting.BINARY, Learned.NONE, false, false),
        new Candidate("F v1-tokens+uni+bi+bin", "lowercase, smartcn (v1 default analyzer), uni+bigrams, binary", Norm.LOWER, Tok.SMARTCN, Grams.UNI_BI, Weighting.BINARY, Learned.NONE, false, false),
        new Candidate("G fold+uni+bi+log", "fold, Unicode words / Han chars, uni+bigrams, log tf (v2 until 2026-11-24)", Norm.FOLD, Tok.UNICODE_HANCHARS, Grams.UNI_BI, Weighting.LOG_TF, Learned.NONE, false, false),
        new Candidate("H fold+uni+bi+tri+bin", "fold, Unicode words / Han chars, uni+bi+trigrams, binary", Norm.FOLD, Tok.UNICODE_HANCHARS, Grams.UNI_BI_TRI, Weighting.BINARY, Learned.NONE, false, false),
        new Candidate("I fold+tri+binary", "fold, Unicode words / Han chars, trigrams only, binary", Norm.FOLD, Tok.UNICODE_HANCHARS, Grams.TRI, Weighting.BINARY, Learned.NONE, false, false),
        new Candidate("J fold+smartcn+uni+bi+tri+bin", "fold, smartcn for Han runs + Unicode words, uni+bi+trigrams, binary", Norm.FOLD, Tok.UNICODE_SMARTCN_HAN, Grams.UNI_BI_TRI, Weighting.BINARY, Learned.NONE, false, false),
        new Candidate("K fold+uni/2+bi+bin", "fold, Unicode words / Han chars, unigrams at half weight + bigrams, binary", Norm.FOLD, Tok.UNICODE_HANCHARS, Grams.HALFUNI_BI, Weighting.BINARY, Learned.NONE, false, false),
        new Candidate("L fold+bi+tri+bin", "fold, Unicode words / Han chars, bi+trigrams, binary", Norm.FOLD, Tok.UNICODE_HANCHARS, Grams.BI_TRI, Weighting.BINARY, Learned.NONE, false, false),
        new Candidate("M fold+smartcn+bi+bin", "fold, smartcn for Han runs + Unicode words, bigrams only, binary", Norm.FOLD, Tok.UNICODE_SMARTCN_HAN, Grams.BI, Weighting.BINARY, Learned.NONE, false, false),
        new Candidate("v2", "fold, Unicode words / Han chars, uni+bigrams, binary (SimHashV2)", Norm.FOLD, Tok.UNICODE_HANCHARS, Grams.UNI_BI, Weighting.BINARY, Learned.NONE, false, true),
        new Candidate("v2+phrases", "v2 plus Taiwan -> mainland phrase folding (PhraseFolding)", Norm.FOLD_PHRASES, Tok.UNICODE_HANCHARS, Grams.UNI_BI, Weighting.BINARY, Learned.NONE, false, false),
        new Candidate("v2+idf", "v2 features, weight idf from the corpus (v2 with a weights table)", Norm.FOLD, Tok.UNICODE_HANCHARS, Grams.UNI_BI, Weighting.BINARY, Learned.IDF, false, false),
        new Candidate("v2+cap50", "v2 features, those in > 50% of the corpus's documents dropped", Norm.FOLD, Tok.UNICODE_HANCHARS, Grams.UNI_BI, Weighting.BINARY, Learned.CAP50, false, false));

    /** Counts per Hamming distance threshold, cumulative. */
    record Curve(long[] total, long[] near, long[] grey, long[] chance, long nearPairs, long allPairs, int fingerprinted, int docs,
                 double[] bitShare, List<String> chanceExamples, double[] bandMedians, double seconds) {
        /** Jaccard bands whose median Hamming distance is reported: [0.9, 1], [0.8, 0.9), [0.65, 0.8), [0.5, 0.65). */
        static final double[] BANDS = { 0.9, 0.8, 0.65, 0.5 };

        Curve withSeconds(double s) {
            return new Curve(total, near, grey, chance, nearPairs, allPairs, fingerprinted, docs, bitShare, chanceExamples, bandMedians, s);
        }

        double precision(int k) {
            return total[k] == 0 ? Double.NaN : near[k] / (double) total[k];
        }

        double precisionNoGrey(int k) {
            long t = total[k] - grey[k];
            return t == 0 ? Double.NaN : near[k] / (double) t;
        }

        double recall(int k) {
            return nearPairs == 0 ? Double.NaN : near[k] / (double) nearPairs;
        }

        double recallGrey(int k, long greyPairs) {
            long all = nearPairs + greyPairs;
            return all == 0 ? Double.NaN : (near[k] + grey[k]) / (double) all;
        }

        double f1(int k) {
            double p = precision(k);
            double r = recall(k);
            return Double.isNaN(p) || Double.isNaN(r) || p + r == 0 ? 0 : 2 * p * r / (p + r);
        }

        int bestK() {
            int b = 0;
            for (int k = 1; k < total.length; k++) {
                if (f1(k) > f1(b)) {
                    b = k;
                }
            }
            return b;
        }

        /** Pairs with J < 0.2 within k bits per pair with J < 0.5 (all but the truth's pairs; approximately all pairs). */
        double chanceRate(int k) {
            return k > CHANCE_K ? Double.NaN : chance[k] / (double) allPairs;
        }

        double meanBitSkew() {
            return Arrays.stream(bitShare).map(s -> Math.abs(s - 0.5)).average().orElse(Double.NaN);
        }

        double minShare() {
            return Arrays.stream(bitShare).min().orElse(Double.NaN);
        }

        double maxShare() {
            return Arrays.stream(bitShare).max().orElse(Double.NaN);
        }
    }

    record MinHashResult(double[] precision, double[] recall, double[] f1) {}

    record EditView(double[] medianDistance, double[] withinDefault) {}

    record CorpusResult(NaturalCorpora.Corpus corpus, Truth truth, Map<String, Curve> curves, Map<String, EditView> edits,
                        MinHashResult minHash, Verified.Result verified, WorstGap.CorpusGaps gaps, double seconds) {}

    private final Log log;
    private final boolean zhLatinWords;
    private final List<Truth.Spec> truths;
    private final List<WorstGap.Design> designs;

    NaturalQuality(Log log, boolean zhLatinWords, List<Truth.Spec> truths, List<WorstGap.Design> designs) {
        this.log = log;
        this.zhLatinWords = zhLatinWords;
        this.truths = truths;
        this.designs = designs;
    }

    /** The v2 default radius for a corpus: short or long texts. */
    static int v2DefaultK(NaturalCorpora.Corpus c) {
        return c.shortTexts() ? SimHashV2.DEFAULT_MAX_DISTANCE_SHORT : SimHashV2.DEFAULT_MAX_DISTANCE;
    }

    static String normalize(Norm n, String text) {
        return switch (n) {
            case LOWER -> text.toLowerCase(Locale.ROOT);
            case NFKC_LOWER -> Normalizer.normalize(text, Normalizer.Form.NFKC).toLowerCase(Locale.ROOT);
            case FOLD -> CharFolding.fold(text);
            case FOLD_PHRASES -> PhraseFolding.fold(CharFolding.fold(text));
        };
    }

    static final ScriptAwareTokenizer HANCHARS = new ScriptAwareTokenizer(ScriptAwareTokenizer.Mode.HAN_CHARACTERS);
    static final ScriptAwareTokenizer HANWORDS = new ScriptAwareTokenizer(ScriptAwareTokenizer.Mode.HAN_WORDS);

    static List<String> tokens(Tok t, String text) {
        return switch (t) {
            case SMARTCN -> FingerprintBench.tokens(FeatureAnalyzer.DEFAULT.analyzer(), text);
            case UNICODE_HANCHARS -> HANCHARS.tokens(text);
            case UNICODE_SMARTCN_HAN -> HANWORDS.tokens(text);
        };
    }

    /** Features with their term frequencies, in order of first occurrence. */
    static LinkedHashMap<String, Integer> features(Candidate c, String text) {
        List<String> t = tokens(c.tok(), normalize(c.norm(), text));
        LinkedHashMap<String, Integer> f = new LinkedHashMap<>();
        for (int i = 0; i < t.size(); i++) {
            Grams g = c.grams();
            if (g == Grams.UNI || g == Grams.UNI_BI || g == Grams.UNI_BI_TRI || g == Grams.HALFUNI_BI) {
                f.merge(t.get(i), 1, Integer::sum);
            }
            if ((g == Grams.BI || g == Grams.UNI_BI || g == Grams.UNI_BI_TRI || g == Grams.HALFUNI_BI || g == Grams.BI_TRI) && i > 0) {
                f.merge(t.get(i - 1) + " " + t.get(i), 1, Integer::sum);
            }
            if ((g == Grams.TRI || g == Grams.UNI_BI_TRI || g == Grams.BI_TRI) && i > 1) {
                f.merge(t.get(i - 2) + " " + t.get(i - 1) + " " + t.get(i), 1, Integer::sum);
            }
        }
        int order = c.grams() == Grams.BI || c.grams() == Grams.BI_TRI ? 2 : c.grams() == Grams.TRI ? 3 : 1;
        if (f.isEmpty() && !t.isEmpty() && t.size() < order) {
            f.put(String.join(" ", t), 1);
        }
        return f;
    }

    /** Fingerprints of all documents under one candidate (absent: Long.MIN_VALUE marker in has[]). */
    static long[] fingerprints(Candidate c, List<String> docs, boolean[] has) {
        long[] h = new long[docs.size()];
        if (c.v1()) {
            FingerprintOptions o = c.name().equals("v1") ? FingerprintOptions.DEFAULTS
                : c.name().equals("v1 log_tf") ? new FingerprintOptions(1, Weighting.LOG_TF, 1) : new FingerprintOptions(2, Weighting.TF, 1);
            TextFingerprinter fp = new TextFingerprinter(FeatureAnalyzer.DEFAULT, o);
            for (int i = 0; i < h.length; i++) {
                OptionalLong f = fp.fingerprint(docs.get(i));
                has[i] = f.isPresent();
                h[i] = f.orElse(0);
            }
            return h;
        }
        if (c.v2Production()) {
            for (int i = 0; i < h.length; i++) {
                OptionalLong f = SimHashV2.fingerprint(docs.get(i), 1);
                has[i] = f.isPresent();
                h[i] = f.orElse(0);
            }
            return h;
        }
        List<LinkedHashMap<String, Integer>> feats = new ArrayList<>(docs.size());
        for (String d : docs) {
            feats.add(features(c, d));
        }
        Map<String, int[]> df = new HashMap<>();
        if (c.learned() != Learned.NONE) {
            for (Map<String, Integer> f : feats) {
                for (String k : f.keySet()) {
                    df.computeIfAbsent(k, x -> new int[1])[0]++;
                }
            }
        }
        int n = docs.size();
        for (int i = 0; i < h.length; i++) {
            LinkedHashMap<String, Double> w = new LinkedHashMap<>();
            for (Map.Entry<String, Integer> e : feats.get(i).entrySet()) {
                double weight = c.weighting().weight(e.getValue());
                if (c.grams() == Grams.HALFUNI_BI && e.getKey().indexOf(' ') < 0) {
                    weight *= 0.5;
                }
                if (c.learned() == Learned.IDF) {
                    weight *= Math.log(1 + n / (double) df.get(e.getKey())[0]);
                } else if (c.learned() == Learned.CAP50 && df.get(e.getKey())[0] > n / 2) {
                    continue;
                }
                w.put(e.getKey(), weight);
            }
            OptionalLong f = FeatureBag.fingerprintWeighted(w, 1);
            has[i] = f.isPresent();
            h[i] = f.orElse(0);
        }
        return h;
    }

    static Curve evaluate(long[] h, boolean[] has, Truth truth, List<String> docs, int exampleK) {
        List<String> examples = new ArrayList<>();
        int n = h.length;
        long[] total = new long[KMAX + 1];
        long[] chance = new long[KMAX + 1];
        int[] idx = new int[n];
        int m = 0;
        for (int i = 0; i < n; i++) {
            if (has[i]) {
                idx[m++] = i;
            }
        }
        long[] hh = new long[m];
        for (int x = 0; x < m; x++) {
            hh[x] = h[idx[x]];
        }
        for (int x = 0; x < m; x++) {
            long a = hh[x];
            for (int y = x + 1; y < m; y++) {
                int d = Long.bitCount(a ^ hh[y]);
                if (d <= KMAX) {
                    total[d]++;
                    if (d <= CHANCE_K) {
                        double jac = truth.jaccard(idx[x], idx[y]);
                        if (jac < Truth.UNRELATED) {
                            chance[d]++;
                            if (d <= exampleK && examples.size() < 3) {
                                examples.add(String.format(Locale.ROOT, "d=%d J=%.2f: \"%s\" / \"%s\"", d, jac, snippet(docs.get(idx[x])),
                                    snippet(docs.get(idx[y]))));
                            }
                        }
                    }
                }
            }
        }
        long[] near = new long[KMAX + 1];
        long[] grey = new long[KMAX + 1];
        List<List<Integer>> bands = new ArrayList<>();
        for (int b = 0; b < Curve.BANDS.length; b++) {
            bands.add(new ArrayList<>());
        }
        for (long p : truth.pairs) {
            int i = Truth.first(p);
            int j = Truth.second(p);
            if (!has[i] || !has[j]) {
                continue;
            }
            int d = Long.bitCount(h[i] ^ h[j]);
            for (int b = 0; b < Curve.BANDS.length; b++) {
                if (Truth.jaccardOf(p) >= Curve.BANDS[b]) {
                    bands.get(b).add(d);
                    break;
                }
            }
            if (d <= KMAX) {
                if (Truth.jaccardOf(p) >= Truth.NEAR) {
                    near[d]++;
                } else {
                    grey[d]++;
                }
            }
        }
        double[] share = new double[64];
        for (int x = 0; x < m; x++) {
            long v = hh[x];
            for (int b = 0; b < 64; b++) {
                if ((v >>> b & 1) != 0) {
                    share[b]++;
                }
            }
        }
        for (int b = 0; b < 64; b++) {
            share[b] /= Math.max(1, m);
        }
        long allPairs = (long) n * (n - 1) / 2 - truth.pairs.length;
        double[] medians = new double[Curve.BANDS.length];
        for (int b = 0; b < medians.length; b++) {
            List<Integer> l = bands.get(b);
            l.sort(null);
            medians[b] = l.isEmpty() ? Double.NaN : l.get(l.size() / 2);
        }
        return new Curve(cum(total), cum(near), cum(grey), cum(chance), truth.nearPairs, allPairs, m, n, share, examples, medians, 0);
    }

    static String snippet(String t) {
        String s = t.replaceAll("\\s+", " ").strip();
        return s.length() <= 70 ? s : s.substring(0, 70) + "…";
    }

    static long[] cum(long[] a) {
        long[] out = new long[a.length];
        long s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i];
            out[i] = s;
        }
        return out;
    }

    static MinHashResult minHash(Truth truth) {
        long[][] sig = new long[truth.shingles.length][];
        for (int i = 0; i < sig.length; i++) {
            sig[i] = MinHash.signature(truth.shingles[i]);
        }
        int t = MINHASH_T.length;
        long[] tp = new long[t];
        long[] fp = new long[t];
        for (long p : truth.pairs) {
            double est = MinHash.estimate(sig[Truth.first(p)], sig[Truth.second(p)]);
            boolean near = Truth.jaccardOf(p) >= Truth.NEAR;
            for (int x = 0; x < t; x++) {
                if (est >= MINHASH_T[x] - 1e-9) {
                    if (near) {
                        tp[x]++;
                    } else {
                        fp[x]++;
                    }
                }
            }
        }
        double[] pr = new double[t];
        double[] re = new double[t];
        double[] f1 = new double[t];
        for (int x = 0; x < t; x++) {
            pr[x] = tp[x] + fp[x] == 0 ? Double.NaN : tp[x] / (double) (tp[x] + fp[x]);
            re[x] = truth.nearPairs == 0 ? Double.NaN : tp[x] / (double) truth.nearPairs;
            f1[x] = Double.isNaN(pr[x]) || pr[x] + re[x] == 0 ? 0 : 2 * pr[x] * re[x] / (pr[x] + re[x]);
        }
        return new MinHashResult(pr, re, f1);
    }

    /** The synthetic view: a sample of documents edited at several rates, distance to the original. */
    static Map<String, EditView> edits(NaturalCorpora.Corpus corpus, List<Candidate> cands, long seed) {
        Perturb perturb = new Perturb(FeatureAnalyzer.DEFAULT.analyzer());
        Random r = new Random(seed);
        List<String> docs = corpus.docs();
        List<String> vocabulary = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            List<String> u = perturb.units(docs.get(r.nextInt(docs.size())));
            if (!u.isEmpty()) {
                vocabulary.add(u.get(r.nextInt(u.size())));
            }
        }
        int s = Math.min(EDIT_SAMPLE, docs.size());
        List<String> sample = new ArrayList<>();
        for (int i = 0; i < s; i++) {
            sample.add(docs.get(r.nextInt(docs.size())));
        }
        List<List<String>> copies = new ArrayList<>();
        for (double rate : EDIT_RATES) {
            List<String> c = new ArrayList<>();
            for (String d : sample) {
                c.add(perturb.perturb(d, rate, vocabulary, r));
            }
            copies.add(c);
        }
        Map<String, EditView> out = new LinkedHashMap<>();
        for (Candidate c : cands) {
            if (c.learned() != Learned.NONE) {
                continue;
            }
            boolean[] has0 = new boolean[s];
            long[] h0 = fingerprints(c, sample, has0);
            double[] med = new double[EDIT_RATES.length];
            double[] within = new double[EDIT_RATES.length];
            int k = c.v1() ? V1_DEFAULT_K : v2DefaultK(corpus);
            for (int x = 0; x < EDIT_RATES.length; x++) {
                boolean[] has1 = new boolean[s];
                long[] h1 = fingerprints(c, copies.get(x), has1);
                List<Integer> d = new ArrayList<>();
                for (int i = 0; i < s; i++) {
                    if (has0[i] && has1[i]) {
                        d.add(Long.bitCount(h0[i] ^ h1[i]));
                    }
                }
                d.sort(null);
                med[x] = d.isEmpty() ? Double.NaN : d.get(d.size() / 2);
                within[x] = d.isEmpty() ? Double.NaN : d.stream().filter(v -> v <= k).count() / (double) d.size();
            }
            out.put(c.name(), new EditView(med, within));
        }
        return out;
    }

    CorpusResult run(NaturalCorpora.Corpus corpus, List<Candidate> cands, boolean withEdits, List<Verified.Variant> variants) {
        double t0 = log.seconds();
        log.info("  truth: exact Jaccard of " + (corpus.lang() == NaturalCorpora.Lang.EN ? "word " : "character ") + corpus.shingle()
            + "-shingles ...");
        Truth truth = Truth.of(corpus, zhLatinWords);
        log.info(String.format(Locale.ROOT, "  %,d near-duplicate pairs (J >= 0.8), %,d grey (0.5 <= J < 0.8)", truth.nearPairs, truth.greyPairs));
        Map<String, Curve> curves = new LinkedHashMap<>();
        for (Candidate c : cands) {
            boolean[] has = new boolean[corpus.docs().size()];
            long start = System.nanoTime();
            long[] h = fingerprints(c, corpus.docs(), has);
            double secs = (System.nanoTime() - start) / 1e9;
            Curve cv = evaluate(h, has, truth, corpus.docs(), c.v1() ? V1_DEFAULT_K : v2DefaultK(corpus)).withSeconds(secs);
            curves.put(c.name(), cv);
            int k = c.v1() ? V1_DEFAULT_K : v2DefaultK(corpus);
            int bk = cv.bestK();
            log.info(String.format(Locale.ROOT, "  %-26s k=%d P %.3f R %.3f F1 %.3f | best k=%d P %.3f R %.3f F1 %.3f | chance %.1e | skew %.3f",
                c.name(), k, cv.precision(k), cv.recall(k), cv.f1(k), bk, cv.precision(bk), cv.recall(bk), cv.f1(bk), cv.chanceRate(k),
                cv.meanBitSkew()));
        }
        MinHashResult mh = minHash(truth);
        int dt = Arrays.binarySearch(MINHASH_T, MINHASH_DEFAULT_T);
        log.info(String.format(Locale.ROOT, "  %-26s t=0.8 P %.3f R %.3f F1 %.3f | best F1 %.3f", "MinHash 128", mh.precision()[dt],
            mh.recall()[dt], mh.f1()[dt], Arrays.stream(mh.f1()).max().orElse(0)));
        Verified.Result vr = variants.isEmpty() ? null : Verified.run(corpus, truth, variants, log);
        Map<String, EditView> ev = withEdits ? edits(corpus, cands, 20261123L) : Map.of();
        WorstGap.CorpusGaps gaps = designs.isEmpty() || truths.isEmpty() ? null
            : WorstGap.run(corpus, truth, truths, designs, zhLatinWords, log);
        return new CorpusResult(corpus, truth, curves, ev, mh, vr, gaps, log.seconds() - t0);
    }

    public static void main(String[] args) throws IOException {
        List<String> names = NaturalCorpora.ALL;
        int maxDocs = 60_000;
        boolean edits = true;
        boolean sketchWidth = false;
        boolean zhLatinWords = false;
        List<Verified.Variant> variants = Verified.grid();
        List<Truth.Spec> truths = Truth.SPECS;
        List<WorstGap.Design> designs = WorstGap.DESIGNS;
        Path out = null;
        List<String> only = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--corpora" -> names = List.of(args[++i].split(","));
                case "--candidates" -> only = List.of(args[++i].split(","));
                case "--max-docs" -> maxDocs = Integer.parseInt(args[++i]);
                case "--no-edits" -> edits = false;
                case "--sketch-width" -> sketchWidth = true;
                case "--zh-truth-latin-words" -> zhLatinWords = true;
                case "--truths" -> truths = Arrays.stream(args[++i].split(",")).map(Truth::spec).toList();
                case "--designs" -> {
                    String d = args[++i];
                    designs = d.equals("none") ? List.of() : Arrays.stream(d.split(",")).map(WorstGap::design).toList();
                }
                case "--verified" -> variants = switch (args[++i]) {
                    case "grid" -> Verified.grid();
                    case "released" -> Verified.released();
                    case "off" -> List.of();
                    default -> throw new IllegalArgumentException("[--verified] must be grid, released or off, got [" + args[i] + "]");
                };
                case "--out" -> out = Path.of(args[++i]);
                case "-h", "--help" -> {
                    System.out.println("usage: ./run bench-quality [--corpora " + String.join(",", NaturalCorpora.ALL)
                        + "] [--candidates NAME,...|none] [--max-docs N] [--no-edits] [--verified grid|released|off] [--zh-truth-latin-words] "
                        + "[--truths NAME,...] [--designs NAME,...|none] [--out DIR] [--sketch-width]");
                    System.out.println("  --truths: the truths of the worst-gap table (default all: "
                        + String.join(",", Truth.SPECS.stream().map(Truth.Spec::name).toList()) + ")");
                    System.out.println("  --designs: the sketch designs of the worst-gap table, each scored on all pairs at 512x1 (default all: "
                        + String.join(",", WorstGap.DESIGNS.stream().map(WorstGap.Design::name).toList()) + "; none: no table)");
                    System.out.println("  --zh-truth-latin-words: the Chinese corpora's truth takes a run of non-Han letters/digits as one unit (a word), "
                        + "not one unit per letter");
                    System.out.println("  --verified: the verified mode (v2 candidates within CandidateRadius, minhash sketch >= s) for the grid of "
                        + "sketch variants at 64 bytes (default), the released parameters only, or not at all");
                    System.out.println("  --sketch-width: instead of the candidates, other sketches of the same texts: v2 in 128 bits, SimHash of "
                        + "the truth's shingles, 1-bit MinHash in 64 bits (sketch-width.md)");
                    return;
                }
                default -> throw new IllegalArgumentException("unknown option [" + args[i] + "], see ./run bench-quality --help");
            }
        }
        List<String> onlyF = only;
        List<Candidate> cands = onlyF == null ? CANDIDATES : CANDIDATES.stream().filter(c -> onlyF.contains(c.name())).toList();
        Path dir = out != null ? out : Path.of("bench/results", LocalDate.now(ZoneOffset.UTC) + "-natural");
        Files.createDirectories(dir);
        Log log = new Log();
        String started = ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ISO_OFFSET_DATE_TIME);
        Path work = Path.of("target/bench/corpora").toAbsolutePath();
        Files.createDirectories(work);
        if (sketchWidth) {
            SketchWidth.report(names, work, maxDocs, dir.resolve("sketch-width.md"), "./run bench-quality " + String.join(" ", args), started, log);
            return;
        }
        NaturalQuality q = new NaturalQuality(log, zhLatinWords, truths, designs);
        List<CorpusResult> results = new ArrayList<>();
        List<NaturalCorpora.Corpus> missing = new ArrayList<>();
        for (String name : names) {
            log.info("== " + name + " ==");
            NaturalCorpora.Corpus c = NaturalCorpora.load(name, work, maxDocs, log);
            if (!c.available()) {
                missing.add(c);
                continue;
            }
            results.add(q.run(c, cands, edits && !c.shortTexts(), variants));
            // written after every corpus so that a partial run still leaves a report
            String cmd = "./run bench-quality" + (args.length == 0 ? "" : " " + String.join(" ", args));
            Files.writeString(dir.resolve("report.md"), NaturalReport.markdown(results, missing, cands, cmd, started, Machine.read()));
        }
        List<WorstGap.CorpusGaps> gaps = results.stream().map(CorpusResult::gaps).filter(g -> g != null).toList();
        if (!gaps.isEmpty()) {
            System.out.println();
            System.out.println("Worst gap to MinHash 128 per design (all corpora x truths):");
            System.out.println(WorstGap.worstTable(gaps));
        }
        log.info("report: " + dir.resolve("report.md"));
    }
}
