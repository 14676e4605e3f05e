package dev.simhash.core;

import java.util.Arrays;

/**
 * Step 4 of simhash-v1: adds {@code +w} to bit i's sum when bit i of a feature hash is 1 and
 * {@code -w} when it is 0; the fingerprint's bit i is 1 iff that sum is strictly positive. The sums
 * are the double sums of the contract, added in the order of the {@link #add} calls, and the
 * fingerprint is bit for bit the one those sums give; they are just rarely computed that way.
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
 * which is kept at most 255 (and at most what keeps {@code W <= 2^53}), so no counter carries into
 * its neighbour; the lanes are emptied into 64 long counts before that bound would be passed, and
 * before the fingerprint is read. Larger integer weights go straight into the long counts.
 *
 * <p><b>Weight-class mode.</b> The first weight that is not such an integer (e.g. {@code 1 + ln 2}
 * of log_tf), or that would take the integer total over 2<sup>53</sup>, starts it. The contract's
 * sums at that moment are exactly the integers {@code 2 P_i - W} (above): the replay base. From then
 * on {@link #add} only records the add (hash and weight, in call order); the record is counted batch
 * by batch ({@value #BATCH} adds, and what is left when the fingerprint is read), and since all
 * counts are exact integers, in any order:
 * <ul>
 * <li>an integer weight that keeps the integer total {@code W_int} at most 2<sup>53</sup> goes on
 * into the integer counts exactly as in exact mode (1.0, most of log_tf's weights, for a whole batch
 * in one masked loop without a branch per add); {@code P_i} and {@code W_int} are then the integer
 * features' weights, before and in class mode;</li>
 * <li>any other weight value in [2<sup>-900</sup>, 2<sup>900</sup>] is a "class" {@code c} (looked
 * up by its bits): per class, byte lanes of unit counters (flushed into int counts before a counter
 * would pass 255) give {@code P_ci}, the number of its features whose bit i is 1, and {@code N_c},
 * its number of features (the "hot" value, that of the largest class of the previous batch or
 * document, in log_tf {@code 1 + ln 2}, is counted for a whole batch in one masked loop too);</li>
 * <li>a value found when {@value #MAX_CLASSES} classes are taken (log_tf's rare high tf values in a
 * long document), or when at least 8 classes hold at most twice as many features (see double mode),
 * makes a "loose" feature: its {@code +-w} go straight into 64 double sums {@code L_i} (q loose
 * features, summed in call order).</li>
 * </ul>
 * The exact real sum of bit i is then {@code S_i = I_i + sum_c w_c k_ci + (the exact sum of the
 * loose +-w)} with {@code I_i = 2 P_i - W_int} and {@code k_ci = 2 P_ci - N_c} (integers). With
 * {@code u = 2^-53}, {@code gamma_k = k u / (1 - k u)}, n the number of adds, m of classes, and
 * {@code W} the exact real sum of all n weights (Higham, Accuracy and Stability of Numerical
 * Algorithms, 2nd ed., sec. 3.1 and 4.2; a recursive sum of k terms in any order is within
 * {@code gamma_(k-1)} times the sum of their magnitudes of the exact sum), the contract's sum, a
 * recursive sum of n terms {@code +-w}, is within {@code gamma_(n-1) W} of {@code S_i}. The
 * fingerprint decides each bit in up to three steps:
 * <ol>
 * <li><i>Fixed point, all bits.</i> Let e be the exponent of the largest class weight, {@code s =
 * 15 - e} and {@code a_c = round(w_c 2^s)}, so {@code 0 <= a_c <= 2^16} and {@code |w_c - a_c
 * 2^-s| <= 2^-(s+1)}. For the classes whose counts are all still in their lanes (at most 255
 * features: the "fixed" classes), {@code A_i = sum_c a_c P_ci} and {@code C = sum_c a_c N_c} are
 * computed exactly in integers (two 32-bit fields per word: each field sums at most 32 products
 * {@code P_ci a_c < 2^24}), and {@code D_i = (2 A_i - C) 2^-s} is exact as a double (an integer of
 * magnitude below 2^31 times a power of two within the normal range), and within {@code Q/2} of
 * {@code sum_c w_c k_ci} over the fixed classes, {@code Q = 2^-s N_fix} with {@code N_fix} their
 * features. The estimate {@code X_i} is the recursive sum of {@code I_i}, {@code D_i}, the rounded
 * products {@code fl(w_c k_ci)} of the f other classes and the computed {@code L_i}: within
 * {@code Q/2 + gamma_(n+q+f+2) (W + Q)} of the contract's sum (by {@code gamma_a + gamma_b +
 * gamma_a gamma_b <= gamma_(a+b)} and {@code u <= gamma_1}). It is compared with {@code fl(Q + T)}
 * ({@code Q} is exact: an integer below 2^31 times {@code 2^-s}), T below: that is at least
 * {@code Q (1 - u) + T (1 - u)}, and each part is more than its part of the bound ({@code f <= m},
 * and {@code T (1 - u)} is more than seven times {@code gamma_(n+m+q+2) W}). So {@code X_i} above it
 * gives a contract sum {@code > 0}, bit 1; below minus it, bit 0.</li>
 * <li><i>Doubles, the bits left.</i> {@code S'_i} = the recursive sum of {@code I_i} (exact), the m
 * rounded products {@code fl(w_c k_ci)} ({@code k_ci} exact) in class order and the computed
 * {@code L_i}, is within {@code (u + gamma_(q-1) + gamma_(m+1) (1 + gamma_q)) W <= gamma_(m+q+1) W}
 * of {@code S_i}, so within {@code gamma_(n+m+q) W} of the contract's sum. {@code W' = W_int +
 * sum_c fl(w_c N_c) + (the loose weights summed)}, computed the same way, is within {@code
 * gamma_(m+q+1) W} of {@code W}. The threshold {@code T = fl(fl(W' (n + m + q + 2)) 2^-50)} is at
 * least {@code 8 (n + m + q + 2) u W' (1 - u)} (the scaling by 2^-50 is exact); with {@code n + m + q
 * <= 2^33}, {@code gamma_k <= k u (1 + 2^-19)}, so T is more than seven times {@code gamma_(n+m+q+2)
 * W}. {@code S'_i > T} gives a contract sum {@code > 0}, bit 1; {@code S'_i < -T} bit 0.</li>
 * <li><i>Replay, the bits still left</i> (near-ties, exact ties): the recorded adds are replayed onto
 * the replay base with the contract's own double additions, in order: exact by definition.</li>
 * </ol>
 * The bounds rely on no overflow and no underflow: class weights outside [2<sup>-900</sup>,
 * 2<sup>900</sup>] leave for double mode, so every product {@code fl(w_c k_ci)} with {@code k_ci !=
 * 0} is a normal double, {@code 2^-s} is a normal power of two, every sum stays below 2<sup>940</sup>
 * (n < 2<sup>31</sup>), and T is a normal double (additions are exact when their result is
 * subnormal, so they need no guard; a class weight that {@code 2^s} takes below the normal range has
 * {@code a_c = 0}, still within {@code 2^-(s+1)}).
 *
 * <p><b>Double mode.</b> A class weight outside that range, more than {@value #FREE_LOOSE} loose
 * features that are also over an eighth of all adds, a new weight value when at least 8 classes hold
 * at most twice as many features (IDF-like weights, nearly all different; log_tf's 1 + ln 2 alone
 * has about half of a document's non-integer weights), or more than {@value #MAX_RECORDED} adds
 * since the replay base switch to the double sums of the contract: each
 * sum starts at the exact {@code 2 P_i - W} of exact mode, the recorded adds are replayed onto it in
 * order, and from then on the weights are added as doubles, one addition per bit in call order,
 * exactly as the contract's loop does. All modes are checked against the naive definition in the
 * tests (SimHashAccumulatorIdentityTest).
 */
