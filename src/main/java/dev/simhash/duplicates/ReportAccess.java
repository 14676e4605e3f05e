package dev.simhash.duplicates;

import dev.simhash.core.SimHash;

import org.elasticsearch.ExceptionsHelper;
import org.elasticsearch.ResourceNotFoundException;
import org.elasticsearch.action.ActionListener;
import org.elasticsearch.action.search.SearchRequest;
import org.elasticsearch.action.search.TransportSearchAction;
import org.elasticsearch.action.support.IndicesOptions;
import org.elasticsearch.client.internal.Client;
import org.elasticsearch.index.query.MatchNoneQueryBuilder;
import org.elasticsearch.rest.RestStatus;
import org.elasticsearch.search.builder.SearchSourceBuilder;

/**
 * Finds a stored report for a caller: the record when the caller may read every index the report read (as its request
 * named them, {@link ReportRecord#readAs}), otherwise the same 404 as for a report that does not exist or has expired, so
 * that an answer reveals nothing of another user's report (neither its indices nor that it exists). The check is a search
 * of those indices that matches nothing, sent as the caller: security authorizes it exactly as it would authorize the
 * report itself.
 */
final class ReportAccess {

    private final ReportStore store;
    private final Client callerClient;

    ReportAccess(ReportStore store, Client callerClient) {
        this.store = store;
        this.callerClient = callerClient;
    }

    static ResourceNotFoundException notFound(String id) {
        return new ResourceNotFoundException("report [" + SimHash.abbreviate(id) + "] not found: unknown, deleted, expired, or "
            + "over indices you may not read");
    }

    /** The record, once the caller has been found to be allowed to see it. */
    void find(String id, ActionListener<ReportRecord> listener) {
        store.get(id, listener.delegateFailureAndWrap((l, record) -> {
            if (record == null || record.expired(System.currentTimeMillis())) {
                l.onFailure(notFound(id));
                return;
            }
            if (record.readAs().isEmpty()) {
                // the report read no index (a pattern that matched none): it holds nothing to protect, and a search of no
                // index names would search every index
                l.onResponse(record);
                return;
            }
            // strict: a named index the caller may not read is a 403, never silently skipped
            SearchRequest check = new SearchRequest(record.readAs().toArray(String[]::new))
                .indicesOptions(IndicesOptions.strictExpandOpen())
                .source(new SearchSourceBuilder().size(0).trackTotalHits(false).query(new MatchNoneQueryBuilder()));
            callerClient.execute(TransportSearchAction.TYPE, check, ActionListener.wrap(r -> l.onResponse(record), e -> {
                RestStatus status = ExceptionsHelper.status(e);
                // refused (403), or an index deleted since (404, which would name it): as if there were no such report
                l.onFailure(status == RestStatus.FORBIDDEN || status == RestStatus.NOT_FOUND ? notFound(id) : e);
            }));
        }));
    }
}
