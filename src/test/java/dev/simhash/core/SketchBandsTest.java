package dev.simhash.core;

import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The band terms of a sketch, the band rule, and the documented chance that a pair at a threshold shares a band. */
class SketchBandsTest {

    @Test
    void bandJIsItsNumberThenItsKeyAfterTheBinsBits() {
        byte[] sketch = new byte[MinHashSketch.BYTES];
        for (int i = 0; i < sketch.length; i++) {
            sketch[i] = (byte) (100 + i);
        }
        assertEquals(134, MinHashSketch.BYTES);
        BytesRef[] terms = SketchBands.values(sketch);
        assertEquals(14, terms.length);
        // an indexed value read back as a number is the number longValues gives its band: j << 40 | the key's 5 bytes
        long[] numbers = SketchBands.longValues(sketch, 0);
        for (int j = 0; j < terms.length; j++) {
            assertEquals(numbers[j], SketchBands.longValue(terms[j].bytes, terms[j].offset));
        }
        assertEquals((13L << 40) | 0xE5E6E7E8E9L, numbers[13]);
        // the keys start at byte 64, 5 bytes each: band 0 is bytes 64..68, band 13 bytes 129..133
        assertArrayEquals(new byte[] { 0, (byte) 164, (byte) 165, (byte) 166, (byte) 167, (byte) 168 }, BytesRef.deepCopyOf(terms[0]).bytes);
        assertArrayEquals(new byte[] { 13, (byte) 229, (byte) 230, (byte) 231, (byte) 232, (byte) 233 }, BytesRef.deepCopyOf(terms[13]).bytes);
        assertThrows(IllegalArgumentException.class, () -> SketchBands.values(new byte[64]));
    }

    @Test
    void theSharedBandsAreTheEqualBandTerms() {
        Random r = new Random(7);
        for (int round = 0; round < 2000; round++) {
            byte[] a = new byte[MinHashSketch.BYTES];
            r.nextBytes(a);
            byte[] b = a.clone();
            for (int flips = r.nextInt(30); flips > 0; flips--) {
                int bit = r.nextInt(b.length * 8);
                b[bit >>> 3] ^= (byte) (1 << (bit & 7));
            }
            int sameTerms = 0;
            BytesRef[] ta = SketchBands.values(a);
            BytesRef[] tb = SketchBands.values(b);
            for (int j = 0; j < ta.length; j++) {
                sameTerms += ta[j].equals(tb[j]) ? 1 : 0;
            }
            assertEquals(sameTerms, SketchBands.sharedBands(a, 0, b, 0));
        }
        byte[] a = new byte[6 + MinHashSketch.BYTES];
        byte[] b = new byte[MinHashSketch.BYTES];
        a[6 + 64 + 5 * 3 + 4] = 1; // offsets: a's sketch starts at 6; only band 3's last key byte differs
        a[6 + 10] = 1; // a bin's bit: no band
        assertEquals(13, SketchBands.sharedBands(a, 6, b, 0));
    }

    /**
     * The probabilities of docs/spec/minhash-v1.md ("Candidates"): 1 - (1 - s^5)^14. The expected values were computed
     * apart (Python, double precision).
     */
    @Test
    void theDocumentedChancesAreTheFormulas() {
        Map<Double, Double> p = new TreeMap<>(Map.of(0.5, 0.35884, 0.6, 0.67803, 0.7, 0.92393, 0.75, 0.97746, 0.77, 0.98795, 0.78, 0.99152,
            0.8, 0.99614, 0.85, 0.99973, 0.9, 0.9999963));
        p.forEach((s, expected) -> assertEquals(expected, SketchBands.shareProbability(s), 0.000005, "s " + s));
        assertEquals(1.0, SketchBands.shareProbability(1), 0.0);
        assertEquals(0.0, SketchBands.shareProbability(0), 0.0);
        assertThrows(IllegalArgumentException.class, () -> SketchBands.shareProbability(1.5));
        // the rule starts where it keeps at least 0.99 of the pairs at the threshold, and not lower
        assertEquals(0.78, SketchBands.FROM, 0.0);
        assertTrue(SketchBands.shareProbability(SketchBands.FROM) >= 0.99);
        assertTrue(SketchBands.shareProbability(0.77) < 0.99);
        assertTrue(SketchBands.covers(0.78) && SketchBands.covers(1.0) && !SketchBands.covers(0.7799));
        // texts sharing no shingle: 14 keys of 40 bits, 14 * 2^-40 per pair
        assertEquals(0.000127329, SketchBands.chanceCollisions(1e7), 1e-9);
        assertEquals(0.0127329, SketchBands.chanceCollisions(1e9), 1e-7);
    }

