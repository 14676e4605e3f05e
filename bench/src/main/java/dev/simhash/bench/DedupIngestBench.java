package dev.simhash.bench;

import dev.simhash.core.MinHashSketch;
import dev.simhash.core.SimHash;
import dev.simhash.core.TextFingerprinter;

import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the {@code simhash_dedup} processor costs at ingest: an index of real-like texts ({@link SyntheticTexts}, 1M in a full
 * run) with the default field, then per language batches of real documents bulk-indexed into it through a pipeline
 * without the processor and through the same pipeline with it ({@code tag}), in interleaved rounds (each round a fresh
 * slice of documents, the two pipelines in rotating order). Reports docs/s of each, their ratio per round, how many
 * documents were tagged, the processor's mean time per document from the node's ingest stats, and the p50 of its lookup
 * (the verified query with a document's hash and sketch, sent by a client).
 */
public final class DedupIngestBench {

    static final String INDEX = "bench-dedup";
    static final String PLAIN = "bench-dedup-plain";
    static final String DEDUP = "bench-dedup-tag";
    static final int BULK_DOCS = 500;

    /** One language: docs/s per round of each pipeline, and what the processor did. */
    public record Result(String corpus, int baseDocs, int batchDocs, double[] plainDocsPerSec, double[] dedupDocsPerSec, long tagged,
                         long processed, double processorMeanMs, double lookupP50Ms, double lookupP99Ms, long segments,
                         double mergedLookupP50Ms) {
        double ratio() {
            double[] r = new double[plainDocsPerSec.length];
            for (int i = 0; i < r.length; i++) {
                r[i] = dedupDocsPerSec[i] / plainDocsPerSec[i];
            }
            return Stats.median(r);
        }
    }

    private final BenchNode node;
    private final Log log;
    public final List<Result> results = new ArrayList<>();
    private int baseDocs;
    private double baseLoadSeconds;

    public DedupIngestBench(BenchNode node, Log log) {
        this.node = node;
        this.log = log;
    }

    /** Creates the index and loads {@code n} synthetic texts (ids {@code s<i>}) into it, with two clients. */
    public void loadBase(int n, long seed) {
        node.call("DELETE", "/" + INDEX, null);
        node.ok("PUT", "/" + INDEX, "{\"settings\": {\"number_of_shards\": 1, \"number_of_replicas\": 0}, \"mappings\": {\"properties\": {"
            + "\"body\": {\"type\": \"text\", \"fields\": {\"simhash\": {\"type\": \"simhash\"}}}, \"batch\": {\"type\": \"keyword\"},"
            + "\"duplicate_of\": {\"properties\": {\"index\": {\"type\": \"keyword\"}, \"id\": {\"type\": \"keyword\"}, \"similarity\": {\"type\": \"float\"}}}}}}");
        // the test distribution has no ingest-common module: the pipeline without the processor is an empty one
        node.ok("PUT", "/_ingest/pipeline/" + PLAIN, "{\"processors\": []}");
        node.ok("PUT", "/_ingest/pipeline/" + DEDUP, "{\"processors\": [{\"simhash_dedup\": {\"field\": \"body\"}}]}");
        SyntheticTexts texts = new SyntheticTexts(n, seed);
        long t0 = System.nanoTime();
        TwoClients.loadTexts(node, INDEX, texts, 0, n, BULK_DOCS, log);
        baseDocs = n;
        baseLoadSeconds = (System.nanoTime() - t0) / 1e9;
        log.info(String.format(Locale.ROOT, "  %s: %,d texts in %.0f s", INDEX, n, baseLoadSeconds));
    }

    /**
     * Sends {@code docs} in {@code 2 x (1 + rounds)} slices of {@code batch}: a warm-up slice through each pipeline, then per
     * round one slice through each, in rotating order.
     */
    public void run(String corpus, List<String> docs, int batch, int rounds, int lookups) {
        int slices = 2 * (1 + rounds);
        if (docs.size() < slices * batch) {
            throw new IllegalArgumentException(corpus + ": " + docs.size() + " documents, need " + slices * batch);
        }
        log.info(String.format(Locale.ROOT, "dedup at ingest, %s: %,d documents per slice into %,d, bulks of %d, 2 clients, 1 + %d rounds",
            corpus, batch, baseDocs, BULK_DOCS, rounds));
        long[] before = processorStats();
        double[] plain = new double[rounds];
        double[] dedup = new double[rounds];
        int slice = 0;
        for (int round = -1; round < rounds; round++) {
            for (int k = 0; k < 2; k++) {
                boolean withDedup = (k + Math.max(0, round)) % 2 == 1;
                List<String> part = docs.subList(slice * batch, (slice + 1) * batch);
                String prefix = corpus + "-" + (round + 1) + "-" + (withDedup ? "d" : "p") + "-";
                double secs = send(part, prefix, corpus, withDedup ? DEDUP : PLAIN);
                slice++;
                double dps = batch / secs;
                if (round >= 0) {
                    (withDedup ? dedup : plain)[round] = dps;
                }
                log.info(String.format(Locale.ROOT, "  %s %-24s %8.0f docs/s", round < 0 ? "warm-up   " : "round " + (round + 1) + "/" + rounds,
                    withDedup ? "with simhash_dedup" : "without", dps));
            }
        }
        long[] after = processorStats();
        node.ok("POST", "/" + INDEX + "/_refresh", null);
        long tagged = ((Number) BenchNode.at(node.ok("POST", "/" + INDEX + "/_count",
            "{\"query\": {\"bool\": {\"filter\": [{\"exists\": {\"field\": \"duplicate_of\"}}, {\"term\": {\"batch\": \"" + corpus + "\"}}]}}}")
            .json(), "count")).longValue();
        long processed = after[0] - before[0];
        long segments = segments();
        double meanMs = processed == 0 ? 0 : (after[1] - before[1]) / (double) processed;
        double[] lookup = lookups(docs.subList(0, Math.min(docs.size(), lookups)));
        // the same lookups on the index merged to one segment: how much of their cost the segments of a live index make
        node.ok("POST", "/" + INDEX + "/_forcemerge?max_num_segments=1", null);
        double[] merged = lookups(docs.subList(0, Math.min(docs.size(), lookups)));
        Result r = new Result(corpus, baseDocs, batch, plain, dedup, tagged, processed, meanMs, Stats.median(lookup),
            Stats.percentile(lookup, 99), segments, Stats.median(merged));
        results.add(r);
        log.info(String.format(Locale.ROOT, "  %s: %.2fx without the processor; %,d of %,d documents tagged; processor %.2f ms/doc (mean); "
            + "lookup p50 %.2f ms, p99 %.2f ms over %d segments; p50 %.2f ms once merged to one", corpus, r.ratio(), tagged, processed, meanMs,
            r.lookupP50Ms(), r.lookupP99Ms(), segments, r.mergedLookupP50Ms()));
    }

    /** Bulk-indexes the documents with ids {@code prefix<i>} through the pipeline; returns the seconds until all answered. */
    private double send(List<String> part, String prefix, String batch, String pipeline) {
        long t0 = System.nanoTime();
        TwoClients.load(part.size(), BULK_DOCS, "bulk through " + pipeline, (from, to) -> {
            StringBuilder sb = new StringBuilder();
            for (int i = from; i < to; i++) {
                sb.append("{\"index\":{\"_id\":\"").append(prefix).append(i).append("\"}}\n")
                    .append(BenchNode.toJson(Map.of("body", part.get(i), "batch", batch))).append('\n');
            }
            BenchNode.Answer a = node.bulk("/" + INDEX + "/_bulk?pipeline=" + pipeline, sb.toString());
            if (!a.ok() || !Bench.bulkOk(a.body())) {
                throw new IllegalStateException("bulk through " + pipeline + " failed: " + BenchNode.abbreviate(a.body()));
            }
        });
        return (System.nanoTime() - t0) / 1e9;
    }

    /** The index's segments now. */
    private long segments() {
        Map<String, Object> stats = node.ok("GET", "/" + INDEX + "/_stats/segments", null).json();
        return ((Number) BenchNode.at(stats, "indices." + INDEX + ".primaries.segments.count")).longValue();
    }

    /** {count, time_in_millis} of the dedup pipeline's simhash_dedup processor, from the node's ingest stats. */
    @SuppressWarnings("unchecked")
    private long[] processorStats() {
        Map<String, Object> stats = node.ok("GET", "/_nodes/stats/ingest", null).json();
        Map<String, Object> nodes = (Map<String, Object>) stats.get("nodes");
        long count = 0;
        long millis = 0;
        for (Object n : nodes.values()) {
            List<Map<String, Object>> processors = BenchNode.at(n, "ingest.pipelines." + DEDUP + ".processors");
            if (processors == null) {
                continue;
            }
            for (Map<String, Object> p : processors) {
                Map<String, Object> s = (Map<String, Object>) p.get("simhash_dedup");
                if (s != null) {
                    count += ((Number) BenchNode.at(s, "stats.count")).longValue();
                    millis += ((Number) BenchNode.at(s, "stats.time_in_millis")).longValue();
                }
            }
        }
        return new long[] { count, millis };
    }

    /** Latencies (ms) of the processor's lookup for these texts, one client: the verified query by hash and sketch. */
    private double[] lookups(List<String> texts) {
        TextFingerprinter v2 = TextFingerprinter.v2(1);
        List<String> bodies = new ArrayList<>();
        for (String t : texts) {
            if (v2.fingerprint(t).isEmpty()) {
                continue;
            }
            bodies.add("{\"size\": 1, \"_source\": false, \"track_total_hits\": false, \"query\": {\"simhash\": {\"field\": \"body.simhash\","
                + " \"hash\": \"" + SimHash.toHex(v2.fingerprint(t).getAsLong()) + "\", \"sketch\": \""
                + Base64.getEncoder().encodeToString(MinHashSketch.V1.sketch(t)) + "\", \"min_similarity\": 0.8}}}");
        }
        AtomicLong sink = new AtomicLong();
        for (int i = 0; i < Math.min(50, bodies.size()); i++) {
            sink.addAndGet(node.ok("POST", "/" + INDEX + "/_search", bodies.get(i)).body().length());
        }
        double[] ms = new double[bodies.size()];
        for (int i = 0; i < bodies.size(); i++) {
            ms[i] = node.ok("POST", "/" + INDEX + "/_search", bodies.get(i)).nanos() / 1e6;
        }
        return ms;
    }

    /** Deletes the index and the pipelines. */
    public void cleanUp() {
        node.call("DELETE", "/" + INDEX, null);
        node.call("DELETE", "/_ingest/pipeline/" + PLAIN, null);
        node.call("DELETE", "/_ingest/pipeline/" + DEDUP, null);
    }

    /** The report's section. */
    void write(StringBuilder md) {
        md.append("## 7. Near-duplicates caught at ingest: the `simhash_dedup` processor (`--only dedup-ingest`)\n\n");
        md.append(String.format(Locale.ROOT, "An index (1 shard, 0 replicas, refresh every second) of %,d real-like texts with the default "
            + "`simhash` field (loaded in %.0f s); then, per language, slices of real documents bulk-indexed into it (%d per bulk, 2 "
            + "clients, explicit ids) through an empty pipeline, and through a pipeline with `simhash_dedup` "
            + "(`tag`, defaults), one slice each per round, in rotating order after a warm-up round. docs/s until every bulk answered; "
            + "the ratio is the median over the rounds of the round's ratio. The processor's time per document is the node's ingest "
            + "stats (from the document's arrival to its lookup's answer); the lookup's latency is the same verified query (the "
            + "document's hash and sketch, `min_similarity` 0.8, size 1) sent by one client.\n\n", baseDocs, baseLoadSeconds, BULK_DOCS));
        md.append("| corpus | index docs | slice | without (docs/s) | with (docs/s) | with / without | rounds (without / with) | tagged | processor ms/doc | lookup p50 ms | lookup p99 ms | segments | lookup p50 ms, 1 segment |\n")
            .append("| --- | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n");
        for (Result r : results) {
            StringBuilder rounds = new StringBuilder();
            for (int i = 0; i < r.plainDocsPerSec().length; i++) {
                rounds.append(i == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.0f / %.0f", r.plainDocsPerSec()[i], r.dedupDocsPerSec()[i]));
            }
            md.append(String.format(Locale.ROOT, "| %s | %,d | %,d | %,.0f | %,.0f | %.2fx | %s | %,d of %,d | %.2f | %.2f | %.2f | %d | %.2f |\n",
                r.corpus(), r.baseDocs(), r.batchDocs(), Stats.median(r.plainDocsPerSec()), Stats.median(r.dedupDocsPerSec()), r.ratio(), rounds,
                r.tagged(), r.processed(), r.processorMeanMs(), r.lookupP50Ms(), r.lookupP99Ms(), r.segments(), r.mergedLookupP50Ms()));
        }
        md.append('\n');
    }
}
