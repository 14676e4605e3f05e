package dev.simhash.core;

import java.util.Arrays;

/**
 * Step 4 of simhash-v1: adds {@code +w} to bit i's sum when bit i of a feature hash is 1 and
 * {@code -w} when it is 0; the fingerprint's bit i is 1 iff that sum is strictly positive. The sums
 * are the double sums of the contract, added in the order of the {@link #add} calls.
 * Reusable after {@link #reset()}; not thread-safe.
 *
 * <p><b>Exact integer mode.</b> While every weight added so far is an integer and their total
 * {@code W} is at most 2<sup>53</sup>, the accumulator does not add doubles: it counts, per bit,
 * {@code P_i} = the total weight of the features whose bit i is 1. The contract's double sum of bit
 * i is then {@code P_i - (W - P_i) = 2 P_i - W}, with no rounding at all: each of its partial sums is
 * an integer of magnitude at most {@code W <= 2^53}, and every such integer is a double, so each
 * double addition is exact and the order of the additions does not matter. Hence bit i is
 * {@code 2 P_i > W}, the very sign the double sums give (a sum of exactly 0, a tie, gives 0 in both).
 *
 * <p>The counts are kept in eight 64-bit words of eight 8-bit counters each ("byte lanes": counter
 * k of lane b counts bit {@code 8k + b}); a feature of weight {@code w <= 255} adds
 * {@code ((hash >>> b) & 0x0101..01) * w} to lane b, eight shifts, masks, multiplies and adds for
 * all 64 bits. A lane counter never exceeds the weight added since the lanes were last emptied,
 * which is kept at most 255, so no counter carries into its neighbour; the lanes are emptied into
 * 64 long counts before that bound would be passed, and before the fingerprint is read.
 *
 * <p><b>Double mode.</b> The first weight that is not such an integer (e.g. {@code 1 + ln 2}, an
 * IDF), or that would take {@code W} over 2<sup>53</sup>, switches to the double sums of the
 * contract: each sum starts at {@code 2 P_i - W}, the exact value every double partial sum had
 * until then (see above), and from then on the weights are added as doubles, one addition per bit
 * in call order, exactly as the contract's loop does. Both modes are checked against the naive
 * definition in the tests (SimHashAccumulatorIdentityTest).
 */
public final class SimHashAccumulator {

    /** Largest total integer weight for which every partial sum is exactly a double. */
    static final long MAX_EXACT_TOTAL = 1L << 53;
    /** Largest weight a byte-lane counter can take between two flushes. */
    static final int LANE_CAPACITY = 255;
    private static final long LANE_ONES = 0x0101010101010101L;

    /** Double mode: the contract's per-bit sums, allocated when first needed. Only valid once {@link #exact} is false. */
    private double[] sums;
    /** Exact mode: per bit, the total weight of the features whose bit is 1 (flushed part). */
    private final long[] ones = new long[SimHash.BITS];
    // Exact mode: byte-lane counters not yet flushed into ones (lane b, byte k: bit 8k + b).
    private long lane0, lane1, lane2, lane3, lane4, lane5, lane6, lane7;
    /** Weight added to the lanes since they were last flushed (at most LANE_CAPACITY). */
    private int laneWeight;
    /** Exact mode: total weight W added. */
    private long totalWeight;
    private boolean exact = true;
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
        count++;
        if (!exact) {
            addDouble(featureHash, weight);
            return;
        }
        int small = (int) weight;
        if (small == weight && small <= LANE_CAPACITY && totalWeight <= MAX_EXACT_TOTAL - LANE_CAPACITY) {
            addToLanes(featureHash, small);
            return;
        }
        addRare(featureHash, weight);
    }

    /** Exact mode, a weight that is not a small integer or a total near 2^53: long counts, or leave exact mode. */
    private void addRare(long featureHash, double weight) {
        long integral = (long) weight;
        if (integral == weight && integral <= MAX_EXACT_TOTAL - totalWeight) {
            addToCounts(featureHash, integral);
            return;
        }
        switchToDoubles();
        addDouble(featureHash, weight);
    }

    private void addToLanes(long h, int weight) {
        if (laneWeight + weight > LANE_CAPACITY) {
            flushLanes();
        }
        laneWeight += weight;
        totalWeight += weight;
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

    /** A large integer weight (> 255): straight into the long counts, exact as long as W <= 2^53. */
    private void addToCounts(long h, long weight) {
        totalWeight += weight;
        long[] o = ones;
        for (int i = 0; i < SimHash.BITS; i++) {
            o[i] += weight & -((h >>> i) & 1L);
        }
    }

    private void flushLanes() {
        if (laneWeight == 0) {
            return;
        }
        flushLane(lane0, 0);
        flushLane(lane1, 1);
        flushLane(lane2, 2);
        flushLane(lane3, 3);
        flushLane(lane4, 4);
        flushLane(lane5, 5);
        flushLane(lane6, 6);
        flushLane(lane7, 7);
        lane0 = lane1 = lane2 = lane3 = lane4 = lane5 = lane6 = lane7 = 0;
        laneWeight = 0;
    }

    private void flushLane(long lane, int b) {
        long[] o = ones;
        for (int k = 0; k < 8; k++) {
            o[8 * k + b] += (lane >>> (8 * k)) & 0xFF;
        }
    }

    /** Leaves exact mode: every double sum so far is exactly the integer 2 P_i - W (|2 P_i - W| <= W <= 2^53). */
    private void switchToDoubles() {
        flushLanes();
        if (sums == null) {
            sums = new double[SimHash.BITS];
        }
        for (int i = 0; i < SimHash.BITS; i++) {
            sums[i] = (double) (2 * ones[i] - totalWeight);
        }
        exact = false;
    }

    private void addDouble(long featureHash, double weight) {
        double[] s = sums;
        // Adds +w where the bit is 1 and -w where it is 0. -w is w with its sign bit flipped, so the sign
        // is set by XOR-ing bit i of ~hash into the sign bit: the very same additions as "+w / -w" (bit for
        // bit), without the long-to-double conversion and multiplication per bit.
        long weightBits = Double.doubleToRawLongBits(weight);
        long zeros = ~featureHash;
        for (int i = 0; i < SimHash.BITS; i++) {
            s[i] += Double.longBitsToDouble(weightBits ^ (((zeros >>> i) & 1L) << 63));
        }
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
        if (exact) {
            flushLanes();
            long total = totalWeight;
            for (int i = 0; i < SimHash.BITS; i++) {
                if (2 * ones[i] > total) {
                    fp |= 1L << i;
                }
            }
        } else {
            for (int i = 0; i < SimHash.BITS; i++) {
                if (sums[i] > 0) {
                    fp |= 1L << i;
                }
            }
        }
        return fp;
    }

    /** Clears all sums so the accumulator can fingerprint another document. */
    public void reset() {
        // sums need no clearing: leaving exact mode overwrites all of them
        Arrays.fill(ones, 0);
        lane0 = lane1 = lane2 = lane3 = lane4 = lane5 = lane6 = lane7 = 0;
        laneWeight = 0;
        totalWeight = 0;
        exact = true;
        count = 0;
    }
}
