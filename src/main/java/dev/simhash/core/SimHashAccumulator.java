package dev.simhash.core;

import java.util.Arrays;

/**
 * Step 4 of simhash-v1: adds {@code +w} to bit i's sum when bit i of a feature hash is 1 and
 * {@code -w} when it is 0; the fingerprint's bit i is 1 iff that sum is strictly positive. The sums
 * are the double sums of the contract, added in the order of the {@link #add} calls, and the
 * fingerprint is bit for bit the one those sums give. Reusable after {@link #reset()}; not thread-safe.
 *
 * <p><b>Exact integer mode</b> (the defaults: tf and binary weights). While every weight added so far
 * is an integer and their total {@code W} is at most 2<sup>53</sup>, the accumulator does not add
 * doubles: it counts, per bit, {@code P_i} = the total weight of the features whose bit i is 1. The
 * contract's double sum of bit i is then {@code P_i - (W - P_i) = 2 P_i - W}, with no rounding at all:
 * each of its partial sums is an integer of magnitude at most {@code W <= 2^53}, and every such integer
 * is a double, so each double addition is exact and the order of the additions does not matter. Hence
 * bit i is {@code 2 P_i > W}, the very sign the double sums give (a sum of exactly 0, a tie, gives 0 in
 * both).
 *
 * <p>The counts are kept in eight 64-bit words of eight 8-bit counters each ("byte lanes": counter
 * k of lane b counts bit {@code 8k + b}); a feature of weight {@code w <= 255} adds
 * {@code ((hash >>> b) & 0x0101..01) * w} to lane b, eight shifts, masks, multiplies and adds for
 * all 64 bits. A lane counter never exceeds the weight added since the lanes were last emptied,
 * which is kept at most 255 (and at most what keeps {@code W <= 2^53}), so no counter carries into
 * its neighbour; the lanes are emptied into 64 long counts before that bound would be passed, and
 * before the fingerprint is read. Larger integer weights go straight into the long counts.
 *
 * <p><b>Double mode</b> (log_tf, feature-weight tables). The first weight that is not such an integer,
 * or that would take the total over 2<sup>53</sup>, switches to the contract's double sums: each sum
 * starts at the exact {@code 2 P_i - W} of exact mode (the contract's partial sum at that point), and
 * from then on the weights are added as doubles, one addition per bit in call order, exactly as the
 * contract's loop does. Both modes are checked against the naive definition in the tests
 * (SimHashAccumulatorIdentityTest).
 */
public final class SimHashAccumulator {

    /** Largest total integer weight for which every partial sum is exactly a double. */
    static final long MAX_EXACT_TOTAL = 1L << 53;
    /** Largest weight a byte-lane counter can take between two flushes. */
    static final int LANE_CAPACITY = 255;
    private static final long LANE_ONES = 0x0101010101010101L;

    /** Whether the contract's double sums are in use (double mode). */
    private boolean doubles;
    /** Double mode: the contract's per-bit sums. Only valid in double mode. */
    private final double[] sums = new double[SimHash.BITS];
    /**
     * Exact mode: per bit, the total integer weight of the features whose bit is 1 (flushed part), in lane order: bit
     * {@code 8k + b} at {@code 8b + k} (see {@link #bitOf}), so that a lane's eight bytes land side by side.
     */
    private final long[] ones = new long[SimHash.BITS];
    // Byte-lane counters not yet flushed into ones (lane b, byte k: bit 8k + b).
    private long lane0, lane1, lane2, lane3, lane4, lane5, lane6, lane7;
    /** Weight added to the lanes since they were last flushed (at most laneLimit). */
    private int laneWeight;
    /** Most weight the lanes take before a flush: LANE_CAPACITY, less when totalWeight is within that of 2^53. */
    private int laneLimit = LANE_CAPACITY;
    /** Integer weight counted in ones; W = totalWeight + laneWeight <= 2^53. */
    private long totalWeight;
    /** The adds since the last reset. */
    private int count;

    /**
     * Adds one weighted feature hash.
     *
     * @throws IllegalArgumentException if the weight is not a positive finite number
     */
    public void add(long featureHash, double weight) {
        if (!(weight > 0 && weight <= Double.MAX_VALUE)) {
            throw new IllegalArgumentException("feature weight must be a positive finite number, got [" + weight + "]");
        }
        count++;
        if (doubles) {
            addDouble(featureHash, weight);
            return;
        }
        int small = (int) weight;
        int filled = laneWeight + small;
        if (small == weight && small <= LANE_CAPACITY && filled <= laneLimit) {
            laneWeight = filled;
            addToLanes(featureHash, small);
            return;
        }
        addRare(featureHash, weight);
    }

    /** Exact mode: a weight that is not a small integer, or lanes that are full, or a total near 2^53. */
    private void addRare(long featureHash, double weight) {
        long integral = (long) weight;
        if (integral == weight) {
            flushLanes();
            if (integral <= laneLimit) {
                laneWeight = (int) integral;
                addToLanes(featureHash, (int) integral);
                return;
            }
            if (integral <= MAX_EXACT_TOTAL - totalWeight) {
                addToCounts(featureHash, integral);
                return;
            }
        }
        switchToDoubles();
        addDouble(featureHash, weight);
    }

