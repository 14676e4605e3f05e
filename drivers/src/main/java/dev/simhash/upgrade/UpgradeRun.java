package dev.simhash.upgrade;

import dev.simhash.it.support.EsCluster;
import dev.simhash.it.support.EsDistribution;
import dev.simhash.it.support.Rest;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import static dev.simhash.it.support.Rest.toJson;

/**
 * One rolling upgrade of a 3-node cluster from one Elasticsearch version (with that version's plugin zip) to another, node by
 * node with Elasticsearch's documented procedure, checking after every step that indexing, stored data, queries, scripts,
 * folds and reports through every node equal the baseline taken before the upgrade.
 */
final class UpgradeRun {

    static final int NODES = 3;
    private static final int NEW_DOCS_PER_NODE = 5;
    private static final Duration JOIN_TIMEOUT = Duration.ofMinutes(5);
    private static final Duration GREEN_TIMEOUT = Duration.ofMinutes(4);
    private static final int MAX_SHOWN = 8;
    private static final int DIFF_CONTEXT = 150;

    /** One step's outcome: what it was, the nodes' versions and health after it, its duration, counts and differences. */
    record Step(String name, String versions, String health, double seconds, int checks, long comparisons, List<String> differences) {}

    private final String from;
    private final String to;
    private final EsDistribution fromDist;
    private final EsDistribution toDist;
    private final Path clusterDir;
    private final String heap;
    private final UpgradeData data;
    private final PrintStream log;
    final List<Step> steps = new ArrayList<>();
    private EsCluster cluster;
    private StoredCopies.Expected expected;
    private Map<String, String> baseline;
    private int round;
    private double totalSeconds;

    UpgradeRun(String from, String to, EsDistribution fromDist, EsDistribution toDist, Path clusterDir, String heap, long seed,
        PrintStream log) {
        this.from = from;
        this.to = to;
        this.fromDist = fromDist;
        this.toDist = toDist;
        this.clusterDir = clusterDir;
        this.heap = heap;
        this.data = new UpgradeData(seed);
        this.log = log;
    }

    /** Runs the whole upgrade; a failure that stops it is recorded as a failed step. True when every step passed. */
    boolean run() {
        long started = System.nanoTime();
        try (EsCluster c = EsCluster.builder(fromDist, clusterDir).name("upgrade").nodes(NODES).heap(heap).build()) {
            cluster = c;
            log.printf(Locale.ROOT, "[upgrade] %s -> %s: starting %d nodes on %s (heap %s)%n", from, to, NODES, from, heap);
            c.start();
            setUp(started);
            checkRound("checks on " + from + " (baseline)");
            for (int i = 0; i < NODES; i++) {
                long t = System.nanoTime();
                String health = upgrade(i);
                log.printf(Locale.ROOT, "[upgrade] node-%d now runs %s (%s after %.0f s)%n", i, to, health, seconds(t));
                steps.add(new Step("upgrade node-" + i + " to " + to, versions(), health, seconds(t), 1, 0, i == NODES - 1 && !health
                    .equals("green") ? List.of("not green after the last node: " + health) : List.of()));
                checkRound("checks after node-" + i);
            }
        } catch (Exception | AssertionError e) {
            log.println("[upgrade] the upgrade stopped: " + e);
            e.printStackTrace(log);
            steps.add(new Step("(stopped)", "", "", 0, 1, 0, List.of("stopped by " + UpgradeData.abbreviate(String.valueOf(e)))));
        }
        totalSeconds = seconds(started);
        return passed();
    }

    boolean passed() {
        return steps.stream().allMatch(s -> s.differences().isEmpty());
    }

    double totalSeconds() {
        return totalSeconds;
    }

    String from() {
        return from;
    }

    String to() {
        return to;
    }

    Path clusterDir() {
        return clusterDir;
    }

