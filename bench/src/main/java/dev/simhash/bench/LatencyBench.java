package dev.simhash.bench;

import dev.simhash.core.BlockProbes;
import dev.simhash.core.SimHash;
import dev.simhash.ingest.SimHashProcessor;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * Query latency of exact near-duplicate search, side by side on one node and one set of fingerprints:
 * the {@code simhash} query, a linear scan ({@code script_score} with the {@code simhash} Hamming
 * script over {@code match_all}) and {@code knn} on a {@code dense_vector} bit field (HNSW). Methods
 * are interleaved in rounds (rotating order) so machine noise hits all of them alike.
 */
public final class LatencyBench {

    /** How many queries and how they are grouped. */
    public record Config(int warmup, int queries, int round, int k, int bulkSize) {}

    /** A search method under test. */
    public enum Method {
        SIMHASH("simhash query (processor's object form)", "A"),
        SIMHASH_FIELD("simhash query (simhash field type)", "C"),
        SCRIPT("linear scan (script_score + hamming script)", "A"),
        KNN_100("knn HNSW bit vectors, num_candidates 100", "B"),
        KNN_1000("knn HNSW bit vectors, num_candidates 1000", "B");

        public final String label;
        final String index;

        Method(String label, String index) {
            this.label = label;
            this.index = index;
        }
    }

    /** Latency and recall of one method at one radius on one data set. */
    public record Result(String dataset, int size, int radius, Method method, int measured, double p50, double p99, double mean,
                         double tookP50, double recall, double minRecall, double meanHits, String note) {}

    /** Bytes on disk of the three indices after a force-merge to one segment. */
    public record Storage(String dataset, int size, long simhashIndexBytes, long vectorIndexBytes, long simhashFieldBytes,
                          long vectorFieldBytes, Map<String, Long> simhashFieldDetail, Map<String, Long> vectorFieldDetail,
                          long fieldTypeIndexBytes, long fieldTypeFieldBytes) {}

    /** Block-term skew of a data set: expected postings read per query (sum over blocks of probed terms' document frequencies). */
    public record Skew(String dataset, int size, int[] distinctBlockValues, int maxBlockDf, Map<Integer, Double> meanCandidates) {}

    /** Loading time of one index. */
    public record Load(String dataset, int size, String index, double seconds, double mergeSeconds) {}

    private final BenchNode node;
    private final Log log;
    private final Config cfg;
    public final List<Result> results = new ArrayList<>();
    public final List<Storage> storage = new ArrayList<>();
    public final List<Skew> skews = new ArrayList<>();
    public final List<Load> loads = new ArrayList<>();
    private Boolean scriptAvailable;
    public String scriptProblem;

    public LatencyBench(BenchNode node, Log log, Config cfg) {
        this.node = node;
        this.log = log;
        this.cfg = cfg;
    }

    static final String SIMHASH_MAPPING = "{\"settings\": {\"number_of_shards\": 1, \"number_of_replicas\": 0, \"refresh_interval\": \"-1\"},"
        + " \"mappings\": {\"properties\": {\"simhash\": {\"properties\": {\"hash\": {\"type\": \"long\"},"
        + " \"b0\": {\"type\": \"keyword\", \"doc_values\": false}, \"b1\": {\"type\": \"keyword\", \"doc_values\": false},"
        + " \"b2\": {\"type\": \"keyword\", \"doc_values\": false}, \"b3\": {\"type\": \"keyword\", \"doc_values\": false}}}}}}";
    static final String FIELD_TYPE_MAPPING = "{\"settings\": {\"number_of_shards\": 1, \"number_of_replicas\": 0, \"refresh_interval\": \"-1\"},"
        + " \"mappings\": {\"properties\": {\"fp\": {\"type\": \"simhash\", \"input\": \"fingerprint\"}}}}";
    static final String VECTOR_MAPPING = "{\"settings\": {\"number_of_shards\": 1, \"number_of_replicas\": 0, \"refresh_interval\": \"-1\"},"
        + " \"mappings\": {\"properties\": {\"vec\": {\"type\": \"dense_vector\", \"element_type\": \"bit\", \"dims\": 64,"
        + " \"index\": true, \"similarity\": \"l2_norm\", \"index_options\": {\"type\": \"hnsw\", \"m\": 16, \"ef_construction\": 100}}}}}";

