package dev.simhash.core;

import java.util.Arrays;

/**
 * Step 4 of simhash-v1: adds {@code +w} to bit i's sum when bit i of a feature hash is 1 and
 * {@code -w} when it is 0; the fingerprint's bit i is 1 iff that sum is strictly positive.
 * Reusable after {@link #reset()}; not thread-safe.
 */
public final class SimHashAccumulator {

    private final double[] sums = new double[SimHash.BITS];
    private int count;

    /**
     * Adds one weighted feature hash.
     *
     * @throws IllegalArgumentException if the weight is not a positive finite number
     */
    public void add(long featureHash, double weight) {
        if (!(weight > 0) || Double.isInfinite(weight)) {
            throw new IllegalArgumentException("feature weight must be a positive finite number, got [" + weight + "]");
        }
        double[] s = sums;
        // Adds +w where the bit is 1 and -w where it is 0. -w is w with its sign bit flipped, so the sign
        // is set by XOR-ing bit i of ~hash into the sign bit: the very same additions as "+w / -w" (bit for
        // bit), without the long-to-double conversion and multiplication per bit (measured faster, bench/).
        long weightBits = Double.doubleToRawLongBits(weight);
        long zeros = ~featureHash;
        for (int i = 0; i < SimHash.BITS; i++) {
            s[i] += Double.longBitsToDouble(weightBits ^ (((zeros >>> i) & 1L) << 63));
        }
        count++;
    }

    /** Number of {@link #add} calls since the last reset. */
    public int count() {
        return count;
    }

    /** True when nothing has been added: such input has no fingerprint. */
    public boolean isEmpty() {
        return count == 0;
    }

    /**
     * The fingerprint of everything added so far.
     *
     * @throws IllegalStateException when nothing was added (empty input has no fingerprint, never 0)
     */
    public long fingerprint() {
        if (count == 0) {
            throw new IllegalStateException("no features: empty input has no fingerprint");
        }
        long fp = 0;
        for (int i = 0; i < SimHash.BITS; i++) {
            if (sums[i] > 0) {
                fp |= 1L << i;
            }
        }
        return fp;
    }

    /** Clears all sums so the accumulator can fingerprint another document. */
    public void reset() {
        Arrays.fill(sums, 0);
        count = 0;
    }
}
