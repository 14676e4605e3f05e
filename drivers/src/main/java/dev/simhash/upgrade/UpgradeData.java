package dev.simhash.upgrade;

import dev.simhash.chaos.ChaosCorpus;
import dev.simhash.it.support.Rest;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

import static dev.simhash.it.support.Rest.toJson;

/**
 * The rolling upgrade's indices and documents: one index with {@code simhash} fields (text v2 with its default sketch, text
 * v1, ready-made fingerprints) and one fingerprinted by the {@code simhash} processor's object form, both 3 primaries + 1
 * replica, loaded with near-duplicate texts that are deterministic from a seed.
 */
final class UpgradeData {

    static final String FIELD_INDEX = "up-field";
    static final String PIPE_INDEX = "up-pipe";
    static final String PIPELINE = "up-simhash";
    static final int SHARDS = 3;
    static final int DOCS = 2000;
    static final int BASES = 250;
    private static final int BULK = 500;
    private static final int MAX_FLIPS = 4;

    /** One document as loaded: id, position, base text number, text and its ready-made fingerprint. */
    record Doc(String id, int n, int base, String body, long fp) {}

    final long seed;
    final ChaosCorpus corpus;
    final List<Doc> docs = new ArrayList<>();
    final Map<String, Doc> byId = new LinkedHashMap<>();

    UpgradeData(long seed) {
        this.seed = seed;
        this.corpus = new ChaosCorpus(seed, BASES);
        Random r = new Random(seed);
        long[] baseFp = new long[BASES];
        for (int b = 0; b < BASES; b++) {
            baseFp[b] = r.nextLong();
        }
        for (int n = 0; n < DOCS; n++) {
            Random dr = new Random(seed * 1_000_003L + n);
            int base = n % BASES;
            long fp = baseFp[base];
            // ready-made fingerprints that are near-duplicates too: a few bits of the base's flipped
            for (int f = 0, flips = dr.nextInt(MAX_FLIPS + 1); f < flips; f++) {
                fp ^= 1L << dr.nextInt(64);
            }
            Doc d = new Doc(id(n), n, base, corpus.variant(base, dr), fp);
            docs.add(d);
            byId.put(d.id(), d);
        }
    }

    static String id(int n) {
        return String.format(Locale.ROOT, "d%04d", n);
    }

    /** A text that is not indexed: another variant of base {@code base}. */
    String freshText(int base) {
        return corpus.variant(base, new Random(seed * 7919L + base));
    }

    /** Creates the pipeline and both indices and loads every document. */
    void create(Rest rest) {
        rest.ok("PUT", "/_ingest/pipeline/" + PIPELINE, toJson(Map.of("processors", List.of(Map.of("simhash", Map.of("field", "body",
            "target_field", "simhash"))))));
        Map<String, Object> settings = Map.of("number_of_shards", SHARDS, "number_of_replicas", 1);
        Map<String, Object> fieldProps = Map.of("n", Map.of("type", "integer"), "base", Map.of("type", "integer"), "body", Map.of("type",
            "text", "fields", Map.of("simhash", Map.of("type", "simhash"), "simhash_v1", Map.of("type", "simhash", "version", "v1"))),
            "fp", Map.of("type", "simhash", "input", "fingerprint"));
        rest.ok("PUT", "/" + FIELD_INDEX, toJson(Map.of("settings", settings, "mappings", Map.of("properties", fieldProps))));
        Map<String, Object> block = Map.of("type", "keyword");
        Map<String, Object> pipeProps = Map.of("n", Map.of("type", "integer"), "base", Map.of("type", "integer"), "body", Map.of("type",
            "text"), "simhash", Map.of("properties", Map.of("hash", Map.of("type", "long"), "b0", block, "b1", block, "b2", block, "b3",
                block)));
        Map<String, Object> pipeSettings = new LinkedHashMap<>(settings);
        pipeSettings.put("default_pipeline", PIPELINE);
        rest.ok("PUT", "/" + PIPE_INDEX, toJson(Map.of("settings", pipeSettings, "mappings", Map.of("properties", pipeProps))));
        for (int from = 0; from < DOCS; from += BULK) {
            List<String> ids = new ArrayList<>();
            List<Doc> texts = new ArrayList<>();
            for (Doc d : docs.subList(from, Math.min(DOCS, from + BULK))) {
                ids.add(d.id());
                texts.add(d);
            }
            index(rest, ids, texts);
        }
        rest.ok("POST", "/" + FIELD_INDEX + "," + PIPE_INDEX + "/_refresh", null);
    }

    /** Indexes document {@code ids.get(i)} with the text and fingerprint of {@code sources.get(i)} into both indices. */
    static void index(Rest rest, List<String> ids, List<Doc> sources) {
        StringBuilder nd = new StringBuilder();
        for (int i = 0; i < ids.size(); i++) {
            Doc d = sources.get(i);
            nd.append(toJson(Map.of("index", Map.of("_index", FIELD_INDEX, "_id", ids.get(i))))).append('\n');
            nd.append(toJson(Map.of("n", d.n(), "base", d.base(), "body", d.body(), "fp", hex(d.fp())))).append('\n');
            nd.append(toJson(Map.of("index", Map.of("_index", PIPE_INDEX, "_id", ids.get(i))))).append('\n');
            nd.append(toJson(Map.of("n", d.n(), "base", d.base(), "body", d.body()))).append('\n');
        }
        Rest.Answer a = rest.bulk("/_bulk", nd.toString());
        if (a.status() != 200 || Boolean.TRUE.equals(a.at("errors"))) {
            throw new AssertionError("bulk failed: " + abbreviate(a.toString()));
        }
    }

    /** Deletes documents from both indices. */
    static void delete(Rest rest, List<String> ids) {
        StringBuilder nd = new StringBuilder();
        for (String id : ids) {
            nd.append(toJson(Map.of("delete", Map.of("_index", FIELD_INDEX, "_id", id)))).append('\n');
            nd.append(toJson(Map.of("delete", Map.of("_index", PIPE_INDEX, "_id", id)))).append('\n');
        }
        Rest.Answer a = rest.bulk("/_bulk?refresh=true", nd.toString());
        if (a.status() != 200 || Boolean.TRUE.equals(a.at("errors"))) {
            throw new AssertionError("bulk delete failed: " + abbreviate(a.toString()));
        }
    }

    static String hex(long h) {
        return String.format(Locale.ROOT, "%016x", h);
    }

    static String abbreviate(String s) {
        return s.length() <= 600 ? s : s.substring(0, 600) + "…";
    }
}
