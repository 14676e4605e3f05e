package dev.simhash.bench;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Bulk indexing throughput of the same text documents without a fingerprint, with the {@code simhash} field type and
 * with the {@code simhash} ingest pipeline (simhash-v2 defaults, simhash-v1 defaults, v1 with {@code standard}), on the
 * same node, one corpus (language) at a time. Variants alternate round by round (fresh index each time) and the median
 * round counts, so a noisy neighbour slows all variants alike. For pipelines the processor's own time per document comes
 * from the node's ingest stats.
 */
public final class IndexingBench {

    /** One variant's median round. */
    public record Result(String corpus, String variant, int docs, double mb, double docsPerSec, double mbPerSec, double[] roundDocsPerSec,
                         double processorMicrosPerDoc) {}

    /** The variant everything is compared with. */
    public static final String PLAIN = "plain (no fingerprint)";
    public static final String FIELD_V2 = "field type, v2 (default)";
    public static final String PIPELINE_V2 = "pipeline, v2";

    static final String SETTINGS = "\"settings\": {\"number_of_shards\": 1, \"number_of_replicas\": 0%s}";
    /** The processor's object form. */
    static final String MAPPING = "{" + SETTINGS + ","
        + " \"mappings\": {\"properties\": {\"body\": {\"type\": \"text\"}, \"simhash\": {\"properties\": {\"hash\": {\"type\": \"long\"},"
        + " \"b0\": {\"type\": \"keyword\", \"doc_values\": false}, \"b1\": {\"type\": \"keyword\", \"doc_values\": false},"
        + " \"b2\": {\"type\": \"keyword\", \"doc_values\": false}, \"b3\": {\"type\": \"keyword\", \"doc_values\": false}}}}}}";
    /** Plain indexing: the text field alone. */
    static final String PLAIN_MAPPING = "{" + SETTINGS + ", \"mappings\": {\"properties\": {\"body\": {\"type\": \"text\"}}}}";
    /** The simhash field type as a multi-field of the text, with the given extra options. */
    static final String FIELD_TYPE_MAPPING = "{" + SETTINGS + ", \"mappings\": {\"properties\": {\"body\": {\"type\": \"text\","
        + " \"fields\": {\"simhash\": {\"type\": \"simhash\"%s}}}}}}";

    /** One way of indexing: its mapping (a format with the settings' extra part) and pipeline (null: none). */
    record Variant(String mapping, String pipeline, String fingerprintField) {}

    private final BenchNode node;
    private final Log log;
    /** Whether the v1 default (smartcn) variants run. */
    private final boolean smartcn;
    public final List<Result> results = new ArrayList<>();

    public IndexingBench(BenchNode node, Log log, boolean smartcn) {
        this.node = node;
        this.log = log;
        this.smartcn = smartcn;
    }

