package dev.simhash.neardup;

import dev.simhash.core.SimHash;

import org.elasticsearch.rest.RestRequest;
import org.elasticsearch.xcontent.XContentParser;

import java.io.IOException;
import java.util.Locale;

/**
 * Checks of the fold and report parameters after their typed parsing, with errors that name the parameter in brackets.
 */
public final class Params {

    /** What {@code field} names, for the error of a request without it: the field type first, the processor's object second. */
    public static final String FIELD_HINT = "the [simhash] field to read fingerprints from, e.g. [body.simhash] (or the object the "
        + "simhash processor writes)";

    private Params() {}

    /** Checks that {@code value} lies in {@code min..max}. */
    public static int checkRange(String name, long value, int min, int max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "[%s] must be between %d and %d, got [%d]", name, min, max, value));
        }
        return (int) value;
    }

    /** The 400 of a request that gives both a radius and a similarity threshold. */
    public static IllegalArgumentException bothThresholds() {
        return new IllegalArgumentException("[min_similarity] and [max_distance] exclude each other: give [min_similarity] (a share of "
            + "shared shingles, verified with the similarity sketches) or [max_distance] (a radius in bits), not both");
    }

    /** A required, non-blank text parameter. */
    public static String required(String name, String value, String what) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("[" + name + "] is required: " + what);
        }
        return value;
    }

    /**
     * The value of a body field declared as a long: read as Elasticsearch reads numbers (a JSON number or a string holding
     * one), except that a fraction is refused rather than silently truncated, since a truncated radius or page would
     * answer another question than the one asked.
     */
    public static long wholeNumber(XContentParser parser, String name) throws IOException {
        double value;
        try {
            value = parser.doubleValue();
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("[" + name + "] must be an integer, got [" + SimHash.abbreviate(parser.text()) + "]", e);
        }
        long whole = parser.longValue();
        if (whole != value) {
            throw new IllegalArgumentException("[" + name + "] must be an integer, got [" + SimHash.abbreviate(parser.text()) + "]");
        }
        return whole;
    }
}
