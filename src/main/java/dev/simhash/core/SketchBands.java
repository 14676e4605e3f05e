package dev.simhash.core;

import org.apache.lucene.util.BytesRef;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The candidate stage of a high {@code min_similarity} threshold: {@value #BANDS} bands of {@value #ROWS} bins each
 * (band j is bins {@code ROWS j .. ROWS j + ROWS - 1}), keyed by a hash of those bins' full minima (the sketch keeps one
 * bit of each bin for its estimate, but the bands keep the whole minimum). A sketch carries its band keys after its
 * bins' bits ({@value #KEY_BYTES} bytes each), and the field indexes band j's value, {@code [j, key]}, as a
 * one-dimensional point of {@value #VALUE_BYTES} bytes. Documents that share at least one band value with the query's
 * sketch are the candidates; the sketch estimate then decides.
 *
 * <p>A bin of two texts with Jaccard similarity J holds the same minimum with probability J, so a band matches with
 * probability J^5 and a pair shares a band with probability {@code 1 - (1 - J^5)^14} ({@link #shareProbability}):
 * 0.9915 at 0.78, 0.996 at 0.8. Texts that share no shingle share a band only when two 40-bit keys collide, 14 chances
 * of 2^-40 per pair: about 0.013 documents of a billion ({@link #chanceCollisions}). From {@link #FROM} on, the bands
 * keep at least 0.99 of the pairs at the threshold; below it the fingerprint's candidate radius ({@link CandidateRadius})
 * is used instead. Contract: docs/spec/minhash-v1.md, "Candidates".
 */
public final class SketchBands {

    public static final int BANDS = 14;
    /** Bins per band. */
    public static final int ROWS = 5;
    /** Bytes of a band's key. */
    public static final int KEY_BYTES = 5;
    /** Bytes of a band value: the band number, then its key. */
    public static final int VALUE_BYTES = 1 + KEY_BYTES;
    /** The lowest threshold whose candidates come from the bands: from here, at least 0.99 of the pairs at the threshold. */
    public static final double FROM = 0.78;
    /** Where the keys start in a sketch: after the bins' bits. */
    private static final int KEYS_AT = 64;
    /** The low seven bits of every byte of a long. */
    private static final long SEVEN_BITS = 0x7F7F7F7F7F7F7F7FL;
    /** The bytes of {@link #lastKeyBytes} for bands 8 on. */
    private static final long HIGH_BANDS = (1L << (8 * (BANDS - 8))) - 1;
    /** Eight bytes of a byte array as one big-endian long, in one read. */
    private static final VarHandle BIG_ENDIAN_LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    private SketchBands() {}

    /** Whether a {@code min_similarity} threshold finds its candidates by bands (else by the fingerprint radius). */
    public static boolean covers(double minSimilarity) {
        return minSimilarity >= FROM;
    }

    /** The band values of a minhash-v1 sketch, band 0 first (views of one array: a document's values cost one allocation). */
    public static BytesRef[] values(byte[] sketch) {
        check(sketch.length);
        byte[] all = new byte[BANDS * VALUE_BYTES];
        BytesRef[] values = new BytesRef[BANDS];
        for (int j = 0; j < BANDS; j++) {
            int at = VALUE_BYTES * j;
            all[at] = (byte) j;
            System.arraycopy(sketch, KEYS_AT + KEY_BYTES * j, all, at + 1, KEY_BYTES);
            values[j] = new BytesRef(all, at, VALUE_BYTES);
        }
        return values;
    }

    /** Band {@code band}'s key of the sketch at {@code sketch[offset..]}: its {@value #KEY_BYTES} bytes as an unsigned number. */
    public static long key(byte[] sketch, int offset, int band) {
        int at = offset + KEYS_AT + KEY_BYTES * band;
        if (at + Long.BYTES <= sketch.length) {
            // the key's bytes and the three after them, in one read
            return (long) BIG_ENDIAN_LONGS.get(sketch, at) >>> (8 * (Long.BYTES - KEY_BYTES));
        }
        long key = 0;
        for (int k = 0; k < KEY_BYTES; k++) {
            key = (key << 8) | (sketch[at + k] & 0xFF);
        }
        return key;
    }

    /** The band values of the sketch at {@code sketch[offset..]} as numbers: band j's is {@code j << 40 | key}. */
    public static long[] longValues(byte[] sketch, int offset) {
        long[] values = new long[BANDS];
        for (int j = 0; j < BANDS; j++) {
            values[j] = ((long) j << (8 * KEY_BYTES)) | key(sketch, offset, j);
        }
        return values;
    }

    /**
     * A band value as indexed ({@value #VALUE_BYTES} bytes at {@code packed[offset..]}: the band, then its key) as the number
     * {@link #longValues} gives it.
     */
    public static long longValue(byte[] packed, int offset) {
        long v = 0;
        for (int i = 0; i < VALUE_BYTES; i++) {
            v = (v << 8) | (packed[offset + i] & 0xFF);
        }
        return v;
    }

    /**
     * The last byte of the keys of bands {@code from .. from + 7} (those there are) of the sketch at {@code sketch[offset..]},
     * band {@code from}'s in the lowest byte: a quick test of whether two sketches may share a band ({@link #equalLastBytes}).
     */
    public static long lastKeyBytes(byte[] sketch, int offset, int from) {
        long bytes = 0;
        for (int j = Math.min(BANDS, from + 8) - 1; j >= from; j--) {
            bytes = (bytes << 8) | (sketch[offset + KEYS_AT + KEY_BYTES * j + KEY_BYTES - 1] & 0xFF);
        }
        return bytes;
    }

    /**
     * The bands among {@code from .. from + 7} ({@code from} 0 or 8) whose keys have the same last byte in two sketches,
     * given the XOR of the two sketches' {@link #lastKeyBytes} for {@code from}: the high bit of byte {@code j - from} is
     * set for band {@code j}. A band the two share has equal last bytes, so where this is 0 they share none of these bands;
     * pairs that share no band have an equal last byte by chance in about 14 cases of 256, so confirm with
     * {@link #shareABand}. Exact, without a loop: the low seven bits of each byte plus 0x7F carry into its high bit unless
     * they are all 0.
     */
    public static long equalLastBytes(long xor, int from) {
        assert from == 0 || from == 8 : "bands from 0 or 8, got " + from;
        long equal = ~(((xor & SEVEN_BITS) + SEVEN_BITS) | xor | SEVEN_BITS);
        return from == 0 ? equal : equal & HIGH_BANDS;
    }

    /**
     * Whether two sketches may share a band, given the XOR of their {@link #lastKeyBytes} for bands 0-7 ({@code low}) and for
     * bands 8 on ({@code high}): whether {@link #equalLastBytes} marks any band.
     */
    public static boolean mayShare(long low, long high) {
        return (equalLastBytes(low, 0) | equalLastBytes(high, 8)) != 0;
    }

    /**
     * Whether the sketches at {@code a[aOff..]} and {@code b[bOff..]} share the key of one of the bands {@code equal} marks
     * (as {@link #equalLastBytes} gives them for {@code from}); only those bands' keys are compared.
     */
    public static boolean shareABand(byte[] a, int aOff, byte[] b, int bOff, long equal, int from) {
        for (long bits = equal; bits != 0; bits &= bits - 1) {
            int band = from + (Long.numberOfTrailingZeros(bits) >>> 3);
            if (key(a, aOff, band) == key(b, bOff, band)) {
                return true;
            }
        }
        return false;
    }

    /** How many band keys the sketches at {@code a[aOff..]} and {@code b[bOff..]} share. */
    public static int sharedBands(byte[] a, int aOff, byte[] b, int bOff) {
        int shared = 0;
        for (int j = 0; j < BANDS; j++) {
            int i = KEYS_AT + KEY_BYTES * j;
            boolean same = true;
            for (int k = 0; k < KEY_BYTES && same; k++) {
                same = a[aOff + i + k] == b[bOff + i + k];
            }
            if (same) {
                shared++;
            }
        }
        return shared;
    }

    /**
     * The probability that two texts whose shingle sets have Jaccard similarity {@code j} share at least one band: each
     * bin's minimum is equal with probability j, independently (the model of one-permutation MinHash over many
     * shingles), so {@code 1 - (1 - j^ROWS)^BANDS}.
     */
    public static double shareProbability(double j) {
        if (!(j >= 0 && j <= 1)) {
            throw new IllegalArgumentException("a similarity in [0, 1], got [" + j + "]");
        }
        return 1 - Math.pow(1 - Math.pow(j, ROWS), BANDS);
    }

    /**
     * The expected number of documents of an index of {@code documents} that share a band with a document they share no
     * shingle with: equal band keys by chance only, {@code BANDS * 2^-(8 KEY_BYTES)} per pair.
     */
    public static double chanceCollisions(double documents) {
        return documents * BANDS * Math.pow(2, -8 * KEY_BYTES);
    }

    private static void check(int length) {
        if (length != KEYS_AT + BANDS * KEY_BYTES) {
            throw new IllegalArgumentException("a sketch has " + (KEYS_AT + BANDS * KEY_BYTES) + " bytes, got [" + length + "]");
        }
    }
}
