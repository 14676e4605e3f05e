package dev.simhash.core;

/**
 * Optimal densification (Shrivastava 2017) of a one-permutation MinHash, as minhash-v1 defines it: a bin without a
 * shingle takes the minimum of the first non-empty bin in its probe sequence, the bins named by the top bits of
 * {@code mix(EMPTY_SEED + bin * GOLDEN + attempt)} for attempt = 0, 1, ...
 *
 * <p>Probing costs about {@code bins / f} table reads per empty bin when {@code f} bins are filled, each ending in a
 * branch the processor cannot predict: cheap for a long text, costly for a paragraph (tens of shingles in 512 bins) and
 * a title (a few). For 512 bins the probe sequences are fixed, so two exact ways to the same answer are kept, chosen by
 * {@code f}:
 * <ul>
 * <li>from {@value #MANY} filled bins, probing the first {@value #KEPT} attempts of each sequence from a table
 * ({@code PROBES}), eight at a time, hashing on in the rare case none of them is filled;</li>
 * <li>below, the rank at which each bin's sequence first reaches each other bin ({@code RANKED}, one row per possible
 * source): each empty bin's source is the filled bin of lowest rank, the minimum over the rows of the filled bins,
 * a loop over whole rows that the compiler runs eight or sixteen bins at a time (f rows of 512: below {@value #MANY}
 * filled bins, cheaper than probing).</li>
 * </ul>
 */
final class Densification {

    private static final int TABLE_BINS = 512;
    /** From this many filled bins on, probing (about 512 / f table reads per empty bin); below, the lowest rank (f rows of 512). */
    private static final int MANY = 112;
    /** Attempts tested together when probing from the table. */
    private static final int BATCH = 8;
    /** Attempts per bin kept in {@code PROBES} (a multiple of {@link #BATCH}). */
    private static final int KEPT = 64;

    /** The thread's per-bin best sources, filled anew by each call that uses them. */
    private static final ThreadLocal<int[]> BEST = ThreadLocal.withInitial(() -> new int[TABLE_BINS]);
    /** The thread's filled bins as bytes (1: filled), filled anew by each call that uses them. */
    private static final ThreadLocal<byte[]> FLAGS = ThreadLocal.withInitial(() -> new byte[TABLE_BINS]);

    private Densification() {}

    /** Fills every empty bin ({@code -1}) of {@code min} (a power-of-two length, at least one bin set) in place. */
    static void fill(long[] min, int binBits) {
        int bins = min.length;
        long[] set = new long[(bins + 63) >>> 6];
        for (int i = 0; i < bins; i += 64) {
            // a word at a time, kept in a register; without a branch: min + 1 is 0 exactly for an empty bin (-1)
            long word = 0;
            for (int k = 0, end = Math.min(64, bins - i); k < end; k++) {
                long e = min[i + k] + 1;
                word |= ((e | -e) >>> 63) << k;
            }
            set[i >>> 6] = word;
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
            // the filled bins as bytes too, so that a probe reads one byte
            byte[] flags = FLAGS.get();
            java.util.Arrays.fill(flags, (byte) 0);
            for (int word = 0; word < set.length; word++) {
                for (long filled = set[word]; filled != 0; filled &= filled - 1) {
                    flags[(word << 6) | Long.numberOfTrailingZeros(filled)] = 1;
                }
            }
            // the empty bins of each word, one by one, without testing the others; each probes from its first attempt
            for (int word = 0; word < set.length; word++) {
                for (long empty = ~set[word]; empty != 0; empty &= empty - 1) {
                    int i = (word << 6) | Long.numberOfTrailingZeros(empty);
                    min[i] = min[probeFrom(i, flags, set, binBits)];
                }
            }
            return;
        }
        // best[i]: (rank << 9) | source, the lowest-ranked non-empty bin of bin i's sequence seen so far; the rows of the
        // filled bins four at a time
        int[][] ranked = Table.RANKED;
        int[] best = BEST.get();
        java.util.Arrays.fill(best, Integer.MAX_VALUE);
        int[] a = null;
        int[] b = null;
        int[] c = null;
        int pending = 0;
        for (int word = 0; word < set.length; word++) {
            for (long filled = set[word]; filled != 0; filled &= filled - 1) {
                int[] row = ranked[(word << 6) | Long.numberOfTrailingZeros(filled)];
                switch (pending) {
                    case 0 -> a = row;
                    case 1 -> b = row;
                    case 2 -> c = row;
                    default -> lowerTo(best, a, b, c, row);
                }
                pending = (pending + 1) & 3;
            }
        }
        if (pending > 0) {
            lowerTo(best, a);
        }
        if (pending > 1) {
            lowerTo(best, b);
        }
        if (pending > 2) {
            lowerTo(best, c);
        }
        // a filled bin is its own source (rank 0 in its own row, every other rank one more), so one pass without a branch
        for (int i = 0; i < TABLE_BINS; i++) {
            min[i] = min[best[i] & (TABLE_BINS - 1)];
        }
    }

    /** {@code best[i] = min(best[i], row[i])} for every bin. */
    private static void lowerTo(int[] best, int[] row) {
        for (int i = 0; i < TABLE_BINS; i++) {
            best[i] = Math.min(best[i], row[i]);
        }
    }

    /** {@code best[i] = min(best[i], a[i], b[i], c[i], d[i])} for every bin. */
    private static void lowerTo(int[] best, int[] a, int[] b, int[] c, int[] d) {
        for (int i = 0; i < TABLE_BINS; i++) {
            best[i] = Math.min(Math.min(best[i], Math.min(a[i], b[i])), Math.min(c[i], d[i]));
        }
    }

    /** The first non-empty bin of bin {@code i}'s probe sequence (of 512 bins): from the table while it lasts, then by hashing. */
    private static int probeFrom(int i, byte[] flags, long[] set, int binBits) {
        short[] probes = Table.PROBES;
        // eight attempts at a time, without a branch per attempt: which of them name a filled bin, then the first of those
        for (int at = i * KEPT, end = at + KEPT; at < end; at += BATCH) {
            int hits = 0;
            for (int k = 0; k < BATCH; k++) {
                int j = probes[at + k];
                hits |= flags[j] << k;
            }
            if (hits != 0) {
                return probes[at + Integer.numberOfTrailingZeros(hits)];
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
     * RANKED[j][i]: {@code (r << 9) | j}, where r is one more than the position at which bin i's probe sequence first
     * reaches bin j, and 0 for i = j (a filled bin is its own source); PROBES[i * 64 + a]: the bin of bin i's attempt a.
     * Built once (about two million hashes), 1.1 MB.
     */
    private static final class Table {
        static final int[][] RANKED = new int[TABLE_BINS][TABLE_BINS];
        static final short[] PROBES = new short[TABLE_BINS * KEPT];

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
                        RANKED[j][i] = j == i ? j : (k + 1) << 9 | j;
                        k++;
                    }
                }
            }
        }
    }
}
