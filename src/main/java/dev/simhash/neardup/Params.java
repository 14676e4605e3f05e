package dev.simhash.neardup;

import dev.simhash.core.SimHash;

import org.elasticsearch.common.ParsingException;
import org.elasticsearch.xcontent.XContentParser;

import java.io.IOException;
import java.util.Locale;

/** Validation of the fold and report parameters, with errors that name the parameter in brackets. */
public final class Params {

    private Params() {}

    /** Parses an integer parameter given as text (a URL parameter), checking its range. */
    public static int intParam(String name, String value, int defaultValue, int min, int max) {
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

    /** A body value that must be a number (or a string holding one): a {@code min_similarity}, checked by {@link Verification}. */
    public static double number(XContentParser parser, String name) throws IOException {
        XContentParser.Token token = parser.currentToken();
        if (token == XContentParser.Token.VALUE_NUMBER) {
            return parser.doubleValue();
        }
        if (token == XContentParser.Token.VALUE_STRING) {
            try {
                return Double.parseDouble(parser.text().trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("[" + name + "] must be a number, got [" + SimHash.abbreviate(parser.text()) + "]");
            }
        }
        throw new IllegalArgumentException("[" + name + "] must be a number, got [" + token + "]");
    }

    /** A required, non-blank text parameter. */
    public static String required(String name, String value, String what) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("[" + name + "] is required: " + what);
        }
        return value;
    }

    /**
     * Moves to the start of a request body, which must be a JSON object: anything else is a {@link ParsingException} with
     * its location.
     */
    public static void startObject(XContentParser parser) throws IOException {
        XContentParser.Token token = parser.currentToken() == null ? parser.nextToken() : parser.currentToken();
        if (token != XContentParser.Token.START_OBJECT) {
            throw new ParsingException(parser.getTokenLocation(), "the request body must be a JSON object, got [" + token + "]");
        }
    }

    /** A body value that must be a JSON string. */
    public static String string(XContentParser parser, String name) throws IOException {
        if (parser.currentToken() != XContentParser.Token.VALUE_STRING) {
            throw new IllegalArgumentException("[" + name + "] must be a string, got [" + parser.currentToken() + "]");
        }
        return parser.text();
    }

    /**
     * A body value that must be an integer: a JSON integer or a string holding one (as Elasticsearch accepts numbers);
     * fractions, booleans, arrays and objects are refused (never truncated).
     */
    public static long integer(XContentParser parser, String name) throws IOException {
        XContentParser.Token token = parser.currentToken();
        if (token == XContentParser.Token.VALUE_NUMBER) {
            XContentParser.NumberType type = parser.numberType();
            if (type == XContentParser.NumberType.INT || type == XContentParser.NumberType.LONG) {
                return parser.longValue();
            }
            throw new IllegalArgumentException("[" + name + "] must be an integer, got [" + parser.text() + "]");
        }
        if (token == XContentParser.Token.VALUE_STRING) {
            try {
                return Long.parseLong(parser.text().trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("[" + name + "] must be an integer, got [" + SimHash.abbreviate(parser.text()) + "]");
            }
        }
        throw new IllegalArgumentException("[" + name + "] must be an integer, got [" + token + "]");
    }

    /** A body value that must be a boolean: a JSON boolean or the string {@code "true"} or {@code "false"}. */
    public static boolean bool(XContentParser parser, String name) throws IOException {
        XContentParser.Token token = parser.currentToken();
        if (token == XContentParser.Token.VALUE_BOOLEAN) {
            return parser.booleanValue();
        }
        if (token == XContentParser.Token.VALUE_STRING && ("true".equals(parser.text()) || "false".equals(parser.text()))) {
            return Boolean.parseBoolean(parser.text());
        }
        throw new IllegalArgumentException("[" + name + "] must be [true] or [false], got [" + (token == XContentParser.Token.VALUE_STRING
            ? SimHash.abbreviate(parser.text()) : token) + "]");
    }
}
