package dev.simhash.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Times in-process cases side by side: each case is calibrated to about the same seconds per timed run, then the cases run
 * in turn, pass after pass, so that a noisy machine slows them alike; the median run counts.
 */
final class InterleavedPasses {

    /** One measured case. */
    interface Case {
        /** Runs over all documents once; returns a value that depends on every result (kept from the optimizer). */
        long pass();
    }

    /** A case's median seconds per pass over its input, and the bytes this thread allocated per pass (-1 where unknown). */
    record Timing(double seconds, double bytesPerPass) {}

    /** XOR of everything computed, printed so nothing can be optimized away. */
    long sink;

    private final Log log;
    private final double secondsPerPass;
    private final int passes;

    InterleavedPasses(Log log, double secondsPerPass, int passes) {
        this.log = log;
        this.secondsPerPass = secondsPerPass;
        this.passes = passes;
    }

    /** Times all cases, in their map order within each pass. */
    Map<String, Timing> run(Map<String, Case> cases) {
        Map<String, List<Double>> secs = new LinkedHashMap<>();
        Map<String, Long> allocated = new LinkedHashMap<>();
        Map<String, Long> runs = new LinkedHashMap<>();
        Map<String, Integer> reps = new LinkedHashMap<>();
        // calibrate: how many passes over the input make one timed run of about secondsPerPass
        for (Map.Entry<String, Case> e : cases.entrySet()) {
            long t0 = System.nanoTime();
            sink ^= e.getValue().pass(); // also the JIT warm-up
            sink ^= e.getValue().pass();
            double one = (System.nanoTime() - t0) / 2e9;
            reps.put(e.getKey(), Math.max(1, (int) Math.round(secondsPerPass / Math.max(one, 1e-6))));
            secs.put(e.getKey(), new ArrayList<>());
        }
        for (int p = 0; p < passes; p++) {
            for (Map.Entry<String, Case> e : cases.entrySet()) {
                int n = reps.get(e.getKey());
                long a0 = FingerprintBench.allocatedBytes();
                long t0 = System.nanoTime();
                for (int i = 0; i < n; i++) {
                    sink ^= e.getValue().pass();
                }
                secs.get(e.getKey()).add((System.nanoTime() - t0) / 1e9 / n);
                allocated.merge(e.getKey(), FingerprintBench.allocatedBytes() - a0, Long::sum);
                runs.merge(e.getKey(), (long) n, Long::sum);
            }
            log.info("  pass " + (p + 1) + "/" + passes + " done");
        }
        Map<String, Timing> out = new LinkedHashMap<>();
        for (String name : cases.keySet()) {
            double s = Stats.median(secs.get(name).stream().mapToDouble(Double::doubleValue).toArray());
            out.put(name, new Timing(s, allocated.get(name) / (double) runs.get(name)));
        }
        return out;
    }
}
