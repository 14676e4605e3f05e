package dev.simhash.chaos;

import dev.simhash.it.support.EsCluster;
import dev.simhash.it.support.RealNodes;
import dev.simhash.it.support.Rest;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static dev.simhash.it.support.Rest.toJson;

/**
 * {@code ./run chaos [--minutes N] [--seed S]}: a 3-node cluster on loopback under sustained indexing, queries, folds,
 * reports and weight tables while nodes are SIGKILLed and restarted (one of them once with a small heap); then checks that
 * no acknowledged document was lost and that fingerprints, reports, stored group ids, queries, heap and breakers are right.
 * Writes a report to target/chaos/ and exits non-zero when a check fails.
 */
public final class Chaos {

    private static final double DEFAULT_MINUTES = 10;
    private static final int NODES = 3;
    private static final int SHARDS = 3;
    private static final Duration GREEN_TIMEOUT = Duration.ofMinutes(5);

    private Chaos() {}

    public static void main(String[] args) throws Exception {
        double minutes = DEFAULT_MINUTES;
        long seed = 1;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--minutes" -> minutes = Double.parseDouble(args[++i]);
                case "--seed" -> seed = Long.parseLong(args[++i]);
                default -> {
                    System.err.println("usage: ./run chaos [--minutes N] [--seed S]");
                    System.exit(2);
                }
            }
        }
        String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT));
        Path out = Files.createDirectories(Path.of("target/chaos"));
        Path clusterDir = RealNodes.workDir().resolve("chaos");
        StringBuilder report = new StringBuilder();
        boolean passed = false;
        System.out.printf(Locale.ROOT, "[chaos] starting %d nodes (heap %s each), seed %d, load for %.1f min%n", NODES, Killer.NORMAL_HEAP,
            seed, minutes);
        try (EsCluster cluster = EsCluster.builder(RealNodes.distribution(), clusterDir).name("chaos").nodes(NODES).heap(Killer.NORMAL_HEAP)
            .build().start()) {
            ChaosState s = new ChaosState(cluster, seed, (long) (minutes * 60e9));
            setUp(s);
            Map<String, Long> heapBefore = ChaosChecks.heapAfterGc(s);
            System.out.println("[chaos] cluster green, indices ready; heap after GC: " + heapBefore);
            ChaosLoad load = new ChaosLoad(s);
            Killer killer = new Killer(s, System.out);
            List<Thread> threads = load.start();
            Thread killerThread = killer.start();
            Thread progress = Thread.ofPlatform().daemon().start(() -> progress(s));
            killerThread.join();
            // the killer returns at the deadline (or on a failed restart): stop the load
            s.stop = true;
            for (Thread t : threads) {
                t.join(TimeUnit.MINUTES.toMillis(5));
            }
            progress.interrupt();
            long loadEnded = System.nanoTime();
            System.out.println("[chaos] load stopped; bringing every node back and waiting for green");
            for (int i = 0; i < cluster.size(); i++) {
                if (!cluster.isRunning(i)) {
                    cluster.restartNode(i);
                }
            }
            cluster.waitForGreen(GREEN_TIMEOUT);
            s.rest.ok("POST", "/chaos-*/_refresh", null);
            ChaosChecks checks = new ChaosChecks(s, load, System.out);
            errorChecks(s, checks, killer);
            checks.run();
            checks.breakers();
            checks.heap(heapBefore, ChaosChecks.heapAfterGc(s));
            checks.logs();
            passed = checks.checks.stream().allMatch(ChaosChecks.Check::passed);
            report.append(report(s, killer, checks, minutes, (loadEnded - s.startedAt) / 1e9, passed));
        } catch (Exception | AssertionError e) {
            report.append("\n**The run failed before its checks completed:** `").append(e).append("`\n");
            e.printStackTrace(System.out);
        }
        Path file = out.resolve("report-" + stamp + ".md");
        if (!passed) {
            Path kept = out.resolve("logs-" + stamp);
            copyLogs(clusterDir, kept);
            report.append("\nNode logs kept in `").append(kept).append("`.\n");
        }
        Files.writeString(file, report.toString(), StandardCharsets.UTF_8);
        System.out.println();
        System.out.println(report);
        System.out.println("[chaos] report written to " + file + (passed ? "; all checks passed" : "; CHECKS FAILED"));
        System.exit(passed ? 0 : 1);
    }

    private static void setUp(ChaosState s) throws IOException {
        Rest rest = s.rest;
        rest.ok("PUT", "/_ingest/pipeline/" + ChaosState.PIPELINE, toJson(Map.of("processors", List.of(Map.of("simhash", Map.of("field",
            "body", "version", "v2"))))));
        Map<String, Object> settings = Map.of("number_of_shards", SHARDS, "number_of_replicas", 1, "refresh_interval", "1s",
            // a node back from a kill gets its shards back at once instead of after the default minute
            "unassigned.node_left.delayed_timeout", "0s");
        Map<String, Object> common = Map.of("base", Map.of("type", "integer"), ChaosState.GROUP_FIELD, Map.of("type", "keyword"));
        Map<String, Object> fieldProps = new HashMap<>(common);
        fieldProps.put("body", Map.of("type", "text", "fields", Map.of("simhash", Map.of("type", "simhash"))));
        rest.ok("PUT", "/" + ChaosState.FIELD.name(), toJson(Map.of("settings", settings, "mappings", Map.of("properties", fieldProps))));
        Map<String, Object> block = Map.of("type", "keyword");
        Map<String, Object> pipeProps = new HashMap<>(common);
        pipeProps.put("body", Map.of("type", "text"));
        pipeProps.put("simhash", Map.of("properties", Map.of("hash", Map.of("type", "long"), "b0", block, "b1", block, "b2", block, "b3",
            block)));
        Map<String, Object> pipeSettings = new HashMap<>(settings);
        pipeSettings.put("default_pipeline", ChaosState.PIPELINE);
        rest.ok("PUT", "/" + ChaosState.PIPE.name(), toJson(Map.of("settings", pipeSettings, "mappings", Map.of("properties", pipeProps))));
        s.cluster.waitForGreen(GREEN_TIMEOUT);
        List<Map<String, Object>> nodes = new Rest.Answer(200, "{\"n\":" + rest.ok("GET", "/_cat/nodes?format=json&h=id,name&full_id=true",
            null).body() + "}").at("n");
        for (Map<String, Object> n : nodes) {
            for (int i = 0; i < s.cluster.size(); i++) {
                if (s.cluster.nodeName(i).equals(n.get("name"))) {
                    s.nodeIdToIndex.put((String) n.get("id"), i);
                }
            }
        }
    }

    private static void progress(ChaosState s) {
        try {
            while (!s.stop) {
                Thread.sleep(30_000);
                Map<String, Long> ops = s.outcomes.ops();
                System.out.printf(Locale.ROOT, "[chaos] %5.0fs acked %,d + %,d docs, %,d requests, kills %d, errors: %d unavailable, %d"
                    + " rejected, %d slow, %d client, %d server%n", s.seconds(System.nanoTime()), s.acked.get(ChaosState.FIELD).size(), s.acked.get(
                        ChaosState.PIPE).size(), ops.entrySet().stream().filter(e -> !e.getKey().startsWith("bulk item")).mapToLong(
                            Map.Entry::getValue).sum(), s.kills.size(), s.outcomes.count(Outcomes.Category.UNAVAILABLE), s.outcomes.count(
                                Outcomes.Category.REJECTED), s.outcomes.count(Outcomes.Category.SLOW), s.outcomes.count(Outcomes.Category.CLIENT_ERROR), s.outcomes.count(
                                    Outcomes.Category.SERVER_ERROR));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void errorChecks(ChaosState s, ChaosChecks checks, Killer killer) {
        double loadSeconds = (s.deadline - s.startedAt) / 1e9;
        long target = Math.max(1, (long) (loadSeconds / 30));
        boolean allBack = s.kills.stream().allMatch(k -> k.rejoinedAt > 0);
        double meanBack = s.kills.stream().mapToDouble(k -> (k.rejoinedAt - k.killedAt) / 1e9).average().orElse(0);
        double idle = killer.idleNanos / 1e9 - Killer.FIRST_KILL_SECONDS;
        // fewer kills than the target pass only when the restarts set the pace: the killer waited for its schedule for at
        // most a minute, or a tenth of the load (a few seconds per kill)
        checks.add("kills", allBack && (s.kills.size() >= target || idle <= Math.max(60, loadSeconds / 10)), String.format(Locale.ROOT,
            "%d SIGKILLs (target %d: one per 30 s), %d restarts, every node rejoined: %s; a kill and restart took %.0f s on average"
                + " until all nodes were back and the cluster yellow; the killer waited %.0f s for its schedule", s.kills.size(), target,
            killer.restarts, allBack, meanBack, Math.max(0, idle)));
        checks.add("heap squeeze", !killer.squeezeNote.equals("not reached"), killer.squeezeNote);
        checks.add("no node died on its own", s.unexpectedDeaths.isEmpty(), s.unexpectedDeaths.isEmpty() ? "none" : String.join("; ",
            s.unexpectedDeaths));
        long server = s.outcomes.count(Outcomes.Category.SERVER_ERROR);
        long client = s.outcomes.count(Outcomes.Category.CLIENT_ERROR);
        checks.add("no 5xx other than unavailability", server == 0, server + " server errors");
        checks.add("no unexpected 4xx", client == 0, client + " client errors");
        Map<String, Long> outside = s.outcomes.unavailableOutsideDisturbance();
        checks.add("unavailability only while a node was down", outside.isEmpty(), outside.isEmpty()
            ? "every unavailability error fell within 45 s after a kill or a non-green health check" : outside.toString());
    }

    private static String report(ChaosState s, Killer killer, ChaosChecks checks, double minutes, double loadSeconds, boolean passed) {
        StringBuilder sb = new StringBuilder();
        sb.append("# simhash chaos report ").append(LocalDateTime.now().format(DateTimeFormatter.ISO_LOCAL_DATE_TIME)).append("\n\n");
        sb.append(String.format(Locale.ROOT, "%d nodes on 127.0.0.1 (heap %s), indices `%s` (field type) and `%s` (pipeline), %d shards"
            + " + 1 replica each; seed %d; load for %.0f s (asked: %.1f min). Result: **%s**.%n%n", NODES, Killer.NORMAL_HEAP,
            ChaosState.FIELD.name(), ChaosState.PIPE.name(), SHARDS, s.seed, loadSeconds, minutes, passed ? "all checks passed"
                : "CHECKS FAILED"));
        sb.append("## Checks\n\n| check | result | detail |\n| --- | --- | --- |\n");
        for (ChaosChecks.Check c : checks.checks) {
            sb.append("| ").append(c.name()).append(" | ").append(c.passed() ? "ok" : "**FAIL**").append(" | ").append(c.detail().replace('|',
                '/').replace('\n', ' ')).append(" |\n");
        }
        sb.append("\n## Kills\n\n| # | at (s) | node | restarted with | back (all nodes, yellow) after (s) |\n| --- | --- | --- | --- | --- |\n");
        int n = 0;
        for (ChaosState.Kill k : s.kills) {
            sb.append(String.format(Locale.ROOT, "| %d | %.0f | %s | %s | %s |%n", ++n, s.seconds(k.killedAt), s.cluster.nodeName(k.node),
                k.heapAfter, k.rejoinedAt == 0 ? "never" : String.format(Locale.ROOT, "%.1f", (k.rejoinedAt - k.killedAt) / 1e9)));
        }
        sb.append("\nHeap squeeze: ").append(killer.squeezeNote).append(".\n");
        sb.append("\n## Operations\n\n| operation | count |\n| --- | --- |\n");
        s.outcomes.ops().forEach((k, v) -> sb.append(String.format(Locale.ROOT, "| %s | %,d |%n", k, v)));
        sb.append(String.format(Locale.ROOT, "%nAcknowledged documents: %,d in `%s`, %,d in `%s`.%n", s.acked.get(ChaosState.FIELD).size(),
            ChaosState.FIELD.name(), s.acked.get(ChaosState.PIPE).size(), ChaosState.PIPE.name()));
        sb.append("\n## Errors by kind\n\n");
        Map<String, Long> errors = s.outcomes.errors();
        if (errors.isEmpty()) {
            sb.append("None.\n");
        } else {
            sb.append("| operation: kind | category | count |\n| --- | --- | --- |\n");
            errors.forEach((k, v) -> sb.append(String.format(Locale.ROOT, "| %s | %s | %,d |%n", k, s.outcomes.category(k), v)));
            if (errors.keySet().stream().anyMatch(k -> s.outcomes.category(k) != Outcomes.Category.UNAVAILABLE)) {
                sb.append("\nSamples of errors that are not unavailability:\n\n");
            }
            errors.keySet().stream().filter(k -> s.outcomes.category(k) != Outcomes.Category.UNAVAILABLE).forEach(k -> s.outcomes.samples(k)
                .forEach(x -> sb.append("- ").append(k).append(": `").append(x.replace('`', '\'').replace('\n', ' ')).append("`\n")));
        }
        return sb.toString();
    }

    private static void copyLogs(Path clusterDir, Path to) {
        if (!Files.isDirectory(clusterDir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(clusterDir)) {
            for (Path f : files.filter(p -> Files.isRegularFile(p) && p.toString().contains("/logs/")).toList()) {
                Path dst = to.resolve(clusterDir.relativize(f).toString());
                Files.createDirectories(dst.getParent());
                Files.copy(f, dst, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            System.out.println("[chaos] could not keep the logs: " + e);
        }
    }
}
