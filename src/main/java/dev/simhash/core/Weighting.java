package dev.simhash.core;

import java.util.Locale;

/** How a feature's weight is derived from its term frequency (tf) in the document. */
public enum Weighting {
    /** Weight = tf (the default). */
    TF {
        @Override
        public double weight(int tf) {
            return tf;
        }
    },
    /** Weight = 1 for every distinct feature, however often it occurs. */
    BINARY {
        @Override
        public double weight(int tf) {
            return 1;
        }
    },
    /**
     * Weight = 1 + ln(tf): damps features that repeat many times. simhash-v1 computes ln with the JVM's
     * {@code Math.log} (within 1 ulp of the exact value, not the same bits on every platform).
     */
    LOG_TF {
        @Override
        public double weight(int tf) {
            return 1 + Math.log(tf);
        }
    };

    /** The default weighting of simhash-v1. */
    public static final Weighting DEFAULT = TF;

    /** Term frequencies below this have their weights precomputed (a feature's tf is nearly always far below). */
    static final int TABLE_SIZE = 1024;
    /** weight(tf) per weighting (by ordinal) for tf < TABLE_SIZE, computed by weight itself: the very same doubles. */
    private static final double[][] TABLES = new double[values().length][];

    static {
        for (Weighting w : values()) {
            double[] t = new double[TABLE_SIZE];
            for (int tf = 1; tf < TABLE_SIZE; tf++) {
                t[tf] = w.weight(tf);
            }
            TABLES[w.ordinal()] = t;
        }
    }

    /** {@link #weight(int)} of a tf >= 1, from a table for the usual (small) tf: no logarithm per feature. */
    public final double weightOf(int tf) {
        return tf < TABLE_SIZE ? TABLES[ordinal()][tf] : weight(tf);
    }

    /** Weight of a feature that occurs {@code tf >= 1} times. */
    public abstract double weight(int tf);

    /** The option value users write, e.g. {@code log_tf}. */
    public String optionName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Parses an option value ({@code tf}, {@code binary}, {@code log_tf}).
     *
     * @throws IllegalArgumentException listing the accepted values
     */
    public static Weighting fromOption(String value) {
        for (Weighting w : values()) {
            if (w.optionName().equals(value)) {
                return w;
            }
        }
        throw new IllegalArgumentException("unknown weighting [" + value + "], expected one of [tf, binary, log_tf]");
    }
}
