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
        FeatureBag bag = new FeatureBag(options);
        addTokens(text, bag);
        return bag.fingerprint();
    }

    /** Fingerprint of several texts (e.g. the values of an array field) read as one document, in order. */
    public OptionalLong fingerprint(Iterable<String> texts) {
        FeatureBag bag = new FeatureBag(options);
        for (String text : texts) {
            addTokens(text, bag);
        }
        return bag.fingerprint();
    }

    private void addTokens(String text, FeatureBag bag) {
        AnalyzerTokens.forEach(analyzer, text, bag::addToken);
    }
}
