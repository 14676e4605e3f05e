package dev.simhash.it.support;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.apache.http.entity.ContentType;
import org.apache.http.nio.entity.NStringEntity;
import org.apache.http.util.EntityUtils;
import org.elasticsearch.client.Request;
import org.elasticsearch.client.Response;
import org.elasticsearch.client.ResponseException;
import org.elasticsearch.client.RestClient;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/** JSON over the Elasticsearch low-level REST client, returning 4xx/5xx answers instead of throwing. */
public final class Rest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** An HTTP answer: status, raw body and the body parsed as a JSON object (empty if it is not one). */
    public record Answer(int status, String body) {
        public Map<String, Object> json() {
            return parseObject(body);
        }

        /** Value at a dotted path ({@code hits.total.value}; list elements by index, {@code hits.hits.0._id}). */
        public <T> T at(String path) {
            return Rest.at(json(), path);
        }

        @Override
        public String toString() {
            return status + " " + body;
        }
    }

    private final RestClient client;

    public Rest(RestClient client) {
        this.client = client;
    }

    public RestClient client() {
        return client;
    }

    public Answer get(String path) {
        return call("GET", path, null);
    }

    public Answer put(String path, String json) {
        return call("PUT", path, json);
    }

    public Answer post(String path, String json) {
        return call("POST", path, json);
    }

    public Answer delete(String path) {
        return call("DELETE", path, null);
    }

    /** Sends NDJSON to {@code _bulk} (body lines must end with a newline). */
    public Answer bulk(String path, String ndjson) {
        Request r = new Request("POST", path);
        r.setEntity(new NStringEntity(ndjson, ContentType.create("application/x-ndjson", StandardCharsets.UTF_8)));
        return perform(r);
    }

    /** Any method and path with an optional JSON body (path may carry a query string). */
    public Answer call(String method, String path, String json) {
        Request r = new Request(method, path);
        if (json != null) {
            r.setEntity(new NStringEntity(json, ContentType.APPLICATION_JSON));
        }
        return perform(r);
    }

    /** Like {@link #call} but fails unless the status is 2xx. */
    public Answer ok(String method, String path, String json) {
        Answer a = call(method, path, json);
        if (a.status() / 100 != 2) {
            throw new AssertionError(method + " " + path + " answered " + a);
        }
        return a;
    }

    private Answer perform(Request r) {
        try {
            Response resp = client.performRequest(r);
            return answer(resp);
        } catch (ResponseException e) {
            return answer(e.getResponse());
        } catch (IOException e) {
            throw new UncheckedIOException(r.getMethod() + " " + r.getEndpoint() + " failed", e);
        }
    }

    private static Answer answer(Response resp) {
        try {
            String body = resp.getEntity() == null ? "" : EntityUtils.toString(resp.getEntity(), StandardCharsets.UTF_8);
            return new Answer(resp.getStatusLine().getStatusCode(), body);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A JSON object from alternating keys and values, in that order (e.g. a request body). */
    public static Map<String, Object> ordered(Object... kv) {
        if (kv.length % 2 != 0) {
            throw new IllegalArgumentException("keys and values must alternate, got " + kv.length + " items");
        }
        Map<String, Object> m = new java.util.LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }

    /** Value at a dotted path of parsed JSON ({@code hits.total.value}; list elements by index, {@code hits.hits.0._id}). */
    @SuppressWarnings("unchecked")
    public static <T> T at(Object json, String path) {
        Object cur = json;
        for (String part : path.split("\\.")) {
            if (cur instanceof Map<?, ?> m) {
                cur = m.get(part);
            } else if (cur instanceof List<?> l) {
                cur = l.get(Integer.parseInt(part));
            } else {
                return null;
            }
        }
        return (T) cur;
    }

    /** Serializes a value (maps, lists, strings, numbers) as JSON. */
    public static String toJson(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Map<String, Object> parseObject(String body) {
        if (body == null || body.isBlank() || body.charAt(0) != '{') {
            return Map.of();
        }
        try {
            return JSON.readValue(body, new TypeReference<Map<String, Object>>() {});
        } catch (IOException e) {
            throw new UncheckedIOException("not JSON: " + body, e);
        }
    }
}
