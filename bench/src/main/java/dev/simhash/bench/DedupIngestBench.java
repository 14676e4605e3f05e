package dev.simhash.bench;

import dev.simhash.core.MinHashSketch;
import dev.simhash.core.SimHash;
import dev.simhash.core.TextFingerprinter;

import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
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
    /** The node setting that switches the shards' filters of band values off (and on again). */
    static final String BAND_FILTER = "simhash.band_filter.enabled";

    /** One language: docs/s per round of each pipeline, and what the processor did. */
    public record Result(String corpus, int baseDocs, int batchDocs, int bulkDocs, double[] plainDocsPerSec, double[] dedupDocsPerSec,
                         long tagged, long processed, double processorMeanMs, double lookupP50Ms, double lookupP99Ms,
                         double newTextLookupP50Ms, double unfilteredNewTextLookupP50Ms, long segments, double mergedLookupP50Ms) {
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
        settle();
    }

    /**
     * Waits until the load's merges are done and the shard's filter of band values is built (the first verified query
     * starts it): the slices then measure indexing beside lookups, not the tail of the load.
     */
    private void settle() {
        long t0 = System.nanoTime();
        node.ok("POST", "/" + INDEX + "/_refresh", null);
        long deadline = System.currentTimeMillis() + 300_000;
        while (System.currentTimeMillis() < deadline
            && ((Number) BenchNode.at(node.ok("GET", "/" + INDEX + "/_stats/merge", null).json(), "_all.total.merges.current")).longValue() > 0) {
            pause(500);
        }
        String absent = "{\"size\": 0, \"profile\": true, \"query\": {\"simhash\": {\"field\": \"body.simhash\", \"text\": \"%s\"}}}";
        SyntheticTexts probes = new SyntheticTexts(200, 99L);
        for (int i = 0; i < probes.size() && System.currentTimeMillis() < deadline; i++) {
            String body = node.ok("POST", "/" + INDEX + "/_search", String.format(Locale.ROOT, absent, probes.text(i).replace("\"", ""))).body();
            if (body.contains("MatchNoDocsQuery")) {
                break;
            }
            pause(250);
        }
        log.info(String.format(Locale.ROOT, "  merges done and the band filter built in %.0f s", (System.nanoTime() - t0) / 1e9));
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
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
        // every document sent once: a corpus with fewer distinct documents than the slices take gets smaller slices (a
        // document sent again would find its own earlier copy, which is not what a feed of new documents does)
        int distinct = new HashSet<>(docs).size();
        batch = Math.min(batch, distinct / slices);
        int bulk = Math.min(BULK_DOCS, Math.max(50, batch / 4));
        log.info(String.format(Locale.ROOT, "dedup at ingest, %s: %,d documents per slice (of %,d distinct) into %,d, bulks of %d, 2 clients, "
            + "1 + %d rounds", corpus, batch, distinct, baseDocs, bulk, rounds));
        long[] before = processorStats();
        double[] plain = new double[rounds];
        double[] dedup = new double[rounds];
        int slice = 0;
        for (int round = -1; round < rounds; round++) {
            for (int k = 0; k < 2; k++) {
                boolean withDedup = (k + Math.max(0, round)) % 2 == 1;
                List<String> part = docs.subList(slice * batch, (slice + 1) * batch);
                String prefix = corpus + "-" + (round + 1) + "-" + (withDedup ? "d" : "p") + "-";
                double secs = send(part, prefix, corpus, withDedup ? DEDUP : PLAIN, bulk);
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
        // texts the index has no near-duplicate of (what most documents of a feed are), with the shard's filter of band
        // values and without it (every band value looked up in the points)
        SyntheticTexts fresh = new SyntheticTexts(lookups, 7L * lookups + corpus.hashCode());
        List<String> newTexts = new ArrayList<>();
        for (int i = 0; i < fresh.size(); i++) {
            newTexts.add(fresh.text(i));
        }
        double[] newText = lookups(newTexts);
        node.ok("PUT", "/_cluster/settings", "{\"persistent\": {\"" + BAND_FILTER + "\": false}}");
        double[] unfiltered;
        try {
            unfiltered = lookups(newTexts);
        } finally {
            node.ok("PUT", "/_cluster/settings", "{\"persistent\": {\"" + BAND_FILTER + "\": null}}");
        }
        // switched on again, the filter is built anew: wait for it, as after the load
        settle();
        // the same lookups on the index merged to one segment: how much of their cost the segments of a live index make
        node.ok("POST", "/" + INDEX + "/_forcemerge?max_num_segments=1", null);
        double[] merged = lookups(docs.subList(0, Math.min(docs.size(), lookups)));
        Result r = new Result(corpus, baseDocs, batch, bulk, plain, dedup, tagged, processed, meanMs, Stats.median(lookup),
            Stats.percentile(lookup, 99), Stats.median(newText), Stats.median(unfiltered), segments, Stats.median(merged));
        results.add(r);
        log.info(String.format(Locale.ROOT, "  %s: %.2fx without the processor; %,d of %,d documents tagged; processor %.2f ms/doc (mean); "
            + "lookup p50 %.2f ms, p99 %.2f ms over %d segments; of a new text p50 %.2f ms (%.2f ms without the band filter); p50 %.2f ms once "
            + "merged to one", corpus, r.ratio(), tagged, processed, meanMs, r.lookupP50Ms(), r.lookupP99Ms(), segments, r.newTextLookupP50Ms(),
            r.unfilteredNewTextLookupP50Ms(), r.mergedLookupP50Ms()));
    }

    /** Bulk-indexes the documents with ids {@code prefix<i>} through the pipeline; returns the seconds until all answered. */
    private double send(List<String> part, String prefix, String batch, String pipeline, int bulk) {
        long t0 = System.nanoTime();
        TwoClients.load(part.size(), bulk, "bulk through " + pipeline, (from, to) -> {
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
            + "`simhash` field (loaded in %.0f s; then left until its merges were done and the shard's filter of band values was built); then, per language, slices of real documents, each sent once, bulk-indexed into it "
            + "(%d per bulk or fewer for a small corpus, 2 clients, explicit ids) through an empty pipeline, and through a pipeline with `simhash_dedup` "
            + "(`tag`, defaults), one slice each per round, in rotating order after a warm-up round. docs/s until every bulk answered; "
            + "the ratio is the median over the rounds of the round's ratio. The processor's time per document is the node's ingest "
            + "stats (from the document's arrival to its lookup's answer); the lookup's latency is the same verified query (the "
            + "document's hash and sketch, `min_similarity` 0.8, size 1) sent by one client for documents of the slices (the index has them); "
            + "then for new texts (real-like texts the index has no near-duplicate of), with the shards' filters of band values and with "
            + "them switched off (`" + BAND_FILTER + "`: every band value looked up in the points).\n\n", baseDocs, baseLoadSeconds, BULK_DOCS));
        md.append("| corpus | index docs | slice | bulk | without (docs/s) | with (docs/s) | with / without | rounds (without / with) | tagged | processor ms/doc | lookup p50 ms | lookup p99 ms | new text: lookup p50 ms | new text, no band filter: lookup p50 ms | segments | lookup p50 ms, 1 segment |\n")
            .append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
        for (Result r : results) {
            StringBuilder rounds = new StringBuilder();
            for (int i = 0; i < r.plainDocsPerSec().length; i++) {
                rounds.append(i == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.0f / %.0f", r.plainDocsPerSec()[i], r.dedupDocsPerSec()[i]));
            }
            md.append(String.format(Locale.ROOT, "| %s | %,d | %,d | %d | %,.0f | %,.0f | %.2fx | %s | %,d of %,d | %.2f | %.2f | %.2f | %.2f | %.2f | %d | %.2f |\n",
                r.corpus(), r.baseDocs(), r.batchDocs(), r.bulkDocs(), Stats.median(r.plainDocsPerSec()), Stats.median(r.dedupDocsPerSec()), r.ratio(),
                rounds, r.tagged(), r.processed(), r.processorMeanMs(), r.lookupP50Ms(), r.lookupP99Ms(), r.newTextLookupP50Ms(), r.unfilteredNewTextLookupP50Ms(), r.segments(),
                r.mergedLookupP50Ms()));
        }
        md.append('\n');
    }
}