    /**
     * Loads the fingerprints into both indices, measures every method at every radius, records
     * storage and skew, then deletes the indices.
     *
     * @param queries warm-up queries first, then the measured ones
     */
    public void run(String dataset, long[] fps, long[] queries, int[] radii) {
        int n = fps.length;
        String a = "bench-" + dataset + "-" + n + "-simhash";
        String b = "bench-" + dataset + "-" + n + "-vector";
        String c = "bench-" + dataset + "-" + n + "-field";
        node.call("DELETE", "/" + a, null);
        node.call("DELETE", "/" + b, null);
        node.call("DELETE", "/" + c, null);
        node.ok("PUT", "/" + a, SIMHASH_MAPPING);
        node.ok("PUT", "/" + b, VECTOR_MAPPING);
        node.ok("PUT", "/" + c, FIELD_TYPE_MAPPING);
        load(dataset, n, a, i -> BenchNode.toJson(Map.of("simhash", SimHashProcessor.storedForm(fps[i]))));
        load(dataset, n, b, i -> "{\"vec\":\"" + SimHash.toHex(fps[i]) + "\"}");
        load(dataset, n, c, i -> "{\"fp\":\"" + SimHash.toHex(fps[i]) + "\"}");
        storage.add(storage(dataset, n, a, b, c));
        int maxR = 0;
        for (int r : radii) {
            maxR = Math.max(maxR, r);
        }
        log.info("exact answers by brute force for " + queries.length + " queries over " + String.format(Locale.ROOT, "%,d", n) + " fingerprints ...");
        Exact exact = Exact.compute(fps, queries, maxR);
        skews.add(skew(dataset, fps, queries, radii));
        checkScript(a);
        for (int r : radii) {
            measure(dataset, fps, queries, exact, r, a, b, c);
        }
        node.call("DELETE", "/" + a, null);
        node.call("DELETE", "/" + b, null);
        node.call("DELETE", "/" + c, null);
    }

    private void load(String dataset, int n, String index, IntFunction<String> source) {
        Log.Progress p = log.progress("loading " + index, n);
        long t0 = System.nanoTime();
        TwoClients.load(n, cfg.bulkSize(), "loading " + index, (from, to) -> {
            StringBuilder sb = new StringBuilder((to - from) * 160);
            for (int i = from; i < to; i++) {
                sb.append("{\"index\":{\"_id\":\"").append(i).append("\"}}\n").append(source.apply(i)).append('\n');
            }
            TwoClients.bulk(node, index, sb.toString());
            p.add(to - from);
        });
        node.ok("POST", "/" + index + "/_refresh", null);
        double loadSecs = (System.nanoTime() - t0) / 1e9;
        log.info("  force-merging " + index + " to one segment ...");
        long t1 = System.nanoTime();
        node.ok("POST", "/" + index + "/_forcemerge?max_num_segments=1", null);
        node.ok("POST", "/" + index + "/_refresh", null);
        double mergeSecs = (System.nanoTime() - t1) / 1e9;
        log.info(String.format(Locale.ROOT, "  %s: loaded in %.1f s (%,.0f docs/s), merged in %.1f s", index, loadSecs, n / loadSecs, mergeSecs));
        loads.add(new Load(dataset, n, index, loadSecs, mergeSecs));
    }

    private Storage storage(String dataset, int n, String a, String b, String c) {
        long aBytes = storeBytes(a);
        long bBytes = storeBytes(b);
        long cBytes = storeBytes(c);
        Map<String, Long> aFields = node.diskUsage(a, "simhash.");
        Map<String, Long> bFields = node.diskUsage(b, "vec");
        long aSum = aFields.values().stream().mapToLong(Long::longValue).sum();
        long bSum = bFields.values().stream().mapToLong(Long::longValue).sum();
        long cSum = node.diskUsage(c, "fp").values().stream().mapToLong(Long::longValue).sum();
        log.info(String.format(Locale.ROOT, "  storage at %,d docs: simhash object index %.1f B/doc (fields %.1f), simhash field type index "
            + "%.1f B/doc (field %.1f), vector index %.1f B/doc (field %.1f)", n, aBytes / (double) n, aSum / (double) n, cBytes / (double) n,
            cSum / (double) n, bBytes / (double) n, bSum / (double) n));
        return new Storage(dataset, n, aBytes, bBytes, aSum, bSum, aFields, bFields, cBytes, cSum);
    }

