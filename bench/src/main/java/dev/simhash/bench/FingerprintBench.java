package dev.simhash.bench;

import com.dynatrace.hash4j.similarity.ElementHashProvider;
import com.dynatrace.hash4j.similarity.SimilarityHasher;
import com.dynatrace.hash4j.similarity.SimilarityHashing;

import dev.simhash.core.AnalyzerTokens;
import dev.simhash.core.AsciiWordTokenizer;
import dev.simhash.core.CharFolding;
import dev.simhash.core.FastWordTokenizer;
import dev.simhash.core.FeatureAnalyzer;
import dev.simhash.core.FeatureBag;
import dev.simhash.core.FingerprintOptions;
import dev.simhash.core.SimHash;
import dev.simhash.core.SimHashAccumulator;
import dev.simhash.core.TextFingerprinter;
import dev.simhash.core.Weighting;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.standard.StandardTokenizer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Fingerprinting throughput on one core (one thread): our core against hash4j's SimHash on the
 * same pre-tokenized features, and beside it the cost of the tokenizers. Every case runs over the
 * whole input once per pass; passes of all cases are interleaved and the median pass counts.
 */
public final class FingerprintBench {

    /** One measured case: what it takes as input, throughput of the median pass. */
    public record Result(String corpus, String name, String input, double mbPerSec, double docsPerSec, double nsPerFeature, int passes,
        double bytesPerDoc) {}

    private final Log log;
    private final double secondsPerPass;
    private final int passes;
    public final List<Result> results = new ArrayList<>();
    /** XOR of everything computed, printed so nothing can be optimized away. */
    public long sink;

    public FingerprintBench(Log log, double secondsPerPass, int passes) {
        this.log = log;
        this.secondsPerPass = secondsPerPass;
        this.passes = passes;
    }

    static List<String> tokens(Analyzer analyzer, String text) {
        List<String> out = new ArrayList<>();
        AnalyzerTokens.forEach(analyzer, text, out::add);
        return out;
    }

