package dev.simhash.it.support;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * The real Elasticsearch distribution, unpacked under target/ with our plugin zip installed by
 * {@code bin/elasticsearch-plugin install}, exactly as a user installs it.
 */
public final class EsDistribution {

    private final Path home;
    private final Path javaHome;

    private EsDistribution(Path home, Path javaHome) {
        this.home = home;
        this.javaHome = javaHome;
    }

    /** The ES home directory (bin/, lib/, modules/, plugins/, config/). */
    public Path home() {
        return home;
    }

    /** The JDK (>= 21) the node runs on. */
    public Path javaHome() {
        return javaHome;
    }

    /**
     * Unpacks {@code distributionZip} into {@code workDir/es-home} (replacing an earlier copy) and
     * installs each plugin zip with {@code elasticsearch-plugin install --batch}.
     */
    public static EsDistribution install(Path distributionZip, Path workDir, List<Path> pluginZips) throws IOException {
        Path javaHome = JavaHomes.current();
        Path target = workDir.resolve("es-home");
        Processes.deleteRecursively(target);
        Files.createDirectories(target);
        unzipStrippingRoot(distributionZip, target);
        EsDistribution dist = new EsDistribution(target, javaHome);
        for (Path plugin : pluginZips) {
            dist.installPlugin(plugin);
        }
        return dist;
    }

    /** Runs {@code bin/elasticsearch-plugin install --batch file://...} for the zip. */
    public void installPlugin(Path pluginZip) throws IOException {
        if (!Files.isRegularFile(pluginZip)) {
            throw new IllegalStateException("plugin zip not found: " + pluginZip + " (run 'mvn package' first)");
        }
        List<String> cmd = new ArrayList<>();
        cmd.add(home.resolve("bin/elasticsearch-plugin").toString());
        cmd.add("install");
        cmd.add("--batch");
        cmd.add(pluginZip.toAbsolutePath().toUri().toString());
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("ES_JAVA_HOME", javaHome.toString());
        pb.environment().remove("JAVA_HOME");
        pb.environment().put("CLI_JAVA_OPTS", "-Djava.io.tmpdir=" + Files.createDirectories(home.resolve("tmp")));
        Processes.Result r = Processes.run(pb, 180, TimeUnit.SECONDS);
        if (r.exitCode() != 0) {
            throw new IllegalStateException("elasticsearch-plugin install " + pluginZip + " failed (exit " + r.exitCode() + "):\n" + r.output());
        }
    }

    /** Lists installed plugins with {@code bin/elasticsearch-plugin list}. */
    public String listPlugins() throws IOException {
        ProcessBuilder pb = new ProcessBuilder(home.resolve("bin/elasticsearch-plugin").toString(), "list").redirectErrorStream(true);
        pb.environment().put("ES_JAVA_HOME", javaHome.toString());
        pb.environment().put("CLI_JAVA_OPTS", "-Djava.io.tmpdir=" + Files.createDirectories(home.resolve("tmp")));
        return Processes.run(pb, 120, TimeUnit.SECONDS).output();
    }

    private static void unzipStrippingRoot(Path zip, Path target) throws IOException {
        try (ZipFile zf = new ZipFile(zip.toFile())) {
            Enumeration<? extends ZipEntry> entries = zf.entries();
            while (entries.hasMoreElements()) {
                ZipEntry e = entries.nextElement();
                String name = e.getName();
                int slash = name.indexOf('/');
                if (slash < 0 || slash == name.length() - 1) {
                    continue; // the root directory itself
                }
                Path out = target.resolve(name.substring(slash + 1)).normalize();
                if (!out.startsWith(target)) {
                    throw new IOException("zip entry escapes the target directory: " + name);
                }
                if (e.isDirectory()) {
                    Files.createDirectories(out);
                    continue;
                }
                Files.createDirectories(out.getParent());
                try (InputStream in = zf.getInputStream(e)) {
                    Files.copy(in, out, StandardCopyOption.REPLACE_EXISTING);
                }
                if (name.substring(slash + 1).startsWith("bin/")) {
                    out.toFile().setExecutable(true, false);
                }
            }
        }
    }
}
