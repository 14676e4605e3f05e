package dev.simhash.core;

import java.util.function.ToDoubleFunction;

/**
 * A feature-weight table as the fingerprint sees it (the {@code weights} option of a spec): a finite factor >= 0 for every
 * feature (a factor of 0 leaves the feature out) and the version whose features it was computed for.
 */
public interface FeatureWeights extends ToDoubleFunction<String> {

    /** Longest table name, in characters. */
    int MAX_NAME_LENGTH = 255;

    /** The algorithm version whose features the table holds; a table is only used with that version. */
    FingerprintSpec.Version version();

    /**
     * What the table is, independent of its name (a digest of its weights), or null when it has none; a spec that records a
     * digest ({@link FingerprintSpec#withWeightsDigest}) uses only a table with that digest.
     */
    default String digest() {
        return null;
    }

    /** Looks tables up by name. */
    @FunctionalInterface
    interface Tables {
        /** The table of that name, or null when there is none. */
        FeatureWeights get(String name);

        /**
         * Whether every table there is is known: false while a node has yet to learn them (a restart before the cluster
         * state is recovered), when a table missing now may still come.
         */
        default boolean recovered() {
            return true;
        }
    }

    /**
     * Why a table name is not valid, or null when it is: lowercase letters, digits, {@code _}, {@code -} and {@code .},
     * not starting with {@code _}, {@code -} or {@code .}, at most {@link #MAX_NAME_LENGTH} characters (names appear in
     * URLs and in mappings and pipelines).
     */
    static String invalidNameReason(String name) {
        if (name == null || name.isEmpty()) {
            return "must not be empty";
        }
        if (name.length() > MAX_NAME_LENGTH) {
            return "must be at most " + MAX_NAME_LENGTH + " characters long";
        }
        char first = name.charAt(0);
        if (first == '_' || first == '-' || first == '.') {
            return "must not start with [_], [-] or [.]";
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.')) {
                return "must contain only lowercase letters, digits, [_], [-] and [.], got [" + SimHash.abbreviate(name) + "]";
            }
        }
        return null;
    }
}
