package dev.simhash.bench;

import dev.simhash.core.CandidateRadius;
import dev.simhash.core.MinHashSketch;
import dev.simhash.core.SimHash;
import dev.simhash.core.SimHashV2;

import java.util.ArrayList;
import java.util.Base64;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.SplittableRandom;

/**
 * Latency of the verified {@code like} query (default {@code min_similarity}) on real-like text, side by side
 * and interleaved with {@code ids} on the same index (the request's fixed cost), the plain {@code like} at
 * {@code max_distance} 6, and a linear scan; plus the bytes per document of the field with and without its
 * similarity sketch.
 */
public final class VerifiedBench {

    /** The plain query's radius: simhash-v2's default. */
    static final int PLAIN_RADIUS = SimHashV2.DEFAULT_MAX_DISTANCE;
    /** The fingerprint radius of the default threshold (its candidates come from two shared sketch bands instead). */
    static final int CANDIDATE_RADIUS = CandidateRadius.radius(MinHashSketch.DEFAULT_MIN_SIMILARITY);
    static final String FIELD = "body.simhash";
    static final int BULK_DOCS = 1000;

    /** A request under test. */
    public enum Method {
        IDS("ids (same index, fixed cost)"),
        VERIFIED("like, default (verified, min_similarity 0.8: candidates share a sketch band)"),
        TEXT("text of the liked document, default (verified at 0.8; fingerprinted and sketched on the node)"),
        VERIFIED_RADIUS("like, min_similarity 0.7 (below 0.78: candidates within " + CandidateRadius.radius(0.7) + " bits, verified)"),
        PLAIN("like, max_distance " + PLAIN_RADIUS + " (plain)"),
        CANDIDATES("like, max_distance " + CANDIDATE_RADIUS + " (the radius of 0.8, no sketch: diagnostic)"),
        HASH_SKETCH("hash + sketch, min_similarity 0.8 (no like fetch: diagnostic)"),
        SCAN("linear scan (script_score + hamming script)");

        public final String label;

        Method(String label) {
            this.label = label;
        }
    }

    /** Latency of one method at one size. */
    public record Result(int size, Method method, int measured, double p50, double p99, double mean, double tookP50, double meanHits) {}

    /** Bytes of the two indices (with and without the sketch) after the force-merge, and how fast they loaded. */
    public record Storage(int size, long indexBytes, long fieldBytes, Map<String, Long> fieldDetail, long indexBytesNoSketch,
                          long fieldBytesNoSketch, Map<String, Long> fieldDetailNoSketch, double loadSeconds, double mergeSeconds,
                          double loadSecondsNoSketch, double mergeSecondsNoSketch, double textBytesPerDoc, int clustered) {}

    private final BenchNode node;
    private final Log log;
    private final int warmup;
    private final int round;
    public final List<Result> results = new ArrayList<>();
    public final List<Storage> storage = new ArrayList<>();

    public VerifiedBench(BenchNode node, Log log, int warmup, int round) {
        this.node = node;
        this.log = log;
        this.warmup = warmup;
        this.round = round;
    }

    static String mapping(boolean sketch) {
        return "{\"settings\": {\"number_of_shards\": 1, \"number_of_replicas\": 0, \"refresh_interval\": \"-1\"},"
            + " \"mappings\": {\"properties\": {\"body\": {\"type\": \"text\", \"fields\": {\"simhash\": {\"type\": \"simhash\""
            + (sketch ? "" : ", \"sketch\": \"none\"") + "}}}}}}";
    }

    /** Loads {@code n} texts into both indices, measures the four methods interleaved, records bytes, then deletes the indices. */
    public void run(int n, int queries, long seed) {
        SyntheticTexts texts = new SyntheticTexts(n, seed);
        String a = "vbench-" + n + "-sketch";
        String b = "vbench-" + n + "-nosketch";
        node.call("DELETE", "/" + a, null);
        node.call("DELETE", "/" + b, null);
        node.ok("PUT", "/" + a, mapping(true));
        node.ok("PUT", "/" + b, mapping(false));
        log.info(String.format(Locale.ROOT, "  %,d texts, %,d in planted clusters", n, texts.clustered()));
        double[][] loaded = load(texts, a, b);
        double[] la = loaded[0];
        double[] lb = loaded[1];
        long textBytes = 0;
        for (int i = 0; i < Math.min(n, 10_000); i++) {
            textBytes += texts.text(i).length();
        }
        Map<String, Long> fa = node.diskUsage(a, FIELD);
        Map<String, Long> fb = node.diskUsage(b, FIELD);
        // the sketch field holds the sketch (doc values) and its band values (points): shown apart
        Map<String, Long> parts = new java.util.LinkedHashMap<>(node.diskUsage(a, FIELD, true));
        parts.keySet().removeIf(k -> !k.startsWith(FIELD + "._minhash["));
        Map<String, Long> detail = new java.util.LinkedHashMap<>(fa);
        detail.putAll(parts);
        Storage st = new Storage(n, storeBytes(a), sum(fa), detail, storeBytes(b), sum(fb), fb, la[0], la[1], lb[0], lb[1],
            textBytes / (double) Math.min(n, 10_000), texts.clustered());
        storage.add(st);
        log.info(String.format(Locale.ROOT, "  bytes/doc: field %s %.1f with the sketch (%s), %.1f without (%s); whole index %.1f vs %.1f",
            FIELD, st.fieldBytes() / (double) n, fa, st.fieldBytesNoSketch() / (double) n, fb, st.indexBytes() / (double) n,
            st.indexBytesNoSketch() / (double) n));
        node.call("DELETE", "/" + b, null);
        measure(texts, a, queries);
        node.call("DELETE", "/" + a, null);
    }

