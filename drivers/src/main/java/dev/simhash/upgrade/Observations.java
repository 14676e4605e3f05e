package dev.simhash.upgrade;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import dev.simhash.it.support.Rest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

import static dev.simhash.it.support.Rest.toJson;
import static dev.simhash.upgrade.UpgradeData.FIELD_INDEX;
import static dev.simhash.upgrade.UpgradeData.PIPE_INDEX;

/**
 * What users see of the loaded data through one node, each answer reduced to what must not change across an upgrade: the
 * {@code simhash} query by hash, text, like and k on every kind of field, the {@code simhash} script, folds and background
 * reports. Two observations of the same data must be equal whatever the nodes' versions.
 */
final class Observations {

    private static final ObjectMapper CANONICAL = new ObjectMapper().configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true);
    private static final int PROBES = 5;
    private static final int PROBE_STEP = UpgradeData.DOCS / PROBES;
    private static final int K = 10;
    private static final int ALL_HITS = 5000;
    private static final double SCRIPT_MIN_SCORE = 0.85;
    private static final long REPORT_TIMEOUT_NANOS = 180_000_000_000L;

    private Observations() {}

    /**
     * Every observation through {@code rest} (one node), by name; {@code stored} gives the documents' stored fingerprints
     * (the queries by hash use them).
     */
    static Map<String, String> observe(Rest rest, UpgradeData data, StoredCopies.Expected stored) {
        Map<String, String> out = new LinkedHashMap<>();
        for (int p = 0; p < PROBES; p++) {
            String id = UpgradeData.id(p * PROBE_STEP + p);
            StoredCopies.Values v = stored.field().get(id);
            String pipeHash = stored.pipe().get(id);
            out.put("hash v2 " + id, hits(search(rest, FIELD_INDEX, Map.of("simhash", Map.of("field", "body.simhash", "hash", v.v2(),
                "max_distance", 6)))));
            out.put("hash v1 " + id, hits(search(rest, FIELD_INDEX, Map.of("simhash", Map.of("field", "body.simhash_v1", "hash", v.v1(),
                "max_distance", 3)))));
            out.put("hash fingerprint-input " + id, hits(search(rest, FIELD_INDEX, Map.of("simhash", Map.of("field", "fp", "hash", v.fp(),
                "max_distance", 3)))));
            out.put("hash object " + id, hits(search(rest, PIPE_INDEX, Map.of("simhash", Map.of("field", "simhash", "hash", pipeHash,
                "max_distance", 3)))));
            // each shard answers its k nearest: a size of k keeps the k nearest of the index
            out.put("k v2 " + id, nearest(search(rest, FIELD_INDEX, K, Map.of("simhash", Map.of("field", "body.simhash", "hash", v.v2(),
                "k", K)))));
            out.put("like v2 " + id, hits(search(rest, FIELD_INDEX, Map.of("simhash", Map.of("field", "body.simhash", "like", Map.of(
                "index", FIELD_INDEX, "id", id))))));
            out.put("like object " + id, hits(search(rest, PIPE_INDEX, Map.of("simhash", Map.of("field", "simhash", "like", Map.of("index",
                PIPE_INDEX, "id", id))))));
            out.put("script similarity " + id, hits(search(rest, FIELD_INDEX, Map.of("script_score", Map.of("query", Map.of("exists", Map
                .of("field", "body.simhash")), "script", Map.of("lang", "simhash", "source", "similarity", "params", Map.of("field",
                    "body.simhash", "hash", v.v2())), "min_score", SCRIPT_MIN_SCORE)))));
            String text = data.freshText(p);
            out.put("text v2 " + p, hits(search(rest, FIELD_INDEX, Map.of("simhash", Map.of("field", "body.simhash", "text", text)))));
            out.put("text v1 " + p, hits(search(rest, FIELD_INDEX, Map.of("simhash", Map.of("field", "body.simhash_v1", "text", text)))));
            out.put("text object " + p, hits(search(rest, PIPE_INDEX, Map.of("simhash", Map.of("field", "simhash", "text", text)))));
        }
        out.put("fold v2", fold(rest, FIELD_INDEX, "body.simhash", ""));
        out.put("fold object", fold(rest, PIPE_INDEX, "simhash", "&max_distance=3"));
        out.put("report v2 (background)", report(rest, FIELD_INDEX, "body.simhash"));
        out.put("report object (background)", report(rest, PIPE_INDEX, "simhash"));
        return out;
    }

    private static Rest.Answer search(Rest rest, String index, Map<String, Object> query) {
        return search(rest, index, ALL_HITS, query);
    }

    private static Rest.Answer search(Rest rest, String index, int size, Map<String, Object> query) {
        Rest.Answer a = rest.ok("POST", "/" + index + "/_search", toJson(Map.of("size", size, "_source", false, "query", query)));
        checkShards(a);
        return a;
    }

    private static void checkShards(Rest.Answer a) {
        Number failed = a.at("_shards.failed");
        if (failed == null || failed.intValue() != 0) {
            throw new AssertionError("shard failures: " + UpgradeData.abbreviate(a.body()));
        }
    }

    /** Hits as {@code id score}, ordered by id: the order of equal scores is not the plugin's to keep. */
    private static String hits(Rest.Answer a) {
        List<Map<String, Object>> hits = a.at("hits.hits");
        TreeSet<String> out = new TreeSet<>();
        for (Map<String, Object> h : hits) {
            out.add(h.get("_id") + " " + h.get("_score"));
        }
        return hits.size() + " hits: " + String.join(", ", out);
    }

    /** The k nearest: their scores, and the ids above the k-th score (ties at the k-th may be any of the tied documents). */
    private static String nearest(Rest.Answer a) {
        List<Map<String, Object>> hits = a.at("hits.hits");
        List<Double> scores = new ArrayList<>();
        for (Map<String, Object> h : hits) {
            scores.add(((Number) h.get("_score")).doubleValue());
        }
        scores.sort((x, y) -> Double.compare(y, x));
        double last = scores.isEmpty() ? 0 : scores.get(scores.size() - 1);
        TreeSet<String> above = new TreeSet<>();
        for (Map<String, Object> h : hits) {
            if (((Number) h.get("_score")).doubleValue() > last) {
                above.add((String) h.get("_id"));
            }
        }
        return "scores " + scores + ", above the last: " + above;
    }

    /** A fold of the first 500 documents by {@code n} (a sort: the order must not depend on scores). */
    private static String fold(Rest rest, String index, String field, String extra) {
        Rest.Answer a = rest.ok("POST", "/" + index + "/_simhash/fold?field=" + field + "&window=500&members=100" + extra, toJson(Map.of(
            "size", 500, "_source", false, "query", Map.of("range", Map.of("n", Map.of("lt", 500))), "sort", List.of(Map.of("n", "asc")))));
        checkShards(a);
        List<Map<String, Object>> hits = a.at("hits.hits");
        List<Object> kept = new ArrayList<>();
        for (Map<String, Object> h : hits) {
            kept.add(Map.of("_id", h.get("_id"), "_simhash", h.get("_simhash")));
        }
        return canonical(Map.of("hits", kept, "simhash_fold", withoutTimings(a.at("simhash_fold"))));
    }

    /** A background report started through this node and read through it until it completed: its response. */
    private static String report(Rest rest, String index, String field) {
        Rest.Answer started = rest.ok("POST", "/" + index + "/_simhash/duplicates?wait_for_completion=false", toJson(Map.of("field", field,
            "size", 1000, "max_members", 100)));
        String id = started.at("id");
        long deadline = System.nanoTime() + REPORT_TIMEOUT_NANOS;
        while (System.nanoTime() < deadline) {
            Rest.Answer a = rest.ok("GET", "/_simhash/duplicates/" + id, null);
            String state = a.at("state");
            if ("completed".equals(state)) {
                rest.call("DELETE", "/_simhash/duplicates/" + id, null);
                // compared whole: of identical documents a report names the same representative on every run
                return canonical(withoutTimings(a.at("response")));
            }
            if (!"running".equals(state)) {
                throw new AssertionError("report " + id + " ended " + state + ": " + UpgradeData.abbreviate(a.body()));
            }
            sleep(500);
        }
        throw new AssertionError("report " + id + " did not complete within " + REPORT_TIMEOUT_NANOS / 1_000_000_000L + " s");
    }

    /** The value without the keys that measure time or the report's own memory use (took, *_ms, *_millis, peak_memory_bytes), at every depth. */
    @SuppressWarnings("unchecked")
    private static Object withoutTimings(Object value) {
        if (value instanceof Map<?, ?> m) {
            Map<String, Object> out = new TreeMap<>();
            ((Map<String, Object>) m).forEach((k, v) -> {
                if (!k.contains("took") && !k.endsWith("_ms") && !k.endsWith("millis") && !k.endsWith("nanos") && !k.contains("time")
                    && !k.startsWith("peak_memory")) {
                    out.put(k, withoutTimings(v));
                }
            });
            return out;
        }
        if (value instanceof List<?> l) {
            return l.stream().map(Observations::withoutTimings).toList();
        }
        return value;
    }

    static String canonical(Object value) {
        try {
            return CANONICAL.writeValueAsString(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
