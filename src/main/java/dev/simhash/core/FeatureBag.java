package dev.simhash.core;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.ToDoubleFunction;

/**
 * Turns a document's token sequence into features with their term frequencies, then into a fingerprint:
 * single tokens or word shingles (simhash-v1, steps 1 and 2), or every token and every pair of adjacent
 * tokens (simhash-v2, step 3). Every component fingerprints text through this class, so they agree bit for
 * bit. Not thread-safe; reusable after {@link #reset()}.
 */
public final class FeatureBag {

    /** Separator between the words of a shingle feature. */
    public static final String SHINGLE_SEPARATOR = " ";

    private static final int INITIAL_CAPACITY = 16;
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    /**
     * An index or per-feature array that grew beyond this length is given back on reset: bounds the memory a bag keeps (about
     * 400 KB at most) while those of ordinary documents (up to about 4,000 distinct tokens and as many bigrams) are kept.
     */
    private static final int MAX_KEPT_SLOTS = 1 << 13;
    /** Nor keeps byte buffers beyond this size. */
    private static final int MAX_KEPT_BYTES = 1 << 16;

    /** One bag per thread for whole-text fingerprints ({@link #threadBag}): no tables or buffers per document. */
    private static final ThreadLocal<FeatureBag> THREAD_BAG = ThreadLocal.withInitial(() -> new FeatureBag(FingerprintOptions.DEFAULTS));

    private FingerprintOptions options;
    /** simhash-v2: its features (every token, and from the second token on the previous token, a space and the token) and its weights. */
    private boolean adjacentPairs;
    /** Per-feature factors multiplying the weights (a feature-weight table); null for none. */
    private ToDoubleFunction<String> factors;
    /** The previous token (adjacent pairs only), across texts added to the same document. */
    private String previous;
    // The distinct features in order of first occurrence (which fixes the summation order of non-integer
    // weights) with their term frequencies, and an open-addressing index over them (slot -> id + 1, 0 = empty;
    // at most half full). Reused across documents: no per-feature entry or counter objects.
    private String[] features = new String[INITIAL_CAPACITY];
    private int[] frequencies = new int[INITIAL_CAPACITY];
    private int[] slots = new int[2 * INITIAL_CAPACITY];
    /**
     * Byte mode's index instead of slots: per slot the high 32 bits of the feature's hash and id + 1 (0 = empty), so that a
     * probe reads one entry, and the feature's bytes are compared only when the hash's high half matches.
     */
    private long[] entries = new long[2 * INITIAL_CAPACITY];
    private int size;
    /** With factors: the distinct features whose factor is not 0 (those a fingerprint weighs). */
    private int kept;
    /*
     * Byte mode (no factors, and single tokens or adjacent pairs): a feature is kept as its UTF-8 bytes in an arena with
     * its XXH3 hash, never as a string; tokens arrive as chars (addToken(char[], int, int)). Two features are the same
     * iff their bytes are, exactly as their strings are equal, because UTF-8 is one-to-one on text without unpaired
     * surrogates; the first token with one switches the bag to strings (toStringMode), where it can be told apart.
     * Tokens are found in the index (entries) by a cheap hash of their bytes (lookupHash) and the bytes decide; XXH3 is
     * computed once per distinct feature. A pair is found by the ids of its two tokens (pairKeys, pairIds): tokens hold
     * no space, so "t1 t2" is the same string as "u1 u2" iff t1 = u1 and t2 = u2; its bytes are made only when it is new.
     */
    private boolean byteMode;
    private byte[] arena = new byte[4096];
    private int arenaSize;
    private int[] starts = new int[INITIAL_CAPACITY];
    private int[] lengths = new int[INITIAL_CAPACITY];
    private long[] hashes = new long[INITIAL_CAPACITY];
    /** Where the slot of feature id is: its index in entries (a token), or ~index in pairIds (a pair). */
    private int[] slotOfId = new int[INITIAL_CAPACITY];
    /** Distinct tokens in entries (byte mode). */
    private int tokenFeatures;
    /** Byte mode, adjacent pairs: per slot the ids of a pair's tokens (first << 32 | second) and the pair's id + 1 (0 = empty). */
    private long[] pairKeys = new long[2 * INITIAL_CAPACITY];
    private int[] pairIds = new int[2 * INITIAL_CAPACITY];
    private int pairFeatures;
    /** Byte mode: the id of the previous token's feature (adjacent pairs, across texts of one document), -1 for none. */
    private int previousId = -1;
    /** Where the previous token starts in the ASCII text being read, -1 when it is not a token of that text. */
    private int previousInText = -1;
    /** The features' weights, in id order, for the accumulator (byte mode). */
    private double[] weights = new double[INITIAL_CAPACITY];
    /** A new pair's bytes, when they are not one run of the ASCII text. */
    private byte[] pairBytes = new byte[256];
    /** A token's UTF-8 bytes (tokens given as chars). */
    private byte[] scratch = new byte[4096];
    /** The ASCII text being read ({@link #addAsciiText}), one byte per char: its tokens are read from here, not encoded. */
    private byte[] text = new byte[4096];
    private final ArrayDeque<String> window = new ArrayDeque<>();
    private final StringBuilder shingle = new StringBuilder();
    private final Utf8FeatureHasher hasher = new Utf8FeatureHasher();
    private final SimHashAccumulator accumulator = new SimHashAccumulator();
    private long tokens;
    /** This bag's token sinks, made once (not a lambda per text): tokens as chars, and tokens of the ASCII text taken. */
    final FastWordTokenizer.Sink charTokens = this::addToken;
    private final FastWordTokenizer.AsciiSink asciiTokens = this::addAsciiToken;
    /** The thread's bag while a {@link #threadBag} caller holds it. */
    private boolean lent;
    /** Receives each token's hash in order (a similarity sketch reads the tokens this way, without tokenizing again); or null. */
    private TokenHashes tokenHashes;

