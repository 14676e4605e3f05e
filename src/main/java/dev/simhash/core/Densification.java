package dev.simhash.core;

/**
 * Optimal densification (Shrivastava 2017) of a one-permutation MinHash, as minhash-v1 defines it: a bin without a
 * shingle takes the minimum of the first non-empty bin in its probe sequence, the bins named by the top bits of
 * {@code mix(EMPTY_SEED + bin * GOLDEN + attempt)} for attempt = 0, 1, ...
 *
 * <p>Probing costs about {@code bins / filled} hashes per empty bin: cheap for a long text, hundreds of hashes per bin
 * for a short one (a title: a few shingles in 512 bins). For 512 bins the probe sequences are fixed, so the rank at
 * which each bin's sequence first reaches each other bin is kept once ({@code RANK}, by the bin reached: one row per
 * possible source). With few non-empty bins, each empty bin's source is the non-empty bin of lowest rank in its
 * sequence: one pass over the rows of the non-empty bins, in order, at most {@value #FEW} rows of 512 ranks. With more,
 * a few probes per empty bin find one, the first {@value #KEPT} of each sequence read from a table. Either way the same
 * answer as probing.
 */
final class Densification {

    private static final int TABLE_BINS = 512;
    /** Below this many non-empty bins, the lowest rank among them (f rows of 512); from here on, probing (512 / f hashes per empty bin). */
    private static final int FEW = 30;
    /** Probes per bin kept in {@code PROBES}. */
    private static final int KEPT = 32;

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
        if (f >= FEW) {
            // the first probes of every bin from a table of 32 KB; rarely (under 3% of the empty bins) hashing on
            short[] probes = Table.PROBES;
            for (int word = 0; word < set.length; word++) {
                // the empty bins of this word, one by one, without testing the others
                for (long empty = ~set[word]; empty != 0; empty &= empty - 1) {
                    int i = (word << 6) | Long.numberOfTrailingZeros(empty);
                    int at = i * KEPT;
                    int end = at + KEPT;
                    int j = probes[at];
                    while (((set[j >>> 6] >>> j) & 1) == 0 && ++at < end) {
                        j = probes[at];
                    }
                    min[i] = min[at < end ? j : probe(i, set, binBits, KEPT)];
                }
            }
            return;
        }
        // best[i]: (rank << 9) | source, the lowest-ranked non-empty bin of bin i's sequence seen so far
        short[] rank = Table.RANK;
        int[] best = new int[TABLE_BINS];
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
     * RANK[j * 512 + i]: the position at which bin i's probe sequence first reaches bin j; PROBES[i * 32 + a]: the bin of
     * bin i's attempt a. Built once (about two million hashes), 544 KB.
     */
    private static final class Table {
        static final short[] RANK = new short[TABLE_BINS * TABLE_BINS];
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
                        RANK[j * TABLE_BINS + i] = (short) k;
                        k++;
                    }
                }
            }
        }
    }
}
