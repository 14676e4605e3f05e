package dev.simhash.core;

import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalLong;

/**
 * Steps 1 and 2 of simhash-v1: turns a document's token sequence into features (single tokens or
 * word shingles) with their term frequencies, then into a fingerprint. Every component fingerprints
 * text through this class, so they agree bit for bit. Not thread-safe; reusable after {@link #reset()}.
 */
public final class FeatureBag {

    /** Separator between the words of a shingle feature. */
    public static final String SHINGLE_SEPARATOR = " ";

    private final FingerprintOptions options;
    // insertion order = order of first occurrence, which fixes the summation order of non-integer weights
    private final Map<String, int[]> termFrequencies = new LinkedHashMap<>();
    private final ArrayDeque<String> window = new ArrayDeque<>();
    private final SimHashAccumulator accumulator = new SimHashAccumulator();
    private long tokens;

    public FeatureBag(FingerprintOptions options) {
        this.options = options;
    }

    /** Adds the next token of the document. */
    public void addToken(String token) {
        tokens++;
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
        termFrequencies.computeIfAbsent(feature, f -> new int[1])[0]++;
    }

    private String joinWindow() {
        StringBuilder sb = new StringBuilder();
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
        if (termFrequencies.isEmpty() && tokens > 0) {
            return 1;
        }
        return termFrequencies.size();
    }

    /**
     * The fingerprint of all tokens added, or empty when there are fewer distinct features than
     * {@code min_features} (in particular when there are no tokens at all).
     */
    public OptionalLong fingerprint() {
        if (termFrequencies.isEmpty() && tokens > 0) {
            // shorter than one shingle: the whole (short) document is the single feature
            count(joinWindow());
        }
        if (termFrequencies.size() < options.minFeatures() || termFrequencies.isEmpty()) {
            return OptionalLong.empty();
        }
        accumulator.reset();
        Weighting weighting = options.weighting();
        for (Map.Entry<String, int[]> e : termFrequencies.entrySet()) {
            accumulator.add(SimHash.featureHash(e.getKey()), weighting.weight(e.getValue()[0]));
        }
        return OptionalLong.of(accumulator.fingerprint());
    }

    /** Forgets all tokens so the bag can take the next document. */
    public void reset() {
        termFrequencies.clear();
        window.clear();
        tokens = 0;
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