public final class SimHashAccumulator {

    /** Largest total integer weight for which every partial sum is exactly a double. */
    static final long MAX_EXACT_TOTAL = 1L << 53;
    /** Largest weight a byte-lane counter can take between two flushes. */
    static final int LANE_CAPACITY = 255;
    /**
     * Most classes (distinct weight values other than the integers counted exactly) per document in class mode; further values
     * are loose features. At most 32: the fixed-point estimate sums this many products in 32-bit fields.
     */
    static final int MAX_CLASSES = 32;
    /** Loose features allowed before double mode is considered (then: when they are over an eighth of all adds). */
    static final int FREE_LOOSE = 16;
    /** Most adds recorded for the replay (16 bytes each) before double mode. */
    static final int MAX_RECORDED = 1 << 20;
    /** Record arrays longer than this are dropped by reset(), so one huge document does not pin memory. */
    private static final int KEPT_RECORDED = 1 << 12;
    private static final int INITIAL_RECORDED = 256;
    /** Class weights outside [MIN, MAX] go to double mode: the error bound assumes no overflow or underflow. */
    static final double MIN_CLASS_WEIGHT = 0x1p-900;
    static final double MAX_CLASS_WEIGHT = 0x1p900;
    /** Open-addressed slots of the class lookup (load at most 1/4: a weight is nearly always in its first slot). */
    private static final int SLOTS = 4 * MAX_CLASSES;
    private static final int SLOT_SHIFT = 64 - Integer.numberOfTrailingZeros(SLOTS);
    /** Class mode: adds recorded before they are counted, batch by batch (at most LANE_CAPACITY: a batch fits in byte lanes). */
    private static final int BATCH = 240;
    private static final long ONE_BITS = 0x3FF0000000000000L; // 1.0
    /** Undecided bits up to this many are replayed one by one, more in one pass over all 64 bits. */
    private static final int REPLAY_ONE_BY_ONE = 8;
    private static final long LANE_ONES = 0x0101010101010101L;
    /** Never the raw bits of a valid (positive, finite) weight: a NaN pattern with the sign bit. */
    private static final long NO_BITS = -1L;

    private static final int EXACT = 0;
    private static final int CLASSES = 1;
    private static final int DOUBLES = 2;
    private int mode = EXACT;

