package dev.simhash.core;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;

/**
 * The minhash-v1 similarity sketch of text (its contract: docs/spec/minhash-v1.md): a one-permutation
 * MinHash (Li, Owen &amp; Zhang 2012) with optimal densification (Shrivastava 2017) over the text's
 * shingles, keeping {@code bitsPerBin} bits of each bin's minimum (b-bit minwise hashing, Li &amp; König
 * 2010), followed by the band keys: hashes of a few bins' full minima, the candidate values of the bands
 * ({@link SketchBands}). Two sketches estimate the Jaccard similarity of the two texts' shingle sets; it is the second,
 * more precise check of the candidates the bands (or a simhash fingerprint) find.
 *
 * <p>Shingles are runs of {@value #SHINGLE} consecutive simhash-v2 tokens ({@link SimHashV2#tokens}: folded text, Unicode
 * words, one token per Han character) at every length; a text with fewer tokens is one shingle. Token
 * hash: XXH3-64, seed 0, of the token's UTF-8 bytes (the feature hash of simhash-v1); shingle hash:
 * {@code h = SEED; for each token t: h = mix(h ^ hash(t)) }, then {@code mix(h + count)}. Bin: the top
 * {@code log2(bins)} bits of the shingle hash; the remaining bits are minimised. An empty bin takes the
 * minimum of the first non-empty bin of its probe sequence {@code mix(EMPTY_SEED + bin * GOLDEN + attempt)}.
 * A bin's stored bits are the low {@code bitsPerBin} bits of {@code mix(min + bin * GOLDEN)}. Band j's key: the top
 * {@code keyBytes} bytes of {@code k = mix(BAND_SEED + j); for each of its rows' bins b: k = mix(k ^ min_b)}.
 * Thread-safe; no state.
 */
public final class MinHashSketch {

    /** Eight bytes of a byte array as one little-endian long, in one read. */
    private static final VarHandle LITTLE_ENDIAN_LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    /** Name and version of the released sketch. */
    public static final String ALGORITHM = "minhash-v1";

    /** Tokens per shingle of minhash-v1, at every length. */
    public static final int SHINGLE = 3;

    /** The released parameters of minhash-v1. Never changes once released: a new version gets a new name. */
    public static final MinHashSketch V1 = new MinHashSketch(SHINGLE, 512, 1, SketchBands.BANDS, SketchBands.ROWS,
        SketchBands.KEY_BYTES);

    /** Bytes of a stored sketch of minhash-v1: the 512 bits of the bins, then the band keys. */
    public static final int BYTES = 64 + SketchBands.BANDS * SketchBands.KEY_BYTES;

    /**
     * The {@code min_similarity} used when a request on a field with this sketch gives neither a radius nor a threshold:
     * pairs that share at least this share of their shingles (estimated Jaccard similarity).
     */
    public static final double DEFAULT_MIN_SIMILARITY = 0.8;

    /** Token hashes an {@link Accumulator} keeps before it folds their shingles into bins of its own. */
    static final int CHUNK = 512;
    /** The first size of an accumulator's chunk: a title or a paragraph needs no more. */
    private static final int FIRST_CHUNK = 64;
    /**
     * The thread's bins of the sketch being computed (for 512 bins, the released size): the sketch reads, densifies and
     * writes them within one call.
     */
    private static final ThreadLocal<long[]> SCRATCH = ThreadLocal.withInitial(() -> new long[512]);
    /** The thread's mixed minima of the 512 bins being written ({@link #finish}), used within one call. */
    private static final ThreadLocal<long[]> MIXED = ThreadLocal.withInitial(() -> new long[512]);

    static final long SEED = 0x6D696E686173682DL; // "minhash-"
    static final long EMPTY_SEED = 0x64656E7369667921L; // "densify!"
    static final long BAND_SEED = 0x62616E64206B6579L; // "band key"
    static final long GOLDEN = 0x9E3779B97F4A7C15L;

    private final int shingle;
    private final int bins;
    /** Per bin i, {@code i * GOLDEN}: what a bin's minimum is mixed with for its stored bits. */
    private final long[] binOffsets;
    private final int binBits;
    private final int bitsPerBin;
    private final int bands;
    private final int rows;
    private final int keyBytes;

