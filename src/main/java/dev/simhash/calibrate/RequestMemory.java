package dev.simhash.calibrate;

import org.elasticsearch.common.breaker.CircuitBreaker;
import org.elasticsearch.core.Releasable;

/**
 * The memory one calibration request holds, charged to a circuit breaker (the request breaker): every charge can trip
 * it (a 429 {@code circuit_breaking_exception} for the caller), and {@link #close} gives back whatever is still charged,
 * once, on success, failure and cancellation alike.
 */
public final class RequestMemory implements Releasable {

    /** Prefix of the breaker's label, so that a 429 says which request took the memory. */
    static final String LABEL = "simhash calibrate: ";

    private final CircuitBreaker breaker;
    private long charged;
    private boolean closed;

    public RequestMemory(CircuitBreaker breaker) {
        this.breaker = breaker;
    }

    /**
     * Charges {@code bytes} to the breaker.
     *
     * @throws org.elasticsearch.common.breaker.CircuitBreakingException when they do not fit; nothing is charged then
     */
    public synchronized void add(long bytes, String what) {
        if (bytes <= 0) {
            release(-bytes);
            return;
        }
        if (closed) {
            throw new IllegalStateException("the calibration request has completed");
        }
        breaker.addEstimateBytesAndMaybeBreak(bytes, LABEL + what);
        charged += bytes;
    }

    /** Gives back {@code bytes} of what was charged (no more than is charged). */
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

    /** Gives back all that is still charged; later charges fail, later releases do nothing. */
    @Override
    public synchronized void close() {
        release(charged);
        closed = true;
    }
}
