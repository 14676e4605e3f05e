package dev.simhash.collapse;

import org.elasticsearch.common.breaker.CircuitBreaker;

/**
 * The heap one near-duplicate report holds, charged to a circuit breaker (the request breaker): charges may trip it
 * (the report then fails with 429 before it writes anything), and {@link #close} gives everything back exactly once,
 * on success, failure or cancellation. Once closed, a late charge (e.g. of a slice still answering after a failure) is
 * refused instead of leaking into the breaker.
 */
final class ReportMemory implements AutoCloseable {

    private static final String LABEL = "<simhash_duplicates>";

    private final CircuitBreaker breaker;
    private long charged;
    private long peak;
    private boolean closed;

    ReportMemory(CircuitBreaker breaker) {
        this.breaker = breaker;
    }

    /**
     * Charges {@code bytes} more (or gives back, when negative).
     *
     * @throws org.elasticsearch.common.breaker.CircuitBreakingException when the breaker's limit would be exceeded
     * @throws IllegalStateException when the report is over already
     */
    synchronized void charge(long bytes) {
        if (closed) {
            throw new IllegalStateException("[_simhash/duplicates] the report has ended, its memory is released");
        }
        if (bytes > 0) {
            breaker.addEstimateBytesAndMaybeBreak(bytes, LABEL);
        } else {
            bytes = Math.max(bytes, -charged);
            breaker.addWithoutBreaking(bytes);
        }
        charged += bytes;
        peak = Math.max(peak, charged);
    }

    /** Sets the charge for one holder from {@code before} to {@code after} bytes. */
    void update(long before, long after) {
        charge(after - before);
    }

    /** Bytes charged now. */
    synchronized long charged() {
        return charged;
    }

    /** The most bytes charged at once so far. */
    synchronized long peak() {
        return peak;
    }

    /** Gives every charged byte back; later calls do nothing. */
    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            breaker.addWithoutBreaking(-charged);
            charged = 0;
        }
    }
}
