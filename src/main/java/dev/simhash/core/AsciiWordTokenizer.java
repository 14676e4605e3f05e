package dev.simhash.core;

import org.apache.lucene.analysis.standard.StandardTokenizer;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * {@link FastWordTokenizer} for ASCII text given as bytes (most English, once folded): the same tokens, found 64 bytes at a
 * time with branch-free masks instead of one character at a time. Stateless and thread-safe.
 */
public final class AsciiWordTokenizer {

    private AsciiWordTokenizer() {}

    /** Receives each token of an ASCII text as its start and length in the text. */
    public interface AsciiSink {
        void token(int start, int length);
    }

    /** Little-endian 8-byte reads of a byte array. */
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    /** Every byte 0x01, and every byte's high bit: the flag bit of each byte in the SWAR masks below. */
    private static final long ONES = 0x0101_0101_0101_0101L;
    private static final long HIGHS = 0x8080_8080_8080_8080L;

    /**
     * Emits exactly the tokens {@link FastWordTokenizer#tokenize(char[], int, FastWordTokenizer.Sink)} (hence {@link StandardTokenizer} with its
     * default maximum token length) emits for the text of {@code text[0..length)}, one character per byte,
     * in order. Every ASCII character is supported, so this always succeeds; a byte of 0x80 or more is an
     * {@link IllegalArgumentException} (possibly after the tokens of earlier 64-byte blocks were emitted).
     */
    public static void tokenizeAscii(byte[] text, int length, AsciiSink sink) {
        tokenizeAscii(text, length, FastWordTokenizer.DEFAULT_MAX_TOKEN_LENGTH, sink);
    }

    /**
     * As {@link #tokenizeAscii(byte[], int, AsciiSink)} for a StandardTokenizer with the given maximum token
     * length.
     *
     * <p>How: 64 bytes at a time, eight to a little-endian long, bytes are classified branch-free (SWAR) into
     * two masks of one bit per byte: word characters (letters, digits, {@code _}) and bytes in
     * {@code '..;} (a superset of the ASCII Mid characters). A Mid character can only join where it is a
     * single byte between two word characters; those few places are found with shifts of the masks
     * (looking one block ahead) and checked with the scalar join rule. Then each maximal run of set bits,
     * the characters of a token, is walked with {@link Long#numberOfTrailingZeros}. A run is exactly one
     * token when it starts with a letter or digit and is no longer than the maximum token length (a joining
     * Mid character always has a letter or digit after it in the run, so no cut falls next to one); any
     * other run (one starting with connectors, or a long one to cut) goes through the scalar rules of
     * FastWordTokenizer, which start afresh at the run's first character and never
     * look past its end, exactly as they do on the whole text.
     */
    static void tokenizeAscii(byte[] text, int length, int maxTokenLength, AsciiSink sink) {
        if (length < 0 || length > text.length) {
            throw new IndexOutOfBoundsException("length " + length + " for a buffer of " + text.length);
        }
        if (maxTokenLength < 1) {
            throw new IllegalArgumentException("maxTokenLength must be greater than zero");
        }
        final byte[] classes = FastWordTokenizer.CLASSES;
        long mask = 0; // word characters of the block at base, one bit per byte (then joining Mid characters too)
        long mids = 0; // bytes of the block at base that may be Mid characters
        long carry = 0; // whether the last byte of the previous block is in a token
        int runStart = -1; // the start of a run of token characters that goes on past the previous block, or -1
        for (int base = -64; base < length; base += 64) {
            // classify the next block (zeros past the text)
            final int next = base + 64;
            long nextWords = 0;
            long nextMids = 0;
            if (next + 64 <= length) {
                long high = 0;
                for (int k = 0; k < 64; k += 8) {
                    long x = (long) LONGS.get(text, next + k);
                    high |= x;
                    nextWords |= gather(wordChars(x)) << k;
                    nextMids |= gather(midChars(x)) << k;
                }
                if ((high & HIGHS) != 0) {
                    throw notAscii(next);
                }
            } else if (next < length) {
                for (int k = 0; k < 64; k += 8) {
                    long x = tailWord(text, next + k, length);
                    nextWords |= gather(wordChars(x)) << k;
                    nextMids |= gather(midChars(x)) << k;
                }
            }
            if (base >= 0) {
                // single bytes between word characters that may be Mid characters: where a token may go on
                long gaps = mids & ~mask & ((mask << 1) | carry) & ((mask >>> 1) | (nextWords << 63));
                while (gaps != 0) {
                    int at = base + Long.numberOfTrailingZeros(gaps);
                    if (FastWordTokenizer.joins(classes[text[at]], classes[text[at - 1]], classes[text[at + 1]])) {
                        mask |= gaps & -gaps;
                    }
                    gaps &= gaps - 1;
                }
                long before = (mask << 1) | carry;
                long starts = mask & ~before;
                long ends = ~mask & before; // the first bytes after runs
                carry = mask >>> 63;
                if (runStart >= 0 && ends != 0) {
                    run(text, runStart, base + Long.numberOfTrailingZeros(ends), maxTokenLength, sink);
                    ends &= ends - 1;
                    runStart = -1;
                }
                while (starts != 0) {
                    int start = base + Long.numberOfTrailingZeros(starts);
                    starts &= starts - 1;
                    if (ends == 0) {
                        runStart = start; // goes on in the next block
                        break;
                    }
                    run(text, start, base + Long.numberOfTrailingZeros(ends), maxTokenLength, sink);
                    ends &= ends - 1;
                }
            }
            mask = nextWords;
            mids = nextMids;
        }
        if (runStart >= 0) {
            run(text, runStart, length, maxTokenLength, sink);
        }
    }

