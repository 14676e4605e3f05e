package dev.simhash.demo;

import dev.simhash.core.MinHashSketch;
import dev.simhash.core.SimHash;
import dev.simhash.it.support.Rest;
import dev.simhash.it.support.SampleCorpus;

import java.util.ArrayList;
import java.util.Base64;
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
     * The threshold the demo's {@code like} and {@code text} queries use: they give neither {@code max_distance} nor
     * {@code min_similarity}, so on a field with a similarity sketch the query applies this default (the demo only prints it).
     */
    public static final double MIN_SIMILARITY = MinHashSketch.DEFAULT_MIN_SIMILARITY;
    /** The {@code simhash} multi-field under the text, and the query's {@code field}. */
    public static final String FINGERPRINT = "body.simhash";
    private static final int MAX_HITS = 100;

    /**
     * A search hit: document id, its stored fingerprint, the estimated similarity to the query (the {@code _score}: the share
     * of shingles the two texts have in common, estimated from their sketches) and the document's text.
     */
    public record Hit(String id, long fingerprint, double similarity, String body) {
        /** The Hamming distance of the hit's fingerprint to the query's. */
        public int distance(long query) {
            return SimHash.distance(query, fingerprint);
        }
    }

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

    /** The index new documents arrive in, checked against this one on the way in. */
    public String incoming() {
        return index + "-incoming";
    }

    /** The pipeline that checks new documents against this index. */
    public String dedupPipeline() {
        return index + "-dedup";
    }

    /**
     * Sends documents (id to text) into {@link #incoming()} through a pipeline with the {@code simhash_dedup} processor whose
     * target is this index, and returns what it wrote into each ({@code duplicate_of}, or null), by id, in the order given.
     */
    public Map<String, Map<String, Object>> ingestThroughDedup(Map<String, String> docs) {
        rest.delete("/" + incoming());
        rest.ok("PUT", "/_ingest/pipeline/" + dedupPipeline(), toJson(Map.of("processors", List.of(Map.of("simhash_dedup",
            Rest.ordered("field", "body", "target", index))))));
        rest.ok("PUT", "/" + incoming(), toJson(Map.of("settings", Map.of("number_of_shards", 1, "number_of_replicas", 0),
            "mappings", Map.of("properties", Map.of("body", bodyMapping())))));
        StringBuilder ndjson = new StringBuilder();
        docs.forEach((id, text) -> ndjson.append(toJson(Map.of("index", Map.of("_id", id)))).append('\n')
            .append(toJson(Map.of("body", text))).append('\n'));
        Rest.Answer bulk = rest.bulk("/" + incoming() + "/_bulk?refresh=true&pipeline=" + dedupPipeline(), ndjson.toString());
        if (bulk.status() != 200 || !Boolean.FALSE.equals(bulk.at("errors"))) {
            throw new IllegalStateException("bulk into [" + incoming() + "] failed: " + bulk);
        }
        Map<String, Map<String, Object>> tags = new LinkedHashMap<>();
        for (String id : docs.keySet()) {
            tags.put(id, rest.ok("GET", "/" + incoming() + "/_doc/" + id, null).at("_source.duplicate_of"));
        }
        return tags;
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
        // no max_distance and no min_similarity: the field has a sketch, so the query verifies at the default threshold
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
        // the score is the estimated similarity, so the distance is computed from the hit's stored fingerprint
        request.put("docvalue_fields", List.of(Map.of("field", FINGERPRINT, "format", "long")));
        Rest.Answer a = rest.ok("POST", "/" + index + "/_search", toJson(request));
        List<Map<String, Object>> hits = a.at("hits.hits");
        List<Hit> out = new ArrayList<>();
        for (Map<String, Object> h : hits) {
            @SuppressWarnings("unchecked")
            Map<String, Object> source = (Map<String, Object>) h.get("_source");
            @SuppressWarnings("unchecked")
            Map<String, List<Object>> fields = (Map<String, List<Object>>) h.get("fields");
            out.add(new Hit((String) h.get("_id"), ((Number) fields.get(FINGERPRINT).get(0)).longValue(),
                ((Number) h.get("_score")).doubleValue(), (String) source.get("body")));
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
     * The fold request path: the same search, near-duplicates folded under the best-ranked hit with the field's defaults
     * (verified at min_similarity 0.8 on a field with a sketch); no unrelated document is that close in the demo's corpus.
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

    /** The similarity sketch the field stored for every document, by id (the {@code fields} option's minhash-v1 format: base64). */
    public Map<String, byte[]> sketches() {
        Rest.Answer a = rest.ok("POST", "/" + index + "/_search", toJson(Map.of("size", 10_000, "_source", false,
            "fields", List.of(Map.of("field", FINGERPRINT, "format", MinHashSketch.ALGORITHM)))));
        Map<String, byte[]> out = new LinkedHashMap<>();
        List<Map<String, Object>> hits = a.at("hits.hits");
        for (Map<String, Object> h : hits) {
            @SuppressWarnings("unchecked")
            Map<String, List<Object>> fields = (Map<String, List<Object>>) h.get("fields");
            out.put((String) h.get("_id"), Base64.getDecoder().decode((String) fields.get(FINGERPRINT).get(0)));
        }
        return out;
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
