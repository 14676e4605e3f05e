package dev.simhash.core;

/**
 * Optimal densification (Shrivastava 2017) of a one-permutation MinHash, as minhash-v1 defines it: a bin without a
 * shingle takes the minimum of the first non-empty bin in its probe sequence, the bins named by the top bits of
 * {@code mix(EMPTY_SEED + bin * GOLDEN + attempt)} for attempt = 0, 1, ...
 *
 * <p>Probing costs about {@code bins / filled} hashes per empty bin, which for a short text (a title: a few shingles in
 * 512 bins) is hundreds of hashes per bin. For 512 bins the probe sequences are fixed, so each bin's sequence is kept
 * once as the order in which it first reaches each bin ({@code ORDER}) and the inverse ({@code RANK}): the first
 * non-empty bin of the sequence is then the non-empty bin of lowest rank, found by looking at the few non-empty bins
 * when there are few, or by walking the order when there are many. Either way at most about {@code sqrt(bins)} steps
 * per empty bin, and the same answer as probing.
 */
final class Densification {

    private static final int TABLE_BINS = 512;
    /** Below this many non-empty bins, the lowest rank among them; from here on, walking the order. */
    private static final int FEW = 23;

    private Densification() {}

    /** Fills every empty bin ({@code -1}) of {@code min} (a power-of-two length, at least one bin set) in place. */
    static void fill(long[] min, int binBits) {
        int bins = min.length;
        long[] set = new long[(bins + 63) >>> 6];
        int[] filled = new int[bins];
        int f = 0;
        for (int i = 0; i < bins; i++) {
            if (min[i] != -1L) {
                set[i >>> 6] |= 1L << i;
                filled[f++] = i;
            }
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
                    min[i] = min[probe(i, set, binBits)];
                }
            }
            return;
        }
        short[] order = Table.ORDER;
        short[] rank = Table.RANK;
        for (int i = 0; i < bins; i++) {
            if ((set[i >>> 6] & (1L << i)) != 0) {
                continue;
            }
            int base = i * TABLE_BINS;
            int source;
            if (f < FEW) {
                source = filled[0];
                for (int k = 1; k < f; k++) {
                    if (rank[base + filled[k]] < rank[base + source]) {
                        source = filled[k];
                    }
                }
            } else {
                int k = 0;
                while ((set[order[base + k] >>> 6] & (1L << order[base + k])) == 0) {
                    k++;
                }
                source = order[base + k];
            }
            min[i] = min[source];
        }
    }

    /** The first non-empty bin of bin {@code i}'s probe sequence, by probing. */
    static int probe(int i, long[] set, int binBits) {
        for (long attempt = 0;; attempt++) {
            int j = target(i, attempt, binBits);
            if ((set[j >>> 6] & (1L << j)) != 0) {
                return j;
            }
        }
    }

    private static int target(int i, long attempt, int binBits) {
        return (int) (MinHashSketch.mix(MinHashSketch.EMPTY_SEED + i * MinHashSketch.GOLDEN + attempt) >>> (64 - binBits));
    }

    /** The probe sequences of 512 bins: built once (about two million hashes), 1 MB. */
    private static final class Table {
        static final short[] ORDER = new short[TABLE_BINS * TABLE_BINS];
        static final short[] RANK = new short[TABLE_BINS * TABLE_BINS];

        static {
            int binBits = Integer.numberOfTrailingZeros(TABLE_BINS);
            boolean[] seen = new boolean[TABLE_BINS];
            for (int i = 0; i < TABLE_BINS; i++) {
                java.util.Arrays.fill(seen, false);
                int k = 0;
                for (long attempt = 0; k < TABLE_BINS; attempt++) {
                    int j = target(i, attempt, binBits);
                    if (!seen[j]) {
                        seen[j] = true;
                        ORDER[i * TABLE_BINS + k] = (short) j;
                        RANK[i * TABLE_BINS + j] = (short) k;
                        k++;
                    }
                }
            }
        }
    }
}
