package dev.simhash.bench;

import dev.simhash.core.NearDuplicateComponents;
import dev.simhash.core.SimHash;
import dev.simhash.it.support.EsCluster;
import dev.simhash.it.support.RealNodes;
import dev.simhash.it.support.Rest;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Benchmark of the near-duplicate report ({@code ./run bench-report [docs] [radii] [heap]}): starts a real node with
 * the plugin and, for each document count in {@code docs} (comma-separated, ascending; the index grows from one to the
 * next), bulk-loads fingerprints in their stored form (no pipeline: 90% uniform random, 10% in planted groups of 5
 * within 3 bits of a base), then times {@code _simhash/duplicates} for each radius with sliced reading (the default)
 * and sequential reading (0.1's way, {@code "read": "sequential"}), interleaved, polling the node's heap meanwhile.
 * Also measures in this JVM the heap the report holds for its own data. Prints a table and writes it as Markdown to
 * {@code target/bench-report/report.md}. Not a test.
 */
public final class ReportBench {

    static final String INDEX = "bench-report";
    static final int GROUP_SIZE = 5;
    static final int BULK_DOCS = 20_000;
    static final int RUNS = 2;

    private ReportBench() {}

    public static void main(String[] args) throws Exception {
        List<Integer> sizes = new ArrayList<>();
        for (String d : (args.length > 0 ? args[0] : "1000000").split(",")) {
            sizes.add(Integer.parseInt(d.trim().replace("_", "")));
        }
        List<Integer> radii = new ArrayList<>();
        for (String r : (args.length > 1 ? args[1] : "3,7,11").split(",")) {
            radii.add(Integer.parseInt(r.trim()));
        }
        String heap = args.length > 2 ? args[2] : "3g";
        StringBuilder md = new StringBuilder();
        line(md, String.format(Locale.ROOT, "# `_simhash/duplicates` benchmark (%s)%n%n%s fingerprints, radii %s, one node, heap %s, "
                + "3 shards force-merged, %d cores (`./run bench-report %s %s %s`); %d runs per setting, interleaved.%n",
            LocalDate.now(ZoneOffset.UTC), sizes, radii, heap, Runtime.getRuntime().availableProcessors(), args.length > 0 ? args[0] : "",
            args.length > 1 ? args[1] : "", heap, RUNS));
        try (EsCluster cluster = EsCluster.builder(RealNodes.distribution(), RealNodes.workDir().resolve("bench")).name("bench")
            .heap(heap).build().start()) {
            Rest rest = cluster.rest();
            createIndex(rest);
            int loaded = 0;
            for (int docs : sizes) {
                long loadStart = System.nanoTime();
                load(rest, loaded, docs);
                loaded = docs;
                line(md, String.format(Locale.ROOT, "%n## %,d fingerprints%n%nloaded (bulk, refresh, force-merge) in %d s; planted groups: "
                    + "%,d of %d documents within 3 bits of a base%n", docs, (System.nanoTime() - loadStart) / 1_000_000_000,
                    docs / GROUP_SIZE / 10, GROUP_SIZE));
                line(md, "| r | reading | run | took ms | read ms | group ms | members ms | docs/s | groups | in groups | node heap "
                    + "before / peak / after MB |");
                line(md, "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
                for (int r : radii) {
                    if (r > 7 && docs > 2_000_000) {
                        // candidates grow with n^2 / 65536 per block value probed: r 8..11 probes 137 values per block
                        line(md, "| " + r + " | skipped above 2M documents: about 100x the 1M time at 10M |  |  |  |  |  |  |  |  |  |");
                        continue;
                    }
                    for (int run = 1; run <= RUNS; run++) {
                        for (String mode : List.of("sliced", "sequential")) {
                            measure(rest, md, r, mode, run);
                        }
                    }
                }
                measureHeap(md, docs, Math.min(docs > 2_000_000 ? 7 : 11, radii.get(radii.size() - 1)));
            }
        }
        Path out = Path.of("target/bench-report/report.md");
        Files.createDirectories(out.getParent());
        Files.writeString(out, md);
        System.out.println("[bench] report written to " + out);
    }

    static void line(StringBuilder md, String s) {
        System.out.println("[bench] " + s);
        md.append(s).append('\n');
    }

    static void measure(Rest rest, StringBuilder md, int r, String mode, int run) throws InterruptedException {
        long before = nodeHeapMb(rest);
        AtomicLong peak = new AtomicLong(before);
        AtomicBoolean running = new AtomicBoolean(true);
        Thread poller = new Thread(() -> {
            while (running.get()) {
                peak.accumulateAndGet(nodeHeapMb(rest), Math::max);
                try {
                    Thread.sleep(200);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        poller.setDaemon(true);
        poller.start();
        long start = System.nanoTime();
        // in the background (the client's socket timeout is 30 s): the kept result is the report's response
        Rest.Answer a = waitForReport(rest, rest.ok("POST", "/" + INDEX + "/_simhash/duplicates?wait_for_completion=false",
            "{\"field\": \"simhash\", \"max_distance\": " + r + ", \"size\": 3, \"read\": \"" + mode + "\"}").at("id"));
        long wall = (System.nanoTime() - start) / 1_000_000;
        running.set(false);
        poller.join();
        long after = nodeHeapMb(rest);
        long took = num(a, "took_ms");
        line(md, String.format(Locale.ROOT, "| %d | %s | %d | %,d | %,d | %,d | %,d | %,d | %,d | %,d | %d / %d / %d |", r, mode, run, took,
            num(a, "phases_ms.read"), num(a, "phases_ms.group"), num(a, "phases_ms.members"),
            num(a, "total_docs") * 1000 / Math.max(1, took), num(a, "groups_total"), num(a, "duplicates_total"), before, peak.get(),
            after) + "  <!-- client wall " + wall + " ms -->");
    }

    /** Polls a background report until it ends; returns its response as an answer, then deletes it. */
    static Rest.Answer waitForReport(Rest rest, String id) throws InterruptedException {
        while (true) {
            Rest.Answer a = rest.ok("GET", "/_simhash/duplicates/" + id, null);
            if (Boolean.FALSE.equals(a.at("is_running"))) {
                Object response = a.at("response");
                if (response == null) {
                    throw new IllegalStateException("report " + id + " ended without a response: " + a);
                }
                rest.ok("DELETE", "/_simhash/duplicates/" + id, null);
                return new Rest.Answer(200, Rest.toJson(response));
            }
            Thread.sleep(100);
        }
    }

    /** Polls a background task until it completes; returns its stored response as an answer. */
    static Rest.Answer waitForTask(Rest rest, String task) throws InterruptedException {
        while (true) {
            Rest.Answer a = rest.ok("GET", "/_tasks/" + task, null);
            if (Boolean.TRUE.equals(a.at("completed"))) {
                Object response = a.at("response");
                if (response == null) {
                    throw new IllegalStateException("task " + task + " failed: " + a);
                }
                return new Rest.Answer(200, Rest.toJson(response));
            }
            Thread.sleep(100);
        }
    }

    static long nodeHeapMb(Rest rest) {
        Rest.Answer a = rest.get("/_nodes/_local/stats/jvm?filter_path=nodes.*.jvm.mem.heap_used_in_bytes");
        java.util.Map<String, Object> nodes = a.at("nodes");
        for (Object n : nodes.values()) {
            Object used = ((java.util.Map<?, ?>) ((java.util.Map<?, ?>) ((java.util.Map<?, ?>) n).get("jvm")).get("mem"))
                .get("heap_used_in_bytes");
            return ((Number) used).longValue() >> 20;
        }
        return -1;
    }

    static long num(Rest.Answer a, String path) {
        Object v = a.at(path);
        return v == null ? -1 : ((Number) v).longValue();
    }

    static void createIndex(Rest rest) {
        rest.delete("/" + INDEX);
        rest.ok("PUT", "/" + INDEX, """
            {"settings": {"number_of_shards": 3, "number_of_replicas": 0, "refresh_interval": "-1"},
             "mappings": {"properties": {"simhash": {"properties": {"hash": {"type": "long"},
               "b0": {"type": "keyword", "doc_values": false}, "b1": {"type": "keyword", "doc_values": false},
               "b2": {"type": "keyword", "doc_values": false}, "b3": {"type": "keyword", "doc_values": false}}}}}}""");
    }

    /**
     * The fingerprint of document {@code i}: documents in runs of 5 whose run number is a multiple of 10 form a planted
     * group (a random base and copies 1-3 bits away); every other document is uniformly random. Depends only on
     * {@code i}, so an index can grow from one size to the next.
     */
    static long fingerprint(long i) {
        long run = i / GROUP_SIZE;
        if (run % 10 != 0) {
            return new SplittableRandom(i * 0x9E3779B97F4A7C15L + 1).nextLong();
        }
        long base = new SplittableRandom(-run - 1).nextLong();
        if (i % GROUP_SIZE == 0) {
            return base;
        }
        SplittableRandom r = new SplittableRandom(i ^ 0x5DEECE66DL);
        long mask = 0;
        int bits = 1 + r.nextInt(3);
        while (Long.bitCount(mask) < bits) {
            mask |= 1L << r.nextInt(64);
        }
        return base ^ mask;
    }

    /** Loads documents {@code from .. to-1}, then refreshes and force-merges. */
    static void load(Rest rest, int from, int to) throws InterruptedException {
        rest.ok("PUT", "/" + INDEX + "/_settings", "{\"index\": {\"refresh_interval\": \"-1\"}}");
        long start = System.nanoTime();
        StringBuilder ndjson = new StringBuilder(BULK_DOCS * 130);
        for (int i = from; i < to; i++) {
            long h = fingerprint(i);
            ndjson.append("{\"index\":{\"_id\":\"d").append(i).append("\"}}\n{\"simhash\":{\"hash\":").append(h);
            for (int j = 0; j < SimHash.BLOCKS; j++) {
                ndjson.append(",\"b").append(j).append("\":\"").append(SimHash.blockTerm(SimHash.block(h, j))).append('"');
            }
            ndjson.append("}}\n");
            if ((i + 1) % BULK_DOCS == 0 || i == to - 1) {
                Rest.Answer a = rest.bulk("/" + INDEX + "/_bulk", ndjson.toString());
                if (a.status() != 200 || !Boolean.FALSE.equals(a.at("errors"))) {
                    throw new IllegalStateException("bulk failed: " + a.body().substring(0, Math.min(500, a.body().length())));
                }
                ndjson.setLength(0);
                if ((i + 1) % 500_000 == 0) {
                    System.out.printf(Locale.ROOT, "[bench] loaded %,d documents in %d s%n", i + 1, (System.nanoTime() - start) / 1_000_000_000);
                }
            }
        }
        rest.ok("PUT", "/" + INDEX + "/_settings", "{\"index\": {\"refresh_interval\": \"1s\"}}");
        rest.ok("POST", "/" + INDEX + "/_refresh", null);
        String merge = rest.ok("POST", "/" + INDEX + "/_forcemerge?max_num_segments=1&wait_for_completion=false", null).at("task");
        waitForTask(rest, merge);
    }

    /**
     * The heap the report holds for its own data with sliced reading, measured in this JVM with the plugin's own classes:
     * the fingerprints as read (8 bytes per document) and the peak live data while grouping (fingerprints included), each
     * after a full GC. The ids of the listed groups' members come on top (at most size x max_members).
     */
    static void measureHeap(StringBuilder md, int docs, int r) {
        long before = usedAfterGc();
        long[] hashes = new long[docs];
        for (int i = 0; i < docs; i++) {
            hashes[i] = fingerprint(i);
        }
        long read = usedAfterGc() - before;
        long[] peak = { 0 };
        int[] calls = { 0 };
        long start = System.nanoTime();
        // as on the node: one grouping thread per processor (at most 4)
        int threads = Runtime.getRuntime().availableProcessors();
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newCachedThreadPool();
        NearDuplicateComponents c;
        try {
            c = NearDuplicateComponents.find(hashes, r, () -> {
                // sampled: a GC per check would dominate the run
                synchronized (peak) {
                    if (calls[0]++ < 4 || calls[0] % 64 == 0) {
                        peak[0] = Math.max(peak[0], usedAfterGc() - before);
                    }
                }
            }, g -> {}, pool, threads);
        } finally {
            pool.shutdown();
        }
        long groupMillis = (System.nanoTime() - start) / 1_000_000;
        long afterGroup = usedAfterGc() - before;
        line(md, String.format(Locale.ROOT, "%nheap held by the report for its own data at %,d documents (in-process, after full GCs): "
                + "fingerprints read %d MB (%d bytes/doc); peak while grouping r=%d, fingerprints included, %d MB (%d bytes/doc); "
                + "components kept until the page is built %d MB; in-process grouping in %d threads %d ms incl. sampling GCs, %,d components",
            docs, read >> 20, read / docs, r, peak[0] >> 20, peak[0] / docs, afterGroup >> 20, threads, groupMillis, c.componentCount()));
        if (hashes.length < 0) {
            System.out.println(c.size()); // keeps both reachable during the measurement, as in the report
        }
    }

    static long usedAfterGc() {
        Runtime rt = Runtime.getRuntime();
        for (int i = 0; i < 2; i++) {
            System.gc();
        }
        return rt.totalMemory() - rt.freeMemory();
    }
}
