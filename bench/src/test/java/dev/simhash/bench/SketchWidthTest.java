package dev.simhash.bench;

import dev.simhash.core.SimHashV2;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class SketchWidthTest {

    @Test
    void firstHalfIsSimhashV2AndSecondHalfDiffers() {
        for (String text : List.of("The central bank left its rate unchanged.", "国家统计局今天发布数据", "a", "la di la di la di")) {
            long[] f = SketchWidth.fingerprints(text);
            assertEquals(SimHashV2.fingerprint(text, 1).getAsLong(), f[0], text);
            assertNotEquals(f[0], f[1], text);
        }
        assertNull(SketchWidth.fingerprints(" ,.; "));
    }

    @Test
    void remixIsABijectionOnSamples() {
        // the finalizer's inverse: undo each xor-shift and multiply by the inverse of each odd constant
        for (long z : new long[] { 0, 1, -1, 42, 0x9E3779B97F4A7C15L, Long.MIN_VALUE }) {
            long y = SketchWidth.remix(z);
            y ^= y >>> 33;
            y *= 0x9cb4b2f8129337dbL; // inverse of 0xc4ceb9fe1a85ec53 mod 2^64
            y ^= y >>> 33;
            y *= 0x4f74430c22a54005L; // inverse of 0xff51afd7ed558ccd mod 2^64
            y ^= y >>> 33;
            assertEquals(z, y);
        }
    }

    @Test
    void rowCountsCumulatively() {
        // distances 0..3: 2 pairs at 0 (both near), 1 grey pair at 1, 2 unrelated pairs at 2, 1 near pair at 3; 3 near in all
        long[] all = { 2, 1, 2, 1 };
        long[] near = { 2, 0, 0, 1 };
        long[] grey = { 0, 1, 0, 0 };
        // k=0: P 1, R 2/3, F1 0.8; k=3: P 3/6, R 1, F1 0.667; recall 1 first at k=3 with P 0.5 (w/o grey 3/5)
        assertEquals("| c | 64 | k=0: 1.000 (1.000) / 0.667 / 0.800 | k=3: 0.500 (0.600) |", SketchWidth.row("c", 64, all, near, grey, 3));
    }
}