    /**
     * A sketch whose shingles have one size, without band keys, for measurement.
     *
     * @param shingleSize tokens per shingle, 1..16
     * @param bins        a power of two, 2..65536
     * @param bitsPerBin  1, 2, 4, 8, 16 or 32
     */
    public MinHashSketch(int shingleSize, int bins, int bitsPerBin) {
        this(shingleSize, bins, bitsPerBin, 0, 0, 0);
    }

    private MinHashSketch(int shingle, int bins, int bitsPerBin, int bands, int rows, int keyBytes) {
        if (shingle < 1 || shingle > 16 || bins < 2 || bins > 65536
            || Integer.bitCount(bins) != 1
            || (bitsPerBin != 1 && bitsPerBin != 2 && bitsPerBin != 4 && bitsPerBin != 8 && bitsPerBin != 16 && bitsPerBin != 32)
            || bands < 0 || rows < 0 || bands * rows > bins || keyBytes < 0 || keyBytes > 8 || (bands > 0 && (rows < 1 || keyBytes < 1))) {
            throw new IllegalArgumentException("bad sketch parameters: shingles of " + shingle + " tokens, bins " + bins + ", bits " + bitsPerBin + ", bands " + bands + " of " + rows + " bins, keys of " + keyBytes + " bytes");
        }
        this.shingle = shingle;
        this.bins = bins;
        this.binBits = Integer.numberOfTrailingZeros(bins);
        this.bitsPerBin = bitsPerBin;
        this.bands = bands;
        this.rows = rows;
        this.keyBytes = keyBytes;
        this.binOffsets = new long[bins];
        for (int i = 0; i < bins; i++) {
            binOffsets[i] = i * GOLDEN;
        }
    }

    /** Tokens per shingle (a text with fewer tokens is one shingle). */
    public int shingleSize() {
        return shingle;
    }

    public int bins() {
        return bins;
    }

    public int bitsPerBin() {
        return bitsPerBin;
    }

    /** Bytes of the bins' bits, the part of a sketch that estimates the similarity. */
    public int binBytes() {
        return (bins * bitsPerBin + 7) / 8;
    }

    /** Bytes of one sketch: the bins' bits, then the band keys. */
    public int bytes() {
        return binBytes() + bands * keyBytes;
    }

    /** The sketch of one or more texts read as one token sequence, or null when they have no token. */
    public byte[] sketch(Iterable<String> texts) {
        Accumulator a = accumulator();
        for (String t : texts) {
            if (t != null) {
                a.addText(t);
            }
        }
        return a.sketch();
    }

    /** The sketch of a text, or null when it has no token. */
    public byte[] sketch(String text) {
        return sketch(List.of(text));
    }

    /** The sketch of a token sequence (already folded and tokenized as simhash-v2 does), or null when it is empty. */
    public byte[] sketchOfTokens(List<String> tokens) {
        Accumulator a = accumulator();
        a.add(tokens);
        return a.sketch();
    }

    /** A new accumulator: texts added one after the other are one token sequence (shingles span their boundaries). */
    public Accumulator accumulator() {
        return new Accumulator();
    }

    /**
     * The bins' minima of a token sequence that arrives in parts (the values of an array field, several {@code copy_to}
     * sources): the sketch of everything added so far, equal to the sketch of all tokens at once. Not thread-safe.
     *
     * <p>It keeps the token hashes of the current chunk, at most {@value #CHUNK}, and computes their shingles in one loop when
     * the sketch is asked for (or the chunk is full): a text of up to {@value #CHUNK} tokens (a paragraph, a page) costs
     * no array of bins of its own, as the sketch is computed in the thread's scratch bins. A longer text folds each full
     * chunk's shingles into bins of its own, so memory stays bounded whatever its length.
     */
    public final class Accumulator implements FeatureBag.TokenHashes {
        /** Token hashes of the current chunk; its first {@code shingle - 1} after a fold are the end of the previous one. */
        private long[] hashes = new long[FIRST_CHUNK];
        private int count;
        /** Minima of the shingles of the chunks folded so far (those ending before the current chunk's own); null: none yet. */
        private long[] folded;
        private long tokens;

        private Accumulator() {}

