package dev.simhash.core;

/**
 * Optimal densification (Shrivastava 2017) of a one-permutation MinHash, as minhash-v1 defines it: a bin without a
 * shingle takes the minimum of the first non-empty bin in its probe sequence, the bins named by the top bits of
 * {@code mix(EMPTY_SEED + bin * GOLDEN + attempt)} for attempt = 0, 1, ...
 *
 * <p>Probing costs about {@code bins / f} table reads per empty bin when {@code f} bins are filled, each ending in a
 * branch the processor cannot predict: cheap for a long text, costly for a paragraph (tens of shingles in 512 bins) and
 * a title (a few). For 512 bins the probe sequences are fixed, so three exact ways to the same answer are kept, chosen
 * by {@code f}:
 * <ul>
 * <li>from {@value #MANY} filled bins, probing the first {@value #KEPT} attempts of each sequence from a table
 * ({@code PROBES}), hashing on in the rare case none of them is filled;</li>
 * <li>from {@value #FEW}, the other way round: each filled bin walks the list of (attempt, bin) pairs whose probe
 * reaches it ({@code REACHED}, by attempt), up to an attempt limit of about {@code 3 * 512 / f}; each empty bin keeps
 * the lowest attempt that reached it (no branch per entry), and the few that no filled bin reached within the limit
 * (about 5%) probe on from there;</li>
 * <li>below, the rank at which each bin's sequence first reaches each other bin ({@code RANK}, one row per possible
 * source): each empty bin's source is the filled bin of lowest rank, one pass over the rows of the filled bins.</li>
 * </ul>
 */
final class Densification {

    private static final int TABLE_BINS = 512;
    /** Below this many filled bins, the lowest rank among them (f rows of 512); from here on, the reached lists. */
    private static final int FEW = 18;
    /** From this many filled bins on, probing (about 512 / f table reads per empty bin). */
    private static final int MANY = 160;
    /** Attempts tested together when probing from the table. */
    private static final int BATCH = 8;
    /** Attempts per bin kept in {@code PROBES} and {@code REACHED}. */
    private static final int KEPT = 64;

    /** The thread's per-bin best sources, filled anew by each call that uses them. */
    private static final ThreadLocal<int[]> BEST = ThreadLocal.withInitial(() -> new int[TABLE_BINS]);

    private Densification() {}

    /** Fills every empty bin ({@code -1}) of {@code min} (a power-of-two length, at least one bin set) in place. */
    static void fill(long[] min, int binBits) {
        int bins = min.length;
        long[] set = new long[(bins + 63) >>> 6];
        for (int i = 0; i < bins; i++) {
            // without a branch: min + 1 is 0 exactly for an empty bin (-1)
            long e = min[i] + 1;
            set[i >>> 6] |= ((e | -e) >>> 63) << i;
        }
        int f = 0;
        for (long word : set) {
            f += Long.bitCount(word);
        }
        if (f == bins) {
            return;
        }
        if (f == 0) {
            throw new IllegalArgumentException("no bin is set");
        }
        if (bins != TABLE_BINS) {
            for (int i = 0; i < bins; i++) {
                if ((set[i >>> 6] & (1L << i)) == 0) {
                    min[i] = min[probe(i, set, binBits, 0)];
                }
            }
            return;
        }
        if (f >= MANY) {
            // the empty bins of each word, one by one, without testing the others; each probes from its first attempt
            for (int word = 0; word < set.length; word++) {
                for (long empty = ~set[word]; empty != 0; empty &= empty - 1) {
                    int i = (word << 6) | Long.numberOfTrailingZeros(empty);
                    min[i] = min[probeFrom(i, 0, set, binBits)];
                }
            }
            return;
        }
        if (f >= FEW) {
            // attempts below `limit` by the lists of the filled bins: an empty bin a filled bin reached at attempt a keeps
            // the least (a << 9) | source; attempts are unique per bin, so the least attempt names one source
            int limit = Math.min(KEPT, (3 * TABLE_BINS + f - 1) / f);
            int cut = limit << 9;
            short[] reached = Table.REACHED;
            int[] from = Table.REACHED_FROM;
            int[] best = BEST.get();
            java.util.Arrays.fill(best, Integer.MAX_VALUE);
            for (int word = 0; word < set.length; word++) {
                for (long filled = set[word]; filled != 0; filled &= filled - 1) {
                    int j = (word << 6) | Long.numberOfTrailingZeros(filled);
                    for (int k = from[j], end = from[j + 1]; k < end; k++) {
                        int e = reached[k];
                        if (e >= cut) {
                            break;
                        }
                        int i = e & (TABLE_BINS - 1);
                        best[i] = Math.min(best[i], (e & ~(TABLE_BINS - 1)) | j);
                    }
                }
            }
            for (int word = 0; word < set.length; word++) {
                for (long empty = ~set[word]; empty != 0; empty &= empty - 1) {
                    int i = (word << 6) | Long.numberOfTrailingZeros(empty);
                    int b = best[i];
                    min[i] = min[b < cut ? b & (TABLE_BINS - 1) : probeFrom(i, limit, set, binBits)];
                }
            }
            return;
        }
        // best[i]: (rank << 9) | source, the lowest-ranked non-empty bin of bin i's sequence seen so far
        short[] rank = Table.RANK;
        int[] best = BEST.get();
        java.util.Arrays.fill(best, Integer.MAX_VALUE);
        for (int word = 0; word < set.length; word++) {
            for (long filled = set[word]; filled != 0; filled &= filled - 1) {
                int j = (word << 6) | Long.numberOfTrailingZeros(filled);
                int row = j * TABLE_BINS;
                for (int i = 0; i < TABLE_BINS; i++) {
                    best[i] = Math.min(best[i], (rank[row + i] << 9) | j);
                }
            }
        }
        for (int word = 0; word < set.length; word++) {
            for (long empty = ~set[word]; empty != 0; empty &= empty - 1) {
                int i = (word << 6) | Long.numberOfTrailingZeros(empty);
                min[i] = min[best[i] & (TABLE_BINS - 1)];
            }
        }
    }

