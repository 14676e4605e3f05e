package dev.simhash.bench;

/**
 * The MinHash baseline: 128 independent hash functions (SplitMix64 finaliser of the shingle hash XOR
 * a per-function seed); the share of equal minima estimates the Jaccard similarity of two shingle sets.
 */
public final class MinHash {

    static final int K = 128;
    private static final long[] SEEDS = new long[K];

    static {
        long s = 0x5DEECE66DL;
        for (int i = 0; i < K; i++) {
            s += 0x9E3779B97F4A7C15L;
            SEEDS[i] = mix(s);
        }
    }

    private MinHash() {}

    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** The signature of a shingle set (all Long.MAX_VALUE for an empty set). */
    static long[] signature(long[] shingles) {
        long[] sig = new long[K];
        java.util.Arrays.fill(sig, Long.MAX_VALUE);
        for (long x : shingles) {
            for (int i = 0; i < K; i++) {
                long h = mix(x ^ SEEDS[i]);
                if (h < sig[i]) {
                    sig[i] = h;
                }
            }
        }
        return sig;
    }

    /** Estimated Jaccard similarity: the share of equal minima. */
    static double estimate(long[] a, long[] b) {
        int eq = 0;
        for (int i = 0; i < K; i++) {
            if (a[i] == b[i]) {
                eq++;
            }
        }
        return eq / (double) K;
    }
}
