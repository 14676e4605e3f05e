package dev.simhash.core;

import com.dynatrace.hash4j.hashing.Hasher64;
import com.dynatrace.hash4j.hashing.Hashing;

import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * The fixed parts of the simhash-v1 contract: the feature hash, Hamming distance, the 16-bit blocks
 * and the wire representation of a fingerprint.
 */
public final class SimHash {

    /** Name and version of the fingerprint algorithm; a change of any golden vector needs a new one. */
    public static final String ALGORITHM = "simhash-v1";
    /** Bits in a fingerprint. */
    public static final int BITS = 64;
    /** Number of blocks a fingerprint is split into for indexing. */
    public static final int BLOCKS = 4;
    /** Bits per block. */
    public static final int BLOCK_BITS = BITS / BLOCKS;
    /**
     * The default radius of the query, the fold and the report for simhash-v1 fingerprints: light edits of
     * a long text move it about 3 bits (docs/benchmarks.md).
     */
    public static final int DEFAULT_MAX_DISTANCE = 3;
    /** Seed of the XXH3-64 feature hash. */
    public static final long FEATURE_HASH_SEED = 0L;

    private static final Hasher64 HASHER = Hashing.xxh3_64(FEATURE_HASH_SEED);
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private SimHash() {}

    /** XXH3-64 (seed 0) of the UTF-8 bytes of the feature. */
    public static long featureHash(CharSequence feature) {
        byte[] utf8 = feature.toString().getBytes(StandardCharsets.UTF_8);
        return HASHER.hashBytesToLong(utf8, 0, utf8.length);
    }

    /** XXH3-64 (seed 0) of {@code length} UTF-8 bytes starting at {@code offset}. */
    public static long featureHash(byte[] utf8, int offset, int length) {
        return HASHER.hashBytesToLong(utf8, offset, length);
    }

    /** Hamming distance: the number of bits in which the two fingerprints differ (0..64). */
    public static int distance(long a, long b) {
        return Long.bitCount(a ^ b);
    }

    /** Similarity in [0, 1]: {@code (64 - distance) / 64}. */
    public static double similarity(long a, long b) {
        return (BITS - distance(a, b)) / (double) BITS;
    }

    /** Block {@code j} (0..3) of the fingerprint: bits {@code 16j .. 16j+15}. */
    public static int block(long fingerprint, int j) {
        if (j < 0 || j >= BLOCKS) {
            throw new IllegalArgumentException("block index must be between 0 and 3, got [" + j + "]");
        }
        return (int) ((fingerprint >>> (BLOCK_BITS * j)) & 0xFFFF);
    }

    /** The four blocks of the fingerprint, block 0 (lowest bits) first. */
    public static int[] blocks(long fingerprint) {
        int[] blocks = new int[BLOCKS];
        for (int j = 0; j < BLOCKS; j++) {
            blocks[j] = block(fingerprint, j);
        }
        return blocks;
    }

    /** A block value as the 4-digit lowercase hex term stored in the block fields. */
    public static String blockTerm(int blockValue) {
        if (blockValue < 0 || blockValue > 0xFFFF) {
            throw new IllegalArgumentException("block value must be between 0 and 65535, got [" + blockValue + "]");
        }
        return new String(new char[] {
            HEX[(blockValue >>> 12) & 0xF], HEX[(blockValue >>> 8) & 0xF], HEX[(blockValue >>> 4) & 0xF], HEX[blockValue & 0xF] });
    }

    /** The wire form of a fingerprint: 16 lowercase hex digits, most significant first. */
    public static String toHex(long fingerprint) {
        char[] out = new char[16];
        for (int i = 15; i >= 0; i--) {
            out[i] = HEX[(int) (fingerprint & 0xF)];
            fingerprint >>>= 4;
        }
        return new String(out);
    }

    /**
     * Parses a fingerprint given as text: exactly 16 ASCII hex digits (either case) are the unsigned hex form;
     * otherwise the text must be a signed decimal 64-bit integer: an optional {@code -} and ASCII digits. Nothing
     * else is accepted: no surrounding whitespace or control characters, no {@code +} sign, no {@code 0x} prefix,
     * no non-ASCII digits.
     *
     * @throws IllegalArgumentException naming the rejected value
     */
    public static long parse(String value) {
        if (value == null) {
            throw new IllegalArgumentException("a fingerprint is required, got [null]");
        }
        if (value.length() == 16 && isHex(value)) {
            return Long.parseUnsignedLong(value, 16);
        }
        Long decimal = decimalOrNull(value);
        if (decimal == null) {
            throw new IllegalArgumentException(
                "expected a fingerprint as 16 hex digits or a signed 64-bit integer, got [" + describe(value) + "]");
        }
        return decimal;
    }

    /**
     * Parses a fingerprint written as a signed decimal 64-bit integer only (as Elasticsearch renders a {@code long}):
     * an optional {@code -} and ASCII digits; 16 digits are decimal here, never hex.
     *
     * @throws IllegalArgumentException naming the rejected value
     */
    public static long parseDecimal(String value) {
        Long decimal = value == null ? null : decimalOrNull(value);
        if (decimal == null) {
            throw new IllegalArgumentException(
                "expected a fingerprint as a signed 64-bit decimal integer, got [" + (value == null ? "null" : describe(value)) + "]");
        }
        return decimal;
    }

    private static Long decimalOrNull(String s) {
        int start = !s.isEmpty() && s.charAt(0) == '-' ? 1 : 0;
        if (start == s.length()) {
            return null;
        }
        for (int i = start; i < s.length(); i++) {
            // Long.parseLong would also accept '+' and non-ASCII digits (e.g. full-width); the wire format does not
            if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                return null;
            }
        }
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            return null; // outside the signed 64-bit range
        }
    }

    private static boolean isHex(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))) {
                return false;
            }
        }
        return true;
    }

    /**
     * A rejected value as error messages show it: shortened (see {@link #abbreviate}) and with control characters
     * written as a backslash, {@code u} and 4 hex digits, so an invisible character that made the value invalid shows.
     */
    public static String describe(String value) {
        String shown = abbreviate(value);
        StringBuilder out = null;
        for (int i = 0; i < shown.length(); i++) {
            char c = shown.charAt(i);
            if (Character.isISOControl(c)) {
                if (out == null) {
                    out = new StringBuilder(shown.length() + 8).append(shown, 0, i);
                }
                out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
            } else if (out != null) {
                out.append(c);
            }
        }
        return out == null ? shown : out.toString();
    }

    /** Shortens user input for error messages, so a huge bad value never floods a response. */
    public static String abbreviate(String value) {
        return value.length() <= 64 ? value : value.substring(0, 64) + "...(" + value.length() + " chars)";
    }
}
