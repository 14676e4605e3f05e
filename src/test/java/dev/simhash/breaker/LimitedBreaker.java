package dev.simhash.breaker;

import org.elasticsearch.common.breaker.CircuitBreaker;
import org.elasticsearch.common.breaker.CircuitBreakingException;
import org.elasticsearch.common.breaker.NoopCircuitBreaker;

/** A request breaker for tests: counts what is charged and trips (a {@code too much <label>} exception) beyond its limit. */
public final class LimitedBreaker extends NoopCircuitBreaker {

    private final long limit;
    private long used;

    public LimitedBreaker(long limit) {
        super(CircuitBreaker.REQUEST);
        this.limit = limit;
    }

    @Override
    public void addEstimateBytesAndMaybeBreak(long bytes, String label) {
        if (used + bytes > limit) {
            throw new CircuitBreakingException("too much " + label, bytes, limit, CircuitBreaker.Durability.TRANSIENT);
        }
        used += bytes;
    }

    @Override
    public void addWithoutBreaking(long bytes) {
        used += bytes;
    }

    @Override
    public long getUsed() {
        return used;
    }
}
