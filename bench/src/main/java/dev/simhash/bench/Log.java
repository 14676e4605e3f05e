package dev.simhash.bench;

import java.util.Locale;

/** Progress output of the harness: every line carries the time since the start of the run. */
public final class Log {

    private final long start = System.nanoTime();

    public void info(String msg) {
        System.out.printf(Locale.ROOT, "[bench %s] %s%n", elapsed(), msg);
        System.out.flush();
    }

    public void warn(String msg) {
        System.out.printf(Locale.ROOT, "[bench %s] WARNING: %s%n", elapsed(), msg);
        System.out.flush();
    }

    public double seconds() {
        return (System.nanoTime() - start) / 1e9;
    }

    /** Elapsed time as m:ss. */
    public String elapsed() {
        long s = (long) seconds();
        return String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
    }

    /** A progress meter that prints at most every {@code step} fraction of the total. */
    public Progress progress(String what, long total) {
        return new Progress(what, total);
    }

    /** Prints "what: done/total (pct%)" when another tenth is done. */
    public final class Progress {
        private final String what;
        private final long total;
        private long done;
        private int lastTenth = 0;
        private final long t0 = System.nanoTime();

        Progress(String what, long total) {
            this.what = what;
            this.total = Math.max(1, total);
        }

        public synchronized void add(long n) {
            done += n;
            int tenth = (int) (done * 10 / total);
            if (tenth > lastTenth) {
                lastTenth = tenth;
                double secs = (System.nanoTime() - t0) / 1e9;
                info(String.format(Locale.ROOT, "  %s: %,d/%,d (%d%%, %.1f s)", what, done, total, tenth * 10, secs));
            }
        }
    }
}
