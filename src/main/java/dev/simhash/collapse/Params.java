package dev.simhash.collapse;

import dev.simhash.core.SimHash;

import java.util.Locale;

/** Validation of the fold and report parameters, with errors that name the parameter in brackets. */
final class Params {

    private Params() {}

    /** Parses an integer parameter given as text (a URL parameter), checking its range. */
    static int intParam(String name, String value, int defaultValue, int min, int max) {
        if (value == null) {
            return defaultValue;
        }
        long parsed;
        try {
            parsed = Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                String.format(Locale.ROOT, "[%s] must be an integer, got [%s]", name, SimHash.abbreviate(value)));
        }
        return checkRange(name, parsed, min, max);
    }

    /** Checks that {@code value} lies in {@code min..max}. */
    static int checkRange(String name, long value, int min, int max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "[%s] must be between %d and %d, got [%d]", name, min, max, value));
        }
        return (int) value;
    }

    /** A required, non-blank text parameter. */
    static String required(String name, String value, String what) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("[" + name + "] is required: " + what);
        }
        return value;
    }
}
