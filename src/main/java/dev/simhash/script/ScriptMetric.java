package dev.simhash.script;

import dev.simhash.core.SimHash;

import java.util.Locale;

/** The values a simhash script can compute from a Hamming distance; the script {@code source} names one. */
enum ScriptMetric {

    /** The Hamming distance itself, 0..64. */
    HAMMING("hamming") {
        @Override
        double value(int distance) {
            return distance;
        }

        @Override
        Object fieldValue(int distance) {
            return distance; // an integer in script_fields, not 12.0
        }
    },

    /** {@code (64 - distance) / 64}, in [0, 1]; exact in float and double since it is a multiple of 1/64. */
    SIMILARITY("similarity") {
        @Override
        double value(int distance) {
            return (SimHash.BITS - distance) / (double) SimHash.BITS;
        }

        @Override
        Object fieldValue(int distance) {
            return value(distance);
        }
    };

    private final String source;

    ScriptMetric(String source) {
        this.source = source;
    }

    /** The script source that selects this metric. */
    String source() {
        return source;
    }

    /** The script's result for a document at the given distance. */
    abstract double value(int distance);

    /** The value returned to {@code script_fields}. */
    abstract Object fieldValue(int distance);

    /**
     * The metric named by a script source.
     *
     * @throws IllegalArgumentException listing the known sources
     */
    static ScriptMetric fromSource(String source) {
        for (ScriptMetric m : values()) {
            if (m.source.equals(source)) {
                return m;
            }
        }
        throw new IllegalArgumentException(String.format(Locale.ROOT, "[source] unknown simhash script [%s], expected one of [%s, %s]",
            source == null ? "null" : SimHash.describe(source), HAMMING.source, SIMILARITY.source));
    }
}