    /** Adds {@code weight} units to the byte lanes (the caller has made sure that they hold them: laneWeight). */
    private void addToLanes(long h, int weight) {
        long w = weight;
        lane0 += (h & LANE_ONES) * w;
        lane1 += ((h >>> 1) & LANE_ONES) * w;
        lane2 += ((h >>> 2) & LANE_ONES) * w;
        lane3 += ((h >>> 3) & LANE_ONES) * w;
        lane4 += ((h >>> 4) & LANE_ONES) * w;
        lane5 += ((h >>> 5) & LANE_ONES) * w;
        lane6 += ((h >>> 6) & LANE_ONES) * w;
        lane7 += ((h >>> 7) & LANE_ONES) * w;
    }

    /** A large integer weight (the lanes are flushed): straight into the long counts, exact as long as W <= 2^53. */
    private void addToCounts(long h, long weight) {
        long[] o = ones;
        for (int j = 0; j < SimHash.BITS; j++) {
            o[j] += weight & -((h >>> bitOf(j)) & 1L);
        }
        totalWeight += weight;
        laneLimit = (int) Math.min(LANE_CAPACITY, MAX_EXACT_TOTAL - totalWeight);
    }

    /** Empties the byte lanes into the long counts (and their weight into totalWeight). */
    private void flushLanes() {
        if (laneWeight == 0) {
            return;
        }
        long[] o = ones;
        flushLane(o, 0, lane0);
        flushLane(o, 8, lane1);
        flushLane(o, 16, lane2);
        flushLane(o, 24, lane3);
        flushLane(o, 32, lane4);
        flushLane(o, 40, lane5);
        flushLane(o, 48, lane6);
        flushLane(o, 56, lane7);
        lane0 = lane1 = lane2 = lane3 = lane4 = lane5 = lane6 = lane7 = 0;
        totalWeight += laneWeight;
        laneWeight = 0;
        laneLimit = (int) Math.min(LANE_CAPACITY, MAX_EXACT_TOTAL - totalWeight);
    }

    /** Adds the eight byte counters of lane b into the long counts o[8b + k] (offset = 8b). */
    private static void flushLane(long[] o, int offset, long lane) {
        for (int k = 0; k < 8; k++) {
            o[offset + k] += (lane >>> (8 * k)) & 0xFF;
        }
    }

    /** The bit at entry j of lane order: byte k of lane b (j = 8b + k) counts bit 8k + b (its own inverse). */
    private static int bitOf(int j) {
        return ((j & 7) << 3) | (j >>> 3);
    }

    /** Leaves exact mode for the contract's double sums, which start at the exact 2 P_i - W. */
    private void switchToDoubles() {
        flushLanes();
        double[] s = sums;
        for (int j = 0; j < SimHash.BITS; j++) {
            s[bitOf(j)] = (double) (2 * ones[j] - totalWeight);
        }
        doubles = true;
    }

    private void addDouble(long featureHash, double weight) {
        // Adds +w where the bit is 1 and -w where it is 0. -w is w with its sign bit flipped, so the sign
        // is set by XOR-ing bit i of ~hash into the sign bit: the very same additions as "+w / -w" (bit for
        // bit), without the long-to-double conversion and multiplication per bit.
        double[] s = sums;
        long weightBits = Double.doubleToRawLongBits(weight);
        long zeros = ~featureHash;
        for (int i = 0; i < SimHash.BITS; i++) {
            s[i] += Double.longBitsToDouble(weightBits ^ (((zeros >>> i) & 1L) << 63));
        }
    }

    /**
     * {@link #reset()}, then {@link #add} of {@code (hashes[i], weights[i])} for i from 0 to n - 1 in order, then {@link
     * #fingerprint()}. The accumulator then holds these adds (more may be added).
     *
     * @throws IllegalArgumentException if a weight is not a positive finite number (then reset before further use)
     * @throws IllegalStateException when n is 0
     */
    public long fingerprint(long[] hashes, double[] weights, int n) {
        reset();
        for (int i = 0; i < n; i++) {
            add(hashes[i], weights[i]);
        }
        return fingerprint();
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
     * The fingerprint of everything added so far. More features may be added afterwards.
     *
     * @throws IllegalStateException when nothing was added (empty input has no fingerprint, never 0)
     */
    public long fingerprint() {
        if (count == 0) {
            throw new IllegalStateException("no features: empty input has no fingerprint");
        }
        long fp = 0;
        if (doubles) {
            double[] s = sums;
            for (int i = 0; i < SimHash.BITS; i++) {
                if (s[i] > 0) {
                    fp |= 1L << i;
                }
            }
            return fp;
        }
        flushLanes();
        long total = totalWeight;
        long[] o = ones;
        for (int j = 0; j < SimHash.BITS; j++) {
            // 2 P_i > W without a branch (a coin flip per bit): the sign of W - 2 P_i (|values| <= 2^54, no overflow)
            fp |= ((total - 2 * o[j]) >>> 63) << bitOf(j);
        }
        return fp;
    }

    /** Clears all sums so the accumulator can fingerprint another document. */
    public void reset() {
        // the double sums need no clearing: entering double mode overwrites all of them
        Arrays.fill(ones, 0);
        lane0 = lane1 = lane2 = lane3 = lane4 = lane5 = lane6 = lane7 = 0;
        laneWeight = 0;
        laneLimit = LANE_CAPACITY;
        totalWeight = 0;
        doubles = false;
        count = 0;
    }
}
