package dev.simhash.chaos;

import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.TimeUnit;

/**
 * When the cluster was disturbed (a node killed, or a health check that was not green with all nodes), so that an
 * unavailability error can be told apart from one with no reason.
 */
final class Disturbances {

    /** How long before an error a disturbance may have begun and still explain it (requests wait, shards recover). */
    private static final long BEFORE = TimeUnit.SECONDS.toNanos(45);
    /** How long after an error a disturbance may be noticed and still explain it (health is polled every 2 s). */
    private static final long AFTER = TimeUnit.SECONDS.toNanos(5);

    private final ConcurrentSkipListSet<Long> marks = new ConcurrentSkipListSet<>();

    void mark(long nanos) {
        marks.add(nanos);
    }

    boolean near(long nanos) {
        Long m = marks.ceiling(nanos - BEFORE);
        return m != null && m <= nanos + AFTER;
    }
}
