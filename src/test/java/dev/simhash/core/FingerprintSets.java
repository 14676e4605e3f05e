package dev.simhash.core;

import java.util.Random;

/** Random fingerprints with planted near-duplicates, for the folding and grouping tests. */
public final class FingerprintSets {

    private FingerprintSets() {}

    /** {@code h} with exactly {@code bits} distinct random bits flipped. */
    public static long flip(Random r, long h, int bits) {
        long mask = 0;
        while (Long.bitCount(mask) < bits) {
            mask |= 1L << r.nextInt(64);
        }
        return h ^ mask;
    }

    /**
     * {@code n} fingerprints: about a third random, the rest near copies (0..maxFlip bits) of a few
     * bases, some exact copies, and chains where each element is a small step from the previous one
     * (so single linkage joins elements further apart than the radius).
     */
    public static long[] planted(Random r, int n, int bases, int maxFlip) {
        long[] base = new long[bases];
        for (int i = 0; i < bases; i++) {
            base[i] = r.nextLong();
        }
        long[] out = new long[n];
        long chain = r.nextLong();
        for (int i = 0; i < n; i++) {
            int kind = r.nextInt(10);
            if (kind < 3) {
                out[i] = r.nextLong();
            } else if (kind < 8) {
                out[i] = flip(r, base[r.nextInt(bases)], r.nextInt(maxFlip + 1));
            } else if (kind < 9) {
                out[i] = i == 0 ? r.nextLong() : out[r.nextInt(i)];
            } else {
                chain = flip(r, chain, 1 + r.nextInt(Math.max(1, maxFlip)));
                out[i] = chain;
            }
        }
        return out;
    }
}