    /** Receives the XXH3-64 (seed 0) hash of each token's UTF-8 bytes, in order: the input of a {@link MinHashSketch}. */
    public interface TokenHashes {
        void add(long tokenHash);
    }

    /** Hands the hash of every token added from now on to {@code sink} (null: none) until the bag is reset. */
    public void tokenHashes(TokenHashes sink) {
        this.tokenHashes = sink;
    }

    public FeatureBag(FingerprintOptions options) {
        this(options, false, null);
    }

    /** A bag with simhash-v1's features ({@code adjacentPairs} false: tokens or shingles) or simhash-v2's. */
    FeatureBag(FingerprintOptions options, boolean adjacentPairs) {
        this(options, adjacentPairs, null);
    }

    /** As {@link #FeatureBag(FingerprintOptions, boolean)}, each feature's weight multiplied by its factor (null: none). */
    FeatureBag(FingerprintOptions options, boolean adjacentPairs, ToDoubleFunction<String> factors) {
        configure(options, adjacentPairs, factors);
    }

    private void configure(FingerprintOptions options, boolean adjacentPairs, ToDoubleFunction<String> factors) {
        this.options = options;
        this.adjacentPairs = adjacentPairs;
        this.factors = factors;
        this.byteMode = byteModeFits();
    }

    /** Factors are functions of strings and shingle windows are strings: those bags keep strings. */
    private boolean byteModeFits() {
        return factors == null && (adjacentPairs || options.shingleSize() == 1);
    }

    /**
     * This thread's bag, empty, set to {@code options}; the caller must {@link #reset()} it when done (also on
     * failure) and must not hand it out: it is for a fingerprint computed and read within one call.
     */
    static FeatureBag threadBag(FingerprintOptions options, boolean adjacentPairs) {
        return threadBag(options, adjacentPairs, null);
    }

    /** {@link #threadBag(FingerprintOptions, boolean)} with per-feature factors (null: none). */
    static FeatureBag threadBag(FingerprintOptions options, boolean adjacentPairs, ToDoubleFunction<String> factors) {
        FeatureBag bag = THREAD_BAG.get();
        if (bag.lent) {
            // a fingerprint computed while another is (e.g. from inside an analyzer)
            return new FeatureBag(options, adjacentPairs, factors);
        }
        bag.reset();
        bag.configure(options, adjacentPairs, factors);
        bag.lent = true;
        return bag;
    }

