package dev.simhash.it;

import dev.simhash.core.SimHash;
import dev.simhash.it.support.Fixtures;
import dev.simhash.it.support.Rest;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;

import static dev.simhash.it.support.Fixtures.flip;
import static dev.simhash.it.support.Rest.toJson;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Documents with planted near-duplicate groups (stored form written directly, no pipeline), and
 * brute-force references for the fold and report ITs.
 */
final class CollapseCorpus {

    /** One document: id, rank (unique), tag, fingerprint (null: none). */
    record Doc(String id, int rank, String tag, Long hash) {}

    final List<Doc> docs = new ArrayList<>();

    /**
     * {@code n} documents: a quarter random, most near copies (0..{@code maxFlip} bits) of a few bases,
     * some exact copies, chains of small steps, and a few without fingerprint; ranks are a random permutation.
     */
    static CollapseCorpus planted(long seed, int n, int bases, int maxFlip) {
        Random r = new Random(seed);
        long[] base = new long[bases];
        for (int i = 0; i < bases; i++) {
            base[i] = r.nextLong();
        }
        List<Integer> ranks = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ranks.add(i);
        }
        Collections.shuffle(ranks, r);
        CollapseCorpus c = new CollapseCorpus();
        long chain = r.nextLong();
        List<Long> soFar = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int kind = r.nextInt(20);
            Long h;
            if (kind < 5) {
                h = r.nextLong();
            } else if (kind < 16) {
                h = flip(r, base[r.nextInt(bases)], r.nextInt(maxFlip + 1));
            } else if (kind < 17 && !soFar.isEmpty()) {
                h = soFar.get(r.nextInt(soFar.size()));
            } else if (kind < 19) {
                chain = flip(r, chain, 1 + r.nextInt(Math.max(1, maxFlip)));
                h = chain;
            } else {
                h = null;
            }
            if (h != null) {
                soFar.add(h);
            }
            String id = Long.toString(r.nextLong() & Long.MAX_VALUE, 36) + "-" + i;
            c.docs.add(new Doc(id, ranks.get(i), r.nextBoolean() ? "a" : "b", h));
        }
        return c;
    }

    static String mapping(int shards) {
        return "{\"settings\": {\"number_of_shards\": " + shards + ", \"number_of_replicas\": 0}, \"mappings\": {\"properties\": "
            + "{\"rank\": {\"type\": \"integer\"}, \"tag\": {\"type\": \"keyword\"}, \"dup_group\": {\"type\": \"keyword\"}, "
            + "\"body\": {\"type\": \"text\"}, \"simhash\": " + Fixtures.FP_MAPPING + "}}}";
    }

    /** Creates {@code index} and bulk-loads the documents; {@code routing} picks a routing per document (null: none). */
    void load(Rest rest, String index, int shards, Function<Doc, String> routing) {
        rest.ok("PUT", "/" + index, mapping(shards));
        StringBuilder ndjson = new StringBuilder();
        int pending = 0;
        for (Doc d : docs) {
            Map<String, Object> action = new LinkedHashMap<>();
            action.put("_id", d.id());
            String route = routing == null ? null : routing.apply(d);
            if (route != null) {
                action.put("routing", route);
            }
            Map<String, Object> source = new LinkedHashMap<>();
            source.put("rank", d.rank());
            source.put("tag", d.tag());
            if (d.hash() != null) {
                source.put("simhash", Fixtures.storedForm(d.hash()));
            }
            ndjson.append(toJson(Map.of("index", action))).append('\n').append(toJson(source)).append('\n');
            if (++pending == 5000) {
                bulk(rest, index, ndjson);
                ndjson.setLength(0);
                pending = 0;
            }
        }
        if (pending > 0) {
            bulk(rest, index, ndjson);
        }
        rest.ok("POST", "/" + index + "/_refresh", null);
    }

    /**
     * Creates {@code index} with 50,000 fingerprints that share their top 48 bits (seeded): one huge component, slow
     * enough to group that a report on it is still running when a test looks at it.
     */
    static void loadSlow(Rest rest, String index, int shards, long seed) {
        rest.ok("PUT", "/" + index, mapping(shards));
        Random r = new Random(seed);
        long shared = r.nextLong() & ~0xFFFFL;
        StringBuilder ndjson = new StringBuilder();
        for (int i = 0; i < 50_000; i++) {
            ndjson.append("{\"index\":{}}\n").append(toJson(Map.of("simhash", Fixtures.storedForm(shared | r.nextInt(1 << 16)))))
                .append('\n');
            if (i % 10_000 == 9_999) {
                bulk(rest, index, ndjson);
                ndjson.setLength(0);
            }
        }
        rest.ok("POST", "/" + index + "/_refresh", null);
    }

    private static void bulk(Rest rest, String index, StringBuilder ndjson) {
        Rest.Answer a = rest.bulk("/" + index + "/_bulk", ndjson.toString());
        assertEquals(200, a.status(), a.toString().substring(0, Math.min(500, a.toString().length())));
        assertEquals(Boolean.FALSE, a.at("errors"), a.body().substring(0, Math.min(800, a.body().length())));
    }

    Map<String, Doc> byId() {
        Map<String, Doc> out = new HashMap<>();
        docs.forEach(d -> out.put(d.id(), d));
        return out;
    }

    /** Brute-force connected components (BFS over all pairs) of the documents with a fingerprint: id -> component label. */
    static Map<String, Integer> components(List<Doc> docs, int r) {
        List<Doc> withFp = docs.stream().filter(d -> d.hash() != null).toList();
        Map<String, Integer> label = new HashMap<>();
        int next = 0;
        for (Doc start : withFp) {
            if (label.containsKey(start.id())) {
                continue;
            }
            int l = next++;
            label.put(start.id(), l);
            ArrayDeque<Doc> queue = new ArrayDeque<>(List.of(start));
            while (!queue.isEmpty()) {
                Doc a = queue.poll();
                for (Doc b : withFp) {
                    if (!label.containsKey(b.id()) && SimHash.distance(a.hash(), b.hash()) <= r) {
                        label.put(b.id(), l);
                        queue.add(b);
                    }
                }
            }
        }
        return label;
    }
}
