package dev.simhash.core;

import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.Test;

import java.util.BitSet;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The band terms of a sketch, the band rule, and the documented chance that a pair at a threshold shares a band. */
class SketchBandsTest {

    @Test
    void bandJIsTheTermOfBytes2jAnd2jPlus1AfterItsNumber() {
        byte[] sketch = new byte[64];
        for (int i = 0; i < 64; i++) {
            sketch[i] = (byte) (200 + i);
        }
        BytesRef[] terms = SketchBands.terms(sketch);
        assertEquals(32, terms.length);
        assertArrayEquals(new byte[] { 0, (byte) 200, (byte) 201 }, BytesRef.deepCopyOf(terms[0]).bytes);
        assertArrayEquals(new byte[] { 5, (byte) 210, (byte) 211 }, BytesRef.deepCopyOf(terms[5]).bytes);
        assertArrayEquals(new byte[] { 31, (byte) 6, (byte) 7 }, BytesRef.deepCopyOf(terms[31]).bytes); // 262, 263 wrap to 6, 7
        assertThrows(IllegalArgumentException.class, () -> SketchBands.terms(new byte[63]));
    }

    @Test
    void theSharedBandsAreTheEqualBandTerms() {
        Random r = new Random(7);
        for (int round = 0; round < 2000; round++) {
            byte[] a = new byte[64];
            r.nextBytes(a);
            byte[] b = a.clone();
            for (int flips = r.nextInt(80); flips > 0; flips--) {
                int bit = r.nextInt(512);
                b[bit >>> 3] ^= (byte) (1 << (bit & 7));
            }
            int sameTerms = 0;
            BytesRef[] ta = SketchBands.terms(a);
            BytesRef[] tb = SketchBands.terms(b);
            for (int j = 0; j < 32; j++) {
                sameTerms += ta[j].equals(tb[j]) ? 1 : 0;
            }
            assertEquals(sameTerms, SketchBands.sharedBands(a, 0, b, 0));
        }
        byte[] a = new byte[70];
        byte[] b = new byte[64];
        a[6 + 10] = 1; // offsets: a's sketch starts at 6; only band 5 differs
        assertEquals(31, SketchBands.sharedBands(a, 6, b, 0));
        for (int j = 0; j < 32; j++) {
            b[2 * j + (j % 2)] = (byte) 0x80;
        }
        assertEquals(0, SketchBands.sharedBands(new byte[64], 0, b, 0));
        b[2 * 7 + 1] = 0; // band 7 whole again
        assertEquals(1, SketchBands.sharedBands(new byte[64], 0, b, 0));
    }

    /**
     * The probabilities of docs/spec/minhash-v1.md ("Candidates"), per threshold: differing bins 512 - ceil(256 (1 + s)).
     * The expected values were computed apart, by inclusion-exclusion over the sets of whole bands (exact integers).
     */
    @Test
    void theDocumentedChancesAreTheFormulas() {
        Map<Double, Double> one = new TreeMap<>(Map.of(0.5, 0.263, 0.6, 0.604, 0.7, 0.938, 0.75, 0.991, 0.8, 1.0));
        Map<Double, Double> two = new TreeMap<>(Map.of(0.5, 0.0312, 0.6, 0.2082, 0.7, 0.7285, 0.75, 0.9322, 0.78, 0.9868, 0.79, 0.9943, 0.8, 0.9971,
            0.85, 1.0));
        one.forEach((s, p) -> assertEquals(p, SketchBands.shareProbability(differing(s), 1), 0.0005, "one band, s " + s));
        two.forEach((s, p) -> assertEquals(p, SketchBands.shareProbability(differing(s), 2), 0.00005, "two bands, s " + s));
        assertEquals(1.0, SketchBands.shareProbability(0, 1), 0.0);
        assertEquals(1.0, SketchBands.shareProbability(0, 2), 0.0);
        assertEquals(0.0, SketchBands.shareProbability(512 - 15, 1), 0.0); // every band holds a differing bin
        assertEquals(0.0, SketchBands.shareProbability(512 - 31, 2), 0.0); // at most one band can be whole
        assertTrue(SketchBands.shareProbability(512 - 32, 2) > 0);
        assertTrue(SketchBands.covers(0.75) && SketchBands.covers(1.0) && !SketchBands.covers(0.7499));
        assertEquals(0, SketchBands.required(0.7499));
        assertEquals(1, SketchBands.required(0.75));
        assertEquals(1, SketchBands.required(0.7899));
        assertEquals(2, SketchBands.required(0.79));
        assertEquals(2, SketchBands.required(1.0));
        // the thresholds are where the rule keeps at least 0.99 of the pairs at the threshold, and not lower
        assertTrue(SketchBands.shareProbability(differing(SketchBands.FROM), 1) >= 0.99);
        assertTrue(SketchBands.shareProbability(differing(0.74), 1) < 0.99);
        assertTrue(SketchBands.shareProbability(differing(SketchBands.TWO_FROM), 2) >= 0.99);
        assertTrue(SketchBands.shareProbability(differing(0.78), 2) < 0.99);
    }

    private static int differing(double s) {
        return 512 - (int) Math.ceil(256 * (1 + s) - 1e-9);
    }

    /** The formula against sampling: sketches differing in d random bins, checked with the band rule itself. */
    @Test
    void theFormulaAgreesWithSampling() {
        Random r = new Random(11);
        for (int differing : new int[] { 40, 53, 64, 76, 100, 128 }) {
            int trials = 20000;
            int[] atLeast = new int[3];
            for (int t = 0; t < trials; t++) {
                byte[] a = new byte[64];
                r.nextBytes(a);
                byte[] b = a.clone();
                BitSet flipped = new BitSet(512);
                while (flipped.cardinality() < differing) {
                    flipped.set(r.nextInt(512));
                }
                flipped.stream().forEach(bit -> b[bit >>> 3] ^= (byte) (1 << (bit & 7)));
                int shared = SketchBands.sharedBands(a, 0, b, 0);
                for (int m = 1; m <= 2; m++) {
                    atLeast[m] += shared >= m ? 1 : 0;
                }
            }
            for (int m = 1; m <= 2; m++) {
                double p = SketchBands.shareProbability(differing, m);
                double sigma = Math.sqrt(p * (1 - p) / trials);
                assertEquals(p, atLeast[m] / (double) trials, 4 * sigma + 1e-4, "differing " + differing + ", at least " + m);
            }
        }
    }
}