    private void setUp(long started) throws IOException {
        data.create(cluster.rest());
        cluster.waitForGreen(GREEN_TIMEOUT);
        StoredCopies.Read read = StoredCopies.readAll(cluster.rest());
        List<String> differences = new ArrayList<>(read.differences());
        expected = read.stored();
        // the baseline must be complete before anything is compared with it
        for (UpgradeData.Doc d : data.docs) {
            StoredCopies.Values v = expected.field().get(d.id());
            if (v == null || v.v2() == null || v.v1() == null || v.sketch() == null || !UpgradeData.hex(d.fp()).equals(v.fp())) {
                differences.add(UpgradeData.FIELD_INDEX + " " + d.id() + " stored " + v + " (ready-made fingerprint " + UpgradeData.hex(d
                    .fp()) + ")");
            }
            if (expected.pipe().get(d.id()) == null) {
                differences.add(UpgradeData.PIPE_INDEX + " " + d.id() + " has no fingerprint");
            }
        }
        if (expected.field().size() != UpgradeData.DOCS || expected.pipe().size() != UpgradeData.DOCS) {
            differences.add("read " + expected.field().size() + " + " + expected.pipe().size() + " documents, loaded " + UpgradeData.DOCS
                + " into each index");
        }
        baseline = Observations.observe(cluster.rest(0), data, expected);
        // an answer without hits still has to stay so, but compares less: say which ones are empty
        List<String> empty = baseline.entrySet().stream().filter(e -> e.getValue().startsWith("0 hits")).map(Map.Entry::getKey).toList();
        log.printf(Locale.ROOT, "[upgrade] loaded %,d documents into %s and %s, read %d shard copies; baseline of %d answers through"
            + " node-0, %d of them without hits%s%n", UpgradeData.DOCS, UpgradeData.FIELD_INDEX, UpgradeData.PIPE_INDEX, read.copies(),
            baseline.size(), empty.size(), empty.isEmpty() ? "" : " " + empty);
        steps.add(new Step("start " + NODES + " nodes on " + from + ", load, baseline", versions(), "green", seconds(started), 1
            + baseline.size(), read.docsRead(), differences));
        if (!differences.isEmpty()) {
            throw new AssertionError("the baseline is incomplete: " + differences.subList(0, Math.min(MAX_SHOWN, differences.size())));
        }
    }

    /** Upgrades node {@code i} with the documented rolling-upgrade procedure; returns the health reached afterwards. */
    private String upgrade(int i) throws IOException {
        Rest admin = cluster.rest((i + 1) % NODES);
        log.printf(Locale.ROOT, "[upgrade] node-%d: allocation primaries only, flush, stop, replace %s by %s, start%n", i, from, to);
        admin.ok("PUT", "/_cluster/settings", toJson(Map.of("persistent", Map.of("cluster.routing.allocation.enable", "primaries"))));
        admin.ok("POST", "/_flush", null);
        cluster.upgradeNode(i, toDist);
        awaitVersion(i);
        cluster.waitForStatus("yellow", JOIN_TIMEOUT);
        Map<String, Object> enable = new LinkedHashMap<>();
        enable.put("cluster.routing.allocation.enable", null);
        admin.ok("PUT", "/_cluster/settings", toJson(Map.of("persistent", enable)));
        try {
            cluster.waitForGreen(GREEN_TIMEOUT);
            return "green";
        } catch (IllegalStateException e) {
            // in a mixed cluster a replica cannot go to a node older than its primary: what ES can allocate is allocated
            Rest.Answer h = admin.ok("GET", "/_cluster/health", null);
            return h.at("status") + ", " + h.at("unassigned_shards") + " unassigned";
        }
    }

