package dev.simhash.core;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
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
 * which is kept at most 255, so no counter carries into its neighbour; the lanes are emptied into
 * 64 long counts before that bound would be passed, and before the fingerprint is read.
 *
 * <p><b>Weight-class mode.</b> The first weight that is not such an integer (e.g. {@code 1 + ln 2}
 * of log_tf), or that would take the integer total over 2<sup>53</sup>, starts it. The contract's
 * sums at that moment are exactly the integers {@code 2 P_i - W} (above); they are kept as the
 * replay base, and the integer counts stay as they are. From then on every add is also recorded
 * (hash and weight, in order), and every weight value, integer or not, is a "class" {@code c} (looked
 * up by its bits; one path for all, so a mix of 1.0 and 1 + ln 2 costs no mispredicted branches):
 * per class, byte lanes of unit counters (flushed into int counts) give {@code P_ci}, the number of its features whose bit i is 1, and {@code N_c}, its number of
 * features. The exact real sum of bit i is then {@code S_i = I_i + sum_c w_c k_ci} with
 * {@code I_i = 2 P_i - W_int} and {@code k_ci = 2 P_ci - N_c} (integers). At most
 * {@value #MAX_CLASSES} classes are kept; a weight value found when all are taken (log_tf's rare high
 * tf values in a long document) makes a "loose" feature: its {@code +-w} go straight into 64 double
 * sums {@code L_i} (q features, in call order), and {@code S_i} also has the exact sum of those
 * {@code +-w}. The fingerprint computes {@code S'_i} = that expression in doubles ({@code I_i} and
 * {@code k_ci} exactly, one rounded product per class, m rounded additions, then the computed
 * {@code L_i} added last) and compares it with a threshold {@code T}:
 * <ul>
 * <li>With {@code u = 2^-53}, {@code gamma_k = k u / (1 - k u)} and {@code W} the exact real sum of
 * all n weights added (Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed., sec. 3.1 and
 * 4.2): the contract's sum, a recursive sum of n terms {@code +-w}, is within {@code gamma_(n-1) W}
 * of {@code S_i}; {@code S'_i} (m class products, each off by at most a factor {@code 1 + u}, and a
 * recursive sum of m + 2 terms whose last, {@code L_i}, is itself a recursive sum of q terms) is within
 * {@code (u + gamma_(q-1) + gamma_(m+1) (1 + gamma_q)) W <= gamma_(m+q+1) W} of {@code S_i} (by
 * {@code gamma_a + gamma_b + gamma_a gamma_b <= gamma_(a+b)} and {@code u <= gamma_1}).</li>
 * <li>{@code W' = W_int + sum_c fl(w_c N_c) + (the loose weights summed)}, computed the same way, is
 * within {@code gamma_(m+q+1) W} of {@code W}. With {@code n + m + q <= 2^33},
 * {@code gamma_k <= k u (1 + 2^-19)}, so
 * {@code (gamma_(n-1) + gamma_(m+q+1)) W <= (n + m + q) 2^-53 W' (1 + 2^-17)}. The threshold used is
 * {@code T = fl(fl(W' (n + m + q + 2)) 2^-50)}, at least {@code 8 (n + m + q) 2^-53 W' (1 - 2u)}: more
 * than seven times that bound.</li>
 * <li>So {@code S'_i > T} implies {@code S_i > gamma_(n-1) W}, the contract's sum is {@code > 0}
 * and the bit is 1; {@code S'_i < -T} gives a negative contract sum, bit 0.</li>
 * <li>Any other bit (near-ties, exact ties) is decided by replaying the recorded adds onto the
 * replay base with the contract's own double additions, in order: exact by definition.</li>
 * </ul>
 * The bound relies on no overflow and no underflow of products: class weights outside
 * [2<sup>-900</sup>, 2<sup>900</sup>] leave for double mode, so every product {@code fl(w_c k_ci)}
 * with {@code k_ci != 0} is a normal double, every sum stays below 2<sup>940</sup> (n < 2<sup>31</sup>), and {@code T}
 * is a normal double (additions are exact when their result is subnormal, so they need no guard).
 *
 * <p><b>Double mode.</b> A new weight value when at least 8 classes hold at most half as many features
 * (nearly every add brings a new value), a loose feature among the first {@code 4 * MAX_CLASSES} adds, or more than
 * {@value #FREE_LOOSE} loose features that are also over an eighth of all adds (e.g. IDF weights, all
 * different), a class weight outside that range, or more than
 * {@value #MAX_RECORDED} adds since the replay base switch to the double sums of the contract: each sum starts at the
 * exact {@code 2 P_i - W} of exact mode, the recorded adds are replayed onto it in order, and from
 * then on the weights are added as doubles, one addition per bit in call order, exactly as the
 * contract's loop does. All modes are checked against the naive definition in the tests
 * (SimHashAccumulatorIdentityTest).
 */
public final class SimHashAccumulator {

    /** Largest total integer weight for which every partial sum is exactly a double. */
    static final long MAX_EXACT_TOTAL = 1L << 53;
    /** Largest weight a byte-lane counter can take between two flushes. */
    static final int LANE_CAPACITY = 255;
    /** Most distinct weight values (classes) per document in class mode; further values are loose features. */
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
    /** Weight added to the lanes since they were last flushed (at most LANE_CAPACITY). */
    private int laneWeight;
    /** Total integer weight W_int counted in ones and the lanes (at most 2^53). */
    private long totalWeight;
    private int count;

    // Class mode: per class c (0 <= c < classes), allocated when first needed.
    private int classes;
    private double[] classWeight;
    /** N_c: features of class c. */
    private int[] classSize;
    /** Features added to class c's lanes since they were flushed (at most LANE_CAPACITY). */
    private int[] classLaneCount;
    /** Byte lanes of unit counters, 8 per class: lane b of class c at 8c + b. */
    private long[] classLanes;
    /**
     * P_ci (flushed part) in lane order: count of bit {@code 8k + b} of class c at {@code 64c + 8b + k}, so that a lane's
     * eight bytes land side by side (the estimate loops run over this order).
     */
    private int[] classOnes;
    /** Classes whose counts in classOnes may be non-zero (bit c for class c; MAX_CLASSES <= 64). */
    private long flushed;
    private int[] classSlot;
    /** Lookup, open addressing on the weight's bits: the bits per slot (NO_BITS when free) and their class. */
    private long[] slotBits;
    private int[] slotClass;
    /** Class mode: the +-w of the loose features (weight values found when all classes were taken), as doubles. */
    private double[] loose;
    private int looseCount;
    /** The loose weights summed in doubles, in call order. */
    private double looseTotal;

    /** Class mode: the contract's sums when class mode began (the exact integers 2 P_i - W). */
    private final double[] replayBase = new double[SimHash.BITS];
    private long[] recordedHashes;
    private double[] recordedWeights;
    private int recorded;
    private double[] scratch;
    private byte[] laneBytes;
    /** Writes a lane's eight bytes into a byte[] in little-endian order: byte k of the lane at offset + k. */
    private static final VarHandle LANE_BYTES = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

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
        int m = mode;
        if (m != EXACT) {
            if (m == DOUBLES) {
                addDouble(featureHash, weight);
                return;
            }
            int r = recorded;
            if (r == recordedHashes.length && !growRecord()) {
                // the record is full: the contract's sums from the record, then this add as a double
                switchToDoubles();
                addDouble(featureHash, weight);
                return;
            }
            recordedHashes[r] = featureHash;
            recordedWeights[r] = weight;
            recorded = r + 1;
            // every weight, integer or not, is a class here: one well-predicted path whatever the mix of weights
            long bits = Double.doubleToRawLongBits(weight);
            int slot = (int) ((bits * 0x9E3779B97F4A7C15L) >>> SLOT_SHIFT);
            if (slotBits[slot] == bits) {
                addToClass(featureHash, slotClass[slot]);
            } else {
                addNewWeight(featureHash, weight, bits);
            }
            return;
        }
        int small = (int) weight;
        if (small == weight && small <= LANE_CAPACITY && totalWeight <= MAX_EXACT_TOTAL - LANE_CAPACITY) {
            addToLanes(featureHash, small);
            return;
        }
        addRare(featureHash, weight);
    }

    /** A weight that is not a small integer, or a total near 2^53: long counts, a class, or double mode. */
    private void addRare(long featureHash, double weight) {
        long integral = (long) weight;
        if (integral == weight && integral <= MAX_EXACT_TOTAL - totalWeight) {
            addToCounts(featureHash, integral);
            return;
        }
        if (!(weight >= MIN_CLASS_WEIGHT && weight <= MAX_CLASS_WEIGHT)) {
            switchToDoubles();
            addDouble(featureHash, weight);
            return;
        }
        startClasses();
        recordedHashes[0] = featureHash;
        recordedWeights[0] = weight;
        recorded = 1;
        addNewWeight(featureHash, weight, Double.doubleToRawLongBits(weight));
    }

    /** Class mode, a weight not found in the first slot it hashes to (this add is recorded already): its class, a new one, loose, or double mode. */
    private void addNewWeight(long featureHash, double weight, long bits) {
        if (!(weight >= MIN_CLASS_WEIGHT && weight <= MAX_CLASS_WEIGHT)) {
            switchToDoubles(); // replays this add too
            return;
        }
        int c = classOf(weight, bits);
        if (c < 0) {
            addLoose(featureHash, weight);
            return;
        }
        addToClass(featureHash, c);
    }

    /** A class-mode weight with no class left: its +-w straight into the loose sums, unless loose features abound. */
    private void addLoose(long featureHash, double weight) {
        int q = looseCount + 1;
        if (count <= 4 * MAX_CLASSES || q > FREE_LOOSE && q > count >>> 3) {
            // e.g. IDF weights, all different (all classes taken within the first 128 adds, or loose features
            // abound): the double sums cost no more and need no record
            switchToDoubles(); // replays this add too
            return;
        }
        if (loose == null) {
            loose = new double[SimHash.BITS];
        }
        addDouble(loose, featureHash, weight);
        looseTotal += weight;
        looseCount = q;
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
        for (int j = 0; j < SimHash.BITS; j++) {
            o[j] += weight & -((h >>> bitOf(j)) & 1L);
        }
    }

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
        laneWeight = 0;
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

    /** Enters class mode: the replay base is the contract's sums so far, exactly 2 P_i - W (see exact mode). */
    private void startClasses() {
        flushLanes();
        for (int j = 0; j < SimHash.BITS; j++) {
            replayBase[bitOf(j)] = (double) (2 * ones[j] - totalWeight);
        }
        if (classWeight == null) {
            classWeight = new double[MAX_CLASSES];
            classSize = new int[MAX_CLASSES];
            classLaneCount = new int[MAX_CLASSES];
            classLanes = new long[8 * MAX_CLASSES];
            classOnes = new int[SimHash.BITS * MAX_CLASSES];
            classSlot = new int[MAX_CLASSES];
            slotClass = new int[SLOTS];
            slotBits = new long[SLOTS];
            Arrays.fill(slotBits, NO_BITS);
        }
        if (recordedHashes == null) {
            recordedHashes = new long[INITIAL_RECORDED];
            recordedWeights = new double[INITIAL_RECORDED];
        }
        recorded = 0;
        mode = CLASSES;
    }

    private boolean growRecord() {
        int length = recordedHashes.length;
        if (length >= MAX_RECORDED) {
            return false;
        }
        int grown = Math.min(MAX_RECORDED, 2 * length);
        recordedHashes = Arrays.copyOf(recordedHashes, grown);
        recordedWeights = Arrays.copyOf(recordedWeights, grown);
        return true;
    }

    /** The class of a weight value (by its bits), a new one if there is room, else -1. */
    private int classOf(double weight, long bits) {
        int slot = (int) ((bits * 0x9E3779B97F4A7C15L) >>> SLOT_SHIFT);
        long[] sb = slotBits;
        while (sb[slot] != NO_BITS) {
            if (sb[slot] == bits) {
                return slotClass[slot];
            }
            slot = (slot + 1) & (SLOTS - 1);
        }
        if (classes == MAX_CLASSES || classes >= 8 && 2 * classes >= count) {
            // all taken, or nearly every add so far brought a new value (IDF-like weights, all different): no class,
            // and since count <= 64 here the loose feature switches to the double sums at once
            return -1;
        }
        int c = classes++;
        classWeight[c] = weight;
        classSlot[c] = slot;
        sb[slot] = bits;
        slotClass[slot] = c;
        return c;
    }

    private void addToClass(long h, int c) {
        long[] l = classLanes;
        int base = c << 3;
        for (int b = 0; b < 8; b++) {
            l[base + b] += (h >>> b) & LANE_ONES;
        }
        classSize[c]++;
        if (++classLaneCount[c] == LANE_CAPACITY) {
            flushClass(c);
        }
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
        classLaneCount[c] = 0;
        flushed |= 1L << c;
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
            System.arraycopy(replayBase, 0, s, 0, SimHash.BITS);
            long[] hs = recordedHashes;
            double[] ws = recordedWeights;
            for (int j = 0, r = recorded; j < r; j++) {
                addDouble(s, hs[j], ws[j]);
            }
        }
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
            for (int i = 0; i < SimHash.BITS; i++) {
                if (sums[i] > 0) {
                    fp |= 1L << i;
                }
            }
        }
        return fp;
    }

    /**
     * Class mode: the sign of each S'_i where it is clear of the error bound T, else of the replayed contract sum. The
     * estimate is kept in lane order (entry {@code 8b + k} is bit {@code 8k + b}), the order of the class counts.
     */
    private long classFingerprint() {
        if (scratch == null) {
            scratch = new double[SimHash.BITS];
            laneBytes = new byte[SimHash.BITS];
        }
        double[] est = scratch;
        long[] o = ones;
        long wInt = totalWeight;
        byte[] lb = laneBytes;
        // the integer part is the exact prefix before class mode (its lanes were flushed when class mode began)
        for (int j = 0; j < SimHash.BITS; j++) {
            est[j] = (double) (2 * o[j] - wInt); // exact: |2 P_i - W_int| <= W_int <= 2^53
        }
        double total = (double) wInt; // exact
        int m = classes;
        int[] co = classOnes;
        long[] l = classLanes;
        for (int c = 0; c < m; c++) {
            double w = classWeight[c];
            int n = classSize[c];
            total += w * n;
            // the lanes not yet flushed, byte k of lane b at 8b + k: P_ci = co + that byte, no flush needed
            for (int b = 0; b < 8; b++) {
                LANE_BYTES.set(lb, 8 * b, l[(c << 3) + b]);
            }
            if ((flushed & (1L << c)) == 0) {
                // never flushed (fewer than 255 features): P_ci is that byte alone
                for (int j = 0; j < SimHash.BITS; j++) {
                    est[j] += w * (double) (2 * (lb[j] & 0xFF) - n); // k_ci exact: |2 P_ci - N_c| <= N_c < 2^31
                }
            } else {
                int off = c * SimHash.BITS;
                for (int j = 0; j < SimHash.BITS; j++) {
                    est[j] += w * (double) (2 * (co[off + j] + (lb[j] & 0xFF)) - n);
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
        double t = total * ((double) count + m + q + 2) * 0x1p-50;
        long over = 0;
        long under = 0;
        for (int j = 0; j < SimHash.BITS; j++) {
            double e = est[j];
            int i = bitOf(j);
            // e > t and e < -t without branches: the sign bits of t - e and e + t. Both are exact in sign: a difference
            // of doubles rounds to 0 only when it is exactly 0 (then +0.0, not negative), never when it is not.
            over |= (Double.doubleToRawLongBits(t - e) >>> 63) << i;
            under |= (Double.doubleToRawLongBits(e + t) >>> 63) << i;
        }
        long undecided = ~(over | under);
        return undecided == 0 ? over : over | replay(undecided);
    }

    /** The bits among {@code which} whose contract sum, replayed from the record in call order, is > 0. */
    private long replay(long which) {
        long[] hs = recordedHashes;
        double[] ws = recordedWeights;
        int r = recorded;
        long fp = 0;
        if (Long.bitCount(which) > REPLAY_ONE_BY_ONE) {
            double[] s = scratch;
            System.arraycopy(replayBase, 0, s, 0, SimHash.BITS);
            for (int j = 0; j < r; j++) {
                addDouble(s, hs[j], ws[j]);
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
            double s = replayBase[i];
            for (int j = 0; j < r; j++) {
                // the same addition as in addDouble: +w if bit i of the hash is 1, else -w
                s += Double.longBitsToDouble(Double.doubleToRawLongBits(ws[j]) ^ (((~hs[j] >>> i) & 1L) << 63));
            }
            if (s > 0) {
                fp |= 1L << i;
            }
        }
        return fp;
    }

    /** Clears all sums so the accumulator can fingerprint another document. */
    public void reset() {
        // sums and replayBase need no clearing: entering their mode overwrites all of them
        Arrays.fill(ones, 0);
        lane0 = lane1 = lane2 = lane3 = lane4 = lane5 = lane6 = lane7 = 0;
        laneWeight = 0;
        totalWeight = 0;
        int m = classes;
        if (m > 0) {
            for (int c = 0; c < m; c++) {
                slotBits[classSlot[c]] = NO_BITS;
            }
            Arrays.fill(classSize, 0, m, 0);
            Arrays.fill(classLaneCount, 0, m, 0);
            Arrays.fill(classLanes, 0, 8 * m, 0);
            // only classes whose lanes were ever flushed have counts to clear (fewer than 255 features: none)
            for (long f = flushed; f != 0; f &= f - 1) {
                int c = Long.numberOfTrailingZeros(f);
                Arrays.fill(classOnes, c * SimHash.BITS, (c + 1) * SimHash.BITS, 0);
            }
            flushed = 0;
            classes = 0;
        }
        if (looseCount > 0) {
            Arrays.fill(loose, 0);
            looseCount = 0;
            looseTotal = 0;
        }
        if (recordedHashes != null && recordedHashes.length > KEPT_RECORDED) {
            recordedHashes = new long[INITIAL_RECORDED];
            recordedWeights = new double[INITIAL_RECORDED];
        }
        recorded = 0;
        mode = EXACT;
        count = 0;
    }
}
