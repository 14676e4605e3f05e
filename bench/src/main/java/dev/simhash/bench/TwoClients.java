package dev.simhash.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/** Loads documents 0..n-1 in batches with two concurrent clients, as a user's bulk indexer on a 2-core node would. */
final class TwoClients {

    /** Sends the documents [from, to) in one bulk request; throws when the node refuses any of them. */
    interface Batch {
        void send(int from, int to);
    }

    private TwoClients() {}

    /** Sends all n documents, {@code batchDocs} per request, two requests at a time; fails naming {@code what}. */
    static void load(int n, int batchDocs, String what, Batch batch) {
        AtomicInteger next = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<?>> clients = new ArrayList<>();
            for (int t = 0; t < 2; t++) {
                clients.add(pool.submit(() -> {
                    int from;
                    while ((from = next.getAndAdd(batchDocs)) < n) {
                        batch.send(from, Math.min(n, from + batchDocs));
                    }
                    return null;
                }));
            }
            for (Future<?> f : clients) {
                f.get();
            }
        } catch (Exception e) {
            throw new IllegalStateException(what + " failed", e);
        } finally {
            pool.shutdownNow();
        }
    }

    /** Sends one bulk body to {@code index}; throws with the node's answer when any document failed. */
    /** Bulk-indexes all sources (JSON documents) into {@code index} with two concurrent clients, then refreshes; returns the seconds taken. */
    static double loadAndRefresh(BenchNode node, String index, List<String> sources, int bulkDocs) {
        long t0 = System.nanoTime();
        load(sources.size(), bulkDocs, "bulk indexing into " + index, (from, to) -> {
            StringBuilder sb = new StringBuilder();
            for (int i = from; i < to; i++) {
                sb.append("{\"index\":{}}\n").append(sources.get(i)).append('\n');
            }
            bulk(node, index, sb.toString());
        });
        node.ok("POST", "/" + index + "/_refresh", null);
        return (System.nanoTime() - t0) / 1e9;
    }

    /**
     * Bulk-indexes synthetic texts {@code from .. to-1} into {@code index} as {@code {"body": text}} with ids {@code s<i>}, two
     * clients at a time, showing progress in {@code log}, then refreshes.
     */
    static void loadTexts(BenchNode node, String index, SyntheticTexts texts, int from, int to, int bulkDocs, Log log) {
        Log.Progress p = log.progress("loading " + index, to - from);
        load(to - from, bulkDocs, "loading " + index, (a, b) -> {
            StringBuilder sb = new StringBuilder();
            for (int i = from + a; i < from + b; i++) {
                sb.append("{\"index\":{\"_id\":\"s").append(i).append("\"}}\n").append(BenchNode.toJson(Map.of("body", texts.text(i)))).append('\n');
            }
            bulk(node, index, sb.toString());
            p.add(b - a);
        });
        node.ok("POST", "/" + index + "/_refresh", null);
    }

    static BenchNode.Answer bulk(BenchNode node, String index, String ndjson) {
        BenchNode.Answer ans = node.bulk("/" + index + "/_bulk", ndjson);
        if (!ans.ok() || !Bench.bulkOk(ans.body())) {
            throw new IllegalStateException("bulk into " + index + " failed: " + BenchNode.abbreviate(ans.body()));
        }
        return ans;
    }
}
