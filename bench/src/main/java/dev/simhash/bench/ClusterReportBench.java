package dev.simhash.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The whole-index report at the default on a 3-node loopback cluster ({@code --only report-cluster}): one index of 3
 * shards with 1 replica of real-like texts ({@link SyntheticTexts}), the report sent to the first node, at the default (the
 * shards send their candidates) and with a {@code match_all} query (the first node reads every document); two runs each,
 * interleaved. Besides the times and the report's peak charge, each node's transport bytes received and sent during the
 * report ({@code _nodes/stats/transport}): the network volume per node.
 */
public final class ClusterReportBench {

    static final String INDEX = "bench-report-cluster";
    static final int BULK_DOCS = 500;
    static final int RUNS = 2;

    /** One report run; {@code rx} and {@code tx}: bytes per node name. */
    record Run(String setting, int run, long tookMs, long readMs, long groupMs, long groups, long peakBytes, Map<String, long[]> bytes) {}

    private final BenchNode node;
    private final Log log;
    final List<Run> runs = new ArrayList<>();
    private int docs;

    ClusterReportBench(BenchNode node, Log log) {
        this.node = node;
        this.log = log;
    }

    void run(int docs, double clusteredShare, long seed) {
        this.docs = docs;
        SyntheticTexts texts = new SyntheticTexts(docs, seed, clusteredShare);
        node.call("DELETE", "/" + INDEX, null);
        node.ok("PUT", "/" + INDEX, "{\"settings\": {\"number_of_shards\": 3, \"number_of_replicas\": 1}, \"mappings\": {\"properties\": {"
            + "\"body\": {\"type\": \"text\", \"fields\": {\"simhash\": {\"type\": \"simhash\"}}}}}}");
        TwoClients.loadTexts(node, INDEX, texts, 0, docs, BULK_DOCS, log);
        node.ok("POST", "/" + INDEX + "/_refresh", null);
        node.ok("GET", "/_cluster/health/" + INDEX + "?wait_for_status=green&timeout=10m", null);
        for (int run = 1; run <= RUNS; run++) {
            measure("default", "{\"field\": \"body.simhash\"}", run);
            measure("default, all read", "{\"field\": \"body.simhash\", \"query\": {\"match_all\": {}}}", run);
        }
    }

    /** Bytes received and sent over the transport by each node so far, by node name. */
    private Map<String, long[]> transport() {
        Map<String, Object> stats = node.ok("GET", "/_nodes/stats/transport", null).json();
        Map<String, long[]> out = new LinkedHashMap<>();
        @SuppressWarnings("unchecked")
        Map<String, Object> nodes = (Map<String, Object>) stats.get("nodes");
        nodes.values().forEach(n -> {
            @SuppressWarnings("unchecked")
            Map<String, Object> m = (Map<String, Object>) n;
            out.put((String) m.get("name"), new long[] { num(m, "transport.rx_size_in_bytes"), num(m, "transport.tx_size_in_bytes") });
        });
        return new java.util.TreeMap<>(out);
    }

    private void measure(String setting, String body, int run) {
        Map<String, long[]> before = transport();
        Map<String, Object> r = node.ok("POST", "/" + INDEX + "/_simhash/duplicates", body).json();
        Map<String, long[]> after = transport();
        Map<String, long[]> delta = new LinkedHashMap<>();
        after.forEach((name, a) -> {
            long[] b = before.getOrDefault(name, new long[2]);
            delta.put(name, new long[] { a[0] - b[0], a[1] - b[1] });
        });
        Run x = new Run(setting, run, num(r, "took_ms"), num(r, "phases_ms.read"), num(r, "phases_ms.group"), num(r, "groups_total"),
            num(r, "peak_memory_bytes"), delta);
        runs.add(x);
        StringBuilder net = new StringBuilder();
        delta.forEach((name, d) -> net.append(String.format(Locale.ROOT, " %s rx %,d / tx %,d KB;", name, d[0] >> 10, d[1] >> 10)));
        log.info(String.format(Locale.ROOT, "  3 nodes, %,d docs, %-17s run %d: %,d ms (read %,d, group %,d), %,d groups, peak %,.1f MB;%s",
            docs, setting, run, x.tookMs(), x.readMs(), x.groupMs(), x.groups(), x.peakBytes() / 1048576.0, net));
    }

    private static long num(Map<String, Object> m, String path) {
        Object v = m;
        for (String part : path.split("\\.")) {
            v = ((Map<?, ?>) v).get(part);
        }
        return ((Number) v).longValue();
    }

    void cleanUp() {
        node.call("DELETE", "/" + INDEX, null);
    }

    void write(StringBuilder md) {
        md.append("## 8b. The whole-index report on 3 nodes (`--only report-cluster`)\n\n");
        md.append(String.format(Locale.ROOT, "Three nodes on loopback; one index of 3 shards with 1 replica, %,d real-like texts with the "
            + "default `simhash` field (bulks of %d, refreshed, not merged); the report sent to the first node, %d runs each, interleaved: "
            + "the default (`{\"field\": \"body.simhash\"}`: the shards send only the documents sharing a band value) and the same with "
            + "`\"query\": {\"match_all\": {}}` (\"all read\": the first node reads every document). Network: each node's transport bytes "
            + "received (rx) and sent (tx) during the report, from `_nodes/stats/transport` (the stats requests themselves are in it: "
            + "a few KB).%n%n", docs, BULK_DOCS, RUNS));
        md.append("| report | run | took ms | read ms | group ms | groups | peak MB | network per node, rx / tx KB |\n")
            .append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n");
        for (Run r : runs) {
            StringBuilder net = new StringBuilder();
            r.bytes().forEach((name, d) -> net.append(String.format(Locale.ROOT, "%s %,d / %,d; ", name, d[0] >> 10, d[1] >> 10)));
            md.append(String.format(Locale.ROOT, "| %s | %d | %,d | %,d | %,d | %,d | %,.1f | %s |\n", r.setting(), r.run(), r.tookMs(),
                r.readMs(), r.groupMs(), r.groups(), r.peakBytes() / 1048576.0, net.toString().trim()));
        }
        md.append('\n');
    }
}