    /** Adds the next token of the document: its chars {@code buffer[start .. start+length)}, read during the call only. */
    public void addToken(char[] buffer, int start, int length) {
        if (!byteMode) {
            addToken(new String(buffer, start, length));
            return;
        }
        if (scratch.length < 3 * length) {
            scratch = new byte[Math.max(2 * scratch.length, 3 * length)];
        }
        byte[] b = scratch;
        int end = Utf8FeatureHasher.encode(buffer, start, length, b, 0);
        if (end < 0 || adjacentPairs && hasSpace(b, end)) {
            // an unpaired surrogate; or a space, which would make a pair's bytes ambiguous (no tokenizer of ours makes one)
            toStringMode();
            addToken(new String(buffer, start, length));
            return;
        }
        tokens++;
        int id = countToken(b, 0, end);
        if (tokenHashes != null) {
            tokenHashes.add(hashes[id]);
        }
        if (adjacentPairs) {
            if (previousId >= 0) {
                countPair(previousId, id, -1);
            }
            previousId = id;
            previousInText = -1;
        }
    }

    private static boolean hasSpace(byte[] b, int length) {
        for (int i = 0; i < length; i++) {
            if (b[i] == ' ') {
                return true;
            }
        }
        return false;
    }

    /**
     * Adds the tokens of the next text of the document, folded (simhash-v2 step 1), when it is all ASCII and this bag keeps
     * features as bytes: its {@code length} chars, read into {@code read} ({@link CharFolding#read}), folded straight to
     * bytes ({@link CharFolding#foldAscii}) and read by {@link FastWordTokenizer#tokenizeAscii}, no token encoded or copied.
     * Returns false (and adds nothing) otherwise.
     */
    boolean addAsciiText(CharFolding.Buffer read, int length) {
        if (!byteMode || !CharFolding.foldAscii(read, length, textBuffer(length))) {
            return false;
        }
        FastWordTokenizer.tokenizeAscii(text, length, asciiTokens);
        return true;
    }

    /** As {@link #addAsciiText(CharFolding.Buffer, int)} for a text already folded, {@code chars[0 .. length)}. */
    boolean addFoldedAsciiText(char[] chars, int length) {
        if (!byteMode) {
            return false;
        }
        // one pass: the bytes, and whether any char was beyond ASCII (then the bytes are not used)
        byte[] t = textBuffer(length);
        int any = 0;
        for (int i = 0; i < length; i++) {
            char c = chars[i];
            any |= c;
            t[i] = (byte) c;
        }
        if (any >= 0x80) {
            return false;
        }
        FastWordTokenizer.tokenizeAscii(t, length, asciiTokens);
        return true;
    }

    /** The buffer for the next ASCII text, of at least {@code length} bytes; the previous token is no longer in it. */
    private byte[] textBuffer(int length) {
        if (text.length < length) {
            text = new byte[Math.max(length, 2 * text.length)];
        }
        previousInText = -1;
        return text;
    }

    /**
     * Adds the next token: {@code text[start .. start+length)} of the ASCII text being read ({@link #addAsciiText}); it holds
     * no space (a token of FastWordTokenizer).
     */
    void addAsciiToken(int start, int length) {
        tokens++;
        byte[] t = text;
        int id = countToken(t, start, length);
        if (tokenHashes != null) {
            tokenHashes.add(hashes[id]);
        }
        if (adjacentPairs) {
            int first = previousId;
            if (first >= 0) {
                int p = previousInText;
                // one space after the previous token of this text: the pair's bytes are a run of the text
                countPair(first, id, p >= 0 && p + lengths[first] + 1 == start && t[start - 1] == ' ' ? p : -1);
            }
            previousId = id;
            previousInText = start;
        }
    }

    /** Adds the next token of the document. */
    public void addToken(String token) {
        if (byteMode) {
            char[] c = token.toCharArray();
            addToken(c, 0, c.length);
            return;
        }
        tokens++;
        if (tokenHashes != null) {
            tokenHashes.add(SimHash.featureHash(token));
        }
        if (adjacentPairs) {
            count(token);
            if (previous != null) {
                StringBuilder sb = shingle;
                sb.setLength(0);
                count(sb.append(previous).append(SHINGLE_SEPARATOR).append(token).toString());
            }
            previous = token;
            return;
        }
        int n = options.shingleSize();
        if (n == 1) {
            count(token);
            return;
        }
        window.addLast(token);
        if (window.size() > n) {
            window.removeFirst();
        }
        if (window.size() == n) {
            count(joinWindow());
        }
    }

