package dev.simhash.request;

import dev.simhash.core.SimHash;

import org.elasticsearch.xcontent.XContentParser;

import java.io.IOException;
import java.util.Locale;

/**
 * Checks of every endpoint's parameters after their typed parsing, with errors that name the parameter in brackets: one
 * range message, one way to read a whole number.
 */
public final class Params {

    /** What {@code field} names, for the error of a request without it: the field type first, the processor's object second. */
    public static final String FIELD_HINT = "the [simhash] field to read fingerprints from, e.g. [body.simhash] (or the object the "
        + "simhash processor writes)";

    private Params() {}

    /** Checks that {@code value} lies in {@code min..max}. */
    public static int checkRange(String name, long value, int min, int max) {
        if (value < min || value > max) {
            throw outOfRange(name, min, max, Long.toString(value));
        }
        return (int) value;
    }

    /** A required, non-blank text parameter. */
    public static String required(String name, String value, String what) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("[" + name + "] is required: " + what);
        }
        return value;
    }

    /**
     * The value of a body field that is a whole number: read as Elasticsearch reads numbers (a JSON number or a string holding
     * one), except that a fraction is refused rather than silently truncated, since a truncated radius or page would
     * answer another question than the one asked. A number beyond 64 bits is read as the nearest long, which every range
     * refuses.
     */
    public static long wholeNumber(XContentParser parser, String name) throws IOException {
        double value;
        try {
            value = parser.doubleValue();
        } catch (IllegalArgumentException e) {
            throw notAWholeNumber(parser, name, e);
        }
        if (value != Math.rint(value) || Double.isInfinite(value)) {
            throw notAWholeNumber(parser, name, null);
        }
        if (Math.abs(value) >= 0x1p63) {
            return value > 0 ? Long.MAX_VALUE : Long.MIN_VALUE;
        }
        return parser.longValue();
    }

    /** A whole number in a body field, in {@code min..max}; the range error quotes the value as the request gave it. */
    public static int wholeNumber(XContentParser parser, String name, int min, int max) throws IOException {
        long value = wholeNumber(parser, name);
        if (value < min || value > max) {
            throw outOfRange(name, min, max, SimHash.abbreviate(parser.text()));
        }
        return (int) value;
    }

    private static IllegalArgumentException outOfRange(String name, int min, int max, String shown) {
        return new IllegalArgumentException(String.format(Locale.ROOT, "[%s] must be between %d and %d, got [%s]", name, min, max, shown));
    }

    private static IllegalArgumentException notAWholeNumber(XContentParser parser, String name, Exception cause) throws IOException {
        return new IllegalArgumentException("[" + name + "] must be an integer, got [" + SimHash.abbreviate(parser.text()) + "]", cause);
    }
}