    /** Indexing through every node, the stored data of every copy, and every answer through every node, against the baseline. */
    private void checkRound(String name) {
        long t = System.nanoTime();
        round++;
        List<String> differences = new ArrayList<>();
        int checks = 0;
        long comparisons = 0;
        // new documents through every node (field type and pipeline): copies of loaded texts, which must store what those do
        Map<String, StoredCopies.Values> field = new TreeMap<>(expected.field());
        Map<String, String> pipe = new TreeMap<>(expected.pipe());
        List<String> added = new ArrayList<>();
        for (int i = 0; i < NODES; i++) {
            List<String> ids = new ArrayList<>();
            List<UpgradeData.Doc> sources = new ArrayList<>();
            for (int j = 0; j < NEW_DOCS_PER_NODE; j++) {
                UpgradeData.Doc src = data.docs.get((round * 389 + i * 131 + j * 577) % UpgradeData.DOCS);
                String id = "new-" + round + "-" + i + "-" + j;
                ids.add(id);
                sources.add(src);
                field.put(id, expected.field().get(src.id()));
                pipe.put(id, expected.pipe().get(src.id()));
            }
            checks++;
            try {
                UpgradeData.index(cluster.rest(i), ids, sources);
                added.addAll(ids);
            } catch (RuntimeException | AssertionError e) {
                differences.add("indexing through node-" + i + ": " + UpgradeData.abbreviate(String.valueOf(e)));
                ids.forEach(field::remove);
                ids.forEach(pipe::remove);
            }
        }
        checks++;
        try {
            cluster.rest().ok("POST", "/" + UpgradeData.FIELD_INDEX + "," + UpgradeData.PIPE_INDEX + "/_refresh", null);
            StoredCopies.Read read = StoredCopies.readAll(cluster.rest());
            differences.addAll(read.differences());
            differences.addAll(StoredCopies.compare(new StoredCopies.Expected(field, pipe), read.stored()));
            comparisons += read.docsRead();
            log.printf(Locale.ROOT, "[upgrade] %s: %d shard copies read (%,d documents, %d new)%n", name, read.copies(), read.docsRead(),
                added.size());
            UpgradeData.delete(cluster.rest(), added);
        } catch (RuntimeException | AssertionError e) {
            differences.add("stored data: " + UpgradeData.abbreviate(String.valueOf(e)));
        }
        for (int i = 0; i < NODES; i++) {
            try {
                Map<String, String> seen = Observations.observe(cluster.rest(i), data, expected);
                for (Map.Entry<String, String> b : baseline.entrySet()) {
                    checks++;
                    comparisons++;
                    String now = seen.get(b.getKey());
                    if (!b.getValue().equals(now)) {
                        differences.add("through node-" + i + ": " + b.getKey() + ": " + difference(b.getValue(), String.valueOf(now)));
                    }
                }
            } catch (RuntimeException | AssertionError e) {
                checks++;
                differences.add("through node-" + i + ": " + UpgradeData.abbreviate(String.valueOf(e)));
            }
        }
        String health;
        try {
            health = cluster.rest().ok("GET", "/_cluster/health", null).at("status");
        } catch (RuntimeException e) {
            health = "?";
        }
        log.printf(Locale.ROOT, "[upgrade] %s: %d checks, %,d comparisons, %d differences in %.0f s%n", name, checks, comparisons,
            differences.size(), seconds(t));
        differences.stream().limit(MAX_SHOWN).forEach(d -> log.println("[upgrade]   " + d));
        steps.add(new Step(name, versions(), health, seconds(t), checks, comparisons, differences));
    }

    /** Where two answers part: the text around the first character that differs, in each. */
    static String difference(String baseline, String now) {
        int p = 0;
        while (p < baseline.length() && p < now.length() && baseline.charAt(p) == now.charAt(p)) {
            p++;
        }
        int from = Math.max(0, p - DIFF_CONTEXT);
        return "at character " + p + ": now …" + now.substring(from, Math.min(now.length(), p + DIFF_CONTEXT)) + "…, baseline …"
            + baseline.substring(from, Math.min(baseline.length(), p + DIFF_CONTEXT)) + "…";
    }

    /** Waits until node {@code i} is in the cluster with version {@link #to} (the master may still list its old self). */
    private void awaitVersion(int i) {
        long deadline = System.nanoTime() + JOIN_TIMEOUT.toNanos();
        String seen = null;
        while (System.nanoTime() < deadline) {
            if (!cluster.isRunning(i)) {
                throw new AssertionError("node-" + i + " stopped while starting on " + to + "; see " + cluster.logs(i));
            }
            try {
                seen = nodeVersions().get(cluster.nodeName(i));
                if (to.equals(seen)) {
                    return;
                }
            } catch (RuntimeException e) {
                seen = String.valueOf(e);
            }
            Observations.sleep(1000);
        }
        throw new AssertionError("node-" + i + " did not join with version " + to + " within " + JOIN_TIMEOUT + ": last seen " + seen);
    }

    private Map<String, String> nodeVersions() {
        List<Map<String, Object>> nodes = new Rest.Answer(200, "{\"n\":" + cluster.rest().ok("GET", "/_cat/nodes?format=json&h=name,version",
            null).body() + "}").at("n");
        Map<String, String> out = new TreeMap<>();
        nodes.forEach(n -> out.put((String) n.get("name"), (String) n.get("version")));
        return out;
    }

    private String versions() {
        try {
            return String.join(", ", nodeVersions().values());
        } catch (RuntimeException e) {
            return "?";
        }
    }

    private static double seconds(long since) {
        return (System.nanoTime() - since) / 1e9;
    }
}
