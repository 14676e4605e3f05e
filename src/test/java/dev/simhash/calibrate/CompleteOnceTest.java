package dev.simhash.calibrate;

import org.elasticsearch.action.ActionListener;
import org.elasticsearch.action.ActionRunnable;
import org.elasticsearch.test.ESTestCase;

import java.util.concurrent.atomic.AtomicInteger;

/** The calibration's listener completes once and its resources are released once, however the last step ends. */
public class CompleteOnceTest extends ESTestCase {

    /** A caller's listener that counts its completions and throws from onResponse. */
    private static final class Throwing implements ActionListener<String> {
        final AtomicInteger responses = new AtomicInteger();
        final AtomicInteger failures = new AtomicInteger();
        private final boolean throwOnResponse;

        Throwing(boolean throwOnResponse) {
            this.throwOnResponse = throwOnResponse;
        }

        @Override
        public void onResponse(String response) {
            responses.incrementAndGet();
            if (throwOnResponse) {
                throw new IllegalStateException("the caller's listener fails");
            }
        }

        @Override
        public void onFailure(Exception e) {
            failures.incrementAndGet();
        }
    }

    public void testAListenerThatThrowsInOnResponseIsNotFailedAfterwards() {
        Throwing caller = new Throwing(true);
        AtomicInteger released = new AtomicInteger();
        ActionListener<String> once = TransportCalibrateAction.completeOnce(caller, released::incrementAndGet);
        // the job's last step: the report supplied on the generic pool. A listener must not throw (Elasticsearch asserts
        // so under -ea, as here); without assertions the exception reaches the runnable's onFailure, which must not
        // complete the caller a second time
        ActionRunnable<String> last = ActionRunnable.supply(once, () -> "report");
        try {
            last.run();
        } catch (AssertionError e) {
            assertTrue(e.getMessage(), e.getMessage().contains("must handle its own exceptions"));
        }
        last.onFailure(new IllegalStateException("the caller's listener fails"));
        assertEquals(1, caller.responses.get());
        assertEquals("no failure after a response", 0, caller.failures.get());
        assertEquals(1, released.get());
        once.onFailure(new RuntimeException("late"));
        once.onResponse("again");
        assertEquals(1, caller.responses.get());
        assertEquals(0, caller.failures.get());
        assertEquals(1, released.get());
    }

    public void testAFailureReleasesOnceAndCompletesOnce() {
        Throwing caller = new Throwing(false);
        AtomicInteger released = new AtomicInteger();
        ActionListener<String> once = TransportCalibrateAction.completeOnce(caller, released::incrementAndGet);
        ActionRunnable.<String>supply(once, () -> {
            throw new IllegalArgumentException("[field] is bad");
        }).run();
        once.onFailure(new RuntimeException("again"));
        once.onResponse("late");
        assertEquals(1, caller.failures.get());
        assertEquals(0, caller.responses.get());
        assertEquals(1, released.get());
    }
}
