package dev.simhash.calibrate;

import dev.simhash.core.MinHashSketch;
import dev.simhash.core.SketchBands;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class VerifiedPairsTest {

    private static final MinHashSketch V1 = MinHashSketch.V1;

    /**
     * A minhash-v1 sketch (512 one-bit bins in 64 bytes, then 14 band keys) with the bits from..to-1 set: two such sketches
     * that differ in x bits have 512 - x equal bins, an estimated similarity of 2 (512 - x) / 512 - 1 = 1 - x / 256. Its
     * band keys are drawn from (from, to): equal sketches share every band, different ones none.
     */
    static byte[] bits(int from, int to) {
        byte[] b = new byte[MinHashSketch.BYTES];
        for (int i = from; i < to; i++) {
            b[i >>> 3] |= (byte) (1 << (i & 7));
        }
        byte[] keys = new byte[MinHashSketch.BYTES - 64];
        new java.util.Random(1_000L * from + to).nextBytes(keys);
        System.arraycopy(keys, 0, b, 64, keys.length);
        return b;
    }

    /** {@code sketch} with the band keys of {@code other}: equal bins, other bands. */
    static byte[] keysOf(byte[] sketch, byte[] other) {
        byte[] b = sketch.clone();
        System.arraycopy(other, 64, b, 64, MinHashSketch.BYTES - 64);
        return b;
    }

    @Test
    void theGridAndItsRadii() {
        assertEquals(10, VerifiedPairs.GRID.size());
        assertEquals(0.5, VerifiedPairs.GRID.get(0), 0);
        assertEquals(0.8, VerifiedPairs.GRID.get(6), 0);
        assertEquals(0.95, VerifiedPairs.GRID.get(9), 0);
        // the radii of docs/spec/minhash-v1.md's table
        assertEquals(16, VerifiedPairs.radius(0.5));
        assertEquals(16, VerifiedPairs.radius(0.7));
        assertEquals(13, VerifiedPairs.radius(0.8));
        assertEquals(10, VerifiedPairs.radius(0.9));
        assertEquals(7, VerifiedPairs.radius(0.95));
    }

    @Test
    void handMadeSketches() {
        assertEquals(0.75, V1.similarity(bits(0, 0), bits(0, 64)), 0);
        assertEquals(0.5, V1.similarity(bits(0, 64), bits(64, 128)), 0);
    }

    @Test
    void countsOfAHandCheckedExample() {
        // A = 0, B = 1 (A-B: 1 bit), C far from both, D = 3 (1 bit from B, 2 from A) without a sketch
        long[] fps = { 0x0L, 0x1L, 0xFFFF_FFFFL, 0x3L };
        // A-B differ in 64 bins: 0.75; A-C are identical sketches (1.0) 32 bits apart: candidates by the bands only
        byte[][] sketches = { bits(0, 0), bits(0, 64), bits(0, 0), null };
        VerifiedPairs v = new VerifiedPairs(fps, sketches, V1, RandomPairs.Related.NONE, RandomPairs.of(fps));
        assertEquals(6, v.pairs());
        assertEquals(3, v.sketchedPairs());
        for (double s : VerifiedPairs.GRID) {
            // below 0.78 the radius (at most 16 bits): A-B only, up to its similarity 0.75 (equal at 0.75 passes); from
            // 0.8 the bands: A-C only, which share them all
            long expected = 1;
            assertEquals(expected, v.matched(s), "at " + s);
            assertEquals(0, v.relatedMatched(s));
            assertEquals(expected / 6.0, v.observedRate(s), 1e-12, "at " + s);
        }
        // the same pairs, A-C without a shared band: nothing from 0.8 on
        byte[][] apart = { bits(0, 0), bits(0, 64), keysOf(bits(0, 0), bits(1, 1)), null };
        VerifiedPairs withoutBands = new VerifiedPairs(fps, apart, V1, RandomPairs.Related.NONE, RandomPairs.of(fps));
        assertEquals(1, withoutBands.matched(0.75));
        assertEquals(0, withoutBands.matched(0.8));
        // the pair A-B related: matched, but not a false match
        VerifiedPairs related = new VerifiedPairs(fps, sketches, V1, (i, j) -> i == 0 && j == 1, RandomPairs.of(fps));
        assertEquals(1, related.matched(0.6));
        assertEquals(1, related.relatedMatched(0.6));
        assertEquals(0, related.observedRate(0.6), 0);
        assertThrows(IllegalArgumentException.class, () -> v.matched(0.62));
    }

    @Test
    void eachThresholdTakesItsOwnCandidates() {
        // 14 bits apart, identical sketches: within the radius of 0.5..0.75 (16, 14); from 0.8 on the shared bands decide,
        // at any distance
        long[] fps = { 0x0L, 0x3FFFL };
        byte[] sketch = bits(0, 10);
        VerifiedPairs shared = new VerifiedPairs(fps, new byte[][] { sketch, sketch }, V1, RandomPairs.Related.NONE, RandomPairs.of(fps));
        assertEquals(1, shared.matched(0.75));
        assertEquals(1, shared.matched(0.8));
        assertEquals(1, shared.matched(0.95));
        VerifiedPairs apart = new VerifiedPairs(fps, new byte[][] { sketch, keysOf(sketch, bits(1, 1)) }, V1, RandomPairs.Related.NONE,
            RandomPairs.of(fps));
        assertEquals(1, apart.matched(0.75));
        assertEquals(0, apart.matched(0.8));
        assertEquals(0, apart.matched(0.95));
        // 17 bits apart: beyond every radius; the bands still find it
        long[] far = { 0x0L, 0x1FFFFL };
        VerifiedPairs beyond = new VerifiedPairs(far, new byte[][] { sketch, sketch }, V1, RandomPairs.Related.NONE, RandomPairs.of(far));
        assertEquals(0, beyond.matched(0.75));
        assertEquals(1, beyond.matched(0.8));
    }

    @Test
    void binomialTails() {
        // P[Bin(4, 1/2) >= 2] = (6 + 4 + 1) / 16
        assertEquals(11.0 / 16, VerifiedPairs.binomialUpperTail(4, 2, 0.5), 1e-12);
        // P[Bin(10, 0.3) >= 8], term by term
        double p = 0.3;
        double q = 0.7;
        double expected = 45 * Math.pow(p, 8) * q * q + 10 * Math.pow(p, 9) * q + Math.pow(p, 10);
        assertEquals(expected, VerifiedPairs.binomialUpperTail(10, 8, p), 1e-15);
        assertEquals(1, VerifiedPairs.binomialUpperTail(512, 0, 0.1), 0);
        assertEquals(0, VerifiedPairs.binomialUpperTail(512, 513, 0.9), 0);
        // symmetric: P[Bin(512, 1/2) >= 257] = (1 - P[X = 256]) / 2, P[X = 256] = C(512, 256) / 2^512 ~ 0.0352
        double center = Math.exp(lnC(512, 256) - 512 * Math.log(2));
        assertEquals((1 - center) / 2, VerifiedPairs.binomialUpperTail(512, 257, 0.5), 1e-12);
    }

    private static double lnC(int n, int k) {
        double s = 0;
        for (int i = 0; i < k; i++) {
            s += Math.log(n - i) - Math.log(k - i);
        }
        return s;
    }

    @Test
    void sketchPassChance() {
        VerifiedPairs v = new VerifiedPairs(new long[0], new byte[0][], V1, RandomPairs.Related.NONE, RandomPairs.of(new long[0]));
        // identical texts always pass; at true similarity 0.5 each bin is equal with probability 0.75 (mean 384 bins):
        // s = 0.5 needs 384 bins, so a little over half of such pairs pass; s = 0.7 needs 436, 5.3 sd above the mean
        assertEquals(1, v.sketchPassChance(0.95, 1.0), 1e-12);
        double atHalf = v.sketchPassChance(0.5, 0.5);
        assertTrue(atHalf > 0.5 && atHalf < 0.55, "" + atHalf);
        assertTrue(v.sketchPassChance(0.7, 0.5) < 1e-6);
        assertTrue(v.sketchPassChance(0.6, 0.5) > v.sketchPassChance(0.65, 0.5));
        // no pairs: no estimate, nothing observed
        assertTrue(Double.isNaN(v.estimatedRate(0.8)));
        assertEquals(0, v.falseMatchRate(0.8), 0);
    }

    @Test
    void theRateIsTheLargerOfObservedAndEstimatedAndTheLowestThresholdWithinTheTargetIsChosen() {
        // three documents with one fingerprint (the simhash rate is 1 at every radius: no spread, no estimate)
        // A-B share 448 of 512 bins (0.75), A-C 384 (0.5), B-C 320 (0.25)
        long[] fps = { 7L, 7L, 7L };
        byte[][] sketches = { bits(0, 0), bits(0, 64), bits(64, 192) };
        RandomPairs simhash = RandomPairs.of(fps);
        assertEquals(1, simhash.falseMatchRate(16), 0);
        VerifiedPairs v = new VerifiedPairs(fps, sketches, V1, RandomPairs.Related.NONE, simhash);
        assertEquals(2, v.matched(0.5));
        assertEquals(1, v.matched(0.55));
        assertEquals(1, v.matched(0.75));
        assertEquals(0, v.matched(0.8));
        // the estimate below the bands: the simhash rate (1) times the chance that a pair at 0.5 passes; from the bands on,
        // the chance that a pair at 0.5 shares a band (1 - (1 - 0.5^5)^14, 0.359) instead of the simhash rate
        assertEquals(v.sketchPassChance(0.75, 0.5), v.estimatedRate(0.75), 0);
        assertEquals(SketchBands.shareProbability(0.5) * v.sketchPassChance(0.8, 0.5), v.estimatedRate(0.8), 0);
        assertEquals(0.359, SketchBands.shareProbability(0.5), 0.001);
        assertEquals(2.0 / 3, v.falseMatchRate(0.5), 1e-12);
        assertEquals("observed", v.falseMatchRateFrom(0.5));
        assertEquals("estimate", v.falseMatchRateFrom(0.8));
        double previous = 2;
        for (double s : VerifiedPairs.GRID) {
            assertTrue(v.falseMatchRate(s) <= previous, "non-increasing at " + s);
            previous = v.falseMatchRate(s);
        }
        // 0.5 shows 2/3 > 0.4; 0.55 shows 1/3, and its estimate (about 0.1, under 1/3) keeps it within 0.4
        assertEquals(0.55, v.lowestWithin(0.4), 0);
        // 1/3 is above 0.2 up to 0.75; at 0.8 nothing is observed and the estimate is tiny
        assertEquals(0.8, v.lowestWithin(0.2), 0);
        // nothing is within a target below every estimate
        assertTrue(Double.isNaN(v.lowestWithin(Double.MIN_VALUE)));
    }
}