    private void count(String feature) {
        int h = feature.hashCode();
        int mask = slots.length - 1;
        int i = (h ^ (h >>> 16)) & mask;
        for (int id; (id = slots[i] - 1) >= 0; i = (i + 1) & mask) {
            if (features[id].equals(feature)) {
                frequencies[id]++;
                return;
            }
        }
        if (size == features.length || size == frequencies.length) {
            int c = Math.max(2 * size, INITIAL_CAPACITY);
            features = Arrays.copyOf(features, c);
            frequencies = Arrays.copyOf(frequencies, c);
        }
        if (factors != null && factors.applyAsDouble(feature) != 0) {
            kept++;
        }
        features[size] = feature;
        frequencies[size] = 1;
        slots[i] = ++size;
        if (2 * size > slots.length) {
            rehash(2 * slots.length);
        }
    }

    /** Counts the token whose UTF-8 bytes are {@code b[off .. off+len)} (byte mode); returns its feature's id. */
    private int countToken(byte[] b, int off, int len) {
        long h = lookupHash(b, off, len);
        long[] e = entries;
        int mask = e.length - 1;
        int i = slot(h) & mask;
        long tag = h & TAG;
        for (long entry; (entry = e[i]) != 0; i = (i + 1) & mask) {
            // same high half of the lookup hash, same length, same bytes: the same feature (the bytes decide, exactly)
            int id = (int) entry - 1;
            if ((entry & TAG) == tag && lengths[id] == len && sameBytes(arena, starts[id], b, off, len)) {
                frequencies[id]++;
                return id;
            }
        }
        int id = newFeature(len);
        System.arraycopy(b, off, arena, starts[id], len);
        // XXH3 once per distinct feature (the lookup hash of a long token is its XXH3 already)
        hashes[id] = len > CHEAP_HASH_MAX ? h : SimHash.featureHash(arena, starts[id], len);
        e[i] = tag | (id + 1);
        slotOfId[id] = i;
        if (2 * ++tokenFeatures > e.length) {
            rehashTokens(2 * e.length);
        }
        return id;
    }

    /**
     * Counts the pair of the tokens of features {@code first} and {@code second} (byte mode): their bytes with a space between,
     * found at {@code inText} in the ASCII text being read, or (-1) made from the tokens' bytes when the pair is new. A pair's
     * bytes are not kept: its starts and lengths entries hold the ids of its tokens.
     */
    private void countPair(int first, int second, int inText) {
        long key = (long) first << 32 | second;
        long[] k = pairKeys;
        int[] ids = pairIds;
        int mask = ids.length - 1;
        int i = pairSlot(key) & mask;
        for (int v; (v = ids[i]) != 0; i = (i + 1) & mask) {
            if (k[i] == key) {
                frequencies[v - 1]++;
                return;
            }
        }
        int firstLength = lengths[first];
        int length = firstLength + 1 + lengths[second];
        long hash;
        if (inText >= 0) {
            hash = SimHash.featureHash(text, inText, length);
        } else {
            byte[] b = pairBytes;
            if (b.length < length) {
                b = pairBytes = new byte[Math.max(2 * b.length, length)];
            }
            System.arraycopy(arena, starts[first], b, 0, firstLength);
            b[firstLength] = ' ';
            System.arraycopy(arena, starts[second], b, firstLength + 1, length - firstLength - 1);
            hash = SimHash.featureHash(b, 0, length);
        }
        int id = newId();
        hashes[id] = hash;
        starts[id] = first;
        lengths[id] = second;
        k[i] = key;
        ids[i] = id + 1;
        slotOfId[id] = ~i;
        if (2 * ++pairFeatures > ids.length) {
            rehashPairs(2 * ids.length);
        }
    }

    /** A new token feature of {@code len} bytes, counted once, its room taken at the arena's end (the caller fills bytes and hash). */
    private int newFeature(int len) {
        if (arena.length - arenaSize < len) {
            arena = Arrays.copyOf(arena, Math.max(2 * arena.length, arenaSize + len));
        }
        int id = newId();
        starts[id] = arenaSize;
        lengths[id] = len;
        arenaSize += len;
        return id;
    }

    /** A new feature, counted once (the caller fills its hash, starts and lengths entries). */
    private int newId() {
        if (size == hashes.length || size == frequencies.length) {
            int c = 2 * size;
            hashes = Arrays.copyOf(hashes, c);
            starts = Arrays.copyOf(starts, c);
            lengths = Arrays.copyOf(lengths, c);
            frequencies = Arrays.copyOf(frequencies, c);
            slotOfId = Arrays.copyOf(slotOfId, c);
        }
        int id = size++;
        frequencies[id] = 1;
        return id;
    }