    /** Double mode: the contract's per-bit sums, allocated when first needed. Only valid in double mode. */
    private double[] sums;
    /**
     * Exact and class mode: per bit, the total integer weight of the features whose bit is 1 (flushed part), in lane order:
     * bit {@code 8k + b} at {@code 8b + k} (see {@link #bitOf}), so that a lane's eight bytes land side by side.
     */
    private final long[] ones = new long[SimHash.BITS];
    // Byte-lane counters not yet flushed into ones (lane b, byte k: bit 8k + b).
    private long lane0, lane1, lane2, lane3, lane4, lane5, lane6, lane7;
    /** Weight added to the lanes since they were last flushed (at most laneLimit). */
    private int laneWeight;
    /** Most weight the lanes take before a flush: LANE_CAPACITY, less when totalWeight is within that of 2^53. */
    private int laneLimit = LANE_CAPACITY;
    /** Integer weight counted in ones; W_int = totalWeight + laneWeight <= 2^53. */
    private long totalWeight;
    /** The adds, except those in the record (class mode: count + recorded). */
    private int count;

    // Class mode: per class c (0 <= c < classes), allocated when first needed.
    private int classes;
    private double[] classWeight;
    /** N_c: features of class c. */
    private int[] classSize;
    /** Byte lanes of unit counters, 8 per class: lane b of class c at 8c + b (holding N_c - classFlushed[c] <= LANE_CAPACITY features). */
    private long[] classLanes;
    /** N_c when the lanes of class c were last flushed into classOnes. */
    private int[] classFlushed;
    /**
     * P_ci (flushed part) in lane order: count of bit {@code 8k + b} of class c at {@code 64c + 8b + k}, so that a lane's
     * eight bytes land side by side (the estimate loops run over this order). Non-zero only where classFlushed[c] > 0.
     */
    private int[] classOnes;
    private int[] classSlot;
    /** Lookup, open addressing on the weight's bits: the bits per slot (NO_BITS when free) and their class. */
    private long[] slotBits;
    private int[] slotClass;
    /** Class mode: the +-w of the loose features (weight values found when all classes were taken), as doubles. */
    private double[] loose;
    private int looseCount;
    /** The loose weights summed in doubles, in call order. */
    private double looseTotal;

    /** Class mode: the counts when class mode began (ones and totalWeight), whose 2 P_i - W are the contract's sums then. */
    private final long[] replayOnes = new long[SimHash.BITS];
    private long replayTotal;
    private long[] recordedHashes;
    /** The weights recorded, as their raw bits (the batch loops compare and mask them as longs). */
    private long[] recordedWeights;
    /** Class mode: the adds since it began, recorded in call order (0 in the other modes). */
    private int recorded;
    /** Class mode: the record before this index is in the counts; the rest is the current batch. */
    private int processed;
    /** Class mode: add() hands the batch over when the record reaches this index (0 in double mode: every add does). */
    private int batchEnd;

    /**
     * The bits of the weight counted like 1.0 in a batch, straight into its class: that of the largest class so far (in
     * log_tf 1 + ln 2), kept from one document to the next; never a valid weight's (+infinity) until there is one.
     */
    private long hotBits = NO_HOT;
    /** +infinity: never a valid weight's bits. */
    private static final long NO_HOT = 0x7FF0000000000000L;
    /** The byte lanes countMatching fills. */
    private final long[] unitLanes = new long[8];
    private double[] scratch;
    /** The fixed-point estimate's sums: two 32-bit fields per word (see classFingerprint). */
    private long[] fieldSums;
    /** Bytes 0 and 4 of a word: two 32-bit fields. */
    private static final long FIELD_BYTES = 0x000000FF000000FFL;

    /**
     * Adds one weighted feature hash.
     *
     * @throws IllegalArgumentException if the weight is not a positive finite number
     */
    public void add(long featureHash, double weight) {
        if (!valid(weight)) {
            throw invalidWeight(weight);
        }
        if (mode != EXACT) {
            // class mode: only the record here (it counts the adds too), the counts come batch by batch (processBatch)
            int r = recorded;
            if (r == batchEnd) {
                addAtBatchEnd(featureHash, weight);
                return;
            }
            recordedHashes[r] = featureHash;
            recordedWeights[r] = Double.doubleToRawLongBits(weight);
            recorded = r + 1;
            return;
        }
        count++;
        int small = (int) weight;
        int filled = laneWeight + small;
        if (small == weight && small <= LANE_CAPACITY && filled <= laneLimit) {
            laneWeight = filled;
            addToLanes(featureHash, small);
            return;
        }
        addRare(featureHash, weight);
    }

    /** A weight is a positive finite number. */
    private static boolean valid(double weight) {
        return weight > 0 && weight <= Double.MAX_VALUE;
    }

    private static IllegalArgumentException invalidWeight(double weight) {
        return new IllegalArgumentException("feature weight must be a positive finite number, got [" + weight + "]");
    }

    /** Class mode, the record at batchEnd: the batch into the counts, then this add recorded; double mode: the double sums. */
    private void addAtBatchEnd(long featureHash, double weight) {
        if (mode == CLASSES) {
            processBatch();
            int r = recorded;
            if (mode == CLASSES && (r < recordedHashes.length || growRecord(r + 1))) {
                batchEnd = Math.min(r + BATCH, recordedHashes.length);
                recordedHashes[r] = featureHash;
                recordedWeights[r] = Double.doubleToRawLongBits(weight);
                recorded = r + 1;
                return;
            }
            if (mode == CLASSES) {
                // the record is full: the contract's sums from the record, then this add as a double
                switchToDoubles();
            }
        }
        count++;
        addDouble(featureHash, weight);
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
        if (!(weight >= MIN_CLASS_WEIGHT && weight <= MAX_CLASS_WEIGHT)) {
            switchToDoubles();
            addDouble(featureHash, weight);
            return;
        }
        startClasses();
        count--; // from here on the record counts this add
        recordedHashes[0] = featureHash;
        recordedWeights[0] = Double.doubleToRawLongBits(weight);
        recorded = 1;
    }

