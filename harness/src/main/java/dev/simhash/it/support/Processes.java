package dev.simhash.it.support;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Small process and file helpers for the real-node harness. */
final class Processes {

    /** Exit code and combined output of a finished command. */
    record Result(int exitCode, String output) {}

    private Processes() {}

    static Result run(ProcessBuilder pb, long timeout, TimeUnit unit) throws IOException {
        pb.redirectErrorStream(true);
        Process p = pb.start();
        p.getOutputStream().close();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Thread reader = Thread.ofVirtual().start(() -> {
            try (InputStream in = p.getInputStream()) {
                in.transferTo(out);
            } catch (IOException ignored) {
                // the process went away; what was read is kept
            }
        });
        try {
            if (!p.waitFor(timeout, unit)) {
                p.destroyForcibly();
                throw new IOException("command timed out after " + timeout + " " + unit + ": " + pb.command());
            }
            reader.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            throw new IOException("interrupted while running " + pb.command(), e);
        }
        return new Result(p.exitValue(), out.toString(StandardCharsets.UTF_8));
    }

    static Result run(List<String> cmd, long timeoutSeconds) throws IOException {
        return run(new ProcessBuilder(cmd), timeoutSeconds, TimeUnit.SECONDS);
    }

    static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        Files.walkFileTree(dir, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.deleteIfExists(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path d, IOException exc) throws IOException {
                try {
                    Files.deleteIfExists(d);
                } catch (NoSuchFileException ignored) {
                    // gone already
                }
                return FileVisitResult.CONTINUE;
            }
        });
    }

    /** Last {@code lines} lines of a text file, or a note when it does not exist. */
    static String tail(Path file, int lines) {
        try {
            if (!Files.exists(file)) {
                return "(no " + file + ")";
            }
            List<String> all = Files.readAllLines(file, StandardCharsets.UTF_8);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** True when this JVM runs as root (uid 0): Elasticsearch then has to run as another uid. */
    static boolean runningAsRoot() {
        try {
            Object uid = Files.getAttribute(Path.of("/proc/self"), "unix:uid");
            return uid instanceof Integer i && i == 0;
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return "root".equals(System.getProperty("user.name"));
        }
    }
}
