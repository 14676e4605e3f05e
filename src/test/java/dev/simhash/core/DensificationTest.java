package dev.simhash.core;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Densification fills every empty bin as the spec's probing does, whichever of its ways it takes (it chooses by how many
 * bins are filled): checked against plain probing, written here from the spec, for every number of filled bins.
 */
class DensificationTest {

    /** The spec's rule: an empty bin takes the value of the first filled bin of mix(EMPTY_SEED + bin * GOLDEN + attempt). */
    private static long[] byProbing(long[] bins) {
        int binBits = Integer.numberOfTrailingZeros(bins.length);
        long[] out = bins.clone();
        for (int bin = 0; bin < bins.length; bin++) {
            for (long attempt = 0; out[bin] == -1L; attempt++) {
                int j = (int) (ReferenceMinHashV1.splitMix(0x64656E7369667921L + bin * 0x9E3779B97F4A7C15L + attempt) >>> (64 - binBits));
                out[bin] = bins[j];
            }
        }
        return out;
    }

    /** {@code bins} bins of which exactly {@code filled} hold a (distinct) value, the rest empty (-1). */
    private static long[] withFilled(Random r, int bins, int filled) {
        long[] min = new long[bins];
        Arrays.fill(min, -1L);
        int[] order = new int[bins];
        for (int i = 0; i < bins; i++) {
            order[i] = i;
        }
        for (int k = 0; k < filled; k++) {
            int pick = k + r.nextInt(bins - k);
            int bin = order[pick];
            order[pick] = order[k];
            order[k] = bin;
            min[bin] = r.nextLong() >>> 9;
        }
        return min;
    }

    @Test
    void everyNumberOfFilledBinsOf512GivesTheProbingAnswer() {
        Random r = new Random(20261128);
        for (int filled = 1; filled <= 512; filled++) {
            for (int round = 0; round < 6; round++) {
                long[] min = withFilled(r, 512, filled);
                long[] expected = byProbing(min);
                Densification.fill(min, 9);
                assertArrayEquals(expected, min, filled + " filled bins, round " + round);
            }
        }
    }

    @Test
    void otherBinCountsProbe() {
        Random r = new Random(11);
        for (int bins : new int[] { 2, 64, 1024 }) {
            for (int filled : new int[] { 1, 2, bins / 3 + 1, bins - 1, bins }) {
                long[] min = withFilled(r, bins, filled);
                long[] expected = byProbing(min);
                Densification.fill(min, Integer.numberOfTrailingZeros(bins));
                assertArrayEquals(expected, min, bins + " bins, " + filled + " filled");
            }
        }
    }

    @Test
    void noFilledBinIsRefused() {
        long[] min = new long[512];
        Arrays.fill(min, -1L);
        assertThrows(IllegalArgumentException.class, () -> Densification.fill(min, 9));
    }
}
