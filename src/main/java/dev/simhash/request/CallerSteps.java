package dev.simhash.request;

import org.elasticsearch.action.ActionListener;
import org.elasticsearch.action.support.ContextPreservingActionListener;
import org.elasticsearch.common.util.concurrent.ThreadContext;
import org.elasticsearch.core.CheckedConsumer;

import java.util.function.Consumer;

/**
 * How an action's next step follows an inner request: in the caller's thread context, so that the step's own inner
 * requests carry the caller's identity (and privileges) whichever thread delivered the response.
 */
public final class CallerSteps {

    private CallerSteps() {}

    /** A listener that runs {@code step} in the caller's thread context and gives any exception, its own or the request's, to {@code fail}. */
    public static <T> ActionListener<T> step(ThreadContext callerContext, CheckedConsumer<T, Exception> step, Consumer<Exception> fail) {
        return ContextPreservingActionListener.wrapPreservingContext(ActionListener.wrap(step, fail::accept), callerContext);
    }
}