    private static final long TAG = 0xFFFFFFFF00000000L;
    /** Tokens up to this many bytes get the cheap lookup hash; longer ones their XXH3. */
    private static final int CHEAP_HASH_MAX = 16;

    /**
     * The index's hash of a token's bytes: for up to 16 bytes a multiply-mix of (at most) two words covering them and the
     * length (equal bytes give equal hashes; the bytes are compared anyway), beyond that XXH3, which the feature needs.
     */
    static long lookupHash(byte[] b, int off, int len) {
        long x;
        if (len >= 8) {
            if (len > CHEAP_HASH_MAX) {
                return SimHash.featureHash(b, off, len);
            }
            x = (long) LONGS.get(b, off) * 0xC2B2AE3D27D4EB4FL ^ (long) LONGS.get(b, off + len - 8);
        } else if (len >= 4) {
            x = (long) (int) INTS.get(b, off) << 32 | (int) INTS.get(b, off + len - 4) & 0xFFFFFFFFL;
        } else if (len > 0) {
            x = b[off] & 0xFF | (b[off + (len >> 1)] & 0xFF) << 8 | (b[off + len - 1] & 0xFF) << 16;
        } else {
            x = 0;
        }
        long m = (x ^ (long) len << 58) * 0x9E3779B97F4A7C15L;
        return m ^ m >>> 29;
    }

    private static int pairSlot(long key) {
        long m = key * 0x9E3779B97F4A7C15L;
        return (int) (m ^ m >>> 32);
    }

    /**
     * Whether {@code a[aOff ..]} and {@code b[bOff ..]} hold the same {@code len} bytes: up to 16 bytes as two (overlapping)
     * words per side, first and last (together they cover every byte), longer runs by Arrays.equals.
     */
    static boolean sameBytes(byte[] a, int aOff, byte[] b, int bOff, int len) {
        if (len >= 8) {
            if (len > 16) {
                return Arrays.equals(a, aOff, aOff + len, b, bOff, bOff + len);
            }
            int last = len - 8;
            return (long) LONGS.get(a, aOff) == (long) LONGS.get(b, bOff)
                && (long) LONGS.get(a, aOff + last) == (long) LONGS.get(b, bOff + last);
        }
        if (len >= 4) {
            int last = len - 4;
            return (int) INTS.get(a, aOff) == (int) INTS.get(b, bOff) && (int) INTS.get(a, aOff + last) == (int) INTS.get(b, bOff + last);
        }
        for (int i = 0; i < len; i++) {
            if (a[aOff + i] != b[bOff + i]) {
                return false;
            }
        }
        return true;
    }

    private static int slot(long hash) {
        return (int) (hash ^ (hash >>> 32));
    }

    /** The feature {@code id} as a string (byte mode): its bytes are well-formed UTF-8, so this is the string they came from. */
    private String featureString(int id) {
        if (slotOfId[id] < 0) {
            // a pair: its tokens' ids
            return featureString(starts[id]) + SHINGLE_SEPARATOR + featureString(lengths[id]);
        }
        return new String(arena, starts[id], lengths[id], StandardCharsets.UTF_8);
    }

    /** Leaves byte mode for good (until reset): every feature and the previous token become strings again. */
    private void toStringMode() {
        String[] f = new String[Math.max(frequencies.length, INITIAL_CAPACITY)];
        for (int id = 0; id < size; id++) {
            f[id] = featureString(id);
        }
        features = f;
        previous = previousId < 0 ? null : f[previousId];
        clearByteIndex();
        byteMode = false;
        int capacity = slots.length;
        while (2 * size > capacity) {
            capacity *= 2;
        }
        rehash(capacity);
    }

    /** Empties the byte-mode indexes (only the slots the features took). */
    private void clearByteIndex() {
        long[] e = entries;
        int[] p = pairIds;
        int[] at = slotOfId;
        for (int id = 0; id < size; id++) {
            int slot = at[id];
            if (slot >= 0) {
                e[slot] = 0;
            } else {
                p[~slot] = 0;
            }
        }
        tokenFeatures = 0;
        pairFeatures = 0;
    }