    /** Measures all cases on one corpus (documents cut to those with at least one feature). */
    public void run(Corpora.Corpus corpus) {
        List<String> docs = new ArrayList<>();
        List<String[]> tokens = new ArrayList<>();
        Analyzer def = FeatureAnalyzer.DEFAULT.analyzer();
        for (String d : corpus.docs()) {
            List<String> t = tokens(def, d);
            if (!t.isEmpty()) {
                docs.add(d);
                tokens.add(t.toArray(String[]::new));
            }
        }
        long textBytes = 0;
        long featureBytes = 0;
        long features = 0;
        for (int i = 0; i < docs.size(); i++) {
            textBytes += docs.get(i).getBytes(StandardCharsets.UTF_8).length;
            for (String t : tokens.get(i)) {
                featureBytes += t.getBytes(StandardCharsets.UTF_8).length;
            }
            features += tokens.get(i).length;
        }
        long[][] hashes = new long[docs.size()][];
        for (int i = 0; i < docs.size(); i++) {
            String[] t = tokens.get(i);
            hashes[i] = new long[t.length];
            for (int j = 0; j < t.length; j++) {
                hashes[i][j] = SimHash.featureHash(t[j]);
            }
        }
        // the distinct features of each document with their term frequencies, in order of first occurrence, as
        // FeatureBag feeds them to the accumulator (weights precomputed: the accumulation alone is timed); binary (1.0 each)
        // is simhash-v2's
        long[][] distinctHashes = new long[docs.size()][];
        double[][] binaryWeights = new double[docs.size()][];
        double[][] tfWeights = new double[docs.size()][];
        double[][] logTfWeights = new double[docs.size()][];
        // log_tf times an IDF-like factor (from the feature hash, nearly all distinct): the double sums, as for log_tf
        double[][] tfIdfWeights = new double[docs.size()][];
        long distinct = 0;
        for (int i = 0; i < docs.size(); i++) {
            Map<String, Integer> tf = new LinkedHashMap<>();
            for (String t : tokens.get(i)) {
                tf.merge(t, 1, Integer::sum);
            }
            distinctHashes[i] = new long[tf.size()];
            binaryWeights[i] = new double[tf.size()];
            Arrays.fill(binaryWeights[i], 1.0);
            tfWeights[i] = new double[tf.size()];
            logTfWeights[i] = new double[tf.size()];
            tfIdfWeights[i] = new double[tf.size()];
            int j = 0;
            for (Map.Entry<String, Integer> e : tf.entrySet()) {
                distinctHashes[i][j] = SimHash.featureHash(e.getKey());
                tfWeights[i][j] = Weighting.TF.weight(e.getValue());
                logTfWeights[i][j] = Weighting.LOG_TF.weight(e.getValue());
                tfIdfWeights[i][j] = logTfWeights[i][j] * (1 + (distinctHashes[i][j] >>> 44) / 65536.0);
                j++;
            }
            distinct += tf.size();
        }
        log.info(String.format(Locale.ROOT, "fingerprinting throughput on %s: %,d docs, %,d features (%,d distinct per document; %.1f MB of features, %.1f MB of text)",
            corpus.name(), docs.size(), features, distinct, featureBytes / 1e6, textBytes / 1e6));

        SimilarityHasher h4jSim = SimilarityHashing.simHash(64).createHasher();
        SimilarityHasher h4jFast = SimilarityHashing.fastSimHash(64).createHasher();
        FeatureBag bag = new FeatureBag(FingerprintOptions.DEFAULTS);
        SimHashAccumulator acc = new SimHashAccumulator();
        Analyzer std = FeatureAnalyzer.STANDARD.analyzer();
        TextFingerprinter fpDefault = new TextFingerprinter(FeatureAnalyzer.DEFAULT, FingerprintOptions.DEFAULTS);

        Map<String, InterleavedPasses.Case> cases = new LinkedHashMap<>();
        Map<String, String> inputs = new LinkedHashMap<>();
        // ns per feature divides by the tokens, except for cases over distinct features (one add per distinct feature)
        Map<String, Long> perFeature = new LinkedHashMap<>();
        // features (token strings) -> fingerprint: feature hash + tf + accumulate
        inputs.put("ours: FeatureBag (tf, XXH3, accumulate)", "features");
        cases.put("ours: FeatureBag (tf, XXH3, accumulate)", () -> {
            long x = 0;
            for (String[] t : tokens) {
                bag.reset();
                for (String s : t) {
                    bag.addToken(s);
                }
                x ^= bag.fingerprint().orElse(0);
            }
            return x;
        });
        inputs.put("hash4j simHash(64) (XXH3 per token)", "features");
        cases.put("hash4j simHash(64) (XXH3 per token)", () -> {
            long x = 0;
            for (String[] t : tokens) {
                long[] hs = new long[t.length];
                for (int j = 0; j < t.length; j++) {
                    hs[j] = SimHash.featureHash(t[j]);
                }
                x ^= firstLong(h4jSim.compute(ElementHashProvider.ofValues(hs)));
            }
            return x;
        });
        inputs.put("hash4j fastSimHash(64) (XXH3 per token)", "features");
        cases.put("hash4j fastSimHash(64) (XXH3 per token)", () -> {
            long x = 0;
            for (String[] t : tokens) {
                long[] hs = new long[t.length];
                for (int j = 0; j < t.length; j++) {
                    hs[j] = SimHash.featureHash(t[j]);
                }
                x ^= firstLong(h4jFast.compute(ElementHashProvider.ofValues(hs)));
            }
            return x;
        });
        // pre-hashed features -> fingerprint: the accumulation step alone
        inputs.put("ours: SimHashAccumulator (pre-hashed)", "feature hashes");
        cases.put("ours: SimHashAccumulator (pre-hashed)", () -> {
            long x = 0;
            for (long[] hs : hashes) {
                acc.reset();
                for (long h : hs) {
                    acc.add(h, 1.0);
                }
                x ^= acc.fingerprint();
            }
            return x;
        });
        inputs.put("hash4j simHash(64) (pre-hashed)", "feature hashes");
        cases.put("hash4j simHash(64) (pre-hashed)", () -> {
            long x = 0;
            for (long[] hs : hashes) {
                x ^= firstLong(h4jSim.compute(ElementHashProvider.ofValues(hs)));
            }
            return x;
        });
        inputs.put("hash4j fastSimHash(64) (pre-hashed)", "feature hashes");
        cases.put("hash4j fastSimHash(64) (pre-hashed)", () -> {
            long x = 0;
            for (long[] hs : hashes) {
                x ^= firstLong(h4jFast.compute(ElementHashProvider.ofValues(hs)));
            }
            return x;
        });
        // pre-hashed distinct features with binary (v2) / tf / log_tf weights: the accumulation as FeatureBag drives it, plain
        // double sums (64 doubles, one addition per bit per feature) beside the current accumulator
        DoubleSumAccumulator before = new DoubleSumAccumulator();
        String[] weighting = {"binary (v2)", "tf", "log_tf", "log_tf*idf-like"};
        double[][][] weightsOf = {binaryWeights, tfWeights, logTfWeights, tfIdfWeights};
        for (int k = 0; k < weighting.length; k++) {
            double[][] ws = weightsOf[k];
            addWeighted(cases, inputs, perFeature, distinct, "ours: SimHashAccumulator, " + weighting[k] + " (pre-hashed distinct)",
                () -> accumulate(acc, distinctHashes, ws));
            addWeighted(cases, inputs, perFeature, distinct, "plain double sums, " + weighting[k] + " (pre-hashed distinct)",
                () -> accumulate(before, distinctHashes, ws));
        }
        inputs.put("hash4j simHash(64) (pre-hashed distinct, unweighted)", "feature hashes");
        perFeature.put("hash4j simHash(64) (pre-hashed distinct, unweighted)", distinct);
        cases.put("hash4j simHash(64) (pre-hashed distinct, unweighted)", () -> {
            long x = 0;
            for (long[] hs : distinctHashes) {
                x ^= firstLong(h4jSim.compute(ElementHashProvider.ofValues(hs)));
            }
            return x;
        });
        inputs.put("hash4j fastSimHash(64) (pre-hashed distinct, unweighted)", "feature hashes");
        perFeature.put("hash4j fastSimHash(64) (pre-hashed distinct, unweighted)", distinct);
        cases.put("hash4j fastSimHash(64) (pre-hashed distinct, unweighted)", () -> {
            long x = 0;
            for (long[] hs : distinctHashes) {
                x ^= firstLong(h4jFast.compute(ElementHashProvider.ofValues(hs)));
            }
            return x;
        });
        // text -> tokens: the tokenizers, and text -> fingerprint end to end
        inputs.put("tokenizer: standard + lowercase", "text");
        cases.put("tokenizer: standard + lowercase", () -> consume(std, docs));
        inputs.put("tokenizer: smartcn + lowercase + stop (default)", "text");
        cases.put("tokenizer: smartcn + lowercase + stop (default)", () -> consume(def, docs));
        // simhash-v2 (the field type's default): folding, then Unicode words / Han characters, unigrams + bigrams, binary weights
        TextFingerprinter fpV2 = TextFingerprinter.v2(1);
        inputs.put("v2 step 1: CharFolding (NFKC, lowercase, fold)", "text");
        cases.put("v2 step 1: CharFolding (NFKC, lowercase, fold)", () -> {
            long x = 0;
            for (String d : docs) {
                x += CharFolding.fold(d).length();
            }
            return x;
        });
        // step 2: the fast tokenizer on the folded text (exactly StandardTokenizer's tokens) against StandardTokenizer itself
        List<char[]> folded = new ArrayList<>();
        int accepted = 0;
        CharFolding.Buffer fb = new CharFolding.Buffer();
        for (String d : docs) {
            CharFolding.fold(d, fb);
            char[] f = java.util.Arrays.copyOf(fb.chars(), fb.length());
            folded.add(f);
            if (FastWordTokenizer.tokenize(f, f.length, (b, st, l) -> { })) {
                accepted++;
            }
        }
        log.info(String.format(Locale.ROOT, "  FastWordTokenizer reads %d of %d folded documents (%.1f%%); StandardTokenizer the rest",
            accepted, docs.size(), 100.0 * accepted / docs.size()));
        Analyzer standardOnly = new Analyzer() {
            @Override
            protected TokenStreamComponents createComponents(String fieldName) {
                return new TokenStreamComponents(new StandardTokenizer());
            }
        };
        inputs.put("v2 step 2: StandardTokenizer (folded text)", "text");
        cases.put("v2 step 2: StandardTokenizer (folded text)", () -> {
            long[] x = new long[1];
            for (char[] f : folded) {
                AnalyzerTokens.forEachTerm(standardOnly, new String(f), (b, st, l) -> x[0] += l);
            }
            return x[0];
        });
        inputs.put("v2 step 2: FastWordTokenizer (folded text)", "text");
        cases.put("v2 step 2: FastWordTokenizer (folded text)", () -> {
            long[] x = new long[1];
            for (char[] f : folded) {
                if (!FastWordTokenizer.tokenize(f, f.length, (b, st, l) -> x[0] += l)) {
                    AnalyzerTokens.forEachTerm(standardOnly, new String(f), (b, st, l) -> x[0] += l);
                }
            }
            return x[0];
        });
        // the path of texts that are ASCII once folded (most English): bytes, tokenized 64 at a time
        List<byte[]> asciiFolded = new ArrayList<>();
        for (char[] f : folded) {
            byte[] b = new byte[f.length];
            int any = 0;
            for (int i = 0; i < f.length; i++) {
                any |= f[i];
                b[i] = (byte) f[i];
            }
            asciiFolded.add(any < 0x80 ? b : null);
        }
        inputs.put("v2 step 2: FastWordTokenizer, ASCII as bytes (folded text)", "text");
        cases.put("v2 step 2: FastWordTokenizer, ASCII as bytes (folded text)", () -> {
            long[] x = new long[1];
            for (int i = 0; i < folded.size(); i++) {
                byte[] b = asciiFolded.get(i);
                char[] f = folded.get(i);
                if (b != null) {
                    AsciiWordTokenizer.tokenizeAscii(b, b.length, (st, l) -> x[0] += l);
                } else if (!FastWordTokenizer.tokenize(f, f.length, (c, st, l) -> x[0] += l)) {
                    AnalyzerTokens.forEachTerm(standardOnly, new String(f), (c, st, l) -> x[0] += l);
                }
            }
            return x[0];
        });
        inputs.put("end to end: TextFingerprinter v2", "text");
        cases.put("end to end: TextFingerprinter v2", () -> {
            long x = 0;
            for (String d : docs) {
                x ^= fpV2.fingerprint(d).orElse(0);
            }
            return x;
        });
        inputs.put("end to end: TextFingerprinter (default)", "text");
        cases.put("end to end: TextFingerprinter (default)", () -> {
            long x = 0;
            for (String d : docs) {
                x ^= fpDefault.fingerprint(d).orElse(0);
            }
            return x;
        });

        InterleavedPasses timer = new InterleavedPasses(log, secondsPerPass, passes);
        Map<String, InterleavedPasses.Timing> timings = timer.run(cases);
        sink ^= timer.sink;
        for (String name : cases.keySet()) {
            double s = timings.get(name).seconds();
            String input = inputs.get(name);
            long bytes = input.equals("text") ? textBytes : featureBytes;
            double bytesPerDoc = timings.get(name).bytesPerPass() / docs.size();
            Result r = new Result(corpus.name(), name, input, bytes / 1e6 / s, docs.size() / s, s * 1e9 / perFeature.getOrDefault(name, features), passes,
                bytesPerDoc);
            results.add(r);
            log.info(String.format(Locale.ROOT, "  %-56s %8.1f MB/s %10.0f docs/s %7.1f ns/feature %9.0f B/doc allocated", name, r.mbPerSec(), r.docsPerSec(),
                r.nsPerFeature(), r.bytesPerDoc()));
        }
    }

