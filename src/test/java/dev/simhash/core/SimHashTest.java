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
    void parseIsStrictAboutEveryCharacter() {
        String hex = "0123456789abcdef";
        assertEquals(0x0123456789abcdefL, SimHash.parse(hex));
        assertEquals(0x0123456789abcdefL, SimHash.parse("0123456789ABCDEF"));
        assertEquals(-42L, SimHash.parse("-42"));
        assertEquals(Long.MIN_VALUE, SimHash.parse("-9223372036854775808"));
        assertEquals(Long.MAX_VALUE, SimHash.parse("9223372036854775807"));
        assertEquals(0L, SimHash.parse("0"));
        assertEquals(0L, SimHash.parse("-0"));
        // 17 decimal digits are not 16 hex digits: a signed decimal that fits
        assertEquals(12_345_678_901_234_567L, SimHash.parse("12345678901234567"));
        String[] bad = {
            hex + "\u0000", "\u0000" + hex, hex + "\n", hex + "\r\n", "\t" + hex, hex + "\u007f", hex + "\u0085",
            " " + hex, hex + " ", " 42", "42 ", "4 2", "\u00a0" + hex, hex + "\u2007", "\u3000" + "42", hex + "\u200b", "\ufeff" + hex,
            "+42", "+" + hex, "+0", "--42", "-+42", "- 42", "42-",
            hex + "0", "0123456789abcdeg", "0x0123456789abcd", "0123456789abcde", // 17, non-hex, prefixed, 15 with a letter
            "9223372036854775808", "-9223372036854775809", "123456789012345678901",
            "\uff10\uff11\uff12", "\uff10".repeat(16), "\u0660\u0661", "\u0966\u0967", "\uff41".repeat(16), "１２３４５６７８９０１２３４５６", // full-width, Arabic-Indic, Devanagari
            "4e1", "1.0", "1_000", "0b101", "null", "\ud83d\ude00",
        };
        for (String b : bad) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SimHash.parse(b), "accepted [" + b + "]");
            assertTrue(e.getMessage().startsWith("expected a fingerprint as 16 hex digits or a signed 64-bit integer, got ["),
                e.getMessage());
        }
    }

    @Test
    void rejectedValuesShowTheirControlCharacters() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SimHash.parse("0123456789abcdef\u0000"));
        assertEquals("expected a fingerprint as 16 hex digits or a signed 64-bit integer, got [0123456789abcdef\\u0000]", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> SimHash.parse("\t42\n"));
        assertTrue(e.getMessage().endsWith("got [\\u000942\\u000a]"), e.getMessage());
        assertEquals("plain", SimHash.describe("plain"));
    }

    @Test
    void parseDecimalNeverReadsHex() {
        // exactly 16 decimal digits: hex for parse, decimal for parseDecimal (the form Elasticsearch renders a long in)
        assertEquals(1_234_567_890_123_456L, SimHash.parseDecimal("1234567890123456"));
        assertEquals(-8_125_573_028_085_086_791L, SimHash.parseDecimal("-8125573028085086791"));
        for (String b : new String[] { "0123456789abcdef", " 1", "1 ", "+1", "1\u0000", "", "-", "\uff11", "9223372036854775808", "1.0" }) {
            assertThrows(IllegalArgumentException.class, () -> SimHash.parseDecimal(b), "accepted [" + b + "]");
        }
        assertThrows(IllegalArgumentException.class, () -> SimHash.parseDecimal(null));
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
