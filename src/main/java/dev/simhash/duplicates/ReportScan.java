package dev.simhash.duplicates;

import dev.simhash.compat.lucene.CompatHits;
import dev.simhash.mapper.SimHashFieldType;

import org.elasticsearch.action.ActionListener;
import org.elasticsearch.action.search.ClearScrollRequest;
import org.elasticsearch.action.search.SearchRequest;
import org.elasticsearch.action.search.SearchResponse;
import org.elasticsearch.action.search.SearchScrollRequest;
import org.elasticsearch.action.search.TransportClearScrollAction;
import org.elasticsearch.action.search.TransportSearchAction;
import org.elasticsearch.action.search.TransportSearchScrollAction;
import org.elasticsearch.client.internal.Client;
import org.elasticsearch.core.TimeValue;
import org.elasticsearch.index.query.BoolQueryBuilder;
import org.elasticsearch.search.SearchHit;
import org.elasticsearch.search.builder.SearchSourceBuilder;
import org.elasticsearch.search.fetch.StoredFieldsContext;
import org.elasticsearch.search.fetch.subphase.FieldAndFormat;
import org.elasticsearch.search.slice.SliceBuilder;
import org.elasticsearch.search.sort.SortBuilders;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * Reads every document the report covers into {@link ReportDocuments}, page by page in parallel slices: through the
 * report's point in time, or by scrolls of the request's indices when the caller may not read the concrete indices
 * ({@link ReportSetup#scrolling}). Also builds the searches of the member fetch, which pages the same way.
 */
final class ReportScan {

    private final ReportContext run;
    private final ReportSetup setup;
    private final ReportDocuments docs;
    private final int slices;
    private final TimeValue keepAlive;
    /** Clears the scrolls as the caller (a scroll is cleared by whoever opened it), not as a child of a cancelled task. */
    private final Client caller;
    private final AtomicInteger slicesRunning;
    private final AtomicInteger slicesCounted = new AtomicInteger();
    private final AtomicLong docsTotal = new AtomicLong();
    /** Each slice's scroll while reading by scrolls; null otherwise and once they are cleared. */
    private volatile String[] scrollIds;

    ReportScan(ReportContext run, ReportSetup setup, ReportDocuments docs, int slices, TimeValue keepAlive, Client caller) {
        this.run = run;
        this.setup = setup;
        this.docs = docs;
        this.slices = slices;
        this.keepAlive = keepAlive;
        this.caller = caller;
        this.slicesRunning = new AtomicInteger(slices);
        this.scrollIds = setup.scrolling() ? new String[slices] : null;
    }

    /**
     * Reads every slice to its end, then runs {@code done} once (with the point in time still open); {@code stopped}
     * tells a slice the run has ended meanwhile.
     */
    void readAll(BooleanSupplier stopped, Runnable done) {
        if (setup.scrolling()) {
            for (int slice = 0; slice < slices; slice++) {
                readPage(slice, null, stopped, done);
            }
            return;
        }
        run.pit().open(run.request().indices(), run.request().indicesOptions(), run.step((Void opened) -> {
            for (int slice = 0; slice < slices; slice++) {
                readPage(slice, null, stopped, done);
            }
        }));
    }

    /** A page of {@code query} after {@code searchAfter}, with each hit's fingerprint (and sketch, when verifying). */
    SearchSourceBuilder source(BoolQueryBuilder query, Object[] searchAfter) {
        SearchSourceBuilder source = new SearchSourceBuilder().query(query).size(setup.pageSize()).fetchSource(false)
            .trackTotalHits(false);
        if (setup.scrolling()) {
            source.sort(SortBuilders.fieldSort("_doc"));
        } else {
            run.pit().on(source);
        }
        if (setup.verification() == null) {
            source.docValueField(setup.hashPath(), setup.fingerprints().format());
        } else {
            // the fingerprint and the sketch as one value list: Elasticsearch renders one format per field name, so
            // this reads both in one search (the fields option needs stored fields enabled: the _id comes along)
            source.fetchField(new FieldAndFormat(setup.hashPath(), SimHashFieldType.FINGERPRINT_AND_SKETCH_FORMAT));
        }
        if (searchAfter != null) {
            source.searchAfter(searchAfter);
        }
        return source;
    }

    /** Fails on any failed shard (a report over part of the documents would be wrong); renews the point in time. */
    void checkShards(SearchResponse response, String what) {
        if (response.getFailedShards() > 0) {
            throw new IllegalStateException("[_simhash/duplicates] [" + response.getFailedShards() + "] shards failed while " + what
                + ": a report over part of the documents would be wrong", response.getShardFailures()[0].getCause());
        }
        run.pit().renew(response);
    }

    private void readPage(int slice, Object[] searchAfter, BooleanSupplier stopped, Runnable done) {
        if (stopped.getAsBoolean()) {
            return;
        }
        run.task().ensureNotCancelled();
        DuplicatesRequest request = run.request();
        SearchSourceBuilder source = source(setup.covered(request), searchAfter);
        if (searchAfter == null) {
            // the first page of each slice counts its documents, for the progress status
            source.trackTotalHitsUpTo(Integer.MAX_VALUE);
        }
        if (slices > 1) {
            source.slice(new SliceBuilder(slice, slices));
        }
        if (!docs.idsWhileReading()) {
            // no _id, no stored fields: only the fingerprint's doc values (and the _shard_doc sort value)
            source.storedFields(StoredFieldsContext.fromList(List.of(StoredFieldsContext._NONE_)));
        }
        if (request.writeGroupId() != null) {
            source.docValueField(request.writeGroupId());
        }
        if (setup.scrolling() && searchAfter != null) {
            SearchScrollRequest next = new SearchScrollRequest(scrollIds[slice]).scroll(keepAlive);
            run.client().execute(TransportSearchScrollAction.TYPE, next,
                run.step((SearchResponse r) -> onPage(slice, false, r, stopped, done)));
            return;
        }
        SearchRequest search = setup.scrolling()
            ? new SearchRequest(request.indices()).indicesOptions(request.indicesOptions()).scroll(keepAlive).source(source)
            : new SearchRequest().source(source);
        search.allowPartialSearchResults(false);
        run.client().execute(TransportSearchAction.TYPE, search,
            run.step((SearchResponse r) -> onPage(slice, searchAfter == null, r, stopped, done)));
    }

    private void onPage(int slice, boolean first, SearchResponse response, BooleanSupplier stopped, Runnable done) {
        String[] ids = scrollIds;
        if (ids != null) {
            // null once the scrolls were cleared (the report failed): a late page's scroll expires on its own
            ids[slice] = response.getScrollId();
        }
        checkShards(response, "reading fingerprints");
        if (first && response.getHits().getTotalHits() != null) {
            long total = docsTotal.addAndGet(CompatHits.value(response.getHits().getTotalHits()));
            if (slicesCounted.incrementAndGet() == slices) {
                run.task().docsTotal(total);
            }
        }
        SearchHit[] hits = response.getHits().getHits();
        run.task().addDocsRead(docs.addPage(slice, hits));
        if (hits.length == setup.pageSize()) {
            readPage(slice, hits[hits.length - 1].getSortValues(), stopped, done);
        } else if (slicesRunning.decrementAndGet() == 0) {
            clearScrolls();
            done.run();
        }
    }

    /** Releases the scrolls (best effort: they expire after their keep-alive anyway). */
    void clearScrolls() {
        String[] ids = scrollIds;
        if (ids == null) {
            return;
        }
        ClearScrollRequest clear = new ClearScrollRequest();
        for (String id : ids) {
            if (id != null) {
                clear.addScrollId(id);
            }
        }
        scrollIds = null;
        if (clear.getScrollIds() != null && clear.getScrollIds().isEmpty() == false) {
            caller.execute(TransportClearScrollAction.TYPE, clear, ActionListener.noop());
        }
    }
}
