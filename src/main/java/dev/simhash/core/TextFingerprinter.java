package dev.simhash.core;

import org.apache.lucene.analysis.Analyzer;

import java.util.OptionalLong;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

/**
 * Fingerprints whole texts: simhash-v1 (an analyzer's tokens to features to a fingerprint) or simhash-v2 (folded
 * text, Unicode word and Han character tokens, unigrams and bigrams, binary weights). Thread-safe.
 */
public final class TextFingerprinter {

    /** The thread's buffer for folded text (simhash-v2 step 1), used within one {@link #addTokens} call. */
    private static final ThreadLocal<CharFolding.Buffer> FOLDED = ThreadLocal.withInitial(CharFolding.Buffer::new);

    private final FingerprintSpec.Version version;
    private final Analyzer analyzer;
    private final FingerprintOptions options;
    /** Per-feature factors (a feature-weight table), looked up for each document; null for none. */
    private final Supplier<? extends ToDoubleFunction<String>> factors;

    /** A simhash-v1 fingerprinter with this analyzer and these options. */
    public TextFingerprinter(Analyzer analyzer, FingerprintOptions options) {
        this(FingerprintSpec.Version.V1, analyzer, options);
    }

    /** A simhash-v1 fingerprinter with a built-in feature analyzer. */
    public TextFingerprinter(FeatureAnalyzer analyzer, FingerprintOptions options) {
        this(analyzer.analyzer(), options);
    }

    private TextFingerprinter(FingerprintSpec.Version version, Analyzer analyzer, FingerprintOptions options) {
        this(version, analyzer, options, null);
    }

    private TextFingerprinter(FingerprintSpec.Version version, Analyzer analyzer, FingerprintOptions options,
                              Supplier<? extends ToDoubleFunction<String>> factors) {
        this.version = version;
        this.analyzer = analyzer;
        this.options = options;
        this.factors = factors;
    }

    /**
     * This fingerprinter with every feature's weight multiplied by a factor (simhash-v2 step 4; for v1 its weighting times
     * the factor): the supplier is asked once per document (it may throw, e.g. for a table that does not exist); the
     * function must return a finite number >= 0, and 0 leaves the feature out.
     */
    public TextFingerprinter withFactors(Supplier<? extends ToDoubleFunction<String>> factors) {
        return new TextFingerprinter(version, analyzer, options, factors);
    }

    /** Whether features are weighted by a factor function ({@link #withFactors}). */
    public boolean hasFactors() {
        return factors != null;
    }

    private ToDoubleFunction<String> factors() {
        return factors == null ? null : factors.get();
    }

    /** A simhash-v2 fingerprinter: no fingerprint for fewer than {@code minFeatures} distinct features. */
    public static TextFingerprinter v2(int minFeatures) {
        return new TextFingerprinter(FingerprintSpec.Version.V2, ScriptAwareTokenizer.STANDARD, FingerprintSpec.v2Options(minFeatures));
    }

    public FingerprintSpec.Version version() {
        return version;
    }

    /** Shingle size, weighting and minimum number of features (for v2: 1, binary and its min_features). */
    public FingerprintOptions options() {
        return options;
    }

    /** The fingerprint of the text, or empty when it has fewer distinct features than min_features. */
    public OptionalLong fingerprint(String text) {
        FeatureBag bag = ThreadBags.lend(options, adjacentPairs(), factors());
        try {
            addTokens(text, bag);
            return bag.fingerprint();
        } finally {
            bag.reset();
        }
    }

    /**
     * The fingerprint of the text, handing the hash of each of its tokens to {@code tokenHashes} on the way (simhash-v2: the
     * tokens a {@link MinHashSketch} reads, so a field computes both from one reading of the text).
     */
    public OptionalLong fingerprint(String text, FeatureBag.TokenHashes tokenHashes) {
        FeatureBag bag = ThreadBags.lend(options, adjacentPairs(), factors());
        try {
            bag.tokenHashes(tokenHashes);
            addTokens(text, bag);
            return bag.fingerprint();
        } finally {
            bag.reset();
        }
    }

    /** Fingerprint of several texts (e.g. the values of an array field) read as one document, in order. */
    public OptionalLong fingerprint(Iterable<String> texts) {
        FeatureBag bag = ThreadBags.lend(options, adjacentPairs(), factors());
        try {
            for (String text : texts) {
                addTokens(text, bag);
            }
            return bag.fingerprint();
        } finally {
            bag.reset();
        }
    }

    /**
     * Fingerprint of several texts read as one document, in order, handing the hash of each token to {@code tokenHashes}
     * on the way: what a {@code simhash} field computes from the values of an array.
     */
    public OptionalLong fingerprint(Iterable<String> texts, FeatureBag.TokenHashes tokenHashes) {
        FeatureBag bag = ThreadBags.lend(options, adjacentPairs(), factors());
        try {
            bag.tokenHashes(tokenHashes);
            for (String text : texts) {
                addTokens(text, bag);
            }
            return bag.fingerprint();
        } finally {
            bag.reset();
        }
    }

    /** An empty bag with this fingerprinter's features, to fill with {@link #addText} value by value. */
    public FeatureBag newBag() {
        return new FeatureBag(options, adjacentPairs(), factors());
    }

    /** Adds the features of one more text (e.g. the next value of an array) to a bag, as {@link #fingerprint(Iterable)} does. */
    public void addText(String text, FeatureBag bag) {
        addTokens(text, bag);
    }

    private boolean adjacentPairs() {
        return version == FingerprintSpec.Version.V2;
    }

    private void addTokens(String text, FeatureBag bag) {
        if (version != FingerprintSpec.Version.V2) {
            AnalyzerTokens.forEachTerm(analyzer, text, bag::addToken);
            return;
        }
        CharFolding.Buffer folded = FOLDED.get();
        // the text read once; an ASCII text (most English), or one that is ASCII once folded (e.g. full-width forms), is
        // read by the bag as bytes
        int length = CharFolding.read(text, folded);
        if (bag.addAsciiText(folded, length)) {
            return;
        }
        CharFolding.foldRead(text, length, folded);
        if (bag.addFoldedAsciiText(folded.chars(), folded.length())) {
            return;
        }
        // the same tokens as StandardTokenizer, read straight off the buffer, for text of the characters it knows
        if (!FastWordTokenizer.tokenize(folded.chars(), folded.length(), bag.charTokens)) {
            AnalyzerTokens.forEachTerm(analyzer, folded.toString(), bag::addToken);
        }
    }
}
