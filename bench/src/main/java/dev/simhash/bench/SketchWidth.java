package dev.simhash.bench;

import dev.simhash.core.SimHash;
import dev.simhash.core.SimHashV2;

import java.util.List;
import java.util.Locale;
import java.util.Map;

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

    /** {v2's fingerprint, the 64 more bits}, or null for a text with no features. */
    static long[] fingerprints(String text) {
        Map<String, Integer> features = SimHashV2.features(List.of(text));
        if (features.isEmpty()) {
            return null;
        }
        int[] first = new int[64];
        int[] second = new int[64];
        for (String f : features.keySet()) {
            long h = SimHash.featureHash(f);
            long g = remix(h);
            for (int b = 0; b < 64; b++) {
                first[b] += (int) ((h >>> b) & 1) * 2 - 1;
                second[b] += (int) ((g >>> b) & 1) * 2 - 1;
            }
        }
        return new long[] { signs(first), signs(second) };
    }

    private static long signs(int[] sums) {
        long fp = 0;
        for (int b = 0; b < 64; b++) {
            if (sums[b] > 0) {
                fp |= 1L << b;
            }
        }
        return fp;
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

    /** One row: best F1 over k, and the smallest k with recall >= 0.9 (cumulative counts over the distance histograms). */
    static String row(String corpus, int bits, long[] all, long[] near, long[] grey, long nearPairs) {
        long within = 0;
        long hits = 0;
        long greyWithin = 0;
        double bestF1 = -1;
        String best = "";
        String recall90 = "not reached";
        for (int k = 0; k < all.length; k++) {
            within += all[k];
            hits += near[k];
            greyWithin += grey[k];
            double p = within == 0 ? 1 : hits / (double) within;
            double pNoGrey = within - greyWithin == 0 ? 1 : hits / (double) (within - greyWithin);
            double r = nearPairs == 0 ? 0 : hits / (double) nearPairs;
            double f1 = p + r == 0 ? 0 : 2 * p * r / (p + r);
            if (f1 > bestF1) {
                bestF1 = f1;
                best = String.format(Locale.ROOT, "k=%d: %.3f (%.3f) / %.3f / %.3f", k, p, pNoGrey, r, f1);
            }
            if (r >= 0.9 && recall90.equals("not reached")) {
                recall90 = String.format(Locale.ROOT, "k=%d: %.3f (%.3f)", k, p, pNoGrey);
            }
        }
        return String.format(Locale.ROOT, "| %s | %d | %s | %s |", corpus, bits, best, recall90);
    }
}