    /**
     * Class mode: the adds of the current batch (the record from {@code processed} on) into the counts, in any order (the
     * counts are exact): the weights 1.0 (most of log_tf's) into the integer lanes and the hot weight into its class, each in
     * one masked loop over the batch (countMatching: no branch on the weight, which in random order would be mispredicted a
     * third of the time), then the others one by one (addRest).
     */
    private void processBatch() {
        int from = processed;
        int to = recorded;
        processed = to;
        long[] hs = recordedHashes;
        long[] ws = recordedWeights;
        if (totalWeight + laneWeight > MAX_EXACT_TOTAL - (long) LANE_CAPACITY * (to - from + 1)) {
            // near 2^53 the lanes may take less than LANE_CAPACITY: one by one
            for (int j = from; j < to; j++) {
                if (!addRecorded(hs[j], Double.longBitsToDouble(ws[j]))) {
                    return;
                }
            }
            return;
        }
        // the weights 1.0 to the integer lanes, the hot weight to its class, each in a loop over the batch without a branch
        // on the weight (the JIT makes them vector loops)
        if (laneWeight + (to - from) > LANE_CAPACITY) {
            flushLanes(); // laneLimit stays LANE_CAPACITY (checked above)
        }
        laneWeight += countMatching(hs, ws, from, to, ONE_BITS);
        addLanes(unitLanes);
        long hot = hotBits;
        if (hot != NO_HOT && hot != ONE_BITS) { // (1.0 is a class only near 2^53, and counted above)
            int n = countMatching(hs, ws, from, to, hot);
            int c = n == 0 ? -1 : classOf(Double.longBitsToDouble(hot), hot);
            if (c >= 0) {
                addToClassLanes(c, n, unitLanes);
            } else {
                hot = ONE_BITS; // none, or no class left: addRest takes them
            }
        }
        // the others, in call order
        if (addRest(from, to, hot)) {
            updateHot();
        }
    }

    /**
     * Class mode: how many adds among from..to-1 (at most BATCH) have the weight bits {@code key}; their byte lanes in
     * unitLanes (lane b, byte k: how many of their hashes have bit 8k + b set). Every hash is masked to 0 unless its weight
     * matches: no branch, and the JIT makes it a vector loop.
     */
    private int countMatching(long[] hs, long[] ws, int from, int to, long key) {
        long a0 = 0, a1 = 0, a2 = 0, a3 = 0, a4 = 0, a5 = 0, a6 = 0, a7 = 0;
        long n = 0;
        for (int j = from; j < to; j++) {
            // 1 if the weight bits are key, else 0: both are >= 0 (positive doubles), so their XOR is >= 0, and 0 iff equal
            long match = ((ws[j] ^ key) - 1) >>> 63;
            long h = hs[j] & -match;
            n += match;
            a0 += h & LANE_ONES;
            a1 += (h >>> 1) & LANE_ONES;
            a2 += (h >>> 2) & LANE_ONES;
            a3 += (h >>> 3) & LANE_ONES;
            a4 += (h >>> 4) & LANE_ONES;
            a5 += (h >>> 5) & LANE_ONES;
            a6 += (h >>> 6) & LANE_ONES;
            a7 += (h >>> 7) & LANE_ONES;
        }
        long[] u = unitLanes;
        u[0] = a0;
        u[1] = a1;
        u[2] = a2;
        u[3] = a3;
        u[4] = a4;
        u[5] = a5;
        u[6] = a6;
        u[7] = a7;
        return (int) n;
    }

    /** Adds byte lanes to the integer lanes (the caller has accounted for their weight in laneWeight). */
    private void addLanes(long[] u) {
        lane0 += u[0];
        lane1 += u[1];
        lane2 += u[2];
        lane3 += u[3];
        lane4 += u[4];
        lane5 += u[5];
        lane6 += u[6];
        lane7 += u[7];
    }

    /** Adds byte lanes of n features to the lanes of class c, flushed first if they would hold more than LANE_CAPACITY. */
    private void addToClassLanes(int c, int n, long[] u) {
        if (classSize[c] - classFlushed[c] + n > LANE_CAPACITY) {
            flushClass(c);
        }
        classSize[c] += n;
        long[] l = classLanes;
        int base = c << 3;
        for (int b = 0; b < 8; b++) {
            l[base + b] += u[b];
        }
    }

    /** The hot weight for the next batch: the weight of the largest class so far (kept for the next document too). */
    private void updateHot() {
        int best = -1;
        int size = 0;
        for (int c = 0; c < classes; c++) {
            if (classSize[c] > size) {
                size = classSize[c];
                best = c;
            }
        }
        if (best >= 0) {
            hotBits = Double.doubleToRawLongBits(classWeight[best]);
        }
    }