    private static long sum(Map<String, Long> m) {
        return m.values().stream().mapToLong(Long::longValue).sum();
    }

    /**
     * Bulk-loads the same texts into both indices at once with 2 clients, each bulk into one index then the other (the
     * order alternating), so both indices see the same machine load and warm-up; then refreshes and force-merges each.
     * Returns {load seconds, merge seconds} per index, where load seconds is the summed bulk time of the index divided
     * by the 2 clients (its rate as if loaded alone at that load).
     */
    private double[][] load(SyntheticTexts texts, String a, String b) {
        int n = texts.size();
        String[] indices = { a, b };
        Log.Progress p = log.progress("loading " + a + " and " + b, n);
        java.util.concurrent.atomic.AtomicLongArray nanos = new java.util.concurrent.atomic.AtomicLongArray(2);
        TwoClients.load(n, BULK_DOCS, "loading " + a + " and " + b, (from, to) -> {
            StringBuilder sb = new StringBuilder((to - from) * 600);
            for (int i = from; i < to; i++) {
                sb.append("{\"index\":{\"_id\":\"").append(i).append("\"}}\n{\"body\":\"").append(texts.text(i)).append("\"}\n");
            }
            String ndjson = sb.toString();
            // each batch goes to both indices, in alternating order, so neither is always loaded second
            int first = (from / BULK_DOCS) % 2;
            for (int k = 0; k < 2; k++) {
                int x = (first + k) % 2;
                nanos.addAndGet(x, TwoClients.bulk(node, indices[x], ndjson).nanos());
            }
            p.add(to - from);
        });
        double[][] out = new double[2][];
        for (int x = 0; x < 2; x++) {
            long t0 = System.nanoTime();
            node.ok("POST", "/" + indices[x] + "/_refresh", null);
            double loadSecs = (nanos.get(x) / 2.0 + (System.nanoTime() - t0)) / 1e9;
            long t1 = System.nanoTime();
            node.ok("POST", "/" + indices[x] + "/_forcemerge?max_num_segments=1", null);
            node.ok("POST", "/" + indices[x] + "/_refresh", null);
            double mergeSecs = (System.nanoTime() - t1) / 1e9;
            log.info(String.format(Locale.ROOT, "  %s: bulk time %.1f s per client (%,.0f docs/s), merged in %.1f s", indices[x], loadSecs,
                n / loadSecs, mergeSecs));
            out[x] = new double[] { loadSecs, mergeSecs };
        }
        return out;
    }

    private long storeBytes(String index) {
        return ((Number) BenchNode.at(node.ok("GET", "/" + index + "/_stats/store", null).json(),
            "indices." + index + ".primaries.store.size_in_bytes")).longValue();
    }


    static String body(Method m, String index, int id, long hash, String sketch, String text) {
        String head = "{\"size\":10,\"track_total_hits\":false,\"_source\":false,\"query\":";
        String like = "{\"simhash\":{\"field\":\"" + FIELD + "\",\"like\":{\"index\":\"" + index + "\",\"id\":\"" + id + "\"}";
        return head + switch (m) {
            case IDS -> "{\"ids\":{\"values\":[\"" + id + "\"]}}}";
            case VERIFIED -> like + "}}}";
            case TEXT -> "{\"simhash\":{\"field\":\"" + FIELD + "\",\"text\":" + BenchNode.toJson(text) + "}}}";
            case VERIFIED_RADIUS -> like + ",\"min_similarity\":0.7}}}";
            case PLAIN -> like + ",\"max_distance\":" + PLAIN_RADIUS + "}}}";
            case CANDIDATES -> like + ",\"max_distance\":" + CANDIDATE_RADIUS + "}}}";
            case HASH_SKETCH -> "{\"simhash\":{\"field\":\"" + FIELD + "\",\"hash\":\"" + SimHash.toHex(hash) + "\",\"sketch\":\"" + sketch
                + "\",\"min_similarity\":" + MinHashSketch.DEFAULT_MIN_SIMILARITY + "}}}";
            // the scan keeps exactly what the plain query keeps (similarity (64 - d) / 64 is exact), plus the liked document
            case SCAN -> "{\"script_score\":{\"query\":{\"match_all\":{}},\"script\":{\"lang\":\"simhash\",\"source\":\"similarity\","
                + "\"params\":{\"field\":\"" + FIELD + "\",\"hash\":\"" + SimHash.toHex(hash) + "\"}},\"min_score\":"
                + ((64 - PLAIN_RADIUS) / 64.0) + "}}}";
        };
    }

