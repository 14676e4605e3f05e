package dev.simhash.bench;

import dev.simhash.core.SimHash;
import dev.simhash.core.SimHashAccumulator;
import dev.simhash.core.SimHashV2;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.IntFunction;

/**
 * Would another sketch close the gap to MinHash? Sketches of every document, scored on a corpus's natural near-duplicates
 * exactly like {@link NaturalQuality} (every pair; grey pairs count as false positives in P and are left out of "P w/o grey"):
 * the best F1 over k, the smallest k with recall >= 0.9 with its precision, and P w/o grey / R at each k from 3 to 12.
 * <ul>
 * <li>simhash-v2 in 64 bits (v2 itself) and in 128 bits (v2 plus 64 more bits from a bijective remix of each feature hash,
 * the SplitMix64/Murmur3 finalizer): is the width the limit?</li>
 * <li>SimHash with binary weights over the truth's own shingles in 64 bits: are v2's features the limit?</li>
 * <li>1-bit MinHash in 64 bits (one-permutation hashing, Li, Owen and Zhang 2012, with rotation densification; the lowest bit
 * of each bin's minimum, b-bit minwise hashing, Li and König 2010) over v2's features and over the truth's shingles: a bit
 * differs with probability (1 - J) / 2, so the Hamming distance estimates Jaccard itself, the truth's measure, instead of
 * the angle. Is SimHash the limit?</li>
 * </ul>
 * Bench only: the plugin has none of these sketches but v2 in 64 bits.
 */
final class SketchWidth {

    /** Pairs further apart than this many bits per 64-bit word are not counted: none is ever within a radius used. */
    static final int KMAX = 24;

    /** The radii of the per-k table. */
    static final int PER_K_FROM = 3;
    static final int PER_K_TO = 12;

    private SketchWidth() {}

    /** The Murmur3 / SplitMix64 64-bit finalizer: a bijection, so distinct feature hashes stay distinct. */
    static long remix(long z) {
        z = (z ^ (z >>> 33)) * 0xff51afd7ed558ccdL;
        z = (z ^ (z >>> 33)) * 0xc4ceb9fe1a85ec53L;
        return z ^ (z >>> 33);
    }

    /** {v2's fingerprint, the 64 more bits: the same features summed by the same accumulator, remixed}, or null for no features. */
    static long[] fingerprints(String text) {
        return fingerprints(featureHashes(text));
    }

    /**
     * {@link #fingerprints(String)} from v2's distinct feature hashes: v2 is their sum with weight 1 each (binary weights make
     * the sums integers, so the order does not matter; SketchWidthTest checks it against {@link SimHashV2}).
     */
    static long[] fingerprints(long[] featureHashes) {
        if (featureHashes.length == 0) {
            return null;
        }
        return new long[] { simhash(featureHashes), simhash(Arrays.stream(featureHashes).map(SketchWidth::remix).toArray()) };
    }

    /** Distinct feature hashes of v2's features of a text (v2's own hash of each feature). */
    static long[] featureHashes(String text) {
        return SimHashV2.features(List.of(text)).keySet().stream().mapToLong(SimHash::featureHash).toArray();
    }

    /** SimHash with weight 1 for each of the given distinct hashes, summed by the production accumulator. */
    static long simhash(long[] hashes) {
        SimHashAccumulator acc = new SimHashAccumulator();
        for (long h : hashes) {
            acc.add(h, 1.0);
        }
        return acc.fingerprint();
    }

    /**
     * 1-bit MinHash of a set of distinct hashes in 64 bins: each hash is remixed, its top 6 bits pick a bin, the other 58 bits
     * compete for the bin's minimum; an empty bin takes the minimum of the next non-empty bin to its right (circularly), offset
     * by the number of steps; bit i is the lowest bit of a remix of bin i's value and i. Two sets' bits in a bin agree when
     * their minima agree (probability J for non-empty bins) and otherwise with probability 1/2. The empty set gives 0. A
     * different seed gives another hash function, hence other bins and minima.
     */
    static long oneBitMinHash(long[] hashes, long seed) {
        long[] min = new long[64];
        Arrays.fill(min, Long.MAX_VALUE);
        for (long h : hashes) {
            long r = remix(h ^ seed);
            int bin = (int) (r >>> 58);
            long v = r & ((1L << 58) - 1);
            if (v < min[bin]) {
                min[bin] = v;
            }
        }
        if (hashes.length == 0) {
            return 0;
        }
        long out = 0;
        for (int i = 0; i < 64; i++) {
            int j = i;
            long steps = 0;
            while (min[j] == Long.MAX_VALUE) {
                j = (j + 1) & 63;
                steps++;
            }
            out |= (remix(min[j] + steps * 0x9E3779B97F4A7C15L + i) & 1) << i;
        }
        return out;
    }