    private long storeBytes(String index) {
        return ((Number) BenchNode.at(node.ok("GET", "/" + index + "/_stats/store", null).json(),
            "indices." + index + ".primaries.store.size_in_bytes")).longValue();
    }


    private void checkScript(String index) {
        if (scriptAvailable != null) {
            return;
        }
        BenchNode.Answer ans = node.call("POST", "/" + index + "/_search", scriptBody(0L, 3, 1));
        scriptAvailable = ans.ok();
        if (!scriptAvailable) {
            scriptProblem = "the linear scan needs the simhash script engine (lang simhash), which this build does not have: "
                + BenchNode.abbreviate(ans.body());
            log.warn(scriptProblem);
        }
    }

    private Skew skew(String dataset, long[] fps, long[] queries, int[] radii) {
        int[][] df = new int[SimHash.BLOCKS][1 << SimHash.BLOCK_BITS];
        for (long h : fps) {
            for (int j = 0; j < SimHash.BLOCKS; j++) {
                df[j][SimHash.block(h, j)]++;
            }
        }
        int[] distinct = new int[SimHash.BLOCKS];
        int maxDf = 0;
        for (int j = 0; j < SimHash.BLOCKS; j++) {
            for (int c : df[j]) {
                if (c > 0) {
                    distinct[j]++;
                }
                maxDf = Math.max(maxDf, c);
            }
        }
        Map<Integer, Double> cand = new LinkedHashMap<>();
        int from = cfg.warmup();
        for (int r : radii) {
            int q = BlockProbes.perBlockRadius(r);
            double sum = 0;
            for (int i = from; i < queries.length; i++) {
                for (int j = 0; j < SimHash.BLOCKS; j++) {
                    for (int v : BlockProbes.within(SimHash.block(queries[i], j), q)) {
                        sum += df[j][v];
                    }
                }
            }
            cand.put(r, sum / (queries.length - from));
        }
        return new Skew(dataset, fps.length, distinct, maxDf, cand);
    }

    private String body(Method m, long q, int r) {
        String hex = SimHash.toHex(q);
        return switch (m) {
            case SIMHASH, SIMHASH_FIELD -> "{\"size\":" + cfg.k() + ",\"track_total_hits\":false,\"_source\":false,\"query\":{\"simhash\":"
                + "{\"field\":\"" + (m == Method.SIMHASH ? "simhash" : "fp") + "\",\"hash\":\"" + hex + "\",\"max_distance\":" + r + "}}}";
            case SCRIPT -> scriptBody(q, r, cfg.k());
            case KNN_100, KNN_1000 -> "{\"size\":" + cfg.k() + ",\"track_total_hits\":false,\"_source\":false,\"knn\":{\"field\":\"vec\",\"query_vector\":\""
                + hex + "\",\"k\":" + cfg.k() + ",\"num_candidates\":" + (m == Method.KNN_100 ? 100 : 1000) + ",\"similarity\":" + r + "}}";
        };
    }

    private static String scriptBody(long q, int r, int k) {
        // similarity = (64 - d) / 64 is exact in float, so min_score keeps exactly the documents with d <= r
        return "{\"size\":" + k + ",\"track_total_hits\":false,\"_source\":false,\"query\":{\"script_score\":{\"query\":{\"match_all\":{}},"
            + "\"script\":{\"lang\":\"simhash\",\"source\":\"similarity\",\"params\":{\"field\":\"simhash\",\"hash\":\"" + SimHash.toHex(q) + "\"}},"
            + "\"min_score\":" + ((64 - r) / 64.0) + "}}}";
    }