    private void measure(SyntheticTexts texts, String index, int measuredQueries) {
        int n = texts.size();
        int total = warmup + measuredQueries;
        int[] ids = new int[total];
        long[] hashes = new long[total];
        String[] sketches = new String[total];
        SplittableRandom r = new SplittableRandom(n * 31L + 7);
        for (int q = 0; q < total; q++) {
            OptionalLong h;
            do {
                ids[q] = r.nextInt(n);
                h = SimHashV2.fingerprint(texts.text(ids[q]), 1);
            } while (h.isEmpty());
            hashes[q] = h.getAsLong();
            sketches[q] = Base64.getEncoder().encodeToString(MinHashSketch.V1.sketch(texts.text(ids[q])));
        }
        List<Method> methods = List.of(Method.values());
        Map<Method, double[]> lat = new EnumMap<>(Method.class);
        Map<Method, double[]> took = new EnumMap<>(Method.class);
        Map<Method, long[]> hits = new EnumMap<>(Method.class);
        for (Method m : methods) {
            lat.put(m, new double[measuredQueries]);
            took.put(m, new double[measuredQueries]);
            hits.put(m, new long[1]);
        }
        int scanWithoutSelf = 0;
        int sketchWithoutSelf = 0;
        Log.Progress p = log.progress(String.format(Locale.ROOT, "verified %,d docs: %d methods x %d queries (+%d warm-up)", n, methods.size(),
            measuredQueries, warmup), (long) methods.size() * total);
        int rounds = (total + round - 1) / round;
        for (int rd = 0; rd < rounds; rd++) {
            int from = rd * round;
            int to = Math.min(total, from + round);
            for (int mi = 0; mi < methods.size(); mi++) {
                Method m = methods.get((mi + rd) % methods.size());
                for (int q = from; q < to; q++) {
                    BenchNode.Answer ans = node.call("POST", "/" + index + "/_search", body(m, index, ids[q], hashes[q], sketches[q], texts.text(ids[q])));
                    if (!ans.ok()) {
                        throw new IllegalStateException(m + " failed: " + BenchNode.abbreviate(ans.body()));
                    }
                    if (q >= warmup) {
                        int i = q - warmup;
                        lat.get(m)[i] = ans.nanos() / 1e6;
                        Map<String, Object> json = ans.json();
                        took.get(m)[i] = ((Number) json.get("took")).doubleValue();
                        List<Map<String, Object>> hs = BenchNode.at(json, "hits.hits");
                        hits.get(m)[0] += hs.size();
                        String self = String.valueOf(ids[q]);
                        boolean found = hs.stream().anyMatch(h -> self.equals(h.get("_id")));
                        if (m == Method.SCAN && found == false && hs.size() < 10) {
                            scanWithoutSelf++; // the client-side fingerprint differs from the indexed one
                        }
                        if ((m == Method.HASH_SKETCH || m == Method.TEXT) && found == false && hs.size() < 10) {
                            sketchWithoutSelf++; // the client-side sketch differs from the indexed one
                        }
                    }
                    p.add(1);
                }
            }
        }
        if (sketchWithoutSelf > 0) {
            log.warn(sketchWithoutSelf + " hash + sketch or text queries did not find the liked document itself: the query's sketch differs from the field's");
        }
        if (scanWithoutSelf > 0) {
            log.warn(scanWithoutSelf + " scans did not find the liked document itself: the harness's fingerprint differs from the field's");
        }
        for (Method m : methods) {
            double[] l = lat.get(m);
            Result res = new Result(n, m, measuredQueries, Stats.median(l), Stats.percentile(l, 99), Stats.mean(l), Stats.median(took.get(m)),
                hits.get(m)[0] / (double) measuredQueries);
            results.add(res);
            log.info(String.format(Locale.ROOT, "  %-48s p50 %8.2f ms  p99 %8.2f ms  took p50 %5.1f ms  mean hits %.2f", m.label, res.p50(), res.p99(),
                res.tookP50(), res.meanHits()));
        }
    }

