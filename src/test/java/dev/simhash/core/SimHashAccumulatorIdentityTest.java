package dev.simhash.core;

import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@link SimHashAccumulator} (exact integer mode with its byte lanes, and the switch to the contract's double sums) gives the
 * very fingerprint of the naive definition ({@link ReferenceSimHash#accumulate}: 64 double sums, +w or -w per bit, in call
 * order) on random inputs built to hit its edges: lane overflow, weights above the lane capacity, totals around 2^53, ties,
 * integer prefixes followed by non-integer weights, log_tf weights (v1: 1 + ln tf), IDF-like weights, extreme weights,
 * constructed near-ties whose sign depends on the order of the additions, and fingerprints read mid-way (the accumulator is
 * reused across cases, so every case also checks reset()).
 */
@ExtendWith(TestSeeds.class)
class SimHashAccumulatorIdentityTest {

    private static final AtomicLong SEEDS = TestSeeds.sequence();
    /** Reused across all repetitions: every case also checks reset(). */
    private static final SimHashAccumulator SHARED = new SimHashAccumulator();
    private static final long TWO_53 = 1L << 53;
    /** Weights far from 1 (a power of two near the ends of the normal range, and around them in the tests). */
    private static final double TINY = 0x1p-900;
    private static final double HUGE = 0x1p900;
    /** A number of distinct weight values per document that is "many" for a document of log_tf weights. */
    private static final int MANY_VALUES = 32;

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
        int weights = r.nextInt(18);
        if (weights == 15) {
            return switch (r.nextInt(4)) {
                case 0 -> driftInput(r);
                case 1 -> bigIntegersInClassModeInput(r);
                default -> nearTieInput(r);
            };
        }
        // where the sign of a sum depends on rounding (big integers, decimal fractions, few distinct values), short inputs leave it
        // near 0 more often
        int n = (weights == 5 || weights == 9 || weights >= 12) && r.nextBoolean() ? 1 + r.nextInt(6) : randomSize(r);
        StringBuilder kind = new StringBuilder("n=" + n + " ");
        long[] h = randomHashes(r, n, kind);
        double[] w = weights <= 10 ? randomWeights(r, weights, h, kind)
            : weights <= 14 ? classWeights(r, weights, n, kind) : integersInClassMode(r, weights, n, kind);
        return new Input(kind.toString(), h, w);
    }

    /**
     * Integer weights after a non-integer one (after a few integers or none): integers of every size (1.0; up to the lane
     * capacity; beyond it; k = 17: around 2^53, so that the integer total passes 2^53) and non-integers, in any order, with
     * equal weights in a row (with complement hashes: exact ties).
     */
    static double[] integersInClassMode(Random r, int k, int n, StringBuilder kind) {
        double[] w = new double[n];
        kind.append(" weights=").append(k);
        int start = r.nextInt(Math.min(n, 1 + r.nextInt(8)));
        double[] pool = pool(r, 1 + r.nextInt(4));
        for (int i = 0; i < n; i++) {
            if (i < start) {
                w[i] = 1 + r.nextInt(r.nextBoolean() ? 3 : 300);
            } else if (i == start) {
                w[i] = r.nextBoolean() ? logTf(2 + r.nextInt(5)) : 0.1 * (1 + r.nextInt(9)); // not an integer
            } else {
                w[i] = switch (r.nextInt(k == 16 ? 7 : 5)) {
                    case 0 -> 1.0;
                    case 1 -> 1 + r.nextInt(255); // the byte lanes
                    case 2 -> k == 16 ? 256 + r.nextInt(100_000) : BIG[r.nextInt(BIG.length)]; // the long counts, or past 2^53
                    case 3 -> pool[r.nextInt(pool.length)]; // a few non-integer values (or extremes)
                    case 4 -> w[i - 1]; // equal weights in a row
                    case 5 -> logTf(2 + r.nextInt(4));
                    default -> DECIMALS[r.nextInt(DECIMALS.length)];
                };
            }
        }
        if (k == 17 && n > start + 1 && r.nextBoolean()) {
            // the integer weights total 2^53 - 1, 2^53 or 2^53 + 1: one of them, after the first non-integer, is sized to it
            int at = start + 1 + r.nextInt(n - start - 1);
            long others = 0;
            for (int i = 0; i < n; i++) {
                if (i != at && w[i] == Math.rint(w[i]) && w[i] < 0x1p50) {
                    others += (long) w[i];
                } else if (i != at && w[i] == Math.rint(w[i])) {
                    w[i] = 1; // keep the others small
                    others += 1;
                }
            }
            w[at] = (double) (TWO_53 - others + (r.nextInt(3) - 1));
            kind.append(" integers=2^53").append(w[at] + others - TWO_53 >= 0 ? "+" : "").append((long) (w[at] + others - TWO_53));
        }
        return w;
    }

    /** The log_tf weight (simhash-v1's `log_tf` weighting). */
    static double logTf(int tf) {
        return 1 + Math.log(tf);
    }

    /** A term frequency with a heavy tail (Pareto): about 44% are 1, a few in the thousands; long documents get many distinct values. */
    static int zipfTf(Random r) {
        return (int) Math.min(100_000, Math.floor(Math.pow(1 - r.nextDouble(), -1.2)));
    }

    /** A weight value for a class pool: ordinary doubles mostly, sometimes integers, big values or the range edges. */
    static double classValue(Random r) {
        return switch (r.nextInt(12)) {
            case 0 -> 1 + r.nextInt(5);
            case 1 -> DECIMALS[r.nextInt(DECIMALS.length)];
            case 2 -> BIG[r.nextInt(BIG.length)];
            case 3 -> logTf(2 + r.nextInt(50));
            case 4 -> r.nextDouble() * 1e-3 + Double.MIN_NORMAL;
            case 5 -> switch (r.nextInt(6)) { // the edges of the class range, and beyond
                case 0 -> TINY;
                case 1 -> Math.nextDown(TINY);
                case 2 -> HUGE;
                case 3 -> Math.nextUp(HUGE);
                case 4 -> Double.MIN_VALUE;
                default -> 1e307;
            };
            default -> r.nextDouble() * 10 + 1e-9;
        };
    }

    static double[] pool(Random r, int size) {
        double[] pool = new double[size];
        for (int i = 0; i < size; i++) {
            pool[i] = r.nextInt(30) == 0 ? classValue(r) : r.nextInt(3) == 0 ? logTf(2 + r.nextInt(20)) : r.nextDouble() * 5 + 1e-9;
        }
        return pool;
    }

    /** Non-integer weights: log_tf, few distinct values, about MANY_VALUES of them, IDF-like (all distinct). */
    static double[] classWeights(Random r, int k, int n, StringBuilder kind) {
        double[] w = new double[n];
        kind.append(" weights=").append(k);
        double[] pool = switch (k) {
            case 12 -> pool(r, 1 + r.nextInt(6));
            case 14 -> pool(r, MANY_VALUES - 3 + r.nextInt(6));
            default -> null;
        };
        if (pool != null) {
            kind.append(" values=").append(pool.length);
        }
        double integers = r.nextDouble();
        for (int i = 0; i < n; i++) {
            w[i] = switch (k) {
                case 11 -> logTf(zipfTf(r)); // log_tf as v1 makes it (and v2 did before 2026-11-24): 1.0 for tf = 1, then 1 + ln 2, 1 + ln 3, ...
                case 12, 14 -> r.nextDouble() < integers * 0.5 ? 1 + r.nextInt(3) : pool[r.nextInt(pool.length)]; // few / about MANY_VALUES values
                default -> logTf(smallTf(r)) * Math.log(1e6 / (1 + r.nextInt(1_000_000))) + 1e-3; // tf-idf: nearly all distinct
            };
        }
        return w;
    }

    /**
     * Rounding errors that all go the same way, so that the contract's sum drifts from the real sum by about k/3 ulps of the
     * big partial sums (far more than one ulp): a big weight B = 2^e, then k weights w strictly between half an ulp and one
     * ulp of B (each addition rounds up to B + ulp), then -B', with B' chosen so that the contract's sum is d ulps (d in -2..2)
     * while the real sum is k (w - ulp) + d ulp, negative for large k. Every bit gets this story (its sign flipped where the
     * hash bit is 0).
     */
    static Input driftInput(Random r) {
        int e = 52 + r.nextInt(9);
        double big = Math.scalb(1.0, e);
        double ulp = Math.ulp(big);
        int k = 1 + (int) Math.pow(2, r.nextDouble() * 12);
        double w = ulp * (0.5 + 0.5 * r.nextDouble()) + ulp * 0x1p-20;
        w = Math.min(w, Math.nextDown(ulp));
        int d = r.nextInt(5) - 2;
        long h = r.nextInt(4) == 0 ? SPECIAL[r.nextInt(SPECIAL.length)] : r.nextLong();
        long[] hs = new long[k + 2];
        double[] ws = new double[k + 2];
        hs[0] = h;
        ws[0] = big;
        for (int i = 1; i <= k; i++) {
            hs[i] = h;
            ws[i] = w;
        }
        hs[k + 1] = ~h;
        ws[k + 1] = big + (k - d) * ulp; // exact: an integer multiple of ulp below 2^(e+1)
        return new Input("n=" + (k + 2) + " drift e=" + e + " k=" + k + " d=" + d + " w=" + w, hs, ws);
    }

    /**
     * A non-integer weight first, then integer weights whose total passes 2^53: pieces of a small integer and two
     * equal big ones with complementary hashes (1 + 2^53 - 2^53: 0 in doubles, 1 in integers), in some order, so that the
     * signs of the double sums depend on roundings past 2^53; sometimes more non-integers in between.
     */
    static Input bigIntegersInClassModeInput(Random r) {
        List<Long> hs = new ArrayList<>();
        List<Double> ws = new ArrayList<>();
        hs.add(r.nextLong());
        ws.add(r.nextBoolean() ? 0.5 : r.nextBoolean() ? logTf(2) : 0.25);
        int pieces = 1 + r.nextInt(6);
        for (int p = 0; p < pieces; p++) {
            long h = r.nextInt(4) == 0 ? SPECIAL[r.nextInt(SPECIAL.length)] : r.nextLong();
            double small = 1 + r.nextInt(3);
            double big = BIG[r.nextInt(BIG.length)];
            long[] ph = { h, h, ~h };
            double[] pw = { small, big, big };
            int first = r.nextInt(3); // which of the three comes first
            for (int k = 0; k < 3; k++) {
                int x = (first + k) % 3;
                hs.add(ph[x]);
                ws.add(pw[x]);
            }
            if (r.nextInt(4) == 0) {
                hs.add(r.nextLong());
                ws.add(r.nextBoolean() ? 0.5 : logTf(3));
            }
        }
        long[] h = new long[hs.size()];
        double[] w = new double[hs.size()];
        for (int i = 0; i < h.length; i++) {
            h[i] = hs.get(i);
            w[i] = ws.get(i);
        }
        return new Input("n=" + h.length + " big integers after a non-integer pieces=" + pieces, h, w);
    }

    /**
     * Features whose real sums cancel on every bit (up to the rounding of the weights), so that every bit's double sum is 0
     * or a rounding residue whose sign depends on the order: complementary pairs of equal weights, log identities such as
     * (1 + ln 4) - 2 (1 + ln 2) + 1 = 0, 0.1 + 0.2 - 0.3, and 2^53 + 1 - 2^53; shuffled or not, rarely with one odd feature.
     */
    static Input nearTieInput(Random r) {
        List<Long> hs = new ArrayList<>();
        List<Double> ws = new ArrayList<>();
        int pieces = 1 + r.nextInt(r.nextBoolean() ? 4 : r.nextBoolean() ? 60 : 3000);
        double[] pool = pool(r, 1 + r.nextInt(4));
        for (int p = 0; p < pieces; p++) {
            long h = r.nextInt(4) == 0 ? SPECIAL[r.nextInt(SPECIAL.length)] : r.nextLong();
            int a = 2 + r.nextInt(r.nextBoolean() ? 3 : 40);
            int b = 2 + r.nextInt(r.nextBoolean() ? 3 : 40);
            switch (r.nextInt(7)) {
                case 0 -> { // complementary pair: exactly 0 whatever the weight
                    double w = r.nextBoolean() ? pool[r.nextInt(pool.length)] : classValue(r);
                    hs.add(h); ws.add(w);
                    hs.add(~h); ws.add(w);
                }
                case 1, 2 -> { // ln(ab) = ln a + ln b: (1 + ln ab) - (1 + ln a) - (1 + ln b) + 1 = 0 in reals
                    hs.add(h); ws.add(logTf(a * b));
                    hs.add(~h); ws.add(logTf(a));
                    hs.add(~h); ws.add(logTf(b));
                    hs.add(h); ws.add(1.0);
                }
                case 3 -> { // 0.1 + 0.2 - 0.3
                    hs.add(h); ws.add(0.1);
                    hs.add(h); ws.add(0.2);
                    hs.add(~h); ws.add(0.3);
                }
                case 4 -> { // big + small - big: the small one is lost or not, depending on the order
                    double big = r.nextBoolean() ? 0x1p53 : r.nextBoolean() ? 1e16 : 0x1p60;
                    hs.add(h); ws.add(big);
                    hs.add(h); ws.add(r.nextBoolean() ? 1.0 : 0.5);
                    hs.add(~h); ws.add(big);
                    hs.add(~h); ws.add(r.nextBoolean() ? 1.0 : 0.5);
                }
                case 5 -> { // 2 (1 + ln a) = (1 + ln a^2) + 1
                    hs.add(h); ws.add(logTf(a));
                    hs.add(h); ws.add(logTf(a));
                    hs.add(~h); ws.add(logTf(a * a));
                    hs.add(~h); ws.add(1.0);
                }
                default -> {
                    if (r.nextInt(4) == 0) { // one odd feature
                        hs.add(h); ws.add(r.nextBoolean() ? 1.0 : pool[r.nextInt(pool.length)]);
                    } else {
                        hs.add(h); ws.add(1.0);
                        hs.add(~h); ws.add(1.0);
                    }
                }
            }
        }
        int n = hs.size();
        long[] h = new long[n];
        double[] w = new double[n];
        for (int i = 0; i < n; i++) {
            h[i] = hs.get(i);
            w[i] = ws.get(i);
        }
        int order = r.nextInt(3);
        if (order == 1) { // shuffled
            for (int i = n - 1; i > 0; i--) {
                int j = r.nextInt(i + 1);
                long th = h[i]; h[i] = h[j]; h[j] = th;
                double tw = w[i]; w[i] = w[j]; w[j] = tw;
            }
        } else if (order == 2) { // reversed
            for (int i = 0, j = n - 1; i < j; i++, j--) {
                long th = h[i]; h[i] = h[j]; h[j] = th;
                double tw = w[i]; w[i] = w[j]; w[j] = tw;
            }
        }
        return new Input("n=" + n + " near-ties pieces=" + pieces + " order=" + order, h, w);
    }

    /** Null when acc agrees with the reference on the input (and on prefixes of it, read mid-way), else what differed. */
    static String check(Acc acc, Input in, Random r) {
        acc.reset();
        int mid = r.nextInt(in.size() + 1);
        // sometimes a second read: fingerprint(), add more, fingerprint() again, more, ...
        int mid2 = r.nextBoolean() ? mid : r.nextInt(in.size() + 1);
        for (int i = 0; i < in.size(); i++) {
            if ((i == mid || i == mid2) && i > 0) {
                long expected = ReferenceSimHash.accumulate(in.hashes(), in.weights(), i);
                long got = acc.fingerprint();
                if (got != expected) {
                    return String.format("prefix of %d: expected %016x, got %016x (%s)", i, expected, got, in.kind());
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

    /**
     * The bulk form is the naive definition on every kind of input,
     * and so are more adds after it (its state is add()'s); no adds is no fingerprint.
     */
    @RepeatedTest(1000)
    void bulkFingerprintMatchesTheNaiveDefinition() {
        long seed = SEEDS.incrementAndGet();
        Random r = random(seed);
        Input in = randomInput(r);
        int n = in.size();
        int m = r.nextBoolean() ? n : r.nextInt(n + 1);
        SimHashAccumulator a = r.nextBoolean() ? SHARED : new SimHashAccumulator();
        if (m == 0) {
            assertThrows(IllegalStateException.class, () -> a.fingerprint(in.hashes(), in.weights(), 0));
        } else {
            assertEquals(ReferenceSimHash.accumulate(in.hashes(), in.weights(), m), a.fingerprint(in.hashes(), in.weights(), m),
                "seed " + seed + ", bulk of " + m + " (" + in.kind() + ")");
        }
        if (m < n) {
            if (m == 0) {
                a.reset();
            }
            for (int i = m; i < n; i++) {
                a.add(in.hashes()[i], in.weights()[i]);
            }
            assertEquals(ReferenceSimHash.accumulate(in.hashes(), in.weights(), n), a.fingerprint(),
                "seed " + seed + ", bulk of " + m + " then " + (n - m) + " adds (" + in.kind() + ")");
        }
    }

    /**
     * The bulk form on documents as log_tf weights them (v1; v2 before binary weights) (mostly 1.0, then 1 + ln tf with a heavy tail: up to
     * many distinct values), sized around the lane capacity and powers of two, with integer weights mixed in
     * (up to the lane capacity and beyond it) and complement hashes (exact ties), one
     * accumulator for all of them, so that each document also checks what the one before left behind.
     */
    @RepeatedTest(400)
    void bulkLogTfDocumentsMatchTheNaiveDefinition() {
        long seed = SEEDS.incrementAndGet();
        Random r = random(seed);
        int[] edges = { 1, 15, 16, 17, 63, 64, 65, 79, 80, 127, 128, 129, 255, 256, 257, 1023, 4095, 4096, 4097 };
        int n = r.nextBoolean() ? edges[r.nextInt(edges.length)] + r.nextInt(3) - 1 : 1 + r.nextInt(r.nextBoolean() ? 300 : 5000);
        n = Math.max(1, n);
        StringBuilder kind = new StringBuilder("n=" + n + " ");
        long[] h = randomHashes(r, n, kind);
        double[] w = new double[n];
        int tfCap = r.nextInt(4) == 0 ? 200 : 1 + r.nextInt(12); // 200: often more than MANY_VALUES values
        int integers = r.nextInt(4); // 0: none; else one in 2^(6 - integers) adds an integer weight
        for (int i = 0; i < n; i++) {
            int tf = (int) Math.min(tfCap, zipfTf(r));
            w[i] = logTf(tf);
            if (integers > 0 && r.nextInt(1 << (6 - integers)) == 0) {
                w[i] = r.nextInt(20) == 0 ? 256 + r.nextInt(1000) : 1 + r.nextInt(255);
            }
            if (h.length > 1 && i > 0 && h[i] == ~h[i - 1] && r.nextBoolean()) {
                w[i] = w[i - 1]; // a complement with the same weight: ties
            }
        }
        kind.append(" tf<=").append(tfCap).append(" integers=").append(integers);
        assertEquals(ReferenceSimHash.accumulate(h, w, n), SHARED.fingerprint(h, w, n), "seed " + seed + " (" + kind + ")");
    }

    /**
     * The bulk form follows the contract's order of additions: sums that are exactly 0 in real numbers but
     * not in the contract's doubles (0.1 + 0.2 - 0.3 > 0) give the contract's bits, with and without weights 1.0 before them.
     */
    @Test
    void bulkFollowsTheContractsRounding() {
        Random r = new Random(11);
        SimHashAccumulator acc = new SimHashAccumulator();
        for (int ones = 0; ones <= 70; ones++) {
            long h = r.nextLong();
            int n = 3 + 2 * ones;
            long[] hs = new long[n];
            double[] ws = new double[n];
            for (int i = 0; i < ones; i++) {
                hs[2 * i] = r.nextLong();
                hs[2 * i + 1] = ~hs[2 * i];
                ws[2 * i] = 1.0;
                ws[2 * i + 1] = 1.0;
            }
            hs[n - 3] = h;
            hs[n - 2] = h;
            hs[n - 1] = ~h;
            ws[n - 3] = 0.1;
            ws[n - 2] = 0.2;
            ws[n - 1] = 0.3;
            // bit i: +-(1 - 1) ... then +0.1 + 0.2 - 0.3 = 5.55e-17 where h has a 1, its negative elsewhere
            assertEquals(h, ReferenceSimHash.accumulate(hs, ws, n), "the reference, " + ones + " pairs");
            assertEquals(h, acc.fingerprint(hs, ws, n), ones + " pairs of weight 1.0 first");
        }
    }

    /**
     * The bulk form rejects an invalid weight wherever it is (also NaN with the bits of a free class slot), with log_tf and
     * with IDF-like weights, and stays usable.
     */
    @Test
    void bulkRejectsInvalidWeightsAnywhere() {
        Random r = new Random(5);
        SimHashAccumulator acc = new SimHashAccumulator();
        double[] bad = { 0, -0.0, -1, -2.5, Double.NaN, Double.longBitsToDouble(-1L), Double.longBitsToDouble(0x7FF0000000000001L),
            Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY };
        for (double b : bad) {
            for (int rep = 0; rep < 40; rep++) {
                // every other time IDF-like weights (all different: the double sums), the bad one late, past the switch
                boolean idfLike = rep % 2 == 1;
                int n = idfLike ? 40 + r.nextInt(200) : 1 + r.nextInt(200);
                long[] hs = new long[n];
                double[] ws = new double[n];
                for (int i = 0; i < n; i++) {
                    hs[i] = r.nextLong();
                    ws[i] = idfLike ? 1 + r.nextDouble() : r.nextInt(3) == 0 ? logTf(2 + r.nextInt(4)) : 1.0;
                }
                ws[idfLike ? n / 2 + r.nextInt(n - n / 2) : r.nextInt(n)] = b;
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> acc.fingerprint(hs, ws, n),
                    "weight bits " + Long.toHexString(Double.doubleToRawLongBits(b)));
                assertTrue(e.getMessage().contains("positive finite"), e.getMessage());
                for (int i = 0; i < n; i++) {
                    if (!(ws[i] > 0 && ws[i] <= Double.MAX_VALUE)) {
                        ws[i] = 1.0;
                    }
                }
                assertEquals(ReferenceSimHash.accumulate(hs, ws, n), acc.fingerprint(hs, ws, n), "after a rejected weight");
            }
        }
    }

    /**
     * Bulk and add() by add() documents on one accumulator (each starting from what the one before left):
     * documents that share weight values, that bring new ones (also large and tiny ones),
     * many distinct values, IDF-like ones, and adds after a bulk call, each the naive definition.
     */
    @RepeatedTest(30)
    void bulkAndAddDocumentsOnOneAccumulator() {
        long seed = SEEDS.incrementAndGet();
        Random r = random(seed);
        SimHashAccumulator acc = new SimHashAccumulator();
        double[] odd = { 1000.5, 0.001, 3.25, 1e-5 + 1, 70_000.5, Math.PI };
        boolean lastWasBulk = false;
        long[] lastHashes = new long[0];
        double[] lastWeights = new double[0];
        for (int doc = 0; doc < 60; doc++) {
            int n = 1 + r.nextInt(r.nextBoolean() ? 40 : 600);
            long[] h = randomHashes(r, n, new StringBuilder());
            double[] w = new double[n];
            int kind = r.nextInt(6);
            for (int i = 0; i < n; i++) {
                w[i] = switch (kind) {
                    case 0, 1 -> logTf((int) Math.min(12, zipfTf(r))); // shared values
                    case 2 -> r.nextInt(4) == 0 ? odd[r.nextInt(odd.length)] : logTf((int) Math.min(30, zipfTf(r)));
                    case 3 -> r.nextInt(3) == 0 ? 1.0 : logTf(2 + r.nextInt(60)); // many distinct values
                    case 4 -> 1 + r.nextDouble(); // IDF-like
                    default -> r.nextInt(3) == 0 ? 1.0 : odd[r.nextInt(odd.length)] * (1 + r.nextInt(3));
                };
            }
            long expected = ReferenceSimHash.accumulate(h, w, n);
            if (kind == 5) {
                boolean afterBulk = lastWasBulk && r.nextBoolean();
                if (afterBulk) {
                    // adds on top of the last bulk call's (its state is add()'s)
                    expected = ReferenceSimHash.accumulate(concat(lastHashes, h), concat(lastWeights, w), lastHashes.length + n);
                } else {
                    acc.reset();
                }
                for (int i = 0; i < n; i++) {
                    acc.add(h[i], w[i]);
                }
                assertEquals(expected, acc.fingerprint(), "seed " + seed + ", document " + doc + " add() by add()"
                    + (afterBulk ? " after bulk" : ""));
            } else {
                assertEquals(expected, acc.fingerprint(h, w, n), "seed " + seed + ", document " + doc + " bulk, kind " + kind);
            }
            lastWasBulk = kind != 5;
            lastHashes = h;
            lastWeights = w;
        }
    }

    private static long[] concat(long[] a, long[] b) {
        long[] c = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }

    private static double[] concat(double[] a, double[] b) {
        double[] c = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
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

    // ---- focused cases ----

    static String checkAll(SimHashAccumulator acc, long[] h, double[] w, int... reads) {
        acc.reset();
        int next = 0;
        for (int i = 0; i < h.length; i++) {
            acc.add(h[i], w[i]);
            if (next < reads.length && reads[next] == i + 1) {
                next++;
                long expected = ReferenceSimHash.accumulate(h, w, i + 1);
                long got = acc.fingerprint();
                if (got != expected) {
                    return String.format("prefix of %d: expected %016x, got %016x", i + 1, expected, got);
                }
            }
        }
        long expected = ReferenceSimHash.accumulate(h, w, h.length);
        long got = acc.fingerprint();
        return got == expected ? null : String.format("expected %016x, got %016x", expected, got);
    }

    @Test
    void logIdentityNearTiesFollowTheOrderOfAdditions() {
        // (1 + ln ab) - (1 + ln a) - (1 + ln b) + 1 is 0 in reals; in doubles the sum is 0 or a residue of an ulp or so whose
        // sign depends on the order: the fingerprint must be the contract's, whatever the order
        long[] signs = { 0, -1, -1, 0 }; // XOR masks: feature j gets h ^ signs[j]
        SimHashAccumulator acc = new SimHashAccumulator();
        Random r = new Random(11);
        int positive = 0;
        int zero = 0;
        for (int rep = 0; rep < 2000; rep++) {
            int a = 2 + r.nextInt(30);
            int b = 2 + r.nextInt(30);
            double[] piece = { logTf(a * b), logTf(a), logTf(b), 1.0 };
            int[] order = { 0, 1, 2, 3 };
            for (int i = 3; i > 0; i--) {
                int j = r.nextInt(i + 1);
                int t = order[i];
                order[i] = order[j];
                order[j] = t;
            }
            long hash = r.nextLong();
            long[] h = new long[4];
            double[] w = new double[4];
            for (int j = 0; j < 4; j++) {
                h[j] = hash ^ signs[order[j]];
                w[j] = piece[order[j]];
            }
            assertEquals(null, checkAll(acc, h, w, 1, 2, 3), "a " + a + ", b " + b);
            long fp = ReferenceSimHash.accumulate(h, w, 4);
            positive += fp == hash ? 1 : 0;
            zero += fp == 0 ? 1 : 0;
        }
        // the residue's sign varies: fingerprint = hash (residue > 0 on the bits set), 0 or ~hash (residue < 0 or 0)
        System.out.println("log identity: " + positive + " residues > 0, " + zero + " with fingerprint 0, of 2000");
        assertTrue(positive > 0 && zero > 0, "the constructed near-ties have residues of both signs");
    }

    @Test
    void integerPrefixThenNonIntegersNearTwoToThe53() {
        // the integer part's exactness ends at 2^53: a big integer weight past it switches to the double sums, whose sign
        // is the contract's (1 + 2^53 - 2^53 is 0 in doubles, 1 in reals); also non-integers after integers
        SimHashAccumulator acc = new SimHashAccumulator();
        assertEquals(null, checkAll(acc, new long[] { -1L, -1L, 0L }, new double[] { 1, 0x1p53, 0x1p53 }, 1, 2));
        assertEquals(null, checkAll(acc, new long[] { -1L, 0L, -1L, 0L }, new double[] { 0x1p53, 0.5, 0.5, 0x1p53 }, 2));
        assertEquals(null, checkAll(acc, new long[] { -1L, 0L, -1L }, new double[] { 1e16, 1e16, 1 }, 1, 2));
        assertEquals(null, checkAll(acc, new long[] { 0L, -1L, -1L }, new double[] { 0.3, 0.1, 0.2 }, 1, 2));
        assertEquals(null, checkAll(acc, new long[] { -1L, -1L, 0L }, new double[] { 0.1, 0.2, 0.3 }, 1, 2));
    }

    @Test
    void extremeWeights() {
        // subnormal and huge weights, with integers and log_tf: the double sums, exact by definition
        double[] extremes = { Double.MIN_VALUE, 1e-310, Double.MIN_NORMAL, Math.nextDown(TINY),
            TINY, HUGE, Math.nextUp(HUGE), 1e307,
            Double.MAX_VALUE };
        SimHashAccumulator acc = new SimHashAccumulator();
        Random r = new Random(3);
        for (int rep = 0; rep < 2000; rep++) {
            int n = 1 + r.nextInt(r.nextBoolean() ? 6 : 200);
            long[] h = new long[n];
            double[] w = new double[n];
            for (int i = 0; i < n; i++) {
                h[i] = r.nextBoolean() ? r.nextLong() : (i > 0 && r.nextBoolean() ? ~h[i - 1] : SPECIAL[r.nextInt(SPECIAL.length)]);
                w[i] = switch (r.nextInt(4)) {
                    case 0 -> extremes[r.nextInt(extremes.length)];
                    case 1 -> 1.0;
                    case 2 -> i > 0 ? w[i - 1] : 0.5;
                    default -> Math.min(Double.MAX_VALUE, logTf(2 + r.nextInt(4)) * (r.nextBoolean() ? 1 : extremes[r.nextInt(extremes.length)]));
                };
            }
            assertEquals(null, checkAll(acc, h, w, r.nextInt(n + 1), r.nextInt(n + 1)), "rep " + rep);
        }
    }

    @Test
    void hugeDocuments() {
        SimHashAccumulator acc = new SimHashAccumulator();
        Random r = new Random(17);
        // log_tf of long documents (many distinct tf values)
        for (int n : new int[] { 200_000, (1 << 20) + 1000 }) {
            long[] h = new long[n];
            double[] w = new double[n];
            for (int i = 0; i < n; i++) {
                h[i] = r.nextLong();
                w[i] = n > 200_000 ? (r.nextBoolean() ? 1.0 : logTf(2 + r.nextInt(3))) : logTf(zipfTf(r));
            }
            assertEquals(null, checkAll(acc, h, w, n / 3, (1 << 20)), "n " + n);
        }
        // the same accumulator then takes a small document again
        assertEquals(null, checkAll(acc, new long[] { 5, ~5L, 7 }, new double[] { logTf(3), logTf(3), 0.25 }, 2));
    }

    @Test
    void argumentsAndEmptyInput() {
        SimHashAccumulator acc = new SimHashAccumulator();
        for (double bad : new double[] { 0, -0.0, -1, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY }) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> acc.add(1, bad));
            assertEquals("feature weight must be a positive finite number, got [" + bad + "]", e.getMessage());
        }
        assertTrue(acc.isEmpty());
        assertEquals(0, acc.count());
        assertThrows(IllegalStateException.class, acc::fingerprint);
        acc.add(3, logTf(2));
        acc.add(3, 1);
        assertEquals(2, acc.count());
        assertEquals(3L, acc.fingerprint());
        acc.reset();
        assertTrue(acc.isEmpty());
        assertThrows(IllegalStateException.class, acc::fingerprint);
    }

}
