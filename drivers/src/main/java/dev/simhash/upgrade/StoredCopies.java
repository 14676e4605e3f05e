package dev.simhash.upgrade;

import dev.simhash.it.support.Rest;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import static dev.simhash.it.support.Rest.toJson;
import static dev.simhash.upgrade.UpgradeData.FIELD_INDEX;
import static dev.simhash.upgrade.UpgradeData.PIPE_INDEX;

/**
 * The stored fingerprints and sketches of every document, read from every shard copy on its own (preference
 * {@code _shards:N|_only_nodes:<node>}), so that a copy recovered onto an upgraded node is compared as well as its primary.
 */
final class StoredCopies {

    /** What one document of the field index stores: the v2 and v1 fingerprints, the ready-made one (hex) and the v2 sketch. */
    record Values(String v2, String v1, String fp, String sketch) {}

    /** Every document's stored values: the field index's, and the object form's fingerprint (hex) in the pipeline index. */
    record Expected(Map<String, Values> field, Map<String, String> pipe) {}

    /** One read of all copies: what they hold (when they all agree), how many copies and documents, and what differed. */
    record Read(Expected stored, int copies, long docsRead, List<String> differences) {}

    private StoredCopies() {}

    /** Reads every started copy of every shard of both indices through {@code rest}. */
    static Read readAll(Rest rest) {
        List<Map<String, Object>> shards = new Rest.Answer(200, "{\"s\":" + rest.ok("GET", "/_cat/shards/" + FIELD_INDEX + ","
            + PIPE_INDEX + "?format=json&h=index,shard,prirep,state,node", null).body() + "}").at("s");
        List<String> differences = new ArrayList<>();
        Map<String, Values> field = new TreeMap<>();
        Map<String, String> pipe = new TreeMap<>();
        // index/shard -> the ids of its first copy read, which every other copy must hold too
        Map<String, Set<String>> idsByShard = new HashMap<>();
        int copies = 0;
        long docsRead = 0;
        for (Map<String, Object> s : shards) {
            if (!"STARTED".equals(s.get("state"))) {
                continue;
            }
            String index = (String) s.get("index");
            String copy = index + "[" + s.get("shard") + "][" + s.get("prirep") + "] on " + s.get("node");
            Map<String, Object> values = readCopy(rest, index, "_shards:" + s.get("shard") + "|_only_nodes:" + s.get("node"));
            copies++;
            docsRead += values.size();
            Set<String> before = idsByShard.putIfAbsent(index + "/" + s.get("shard"), new TreeSet<>(values.keySet()));
            if (before != null && !before.equals(values.keySet())) {
                differences.add(copy + " holds " + values.size() + " documents, another copy " + before.size());
            }
            for (Map.Entry<String, Object> e : values.entrySet()) {
                @SuppressWarnings("unchecked")
                Map<String, Object> into = index.equals(FIELD_INDEX) ? (Map<String, Object>) (Map<String, ?>) field
                    : (Map<String, Object>) (Map<String, ?>) pipe;
                Object earlier = into.putIfAbsent(e.getKey(), e.getValue());
                if (earlier != null && !earlier.equals(e.getValue())) {
                    differences.add(copy + " stores " + e.getKey() + " as " + e.getValue() + ", another copy as " + earlier);
                }
            }
        }
        return new Read(new Expected(field, pipe), copies, docsRead, differences);
    }

    /** The documents of one shard copy: id to {@link Values} (field index) or the object's fingerprint in hex (pipeline index). */
    private static Map<String, Object> readCopy(Rest rest, String index, String preference) {
        Map<String, Object> out = new LinkedHashMap<>();
        if (index.equals(PIPE_INDEX)) {
            for (Map<String, Object> h : hitsOfCopy(rest, index, preference, "docvalue_fields", List.of("simhash.hash"))) {
                Object hash = first(fields(h).get("simhash.hash"));
                out.put((String) h.get("_id"), hash == null ? null : UpgradeData.hex(Long.parseLong(hash.toString())));
            }
            return out;
        }
        // two reads: docvalue_fields and fields would both answer under the name body.simhash
        Map<String, String> sketches = new HashMap<>();
        for (Map<String, Object> h : hitsOfCopy(rest, index, preference, "fields", List.of(Map.of("field", "body.simhash", "format",
            "minhash-v1")))) {
            sketches.put((String) h.get("_id"), first(fields(h).get("body.simhash")));
        }
        for (Map<String, Object> h : hitsOfCopy(rest, index, preference, "docvalue_fields", List.of("body.simhash", "body.simhash_v1",
            "fp"))) {
            Map<String, List<Object>> f = fields(h);
            String id = (String) h.get("_id");
            out.put(id, new Values(first(f.get("body.simhash")), first(f.get("body.simhash_v1")), first(f.get("fp")), sketches.get(id)));
        }
        if (!sketches.keySet().equals(out.keySet())) {
            throw new AssertionError("two reads of " + index + " with preference " + preference + " found different documents");
        }
        return out;
    }

    private static List<Map<String, Object>> hitsOfCopy(Rest rest, String index, String preference, String option, List<Object> fields) {
        Map<String, Object> body = Map.of("size", 5000, "sort", List.of("_doc"), "_source", false, option, fields);
        Rest.Answer a = rest.ok("POST", "/" + index + "/_search?preference=" + URLEncoder.encode(preference, StandardCharsets.UTF_8),
            toJson(body));
        if (((Number) a.at("_shards.total")).intValue() != 1 || ((Number) a.at("_shards.successful")).intValue() != 1) {
            throw new AssertionError("reading " + index + " with preference " + preference + " did not read exactly one copy: "
                + UpgradeData.abbreviate(a.body()));
        }
        return a.at("hits.hits");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, List<Object>> fields(Map<String, Object> hit) {
        return (Map<String, List<Object>>) hit.getOrDefault("fields", Map.of());
    }

    private static String first(List<Object> values) {
        return values == null || values.isEmpty() ? null : String.valueOf(values.get(0));
    }

    /**
     * Compares a read with what must be stored: every document expected, each with the expected values, and nothing else;
     * returns the differences.
     */
    static List<String> compare(Expected expected, Expected actual) {
        List<String> out = new ArrayList<>();
        compareMap(FIELD_INDEX, expected.field(), actual.field(), out);
        compareMap(PIPE_INDEX, expected.pipe(), actual.pipe(), out);
        return out;
    }

    private static <V> void compareMap(String index, Map<String, V> expected, Map<String, V> actual, List<String> out) {
        for (Map.Entry<String, V> e : expected.entrySet()) {
            V a = actual.get(e.getKey());
            if (!actual.containsKey(e.getKey())) {
                out.add(index + " " + e.getKey() + " missing");
            } else if (!Objects.equals(e.getValue(), a)) {
                out.add(index + " " + e.getKey() + " stores " + a + ", expected " + e.getValue());
            }
        }
        for (String id : actual.keySet()) {
            if (!expected.containsKey(id)) {
                out.add(index + " " + id + " not expected");
            }
        }
    }
}
