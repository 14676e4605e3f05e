package dev.simhash.core;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SimHashTest {

    @Test
    void featureHashIsXxh3OfUtf8WithSeedZero() {
        // published XXH3_64bits test vector: the empty input with seed 0
        assertEquals(0x2D06800538D394C2L, SimHash.featureHash(""));
        byte[] utf8 = "新闻 news".getBytes(StandardCharsets.UTF_8);
        assertEquals(SimHash.featureHash(utf8, 0, utf8.length), SimHash.featureHash("新闻 news"));
        assertTrue(SimHash.featureHash("a") != SimHash.featureHash("A"));
    }

    @Test
    void hexRoundTripsAndIsSixteenLowercaseDigits() {
        Random r = new Random(42);
        for (int i = 0; i < 10_000; i++) {
            long v = r.nextLong();
            String hex = SimHash.toHex(v);
            assertEquals(16, hex.length());
            assertEquals(hex, hex.toLowerCase(java.util.Locale.ROOT));
            assertEquals(v, SimHash.parse(hex));
            String decimal = Long.toString(v);
            if (decimal.length() != 16) { // exactly 16 digits would be read as hex (see below)
                assertEquals(v, SimHash.parse(decimal));
            }
            assertEquals(v, SimHash.parse(hex.toUpperCase(java.util.Locale.ROOT)));
        }
        assertEquals("0000000000000000", SimHash.toHex(0));
        assertEquals("ffffffffffffffff", SimHash.toHex(-1));
        assertEquals("8000000000000000", SimHash.toHex(Long.MIN_VALUE));
    }

    @Test
    void parseRejectsMalformedInputNamingIt() {
        for (String bad : new String[] { "", "xyz", "0x1234", "12345678901234567890", "ffffffffffffffffff", "gggggggggggggggg", "1.5", "\uFF10\uFF11\uFF12", "-", "+" }) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SimHash.parse(bad));
            assertTrue(e.getMessage().contains("[" + bad + "]"), e.getMessage());
        }
        String huge = "z".repeat(100_000);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SimHash.parse(huge));
        assertTrue(e.getMessage().length() < 300, "error message must not echo huge input");
        assertThrows(IllegalArgumentException.class, () -> SimHash.parse(null));
    }

    @Test
    void sixteenDecimalDigitsAreReadAsHex() {
        assertEquals(0x1234567890123456L, SimHash.parse("1234567890123456"));
        // any other length of digits is a signed decimal
        assertEquals(123456789012345L, SimHash.parse("123456789012345"));
        assertEquals(-1234567890123456L, SimHash.parse("-1234567890123456"));
    }

    @Test
    void distanceMatchesNaiveBitCountAndIsSymmetric() {
        Random r = new Random(7);
        for (int i = 0; i < 10_000; i++) {
            long a = r.nextLong();
            long b = r.nextBoolean() ? r.nextLong() : a ^ (1L << r.nextInt(64));
            assertEquals(ReferenceSimHash.distance(a, b), SimHash.distance(a, b));
            assertEquals(SimHash.distance(a, b), SimHash.distance(b, a));
            assertEquals(0, SimHash.distance(a, a));
        }
        assertEquals(64, SimHash.distance(0, -1));
        assertEquals(1.0, SimHash.similarity(5, 5));
        assertEquals(0.0, SimHash.similarity(0, -1));
    }

    @Test
    void blocksAreSixteenBitSlicesLowestFirst() {
        long h = 0x1111_2222_3333_4444L;
        assertArrayEquals(new int[] { 0x4444, 0x3333, 0x2222, 0x1111 }, SimHash.blocks(h));
        assertEquals(0xFFFF, SimHash.block(-1L, 3));
        Random r = new Random(3);
        for (int i = 0; i < 1000; i++) {
            long v = r.nextLong();
            long rebuilt = 0;
            for (int j = 0; j < 4; j++) {
                rebuilt |= ((long) SimHash.block(v, j)) << (16 * j);
            }
            assertEquals(v, rebuilt);
        }
        assertThrows(IllegalArgumentException.class, () -> SimHash.block(1, 4));
        assertEquals("0000", SimHash.blockTerm(0));
        assertEquals("03fa", SimHash.blockTerm(0x3fa));
        assertEquals("ffff", SimHash.blockTerm(0xffff));
        assertThrows(IllegalArgumentException.class, () -> SimHash.blockTerm(0x10000));
    }
}
