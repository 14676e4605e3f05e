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
    /** Weight = 1 + ln(tf): damps features that repeat many times. */
    LOG_TF {
        @Override
        public double weight(int tf) {
            return 1 + Math.log(tf);
        }
    };

    /** The default weighting of simhash-v1. */
    public static final Weighting DEFAULT = TF;

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