    /** Byte mode: the token index with {@code capacity} slots. */
    private void rehashTokens(int capacity) {
        int mask = capacity - 1;
        long[] e = new long[capacity];
        for (int id = 0; id < size; id++) {
            if (slotOfId[id] < 0) {
                continue; // a pair
            }
            long h = lookupHash(arena, starts[id], lengths[id]);
            int i = slot(h) & mask;
            while (e[i] != 0) {
                i = (i + 1) & mask;
            }
            e[i] = (h & TAG) | (id + 1);
            slotOfId[id] = i;
        }
        entries = e;
    }

    /** Byte mode: the pair index with {@code capacity} slots. */
    private void rehashPairs(int capacity) {
        int mask = capacity - 1;
        long[] k = new long[capacity];
        int[] ids = new int[capacity];
        long[] oldKeys = pairKeys;
        int[] oldIds = pairIds;
        for (int j = 0; j < oldIds.length; j++) {
            int v = oldIds[j];
            if (v == 0) {
                continue;
            }
            long key = oldKeys[j];
            int i = pairSlot(key) & mask;
            while (ids[i] != 0) {
                i = (i + 1) & mask;
            }
            k[i] = key;
            ids[i] = v;
            slotOfId[v - 1] = ~i;
        }
        pairKeys = k;
        pairIds = ids;
    }

    /** String mode: the index with {@code capacity} slots. */
    private void rehash(int capacity) {
        int mask = capacity - 1;
        int[] s = new int[capacity];
        for (int id = 0; id < size; id++) {
            int h = features[id].hashCode();
            int i = (h ^ (h >>> 16)) & mask;
            while (s[i] != 0) {
                i = (i + 1) & mask;
            }
            s[i] = id + 1;
        }
        slots = s;
    }

    private String joinWindow() {
        StringBuilder sb = shingle;
        sb.setLength(0);
        Iterator<String> it = window.iterator();
        sb.append(it.next());
        while (it.hasNext()) {
            sb.append(SHINGLE_SEPARATOR).append(it.next());
        }
        return sb.toString();
    }

    /** Number of tokens added since the last reset. */
    public long tokenCount() {
        return tokens;
    }

    /**
     * Number of distinct features. A document with fewer tokens than the shingle size has exactly one
     * feature: all its tokens joined.
     */
    public int distinctFeatures() {
        if (size == 0 && tokens > 0) {
            return factors == null || factors.applyAsDouble(joinWindow()) != 0 ? 1 : 0;
        }
        // with factors: only the features the fingerprint weighs (factor 0 leaves a feature out)
        return factors == null ? size : kept;
    }

    /**
     * The fingerprint of all tokens added, or empty when there are fewer distinct features than
     * {@code min_features} (in particular when there are no tokens at all).
     */
    public OptionalLong fingerprint() {
        if (size == 0 && tokens > 0) {
            // shorter than one shingle: the whole (short) document is the single feature
            count(joinWindow());
        }
        if (size < options.minFeatures() || size == 0) {
            return OptionalLong.empty();
        }
        SimHashAccumulator acc = accumulator;
        if (factors != null) {
            acc.reset();
            return weightedFingerprint(acc);
        }
        if (byteMode) {
            // the bulk form resets the accumulator itself
            double[] w = weights;
            if (w.length < size) {
                w = weights = new double[Math.max(size, 2 * w.length)];
            }
            for (int id = 0; id < size; id++) {
                w[id] = weight(frequencies[id]);
            }
            return OptionalLong.of(acc.fingerprint(hashes, w, size));
        }
        acc.reset();
        for (int id = 0; id < size; id++) {
            acc.add(hasher.hash(features[id]), weight(frequencies[id]));
        }
        return OptionalLong.of(acc.fingerprint());
    }

    /** The weight of a feature occurring tf times: simhash-v2's (step 4: binary), or by the weighting of simhash-v1. */
    private double weight(int tf) {
        return adjacentPairs ? 1 : options.weighting().weightOf(tf);
    }

