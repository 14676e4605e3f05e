package dev.simhash.core;

import org.apache.lucene.analysis.Analyzer;

import java.util.OptionalLong;

/** Fingerprints whole texts: analyzer tokens to features to a simhash-v1 fingerprint. Thread-safe. */
public final class TextFingerprinter {

    private static final String FIELD = "simhash";

    private final Analyzer analyzer;
    private final FingerprintOptions options;

    public TextFingerprinter(Analyzer analyzer, FingerprintOptions options) {
        this.analyzer = analyzer;
        this.options = options;
    }

    public TextFingerprinter(FeatureAnalyzer analyzer, FingerprintOptions options) {
        this(analyzer.analyzer(), options);
    }

    public FingerprintOptions options() {
        return options;
    }

    /** The fingerprint of the text, or empty when it has fewer distinct features than min_features. */
    public OptionalLong fingerprint(String text) {
        FeatureBag bag = FeatureBag.threadBag(options);
        try {
            addTokens(text, bag);
            return bag.fingerprint();
        } finally {
            bag.reset();
        }
    }

    /** Fingerprint of several texts (e.g. the values of an array field) read as one document, in order. */
    public OptionalLong fingerprint(Iterable<String> texts) {
        FeatureBag bag = FeatureBag.threadBag(options);
        try {
            for (String text : texts) {
                addTokens(text, bag);
            }
            return bag.fingerprint();
        } finally {
            bag.reset();
        }
    }

    /** An empty bag with this fingerprinter's options, to fill with {@link #addText} value by value. */
    public FeatureBag newBag() {
        return new FeatureBag(options);
    }

    /** Adds the features of one more text (e.g. the next value of an array) to a bag, as {@link #fingerprint(Iterable)} does. */
    public void addText(String text, FeatureBag bag) {
        addTokens(text, bag);
    }

    private void addTokens(String text, FeatureBag bag) {
        AnalyzerTokens.forEach(analyzer, text, bag::addToken);
    }
}
