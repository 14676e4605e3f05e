package dev.simhash.demo;

import java.io.PrintStream;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * One step line of the demo ({@code [demo] starting the node … 12s}) with a running clock on a
 * terminal, so that slow steps (unpacking Elasticsearch, starting the node) visibly make progress.
 */
final class Step {

    /** The prefix of every line the demo (and the run script) prints about its own progress. */
    static final String PREFIX = "[demo] ";

    private final PrintStream out;
    private final boolean terminal;

    Step(PrintStream out, boolean terminal) {
        this.out = out;
        this.terminal = terminal;
    }

    /** Runs {@code work} under the line {@code label}, then prints its duration (or "failed"). */
    <T> T run(String label, Callable<T> work) throws Exception {
        String line = PREFIX + label + " …";
        out.print(line);
        out.flush();
        long start = System.nanoTime();
        Thread clock = terminal ? Thread.ofPlatform().daemon().start(() -> tick(line, start)) : null;
        boolean ok = false;
        try {
            T result = work.call();
            ok = true;
            return result;
        } finally {
            if (clock != null) {
                clock.interrupt();
                clock.join();
            }
            String took = seconds(System.nanoTime() - start);
            // on a terminal the clock rewrote the line; elsewhere (logs, CI) the line is still open
            out.println((terminal ? "\r" + line : "") + (ok ? " done in " + took : " failed after " + took));
        }
    }

    private void tick(String line, long start) {
        try {
            while (true) {
                Thread.sleep(1000);
                out.print("\r" + line + " " + Duration.ofNanos(System.nanoTime() - start).toSeconds() + "s");
                out.flush();
            }
        } catch (InterruptedException e) {
            // the step is over
        }
    }

    static String seconds(long nanos) {
        return String.format(Locale.ROOT, "%.1fs", nanos / 1e9);
    }
}