    /** The result of a method at a size, or null. */
    Result result(int size, Method m) {
        return results.stream().filter(x -> x.size() == size && x.method() == m).findFirst().orElse(null);
    }

    /** The report's section. */
    void write(StringBuilder md) {
        md.append("## 6. Verified query latency and sketch bytes (real-like text)\n\n");
        md.append("Synthetic text (Zipf vocabulary of 30,000 made-up words, sentences, log-normal lengths with median 60 words; about 40% ")
            .append("of the documents in planted clusters of 2-10: an original and copies with 1-10% of their words edited), generated ")
            .append("deterministically (`SyntheticTexts`). Index: `body` (`text`) with a `simhash` multi-field (simhash-v2, default sketch ")
            .append("minhash-v1), 1 shard, force-merged to 1 segment. Interleaved in rounds with rotating order, one request at a time: ")
            .append("`ids` of the liked document on the same index; `like` without `max_distance` (verified at the default 0.8: candidates ")
            .append("share one of the sketch's 14 band values, checked by the sketch); `text` with the liked document's text (the same ")
            .append("default, the text fingerprinted and sketched on the node); `like` at `min_similarity` 0.7 (below 0.78 the ")
            .append("candidates are the fingerprints within ").append(CandidateRadius.radius(0.7)).append(" bits); `like` with `max_distance` ")
            .append(PLAIN_RADIUS).append("; the linear scan (`script_score` with the simhash Hamming script over `match_all`, `min_score` ")
            .append("for ").append(PLAIN_RADIUS).append(" bits). Two diagnostics split the verified query's cost: `like` with `max_distance` ")
            .append(CANDIDATE_RADIUS).append(" (the fingerprint radius of 0.8, no sketch: what 0.8 cost before its candidates came from ")
            .append("the bands) and `hash` + `sketch` + `min_similarity` 0.8 computed ")
            .append("in the harness (the verified query without fetching the liked document). Client-side wall time; `size` 10, `_source` false.\n\n");
        md.append("| documents | method | queries | p50 ms | p99 ms | mean ms | server took p50 ms | mean hits |\n")
            .append("| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n");
        for (Result r : results) {
            md.append(String.format(Locale.ROOT, "| %,d | %s | %d | %.2f | %.2f | %.2f | %.1f | %.2f |\n", r.size(), r.method().label, r.measured(),
                r.p50(), r.p99(), r.mean(), r.tookP50(), r.meanHits()));
        }
        md.append("\n| documents | verified like p50 / ids p50 | verified text p50 / ids p50 | scan p50 / verified like p50 | "
            + "scan p50 / verified text p50 |\n| ---: | ---: | ---: | ---: | ---: |\n");
        for (Storage s : storage) {
            Result ids = result(s.size(), Method.IDS);
            Result v = result(s.size(), Method.VERIFIED);
            Result t = result(s.size(), Method.TEXT);
            Result scan = result(s.size(), Method.SCAN);
            if (ids != null && v != null && t != null && scan != null) {
                md.append(String.format(Locale.ROOT, "| %,d | %.2f | %.2f | %.1f | %.1f |\n", s.size(), v.p50() / ids.p50(), t.p50() / ids.p50(),
                    scan.p50() / v.p50(), scan.p50() / t.p50()));
            }
        }
        md.append("\nBytes per document after the force-merge (`_disk_usage` of the field `").append(FIELD)
            .append("`, all its parts; `_stats` store for the whole index, which holds `_source` and the text's inverted index):\n\n");
        md.append("| documents | text bytes/doc | field, sketch | field, `sketch: none` | whole index, sketch | whole index, none | "
            + "bulk docs/s per client pair (sketch / none) | force-merge s (sketch / none) |\n| ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |\n");
        for (Storage s : storage) {
            double n = s.size();
            md.append(String.format(Locale.ROOT, "| %,d | %.0f | %.1f | %.1f | %.1f | %.1f | %,.0f / %,.0f | %.0f / %.0f |\n", s.size(),
                s.textBytesPerDoc(), s.fieldBytes() / n, s.fieldBytesNoSketch() / n, s.indexBytes() / n, s.indexBytesNoSketch() / n,
                n / s.loadSeconds(), n / s.loadSecondsNoSketch(), s.mergeSeconds(), s.mergeSecondsNoSketch()));
        }
        md.append('\n');
        for (Storage s : storage) {
            md.append(String.format(Locale.ROOT, "Field parts at %,d (bytes): with the sketch %s; without %s\n\n", s.size(), s.fieldDetail(),
                s.fieldDetailNoSketch()));
        }
    }
}
