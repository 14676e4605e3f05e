package dev.simhash.bench;

import dev.simhash.core.MinHashSketch;
import dev.simhash.core.SimHashV2;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The shingle-size choice of the similarity sketch, judged by its worst cell: every corpus under several truths
 * ({@link Truth#SPECS}), each with one unit at every length. A sketch design (64 bytes, 512 bins x 1 bit, over
 * simhash-v2 tokens) reports a pair iff its sketches estimate a Jaccard similarity >= s, over <em>all</em> pairs (no
 * candidate radius, no bands). Per corpus x truth: F1 per threshold and the gap to MinHash 128 on that truth's own
 * shingles (its best F1 over thresholds); per design: the worst gap over all cells at s = 0.8 and at the best single
 * threshold shared by all cells.
 */
final class WorstGap {

    static final int BINS = 512;
    static final int BITS = 1;
    static final int LONGS = BINS * BITS / 64;
    static final double[] THRESHOLDS = Verified.THRESHOLDS;

    /** How a design turns a text into tokens before shingling. */
    enum Tokens {
        /** simhash-v2's tokens: folded text, Unicode words, one token per Han character. */
        V2,
        /** v2's tokens, but in a text with any Han character every other token is split into its characters. */
        V2_LETTERS_IN_HAN
    }

    /**
     * A sketch design: its tokens and shingle sizes; {@code w} = 0 is the length-adaptive 2/5 rule at
     * {@link Verified#ADAPTIVE_TOKENS} tokens, {@code alsoW} > 0 adds the shingles of that size to the same set.
     */
    record Design(String name, String description, Tokens tokens, int w, int alsoW) {}

    static final List<Design> DESIGNS = List.of(
        new Design("w1", "unigrams (single tokens)", Tokens.V2, 1, 0),
        new Design("w2", "2-token shingles", Tokens.V2, 2, 0),
        new Design("w3", "3-token shingles", Tokens.V2, 3, 0),
        new Design("w4", "4-token shingles", Tokens.V2, 4, 0),
        new Design("w5", "5-token shingles", Tokens.V2, 5, 0),
        new Design("w2/5@64", "2-token shingles below 64 tokens, 5 from 64 (minhash-v1 today)", Tokens.V2, 0, 0),
        new Design("w1+2", "unigrams and 2-token shingles in one set", Tokens.V2, 1, 2),
        new Design("w2 letters-in-Han", "2-token shingles; in a text with Han characters, Latin words split into letters", Tokens.V2_LETTERS_IN_HAN, 2, 0),
        new Design("w3 letters-in-Han", "3-token shingles; in a text with Han characters, Latin words split into letters", Tokens.V2_LETTERS_IN_HAN, 3, 0));

    static Design design(String name) {
        return DESIGNS.stream().filter(d -> d.name().equals(name)).findFirst()
            .orElseThrow(() -> new IllegalArgumentException("unknown design [" + name + "], expected some of "
                + DESIGNS.stream().map(Design::name).toList()));
    }

    /** One truth on one corpus: its pairs' counts, MinHash 128's F1 per threshold, and each design's counts per threshold. */
    record Cell(Truth.Spec spec, String sameAs, int nearPairs, int greyPairs, double[] minHashF1, List<Verified.Tally> tallies, double seconds) {
        double minHashBest() {
            return Arrays.stream(minHashF1).max().orElse(Double.NaN);
        }

        double minHashBestT() {
            int b = 0;
            for (int t = 1; t < minHashF1.length; t++) {
                if (minHashF1[t] > minHashF1[b]) {
                    b = t;
                }
            }
            return NaturalQuality.MINHASH_T[b];
        }

        double precision(int d, int t) {
            Verified.Tally x = tallies.get(d);
            return x.reported()[t] == 0 ? Double.NaN : x.near()[t] / (double) x.reported()[t];
        }

        double precisionNoGrey(int d, int t) {
            Verified.Tally x = tallies.get(d);
            long n = x.reported()[t] - x.grey()[t];
            return n == 0 ? Double.NaN : x.near()[t] / (double) n;
        }

        double recall(int d, int t) {
            return nearPairs == 0 ? Double.NaN : tallies.get(d).near()[t] / (double) nearPairs;
        }

        double f1(int d, int t) {
            double p = precision(d, t);
            double r = recall(d, t);
            return Double.isNaN(p) || Double.isNaN(r) || p + r == 0 ? 0 : 2 * p * r / (p + r);
        }

        /** MinHash 128's best F1 minus the design's F1 at threshold t (NaN when the truth has no near-duplicate pair). */
        double gap(int d, int t) {
            return nearPairs == 0 ? Double.NaN : minHashBest() - f1(d, t);
        }
    }

    /** Everything measured on one corpus. */
    record CorpusGaps(NaturalCorpora.Corpus corpus, List<Design> designs, List<Cell> cells, double sketchSeconds) {}

    private WorstGap() {}

    /** The tokens of one text under a design's tokenizer. */
    static List<String> tokens(Tokens mode, String text) {
        List<String> t = SimHashV2.tokens(text);
        if (mode == Tokens.V2) {
            return t;
        }
        boolean han = t.stream().anyMatch(WorstGap::isHan);
        if (!han) {
            return t;
        }
        List<String> out = new ArrayList<>(t.size() * 2);
        for (String x : t) {
            if (isHan(x)) {
                out.add(x);
            } else {
                x.codePoints().forEach(cp -> out.add(new String(Character.toChars(cp))));
            }
        }
        return out;
    }

    static boolean isHan(String token) {
        return !token.isEmpty() && Character.UnicodeScript.of(token.codePointAt(0)) == Character.UnicodeScript.HAN;
    }

    /** The shingle hashes of a design for one token sequence (the adaptive rule picks 2 or 5 by length). */
    static long[] shingles(Design d, List<String> tokens) {
        int w = d.w() != 0 ? d.w() : tokens.size() < Verified.ADAPTIVE_TOKENS ? 2 : 5;
        // the shingle hashes depend on the shingle size only, not on the bins
        long[] a = new MinHashSketch(w, BINS, BITS).shingleHashes(tokens);
        if (d.alsoW() == 0 || tokens.size() < 2) {
            return a;
        }
        long[] b = new MinHashSketch(d.alsoW(), BINS, BITS).shingleHashes(tokens);
        long[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    /**
     * All pairs whose sketches estimate J >= the lowest threshold, packed (i << 20 | j) << 10 | equal bins, sorted; every
     * pair of documents with a sketch is compared.
     */
    static long[] reportedPairs(Design d, List<String> docs, Map<Tokens, List<List<String>>> tokenCache) {
        List<List<String>> tokens = tokenCache.computeIfAbsent(d.tokens(), m -> docs.stream().map(t -> tokens(m, t)).toList());
        MinHashSketch sk = new MinHashSketch(Math.max(1, d.w()), BINS, BITS);
        int n = docs.size();
        int[] idx = new int[n];
        long[] flat = new long[n * LONGS];
        int m = 0;
        for (int i = 0; i < n; i++) {
            if (!tokens.get(i).isEmpty()) {
                long[] p = Verified.pack(sk.sketchOfShingles(shingles(d, tokens.get(i))));
                System.arraycopy(p, 0, flat, m * LONGS, LONGS);
                idx[m++] = i;
            }
        }
        int maxDiff = BINS - sk.equalBinsFor(THRESHOLDS[0]);
        long[] out = new long[1024];
        int count = 0;
        for (int x = 0; x < m; x++) {
            int ox = x * LONGS;
            for (int y = x + 1; y < m; y++) {
                int oy = y * LONGS;
                int diff = 0;
                for (int k = 0; k < LONGS && diff <= maxDiff; k++) {
                    diff += Long.bitCount(flat[ox + k] ^ flat[oy + k]);
                }
                if (diff <= maxDiff) {
                    if (count == out.length) {
                        out = Arrays.copyOf(out, count * 2);
                    }
                    out[count++] = (((long) idx[x] << 20) | idx[y]) << 10 | (BINS - diff);
                }
            }
        }
        return Arrays.copyOf(out, count);
    }

    /** Counts per threshold of a design's reported pairs against a truth (a merge of two lists sorted by pair). */
    static Verified.Tally tally(long[] reported, Truth truth, int[] minEqual) {
        int n = minEqual.length;
        long[] rep = new long[n];
        long[] near = new long[n];
        long[] grey = new long[n];
        long[] tp = truth.pairs;
        int q = 0;
        for (long r : reported) {
            long key = r >>> 10;
            int equal = (int) (r & 0x3FF);
            while (q < tp.length && (tp[q] >>> 23) < key) {
                q++;
            }
            double j = q < tp.length && (tp[q] >>> 23) == key ? Truth.jaccardOf(tp[q]) : 0;
            for (int t = 0; t < n; t++) {
                if (equal >= minEqual[t]) {
                    rep[t]++;
                    if (j >= Truth.NEAR) {
                        near[t]++;
                    } else if (j >= Truth.MIN_STORED) {
                        grey[t]++;
                    }
                }
            }
        }
        return new Verified.Tally(rep, near, grey);
    }

    /**
     * Scores every design under every truth on one corpus; {@code adaptiveTruth}: the truth today's run already computed
     * (reused for {@link Truth#ADAPTIVE}).
     */
    static CorpusGaps run(NaturalCorpora.Corpus corpus, Truth adaptiveTruth, List<Truth.Spec> specs, List<Design> designs,
                          boolean zhLatinWords, Log log) {
        long start = System.nanoTime();
        Map<Tokens, List<List<String>>> tokenCache = new HashMap<>();
        List<long[]> reported = new ArrayList<>();
        int[] minEqual = new int[THRESHOLDS.length];
        MinHashSketch any = new MinHashSketch(1, BINS, BITS);
        for (int t = 0; t < THRESHOLDS.length; t++) {
            minEqual[t] = any.equalBinsFor(THRESHOLDS[t]);
        }
        for (Design d : designs) {
            long s0 = System.nanoTime();
            reported.add(reportedPairs(d, corpus.docs(), tokenCache));
            log.info(String.format(Locale.ROOT, "  gap: %-18s %,d pairs estimated >= %.2f (all pairs, %.1f s)", d.name(),
                reported.get(reported.size() - 1).length, THRESHOLDS[0], (System.nanoTime() - s0) / 1e9));
        }
        tokenCache.clear();
        double sketchSeconds = (System.nanoTime() - start) / 1e9;
        List<Cell> cells = new ArrayList<>();
        // truths whose shingle sets are the same on this corpus (e.g. word3 and char3-latinwords on Chinese) are computed once
        Map<Long, String> seen = new LinkedHashMap<>();
        Map<String, Cell> byName = new HashMap<>();
        int dt = Verified.defaultIndex();
        for (Truth.Spec spec : specs) {
            long s0 = System.nanoTime();
            long[][] sh = Truth.shingles(corpus, spec, zhLatinWords);
            long key = digest(sh);
            String same = seen.get(key);
            Cell cell;
            if (same != null) {
                Cell c = byName.get(same);
                cell = new Cell(spec, same, c.nearPairs(), c.greyPairs(), c.minHashF1(), c.tallies(), (System.nanoTime() - s0) / 1e9);
            } else {
                Truth truth = spec.adaptive() && adaptiveTruth != null ? adaptiveTruth : Truth.of(sh);
                double[] mh = NaturalQuality.minHash(spec.adaptive() && adaptiveTruth != null ? adaptiveTruth : truth).f1();
                List<Verified.Tally> tallies = new ArrayList<>();
                for (long[] r : reported) {
                    tallies.add(tally(r, truth, minEqual));
                }
                cell = new Cell(spec, null, truth.nearPairs, truth.greyPairs, mh, tallies, (System.nanoTime() - s0) / 1e9);
                seen.put(key, spec.name());
            }
            byName.put(spec.name(), cell);
            cells.add(cell);
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "  gap: truth %-16s %,7d near %,8d grey  MinHash 128 best F1 %.3f%s (%.1f s) | F1 at 0.8:",
                spec.name(), cell.nearPairs(), cell.greyPairs(), cell.minHashBest(), same == null ? "" : " (= " + same + ")", cell.seconds()));
            for (int d = 0; d < designs.size(); d++) {
                line.append(String.format(Locale.ROOT, " %s %.3f", designs.get(d).name(), cell.f1(d, dt)));
            }
            log.info(line.toString());
        }
        return new CorpusGaps(corpus, designs, cells, sketchSeconds);
    }

    /** A 64-bit digest of all shingle sets (equal digests: the same sets, for the purpose of reusing a truth). */
    static long digest(long[][] sh) {
        long h = 0x9E3779B97F4A7C15L;
        for (long[] s : sh) {
            h = MinHash.mix(h + s.length);
            for (long x : s) {
                h = MinHash.mix(h ^ x);
            }
        }
        return h;
    }

    /** One design's summary over every cell of every corpus. */
    record Summary(Design design, double worstAt08, String worstCellAt08, double bestSharedT, double worstAtBest, String worstCellAtBest,
                   double minPNoGrey08, String minPNoGreyCell, int cells) {}

    static Summary summary(List<CorpusGaps> all, int d) {
        return summary(all, d, false);
    }

    /**
     * Whether a cell judges English text by letters ({@code char3}, {@code char5} on an English corpus): a view no
     * sketch over words can follow, so the table also gives the worst gap without these cells.
     */
    static boolean englishByLetters(CorpusGaps g, Cell c) {
        return g.corpus().lang() == NaturalCorpora.Lang.EN && c.spec().unit() == Truth.Unit.CHAR;
    }

    static Summary summary(List<CorpusGaps> all, int d, boolean withoutEnglishByLetters) {
        int dt = Verified.defaultIndex();
        double[] worst = new double[THRESHOLDS.length];
        String[] cell = new String[THRESHOLDS.length];
        Arrays.fill(worst, Double.NEGATIVE_INFINITY);
        double minP = Double.POSITIVE_INFINITY;
        String minPCell = "-";
        int cells = 0;
        for (CorpusGaps g : all) {
            for (Cell c : g.cells()) {
                if (c.nearPairs() == 0 || (withoutEnglishByLetters && englishByLetters(g, c))) {
                    continue;
                }
                cells++;
                for (int t = 0; t < THRESHOLDS.length; t++) {
                    double gap = c.gap(d, t);
                    if (gap > worst[t]) {
                        worst[t] = gap;
                        cell[t] = g.corpus().name() + " x " + c.spec().name();
                    }
                }
                double p = c.precisionNoGrey(d, dt);
                if (!Double.isNaN(p) && p < minP) {
                    minP = p;
                    minPCell = g.corpus().name() + " x " + c.spec().name();
                }
            }
        }
        int b = 0;
        for (int t = 1; t < THRESHOLDS.length; t++) {
            if (worst[t] < worst[b]) {
                b = t;
            }
        }
        return new Summary(all.get(0).designs().get(d), worst[dt], cell[dt], THRESHOLDS[b], worst[b], cell[b], minP, minPCell, cells);
    }

    /** The index of the best threshold shared by all cells for design d. */
    static int bestSharedIndex(List<CorpusGaps> all, int d) {
        double best = summary(all, d).bestSharedT();
        for (int t = 0; t < THRESHOLDS.length; t++) {
            if (Math.abs(THRESHOLDS[t] - best) < 1e-9) {
                return t;
            }
        }
        return Verified.defaultIndex();
    }

    static String f3(double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.3f", v);
    }

    static String signed(double v) {
        return Double.isNaN(v) || Double.isInfinite(v) ? "-" : String.format(Locale.ROOT, "%+.3f", v);
    }

    /** The worst-gap table: one row per design. */
    static String worstTable(List<CorpusGaps> all) {
        StringBuilder sb = new StringBuilder();
        List<String> corpora = all.stream().map(g -> g.corpus().name()).toList();
        sb.append("| design (512x1, all pairs) | worst gap at s = 0.8 | worst cell at 0.8 | best shared s | worst gap there | worst cell there "
            + "| without en x char3/char5: worst gap at 0.8 (cell) | best shared s, worst gap there | min P w/o grey at 0.8 |");
        for (String c : corpora) {
            sb.append(' ').append(c).append(" min P w/o grey |");
        }
        sb.append("\n| --- | ---: | --- | ---: | ---: | --- | --- | --- | ---: |");
        sb.append(" ---: |".repeat(corpora.size()));
        sb.append('\n');
        int dt = Verified.defaultIndex();
        for (int d = 0; d < all.get(0).designs().size(); d++) {
            Summary s = summary(all, d);
            Summary w = summary(all, d, true);
            sb.append(String.format(Locale.ROOT, "| %s | %s | %s | %.2f | %s | %s | %s (%s) | %.2f, %s | %s |", s.design().name(), signed(s.worstAt08()),
                s.worstCellAt08(), s.bestSharedT(), signed(s.worstAtBest()), s.worstCellAtBest(), signed(w.worstAt08()), w.worstCellAt08(),
                w.bestSharedT(), signed(w.worstAtBest()), f3(s.minPNoGrey08())));
            for (CorpusGaps g : all) {
                double min = g.cells().stream().filter(c -> c.nearPairs() > 0).mapToDouble(c -> c.precisionNoGrey(all.get(0).designs().indexOf(s.design()), dt))
                    .filter(v -> !Double.isNaN(v)).min().orElse(Double.NaN);
                sb.append(' ').append(f3(min)).append(" |");
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    /** Per corpus x truth, for one design: F1 at 0.8, at the design's best shared threshold, and the gaps to MinHash 128. */
    static String cellTable(List<CorpusGaps> all, int d) {
        StringBuilder sb = new StringBuilder();
        int dt = Verified.defaultIndex();
        int bt = bestSharedIndex(all, d);
        sb.append(String.format(Locale.ROOT, "| corpus | truth | near / grey | MinHash 128 best F1 (t) | P w/o grey / R / F1 at 0.8 | gap at 0.8 | F1 at %.2f | gap at %.2f |%n",
            THRESHOLDS[bt], THRESHOLDS[bt]));
        sb.append("| --- | --- | ---: | ---: | --- | ---: | ---: | ---: |\n");
        for (CorpusGaps g : all) {
            for (Cell c : g.cells()) {
                sb.append(String.format(Locale.ROOT, "| %s | %s%s | %,d / %,d | %s (%.2f) | %s / %s / %s | %s | %s | %s |%n", g.corpus().name(), c.spec().name(),
                    c.sameAs() == null ? "" : " (= " + c.sameAs() + ")", c.nearPairs(), c.greyPairs(), f3(c.minHashBest()), c.minHashBestT(),
                    f3(c.precisionNoGrey(d, dt)), f3(c.recall(d, dt)), f3(c.f1(d, dt)), signed(c.gap(d, dt)), f3(c.f1(d, bt)), signed(c.gap(d, bt))));
            }
        }
        return sb.toString();
    }

    /** Compact: F1 at 0.8 of every design per corpus x truth, with MinHash 128's best F1. */
    static String f1Matrix(List<CorpusGaps> all) {
        StringBuilder sb = new StringBuilder();
        List<Design> designs = all.get(0).designs();
        int dt = Verified.defaultIndex();
        sb.append("| corpus x truth | MinHash 128 |");
        for (Design d : designs) {
            sb.append(' ').append(d.name()).append(" |");
        }
        sb.append("\n| --- | ---: |").append(" ---: |".repeat(designs.size())).append('\n');
        for (CorpusGaps g : all) {
            for (Cell c : g.cells()) {
                sb.append("| ").append(g.corpus().name()).append(" x ").append(c.spec().name()).append(" | ").append(f3(c.minHashBest())).append(" |");
                for (int d = 0; d < designs.size(); d++) {
                    sb.append(' ').append(f3(c.f1(d, dt))).append(" |");
                }
                sb.append('\n');
            }
        }
        return sb.toString();
    }

    /** The report's section. */
    static void markdown(StringBuilder sb, List<CorpusGaps> all) {
        if (all.isEmpty()) {
            return;
        }
        sb.append("## The sketch's shingle size by its worst cell (every corpus x every truth)\n\n");
        sb.append("""
            Sketches of 64 bytes (512 bins x 1 bit, `MinHashSketch`) over simhash-v2 tokens; a pair is reported iff its
            sketches estimate J >= s, over **all** pairs (no candidate radius, no bands). Each corpus is scored under every
            truth below (J >= 0.8 near-duplicate, 0.5 <= J < 0.8 grey: wrong in P, left out in P w/o grey). Gap: MinHash 128's
            best F1 over t in 0.65..0.95 on that truth's own shingles, minus the design's F1 (positive: worse than MinHash).
            Best shared s: the one threshold minimising the worst gap over all cells. Cells without a near-duplicate pair
            are left out.

            """);
        sb.append("Truths:\n\n");
        for (Cell c : all.get(0).cells()) {
            sb.append("- `").append(c.spec().name()).append("`: ").append(c.spec().description()).append('\n');
        }
        sb.append("\nDesigns:\n\n");
        for (Design d : all.get(0).designs()) {
            sb.append("- `").append(d.name()).append("`: ").append(d.description()).append('\n');
        }
        sb.append("\n### Worst gap per design\n\n").append(worstTable(all));
        sb.append("\n### F1 at s = 0.8 per corpus x truth\n\n").append(f1Matrix(all));
        List<Integer> order = new ArrayList<>();
        for (int d = 0; d < all.get(0).designs().size(); d++) {
            order.add(d);
        }
        order.sort((a, b) -> Double.compare(summary(all, a).worstAt08(), summary(all, b).worstAt08()));
        for (int d : order.subList(0, Math.min(3, order.size()))) {
            sb.append("\n### ").append(all.get(0).designs().get(d).name()).append(" per corpus x truth\n\n").append(cellTable(all, d));
        }
        sb.append(String.format(Locale.ROOT, "%nSketches: %s.%n%n", String.join(", ",
            all.stream().map(g -> String.format(Locale.ROOT, "%s %.0f s", g.corpus().name(), g.sketchSeconds())).toList())));
    }
}
