package dev.simhash.calibrate;

import dev.simhash.request.CallerSteps;

import org.elasticsearch.action.ActionListener;
import org.elasticsearch.action.ActionRunnable;
import org.elasticsearch.core.CheckedConsumer;
import org.elasticsearch.core.CheckedRunnable;
import org.elasticsearch.threadpool.ThreadPool;

/**
 * How the steps of one calibration follow each other: after a child request, in the caller's thread context, or forked to
 * the generic pool; a step that throws fails the request's listener.
 */
final class JobSteps {

    private final ThreadPool threadPool;
    private final ActionListener<CalibrateResponse> listener;

    JobSteps(ThreadPool threadPool, ActionListener<CalibrateResponse> listener) {
        this.threadPool = threadPool;
        this.listener = listener;
    }

    /** The listener of a child request whose response the step takes. */
    <T> ActionListener<T> step(CheckedConsumer<T, Exception> step) {
        return CallerSteps.step(threadPool.getThreadContext(), step, listener::onFailure);
    }

    /** Runs the next step on the generic pool: texts are reduced and fingerprinted there, never on a search thread. */
    void fork(CheckedRunnable<Exception> step) {
        threadPool.generic().execute(ActionRunnable.wrap(listener, l -> step.run()));
    }
}
