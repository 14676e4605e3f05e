package dev.simhash.breaker;

import org.elasticsearch.common.breaker.CircuitBreaker;
import org.elasticsearch.core.Releasable;

/**
 * The heap one request (a calibration, a near-duplicate report) holds in proportion to its input or the index, charged to a
 * circuit breaker (the request breaker): every charge can trip it (a 429 {@code circuit_breaking_exception} for the caller,
 * naming the request by its label), and {@link #close} gives back whatever is still charged, exactly once, on success,
 * failure and cancellation alike. Once closed, a late charge (e.g. of a slice still answering after a failure) is refused
 * instead of leaking into the breaker, and a late release does nothing.
 */
public final class RequestMemory implements Releasable {

    private final CircuitBreaker breaker;
    private final String label;
    private long charged;
    private long peak;
    private boolean closed;

    /** @param label how a 429 names the request, e.g. {@code "simhash calibrate: "}, followed by what was being charged */
    public RequestMemory(CircuitBreaker breaker, String label) {
        this.breaker = breaker;
        this.label = label;
    }

    /**
     * Charges {@code bytes} more to the breaker (a negative amount gives that much back, see {@link #release}).
     *
     * @throws org.elasticsearch.common.breaker.CircuitBreakingException when they do not fit; nothing is charged then
     * @throws IllegalStateException when the request has completed already
     */
    public synchronized void add(long bytes, String what) {
        if (bytes <= 0) {
            release(-bytes);
            return;
        }
        if (closed) {
            throw new IllegalStateException(label + "the request has completed, its memory is released");
        }
        breaker.addEstimateBytesAndMaybeBreak(bytes, label + what);
        charged += bytes;
        peak = Math.max(peak, charged);
    }

    /** Sets the charge of one holder from {@code before} to {@code after} bytes. */
    public void update(long before, long after, String what) {
        add(after - before, what);
    }

    /** Gives back {@code bytes} of what is charged (no more than is charged). */
    public synchronized void release(long bytes) {
        long n = Math.min(bytes, charged);
        if (n > 0) {
            breaker.addWithoutBreaking(-n);
            charged -= n;
        }
    }

    /** Bytes charged now. */
    public synchronized long charged() {
        return charged;
    }

    /** The most bytes charged at once so far. */
    public synchronized long peak() {
        return peak;
    }

    /** Gives back all that is still charged; later charges fail, later releases do nothing. */
    @Override
    public synchronized void close() {
        release(charged);
        closed = true;
    }
}