    /**
     * The batch's adds of weights other than 1.0 and {@code hot} (in log_tf: all in classes), in call order; false if that
     * ends in double mode. They are found 64 at a time in a bit mask (no branch per add).
     */
    private boolean addRest(int from, int to, long hot) {
        long[] hs = recordedHashes;
        long[] ws = recordedWeights;
        for (int base = from; base < to; base += 64) {
            int end = Math.min(to, base + 64);
            long rest = 0;
            for (int j = base; j < end; j++) {
                long bits = ws[j];
                // 1 unless the weight is 1.0 or the hot one (see countMatching)
                long other = ((((bits ^ ONE_BITS) - 1) >>> 63) | (((bits ^ hot) - 1) >>> 63)) ^ 1;
                rest |= other << (j - base);
            }
            for (; rest != 0; rest &= rest - 1) {
                int j = base + Long.numberOfTrailingZeros(rest);
                long h = hs[j];
                long bits = ws[j];
                int slot = slotOf(bits);
                if (slotBits[slot] == bits) {
                    addToClass(h, slotClass[slot]);
                } else if (!addRecorded(h, Double.longBitsToDouble(bits))) {
                    return false; // double mode
                }
            }
        }
        return true;
    }

    private static int slotOf(long bits) {
        return (int) ((bits * 0x9E3779B97F4A7C15L) >>> SLOT_SHIFT);
    }

    /**
     * Class mode, one recorded add the batch loops do not take: an integer to the lanes or the long counts (while the integer
     * total stays at most 2^53), else its class, a new one, loose, or double mode (then false: the replay has it).
     */
    private boolean addRecorded(long featureHash, double weight) {
        long integral = (long) weight;
        if (integral == weight) {
            if (integral > laneLimit - laneWeight) {
                flushLanes();
            }
            if (integral <= laneLimit) {
                laneWeight += (int) integral;
                addToLanes(featureHash, (int) integral);
                return true;
            }
            if (integral <= MAX_EXACT_TOTAL - totalWeight) {
                addToCounts(featureHash, integral);
                return true;
            }
        }
        if (!(weight >= MIN_CLASS_WEIGHT && weight <= MAX_CLASS_WEIGHT)) {
            switchToDoubles(); // replays this add too
            return false;
        }
        int c = classOf(weight, Double.doubleToRawLongBits(weight));
        if (c >= 0) {
            addToClass(featureHash, c);
            return true;
        }
        return addLoose(featureHash, weight);
    }

    /** A class-mode weight with no class left: its +-w straight into the loose sums, unless loose features abound (false). */
    private boolean addLoose(long featureHash, double weight) {
        int q = looseCount + 1;
        if (q > FREE_LOOSE && q > count() >>> 3 || q == 1 && 2L * classes >= classified()) {
            // loose features abound, or IDF-like weights (the classes hold at most 2 features on average): the double sums
            // cost no more and need no record
            switchToDoubles(); // replays this add too
            return false;
        }
        if (loose == null) {
            loose = new double[SimHash.BITS];
        }
        addDouble(loose, featureHash, weight);
        looseTotal += weight;
        looseCount = q;
        return true;
    }

