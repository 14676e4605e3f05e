package dev.simhash.core;

import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.ToDoubleFunction;

/**
 * Turns a document's token sequence into features with their term frequencies, then into a fingerprint:
 * single tokens or word shingles (simhash-v1, steps 1 and 2), or every token and every pair of adjacent
 * tokens (simhash-v2, step 3). Every component fingerprints text through this class, so they agree bit for
 * bit. The features are kept as bytes ({@link ByteFeatures}) where that is exact and as strings
 * ({@link StringFeatures}) otherwise. Not thread-safe; reusable after {@link #reset()}.
 */
public final class FeatureBag {

    /** Separator between the words of a shingle feature. */
    public static final String SHINGLE_SEPARATOR = " ";

    private static final int INITIAL_CAPACITY = 16;
    /**
     * An index or per-feature array that grew beyond this length is given back on reset: bounds the memory a bag keeps (about
     * 400 KB at most) while those of ordinary documents (up to about 4,000 distinct tokens and as many bigrams) are kept.
     */
    private static final int MAX_KEPT_SLOTS = 1 << 13;
    /** Nor keeps byte buffers beyond this size. */
    private static final int MAX_KEPT_BYTES = 1 << 16;

    private FingerprintOptions options;
    /** simhash-v2: its features (every token, and from the second token on the previous token, a space and the token) and its weights. */
    private boolean adjacentPairs;
    /** Per-feature factors multiplying the weights (a feature-weight table); null for none. */
    private ToDoubleFunction<String> factors;
    /*
     * Byte mode (no factors, and single tokens or adjacent pairs): features are kept as UTF-8 bytes (bytes), tokens arrive as
     * chars or as runs of an ASCII text; the first token with an unpaired surrogate switches the bag to strings
     * (toStringMode), where it can be told apart. Other bags keep strings from the start (strings).
     */
    private boolean byteMode;
    private final ByteFeatures bytes = new ByteFeatures();
    private final StringFeatures strings = new StringFeatures();
    /** Byte mode: the id of the previous token's feature (adjacent pairs, across texts of one document), -1 for none. */
    private int previousId = -1;
    /** Where the previous token starts in the ASCII text being read, -1 when it is not a token of that text. */
    private int previousInText = -1;
    /** The features' weights, in id order, for the accumulator (byte mode). */
    private double[] weights = new double[INITIAL_CAPACITY];
    /** A token's UTF-8 bytes (tokens given as chars). */
    private byte[] scratch = new byte[4096];
    /** The ASCII text being read ({@link #addAsciiText}), one byte per char: its tokens are read from here, not encoded. */
    private byte[] text = new byte[4096];
    private final Utf8FeatureHasher hasher = new Utf8FeatureHasher();
    private final SimHashAccumulator accumulator = new SimHashAccumulator();
    private long tokens;
    /** This bag's token sinks, made once (not a lambda per text): tokens as chars, and tokens of the ASCII text taken. */
    final FastWordTokenizer.Sink charTokens = this::addToken;
    private final AsciiWordTokenizer.AsciiSink asciiTokens = this::addAsciiToken;
    /** The thread's bag while a {@link ThreadBags#lend} caller holds it. */
    boolean lent;
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

    /** Sets what the bag makes of its tokens (while it is empty). */
    void configure(FingerprintOptions options, boolean adjacentPairs, ToDoubleFunction<String> factors) {
        this.options = options;
        this.adjacentPairs = adjacentPairs;
        this.factors = factors;
        this.byteMode = byteModeFits();
        strings.configure(adjacentPairs, options.shingleSize(), factors);
    }

