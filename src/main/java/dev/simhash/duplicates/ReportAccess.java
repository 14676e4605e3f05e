package dev.simhash.duplicates;

import org.elasticsearch.ResourceNotFoundException;
import org.elasticsearch.action.ActionListener;
import org.elasticsearch.action.search.SearchRequest;
import org.elasticsearch.action.search.TransportSearchAction;
import org.elasticsearch.action.support.IndicesOptions;
import org.elasticsearch.client.internal.Client;
import org.elasticsearch.index.query.MatchNoneQueryBuilder;
import org.elasticsearch.search.builder.SearchSourceBuilder;

/**
 * Finds a stored report for a caller: 404 when there is none or it has expired, 403 (or 404 for an index deleted since)
 * unless the caller may read every index the report read. The check is a search of those indices that matches nothing,
 * sent as the caller: security authorizes it exactly as it would authorize the report itself.
 */
final class ReportAccess {

    private final ReportStore store;
    private final Client callerClient;

    ReportAccess(ReportStore store, Client callerClient) {
        this.store = store;
        this.callerClient = callerClient;
    }

    static ResourceNotFoundException notFound(String id) {
        return new ResourceNotFoundException("report [" + dev.simhash.core.SimHash.abbreviate(id)
            + "] not found: unknown, deleted, or expired");
    }

    /** The record, once the caller has been found to be allowed to see it. */
    void find(String id, ActionListener<ReportRecord> listener) {
        store.get(id, listener.delegateFailureAndWrap((l, record) -> {
            if (record == null || record.expired(System.currentTimeMillis())) {
                l.onFailure(notFound(id));
                return;
            }
            if (record.indices().isEmpty()) {
                // the report read no index (a pattern that matched none): it holds nothing to protect, and a search of no
                // index names would search every index
                l.onResponse(record);
                return;
            }
            // strict: a named index the caller may not read is a 403, never silently skipped
            SearchRequest check = new SearchRequest(record.indices().toArray(String[]::new))
                .indicesOptions(IndicesOptions.strictExpandOpen())
                .source(new SearchSourceBuilder().size(0).trackTotalHits(false).query(new MatchNoneQueryBuilder()));
            callerClient.execute(TransportSearchAction.TYPE, check, l.map(r -> record));
        }));
    }
}
