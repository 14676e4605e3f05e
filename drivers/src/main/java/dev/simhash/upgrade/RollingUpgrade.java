package dev.simhash.upgrade;

import dev.simhash.it.support.EsDistribution;
import dev.simhash.it.support.RealNodes;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * {@code ./run upgrade [--from V] [--to V] [--all]}: a rolling upgrade of a 3-node cluster with the plugin installed, from
 * 8.19 (or 9.2) to 9.5, node by node, checking after every step that the plugin answers as before the upgrade; prints a
 * summary, writes it to target/upgrade/ and exits non-zero on any difference.
 */
public final class RollingUpgrade {

    /**
     * The releases {@code --all} upgrades from (every supported older line), the first of them the default {@code --from},
     * and the default {@code --to}: es-versions's {@code upgrade} record and default, which {@code ./run upgrade} passes as
     * these properties (comma-separated, and one release).
     */
    private static final String FROM_PROPERTY = "simhash.upgrade.from";
    private static final String TO_PROPERTY = "simhash.upgrade.to";
    private static final String DEFAULT_HEAP = "640m";
    private static final String USAGE = "usage: ./run upgrade [--from VERSION] [--to VERSION] [--all] [--seed S] [--heap 640m]";

    private RollingUpgrade() {}

    private static String required(String property) {
        String value = System.getProperty(property);
        if (value == null || value.isBlank()) {
            System.err.println("the property [" + property + "] is not set: run this program with ./run upgrade, which reads the "
                + "releases from es-versions");
            System.exit(2);
        }
        return value;
    }

    public static void main(String[] args) throws IOException {
        List<String> allFrom = List.of(required(FROM_PROPERTY).split(","));
        List<String> froms = new ArrayList<>(allFrom.subList(0, 1));
        String to = required(TO_PROPERTY);
        long seed = 1;
        String heap = DEFAULT_HEAP;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--from" -> froms = List.of(value(args, ++i));
                case "--to" -> to = value(args, ++i);
                case "--all" -> froms = allFrom;
                case "--seed" -> seed = Long.parseLong(value(args, ++i));
                case "--heap" -> heap = value(args, ++i);
                default -> usage();
            }
        }
        Path zips = Path.of(System.getProperty("simhash.upgrade.zips", "target/upgrade/zips"));
        Path dists = Path.of(System.getProperty("simhash.upgrade.distributions", "target/upgrade/distributions"));
        Path work = RealNodes.workDir();
        String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT));
        Map<String, EsDistribution> installed = new LinkedHashMap<>();
        List<UpgradeRun> runs = new ArrayList<>();
        boolean passed = true;
        for (String from : froms) {
            EsDistribution fromDist = install(installed, from, zips, dists, work);
            EsDistribution toDist = install(installed, to, zips, dists, work);
            UpgradeRun run = new UpgradeRun(from, to, fromDist, toDist, work.resolve("cluster-" + from + "-to-" + to), heap, seed,
                System.out);
            passed &= run.run();
            runs.add(run);
        }
        String summary = summary(runs);
        System.out.println();
        System.out.println(summary);
        Path file = work.resolve("summary-" + stamp + ".md");
        Files.writeString(file, summary, StandardCharsets.UTF_8);
        for (UpgradeRun run : runs) {
            if (!run.passed()) {
                System.out.println("[upgrade] node logs of " + run.from() + " -> " + run.to() + " kept in " + run.clusterDir()
                    + "/node-*/logs");
            }
        }
        System.out.println("[upgrade] summary written to " + file + (passed ? "; every check passed" : "; DIFFERENCES FOUND"));
        System.exit(passed ? 0 : 1);
    }

    private static String value(String[] args, int i) {
        if (i >= args.length) {
            usage();
        }
        return args[i];
    }

    private static void usage() {
        System.err.println(USAGE);
        System.exit(2);
    }

    /** Unpacks a version's distribution (once per run) and installs that version's plugin zip into it. */
    private static EsDistribution install(Map<String, EsDistribution> installed, String version, Path zips, Path dists, Path work)
        throws IOException {
        EsDistribution d = installed.get(version);
        if (d == null) {
            Path zip = only(zips, "simhash-.*-es" + version.replace(".", "\\.") + "\\.zip");
            Path dist = dists.resolve("elasticsearch-" + version + ".zip");
            System.out.println("[upgrade] installing " + zip.getFileName() + " into Elasticsearch " + version);
            d = EsDistribution.install(dist, work.resolve("es-" + version), List.of(zip));
            installed.put(version, d);
        }
        return d;
    }

    private static Path only(Path dir, String regex) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            List<Path> found = files.filter(f -> f.getFileName().toString().matches(regex)).toList();
            if (found.size() != 1) {
                throw new IllegalStateException("expected one plugin zip matching " + regex + " in " + dir + ", found " + found);
            }
            return found.get(0).toAbsolutePath();
        }
    }

    static String summary(List<UpgradeRun> runs) {
        StringBuilder sb = new StringBuilder("# Rolling upgrade ").append(LocalDateTime.now().format(DateTimeFormatter.ISO_LOCAL_DATE_TIME))
            .append("\n");
        for (UpgradeRun run : runs) {
            sb.append(String.format(Locale.ROOT, "%n## %s -> %s: %s%n%n", run.from(), run.to(), run.passed() ? "passed" : "DIFFERENCES"));
            sb.append("| step | node versions | health | seconds | checks | comparisons | differences |\n");
            sb.append("| --- | --- | --- | --- | --- | --- | --- |\n");
            for (UpgradeRun.Step s : run.steps) {
                sb.append(String.format(Locale.ROOT, "| %s | %s | %s | %.0f | %d | %,d | %d |%n", s.name(), s.versions(), s.health(), s
                    .seconds(), s.checks(), s.comparisons(), s.differences().size()));
            }
            sb.append(String.format(Locale.ROOT, "| **total** | | | %.0f | %d | %,d | %d |%n", run.totalSeconds(), run.steps.stream().mapToInt(
                UpgradeRun.Step::checks).sum(), run.steps.stream().mapToLong(UpgradeRun.Step::comparisons).sum(), run.steps.stream()
                    .mapToInt(s -> s.differences().size()).sum()));
            for (UpgradeRun.Step s : run.steps) {
                for (String d : s.differences().subList(0, Math.min(20, s.differences().size()))) {
                    sb.append("- ").append(s.name()).append(": ").append(d.replace('\n', ' ')).append('\n');
                }
            }
        }
        return sb.toString();
    }
}
