package dev.simhash.soak;

import dev.simhash.core.FingerprintFields;
import dev.simhash.core.SimHash;
import dev.simhash.it.support.EsCluster;
import dev.simhash.it.support.RealNodes;
import dev.simhash.it.support.Rest;

import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

import static dev.simhash.it.support.Rest.toJson;

/**
 * Sustained load on a real node: concurrent bulk indexing through the {@code simhash} pipeline and
 * {@code simhash} queries for a fixed time, bounded in requests, loopback only. Reports errors,
 * throughput, query latency and the node's heap (minimum per interval, i.e. after GC) over time.
 */
public final class Soak {

    /** Run settings: how long, how many query threads, documents per bulk, heap sampling interval, request cap. */
    public record Options(Duration duration, int queryThreads, int bulkSize, Duration sampleEvery, long maxRequests) {}

    /** One heap sample window: seconds since start, minimum and maximum heap used in the window (bytes). */
    public record Sample(long atSeconds, long minHeap, long maxHeap, long docs, long queries) {}

    /** What a run measured. */
    public record Result(Duration took, long docs, long queries, long errors, List<String> errorSamples, long p50Micros,
                         long p99Micros, List<Sample> samples) {
        public double docsPerSecond() {
            return docs / Math.max(1e-9, took.toMillis() / 1000.0);
        }

        public double queriesPerSecond() {
            return queries / Math.max(1e-9, took.toMillis() / 1000.0);
        }
    }

    static final String[] WORDS = { "market", "rates", "bank", "bridge", "closure", "storm", "typhoon", "refund", "order", "delivery",
        "国家", "统计局", "价格", "指数", "台风", "预警", "订单", "退款", "发货", "新闻", "记者", "报道", "上涨", "下降" };

    private Soak() {}