    /** A named sketch of {@code words} 64-bit words per document: the words of a document, or null for one it cannot sketch. */
    record Sketch(String name, int words, IntFunction<long[]> of) {}

    /** The number of hash seeds the 1-bit MinHash of the truth's shingles is run with. */
    static final int SEEDS = 5;

    /** The sketches compared, in report order. */
    static List<Sketch> sketches(List<String> docs, Truth truth) {
        int n = docs.size();
        long[][] features = new long[n][];
        long[][] v2 = new long[n][];
        for (int i = 0; i < n; i++) {
            features[i] = featureHashes(docs.get(i));
            v2[i] = fingerprints(features[i]);
        }
        long[][] shingles = truth.shingles;
        List<Sketch> out = new ArrayList<>(List.of(
            new Sketch("v2, 64", 1, i -> v2[i] == null ? null : new long[] { v2[i][0] }),
            new Sketch("v2, 128", 2, i -> v2[i]),
            new Sketch("SimHash of the truth's shingles, 64", 1, i -> shingles[i].length == 0 ? null : new long[] { simhash(shingles[i]) }),
            new Sketch("1-bit MinHash of v2's features, 64", 1,
                i -> features[i].length == 0 ? null : new long[] { oneBitMinHash(features[i], 0) })));
        // the seeds show how much one hash function's luck moves P and R
        for (int seed = 0; seed < SEEDS; seed++) {
            long s = seed * 0x9E3779B97F4A7C15L;
            out.add(new Sketch("1-bit MinHash of the truth's shingles, 64" + (seed == 0 ? "" : ", seed " + seed), 1,
                i -> shingles[i].length == 0 ? null : new long[] { oneBitMinHash(shingles[i], s) }));
        }
        return out;
    }

    /** Writes the report (rewritten after every corpus, so that a partial run still leaves one) for the named corpora. */
    static void report(List<String> names, Path work, int maxDocs, Path file, String command, String started, Log log) throws IOException {
        String head = "# Other sketches of the same texts: 128 bits, the truth's shingles, 1-bit MinHash\n\nCommand: `" + command
            + "`  \nStarted: " + started + "\n\nSketches (SketchWidth): v2 in 64 bits; v2 plus 64 bits from a "
            + "remix of each feature hash (128); SimHash with binary weights over the shingles that define the truth; 1-bit MinHash "
            + "in 64 bins (one-permutation, densified) over v2's features and over the truth's shingles. Grey pairs count as false "
            + "positives in P; \"w/o grey\" leaves them out.\n\n## Best F1 over k\n\nk, P (P w/o grey) / R / F1; then the smallest "
            + "k with recall >= 0.9 and its P (P w/o grey).\n\n| corpus | sketch, bits | best F1 | recall >= 0.9 |\n| --- | --- | --- | --- |\n";
        StringBuilder best = new StringBuilder();
        StringBuilder perK = new StringBuilder("\n## P w/o grey / R at each radius k\n\n| corpus | sketch, bits |");
        StringBuilder rule = new StringBuilder("| --- | --- |");
        for (int k = PER_K_FROM; k <= PER_K_TO; k++) {
            perK.append(" k=").append(k).append(" |");
            rule.append(" --- |");
        }
        perK.append('\n').append(rule).append('\n');
        for (String name : names) {
            NaturalCorpora.Corpus c = NaturalCorpora.load(name, work, maxDocs, log);
            if (c.available()) {
                String[] rows = rows(c, Truth.of(c), log);
                best.append(rows[0]);
                perK.append(rows[1]);
                Files.writeString(file, head + best + perK);
            }
        }
        log.info("report: " + file);
    }