    /**
     * Indexes {@code docs} of one corpus once per variant per round: plain, the field type and the pipeline with
     * simhash-v2 (the field type's default), with simhash-v1's defaults (smartcn) and with v1 and {@code standard}.
     */
    public void run(String corpus, List<String> docs, int rounds, int bulkDocs) {
        Map<String, String> pipelines = new LinkedHashMap<>();
        pipelines.put("bench-simhash-v2", "{\"field\": \"body\", \"version\": \"v2\"}");
        pipelines.put("bench-simhash-v1", "{\"field\": \"body\"}");
        pipelines.put("bench-simhash-v1-standard", "{\"field\": \"body\", \"analyzer\": \"standard\"}");
        pipelines.forEach((name, options) -> node.ok("PUT", "/_ingest/pipeline/" + name, "{\"processors\": [{\"simhash\": " + options + "}]}"));
        Map<String, Variant> variants = new LinkedHashMap<>();
        variants.put(PLAIN, new Variant(PLAIN_MAPPING, null, null));
        variants.put(FIELD_V2, new Variant(String.format(Locale.ROOT, FIELD_TYPE_MAPPING, "%s", ""), null, "body.simhash"));
        variants.put(PIPELINE_V2, new Variant(MAPPING, "bench-simhash-v2", "simhash.hash"));
        if (smartcn) {
            // the slowest variants by far: --no-smartcn leaves them out when iterating on the others
            variants.put("field type, v1 (smartcn)", new Variant(String.format(Locale.ROOT, FIELD_TYPE_MAPPING, "%s",
                ", \"version\": \"v1\""), null, "body.simhash"));
            variants.put("pipeline, v1 default (smartcn)", new Variant(MAPPING, "bench-simhash-v1", "simhash.hash"));
        }
        variants.put("field type, v1 standard", new Variant(String.format(Locale.ROOT, FIELD_TYPE_MAPPING, "%s",
            ", \"version\": \"v1\", \"analyzer\": \"standard\""), null, "body.simhash"));
        variants.put("pipeline, v1 standard", new Variant(MAPPING, "bench-simhash-v1-standard", "simhash.hash"));
        List<String> sources = new ArrayList<>(docs.size());
        double mb = 0;
        for (String d : docs) {
            String src = BenchNode.toJson(Map.of("body", d));
            sources.add(src);
            mb += src.getBytes(StandardCharsets.UTF_8).length / 1e6;
        }
        log.info(String.format(Locale.ROOT, "indexing throughput, %s: %,d docs (%.1f MB of JSON) x %d variants x %d rounds, bulks of %d, "
            + "2 clients", corpus, docs.size(), mb, variants.size(), rounds, bulkDocs));
        Map<String, double[]> perRound = new LinkedHashMap<>();
        Map<String, double[]> micros = new LinkedHashMap<>();
        variants.keySet().forEach(v -> {
            perRound.put(v, new double[rounds]);
            micros.put(v, new double[rounds]);
        });
        List<String> names = new ArrayList<>(variants.keySet());
        // round -1 warms up the node (JIT, pipeline, analyzers) and is not counted
        for (int round = -1; round < rounds; round++) {
            for (int vi = 0; vi < names.size(); vi++) {
                String v = names.get((vi + Math.max(0, round)) % names.size());
                Variant variant = variants.get(v);
                String pipeline = variant.pipeline();
                String index = "bench-indexing";
                node.call("DELETE", "/" + index, null);
                node.ok("PUT", "/" + index, String.format(Locale.ROOT, variant.mapping(),
                    pipeline == null ? "" : ", \"index.default_pipeline\": \"" + pipeline + "\""));
                long[] before = pipeline == null ? null : processorStats(pipeline);
                double secs = TwoClients.loadAndRefresh(node, index, sources, bulkDocs);
                double dps = sources.size() / secs;
                double us = Double.NaN;
                if (pipeline != null) {
                    long[] after = processorStats(pipeline);
                    us = after[0] == before[0] ? Double.NaN : 1000.0 * (after[1] - before[1]) / (after[0] - before[0]);
                }
                if (round >= 0) {
                    perRound.get(v)[round] = dps;
                    micros.get(v)[round] = us;
                }
                if (variant.fingerprintField() != null && round == -1) {
                    long withFp = ((Number) BenchNode.at(node.ok("POST", "/" + index + "/_count",
                        "{\"query\": {\"exists\": {\"field\": \"" + variant.fingerprintField() + "\"}}}").json(), "count")).longValue();
                    if (withFp < sources.size() * 9 / 10) {
                        throw new IllegalStateException(v + " fingerprinted only " + withFp + " of " + sources.size() + " documents");
                    }
                }
                log.info(String.format(Locale.ROOT, "  %s %-34s %8.0f docs/s %6.2f MB/s%s",
                    round < 0 ? "warm-up   " : "round " + (round + 1) + "/" + rounds, v, dps, mb / secs,
                    Double.isNaN(us) ? "" : String.format(Locale.ROOT, " %6.1f us/doc in the processor", us)));
                node.call("DELETE", "/" + index, null);
            }
        }
        for (String v : names) {
            double dps = Stats.median(perRound.get(v));
            double[] u = micros.get(v);
            results.add(new Result(corpus, v, sources.size(), mb, dps, dps * mb / sources.size(), perRound.get(v),
                Double.isNaN(u[0]) ? Double.NaN : Stats.median(u)));
        }
    }

    /** The simhash processor's document count and time (ms) in a pipeline, summed over the nodes' ingest stats. */
    private long[] processorStats(String pipeline) {
        Map<String, Object> stats = node.ok("GET", "/_nodes/stats/ingest", null).json();
        long count = 0;
        long millis = 0;
        @SuppressWarnings("unchecked")
        Map<String, Object> nodes = (Map<String, Object>) stats.get("nodes");
        for (Object n : nodes.values()) {
            Object processors = BenchNode.at(n, "ingest.pipelines." + pipeline + ".processors");
            if (processors instanceof List<?> list) {
                for (Object p : list) {
                    Object st = BenchNode.at(p, "simhash.stats");
                    if (st instanceof Map<?, ?> m) {
                        count += ((Number) m.get("count")).longValue();
                        millis += ((Number) m.get("time_in_millis")).longValue();
                    }
                }
            }
        }
        return new long[] { count, millis };
    }
}
