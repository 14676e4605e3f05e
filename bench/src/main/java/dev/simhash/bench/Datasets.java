package dev.simhash.bench;

import dev.simhash.core.FeatureAnalyzer;
import dev.simhash.core.FingerprintOptions;
import dev.simhash.core.TextFingerprinter;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Random;
import java.util.Set;
import java.util.stream.IntStream;

/** The fingerprint sets the latency benchmark searches, and their queries. */
public final class Datasets {

    /** Fingerprints to index and queries (warm-up first). */
    public record Data(String name, String description, long[] fingerprints, long[] queries) {}

    /** Fraction of cluster starts among the synthetic documents. */
    static final double CLUSTER_START = 0.10;

    private Datasets() {}

    static long flip(Random r, long h, int bits) {
        long mask = 0;
        while (Long.bitCount(mask) < bits) {
            mask |= 1L << r.nextInt(64);
        }
        return h ^ mask;
    }

    /**
     * n fingerprints: uniform random ones, and planted clusters (a random centre and 1..9 copies of it
     * with 1..12 bits flipped), about 40% of the documents in clusters; shuffled. Queries: a random
     * indexed fingerprint with 0..3 bits flipped, so every query has at least one match at radius 3.
     */
    public static Data synthetic(int n, int queries, long seed) {
        Random r = new Random(seed);
        long[] fps = new long[n];
        int i = 0;
        while (i < n) {
            long centre = r.nextLong();
            fps[i++] = centre;
            if (r.nextDouble() < CLUSTER_START) {
                int size = 1 + r.nextInt(9);
                for (int c = 0; c < size && i < n; c++) {
                    fps[i++] = flip(r, centre, 1 + r.nextInt(12));
                }
            }
        }
        for (int k = n - 1; k > 0; k--) {
            int j = r.nextInt(k + 1);
            long t = fps[k];
            fps[k] = fps[j];
            fps[j] = t;
        }
        long[] qs = new long[queries];
        for (int q = 0; q < queries; q++) {
            qs[q] = flip(r, fps[r.nextInt(n)], r.nextInt(4));
        }
        return new Data("synthetic", "uniform random fingerprints plus planted near-duplicate clusters", fps, qs);
    }

    /**
     * Fingerprints of real text (default processor settings): every document and every line/paragraph
     * of the corpora, filled up to n with edited copies (2..20% of words) of random ones. Queries: edited
     * copies (0..5%) of random texts of the set.
     */
    public static Data realText(List<Corpora.Corpus> corpora, int n, int queries, long seed, Log log) {
        Set<String> texts = new LinkedHashSet<>();
        for (Corpora.Corpus c : corpora) {
            int minChars = c.name().equals("zh") ? 30 : 80;
            for (String d : c.docs()) {
                texts.add(d);
                for (String line : d.split("\n+")) {
                    String t = line.strip();
                    if (t.length() >= minChars) {
                        texts.add(t);
                    }
                }
            }
        }
        List<String> base = new ArrayList<>(texts);
        java.util.Collections.shuffle(base, new Random(seed));
        Perturb perturb = new Perturb(FeatureAnalyzer.DEFAULT.analyzer());
        Random vr = new Random(seed);
        List<String> vocabulary = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            List<String> u = perturb.units(base.get(vr.nextInt(base.size())));
            vocabulary.add(u.get(vr.nextInt(u.size())));
        }
        log.info(String.format(java.util.Locale.ROOT, "real-text fingerprints: %,d distinct documents and lines, filling to %,d with edited copies ...",
            base.size(), n));
        List<String> all = new ArrayList<>(base.subList(0, Math.min(n, base.size())));
        int fill = n - all.size();
        String[] extra = new String[Math.max(0, fill)];
        double[] rates = { 0.02, 0.05, 0.10, 0.20 };
        IntStream.range(0, extra.length).parallel().forEach(i -> {
            Random r = new Random(seed * 17 + i);
            extra[i] = perturb.perturb(base.get(r.nextInt(base.size())), rates[r.nextInt(rates.length)], vocabulary, r);
        });
        all.addAll(List.of(extra));
        TextFingerprinter fp = new TextFingerprinter(FeatureAnalyzer.DEFAULT, FingerprintOptions.DEFAULTS);
        long[] h = new long[all.size()];
        boolean[] has = new boolean[all.size()];
        IntStream.range(0, all.size()).parallel().forEach(i -> {
            OptionalLong f = fp.fingerprint(all.get(i));
            has[i] = f.isPresent();
            h[i] = f.orElse(0);
        });
        long[] fps = IntStream.range(0, h.length).filter(i -> has[i]).mapToLong(i -> h[i]).toArray();
        Random qr = new Random(seed + 1);
        long[] qs = new long[queries];
        double[] qRates = { 0, 0.01, 0.02, 0.05 };
        IntStream.range(0, queries).forEach(q -> {
            OptionalLong f = OptionalLong.empty();
            while (f.isEmpty()) {
                String src = all.get(qr.nextInt(all.size()));
                f = fp.fingerprint(perturb.perturb(src, qRates[qr.nextInt(qRates.length)], vocabulary, qr));
            }
            qs[q] = f.getAsLong();
        });
        return new Data("real-text", "fingerprints of real English and Chinese text (documents, lines, edited copies)", fps, qs);
    }
}
