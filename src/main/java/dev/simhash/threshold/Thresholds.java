package dev.simhash.threshold;

import dev.simhash.core.MinHashSketch;
import dev.simhash.core.SimHash;
import dev.simhash.request.Params;
import dev.simhash.request.RestParams;

import org.elasticsearch.rest.RestRequest;
import org.elasticsearch.xcontent.XContentParser;

import java.io.IOException;
import java.util.Locale;
import java.util.function.IntSupplier;

/**
 * How near is near, as users say it: {@code min_similarity} (a share of shingles, verified with the similarity sketches),
 * {@code max_distance} (a radius in bits) and {@code k} (the nearest documents). The query, fold, report, calibrate and
 * the ingest processor read and check them here, so each has one way to be parsed (a JSON number, or a string holding
 * one, as Elasticsearch reads numbers; never a fraction where a whole number is meant) and each error one message, naming
 * the parameter in brackets. What a threshold then does is {@link Verification}; which one applies when none is given,
 * {@link #queryThreshold} and {@link ThresholdChoice}.
 */
public final class Thresholds {

    public static final String MIN_SIMILARITY = "min_similarity";
    public static final String MAX_DISTANCE = "max_distance";
    public static final String K = "k";

    /** The threshold of a request that gives none, where the field stores similarity sketches. */
    public static final double DEFAULT_MIN_SIMILARITY = MinHashSketch.DEFAULT_MIN_SIMILARITY;

    /** Why the object the simhash processor writes stores no sketch, as the errors of {@code min_similarity} say it. */
    public static final String PROCESSOR_OBJECT_HAS_NO_SKETCH = "it is the object the simhash processor writes, which holds fingerprints only";

    private Thresholds() {}

    /** Checks a {@code min_similarity}: in (0, 1], else a 400 naming it. */
    public static double minSimilarity(double value) {
        if (!(value > 0 && value <= 1)) {
            throw new IllegalArgumentException(String.format(Locale.ROOT,
                "[%s] must be greater than 0 and at most 1, got [%s] (the share of shingles two texts have in common)", MIN_SIMILARITY,
                value));
        }
        return value;
    }

    /** A {@code min_similarity} in a request body: a number, or a string holding one. */
    public static double minSimilarity(XContentParser parser) throws IOException {
        double value;
        try {
            value = parser.doubleValue();
        } catch (IllegalArgumentException e) {
            throw notANumber(parser.text(), e);
        }
        return minSimilarity(value);
    }

    /** A {@code min_similarity} in a processor's configuration: a number, or a string holding one; null when not given. */
    public static Double minSimilarity(Object raw) {
        if (raw == null) {
            return null;
        }
        if (raw instanceof Number n) {
            return minSimilarity(n.doubleValue());
        }
        try {
            return minSimilarity(Double.parseDouble(raw.toString()));
        } catch (NumberFormatException e) {
            throw notANumber(raw.toString(), e);
        }
    }

    private static IllegalArgumentException notANumber(String given, Exception cause) {
        return new IllegalArgumentException("[" + MIN_SIMILARITY + "] must be a number, got [" + SimHash.abbreviate(given) + "]", cause);
    }

    /** A {@code min_similarity} URL parameter, or null when the request has none. */
    public static Double minSimilarity(RestRequest request) {
        return request.hasParam(MIN_SIMILARITY) ? minSimilarity(RestParams.number(request, MIN_SIMILARITY, Double.NaN)) : null;
    }

    /** Checks a {@code max_distance}: from 0 to {@code max} bits. */
    public static int maxDistance(long value, int max) {
        return Params.checkRange(MAX_DISTANCE, value, 0, max);
    }

    /** A {@code max_distance} in a request body, from 0 to {@code max} bits. */
    public static int maxDistance(XContentParser parser, int max) throws IOException {
        return Params.wholeNumber(parser, MAX_DISTANCE, 0, max);
    }

    /** A {@code max_distance} URL parameter, or {@code defaultValue} when the request has none. */
    public static int maxDistance(RestRequest request, int defaultValue, int max) {
        return maxDistance(RestParams.integer(request, MAX_DISTANCE, (long) defaultValue), max);
    }

    /** Checks a {@code k}: from 1 to {@code max} documents. */
    public static int k(long value, int max) {
        return Params.checkRange(K, value, 1, max);
    }

    /** A {@code k} in a request body, from 1 to {@code max} documents. */
    public static int k(XContentParser parser, int max) throws IOException {
        return Params.wholeNumber(parser, K, 1, max);
    }

    /** The 400 of a request that gives both a radius and a similarity threshold. */
    public static IllegalArgumentException bothGiven() {
        return new IllegalArgumentException("[" + MIN_SIMILARITY + "] and [" + MAX_DISTANCE + "] exclude each other: give ["
            + MIN_SIMILARITY + "] (a share of shared shingles, verified with the similarity sketches) or [" + MAX_DISTANCE
            + "] (a radius in bits), not both");
    }

    /**
     * The 400 of {@code min_similarity} (given, or the default a request asked for) on a field without similarity sketches.
     *
     * @param field the fingerprint field
     * @param where where it stores none, e.g. {@code "in indices [a, b]"}, or null for the index the request runs on
     * @param why   why it stores none, e.g. {@code "its [sketch] is [none]"}
     */
    public static IllegalArgumentException noSketches(String field, String where, String why) {
        return new IllegalArgumentException("[" + MIN_SIMILARITY + "] needs similarity sketches, but [" + field + "] stores none"
            + (where == null ? "" : " " + where) + ": " + why + "; use [" + MAX_DISTANCE + "], or map a [simhash] field with [sketch] = ["
            + MinHashSketch.ALGORITHM + "] (the default of new simhash-v2 text fields)");
    }

    /** The 400 of {@code min_similarity} with a bare {@code hash}, which has no sketch to compare. */
    public static IllegalArgumentException bareHash() {
        return new IllegalArgumentException("[" + MIN_SIMILARITY + "] needs the query's similarity sketch, and a bare [hash] has no "
            + "sketch: query with [text] or [like], or give the [sketch] with the [hash]");
    }

    /** Refuses a request that gives both {@code min_similarity} and {@code max_distance}. */
    public static void checkNotBoth(Object minSimilarity, Object maxDistance) {
        if (minSimilarity != null && maxDistance != null) {
            throw bothGiven();
        }
    }

    /**
     * The radius a report groups within: the candidate radius of its {@code verification} (null: none); else the
     * {@code max_distance} given; else the field's default, asked for only then (indices of mixed fingerprint versions have
     * none, and an explicit radius must still work there).
     */
    public static int radius(Verification verification, boolean maxDistanceGiven, int maxDistance, IntSupplier fieldDefault) {
        if (verification != null) {
            return verification.radius();
        }
        return maxDistanceGiven ? maxDistance : fieldDefault.getAsInt();
    }

    /**
     * The similarity threshold of a query on one field: the {@code min_similarity} given; else, where the field stores
     * sketches and the query has one to compare (its {@code text}, or the {@code sketch} of a rewritten {@code like}) and
     * gives neither {@code max_distance} nor {@code k}, {@link #DEFAULT_MIN_SIMILARITY}; else null (the radius alone: a
     * bare {@code hash} keeps the fingerprint version's radius).
     */
    public static Double queryThreshold(Double given, boolean neitherRadiusNorK, boolean querySketch, boolean fieldSketches) {
        if (given != null) {
            return given;
        }
        return neitherRadiusNorK && querySketch && fieldSketches ? DEFAULT_MIN_SIMILARITY : null;
    }
}