    /** Markdown rows for one corpus: {best F1 and recall 0.9 rows, P w/o grey / R per k rows of the 64-bit sketches}. */
    static String[] rows(NaturalCorpora.Corpus c, Truth truth, Log log) {
        List<String> docs = c.docs();
        int n = docs.size();
        StringBuilder best = new StringBuilder();
        StringBuilder perK = new StringBuilder();
        for (Sketch s : sketches(docs, truth)) {
            long[][] f = new long[n][];
            for (int i = 0; i < n; i++) {
                f[i] = s.of().apply(i);
            }
            NaturalQuality.Curve curve;
            if (s.words() == 1) {
                // scored exactly as the candidates are, chance collisions included
                long[] h = new long[n];
                boolean[] has = new boolean[n];
                for (int i = 0; i < n; i++) {
                    has[i] = f[i] != null;
                    h[i] = has[i] ? f[i][0] : 0;
                }
                curve = NaturalQuality.evaluate(h, has, truth, docs, 0);
            } else {
                curve = wide(f, s.words(), truth);
            }
            String r = row(c.name(), s.name(), curve);
            log.info("  " + r);
            best.append(r).append('\n');
            if (s.words() == 1) {
                perK.append(perKRow(c.name(), s.name(), curve)).append('\n');
            }
        }
        return new String[] { best.toString(), perK.toString() };
    }

    /** The curve of sketches of several 64-bit words each: distances summed over the words, no chance collisions counted. */
    static NaturalQuality.Curve wide(long[][] f, int words, Truth truth) {
        int n = f.length;
        int max = words * KMAX;
        long[] all = new long[max + 1];
        long[] near = new long[max + 1];
        long[] grey = new long[max + 1];
        for (int i = 0; i < n; i++) {
            if (f[i] == null) {
                continue;
            }
            for (int j = i + 1; j < n; j++) {
                if (f[j] != null) {
                    int d = distance(f[i], f[j]);
                    if (d <= max) {
                        all[d]++;
                    }
                }
            }
        }
        for (long p : truth.pairs) {
            int x = Truth.first(p);
            int y = Truth.second(p);
            if (f[x] != null && f[y] != null) {
                int d = distance(f[x], f[y]);
                if (d <= max) {
                    (Truth.jaccardOf(p) >= Truth.NEAR ? near : grey)[d]++;
                }
            }
        }
        return curve(all, near, grey, truth.nearPairs);
    }

    /** Hamming distance summed over the words of two sketches. */
    static int distance(long[] a, long[] b) {
        int d = 0;
        for (int i = 0; i < a.length; i++) {
            d += Long.bitCount(a[i] ^ b[i]);
        }
        return d;
    }

    /** Distance histograms (all pairs, near-duplicate pairs, grey pairs) summed into a {@link NaturalQuality.Curve} without chance counts. */
    static NaturalQuality.Curve curve(long[] all, long[] near, long[] grey, long nearPairs) {
        return new NaturalQuality.Curve(NaturalQuality.cum(all), NaturalQuality.cum(near), NaturalQuality.cum(grey),
            new long[all.length], nearPairs, 0, 0, 0, null, List.of(), null, 0);
    }

    /** P w/o grey / R at each radius from {@link #PER_K_FROM} to {@link #PER_K_TO}: is there one radius that meets both targets? */
    static String perKRow(String corpus, String sketch, NaturalQuality.Curve c) {
        StringBuilder b = new StringBuilder("| " + corpus + " | " + sketch + " |");
        for (int k = PER_K_FROM; k <= PER_K_TO; k++) {
            b.append(String.format(Locale.ROOT, " %.3f / %.3f |", c.precisionNoGrey(k), c.recall(k)));
        }
        return b.toString();
    }

    /**
     * One row: best F1 over k, and the smallest k with recall >= 0.9 with its precision and, where counted, the share of
     * pairs with J < 0.2 within that k.
     */
    static String row(String corpus, String sketch, NaturalQuality.Curve c) {
        int b = c.bestK();
        String best = String.format(Locale.ROOT, "k=%d: %.3f (%.3f) / %.3f / %.3f", b, c.precision(b), c.precisionNoGrey(b), c.recall(b), c.f1(b));
        String recall90 = "not reached";
        for (int k = 0; k < c.total().length; k++) {
            if (c.recall(k) >= 0.9) {
                recall90 = String.format(Locale.ROOT, "k=%d: %.3f (%.3f)", k, c.precision(k), c.precisionNoGrey(k));
                double chance = c.chanceRate(k);
                if (!Double.isNaN(chance)) {
                    recall90 += String.format(Locale.ROOT, "; J < 0.2: %.1e", chance);
                }
                break;
            }
        }
        return String.format(Locale.ROOT, "| %s | %s | %s | %s |", corpus, sketch, best, recall90);
    }
}