    private static void addWeighted(Map<String, InterleavedPasses.Case> cases, Map<String, String> inputs, Map<String, Long> perFeature, long distinct, String name,
        InterleavedPasses.Case pass) {
        inputs.put(name, "feature hashes");
        perFeature.put(name, distinct);
        cases.put(name, pass);
    }

    // One loop per accumulator class, each calling it directly as FeatureBag does (ours in its bulk form): a loop shared
    // through functional interfaces would time an interface call per add (the call site sees several classes) as well.

    private static long accumulate(SimHashAccumulator acc, long[][] hashes, double[][] weights) {
        long x = 0;
        for (int d = 0; d < hashes.length; d++) {
            // the bulk form, as FeatureBag calls it with its features' hashes and weights
            x ^= acc.fingerprint(hashes[d], weights[d], hashes[d].length);
        }
        return x;
    }

    private static long accumulate(DoubleSumAccumulator acc, long[][] hashes, double[][] weights) {
        long x = 0;
        for (int d = 0; d < hashes.length; d++) {
            long[] hs = hashes[d];
            double[] ws = weights[d];
            acc.reset();
            for (int j = 0; j < hs.length; j++) {
                acc.add(hs[j], ws[j]);
            }
            x ^= acc.fingerprint();
        }
        return x;
    }

    /** Bytes allocated by this thread so far (HotSpot's per-thread counter), -1 where unsupported. */
    static long allocatedBytes() {
        if (ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean t) {
            return t.getCurrentThreadAllocatedBytes();
        }
        return -1;
    }

    private static long consume(Analyzer analyzer, List<String> docs) {
        long x = 0;
        for (String d : docs) {
            try (TokenStream ts = analyzer.tokenStream("f", d)) {
                CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
                ts.reset();
                while (ts.incrementToken()) {
                    x += term.length();
                }
                ts.end();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return x;
    }

    private static long firstLong(byte[] b) {
        long x = 0;
        for (int i = 0; i < 8 && i < b.length; i++) {
            x |= (b[i] & 0xFFL) << (8 * i);
        }
        return x;
    }
}
