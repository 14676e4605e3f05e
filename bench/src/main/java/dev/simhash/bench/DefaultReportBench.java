package dev.simhash.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The whole-index report as a user runs it ({@code --only report-default}): one index (1 shard, no replica) of real-like
 * texts ({@link SyntheticTexts}, their clusters spread within blocks of {@value #SPREAD}: each size holds whole clusters)
 * with the default {@code simhash} field, grown from one size to the next; at each size,
 * interleaved, the report with the defaults ({@code {"field": "body.simhash"}}: {@code min_similarity} 0.8, candidates from
 * the sketch's bands, read on the shards), the same with a {@code match_all} query (every document read by the node that
 * runs the report) and with {@code max_distance} 6 (the fingerprint radius alone). Reports each run's time and phases,
 * the groups found and the report's peak charge, and how the default report's time grows with the documents.
 */
public final class DefaultReportBench {

    static final String INDEX = "bench-report-default";
    static final int BULK_DOCS = 500;
    static final int RUNS = 2;
    /** The corpus's clusters are spread within blocks of this many documents (sizes are multiples of it). */
    static final int SPREAD = 100_000;

    /** One report run. */
    public record Run(int docs, String setting, int run, long tookMs, long readMs, long groupMs, long membersMs, long groups,
                      long duplicates, long peakBytes, String candidates) {}

    private final BenchNode node;
    private final Log log;
    public final List<Run> runs = new ArrayList<>();
    private final List<long[]> loads = new ArrayList<>();
    private SyntheticTexts texts;
    private int loaded;

    private final double clusteredShare;

    public DefaultReportBench(BenchNode node, Log log, double clusteredShare) {
        this.node = node;
        this.log = log;
        this.clusteredShare = clusteredShare;
    }

    /** Grows the index to {@code docs} texts (ids {@code s<i>}), then times the reports. */
    public void run(int docs, int maxDocs, long seed) {
        if (texts == null) {
            // clusters spread within blocks: every size measured holds whole clusters, the same share of near-duplicates
            texts = new SyntheticTexts(maxDocs, seed, clusteredShare, SPREAD);
            node.call("DELETE", "/" + INDEX, null);
            node.ok("PUT", "/" + INDEX, "{\"settings\": {\"number_of_shards\": 1, \"number_of_replicas\": 0}, \"mappings\": {\"properties\": {"
                + "\"body\": {\"type\": \"text\", \"fields\": {\"simhash\": {\"type\": \"simhash\"}}}}}}");
        }
        long t0 = System.nanoTime();
        TwoClients.loadTexts(node, INDEX, texts, loaded, docs, BULK_DOCS, log);
        loads.add(new long[] { docs, (System.nanoTime() - t0) / 1_000_000_000 });
        loaded = docs;
        log.info(String.format(Locale.ROOT, "  %s: %,d texts (loaded up to here in %d s)", INDEX, docs, loads.get(loads.size() - 1)[1]));
        for (int run = 1; run <= RUNS; run++) {
            measure(docs, "default", "{\"field\": \"body.simhash\"}", run);
            // the same report with a query: this node reads every document (the path before the shards sent only candidates)
            measure(docs, "default, all read", "{\"field\": \"body.simhash\", \"query\": {\"match_all\": {}}}", run);
            measure(docs, "max_distance 6", "{\"field\": \"body.simhash\", \"max_distance\": 6}", run);
        }
    }

    private void measure(int docs, String setting, String body, int run) {
        BenchNode.Answer a = node.ok("POST", "/" + INDEX + "/_simhash/duplicates", body);
        Map<String, Object> r = a.json();
        Run x = new Run(docs, setting, run, num(r, "took_ms"), num(r, "phases_ms.read"), num(r, "phases_ms.group"),
            num(r, "phases_ms.members"), num(r, "groups_total"), num(r, "duplicates_total"), num(r, "peak_memory_bytes"),
            BenchNode.at(r, "candidates"));
        runs.add(x);
        log.info(String.format(Locale.ROOT, "  %,d docs, %-15s run %d: %,d ms (read %,d, group %,d, members %,d), %,d groups, peak %,.1f MB",
            docs, setting, run, x.tookMs(), x.readMs(), x.groupMs(), x.membersMs(), x.groups(), x.peakBytes() / 1048576.0));
    }

    private static long num(Map<String, Object> json, String path) {
        Number n = BenchNode.at(json, path);
        return n == null ? -1 : n.longValue();
    }

    /** The fastest default run at {@code docs}, in ms, or -1. */
    long bestDefault(int docs) {
        return runs.stream().filter(r -> r.docs() == docs && r.setting().equals("default")).mapToLong(Run::tookMs).min().orElse(-1);
    }

    /** The sizes measured, ascending. */
    List<Integer> sizes() {
        return runs.stream().map(Run::docs).distinct().sorted().toList();
    }

    public void cleanUp() {
        node.call("DELETE", "/" + INDEX, null);
    }

    /** The report's section. */
    void write(StringBuilder md) {
        md.append("## 8. The whole-index report at the default (`--only report-default`)\n\n");
        md.append(String.format(Locale.ROOT, "One index (1 shard, 0 replicas) of real-like texts (%.0f%% in planted clusters of near-duplicates, "
            + "each cluster within a block of %,d documents: every size holds whole clusters) with the default `simhash` field, grown from one size to the next (bulks of %d, 2 clients, refreshed, not merged). At each "
            + "size, %d runs each, interleaved: `POST %s/_simhash/duplicates` with `{\"field\": \"body.simhash\"}` (the default: "
            + "`min_similarity` 0.8: the shards send only the documents sharing a band value), the same with `\"query\": {\"match_all\": "
            + "{}}` (\"all read\": the node that runs the report reads every document, as before the shards sent candidates) and with "
            + "`max_distance` 6. Times are the response's `took_ms` and `phases_ms`; peak is its `peak_memory_bytes` (what the report "
            + "charged to the request breaker of the node that runs it; the shards' own transient arrays are charged on their nodes "
            + "and are not in it).%n%n", clusteredShare * 100, SPREAD, BULK_DOCS, RUNS, INDEX));
        md.append("| documents | report | run | took ms | read ms | group ms | members ms | candidates | groups | duplicates | peak MB |\n")
            .append("| ---: | --- | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: |\n");
        for (Run r : runs) {
            md.append(String.format(Locale.ROOT, "| %,d | %s | %d | %,d | %,d | %,d | %,d | %s | %,d | %,d | %,.1f |\n", r.docs(), r.setting(),
                r.run(), r.tookMs(), r.readMs(), r.groupMs(), r.membersMs(), r.candidates() == null ? "radius" : r.candidates(), r.groups(),
                r.duplicates(), r.peakBytes() / 1048576.0));
        }
        List<Integer> sizes = sizes();
        for (int i = 1; i < sizes.size(); i++) {
            int a = sizes.get(i - 1);
            int b = sizes.get(i);
            md.append(String.format(Locale.ROOT, "%nDefault report, best run: %,d -> %,d documents (%.1fx) took %.2fx the time (%,d -> %,d ms).%n",
                a, b, b / (double) a, bestDefault(b) / (double) bestDefault(a), bestDefault(a), bestDefault(b)));
        }
        md.append('\n');
    }
}