    /**
     * The first non-empty bin of bin {@code i}'s probe sequence (of 512 bins) from attempt {@code first} on (the earlier
     * ones were empty): from the table while it lasts, then by hashing.
     */
    private static int probeFrom(int i, int first, long[] set, int binBits) {
        short[] probes = Table.PROBES;
        int at = i * KEPT + first;
        int end = (i + 1) * KEPT;
        // eight attempts at a time, without a branch per attempt: which of them name a filled bin, then the first of those
        for (; at + BATCH <= end; at += BATCH) {
            int hits = 0;
            for (int k = 0; k < BATCH; k++) {
                int j = probes[at + k];
                hits |= (int) ((set[j >>> 6] >>> j) & 1) << k;
            }
            if (hits != 0) {
                return probes[at + Integer.numberOfTrailingZeros(hits)];
            }
        }
        for (; at < end; at++) {
            int j = probes[at];
            if (((set[j >>> 6] >>> j) & 1) != 0) {
                return j;
            }
        }
        return probe(i, set, binBits, KEPT);
    }

    /** The first non-empty bin of bin {@code i}'s probe sequence from attempt {@code from} on (the earlier ones were empty), by probing. */
    static int probe(int i, long[] set, int binBits, long from) {
        for (long attempt = from;; attempt++) {
            int j = target(i, attempt, binBits);
            if ((set[j >>> 6] & (1L << j)) != 0) {
                return j;
            }
        }
    }

    private static int target(int i, long attempt, int binBits) {
        return (int) (MinHashSketch.mix(MinHashSketch.EMPTY_SEED + i * MinHashSketch.GOLDEN + attempt) >>> (64 - binBits));
    }

    /**
     * RANK[j * 512 + i]: the position at which bin i's probe sequence first reaches bin j; PROBES[i * 64 + a]: the bin of
     * bin i's attempt a; REACHED[REACHED_FROM[j] ..< REACHED_FROM[j + 1]]: the pairs (a << 9) | i of the bins i whose
     * attempt a (below 64) is bin j, by attempt. Built once (about two million hashes), 640 KB.
     */
    private static final class Table {
        static final short[] RANK = new short[TABLE_BINS * TABLE_BINS];
        static final short[] PROBES = new short[TABLE_BINS * KEPT];
        static final short[] REACHED = new short[TABLE_BINS * KEPT];
        static final int[] REACHED_FROM = new int[TABLE_BINS + 1];

        static {
            int binBits = Integer.numberOfTrailingZeros(TABLE_BINS);
            boolean[] seen = new boolean[TABLE_BINS];
            for (int i = 0; i < TABLE_BINS; i++) {
                for (int a = 0; a < KEPT; a++) {
                    PROBES[i * KEPT + a] = (short) target(i, a, binBits);
                }
                java.util.Arrays.fill(seen, false);
                int k = 0;
                for (long attempt = 0; k < TABLE_BINS; attempt++) {
                    int j = target(i, attempt, binBits);
                    if (!seen[j]) {
                        seen[j] = true;
                        RANK[j * TABLE_BINS + i] = (short) k;
                        k++;
                    }
                }
            }
            for (short j : PROBES) {
                REACHED_FROM[j + 1]++;
            }
            for (int j = 0; j < TABLE_BINS; j++) {
                REACHED_FROM[j + 1] += REACHED_FROM[j];
            }
            int[] next = java.util.Arrays.copyOf(REACHED_FROM, TABLE_BINS);
            // attempt by attempt, so that each bin's list is in attempt order; (63 << 9) | 511 fits a short
            for (int a = 0; a < KEPT; a++) {
                for (int i = 0; i < TABLE_BINS; i++) {
                    REACHED[next[PROBES[i * KEPT + a]]++] = (short) ((a << 9) | i);
                }
            }
        }
    }
}
