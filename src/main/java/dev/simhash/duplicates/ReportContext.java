package dev.simhash.duplicates;

import dev.simhash.breaker.RequestMemory;
import dev.simhash.request.CallerSteps;
import dev.simhash.request.PointInTime;

import org.elasticsearch.action.ActionListener;
import org.elasticsearch.client.internal.Client;
import org.elasticsearch.common.util.concurrent.ThreadContext;
import org.elasticsearch.core.CheckedConsumer;
import org.elasticsearch.core.CheckedRunnable;

import java.util.function.Consumer;

/**
 * What every step of one report run shares: its task and request, the client that sends its inner requests as the
 * task's children (with the caller's privileges), the memory it charges, its point in time, and how a step fails the run.
 */
record ReportContext(DuplicatesTask task, DuplicatesRequest request, Client client, ThreadContext threadContext, RequestMemory memory,
                     PointInTime pit, Consumer<Exception> fail) {

    /**
     * A listener that runs {@code step} in the caller's thread context (so the next inner request carries the caller's
     * identity, whichever thread delivered the response) and turns any exception into the run's failure.
     */
    <T> ActionListener<T> step(CheckedConsumer<T, Exception> step) {
        return CallerSteps.step(threadContext, step, fail);
    }

    /** Runs {@code step} now, failing the run if it throws. */
    void safely(CheckedRunnable<Exception> step) {
        try {
            step.run();
        } catch (Exception e) {
            fail.accept(e);
        }
    }
}