        /** Adds the tokens of one more text (as {@link SimHashV2#tokens} gives them). */
        public void add(List<String> more) {
            for (String t : more) {
                add(SimHash.featureHash(t));
            }
        }

        /** Adds the next token by its hash (XXH3-64, seed 0, of its UTF-8 bytes), as a simhash-v2 fingerprinter reads it. */
        @Override
        public void add(long tokenHash) {
            if (count == hashes.length) {
                if (count < CHUNK) {
                    hashes = Arrays.copyOf(hashes, Math.min(CHUNK, 2 * count));
                } else {
                    fold();
                }
            }
            hashes[count++] = tokenHash;
            tokens++;
        }

        /** Folds the full chunk's shingles into the accumulator's own bins and keeps its last tokens for the next shingles. */
        private void fold() {
            if (folded == null) {
                folded = new long[bins];
                Arrays.fill(folded, -1L); // unsigned max: no value yet
            }
            addShingles(folded, hashes, count);
            System.arraycopy(hashes, count - (shingle - 1), hashes, 0, shingle - 1);
            count = shingle - 1;
        }

        /** Adds the text's tokens. */
        public void addText(String text) {
            add(SimHashV2.tokens(text));
        }

        /** Whether any token was added. */
        public boolean isEmpty() {
            return tokens == 0;
        }

        /** The sketch of all tokens added so far, or null when there is none. Tokens may still be added after it. */
        public byte[] sketch() {
            if (tokens == 0) {
                return null;
            }
            long[] min = SCRATCH.get();
            if (min.length != bins) {
                min = new long[bins];
            }
            if (folded == null) {
                Arrays.fill(min, -1L);
            } else {
                System.arraycopy(folded, 0, min, 0, bins);
            }
            if (tokens < shingle) {
                // fewer tokens than a shingle: the whole sequence is the one shingle
                addShingle(min, shingleHash(hashes, 0, count));
            } else {
                addShingles(min, hashes, count);
            }
            return finish(min);
        }
    }

    /** The shingles that end at {@code hashes[shingle - 1 .. count - 1]}, each a run of {@code shingle} token hashes, into {@code min}. */
    private void addShingles(long[] min, long[] hashes, int count) {
        for (int s = 0; s + shingle <= count; s++) {
            addShingle(min, shingleHash(hashes, s, shingle));
        }
    }

    /** The hash of the shingle of the {@code w} token hashes from {@code hashes[from]}: the spec's step 3. */
    private static long shingleHash(long[] hashes, int from, int w) {
        long h = SEED;
        for (int i = from; i < from + w; i++) {
            h = mix(h ^ hashes[i]);
        }
        return mix(h + w);
    }

    private void addShingle(long[] min, long h) {
        int bin = (int) (h >>> (64 - binBits));
        long v = h & (-1L >>> binBits);
        if (Long.compareUnsigned(v, min[bin]) < 0) {
            min[bin] = v;
        }
    }

    /** The hashes of the shingles of a whole token sequence, in order (repeats kept); none for no token. */
    public long[] shingleHashes(List<String> tokens) {
        int n = tokens.size();
        if (n == 0) {
            return new long[0];
        }
        int w = Math.min(shingle, n);
        long[] th = new long[n];
        for (int i = 0; i < n; i++) {
            th[i] = SimHash.featureHash(tokens.get(i));
        }
        long[] out = new long[n - w + 1];
        for (int s = 0; s < out.length; s++) {
            out[s] = shingleHash(th, s, w);
        }
        return out;
    }

    /** The sketch of a non-empty set of shingle hashes (repeats allowed). */
    public byte[] sketchOfShingles(long[] shingles) {
        if (shingles.length == 0) {
            throw new IllegalArgumentException("no shingle");
        }
        long[] min = new long[bins];
        Arrays.fill(min, -1L);
        for (long h : shingles) {
            addShingle(min, h);
        }
        return finish(min);
    }

