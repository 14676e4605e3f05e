package dev.simhash.it.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.List;

/**
 * Where the harness finds its inputs (set by Maven failsafe, with defaults for IDE runs) and how it
 * installs the distribution once per JVM.
 */
public final class RealNodes {

    private static EsDistribution distribution;

    private RealNodes() {}

    /** The unpacked ES distribution with our freshly built plugin zip installed (once per JVM). */
    public static synchronized EsDistribution distribution() throws IOException {
        if (distribution == null) {
            List<Path> plugins = new ArrayList<>();
            plugins.add(pluginZip());
            distribution = EsDistribution.install(distributionZip(), workDir(), plugins);
        }
        return distribution;
    }

    public static Path distributionZip() {
        return Path.of(System.getProperty("simhash.es.distribution", "target/es-distribution/elasticsearch-" + esVersion() + ".zip"))
            .toAbsolutePath();
    }

    /**
     * The Elasticsearch version the plugin was built for and the nodes run: pom.xml's {@code elasticsearch.version}, passed
     * as the system property {@code simhash.es.version} by the build (Surefire, Failsafe) and by {@code ./run}.
     */
    public static String esVersion() {
        String v = System.getProperty("simhash.es.version");
        if (v == null || v.isBlank()) {
            throw new IllegalStateException("system property [simhash.es.version] is not set: the build (pom.xml's"
                + " elasticsearch.version) and ./run pass it; run through Maven or ./run");
        }
        return v;
    }

    public static Path pluginZip() throws IOException {
        String configured = System.getProperty("simhash.plugin.zip");
        if (configured != null) {
            return Path.of(configured).toAbsolutePath();
        }
        try (var files = Files.list(Path.of("target"))) {
            return files.filter(f -> f.getFileName().toString().matches("simhash-.*-es.*\\.zip")).findFirst()
                .orElseThrow(() -> new IllegalStateException("no plugin zip in target/: run 'mvn package' first")).toAbsolutePath();
        }
    }

    /**
     * The directory holding the ES home and the clusters: target/it, unless the build runs as root
     * from a directory other users cannot enter (e.g. under /root), where the node's uid could not
     * read it; then a directory under /tmp is used and its path printed.
     */
    public static Path workDir() throws IOException {
        Path configured = Path.of(System.getProperty("simhash.it.workdir", "target/it")).toAbsolutePath();
        Files.createDirectories(configured);
        if (!Processes.runningAsRoot() || reachableByOthers(configured)) {
            return configured;
        }
        Path alt = Path.of("/tmp", "simhash-it-" + Integer.toHexString(configured.toString().hashCode()));
        Files.createDirectories(alt);
        System.out.println("[simhash-it] " + configured + " is not reachable by the node's uid; using " + alt);
        Files.writeString(configured.resolve("WORKDIR-MOVED.txt"), "node homes, data and logs are under " + alt + "\n");
        return alt;
    }

    private static boolean reachableByOthers(Path dir) throws IOException {
        for (Path p = dir.getParent(); p != null; p = p.getParent()) {
            if (!Files.getPosixFilePermissions(p).contains(PosixFilePermission.OTHERS_EXECUTE)) {
                return false;
            }
        }
        return true;
    }

    /** Starts a cluster named {@code name} under the work directory. */
    public static EsCluster start(String name, int nodes) throws IOException {
        return EsCluster.builder(distribution(), workDir().resolve(name)).name(name).nodes(nodes).build().start();
    }
}