    private void measure(String dataset, long[] fps, long[] queries, Exact exact, int r, String a, String b, String c) {
        List<Method> methods = new ArrayList<>(List.of(Method.values()));
        if (!scriptAvailable) {
            methods.remove(Method.SCRIPT);
        }
        int measured = queries.length - cfg.warmup();
        Map<Method, double[]> lat = new EnumMap<>(Method.class);
        Map<Method, double[]> took = new EnumMap<>(Method.class);
        Map<Method, List<Double>> recall = new EnumMap<>(Method.class);
        Map<Method, long[]> hits = new EnumMap<>(Method.class);
        for (Method m : methods) {
            lat.put(m, new double[measured]);
            took.put(m, new double[measured]);
            recall.put(m, new ArrayList<>());
            hits.put(m, new long[1]);
        }
        Log.Progress p = log.progress(String.format(Locale.ROOT, "%s %,d docs, max_distance %d: %d methods x %d queries (+%d warm-up)",
            dataset, fps.length, r, methods.size(), measured, cfg.warmup()), (long) methods.size() * queries.length);
        int rounds = (queries.length + cfg.round() - 1) / cfg.round();
        for (int round = 0; round < rounds; round++) {
            int from = round * cfg.round();
            int to = Math.min(queries.length, from + cfg.round());
            for (int mi = 0; mi < methods.size(); mi++) {
                Method m = methods.get((mi + round) % methods.size());
                String index = switch (m.index) {
                    case "A" -> a;
                    case "B" -> b;
                    default -> c;
                };
                for (int qi = from; qi < to; qi++) {
                    BenchNode.Answer ans = node.call("POST", "/" + index + "/_search", body(m, queries[qi], r));
                    if (!ans.ok()) {
                        throw new IllegalStateException(m + " failed: " + BenchNode.abbreviate(ans.body()));
                    }
                    if (qi >= cfg.warmup()) {
                        int i = qi - cfg.warmup();
                        lat.get(m)[i] = ans.nanos() / 1e6;
                        Map<String, Object> json = ans.json();
                        took.get(m)[i] = ((Number) json.get("took")).doubleValue();
                        List<Map<String, Object>> hs = BenchNode.at(json, "hits.hits");
                        List<Integer> dists = new ArrayList<>(hs.size());
                        for (Map<String, Object> h : hs) {
                            dists.add(SimHash.distance(fps[Integer.parseInt((String) h.get("_id"))], queries[qi]));
                        }
                        hits.get(m)[0] += hs.size();
                        double rec = Recall.of(exact.distances(qi, r), dists, cfg.k(), r);
                        if (!Double.isNaN(rec)) {
                            recall.get(m).add(rec);
                        }
                    }
                    p.add(1);
                }
            }
        }
        for (Method m : methods) {
            double[] l = lat.get(m);
            List<Double> rc = recall.get(m);
            double meanRecall = rc.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
            double minRecall = rc.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
            Result res = new Result(dataset, fps.length, r, m, measured, Stats.median(l), Stats.percentile(l, 99), Stats.mean(l),
                Stats.median(took.get(m)), meanRecall, minRecall, hits.get(m)[0] / (double) measured, null);
            results.add(res);
            log.info(String.format(Locale.ROOT, "  %-45s p50 %8.2f ms  p99 %8.2f ms  recall %.4f (%d queries with matches)",
                m.label, res.p50(), res.p99(), meanRecall, rc.size()));
        }
        if (!scriptAvailable) {
            results.add(new Result(dataset, fps.length, r, Method.SCRIPT, 0, Double.NaN, Double.NaN, Double.NaN, Double.NaN,
                Double.NaN, Double.NaN, Double.NaN, "not available: no simhash script engine in this build"));
        }
    }

    /** Exact answers: for every query, the distances of all fingerprints within the largest radius. */
    static final class Exact {
        private final int[][] distances;

        private Exact(int[][] distances) {
            this.distances = distances;
        }

        static Exact compute(long[] fps, long[] queries, int maxR) {
            int[][] out = new int[queries.length][];
            java.util.stream.IntStream.range(0, queries.length).parallel().forEach(qi -> {
                long q = queries[qi];
                int[] buf = new int[16];
                int c = 0;
                for (long h : fps) {
                    int d = Long.bitCount(h ^ q);
                    if (d <= maxR) {
                        if (c == buf.length) {
                            buf = java.util.Arrays.copyOf(buf, c * 2);
                        }
                        buf[c++] = d;
                    }
                }
                out[qi] = java.util.Arrays.copyOf(buf, c);
            });
            return new Exact(out);
        }

        int[] distances(int qi, int r) {
            return java.util.Arrays.stream(distances[qi]).filter(d -> d <= r).toArray();
        }
    }
}
