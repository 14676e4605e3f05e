package dev.simhash.core;

/**
 * The feature hash of simhash-v1 ({@link SimHash#featureHash(CharSequence)}: XXH3-64, seed 0, of the
 * UTF-8 bytes of the feature) without a new byte array per feature: the UTF-8 bytes are written into
 * a buffer kept between calls. The bytes are exactly those of {@code String.getBytes(UTF_8)},
 * including its replacement of an unpaired surrogate by {@code '?'}. Not thread-safe.
 */
final class Utf8FeatureHasher {

    /** Buffers larger than this are not kept after the feature that needed them. */
    private static final int MAX_KEPT = 1 << 14;

    private byte[] buffer = new byte[256];
    private char[] chars = new char[128];

    long hash(CharSequence feature) {
        int n = feature.length();
        byte[] b = buffer;
        char[] c = chars;
        if (b.length < 3 * n) {
            // at most 3 bytes per char: a surrogate pair (2 chars) is 4 bytes
            b = new byte[3 * n];
            c = new char[n];
            if (b.length <= MAX_KEPT) {
                buffer = b;
                chars = c;
            }
        }
        for (int i = 0; i < n; i++) {
            c[i] = feature.charAt(i);
        }
        return SimHash.featureHash(b, 0, write(c, 0, n, b, 0, true));
    }

    /**
     * Writes the UTF-8 bytes of {@code src[off .. off+len)} into {@code dst} from {@code dstOff} (room for {@code 3 * len}
     * bytes needed) and returns the offset after them, or -1 when the chars hold an unpaired surrogate (which UTF-8 cannot
     * represent; {@code String.getBytes} would write '?', so two different strings would give the same bytes).
     */
    static int encode(char[] src, int off, int len, byte[] dst, int dstOff) {
        // ASCII, one byte per char, in a loop small enough to be inlined into the caller; the rest by write
        int end = off + len;
        int p = dstOff;
        for (int i = off; i < end; i++) {
            char c = src[i];
            if (c >= 0x80) {
                return write(src, i, end - i, dst, p, false);
            }
            dst[p++] = (byte) c;
        }
        return p;
    }

    /** UTF-8 of the chars; an unpaired surrogate is '?' (as {@code String.getBytes} writes it) or ends the call with -1. */
    private static int write(char[] src, int off, int len, byte[] dst, int dstOff, boolean replaceUnpaired) {
        int p = dstOff;
        int end = off + len;
        for (int i = off; i < end; i++) {
            char c = src[i];
            if (c < 0x80) {
                dst[p++] = (byte) c;
            } else if (c < 0x800) {
                dst[p++] = (byte) (0xC0 | (c >> 6));
                dst[p++] = (byte) (0x80 | (c & 0x3F));
            } else if (Character.isSurrogate(c)) {
                char low;
                if (Character.isHighSurrogate(c) && i + 1 < end && Character.isLowSurrogate(low = src[i + 1])) {
                    int cp = Character.toCodePoint(c, low);
                    i++;
                    dst[p++] = (byte) (0xF0 | (cp >> 18));
                    dst[p++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
                    dst[p++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
                    dst[p++] = (byte) (0x80 | (cp & 0x3F));
                } else if (replaceUnpaired) {
                    dst[p++] = '?';
                } else {
                    return -1;
                }
            } else {
                dst[p++] = (byte) (0xE0 | (c >> 12));
                dst[p++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                dst[p++] = (byte) (0x80 | (c & 0x3F));
            }
        }
        return p;
    }
}
