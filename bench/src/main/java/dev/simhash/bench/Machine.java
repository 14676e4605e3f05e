package dev.simhash.bench;

import java.nio.file.Path;
import java.util.Locale;

/** What the benchmark ran on: CPU, cores, memory, OS, JDK, load. */
record Machine(String cpu, int cores, long memBytes, String os, String jdk) {

    static Machine read() {
        String cpu = "unknown CPU";
        for (String line : Bench.read(Path.of("/proc/cpuinfo")).split("\n")) {
            if (line.startsWith("model name")) {
                cpu = line.substring(line.indexOf(':') + 1).trim();
                break;
            }
        }
        long mem = 0;
        for (String line : Bench.read(Path.of("/proc/meminfo")).split("\n")) {
            if (line.startsWith("MemTotal:")) {
                mem = Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
            }
        }
        String os = "unknown OS";
        for (String line : Bench.read(Path.of("/etc/os-release")).split("\n")) {
            if (line.startsWith("PRETTY_NAME=")) {
                os = line.substring(12).replace("\"", "");
            }
        }
        String jdk = System.getProperty("java.vm.vendor") + " " + System.getProperty("java.runtime.version");
        return new Machine(cpu, Runtime.getRuntime().availableProcessors(), mem, os, jdk);
    }

    String summary() {
        return String.format(Locale.ROOT, "%s, %d cores, %.0f GiB RAM, %s, JDK %s", cpu, cores, memBytes / (1024.0 * 1024 * 1024), os, jdk);
    }

    String loadAverage() {
        return loadAverageNow();
    }

    static String loadAverageNow() {
        String[] f = Bench.read(Path.of("/proc/loadavg")).trim().split("\\s+");
        return f.length >= 3 ? f[0] + " / " + f[1] + " / " + f[2] + " (1/5/15 min)" : "unknown";
    }

    static double oneMinuteLoad() {
        String[] f = Bench.read(Path.of("/proc/loadavg")).trim().split("\\s+");
        try {
            return Double.parseDouble(f[0]);
        } catch (RuntimeException e) {
            return Double.NaN;
        }
    }
}
