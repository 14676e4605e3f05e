package dev.simhash.core;

import com.dynatrace.hash4j.hashing.Hashing;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HexFormat;
import java.util.List;

/**
 * A naive implementation of the minhash-v1 sketch written from its contract (docs/spec/minhash-v1.md) and nothing
 * else: the tokens of simhash-v2's reference ({@link ReferenceSimHashV2}), shingles as lists of tokens, one pass per
 * bin, a {@link BitSet} for the packed bits. Used to check the production code ({@link MinHashSketch}) and to compute
 * the golden vectors.
 */
final class ReferenceMinHashV1 {

    static final int SHINGLE = 3;
    static final int BINS = 512;
    static final int BITS = 1;
    static final int BANDS = 14;
    static final int ROWS = 5;
    static final int KEY_BYTES = 5;

    private ReferenceMinHashV1() {}

    static long splitMix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** The sketch (hex: BINS * BITS / 8 bytes of bins, then BANDS keys) of several texts read as one token sequence, or null without tokens. */
    static String sketchHex(List<String> texts) {
        List<String> tokens = new ArrayList<>();
        for (String t : texts) {
            tokens.addAll(ReferenceSimHashV2.tokens(ReferenceSimHashV2.fold(t)));
        }
        if (tokens.isEmpty()) {
            return null;
        }
        // shingles: every run of SHINGLE consecutive tokens, or all tokens when there are fewer
        int w = Math.min(SHINGLE, tokens.size());
        List<Long> shingleHashes = new ArrayList<>();
        for (int start = 0; start + w <= tokens.size(); start++) {
            long h = 0x6D696E686173682DL;
            for (String token : tokens.subList(start, start + w)) {
                byte[] utf8 = token.getBytes(StandardCharsets.UTF_8);
                h = splitMix(h ^ Hashing.xxh3_64().hashBytesToLong(utf8));
            }
            shingleHashes.add(splitMix(h + w));
        }
        int binBits = Integer.numberOfTrailingZeros(BINS);
        // each bin's minimum of the low (64 - binBits) bits over the shingles whose top binBits bits name it
        Long[] min = new Long[BINS];
        for (int bin = 0; bin < BINS; bin++) {
            for (long h : shingleHashes) {
                if ((int) (h >>> (64 - binBits)) == bin) {
                    long v = h & (-1L >>> binBits);
                    if (min[bin] == null || Long.compareUnsigned(v, min[bin]) < 0) {
                        min[bin] = v;
                    }
                }
            }
        }
        BitSet bits = new BitSet(BINS * BITS);
        long[] dense = new long[BINS];
        for (int bin = 0; bin < BINS; bin++) {
            Long m = min[bin];
            for (long attempt = 0; m == null; attempt++) {
                int j = (int) (splitMix(0x64656E7369667921L + bin * 0x9E3779B97F4A7C15L + attempt) >>> (64 - binBits));
                m = min[j];
            }
            dense[bin] = m;
            long value = splitMix(m + bin * 0x9E3779B97F4A7C15L);
            for (int k = 0; k < BITS; k++) {
                if ((value >>> k & 1) == 1) {
                    bits.set(bin * BITS + k);
                }
            }
        }
        byte[] bytes = new byte[BINS * BITS / 8 + BANDS * KEY_BYTES];
        byte[] set = bits.toByteArray(); // little-endian: bit i is bit i % 8 of byte i / 8
        System.arraycopy(set, 0, bytes, 0, set.length);
        // band j: a hash of the full (densified) minima of bins ROWS j .. ROWS j + ROWS - 1, its top KEY_BYTES bytes
        for (int band = 0; band < BANDS; band++) {
            long key = splitMix(0x62616E64206B6579L + band);
            for (int row = 0; row < ROWS; row++) {
                key = splitMix(key ^ dense[band * ROWS + row]);
            }
            for (int b = 0; b < KEY_BYTES; b++) {
                bytes[BINS * BITS / 8 + band * KEY_BYTES + b] = (byte) (key >>> (56 - 8 * b));
            }
        }
        return HexFormat.of().formatHex(bytes);
    }
}
