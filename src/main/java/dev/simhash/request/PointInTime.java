package dev.simhash.request;

import org.elasticsearch.action.ActionListener;
import org.elasticsearch.action.search.ClosePointInTimeRequest;
import org.elasticsearch.action.search.OpenPointInTimeRequest;
import org.elasticsearch.action.search.OpenPointInTimeResponse;
import org.elasticsearch.action.search.SearchRequest;
import org.elasticsearch.action.search.SearchResponse;
import org.elasticsearch.action.search.TransportClosePointInTimeAction;
import org.elasticsearch.action.search.TransportOpenPointInTimeAction;
import org.elasticsearch.action.search.TransportSearchAction;
import org.elasticsearch.action.support.IndicesOptions;
import org.elasticsearch.client.internal.Client;
import org.elasticsearch.common.bytes.BytesReference;
import org.elasticsearch.core.TimeValue;
import org.elasticsearch.search.builder.PointInTimeBuilder;
import org.elasticsearch.search.builder.SearchSourceBuilder;
import org.elasticsearch.search.sort.SortBuilders;
import org.elasticsearch.threadpool.Scheduler;
import org.elasticsearch.threadpool.ThreadPool;

/**
 * The point in time an action pages its indices through, as every action that reads a whole index uses it: opened once
 * ({@link #open}), put on each page's search ({@link #on}, sorted by the point in time's tiebreaker so that
 * {@code search_after} pages it), its id taken from every response ({@link #renew}: a search may hand back a new one),
 * kept alive while the action does other work between its searches ({@link #keepAlive(ThreadPool)}), and closed once
 * ({@link #close}).
 *
 * <p>The searches go through {@code child}: a client that runs them as children of the action's task, so cancelling the
 * task stops them. The close goes through {@code closer} (the node's client as the caller), because no child request may
 * start once the task is cancelled, and the point in time should still be released then. Closing is best effort: an
 * unclosed point in time expires after its keep-alive anyway.
 */
public final class PointInTime {

    private final Client child;
    private final Client closer;
    private final TimeValue keepAlive;
    private volatile BytesReference id;
    private Scheduler.Cancellable renewal;

    public PointInTime(Client child, Client closer, TimeValue keepAlive) {
        this.child = child;
        this.closer = closer;
        this.keepAlive = keepAlive;
    }

    /** Opens the point in time over {@code indices}, then tells {@code listener}. */
    public void open(String[] indices, IndicesOptions options, ActionListener<Void> listener) {
        OpenPointInTimeRequest open = new OpenPointInTimeRequest(indices).keepAlive(keepAlive);
        if (options != null) {
            open.indicesOptions(options);
        }
        child.execute(TransportOpenPointInTimeAction.TYPE, open, listener.map((OpenPointInTimeResponse r) -> {
            id = r.getPointInTimeId();
            return null;
        }));
    }

    /** {@code source} searching this point in time, sorted by its tiebreaker (what {@code search_after} pages by). */
    public SearchSourceBuilder on(SearchSourceBuilder source) {
        return source.sort(SortBuilders.pitTiebreaker()).pointInTimeBuilder(new PointInTimeBuilder(id).setKeepAlive(keepAlive));
    }

    /** Takes the id a search on this point in time answered with (a search may renew it). */
    public void renew(SearchResponse response) {
        if (response.pointInTimeId() != null) {
            id = response.pointInTimeId();
        }
    }

    /**
     * Renews the point in time every half keep-alive until it is closed, while the action works between its searches: a
     * search of no hits on it, with the keep-alive, as the caller (the scheduled task keeps the thread context). A failed
     * renewal is not the action's failure: its next search reports a point in time that is gone.
     */
    public synchronized void keepAlive(ThreadPool threadPool) {
        if (id == null || renewal != null) {
            return;
        }
        TimeValue every = TimeValue.timeValueMillis(Math.max(1, keepAlive.millis() / 2));
        renewal = threadPool.scheduleWithFixedDelay(threadPool.getThreadContext().preserveContext(() -> {
            BytesReference current = id;
            if (current == null) {
                return;
            }
            SearchSourceBuilder source = new SearchSourceBuilder().size(0).trackTotalHits(false)
                .pointInTimeBuilder(new PointInTimeBuilder(current).setKeepAlive(keepAlive));
            child.execute(TransportSearchAction.TYPE, new SearchRequest().source(source), ActionListener.noop());
        }), every, threadPool.generic());
    }

    /** Stops renewing and closes the point in time, once (later calls do nothing). */
    public void close() {
        synchronized (this) {
            if (renewal != null) {
                renewal.cancel();
                renewal = null;
            }
        }
        BytesReference current = id;
        id = null;
        if (current != null) {
            closer.execute(TransportClosePointInTimeAction.TYPE, new ClosePointInTimeRequest(current), ActionListener.noop());
        }
    }
}