    /**
     * The formula against sketches of shingle sets with a known Jaccard similarity: two sets of 4,000 shingles (every bin
     * holds several, as in a long text) sharing a given part, sketched by minhash-v1 itself; the share of pairs that share
     * a band matches 1 - (1 - J^5)^14.
     */
    @Test
    void theFormulaAgreesWithSketchesOfSetsOfAKnownSimilarity() {
        Random r = new Random(11);
        for (double j : new double[] { 0.5, 0.7, 0.78, 0.8, 0.9 }) {
            int trials = 1500;
            int shared = 0;
            for (int t = 0; t < trials; t++) {
                int union = 4000;
                int common = (int) Math.round(j * union);
                long[] a = new long[common + (union - common) / 2];
                long[] b = new long[common + (union - common) - (union - common) / 2];
                for (int i = 0; i < common; i++) {
                    a[i] = b[i] = r.nextLong();
                }
                for (int i = common; i < a.length; i++) {
                    a[i] = r.nextLong();
                }
                for (int i = common; i < b.length; i++) {
                    b[i] = r.nextLong();
                }
                shared += SketchBands.sharedBands(MinHashSketch.V1.sketchOfShingles(a), 0, MinHashSketch.V1.sketchOfShingles(b), 0) > 0 ? 1 : 0;
            }
            double expected = SketchBands.shareProbability(j);
            double sigma = Math.sqrt(expected * (1 - expected) / trials);
            assertEquals(expected, shared / (double) trials, 4 * sigma + 2e-3, "J " + j);
        }
    }

    /** Texts that share no shingle share no band (a chance of 14 * 2^-40 per pair), however short: densified bins included. */
    @Test
    void setsWithoutACommonShingleShareNoBand() {
        Random r = new Random(13);
        for (int t = 0; t < 20000; t++) {
            long[] a = new long[1 + r.nextInt(t % 2 == 0 ? 4 : 600)];
            long[] b = new long[1 + r.nextInt(t % 3 == 0 ? 4 : 600)];
            Arrays.setAll(a, i -> r.nextLong());
            Arrays.setAll(b, i -> r.nextLong());
            assertEquals(0, SketchBands.sharedBands(MinHashSketch.V1.sketchOfShingles(a), 0, MinHashSketch.V1.sketchOfShingles(b), 0));
        }
    }

    @Test
    void theLastKeyBytesMarkExactlyTheBandsWithAnEqualLastByteAndTheKeysDecide() {
        Random random = new Random(31);
        int shared = 0;
        int byteOnly = 0;
        for (int round = 0; round < 20_000; round++) {
            byte[] a = new byte[MinHashSketch.BYTES];
            byte[] b = new byte[MinHashSketch.BYTES];
            random.nextBytes(a);
            random.nextBytes(b);
            for (int j = 0; j < 14; j++) {
                int key = 64 + 5 * j;
                switch (random.nextInt(8)) {
                    case 0 -> System.arraycopy(a, key, b, key, 5); // the band's key shared
                    case 1 -> b[key + 4] = a[key + 4]; // only its last byte
                    case 2 -> b[key + 4] = (byte) (a[key + 4] ^ 0x80); // differs in the high bit alone
                    case 3 -> b[key + 4] = (byte) (a[key + 4] ^ 0x01); // in the low bit alone
                    default -> { }
                }
            }
            long low = SketchBands.lastKeyBytes(a, 0, 0) ^ SketchBands.lastKeyBytes(b, 0, 0);
            long high = SketchBands.lastKeyBytes(a, 0, 8) ^ SketchBands.lastKeyBytes(b, 0, 8);
            long expectedLow = 0;
            long expectedHigh = 0;
            boolean expectedShare = false;
            for (int j = 0; j < 14; j++) {
                int last = 64 + 5 * j + 4;
                if (a[last] == b[last]) {
                    if (j < 8) {
                        expectedLow |= 0x80L << (8 * j);
                    } else {
                        expectedHigh |= 0x80L << (8 * (j - 8));
                    }
                }
                expectedShare |= Arrays.equals(a, 64 + 5 * j, last + 1, b, 64 + 5 * j, last + 1);
            }
            assertEquals(expectedLow, SketchBands.equalLastBytes(low, 0), "round " + round);
            assertEquals(expectedHigh, SketchBands.equalLastBytes(high, 8), "round " + round);
            assertEquals(expectedLow != 0 || expectedHigh != 0, SketchBands.mayShare(low, high), "round " + round);
            boolean share = SketchBands.shareABand(a, 0, b, 0, SketchBands.equalLastBytes(low, 0), 0)
                || SketchBands.shareABand(a, 0, b, 0, SketchBands.equalLastBytes(high, 8), 8);
            assertEquals(expectedShare, share, "round " + round);
            assertEquals(expectedShare, SketchBands.sharedBands(a, 0, b, 0) > 0, "round " + round);
            if (share) {
                shared++;
            } else if (expectedLow != 0 || expectedHigh != 0) {
                byteOnly++;
            }
        }
        assertTrue(shared > 1000 && byteOnly > 1000, "both cases happen: " + shared + " shared, " + byteOnly + " only a byte");
    }
}
