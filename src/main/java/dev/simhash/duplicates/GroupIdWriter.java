package dev.simhash.duplicates;

import dev.simhash.core.FingerprintTable;
import dev.simhash.core.NearDuplicateComponents;
import dev.simhash.core.SimHash;

import org.elasticsearch.ElasticsearchStatusException;
import org.elasticsearch.ExceptionsHelper;
import org.elasticsearch.action.DocWriteResponse;
import org.elasticsearch.action.bulk.BulkItemResponse;
import org.elasticsearch.action.bulk.BulkRequest;
import org.elasticsearch.action.bulk.BulkResponse;
import org.elasticsearch.action.bulk.TransportBulkAction;
import org.elasticsearch.action.update.UpdateRequest;

import java.util.Locale;
import java.util.Map;
import java.util.function.LongConsumer;

/**
 * Writes each document's group id (its group's smallest fingerprint, as 16 lowercase hex digits) into the request's
 * {@code write_group_id} field, by bulk partial updates of at most {@value #BULK_SIZE} documents, skipping the documents
 * that hold their group id already (a rerun after a failure completes the write).
 */
final class GroupIdWriter {

    /** Updates per bulk request. */
    static final int BULK_SIZE = 1_000;

    private final ReportContext run;
    private final ReportDocuments docs;
    private final FingerprintTable table;
    private final NearDuplicateComponents components;
    private final String field;
    /** The documents whose group id the write changes. */
    private final long toUpdate;
    /** How many it changed so far. */
    private volatile long updated;

    GroupIdWriter(ReportContext run, ReportDocuments docs, NearDuplicateComponents components) {
        this.run = run;
        this.docs = docs;
        this.table = docs.table();
        this.components = components;
        this.field = run.request().writeGroupId();
        long n = 0;
        for (int doc = 0; doc < table.size(); doc++) {
            if (!docs.holdsGroup(doc, groupOf(doc))) {
                n++;
            }
        }
        this.toUpdate = n;
    }

    private long groupOf(int doc) {
        return components.componentMinHash(components.componentOf(doc));
    }

    /** Writes every group id, then gives {@code then} how many documents changed. */
    void start(LongConsumer then) {
        run.task().phase(DuplicatesStatus.Phase.WRITE);
        run.task().docsToWrite(table.size());
        write(0, 0, then);
    }

    /** Writes group ids from document {@code cursor} on, one bulk request at a time. */
    private void write(int cursor, long written, LongConsumer then) {
        run.task().ensureNotCancelled();
        BulkRequest bulk = new BulkRequest();
        int doc = cursor;
        for (; doc < table.size() && bulk.numberOfActions() < BULK_SIZE; doc++) {
            long group = groupOf(doc);
            if (docs.holdsGroup(doc, group)) {
                continue;
            }
            bulk.add(new UpdateRequest(table.index(doc), table.id(doc)).routing(table.routing(doc)).retryOnConflict(3)
                .doc(Map.of(field, SimHash.toHex(group))));
        }
        int visited = doc - cursor;
        if (bulk.numberOfActions() == 0) {
            run.task().addDocsWritten(visited);
            then.accept(written);
            return;
        }
        int next = doc;
        run.client().execute(TransportBulkAction.TYPE, bulk, run.step((BulkResponse r) -> {
            long now = written;
            Exception failure = null;
            for (BulkItemResponse item : r.getItems()) {
                if (item.isFailed()) {
                    // the cause keeps its status; the items written besides it still count in the failure's message
                    failure = failure == null ? item.getFailure().getCause() : failure;
                } else if (item.getResponse().getResult() != DocWriteResponse.Result.NOOP) {
                    now++;
                }
            }
            updated = now;
            if (failure != null) {
                throw failure;
            }
            run.task().addDocsWritten(visited);
            write(next, now, then);
        }));
    }

    /**
     * The failure of a report stopped in the write phase (a failed bulk item, a cancellation), which has written part of the
     * group ids: it says how far it got; a rerun skips the documents that hold their group id already.
     */
    Exception partlyWritten(Exception e) {
        return new ElasticsearchStatusException(String.format(Locale.ROOT, "[_simhash/duplicates] wrote group ids to [%d] of [%d] "
            + "documents before failing: rerun the report to complete (documents that hold their group id are skipped); "
            + "cause: %s", updated, toUpdate, e.getMessage()), ExceptionsHelper.status(e), e);
    }
}
