package dev.simhash.bench;

import dev.simhash.core.AnalyzerTokens;
import dev.simhash.core.FeatureAnalyzer;
import dev.simhash.core.FingerprintOptions;
import dev.simhash.core.SimHash;
import dev.simhash.core.SimHashAccumulator;
import dev.simhash.core.SimHashV2;
import dev.simhash.core.TextFingerprinter;
import dev.simhash.core.Weighting;

import org.apache.lucene.analysis.Analyzer;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * What the accumulation step costs on each user path (v1 default, v1 log_tf, v1 with a feature-weight table, v2 default):
 * the text fingerprinted end to end, and beside it, on the same documents' features and weights, the core's
 * {@link SimHashAccumulator} and a plain accumulator (64 double sums, {@code +w}/{@code -w} in feature order, the
 * contract's sums by construction). The end-to-end time with the plain accumulator is estimated as end to end minus ours
 * plus plain; passes of all cases are interleaved and the median pass counts.
 */
public final class AccumulatorBench {

    /** One user path: its fingerprinter and, per document, the features' hashes and weights in the order the bag adds them. */
    private record Path(String name, TextFingerprinter fingerprinter, long[][] hashes, double[][] weights) {}

    /** A feature-weight table stand-in: an IDF-like factor in [1, 5) from the feature's string hash, nearly all distinct. */
    static final ToDoubleFunction<String> IDF_LIKE = s -> 1 + ((s.hashCode() * 0x9E3779B9) >>> 8) / (double) (1 << 24) * 4;

    private final Log log;
    private final double secondsPerPass;
    private final int passes;
    private final int maxDocs;
    /** The header of the result table (markdown); a separator row follows it in the report. */
    static final String HEADER = "| corpus | path | end to end µs/doc | SimHashAccumulator µs/doc | plain double sums µs/doc "
        + "| plain / ours (accumulation) | end to end with plain / ours |";
    /** Markdown rows of the results, for the report. */
    public final List<String> lines = new ArrayList<>();
    /** XOR of everything computed, printed so nothing can be optimized away. */
    public long sink;

    public AccumulatorBench(Log log, double secondsPerPass, int passes, int maxDocs) {
        this.log = log;
        this.secondsPerPass = secondsPerPass;
        this.passes = passes;
        this.maxDocs = maxDocs;
    }

    /** Measures the four paths on one corpus. */
    public void run(Corpora.Corpus corpus) {
        List<String> docs = corpus.docs().subList(0, Math.min(maxDocs, corpus.docs().size()));
        Analyzer def = FeatureAnalyzer.DEFAULT.analyzer();
        List<Map<String, Integer>> v1 = new ArrayList<>();
        List<Map<String, Integer>> v2 = new ArrayList<>();
        for (String d : docs) {
            Map<String, Integer> tf = new LinkedHashMap<>();
            AnalyzerTokens.forEach(def, d, t -> tf.merge(t, 1, Integer::sum));
            v1.add(tf);
            v2.add(SimHashV2.features(List.of(d)));
        }
        FingerprintOptions logTf = new FingerprintOptions(FingerprintOptions.DEFAULT_SHINGLE_SIZE, Weighting.LOG_TF,
            FingerprintOptions.DEFAULT_MIN_FEATURES);
        TextFingerprinter v1Default = new TextFingerprinter(FeatureAnalyzer.DEFAULT, FingerprintOptions.DEFAULTS);
        List<Path> paths = List.of(
            path("v1 default (tf)", v1Default, v1, Weighting.TF, null),
            path("v1 log_tf", new TextFingerprinter(FeatureAnalyzer.DEFAULT, logTf), v1, Weighting.LOG_TF, null),
            path("v1 weights table (tf x idf-like)", v1Default.withFactors(() -> IDF_LIKE), v1, Weighting.TF, IDF_LIKE),
            path("v2 default (binary)", TextFingerprinter.v2(1), v2, Weighting.BINARY, null));

        SimHashAccumulator ours = new SimHashAccumulator();
        DoubleSumAccumulator plain = new DoubleSumAccumulator();
        Map<String, InterleavedPasses.Case> cases = new LinkedHashMap<>();
        for (Path p : paths) {
            long mismatches = 0;
            for (int d = 0; d < p.hashes().length; d++) {
                if (p.hashes()[d].length > 0 && accumulate(ours, p.hashes()[d], p.weights()[d]) != accumulate(plain, p.hashes()[d], p.weights()[d])) {
                    mismatches++;
                }
            }
            if (mismatches > 0) {
                log.warn(p.name() + ": the plain accumulator differs from ours on " + mismatches + " documents");
            }
            cases.put(p.name() + " | end to end", () -> {
                long x = 0;
                for (String d : docs) {
                    x ^= p.fingerprinter().fingerprint(d).orElse(0);
                }
                return x;
            });
            cases.put(p.name() + " | SimHashAccumulator", () -> accumulateAll(p, (hs, ws) -> accumulate(ours, hs, ws)));
            cases.put(p.name() + " | plain double sums", () -> accumulateAll(p, (hs, ws) -> accumulate(plain, hs, ws)));
        }
        InterleavedPasses timer = new InterleavedPasses(log, secondsPerPass, passes);
        Map<String, Double> secs = new LinkedHashMap<>();
        timer.run(cases).forEach((name, t) -> secs.put(name, t.seconds()));
        sink ^= timer.sink;
        log.info(String.format(Locale.ROOT, "accumulation on %s (%,d documents), microseconds per document (median of %d passes):", corpus.name(),
            docs.size(), passes));
        log.info("  " + HEADER);
        for (Path p : paths) {
            double e2e = secs.get(p.name() + " | end to end") / docs.size() * 1e6;
            double acc = secs.get(p.name() + " | SimHashAccumulator") / docs.size() * 1e6;
            double pl = secs.get(p.name() + " | plain double sums") / docs.size() * 1e6;
            String line = String.format(Locale.ROOT, "| %s | %s | %.1f | %.2f | %.2f | %.2fx | %.3fx |", corpus.name(), p.name(), e2e, acc, pl, pl / acc,
                (e2e - acc + pl) / e2e);
            lines.add(line);
            log.info("  " + line);
        }
    }

    private static Path path(String name, TextFingerprinter fp, List<Map<String, Integer>> features, Weighting weighting,
                             ToDoubleFunction<String> factors) {
        long[][] hs = new long[features.size()][];
        double[][] ws = new double[features.size()][];
        for (int d = 0; d < features.size(); d++) {
            Map<String, Integer> f = features.get(d);
            List<Long> h = new ArrayList<>();
            List<Double> w = new ArrayList<>();
            for (Map.Entry<String, Integer> e : f.entrySet()) {
                double factor = factors == null ? 1 : factors.applyAsDouble(e.getKey());
                h.add(SimHash.featureHash(e.getKey()));
                w.add(weighting.weight(e.getValue()) * factor);
            }
            hs[d] = h.stream().mapToLong(Long::longValue).toArray();
            ws[d] = w.stream().mapToDouble(Double::doubleValue).toArray();
        }
        return new Path(name, fp, hs, ws);
    }

    /** One document's fingerprint from its features' hashes and weights. */
    private interface Accumulation {
        long of(long[] hashes, double[] weights);
    }

    /** All documents with features; one call through the interface per document, the adds inside called directly. */
    private static long accumulateAll(Path p, Accumulation acc) {
        long x = 0;
        for (int d = 0; d < p.hashes().length; d++) {
            if (p.hashes()[d].length > 0) {
                x ^= acc.of(p.hashes()[d], p.weights()[d]);
            }
        }
        return x;
    }

    // One method per accumulator class, each calling it directly as the bag does: through an interface the JIT would time
    // an interface call per add as well.

    private static long accumulate(SimHashAccumulator acc, long[] hs, double[] ws) {
        return acc.fingerprint(hs, ws, hs.length); // the bulk form, as the bag calls it
    }

    private static long accumulate(DoubleSumAccumulator acc, long[] hs, double[] ws) {
        acc.reset();
        for (int j = 0; j < hs.length; j++) {
            acc.add(hs[j], ws[j]);
        }
        return acc.fingerprint();
    }
}
