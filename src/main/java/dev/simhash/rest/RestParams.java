package dev.simhash.rest;

import dev.simhash.core.SimHash;

import org.elasticsearch.rest.RestRequest;

/**
 * URL parameters read with {@link RestRequest}'s own {@code paramAs*} parsers, whose errors are restated in the plugin's one
 * style: a 400 naming the parameter first, e.g. {@code [sample_size] must be an integer, got [many]}.
 */
public final class RestParams {

    private RestParams() {}

    /** A boolean parameter: absent is {@code defaultValue}, empty is true (as everywhere in Elasticsearch). */
    public static boolean flag(RestRequest request, String name, boolean defaultValue) {
        try {
            return request.paramAsBoolean(name, defaultValue);
        } catch (IllegalArgumentException e) {
            throw invalid(request, name, "must be [true] or [false]", e);
        }
    }

    /** An int parameter. */
    public static int integer(RestRequest request, String name, int defaultValue) {
        try {
            return request.paramAsInt(name, defaultValue);
        } catch (IllegalArgumentException e) {
            throw invalid(request, name, "must be an integer", e);
        }
    }

    /** A long parameter. */
    public static long integer(RestRequest request, String name, long defaultValue) {
        try {
            return request.paramAsLong(name, defaultValue);
        } catch (IllegalArgumentException e) {
            throw invalid(request, name, "must be an integer", e);
        }
    }

    /** A number parameter. */
    public static double number(RestRequest request, String name, double defaultValue) {
        try {
            return request.paramAsDouble(name, defaultValue);
        } catch (IllegalArgumentException e) {
            throw invalid(request, name, "must be a number", e);
        }
    }

    private static IllegalArgumentException invalid(RestRequest request, String name, String what, IllegalArgumentException cause) {
        return new IllegalArgumentException("[" + name + "] " + what + ", got [" + SimHash.abbreviate(request.param(name)) + "]", cause);
    }
}
