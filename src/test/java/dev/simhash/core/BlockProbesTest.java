package dev.simhash.core;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BlockProbesTest {

    @Test
    void withinEnumeratesExactlyTheBallNearestFirst() {
        Random r = new Random(11);
        for (int radius = 0; radius <= 16; radius++) {
            int value = r.nextInt(1 << 16);
            int[] probes = BlockProbes.within(value, radius);
            Set<Integer> seen = new HashSet<>();
            int lastDistance = 0;
            for (int p : probes) {
                assertTrue(p >= 0 && p <= 0xFFFF);
                assertTrue(seen.add(p), "duplicate probe " + p);
                int d = Integer.bitCount(p ^ value);
                assertTrue(d <= radius);
                assertTrue(d >= lastDistance, "not nearest first");
                lastDistance = d;
            }
            int expected = 0;
            for (int v = 0; v < 1 << 16; v++) {
                if (Integer.bitCount(v ^ value) <= radius) {
                    expected++;
                }
            }
            assertEquals(expected, probes.length, "radius " + radius);
            assertEquals(expected, BlockProbes.countWithin(radius));
        }
    }

    @Test
    void countsAreBinomialSums() {
        assertEquals(1, BlockProbes.countWithin(0));
        assertEquals(17, BlockProbes.countWithin(1));
        assertEquals(137, BlockProbes.countWithin(2));
        assertEquals(65536, BlockProbes.countWithin(16));
        assertEquals(65536, BlockProbes.countWithin(40));
        assertEquals(4, BlockProbes.probeCount(3));
        assertEquals(4 * 17, BlockProbes.probeCount(7));
        assertEquals(4 * 137, BlockProbes.probeCount(11));
    }

    /** The pigeonhole guarantee that makes the query exact: some block is within floor(r/4). */
    @Test
    void everyPairWithinRHasABlockWithinPerBlockRadius() {
        Random rnd = new Random(5);
        for (int i = 0; i < 200_000; i++) {
            long a = rnd.nextLong();
            int r = rnd.nextInt(65);
            long b = a;
            int flips = rnd.nextInt(r + 1);
            for (int f = 0; f < flips; f++) {
                b ^= 1L << rnd.nextInt(64);
            }
            assertTrue(SimHash.distance(a, b) <= r);
            int pr = BlockProbes.perBlockRadius(r);
            boolean some = false;
            for (int j = 0; j < 4; j++) {
                if (Integer.bitCount(SimHash.block(a, j) ^ SimHash.block(b, j)) <= pr) {
                    some = true;
                }
            }
            assertTrue(some, "no block within " + pr + " for r=" + r);
        }
    }

    @Test
    void maxDistanceOutOfRangeIsRejectedNamingTheParameter() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> BlockProbes.perBlockRadius(65));
        assertEquals("[max_distance] must be between 0 and 64, got [65]", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> BlockProbes.perBlockRadius(-1));
        assertThrows(IllegalArgumentException.class, () -> BlockProbes.within(70000, 1));
    }
}
