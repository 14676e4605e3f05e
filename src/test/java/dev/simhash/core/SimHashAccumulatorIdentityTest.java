package dev.simhash.core;

import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@link SimHashAccumulator} (exact integer mode, byte lanes, the switch to double sums) gives the
 * very fingerprint of the naive definition ({@link ReferenceSimHash#accumulate}: 64 double sums,
 * +w or -w per bit, in call order) on random inputs built to hit its edges: lane overflow, weights
 * above the lane capacity, totals around 2^53, ties, integer prefixes followed by non-integer
 * weights, and double sums whose sign depends on the order of the additions. The same harness is
 * shown to catch deliberately broken variants of the algorithm (defined here, in the test only).
 */
class SimHashAccumulatorIdentityTest {

    private static final AtomicLong SEEDS = new AtomicLong(Long.getLong("tests.seed", System.nanoTime()));
    /** Reused across all repetitions: every case also checks reset(). */
    private static final SimHashAccumulator SHARED = new SimHashAccumulator();
    private static final long TWO_53 = 1L << 53;

    /** What the harness drives: the production accumulator or a broken variant. */
    interface Acc {
        void add(long hash, double weight);

        long fingerprint();

        void reset();
    }

    /** java.util.Random's first draws are correlated for consecutive seeds: spread them first. */
    static Random random(long seed) {
        long z = seed * 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        return new Random(z ^ (z >>> 31));
    }

    record Input(String kind, long[] hashes, double[] weights) {
        int size() {
            return hashes.length;
        }
    }

    static Acc production(SimHashAccumulator a) {
        return new Acc() {
            @Override
            public void add(long hash, double weight) {
                a.add(hash, weight);
            }

            @Override
            public long fingerprint() {
                return a.fingerprint();
            }

            @Override
            public void reset() {
                a.reset();
            }
        };
    }

    static int randomSize(Random r) {
        return switch (r.nextInt(4)) {
            case 0 -> 1 + r.nextInt(8);
            case 1 -> 1 + r.nextInt(300);
            case 2 -> 1 + r.nextInt(10_000);
            default -> r.nextBoolean() ? 10_000 : 256 + r.nextInt(4) - 2;
        };
    }

    private static final long[] SPECIAL = { 0L, -1L, 1L, Long.MIN_VALUE, 0x5555555555555555L, 0xAAAAAAAAAAAAAAAAL, 0x00000000FFFFFFFFL,
        0x0101010101010101L, 0x8080808080808080L };

    static long[] randomHashes(Random r, int n, StringBuilder kind) {
        long[] h = new long[n];
        int k = r.nextInt(6);
        kind.append("hashes=").append(k);
        long[] pool = new long[1 + r.nextInt(4)];
        for (int i = 0; i < pool.length; i++) {
            pool[i] = r.nextBoolean() ? SPECIAL[r.nextInt(SPECIAL.length)] : r.nextLong();
        }
        for (int i = 0; i < n; i++) {
            h[i] = switch (k) {
                case 0 -> r.nextLong(); // uniform
                case 1 -> pool[r.nextInt(pool.length)]; // few distinct hashes: counters run up fast
                case 2 -> r.nextLong() | r.nextLong() | r.nextLong(); // mostly ones
                case 3 -> r.nextLong() & r.nextLong() & r.nextLong(); // mostly zeros
                case 4 -> (i & 1) == 1 ? ~h[i - 1] : (r.nextBoolean() ? r.nextLong() : pool[0]); // complement pairs: ties
                default -> r.nextInt(50) == 0 ? r.nextLong() : pool[0]; // one hash and rare others
            };
        }
        return h;
    }

    private static final double[] DECIMALS = { 0.1, 0.2, 0.3, 0.7, 1.1, 1e-17, 1.0, 3.0, 1 + Math.log(2), 1 + Math.log(3) };
    private static final double[] BIG = { (double) (TWO_53 >> 1), (double) TWO_53, (double) TWO_53, (double) (TWO_53 - 1), (double) (TWO_53 + 2),
        0x1p54, 0x1p60 };

    static int smallTf(Random r) {
        int tf = 1;
        while (tf < 5000 && r.nextInt(3) == 0) {
            tf += 1 + r.nextInt(tf);
        }
        return tf;
    }

    static double[] randomWeights(Random r, int k, long[] hashes, StringBuilder kind) {
        int n = hashes.length;
        double[] w = new double[n];
        kind.append(" weights=").append(k);
        int switchAt = r.nextInt(n);
        for (int i = 0; i < n; i++) {
            w[i] = switch (k) {
                case 0 -> 1; // binary
                case 1 -> smallTf(r); // tf
                case 2 -> 1 + r.nextInt(255); // up to the lane capacity
                case 3 -> 1 + r.nextInt(r.nextBoolean() ? 300 : 100_000); // across the lane capacity
                case 4 -> (double) ((TWO_53 >> 3) + (r.nextLong() & ((TWO_53 >> 1) - 1))); // large integers: the total passes 2^53
                // a small integer, then two big ones: e.g. 1 + 2^53 rounds to 2^53 as a double, and - 2^53 then gives 0
                // where the integer sum is 1; the sign of such sums differs between exact and double arithmetic
                case 5 -> i % 3 == 0 ? 1 + r.nextInt(3) : BIG[r.nextInt(BIG.length)];
                case 6 -> 1 + Math.log(smallTf(r)); // log_tf: 1.0 for tf = 1, then non-integers
                case 7 -> r.nextInt(4) == 0 ? 1 + r.nextInt(9) : r.nextDouble() * 100 + 1e-9; // explicit weights
                case 8 -> i < switchAt ? smallTf(r) : DECIMALS[r.nextInt(DECIMALS.length)]; // integers, then anything
                case 9 -> DECIMALS[r.nextInt(DECIMALS.length)]; // sums whose sign depends on the order of additions
                default -> (i & 1) == 1 ? w[i - 1] : smallTf(r); // equal weights in pairs: with complement hashes, ties
            };
        }
        if (k == 2 || k == 3 || k == 1) {
            // sometimes exactly at the 2^53 bound, once just above
            if (r.nextInt(4) == 0) {
                long others = 0;
                for (int i = 0; i < n; i++) {
                    others += i == switchAt ? 0 : (long) w[i];
                }
                w[switchAt] = (double) (TWO_53 - others + (r.nextInt(3) - 1));
                kind.append(" total=2^53").append(w[switchAt] + others - TWO_53 >= 0 ? "+" : "").append((long) (w[switchAt] + others - TWO_53));
            }
        }
        return w;
    }

    static Input randomInput(Random r) {
        int weights = r.nextInt(11);
        // where the sign of a sum depends on rounding (big integers, decimal fractions), short inputs leave it near 0 more often
        int n = (weights == 5 || weights == 9) && r.nextBoolean() ? 1 + r.nextInt(6) : randomSize(r);
        StringBuilder kind = new StringBuilder("n=" + n + " ");
        long[] h = randomHashes(r, n, kind);
        double[] w = randomWeights(r, weights, h, kind);
        return new Input(kind.toString(), h, w);
    }

    /** Null when acc agrees with the reference on the input (and on a prefix of it, read mid-way), else what differed. */
    static String check(Acc acc, Input in, Random r) {
        acc.reset();
        int mid = r.nextInt(in.size() + 1);
        for (int i = 0; i < in.size(); i++) {
            if (i == mid && i > 0) {
                long expected = ReferenceSimHash.accumulate(in.hashes(), in.weights(), mid);
                long got = acc.fingerprint();
                if (got != expected) {
                    return String.format("prefix of %d: expected %016x, got %016x (%s)", mid, expected, got, in.kind());
                }
            }
            acc.add(in.hashes()[i], in.weights()[i]);
        }
        long expected = ReferenceSimHash.accumulate(in.hashes(), in.weights(), in.size());
        long got = acc.fingerprint();
        return got == expected ? null : String.format("expected %016x, got %016x (%s)", expected, got, in.kind());
    }

    @RepeatedTest(3000)
    void matchesTheNaiveDefinition() {
        long seed = SEEDS.incrementAndGet();
        Random r = random(seed);
        Input in = randomInput(r);
        String diff = check(production(SHARED), in, r);
        if (diff != null) {
            fail("seed " + seed + ": " + diff);
        }
    }

    @Test
    void tiesGiveZeroBits() {
        SimHashAccumulator acc = new SimHashAccumulator();
        Random r = new Random(7);
        for (int n = 1; n <= 100; n++) {
            acc.reset();
            for (int i = 0; i < n; i++) {
                long h = r.nextLong();
                int w = 1 + r.nextInt(1000);
                acc.add(h, w);
                acc.add(~h, w); // cancels every bit
            }
            assertEquals(0L, acc.fingerprint(), "all sums are exactly 0");
        }
        // one feature of weight 1 on top of ties: exactly its bits
        acc.reset();
        acc.add(0x0123456789abcdefL, 300);
        acc.add(~0x0123456789abcdefL, 300);
        acc.add(0xfedcba9876543210L, 1);
        assertEquals(0xfedcba9876543210L, acc.fingerprint());
        // an even number of weight-1 features: many bits tie at 0, as in the reference
        long[] h = new long[64];
        double[] w = new double[64];
        int ties = 0;
        for (int i = 0; i < h.length; i++) {
            h[i] = r.nextLong();
            w[i] = 1;
        }
        acc.reset();
        for (int i = 0; i < h.length; i++) {
            acc.add(h[i], w[i]);
        }
        for (int b = 0; b < 64; b++) {
            int ones = 0;
            for (long x : h) {
                ones += (int) ((x >>> b) & 1);
            }
            ties += ones * 2 == h.length ? 1 : 0;
        }
        assertTrue(ties > 0, "the input has tied bits");
        assertEquals(ReferenceSimHash.accumulate(h, w, h.length), acc.fingerprint());
    }

    @Test
    void totalsAroundTwoToThe53() {
        // 1 + 2^53 is not a double: the double sum rounds to 2^53, then - 2^53 gives 0 (bit 0) where the integer sum is 1
        long[] h = { -1L, -1L, 0L };
        double[] w = { 1, 0x1p53, 0x1p53 };
        SimHashAccumulator acc = new SimHashAccumulator();
        for (int i = 0; i < h.length; i++) {
            acc.add(h[i], w[i]);
        }
        assertEquals(0L, ReferenceSimHash.accumulate(h, w, 3));
        assertEquals(0L, acc.fingerprint());
        // exactly 2^53 in total stays exact, and agrees
        acc.reset();
        acc.add(-1L, 0x1p53 - 1);
        acc.add(0L, 1);
        assertEquals(-1L, acc.fingerprint());
    }

    // ---- the harness catches broken variants (defined here only) ----

    enum Bug {
        /** Byte lanes emptied only after 256 units of weight: a counter can wrap. */
        LANE_CAPACITY_256,
        /** A tie (sum exactly 0) gives bit 1. */
        TIE_GIVES_ONE,
        /** Leaves exact mode without emptying the byte lanes first. */
        NO_FLUSH_BEFORE_SWITCH,
        /** Counts integers exactly past 2^53, where the double sums round. */
        NO_FALLBACK_ABOVE_2_53,
        /** Double mode: sums the +w and the -w of a bit separately, then compares (a reassociation). */
        REASSOCIATED_DOUBLES,
        /** Lanes read one byte off (bit 8k + b taken from byte k of lane b + 1). */
        LANE_OFF_BY_ONE,
    }

    /** The algorithm of SimHashAccumulator, written plainly, with one deliberate bug. */
    static final class Broken implements Acc {
        final Bug bug;
        final long[] ones = new long[64];
        final long[] lanes = new long[8];
        final double[] sums = new double[64];
        final double[] negative = new double[64];
        long laneWeight;
        long total;
        boolean exact = true;

        Broken(Bug bug) {
            this.bug = bug;
        }

        @Override
        public void add(long h, double w) {
            if (exact) {
                long capacity = bug == Bug.LANE_CAPACITY_256 ? 256 : 255;
                long limit = bug == Bug.NO_FALLBACK_ABOVE_2_53 ? Long.MAX_VALUE / 4 : TWO_53;
                long lw = (long) w;
                if (lw == w && lw <= limit - total) {
                    if (lw <= capacity) {
                        if (laneWeight + lw > capacity) {
                            flush();
                        }
                        laneWeight += lw;
                        for (int b = 0; b < 8; b++) {
                            lanes[b] += ((h >>> b) & 0x0101010101010101L) * lw;
                        }
                    } else {
                        for (int i = 0; i < 64; i++) {
                            ones[i] += ((h >>> i) & 1) * lw;
                        }
                    }
                    total += lw;
                    return;
                }
                if (bug != Bug.NO_FLUSH_BEFORE_SWITCH) {
                    flush();
                }
                for (int i = 0; i < 64; i++) {
                    sums[i] = 2 * ones[i] - total;
                    negative[i] = 0;
                }
                exact = false;
            }
            for (int i = 0; i < 64; i++) {
                boolean one = ((h >>> i) & 1) == 1;
                if (bug == Bug.REASSOCIATED_DOUBLES && !one) {
                    negative[i] += w;
                } else {
                    sums[i] += one ? w : -w;
                }
            }
        }

        void flush() {
            for (int b = 0; b < 8; b++) {
                for (int k = 0; k < 8; k++) {
                    int lane = bug == Bug.LANE_OFF_BY_ONE ? (b + 1) % 8 : b;
                    ones[8 * k + b] += (lanes[lane] >>> (8 * k)) & 0xFF;
                }
            }
            java.util.Arrays.fill(lanes, 0);
            laneWeight = 0;
        }

        @Override
        public long fingerprint() {
            long fp = 0;
            if (exact) {
                flush();
            }
            for (int i = 0; i < 64; i++) {
                boolean one;
                if (exact) {
                    one = bug == Bug.TIE_GIVES_ONE ? 2 * ones[i] >= total : 2 * ones[i] > total;
                } else {
                    one = bug == Bug.REASSOCIATED_DOUBLES ? sums[i] - negative[i] > 0 : sums[i] > 0;
                }
                fp |= one ? 1L << i : 0;
            }
            return fp;
        }

        @Override
        public void reset() {
            java.util.Arrays.fill(ones, 0);
            java.util.Arrays.fill(lanes, 0);
            laneWeight = 0;
            total = 0;
            exact = true;
        }
    }

    @Test
    void harnessCatchesEveryBrokenVariant() {
        for (Bug bug : Bug.values()) {
            Broken broken = new Broken(bug);
            int caught = 0;
            int cases = 3000;
            for (int seed = 1; seed <= cases; seed++) {
                Random r = random(seed);
                if (check(broken, randomInput(r), r) != null) {
                    caught++;
                }
            }
            System.out.println(bug + ": caught in " + caught + " of " + cases + " random cases");
            assertTrue(caught > 0, bug + " was not caught in " + cases + " random cases");
        }
    }

    @Test
    void harnessPassesTheBrokenVariantWithoutItsBug() {
        // the reference copy of the algorithm in Broken is itself right when its bug is off, so what the
        // previous test catches is the bug, not a difference in the copy
        Acc plain = new Broken(null);
        for (int seed = 1; seed <= 500; seed++) {
            Random r = random(seed);
            String diff = check(plain, randomInput(r), r);
            assertEquals(null, diff, "seed " + seed);
        }
    }
}
