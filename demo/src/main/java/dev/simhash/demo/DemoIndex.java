package dev.simhash.demo;

import dev.simhash.core.SimHash;
import dev.simhash.it.support.Rest;
import dev.simhash.it.support.SampleCorpus;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static dev.simhash.it.support.Rest.toJson;

/**
 * The demo's index on a live node: a text field with a {@code simhash} multi-field (the one-line mapping,
 * simhash-v2 by default), bulk loading, and the near-duplicate queries.
 */
public final class DemoIndex {

    /**
     * The radius the demo's {@code like} and {@code text} queries use. The demo's planted copies are short texts (one
     * paragraph) with several words edited, most of them "grey" pairs by the benchmark's truth (Jaccard of word 5-shingles
     * 0.46-0.93): simhash-v2 puts them 0-14 bits apart, unrelated documents at least 19, so 16 separates them here while
     * v2's default radius (6) finds the closest copies only (the demo prints both). {@code DemoCorpusIT} fails when a change
     * to the corpus or the fingerprint breaks that.
     */
    public static final int MAX_DISTANCE = 16;
    /** The {@code simhash} multi-field under the text, and the query's {@code field}. */
    public static final String FINGERPRINT = "body.simhash";
    private static final int MAX_HITS = 100;

    /** A search hit: document id, Hamming distance to the query, and the document's text. */
    public record Hit(String id, int distance, String body) {}

    private final Rest rest;
    private final String index;

    public DemoIndex(Rest rest, String index) {
        this.rest = rest;
        this.index = index;
    }

    public String name() {
        return index;
    }

    /** The mapping of the text: a {@code simhash} multi-field with the field type's defaults (simhash-v2). */
    public static Map<String, Object> bodyMapping() {
        return Map.of("type", "text", "fields", Map.of("simhash", Map.of("type", "simhash")));
    }

    /** Creates the index (2 shards, no replicas) with the fingerprint as a multi-field of the text. */
    public void create() {
        Map<String, Object> props = new LinkedHashMap<>();
        props.put("body", bodyMapping());
        props.put("lang", Map.of("type", "keyword"));
        props.put("kind", Map.of("type", "keyword"));
        props.put("group", Map.of("type", "keyword"));
        Map<String, Object> settings = Map.of("number_of_shards", 2, "number_of_replicas", 0);
        rest.ok("PUT", "/" + index, toJson(Map.of("settings", settings, "mappings", Map.of("properties", props))));
    }

    /** Indexes every document of the corpus with one {@code _bulk} request (the field type fingerprints them as they are indexed). */
    public void load(SampleCorpus corpus) {
        StringBuilder ndjson = new StringBuilder();
        for (SampleCorpus.Doc d : corpus.docs()) {
            Map<String, Object> source = new LinkedHashMap<>();
            source.put("lang", d.lang());
            source.put("kind", d.kind());
            if (d.group() != null) {
                source.put("group", d.group());
            }
            source.put("body", d.body());
            ndjson.append(toJson(Map.of("index", Map.of("_id", d.id())))).append('\n').append(toJson(source)).append('\n');
        }
        Rest.Answer bulk = rest.bulk("/" + index + "/_bulk?refresh=true", ndjson.toString());
        if (bulk.status() != 200 || !Boolean.FALSE.equals(bulk.at("errors"))) {
            throw new IllegalStateException("bulk load into [" + index + "] failed: " + bulk);
        }
    }

    /** The {@code simhash} query for the near-duplicates of an indexed document. */
    public Map<String, Object> likeQuery(String id) {
        Map<String, Object> like = new LinkedHashMap<>();
        like.put("index", index);
        like.put("id", id);
        return simhash("like", like);
    }

    /** The {@code simhash} query for the near-duplicates of a text, fingerprinted on the node with the field's own options. */
    public Map<String, Object> textQuery(String text) {
        return simhash("text", text);
    }

    private static Map<String, Object> simhash(String input, Object value) {
        Map<String, Object> q = new LinkedHashMap<>();
        q.put("field", FINGERPRINT);
        q.put(input, value);
        q.put("max_distance", MAX_DISTANCE);
        return Map.of("query", Map.of("simhash", q));
    }