    /** The features in classes: the sum of N_c. */
    private long classified() {
        long n = 0;
        for (int c = 0; c < classes; c++) {
            n += classSize[c];
        }
        return n;
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

    /** The bit at entry j of lane order: byte k of lane b (j = 8b + k) counts bit 8k + b. */
    private static int bitOf(int j) {
        return ((j & 7) << 3) | (j >>> 3);
    }

    // ---- class mode ----

    /**
     * Enters class mode. The replay base, the contract's sums so far (exactly 2 P_i - W, see exact mode), is kept as its
     * counts (replayOnes, replayTotal) and made only when needed (replayBase).
     */
    private void startClasses() {
        flushLanes();
        System.arraycopy(ones, 0, replayOnes, 0, SimHash.BITS);
        replayTotal = totalWeight;
        if (classWeight == null) {
            classWeight = new double[MAX_CLASSES];
            classSize = new int[MAX_CLASSES];
            classLanes = new long[8 * MAX_CLASSES];
            classOnes = new int[SimHash.BITS * MAX_CLASSES];
            classSlot = new int[MAX_CLASSES];
            slotClass = new int[SLOTS];
            slotBits = new long[SLOTS];
            Arrays.fill(slotBits, NO_BITS);
            classFlushed = new int[MAX_CLASSES];
        }
        if (recordedHashes == null) {
            recordedHashes = new long[INITIAL_RECORDED];
            recordedWeights = new long[INITIAL_RECORDED];
        }
        recorded = 0;
        processed = 0;
        batchEnd = Math.min(BATCH, recordedHashes.length);
        mode = CLASSES;
    }

    /** Makes room for at least {@code adds} recorded adds (at least doubling the record); false beyond MAX_RECORDED. */
    private boolean growRecord(int adds) {
        int length = recordedHashes.length;
        if (adds > MAX_RECORDED) {
            return false;
        }
        if (adds > length) {
            int grown = Math.min(MAX_RECORDED, Math.max(adds, 2 * length));
            recordedHashes = Arrays.copyOf(recordedHashes, grown);
            recordedWeights = Arrays.copyOf(recordedWeights, grown);
        }
        return true;
    }

    /** The class of a weight value (by its bits), a new one if there is room, else -1. */
    private int classOf(double weight, long bits) {
        int slot = slotOf(bits);
        long[] sb = slotBits;
        while (sb[slot] != NO_BITS) {
            if (sb[slot] == bits) {
                return slotClass[slot];
            }
            slot = (slot + 1) & (SLOTS - 1);
        }
        if (classes == MAX_CLASSES || classes >= 8 && 2L * classes >= classified()) {
            // all taken, or IDF-like weights (nearly every add a new value: at least 8 classes of at most 2 features on
            // average): no class (a loose feature, or double mode)
            return -1;
        }
        int c = classes++;
        classWeight[c] = weight;
        classSlot[c] = slot;
        sb[slot] = bits;
        slotClass[slot] = c;
        return c;
    }

    /** One feature of class c: its lanes, flushed first when full (they never hold more than LANE_CAPACITY). */
    private void addToClass(long h, int c) {
        if (classSize[c] - classFlushed[c] == LANE_CAPACITY) {
            flushClass(c);
        }
        long[] l = classLanes;
        int base = c << 3;
        l[base] += h & LANE_ONES;
        l[base + 1] += (h >>> 1) & LANE_ONES;
        l[base + 2] += (h >>> 2) & LANE_ONES;
        l[base + 3] += (h >>> 3) & LANE_ONES;
        l[base + 4] += (h >>> 4) & LANE_ONES;
        l[base + 5] += (h >>> 5) & LANE_ONES;
        l[base + 6] += (h >>> 6) & LANE_ONES;
        l[base + 7] += (h >>> 7) & LANE_ONES;
        classSize[c]++;
    }

    private void flushClass(int c) {
        long[] l = classLanes;
        int[] co = classOnes;
        int base = c << 3;
        for (int b = 0; b < 8; b++) {
            long lane = l[base + b];
            int off = (base + b) << 3; // 64c + 8b
            for (int k = 0; k < 8; k++) {
                co[off + k] += (int) ((lane >>> (8 * k)) & 0xFF);
            }
            l[base + b] = 0;
        }
        classFlushed[c] = classSize[c];
    }

    /** Leaves exact or class mode for the contract's double sums (in class mode: the replay base plus the record). */
    private void switchToDoubles() {
        flushLanes();
        if (sums == null) {
            sums = new double[SimHash.BITS];
        }
        double[] s = sums;
        if (mode == EXACT) {
            for (int j = 0; j < SimHash.BITS; j++) {
                s[bitOf(j)] = (double) (2 * ones[j] - totalWeight);
            }
        } else {
            replayBase(s);
            long[] hs = recordedHashes;
            long[] ws = recordedWeights;
            for (int j = 0, r = recorded; j < r; j++) {
                addDouble(s, hs[j], Double.longBitsToDouble(ws[j]));
            }
        }
        count += recorded;
        recorded = 0;
        processed = 0;
        batchEnd = 0;
        mode = DOUBLES;
    }

    private void addDouble(long featureHash, double weight) {
        addDouble(sums, featureHash, weight);
    }

    private static void addDouble(double[] s, long featureHash, double weight) {
        // Adds +w where the bit is 1 and -w where it is 0. -w is w with its sign bit flipped, so the sign
        // is set by XOR-ing bit i of ~hash into the sign bit: the very same additions as "+w / -w" (bit for
        // bit), without the long-to-double conversion and multiplication per bit.
        long weightBits = Double.doubleToRawLongBits(weight);
        long zeros = ~featureHash;
        for (int i = 0; i < SimHash.BITS; i++) {
            s[i] += Double.longBitsToDouble(weightBits ^ (((zeros >>> i) & 1L) << 63));
        }
    }

    /**
     * {@link #reset()}, then {@link #add} of {@code (hashes[i], weights[i])} for i from 0 to n - 1 in order, then {@link
     * #fingerprint()}: the same fingerprint (every mode is exact, whatever its batches), with the adds of class mode put
     * into the record in bulk rather than one call each, then counted in batches of {@value #BATCH}. The accumulator then
     * holds these adds (more may be added).
     *
     * @throws IllegalArgumentException if a weight is not a positive finite number (then reset before further use)
     * @throws IllegalStateException when n is 0
     */
    public long fingerprint(long[] hashes, double[] weights, int n) {
        reset();
        int i = 0;
        while (i < n && mode == EXACT) {
            add(hashes[i], weights[i]);
            i++;
        }
        if (i < n && mode == CLASSES && recorded == processed + 1 && batchEnd > recorded) {
            // class mode began at the add before: the rest into the record at once, then counted batch by batch as add()
            // would (its batch ends are BATCH apart from the start of the record)
            int rest = n - i;
            int total = recorded + rest;
            if (growRecord(total)) {
                long[] hs = recordedHashes;
                long[] ws = recordedWeights;
                int r = recorded;
                System.arraycopy(hashes, i, hs, r, rest);
                for (int j = 0; j < rest; j++) {
                    double w = weights[i + j];
                    if (!valid(w)) {
                        throw invalidWeight(w);
                    }
                    ws[r + j] = Double.doubleToRawLongBits(w);
                }
                int end = batchEnd;
                while (end < total) {
                    // the record up to the batch end, counted (the add at the batch end is counted with the next batch)
                    recorded = end;
                    processBatch();
                    if (mode != CLASSES) {
                        // double mode: the replay took the record up to end; the other adds as the contract's doubles
                        for (int j = end; j < total; j++) {
                            count++;
                            addDouble(hs[j], Double.longBitsToDouble(ws[j]));
                        }
                        return fingerprint();
                    }
                    end = Math.min(end + BATCH, hs.length);
                }
                recorded = total;
                batchEnd = end;
                return fingerprint();
            }
        }
        for (; i < n; i++) {
            add(hashes[i], weights[i]);
        }
        return fingerprint();
    }

    /** Number of {@link #add} calls since the last reset. */
    public int count() {
        return count + recorded;
    }

    /** True when nothing has been added: such input has no fingerprint. */
    public boolean isEmpty() {
        return count() == 0;
    }

    /**
     * The fingerprint of everything added so far. More features may be added afterwards.
     *
     * @throws IllegalStateException when nothing was added (empty input has no fingerprint, never 0)
     */
    public long fingerprint() {
        if (count() == 0) {
            throw new IllegalStateException("no features: empty input has no fingerprint");
        }
        long fp = 0;
        if (mode == EXACT) {
            flushLanes();
            long total = totalWeight;
            long[] o = ones;
            for (int j = 0; j < SimHash.BITS; j++) {
                // 2 P_i > W without a branch (a coin flip per bit): the sign of W - 2 P_i (|values| <= 2^54, no overflow)
                fp |= ((total - 2 * o[j]) >>> 63) << bitOf(j);
            }
        } else if (mode == CLASSES) {
            fp = classFingerprint();
        } else {
            fp = doubleFingerprint();
        }
        return fp;
    }

    private long doubleFingerprint() {
        long fp = 0;
        for (int i = 0; i < SimHash.BITS; i++) {
            if (sums[i] > 0) {
                fp |= 1L << i;
            }
        }
        return fp;
    }

    /**
     * Class mode: the sign of each S'_i where it is clear of the error bound T, else of the replayed contract sum. The
     * estimate is kept in lane order (entry {@code 8b + k} is bit {@code 8k + b}), the order of the class counts.
     */
    private long classFingerprint() {
        processBatch();
        if (mode == DOUBLES) {
            return doubleFingerprint();
        }
        if (scratch == null) {
            scratch = new double[SimHash.BITS];
            fieldSums = new long[32];
        }
        flushLanes();
        double[] est = scratch;
        long[] o = ones;
        long wInt = totalWeight;
        int m = classes;
        long[] l = classLanes;
        // the fixed-point scale: 2^s with the largest class weight times 2^s below 2^16
        double maxWeight = 0;
        for (int c = 0; c < m; c++) {
            maxWeight = Math.max(maxWeight, classWeight[c]);
        }
        int s = m == 0 ? 0 : 15 - Math.getExponent(maxWeight);
        double scale = Math.scalb(1.0, s);
        double unit = Math.scalb(1.0, -s);
        long[] acc = fieldSums;
        Arrays.fill(acc, 0);
        long fixedTotal = 0; // sum of a_c N_c over the classes counted in fixed point
        long fixedFeatures = 0;
        double total = (double) wInt; // exact
        for (int c = 0; c < m; c++) {
            double w = classWeight[c];
            int n = classSize[c];
            total += w * n;
            if (classFlushed[c] != 0) {
                continue; // counts beyond a byte: below, in doubles
            }
            long a = Math.round(w * scale); // w * 2^s is exact; a < 2^16 + 1
            fixedTotal += a * n;
            fixedFeatures += n;
            int lanes = c << 3;
            for (int b = 0; b < 8; b++) {
                long lane = l[lanes + b];
                int f = b << 2;
                // 32-bit fields: bytes k and k + 4 of the lane (k = 0..3), each times a, summed over at most MAX_CLASSES
                // classes: below 2^8 * 2^17 * 2^5 = 2^30, no carry between the fields
                acc[f] += (lane & FIELD_BYTES) * a;
                acc[f + 1] += ((lane >>> 8) & FIELD_BYTES) * a;
                acc[f + 2] += ((lane >>> 16) & FIELD_BYTES) * a;
                acc[f + 3] += ((lane >>> 24) & FIELD_BYTES) * a;
            }
        }
        for (int b = 0; b < 8; b++) {
            int f = b << 2;
            int j = b << 3;
            for (int k = 0; k < 4; k++) {
                long both = acc[f + k];
                // I_i exact; (2 A_i - fixedTotal) 2^-s exact (an integer below 2^53 times a power of 2): one rounding
                est[j + k] = (double) (2 * o[j + k] - wInt) + (double) (2 * (both & 0xFFFFFFFFL) - fixedTotal) * unit;
                est[j + k + 4] = (double) (2 * o[j + k + 4] - wInt) + (double) (2 * (both >>> 32) - fixedTotal) * unit;
            }
        }
        int[] co = classOnes;
        for (int c = 0; c < m; c++) {
            if (classFlushed[c] != 0) {
                double w = classWeight[c];
                int n = classSize[c];
                int off = c * SimHash.BITS;
                int lanes = c << 3;
                for (int b = 0; b < 8; b++) {
                    long lane = l[lanes + b];
                    for (int k = 0; k < 8; k++) {
                        est[8 * b + k] += w * (double) (2 * (co[off + 8 * b + k] + (int) ((lane >>> (8 * k)) & 0xFF)) - n);
                    }
                }
            }
        }
        int q = looseCount;
        if (q > 0) {
            double[] lo = loose;
            for (int j = 0; j < SimHash.BITS; j++) {
                est[j] += lo[bitOf(j)];
            }
            total += looseTotal;
        }
        double t = total * ((double) count() + m + q + 2) * 0x1p-50;
        double coarse = fixedFeatures * unit + t; // 2^-s N per feature in fixed point: twice the rounding of the a_c
        long over = 0;
        long under = 0;
        for (int j = 0; j < SimHash.BITS; j++) {
            double e = est[j];
            int i = bitOf(j);
            over |= (Double.doubleToRawLongBits(coarse - e) >>> 63) << i;
            under |= (Double.doubleToRawLongBits(e + coarse) >>> 63) << i;
        }
        long undecided = ~(over | under);
        if (undecided == 0) {
            return over;
        }
        // near 0: the estimate in doubles as before, bit by bit, and then the replay
        long exactUndecided = 0;
        for (long left = undecided; left != 0; left &= left - 1) {
            int i = Long.numberOfTrailingZeros(left);
            double e = preciseEstimate(i);
            if (e > t) {
                over |= 1L << i;
            } else if (!(e < -t)) {
                exactUndecided |= 1L << i;
            }
        }
        return exactUndecided == 0 ? over : over | replay(exactUndecided);
    }

    /** S'_i of bit i: I_i, then each class's rounded product in class order, then the loose sum, each addition rounded. */
    private double preciseEstimate(int i) {
        int j = ((i & 7) << 3) | (i >>> 3); // lane order: bit 8k + b at 8b + k
        int b = i & 7;
        int k = i >>> 3;
        double e = (double) (2 * ones[j] - totalWeight);
        for (int c = 0, m = classes; c < m; c++) {
            int p = (int) ((classLanes[(c << 3) + b] >>> (8 * k)) & 0xFF) + (classFlushed[c] != 0 ? classOnes[c * SimHash.BITS + j] : 0);
            e += classWeight[c] * (double) (2 * p - classSize[c]);
        }
        if (looseCount > 0) {
            e += loose[i];
        }
        return e;
    }

    /** The contract's sums when class mode began, bit i at s[i]: exactly 2 P_i - W (see exact mode). */
    private void replayBase(double[] s) {
        for (int j = 0; j < SimHash.BITS; j++) {
            s[bitOf(j)] = (double) (2 * replayOnes[j] - replayTotal);
        }
    }

    /** The bits among {@code which} whose contract sum, replayed from the record in call order, is > 0. */
    private long replay(long which) {
        long[] hs = recordedHashes;
        long[] ws = recordedWeights;
        int r = recorded;
        long fp = 0;
        if (Long.bitCount(which) > REPLAY_ONE_BY_ONE) {
            double[] s = scratch;
            replayBase(s);
            for (int j = 0; j < r; j++) {
                addDouble(s, hs[j], Double.longBitsToDouble(ws[j]));
            }
            for (int i = 0; i < SimHash.BITS; i++) {
                if (s[i] > 0) {
                    fp |= 1L << i;
                }
            }
            return fp & which;
        }
        for (long left = which; left != 0; left &= left - 1) {
            int i = Long.numberOfTrailingZeros(left);
            double s = (double) (2 * replayOnes[bitOf(i)] - replayTotal); // bitOf is its own inverse
            for (int j = 0; j < r; j++) {
                // the same addition as in addDouble: +w if bit i of the hash is 1, else -w
                s += Double.longBitsToDouble(ws[j] ^ (((~hs[j] >>> i) & 1L) << 63));
            }
            if (s > 0) {
                fp |= 1L << i;
            }
        }
        return fp;
    }

    /** Clears all sums so the accumulator can fingerprint another document. */
    public void reset() {
        // sums and the replay base need no clearing: entering their mode overwrites all of them
        Arrays.fill(ones, 0);
        lane0 = lane1 = lane2 = lane3 = lane4 = lane5 = lane6 = lane7 = 0;
        laneWeight = 0;
        laneLimit = LANE_CAPACITY;
        totalWeight = 0;
        int m = classes;
        if (m > 0) {
            for (int c = 0; c < m; c++) {
                slotBits[classSlot[c]] = NO_BITS;
                if (classFlushed[c] > 0) {
                    // only classes whose lanes were ever flushed have counts to clear
                    Arrays.fill(classOnes, c * SimHash.BITS, (c + 1) * SimHash.BITS, 0);
                    classFlushed[c] = 0;
                }
            }
            Arrays.fill(classSize, 0, m, 0);
            Arrays.fill(classLanes, 0, 8 * m, 0);
            classes = 0;
        }
        processed = 0;
        batchEnd = 0;
        if (looseCount > 0) {
            Arrays.fill(loose, 0);
            looseCount = 0;
            looseTotal = 0;
        }
        if (recordedHashes != null && recordedHashes.length > KEPT_RECORDED) {
            recordedHashes = new long[INITIAL_RECORDED];
            recordedWeights = new long[INITIAL_RECORDED];
        }
        recorded = 0;
        mode = EXACT;
        count = 0;
    }
}
