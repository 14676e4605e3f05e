package dev.simhash.breaker;

import org.elasticsearch.common.breaker.CircuitBreaker;
import org.elasticsearch.common.breaker.CircuitBreakingException;
import org.elasticsearch.test.ESTestCase;

/** A request's memory: charged to the breaker, a 429 naming the request when it does not fit, given back exactly once. */
public class RequestMemoryTest extends ESTestCase {

    public void testRequestMemoryGivesBackEverythingOnce() {
        CircuitBreaker breaker = new LimitedBreaker(100);
        RequestMemory memory = new RequestMemory(breaker, "simhash calibrate: ");
        memory.add(60, "a");
        CircuitBreakingException e = expectThrows(CircuitBreakingException.class, () -> memory.add(50, "b"));
        assertTrue(e.getMessage(), e.getMessage().contains("simhash calibrate: b"));
        assertEquals(60, breaker.getUsed());
        memory.add(-20, "smaller");
        assertEquals(40, breaker.getUsed());
        memory.release(1_000);
        assertEquals("never more than was charged", 0, breaker.getUsed());
        memory.add(30, "c");
        assertEquals("the most charged at once", 60, memory.peak());
        memory.close();
        memory.close();
        assertEquals(0, breaker.getUsed());
        expectThrows(IllegalStateException.class, () -> memory.add(1, "after"));
    }
}
