package dev.simhash.core;

/**
 * Multi-index hashing arithmetic: if two fingerprints differ in at most r bits, at least one of
 * the four 16-bit blocks differs in at most floor(r/4) bits. Probing every block value within that
 * radius, then verifying the full distance, therefore finds every match and only matches.
 */
public final class BlockProbes {

    private static final int[] COUNT_WITHIN = new int[SimHash.BLOCK_BITS + 1];

    static {
        int binomial = 1; // C(16, 0)
        int total = 0;
        for (int d = 0; d <= SimHash.BLOCK_BITS; d++) {
            total += binomial;
            COUNT_WITHIN[d] = total;
            binomial = binomial * (SimHash.BLOCK_BITS - d) / (d + 1);
        }
    }

    private BlockProbes() {}

    /** The per-block radius floor(r/4) that makes a search with {@code maxDistance} r exact. */
    public static int perBlockRadius(int maxDistance) {
        checkMaxDistance(maxDistance);
        return maxDistance / SimHash.BLOCKS;
    }

    /** Number of 16-bit values within Hamming distance {@code radius} of any value: sum of C(16, i), i <= radius. */
    public static int countWithin(int radius) {
        if (radius < 0) {
            throw new IllegalArgumentException("radius must not be negative, got [" + radius + "]");
        }
        return COUNT_WITHIN[Math.min(radius, SimHash.BLOCK_BITS)];
    }

    /** Number of block terms a search with {@code maxDistance} probes, over all four blocks. */
    public static long probeCount(int maxDistance) {
        return (long) SimHash.BLOCKS * countWithin(perBlockRadius(maxDistance));
    }

    /**
     * Every 16-bit value within Hamming distance {@code radius} of {@code blockValue}, nearest first
     * (the value itself, then all values at distance 1, and so on).
     */
    public static int[] within(int blockValue, int radius) {
        if (blockValue < 0 || blockValue > 0xFFFF) {
            throw new IllegalArgumentException("block value must be between 0 and 65535, got [" + blockValue + "]");
        }
        int r = Math.min(radius, SimHash.BLOCK_BITS);
        int[] out = new int[countWithin(r)];
        int n = 0;
        for (int d = 0; d <= r; d++) {
            if (d == 0) {
                out[n++] = blockValue;
                continue;
            }
            // Gosper's hack: every 16-bit mask with exactly d bits set, in increasing order
            int mask = (1 << d) - 1;
            while (mask < (1 << SimHash.BLOCK_BITS)) {
                out[n++] = blockValue ^ mask;
                int c = mask & -mask;
                int next = mask + c;
                mask = (((next ^ mask) >>> 2) / c) | next;
            }
        }
        return out;
    }

    /** @throws IllegalArgumentException if {@code maxDistance} is outside 0..64 */
    public static void checkMaxDistance(int maxDistance) {
        if (maxDistance < 0 || maxDistance > SimHash.BITS) {
            throw new IllegalArgumentException("[max_distance] must be between 0 and 64, got [" + maxDistance + "]");
        }
    }
}
