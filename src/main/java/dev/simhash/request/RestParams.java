package dev.simhash.request;

import dev.simhash.core.SimHash;

import org.elasticsearch.rest.RestRequest;

import java.util.function.Supplier;

/**
 * URL parameters read with {@link RestRequest}'s own {@code paramAs*} parsers, whose errors are restated in the plugin's one
 * style: a 400 naming the parameter first, e.g. {@code [sample_size] must be an integer, got [many]}.
 */
public final class RestParams {

    private RestParams() {}

    /** A boolean parameter: absent is {@code defaultValue}, empty is true (as everywhere in Elasticsearch). */
    public static boolean flag(RestRequest request, String name, boolean defaultValue) {
        return read(request, name, "must be [true] or [false]", () -> request.paramAsBoolean(name, defaultValue));
    }

    /** An int parameter. */
    public static int integer(RestRequest request, String name, int defaultValue) {
        return read(request, name, "must be an integer", () -> request.paramAsInt(name, defaultValue));
    }

    /** A long parameter. */
    public static long integer(RestRequest request, String name, long defaultValue) {
        return read(request, name, "must be an integer", () -> request.paramAsLong(name, defaultValue));
    }

    /** A number parameter. */
    public static double number(RestRequest request, String name, double defaultValue) {
        return read(request, name, "must be a number", () -> request.paramAsDouble(name, defaultValue));
    }

    private static <T> T read(RestRequest request, String name, String what, Supplier<T> parse) {
        try {
            return parse.get();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("[" + name + "] " + what + ", got [" + SimHash.abbreviate(request.param(name)) + "]", e);
        }
    }
}