    static String text(Random r) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0, n = 30 + r.nextInt(60); i < n; i++) {
            sb.append(WORDS[r.nextInt(WORDS.length)]).append(r.nextInt(4) == 0 ? "，" : " ");
        }
        return sb.toString();
    }

    /** Creates the pipeline and index used by {@link #run}. */
    public static void setUp(Rest rest, String index) {
        rest.ok("PUT", "/_ingest/pipeline/" + index + "-fp", toJson(Map.of("processors", List.of(Map.of("simhash", Map.of("field", "body"))))));
        StringBuilder props = new StringBuilder("{\"" + FingerprintFields.HASH + "\": {\"type\": \"long\"}");
        for (int j = 0; j < SimHash.BLOCKS; j++) {
            props.append(", \"").append(FingerprintFields.block(j)).append("\": {\"type\": \"keyword\"}");
        }
        props.append('}');
        rest.ok("PUT", "/" + index, "{\"settings\": {\"number_of_shards\": 2, \"number_of_replicas\": 0, \"index.default_pipeline\": \""
            + index + "-fp\", \"refresh_interval\": \"1s\"}, \"mappings\": {\"properties\": {\"body\": {\"type\": \"text\"}, "
            + "\"simhash\": {\"properties\": " + props + "}}}}");
    }

    /** Runs the load until the duration or the request cap is reached. */
    public static Result run(Rest rest, String index, Options opts, PrintStream progress) throws InterruptedException {
        long start = System.nanoTime();
        long deadline = start + opts.duration().toNanos();
        AtomicLong requests = new AtomicLong();
        AtomicLong docs = new AtomicLong();
        AtomicLong queries = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        ConcurrentLinkedQueue<String> errorSamples = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<Long> latencies = new ConcurrentLinkedQueue<>();
        List<Thread> threads = new ArrayList<>();
        threads.add(Thread.ofPlatform().name("soak-bulk").start(() -> {
            Random r = new Random(1);
            while (System.nanoTime() < deadline && requests.incrementAndGet() <= opts.maxRequests()) {
                StringBuilder nd = new StringBuilder();
                for (int i = 0; i < opts.bulkSize(); i++) {
                    nd.append("{\"index\":{}}\n").append(toJson(Map.of("body", text(r)))).append('\n');
                }
                try {
                    Rest.Answer a = rest.bulk("/" + index + "/_bulk", nd.toString());
                    if (a.status() != 200 || Boolean.TRUE.equals(a.at("errors"))) {
                        error(errors, errorSamples, "bulk " + a.status() + " " + abbreviate(a.body()));
                    } else {
                        docs.addAndGet(opts.bulkSize());
                    }
                } catch (UncheckedIOException e) {
                    error(errors, errorSamples, "bulk " + e);
                }
            }
        }));
        for (int t = 0; t < opts.queryThreads(); t++) {
            int seed = 100 + t;
            threads.add(Thread.ofPlatform().name("soak-query-" + t).start(() -> {
                Random r = new Random(seed);
                int[] radii = { 3, 7, 11 };
                while (System.nanoTime() < deadline && requests.incrementAndGet() <= opts.maxRequests()) {
                    Map<String, Object> q = r.nextBoolean()
                        ? Map.of("field", "simhash", "hash", r.nextLong(), "max_distance", radii[r.nextInt(3)])
                        : Map.of("field", "simhash", "text", text(r), "max_distance", radii[r.nextInt(3)]);
                    long t0 = System.nanoTime();
                    try {
                        Rest.Answer a = rest.post("/" + index + "/_search", toJson(Map.of("size", 10, "query", Map.of("simhash", q))));
                        latencies.add((System.nanoTime() - t0) / 1000);
                        if (a.status() != 200 || ((Number) a.at("_shards.failed")).intValue() != 0) {
                            error(errors, errorSamples, "search " + a.status() + " " + abbreviate(a.body()));
                        } else {
                            queries.incrementAndGet();
                        }
                    } catch (UncheckedIOException e) {
                        error(errors, errorSamples, "search " + e);
                    }
                }
            }));
        }
        List<Sample> samples = new ArrayList<>();
        long windowMin = Long.MAX_VALUE;
        long windowMax = 0;
        long nextSample = start + opts.sampleEvery().toNanos();
        while (System.nanoTime() < deadline && threads.stream().anyMatch(Thread::isAlive)) {
            Thread.sleep(1000);
            try {
                Map<String, Object> nodes = rest.ok("GET", "/_nodes/stats/jvm", null).at("nodes");
                for (Object n : nodes.values()) {
                    long used = ((Number) ((Map<?, ?>) ((Map<?, ?>) ((Map<?, ?>) n).get("jvm")).get("mem")).get("heap_used_in_bytes")).longValue();
                    windowMin = Math.min(windowMin, used);
                    windowMax = Math.max(windowMax, used);
                }
            } catch (RuntimeException | AssertionError e) {
                error(errors, errorSamples, "stats " + e);
            }
            if (System.nanoTime() >= nextSample) {
                long at = Duration.ofNanos(System.nanoTime() - start).toSeconds();
                samples.add(new Sample(at, windowMin, windowMax, docs.get(), queries.get()));
                progress.printf(Locale.ROOT, "[soak] %4ds  docs %,9d  queries %,7d  errors %d  heap min/max %s / %s%n", at, docs.get(),
                    queries.get(), errors.get(), mb(windowMin), mb(windowMax));
                windowMin = Long.MAX_VALUE;
                windowMax = 0;
                nextSample += opts.sampleEvery().toNanos();
            }
        }
        for (Thread t : threads) {
            t.join(Duration.ofSeconds(60));
        }
        List<Long> sorted = new ArrayList<>(latencies);
        Collections.sort(sorted);
        return new Result(Duration.ofNanos(System.nanoTime() - start), docs.get(), queries.get(), errors.get(), new ArrayList<>(errorSamples),
            percentile(sorted, 0.50), percentile(sorted, 0.99), samples);
    }

    private static void error(AtomicLong errors, ConcurrentLinkedQueue<String> samples, String what) {
        if (errors.incrementAndGet() <= 10) {
            samples.add(what);
        }
    }

    static long percentile(List<Long> sorted, double p) {
        if (sorted.isEmpty()) {
            return 0;
        }
        return sorted.get((int) Math.min(sorted.size() - 1, Math.ceil(p * sorted.size()) - 1));
    }

    static String mb(long bytes) {
        return bytes == Long.MAX_VALUE ? "n/a" : String.format(Locale.ROOT, "%.0f MB", bytes / 1048576.0);
    }

    private static String abbreviate(String s) {
        return s.length() > 300 ? s.substring(0, 300) + "..." : s;
    }

    /** The report as markdown. */
    public static String report(Result r, Options o, String heap) {
        StringBuilder sb = new StringBuilder();
        sb.append("# simhash soak report ").append(LocalDateTime.now().format(DateTimeFormatter.ISO_LOCAL_DATE_TIME)).append("\n\n");
        sb.append(String.format(Locale.ROOT, "One node (heap %s), 127.0.0.1; 1 bulk thread (%d docs per bulk, through the simhash pipeline), "
            + "%d query threads (simhash query, hash or text, max_distance 3/7/11); %s.%n%n", heap, o.bulkSize(), o.queryThreads(),
            r.took()));
        sb.append("| measure | value |\n| --- | --- |\n");
        sb.append(String.format(Locale.ROOT, "| errors | %d |%n| documents indexed | %,d (%.0f docs/s) |%n| queries | %,d (%.1f q/s) |%n"
            + "| query latency p50 / p99 | %.1f ms / %.1f ms |%n", r.errors(), r.docs(), r.docsPerSecond(), r.queries(), r.queriesPerSecond(),
            r.p50Micros() / 1000.0, r.p99Micros() / 1000.0));
        sb.append("\nHeap over time (minimum in each interval = heap after GC):\n\n| t (s) | heap min | heap max | docs | queries |\n"
            + "| --- | --- | --- | --- | --- |\n");
        for (Sample s : r.samples()) {
            sb.append(String.format(Locale.ROOT, "| %d | %s | %s | %,d | %,d |%n", s.atSeconds(), mb(s.minHeap()), mb(s.maxHeap()), s.docs(),
                s.queries()));
        }
        if (!r.errorSamples().isEmpty()) {
            sb.append("\nFirst errors:\n\n");
            r.errorSamples().forEach(e -> sb.append("- `").append(e.replace('`', '\'')).append("`\n"));
        }
        return sb.toString();
    }

    /** {@code ./run soak [--minutes N] [--query-threads N]}: starts its own node, runs, writes target/soak/report-*.md. */
    public static void main(String[] args) throws Exception {
        double minutes = 10;
        int queryThreads = 2;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--minutes" -> minutes = Double.parseDouble(args[++i]);
                case "--query-threads" -> queryThreads = Integer.parseInt(args[++i]);
                default -> throw new IllegalArgumentException("usage: ./run soak [--minutes N] [--query-threads N]");
            }
        }
        String heap = "1g";
        Options opts = new Options(Duration.ofSeconds((long) (minutes * 60)), queryThreads, 500, Duration.ofSeconds(30), 50_000_000L);
        System.out.println("[soak] starting a node with the plugin (heap " + heap + ") ...");
        try (EsCluster cluster = EsCluster.builder(RealNodes.distribution(), RealNodes.workDir().resolve("soak")).name("soak").heap(heap)
            .build().start()) {
            System.out.println("[soak] node " + cluster.httpAddress() + " is green; running for " + opts.duration());
            setUp(cluster.rest(), "soak");
            Result r = run(cluster.rest(), "soak", opts, System.out);
            String report = report(r, opts, heap);
            Path out = Path.of("target/soak");
            Files.createDirectories(out);
            Path file = out.resolve("report-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")) + ".md");
            Files.writeString(file, report, StandardCharsets.UTF_8);
            System.out.println(report);
            System.out.println("[soak] report written to " + file);
            if (r.errors() > 0) {
                System.exit(1);
            }
        }
    }
}
