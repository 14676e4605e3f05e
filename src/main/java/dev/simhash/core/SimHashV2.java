package dev.simhash.core;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.ToDoubleFunction;

/**
 * The simhash-v2 fingerprint of text (its contract: docs/spec/simhash-v2.md): {@link CharFolding} (NFKC,
 * lowercase, traditional/variant Chinese to simplified), Unicode word tokens with one token per Han
 * character ({@link ScriptAwareTokenizer.Mode#HAN_CHARACTERS}), features = every token and every
 * pair of adjacent tokens, each distinct feature weight 1 however often it occurs (optionally times a per-feature weight such as an IDF),
 * then the XXH3-64 feature hash and sign accumulation of simhash-v1. Thread-safe; no state.
 */
public final class SimHashV2 {

    /** Name and version of this algorithm. */
    public static final String ALGORITHM = "simhash-v2";
    /** Recommended {@code max_distance} for long texts (paragraphs and longer), chosen on natural near-duplicates. */
    public static final int DEFAULT_MAX_DISTANCE = 6;
    /** Recommended {@code max_distance} for short texts (a sentence, a title, a short poem). */
    public static final int DEFAULT_MAX_DISTANCE_SHORT = 7;
    /** Separator between the two tokens of a bigram feature. */
    public static final String BIGRAM_SEPARATOR = " ";

    private static final ScriptAwareTokenizer TOKENIZER = new ScriptAwareTokenizer(ScriptAwareTokenizer.Mode.HAN_CHARACTERS);

    private SimHashV2() {}

    /** The tokens of a text after folding (step 1 and 2). */
    public static List<String> tokens(String text) {
        return TOKENIZER.tokens(CharFolding.fold(text));
    }

    /**
     * The features of one or more texts read as one token sequence, with their term frequencies, in
     * order of first occurrence: at each token position the token, then (from the second token on)
     * the previous token, a space and the token.
     */
    public static LinkedHashMap<String, Integer> features(Iterable<String> texts) {
        List<String> tokens = new ArrayList<>();
        for (String t : texts) {
            if (t != null) {
                TOKENIZER.tokens(CharFolding.fold(t), tokens);
            }
        }
        LinkedHashMap<String, Integer> f = new LinkedHashMap<>();
        for (int i = 0; i < tokens.size(); i++) {
            f.merge(tokens.get(i), 1, Integer::sum);
            if (i > 0) {
                f.merge(tokens.get(i - 1) + BIGRAM_SEPARATOR + tokens.get(i), 1, Integer::sum);
            }
        }
        return f;
    }

    /** The fingerprint of a text, or empty when it has fewer than {@code minFeatures} distinct features (or none). */
    public static OptionalLong fingerprint(String text, int minFeatures) {
        return TextFingerprinter.v2(minFeatures).fingerprint(text);
    }

    /** The fingerprint of several texts (e.g. the values of an array field) read as one token sequence. */
    public static OptionalLong fingerprint(Iterable<String> texts, int minFeatures) {
        return TextFingerprinter.v2(minFeatures).fingerprint(texts);
    }

    /**
     * The fingerprint with learned feature weights: each distinct feature's weight is {@code featureWeight} of the
     * feature (e.g. an IDF) instead of 1; a feature whose factor is 0 is left out.
     *
     * @param featureWeight null for none; must return a finite number >= 0
     * @throws IllegalArgumentException for a negative or non-finite factor, or minFeatures < 1
     */
    public static OptionalLong fingerprint(Iterable<String> texts, int minFeatures, ToDoubleFunction<String> featureWeight) {
        if (minFeatures < 1) {
            throw new IllegalArgumentException("[min_features] must be at least 1, got [" + minFeatures + "]");
        }
        LinkedHashMap<String, Integer> f = features(texts);
        Map<String, Double> weighted = new LinkedHashMap<>();
        for (Map.Entry<String, Integer> e : f.entrySet()) {
            double w = 1; // step 4: binary
            if (featureWeight != null) {
                double factor = featureWeight.applyAsDouble(e.getKey());
                if (!(factor >= 0) || Double.isInfinite(factor)) {
                    throw new IllegalArgumentException("weight of feature [" + SimHash.abbreviate(e.getKey()) + "] must be a finite number >= 0, got ["
                        + factor + "]");
                }
                if (factor == 0) {
                    continue;
                }
                w *= factor;
            }
            weighted.put(e.getKey(), w);
        }
        if (weighted.isEmpty() || weighted.size() < minFeatures) {
            return OptionalLong.empty();
        }
        return FeatureBag.fingerprintWeighted(weighted, minFeatures);
    }
}
