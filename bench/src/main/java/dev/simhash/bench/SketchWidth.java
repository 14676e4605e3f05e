package dev.simhash.bench;

import dev.simhash.core.SimHash;
import dev.simhash.core.SimHashAccumulator;
import dev.simhash.core.SimHashV2;

import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;

/**
 * Would a longer sketch close the gap to MinHash? simhash-v2's features and binary weights summed into 64 bits (v2 itself)
 * and into 128 bits (v2 plus 64 more bits from a bijective remix of each feature hash, the SplitMix64/Murmur3 finalizer),
 * scored on a corpus's natural near-duplicates exactly like {@link NaturalQuality} (every pair; grey pairs count as false
 * positives in P and are left out of "P w/o grey"): the best F1 over k, and the smallest k with recall >= 0.9 with its
 * precision. Bench only: no 128-bit fingerprint exists in the plugin.
 */
final class SketchWidth {

    /** Pairs further apart than this many bits (64-bit) or twice this (128-bit) are not counted: none is ever within a radius used. */
    static final int KMAX = 24;

    private SketchWidth() {}

    /** The Murmur3 / SplitMix64 64-bit finalizer: a bijection, so distinct feature hashes stay distinct. */
    static long remix(long z) {
        z = (z ^ (z >>> 33)) * 0xff51afd7ed558ccdL;
        z = (z ^ (z >>> 33)) * 0xc4ceb9fe1a85ec53L;
        return z ^ (z >>> 33);
    }

    /** {v2's fingerprint, the 64 more bits: the same features summed by the same accumulator, remixed}, or null for no features. */
    static long[] fingerprints(String text) {
        OptionalLong v2 = SimHashV2.fingerprint(text, 1);
        if (v2.isEmpty()) {
            return null;
        }
        SimHashAccumulator acc = new SimHashAccumulator();
        for (String f : SimHashV2.features(List.of(text)).keySet()) {
            acc.add(remix(SimHash.featureHash(f)), 1.0);
        }
        return new long[] { v2.getAsLong(), acc.fingerprint() };
    }

    /** Markdown rows (64 and 128 bits) for one corpus. */
    static String rows(NaturalCorpora.Corpus c, Truth truth, Log log) {
        List<String> docs = c.docs();
        int n = docs.size();
        long[] first = new long[n];
        long[] second = new long[n];
        boolean[] has = new boolean[n];
        for (int i = 0; i < n; i++) {
            long[] f = fingerprints(docs.get(i));
            if (f != null) {
                has[i] = true;
                first[i] = f[0];
                second[i] = f[1];
            }
        }
        long[] all64 = new long[KMAX + 1];
        long[] all128 = new long[2 * KMAX + 1];
        for (int i = 0; i < n; i++) {
            if (!has[i]) {
                continue;
            }
            for (int j = i + 1; j < n; j++) {
                if (!has[j]) {
                    continue;
                }
                int d = Long.bitCount(first[i] ^ first[j]);
                if (d <= KMAX) {
                    all64[d]++;
                }
                int d2 = d + Long.bitCount(second[i] ^ second[j]);
                if (d2 <= 2 * KMAX) {
                    all128[d2]++;
                }
            }
        }
        long[] near64 = new long[KMAX + 1];
        long[] grey64 = new long[KMAX + 1];
        long[] near128 = new long[2 * KMAX + 1];
        long[] grey128 = new long[2 * KMAX + 1];
        for (long p : truth.pairs) {
            int x = Truth.first(p);
            int y = Truth.second(p);
            if (!has[x] || !has[y]) {
                continue;
            }
            boolean near = Truth.jaccardOf(p) >= Truth.NEAR;
            int d = Long.bitCount(first[x] ^ first[y]);
            int d2 = d + Long.bitCount(second[x] ^ second[y]);
            if (d <= KMAX) {
                (near ? near64 : grey64)[d]++;
            }
            if (d2 <= 2 * KMAX) {
                (near ? near128 : grey128)[d2]++;
            }
        }
        String a = row(c.name(), 64, all64, near64, grey64, truth.nearPairs);
        String b = row(c.name(), 128, all128, near128, grey128, truth.nearPairs);
        log.info("  " + a);
        log.info("  " + b);
        return a + "\n" + b + "\n";
    }

    /** One row: best F1 over k, and the smallest k with recall >= 0.9 (the histograms summed into a {@link NaturalQuality.Curve}). */
    static String row(String corpus, int bits, long[] all, long[] near, long[] grey, long nearPairs) {
        NaturalQuality.Curve c = new NaturalQuality.Curve(NaturalQuality.cum(all), NaturalQuality.cum(near), NaturalQuality.cum(grey),
            new long[all.length], nearPairs, 0, 0, 0, null, List.of(), null, 0);
        int b = c.bestK();
        String best = String.format(Locale.ROOT, "k=%d: %.3f (%.3f) / %.3f / %.3f", b, c.precision(b), c.precisionNoGrey(b), c.recall(b), c.f1(b));
        String recall90 = "not reached";
        for (int k = 0; k < all.length; k++) {
            if (c.recall(k) >= 0.9) {
                recall90 = String.format(Locale.ROOT, "k=%d: %.3f (%.3f)", k, c.precision(k), c.precisionNoGrey(k));
                break;
            }
        }
        return String.format(Locale.ROOT, "| %s | %d | %s | %s |", corpus, bits, best, recall90);
    }
}