    /** Densifies the bins' minima in place (at least one bin set), keeps {@code bitsPerBin} bits of each and adds the band keys. */
    private byte[] finish(long[] min) {
        Densification.fill(min, binBits);
        byte[] out = new byte[bytes()];
        // each bin's mixed minimum in a loop of its own (one the compiler runs several bins at a time); its low bits are the
        // bin's stored bits
        long[] mixed = bins == 512 ? MIXED.get() : new long[bins];
        long[] offset = binOffsets;
        for (int i = 0; i < bins; i++) {
            mixed[i] = mix(min[i] + offset[i]);
        }
        if (bitsPerBin == 1 && bins % 64 == 0) {
            // 64 bins to a little-endian long: bin i is bit i % 8 of byte i / 8
            for (int word = 0; word < bins; word += 64) {
                long bits = 0;
                for (int k = 0; k < 64; k++) {
                    bits |= (mixed[word + k] & 1) << k;
                }
                LITTLE_ENDIAN_LONGS.set(out, word >>> 3, bits);
            }
        } else {
            long mask = (1L << bitsPerBin) - 1;
            for (int i = 0; i < bins; i++) {
                writeBits(out, i * bitsPerBin, bitsPerBin, mixed[i] & mask);
            }
        }
        int at = binBytes();
        for (int j = 0; j < bands; j++) {
            long k = mix(BAND_SEED + j);
            for (int r = 0; r < rows; r++) {
                k = mix(k ^ min[j * rows + r]);
            }
            for (int b = 0; b < keyBytes; b++) {
                out[at++] = (byte) (k >>> (56 - 8 * b));
            }
        }
        return out;
    }

    /** The estimated Jaccard similarity of the shingle sets of two sketches of these parameters, in [0, 1]. */
    public double similarity(byte[] a, int aOffset, byte[] b, int bOffset) {
        return similarityOfEqualBins(equalBins(a, aOffset, b, bOffset));
    }

    /** The estimated similarity of two sketches with {@code equal} equal bins: the estimate above, clipped to [0, 1]. */
    public double similarityOfEqualBins(int equal) {
        double match = equal / (double) bins;
        double chance = Math.pow(2, -bitsPerBin);
        double j = (match - chance) / (1 - chance);
        return Math.max(0, Math.min(1, j));
    }

    public double similarity(byte[] a, byte[] b) {
        return similarity(a, 0, b, 0);
    }

    /** How many bins of the two sketches hold equal bits. */
    public int equalBins(byte[] a, int aOffset, byte[] b, int bOffset) {
        if (bitsPerBin == 1) {
            int len = binBytes();
            int diff = 0;
            int i = 0;
            for (; i + 8 <= len; i += 8) {
                diff += Long.bitCount(readLong(a, aOffset + i) ^ readLong(b, bOffset + i));
            }
            for (; i < len; i++) {
                diff += Integer.bitCount((a[aOffset + i] ^ b[bOffset + i]) & 0xFF);
            }
            return bins - diff;
        }
        int equal = 0;
        for (int i = 0; i < bins; i++) {
            if (readBits(a, aOffset, i * bitsPerBin, bitsPerBin) == readBits(b, bOffset, i * bitsPerBin, bitsPerBin)) {
                equal++;
            }
        }
        return equal;
    }

    /** The smallest number of equal bins at which {@link #similarity} is at least {@code threshold}. */
    public int equalBinsFor(double threshold) {
        for (int e = 0; e <= bins; e++) {
            double match = e / (double) bins;
            double chance = Math.pow(2, -bitsPerBin);
            if ((match - chance) / (1 - chance) >= threshold) {
                return e;
            }
        }
        return bins + 1;
    }

    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    private static long readLong(byte[] b, int off) {
        return (long) LITTLE_ENDIAN_LONGS.get(b, off);
    }

    /** Bits are packed little-endian: bin i's bits start at bit i * bitsPerBin, bit k of the stream is bit k % 8 of byte k / 8. */
    private static void writeBits(byte[] out, int bitOffset, int count, long bits) {
        for (int k = 0; k < count; k++) {
            if (((bits >>> k) & 1) != 0) {
                int p = bitOffset + k;
                out[p >>> 3] |= (byte) (1 << (p & 7));
            }
        }
    }

    private static long readBits(byte[] in, int off, int bitOffset, int count) {
        long v = 0;
        for (int k = 0; k < count; k++) {
            int p = bitOffset + k;
            if ((in[off + (p >>> 3)] & (1 << (p & 7))) != 0) {
                v |= 1L << k;
            }
        }
        return v;
    }
}