    /** The search path a query is sent to, with a filter that keeps the answer short for curl users. */
    public String searchPath() {
        return "/" + index + "/_search?filter_path=hits.hits._id,hits.hits._score";
    }

    /** Runs a search body from {@link #likeQuery} or {@link #textQuery}; hits best first. */
    public List<Hit> search(Map<String, Object> body) {
        Map<String, Object> request = new LinkedHashMap<>(body);
        request.put("size", MAX_HITS);
        request.put("_source", List.of("body"));
        Rest.Answer a = rest.ok("POST", "/" + index + "/_search", toJson(request));
        List<Map<String, Object>> hits = a.at("hits.hits");
        List<Hit> out = new ArrayList<>();
        for (Map<String, Object> h : hits) {
            // the query scores (64 - d) / 64 exactly (no boost here), so the distance comes back from the score
            int distance = (int) Math.round(SimHash.BITS * (1 - ((Number) h.get("_score")).doubleValue()));
            @SuppressWarnings("unchecked")
            Map<String, Object> source = (Map<String, Object>) h.get("_source");
            out.add(new Hit((String) h.get("_id"), distance, (String) source.get("body")));
        }
        return out;
    }

    /** A hit of a plain or folded result list: id, score, the ids folded under it (fold only) and the text. */
    public record Ranked(String id, double score, List<String> folded, String body) {}

    /** A plain full-text search on the documents' text. */
    public static Map<String, Object> matchQuery(String text, int size) {
        return Map.of("query", Map.of("match", Map.of("body", text)), "size", size, "_source", List.of("body"));
    }

    /**
     * The fold request path: the same search, near-duplicates within the field's default radius (simhash-v2: 6 bits) folded
     * under the best-ranked hit; no unrelated document is that close in the demo's corpus.
     */
    public String foldPath() {
        return "/" + index + "/_simhash/fold?field=" + FINGERPRINT + "&window=50&members=10";
    }

    /** Runs {@code body} as a plain search ({@code fold} false) or through {@code _simhash/fold}. */
    public List<Ranked> ranked(Map<String, Object> body, boolean fold) {
        Rest.Answer a = rest.ok("POST", fold ? foldPath() : "/" + index + "/_search", toJson(body));
        List<Map<String, Object>> hits = a.at("hits.hits");
        List<Ranked> out = new ArrayList<>();
        for (Map<String, Object> h : hits) {
            List<String> folded = new ArrayList<>();
            Map<?, ?> info = (Map<?, ?>) h.get("_simhash");
            if (info != null && info.get("members") instanceof List<?> members) {
                for (Object m : members) {
                    folded.add((String) ((Map<?, ?>) m).get("_id"));
                }
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> source = (Map<String, Object>) h.get("_source");
            out.add(new Ranked((String) h.get("_id"), ((Number) h.get("_score")).doubleValue(), folded, (String) source.get("body")));
        }
        return out;
    }

    /** For every document of the corpus, the ids its {@link #likeQuery} finds (itself included). */
    public Map<String, Set<String>> nearDuplicatesOfEach(SampleCorpus corpus) {
        Map<String, Set<String>> found = new LinkedHashMap<>();
        for (SampleCorpus.Doc d : corpus.docs()) {
            Set<String> ids = new LinkedHashSet<>();
            search(likeQuery(d.id())).forEach(h -> ids.add(h.id()));
            found.put(d.id(), ids);
        }
        return found;
    }

    /** The fingerprint the field stored for every document, by id (doc values as signed longs). */
    public Map<String, Long> fingerprints() {
        Rest.Answer a = rest.ok("POST", "/" + index + "/_search", toJson(Map.of("size", 10_000, "_source", false,
            "docvalue_fields", List.of(Map.of("field", FINGERPRINT, "format", "long")))));
        Map<String, Long> out = new LinkedHashMap<>();
        List<Map<String, Object>> hits = a.at("hits.hits");
        for (Map<String, Object> h : hits) {
            @SuppressWarnings("unchecked")
            Map<String, List<Object>> fields = (Map<String, List<Object>>) h.get("fields");
            out.put((String) h.get("_id"), ((Number) fields.get(FINGERPRINT).get(0)).longValue());
        }
        return out;
    }
}