    /** The fingerprint with every weight times the feature's factor; features with factor 0 are left out, also from min_features. */
    private OptionalLong weightedFingerprint(SimHashAccumulator acc) {
        ToDoubleFunction<String> f = factors;
        int kept = 0;
        for (int id = 0; id < size; id++) {
            String feature = features[id];
            double factor = f.applyAsDouble(feature);
            if (!(factor >= 0) || Double.isInfinite(factor)) {
                throw new IllegalArgumentException("weight of feature [" + SimHash.abbreviate(feature)
                    + "] must be a finite number >= 0, got [" + factor + "]");
            }
            if (factor == 0) {
                continue;
            }
            // the weight, then times the factor: the order of the contract (simhash-v2 step 4)
            acc.add(hasher.hash(feature), weight(frequencies[id]) * factor);
            kept++;
        }
        if (kept == 0 || kept < options.minFeatures()) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(acc.fingerprint());
    }

    /**
     * The distinct features added so far, in order of first occurrence, exactly those {@link #fingerprint()} weighs (a
     * document shorter than one shingle: its tokens joined); what a feature-weight table is computed from.
     */
    public java.util.List<String> features() {
        if (size == 0 && tokens > 0) {
            return java.util.List.of(joinWindow());
        }
        if (byteMode) {
            String[] f = new String[size];
            for (int id = 0; id < size; id++) {
                f[id] = featureString(id);
            }
            return java.util.List.of(f);
        }
        return java.util.List.of(Arrays.copyOf(features, size));
    }

    /** Forgets all tokens so the bag can take the next document. */
    public void reset() {
        tokenHashes = null;
        Arrays.fill(features, 0, Math.min(size, features.length), null);
        if (byteMode) {
            clearByteIndex(); // the string index is empty
        } else {
            Arrays.fill(slots, 0); // the byte indexes are empty (cleared when the bag left byte mode, or never used)
        }
        // a very large document does not pin its arrays: each one beyond MAX_KEPT_SLOTS is given back (the others stay)
        if (weights.length > MAX_KEPT_SLOTS) {
            weights = new double[INITIAL_CAPACITY];
        }
        if (hashes.length > MAX_KEPT_SLOTS || features.length > MAX_KEPT_SLOTS) {
            features = new String[INITIAL_CAPACITY];
            frequencies = new int[INITIAL_CAPACITY];
            hashes = new long[INITIAL_CAPACITY];
            starts = new int[INITIAL_CAPACITY];
            lengths = new int[INITIAL_CAPACITY];
            slotOfId = new int[INITIAL_CAPACITY];
        }
        if (slots.length > MAX_KEPT_SLOTS) {
            slots = new int[2 * INITIAL_CAPACITY];
        }
        if (entries.length > MAX_KEPT_SLOTS) {
            entries = new long[2 * INITIAL_CAPACITY];
        }
        if (pairIds.length > MAX_KEPT_SLOTS) {
            pairKeys = new long[2 * INITIAL_CAPACITY];
            pairIds = new int[2 * INITIAL_CAPACITY];
        }
        if (arena.length > MAX_KEPT_BYTES) {
            arena = new byte[4096];
        }
        if (scratch.length > MAX_KEPT_BYTES) {
            scratch = new byte[4096];
        }
        if (text.length > MAX_KEPT_BYTES) {
            text = new byte[4096];
        }
        arenaSize = 0;
        previousId = -1;
        previousInText = -1;
        if (pairBytes.length > MAX_KEPT_BYTES) {
            pairBytes = new byte[256];
        }
        byteMode = byteModeFits();
        size = 0;
        kept = 0;
        window.clear();
        previous = null;
        tokens = 0;
        lent = false;
    }

    /**
     * Fingerprint of explicitly weighted features, added in iteration order (no term frequency).
     * Empty when there are fewer than {@code minFeatures} features.
     *
     * @throws IllegalArgumentException if a weight is not a positive finite number
     */
    public static OptionalLong fingerprintWeighted(Map<String, ? extends Number> weightedFeatures, int minFeatures) {
        if (weightedFeatures.isEmpty() || weightedFeatures.size() < minFeatures) {
            return OptionalLong.empty();
        }
        SimHashAccumulator acc = new SimHashAccumulator();
        for (Map.Entry<String, ? extends Number> e : weightedFeatures.entrySet()) {
            Number w = e.getValue();
            if (w == null) {
                throw new IllegalArgumentException("weight of feature [" + SimHash.abbreviate(e.getKey()) + "] is missing");
            }
            acc.add(SimHash.featureHash(e.getKey()), w.doubleValue());
        }
        return OptionalLong.of(acc.fingerprint());
    }
}
