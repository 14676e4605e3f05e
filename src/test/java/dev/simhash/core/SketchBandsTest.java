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
    void twoSketchesShareABandIffOneOfTheirBandTermsIsEqual() {
        Random r = new Random(7);
        for (int round = 0; round < 2000; round++) {
            byte[] a = new byte[64];
            r.nextBytes(a);
            byte[] b = a.clone();
            for (int flips = r.nextInt(80); flips > 0; flips--) {
                int bit = r.nextInt(512);
                b[bit >>> 3] ^= (byte) (1 << (bit & 7));
            }
            boolean sameTerm = false;
            BytesRef[] ta = SketchBands.terms(a);
            BytesRef[] tb = SketchBands.terms(b);
            for (int j = 0; j < 32; j++) {
                sameTerm |= ta[j].equals(tb[j]);
            }
            assertEquals(sameTerm, SketchBands.shareBand(a, 0, b, 0));
        }
        byte[] a = new byte[70];
        byte[] b = new byte[64];
        a[6 + 10] = 1; // offsets: a's sketch starts at 6; only band 5 differs
        assertTrue(SketchBands.shareBand(a, 6, b, 0));
        for (int j = 0; j < 32; j++) {
            b[2 * j + (j % 2)] = (byte) 0x80;
        }
        assertFalse(SketchBands.shareBand(new byte[64], 0, b, 0));
    }

    /** The probabilities of docs/spec/minhash-v1.md ("Candidates"), per threshold: differing bins 512 - ceil(256 (1 + s)). */
    @Test
    void theDocumentedChancesAreTheFormulas() {
        Map<Double, Double> documented = new TreeMap<>(Map.of(0.5, 0.263, 0.6, 0.604, 0.7, 0.938, 0.75, 0.991, 0.8, 1.0));
        documented.forEach((s, p) -> {
            int differing = 512 - (int) Math.ceil(256 * (1 + s) - 1e-9);
            assertEquals(p, SketchBands.shareProbability(differing), 0.0005, "s " + s);
        });
        assertEquals(1.0, SketchBands.shareProbability(0), 0.0);
        assertEquals(0.0, SketchBands.shareProbability(512 - 15), 0.0); // every band holds a differing bin
        assertTrue(SketchBands.covers(0.75) && SketchBands.covers(1.0) && !SketchBands.covers(0.7499));
    }

    /** The formula against sampling: sketches differing in d random bins, checked with the band rule itself. */
    @Test
    void theFormulaAgreesWithSampling() {
        Random r = new Random(11);
        for (int differing : new int[] { 40, 64, 76, 100, 128 }) {
            int trials = 20000;
            int shared = 0;
            for (int t = 0; t < trials; t++) {
                byte[] a = new byte[64];
                r.nextBytes(a);
                byte[] b = a.clone();
                BitSet flipped = new BitSet(512);
                while (flipped.cardinality() < differing) {
                    flipped.set(r.nextInt(512));
                }
                flipped.stream().forEach(bit -> b[bit >>> 3] ^= (byte) (1 << (bit & 7)));
                shared += SketchBands.shareBand(a, 0, b, 0) ? 1 : 0;
            }
            double p = SketchBands.shareProbability(differing);
            double sigma = Math.sqrt(p * (1 - p) / trials);
            assertEquals(p, shared / (double) trials, 4 * sigma + 1e-4, "differing " + differing);
        }
    }
}
