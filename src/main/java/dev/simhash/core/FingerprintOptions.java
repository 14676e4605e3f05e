package dev.simhash.core;

import java.util.Objects;

/**
 * The feature settings of simhash-v1 shared by the token filter, the ingest processor and the query:
 * word shingle size, weighting and the minimum number of distinct features.
 */
public final class FingerprintOptions {

    public static final int DEFAULT_SHINGLE_SIZE = 1;
    public static final int MAX_SHINGLE_SIZE = 8;
    public static final int DEFAULT_MIN_FEATURES = 1;
    public static final FingerprintOptions DEFAULTS =
        new FingerprintOptions(DEFAULT_SHINGLE_SIZE, Weighting.DEFAULT, DEFAULT_MIN_FEATURES);

    private final int shingleSize;
    private final Weighting weighting;
    private final int minFeatures;

    /**
     * @throws IllegalArgumentException naming the option ([shingle_size], [weighting], [min_features]) that is invalid
     */
    public FingerprintOptions(int shingleSize, Weighting weighting, int minFeatures) {
        if (shingleSize < 1 || shingleSize > MAX_SHINGLE_SIZE) {
            throw new IllegalArgumentException(
                "[shingle_size] must be between 1 and " + MAX_SHINGLE_SIZE + ", got [" + shingleSize + "]");
        }
        if (weighting == null) {
            throw new IllegalArgumentException("[weighting] must not be null");
        }
        if (minFeatures < 1) {
            throw new IllegalArgumentException("[min_features] must be at least 1, got [" + minFeatures + "]");
        }
        this.shingleSize = shingleSize;
        this.weighting = weighting;
        this.minFeatures = minFeatures;
    }

    public int shingleSize() {
        return shingleSize;
    }

    public Weighting weighting() {
        return weighting;
    }

    public int minFeatures() {
        return minFeatures;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FingerprintOptions other
            && shingleSize == other.shingleSize
            && weighting == other.weighting
            && minFeatures == other.minFeatures;
    }

    @Override
    public int hashCode() {
        return Objects.hash(shingleSize, weighting, minFeatures);
    }

    @Override
    public String toString() {
        return "shingle_size=" + shingleSize + ", weighting=" + weighting.optionName() + ", min_features=" + minFeatures;
    }
}