    /** Emits the tokens of one maximal run {@code [start, end)} of token characters. */
    private static void run(byte[] text, int start, int end, int maxTokenLength, AsciiSink sink) {
        int n = end - start;
        if (n <= maxTokenLength && text[start] != '_') {
            sink.token(start, n);
            return;
        }
        if (text[start] == '_') {
            int i = start + 1;
            while (i < end && text[i] == '_') {
                i++;
            }
            if (i == end) {
                return; // connectors only (e.g. a line of underscores): no token
            }
        }
        // connectors first, or a run to cut: the scalar rules on the run alone
        char[] chars = new char[n];
        for (int i = 0; i < n; i++) {
            chars[i] = (char) text[start + i];
        }
        FastWordTokenizer.emit(chars, n, maxTokenLength, (t, s, l) -> sink.token(start + s, l));
    }

    /** The eight bytes from {@code at} (little-endian), zeros past {@code length}; rejects bytes of 0x80 or more. */
    private static long tailWord(byte[] text, int at, int length) {
        long x = 0;
        for (int i = Math.min(length, at + 8) - 1; i >= at; i--) {
            x = (x << 8) | (text[i] & 0xFFL);
        }
        if ((x & HIGHS) != 0) {
            throw notAscii(at);
        }
        return x;
    }

    private static IllegalArgumentException notAscii(int at) {
        return new IllegalArgumentException("not an ASCII text: a byte of 0x80 or more in the 64 bytes from " + at);
    }

    /** Bit k of the result: the flag bit (0x80) of byte k. */
    private static long gather(long flags) {
        return ((flags >>> 7) * 0x0102_0408_1020_4080L) >>> 56;
    }

    /** The flag bit (0x80) of each byte that is a letter, a digit or {@code _}, for bytes below 0x80. */
    private static long wordChars(long x) {
        long lower = x | (0x20 * ONES); // maps A-Z onto a-z, and no other byte into a-z
        long letters = (lower + (0x80 - 'a') * ONES) & ~(lower + (0x7F - 'z') * ONES);
        long digits = (x + (0x80 - '0') * ONES) & ~(x + (0x7F - '9') * ONES);
        long connectors = ~((x ^ ('_' * ONES)) + 0x7F * ONES);
        return (letters | digits | connectors) & HIGHS;
    }

    /**
     * The flag bit (0x80) of each byte in {@code '..;} (0x27-0x3B), for bytes below 0x80: every ASCII Mid
     * character ({@code ' , . : ;}) and some others.
     */
    private static long midChars(long x) {
        return (x + (0x80 - '\'') * ONES) & ~(x + (0x7F - ';') * ONES) & HIGHS;
    }

}