    /** Factors are functions of strings and shingle windows are strings: those bags keep strings. */
    private boolean byteModeFits() {
        return factors == null && (adjacentPairs || options.shingleSize() == 1);
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
        int id = bytes.countToken(b, 0, end);
        if (tokenHashes != null) {
            tokenHashes.add(bytes.hash(id));
        }
        if (adjacentPairs) {
            if (previousId >= 0) {
                bytes.countPair(previousId, id, null, -1);
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
     * bytes ({@link CharFolding#foldAscii}) and read by {@link AsciiWordTokenizer#tokenizeAscii}, no token encoded or copied.
     * Returns false (and adds nothing) otherwise.
     */
    boolean addAsciiText(CharFolding.Buffer read, int length) {
        if (!byteMode || !CharFolding.foldAscii(read, length, textBuffer(length))) {
            return false;
        }
        AsciiWordTokenizer.tokenizeAscii(text, length, asciiTokens);
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
        AsciiWordTokenizer.tokenizeAscii(t, length, asciiTokens);
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
        int id = bytes.countToken(t, start, length);
        if (tokenHashes != null) {
            tokenHashes.add(bytes.hash(id));
        }
        if (adjacentPairs) {
            int first = previousId;
            if (first >= 0) {
                int p = previousInText;
                // one space after the previous token of this text: the pair's bytes are a run of the text
                bytes.countPair(first, id, t, p >= 0 && p + bytes.tokenLength(first) + 1 == start && t[start - 1] == ' ' ? p : -1);
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
        strings.addToken(token);
    }

    /** Leaves byte mode for good (until reset): every feature and the previous token become strings, in the same order. */
    private void toStringMode() {
        ByteFeatures b = bytes;
        for (int id = 0, n = b.size(); id < n; id++) {
            strings.add(b.string(id), b.frequency(id));
        }
        strings.previous(previousId < 0 ? null : b.string(previousId));
        b.clear(MAX_KEPT_SLOTS, MAX_KEPT_BYTES);
        byteMode = false;
    }

    /** Number of tokens added since the last reset. */
    public long tokenCount() {
        return tokens;
    }

    private int size() {
        return byteMode ? bytes.size() : strings.size();
    }

    /**
     * Number of distinct features. A document with fewer tokens than the shingle size has exactly one
     * feature: all its tokens joined.
     */
    public int distinctFeatures() {
        if (size() == 0 && tokens > 0) {
            return factors == null || factors.applyAsDouble(strings.joinWindow()) != 0 ? 1 : 0;
        }
        // with factors: only the features the fingerprint weighs (factor 0 leaves a feature out)
        return factors == null ? size() : strings.kept();
    }

    /**
     * The fingerprint of all tokens added, or empty when there are fewer distinct features than
     * {@code min_features} (in particular when there are no tokens at all).
     */
    public OptionalLong fingerprint() {
        if (size() == 0 && tokens > 0) {
            // shorter than one shingle: the whole (short) document is the single feature
            strings.count(strings.joinWindow());
        }
        int size = size();
        if (size < options.minFeatures() || size == 0) {
            return OptionalLong.empty();
        }
        SimHashAccumulator acc = accumulator;
        if (factors != null) {
            acc.reset();
            return weightedFingerprint(acc);
        }
        if (byteMode) {
            double[] w = weights;
            if (w.length < size) {
                w = weights = new double[Math.max(size, 2 * w.length)];
            }
            for (int id = 0; id < size; id++) {
                w[id] = weight(bytes.frequency(id));
            }
            return OptionalLong.of(acc.fingerprint(bytes.hashes(), w, size));
        }
        acc.reset();
        for (int id = 0; id < size; id++) {
            acc.add(hasher.hash(strings.feature(id)), weight(strings.frequency(id)));
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
        for (int id = 0, n = strings.size(); id < n; id++) {
            String feature = strings.feature(id);
            double factor = f.applyAsDouble(feature);
            if (!(factor >= 0) || Double.isInfinite(factor)) {
                throw new IllegalArgumentException("weight of feature [" + SimHash.abbreviate(feature)
                    + "] must be a finite number >= 0, got [" + factor + "]");
            }
            if (factor == 0) {
                continue;
            }
            // the weight, then times the factor: the order of the contract (simhash-v2 step 4)
            acc.add(hasher.hash(feature), weight(strings.frequency(id)) * factor);
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
    public List<String> features() {
        if (size() == 0 && tokens > 0) {
            return List.of(strings.joinWindow());
        }
        if (byteMode) {
            String[] f = new String[bytes.size()];
            for (int id = 0; id < f.length; id++) {
                f[id] = bytes.string(id);
            }
            return List.of(f);
        }
        return strings.list();
    }

    /** Forgets all tokens so the bag can take the next document. */
    public void reset() {
        tokenHashes = null;
        bytes.clear(MAX_KEPT_SLOTS, MAX_KEPT_BYTES);
        strings.clear(MAX_KEPT_SLOTS);
        // a very large document does not pin its buffers
        if (weights.length > MAX_KEPT_SLOTS) {
            weights = new double[INITIAL_CAPACITY];
        }
        if (scratch.length > MAX_KEPT_BYTES) {
            scratch = new byte[4096];
        }
        if (text.length > MAX_KEPT_BYTES) {
            text = new byte[4096];
        }
        previousId = -1;
        previousInText = -1;
        byteMode = byteModeFits();
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
