package dev.simhash.collapse;

import dev.simhash.core.FingerprintFields;
import dev.simhash.core.SimHash;

import org.elasticsearch.action.ActionListener;
import org.elasticsearch.action.DocWriteResponse;
import org.elasticsearch.action.bulk.BulkItemResponse;
import org.elasticsearch.action.bulk.BulkRequest;
import org.elasticsearch.action.bulk.BulkResponse;
import org.elasticsearch.action.bulk.TransportBulkAction;
import org.elasticsearch.action.fieldcaps.FieldCapabilitiesResponse;
import org.elasticsearch.action.fieldcaps.TransportFieldCapabilitiesAction;
import org.elasticsearch.action.search.ClosePointInTimeRequest;
import org.elasticsearch.action.search.OpenPointInTimeRequest;
import org.elasticsearch.action.search.OpenPointInTimeResponse;
import org.elasticsearch.action.search.SearchRequest;
import org.elasticsearch.action.search.SearchResponse;
import org.elasticsearch.action.search.TransportClosePointInTimeAction;
import org.elasticsearch.action.search.TransportOpenPointInTimeAction;
import org.elasticsearch.action.search.TransportSearchAction;
import org.elasticsearch.action.support.ActionFilters;
import org.elasticsearch.action.support.ContextPreservingActionListener;
import org.elasticsearch.action.support.HandledTransportAction;
import org.elasticsearch.action.update.UpdateRequest;
import org.elasticsearch.client.internal.Client;
import org.elasticsearch.client.internal.ParentTaskAssigningClient;
import org.elasticsearch.client.internal.node.NodeClient;
import org.elasticsearch.cluster.project.ProjectResolver;
import org.elasticsearch.cluster.service.ClusterService;
import org.elasticsearch.common.bytes.BytesReference;
import org.elasticsearch.common.document.DocumentField;
import org.elasticsearch.core.CheckedConsumer;
import org.elasticsearch.core.TimeValue;
import org.elasticsearch.index.query.BoolQueryBuilder;
import org.elasticsearch.index.query.QueryBuilders;
import org.elasticsearch.injection.guice.Inject;
import org.elasticsearch.search.SearchHit;
import org.elasticsearch.search.builder.PointInTimeBuilder;
import org.elasticsearch.search.builder.SearchSourceBuilder;
import org.elasticsearch.search.sort.SortBuilders;
import org.elasticsearch.tasks.CancellableTask;
import org.elasticsearch.tasks.Task;
import org.elasticsearch.threadpool.ThreadPool;
import org.elasticsearch.transport.TransportService;

import java.util.Arrays;
import java.util.BitSet;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs the near-duplicate report as a cancellable task: reads every matching fingerprint through a
 * point in time in pages, groups them with {@link NearDuplicateComponents}, and optionally writes
 * each document's group id with bulk updates. Every inner request is a child of the task and runs
 * with the caller's privileges.
 */
public final class TransportDuplicatesAction extends HandledTransportAction<DuplicatesRequest, DuplicatesResponse> {

    /** Documents per search page, unless an index's smaller index.max_result_window limits it (see {@link #pageSize}). */
    static final int PAGE_SIZE = 10_000;
    /** Updates per bulk request when writing group ids. */
    static final int BULK_SIZE = 1_000;
    /** Keep-alive of the point in time between two pages (renewed by every page). */
    static final TimeValue KEEP_ALIVE = TimeValue.timeValueMinutes(1);
    private static final String ROUTING = "_routing";

    private final NodeClient client;
    private final ClusterService clusterService;
    private final ProjectResolver projectResolver;
    private final ThreadPool threadPool;

    @Inject
    public TransportDuplicatesAction(TransportService transportService, ActionFilters actionFilters, NodeClient client,
                                     ClusterService clusterService, ProjectResolver projectResolver, ThreadPool threadPool) {
        super(DuplicatesAction.NAME, transportService, actionFilters, DuplicatesRequest::new, threadPool.generic());
        this.client = client;
        this.clusterService = clusterService;
        this.projectResolver = projectResolver;
        this.threadPool = threadPool;
    }

    /**
     * Documents per page for the indices the field caps request resolved: {@link #PAGE_SIZE}, or less when an index's
     * {@code index.max_result_window} is smaller (every page asks for {@code size} hits, and search_after does not lift
     * that limit).
     */
    private int pageSize(FieldCapabilitiesResponse caps) {
        return ResultWindow.smallest(projectResolver.getProjectMetadata(clusterService.state()), caps.getIndices(), PAGE_SIZE).size();
    }

    @Override
    protected void doExecute(Task task, DuplicatesRequest request, ActionListener<DuplicatesResponse> listener) {
        new Job((CancellableTask) task, request, listener).start();
    }

    /** One report run: a chain of asynchronous steps, each checking for cancellation before it starts. */
    private final class Job {
        private final CancellableTask task;
        private final DuplicatesRequest request;
        private final ActionListener<DuplicatesResponse> listener;
        private final Client client;
        private final long startNanos = System.nanoTime();
        private long readNanos;
        private long groupNanos;
        private final String hashPath;
        private final FingerprintTable table = new FingerprintTable();
        private final AtomicBoolean finished = new AtomicBoolean();
        // the group id each document already has (written by an earlier run), so unchanged documents are not rewritten
        private long[] currentGroup;
        private BitSet hasCurrentGroup;
        private volatile BytesReference pitId;
        private int pageSize = PAGE_SIZE;

        Job(CancellableTask task, DuplicatesRequest request, ActionListener<DuplicatesResponse> listener) {
            this.task = task;
            this.request = request;
            this.listener = listener;
            this.client = new ParentTaskAssigningClient(TransportDuplicatesAction.this.client, clusterService.localNode(), task);
            this.hashPath = FingerprintFields.hashPath(request.field());
            if (request.writeGroupId() != null) {
                currentGroup = new long[1024];
                hasCurrentGroup = new BitSet();
            }
        }

        /**
         * A listener that runs {@code step} in the caller's thread context (so the next inner request carries the
         * caller's identity, whichever thread delivered the response) and turns any exception into the job's failure.
         */
        private <T> ActionListener<T> step(CheckedConsumer<T, Exception> step) {
            return ContextPreservingActionListener.wrapPreservingContext(ActionListener.wrap(step, this::fail),
                threadPool.getThreadContext());
        }

        void start() {
            String[] extra = request.writeGroupId() == null ? new String[0] : new String[] { request.writeGroupId() };
            client.execute(TransportFieldCapabilitiesAction.TYPE,
                FingerprintMappings.request(request.indices(), request.indicesOptions(), request.field(), extra),
                step(this::onFieldCaps));
        }

        private void onFieldCaps(FieldCapabilitiesResponse caps) {
            task.ensureNotCancelled();
            FingerprintMappings.checkFingerprint(caps, request.field());
            if (request.writeGroupId() != null) {
                FingerprintMappings.checkGroupField(caps, request.writeGroupId());
            }
            pageSize = pageSize(caps);
            OpenPointInTimeRequest open = new OpenPointInTimeRequest(request.indices()).indicesOptions(request.indicesOptions())
                .keepAlive(KEEP_ALIVE);
            client.execute(TransportOpenPointInTimeAction.TYPE, open, step((OpenPointInTimeResponse r) -> {
                pitId = r.getPointInTimeId();
                readPage(null);
            }));
        }

        private void readPage(Object[] searchAfter) {
            task.ensureNotCancelled();
            BoolQueryBuilder filter = QueryBuilders.boolQuery().filter(QueryBuilders.existsQuery(hashPath));
            if (request.query() != null) {
                // scores are irrelevant for the report: the query only selects documents
                filter.filter(request.query());
            }
            SearchSourceBuilder source = new SearchSourceBuilder().query(filter).size(pageSize).fetchSource(false)
                .docValueField(hashPath).trackTotalHits(false).sort(SortBuilders.pitTiebreaker())
                .pointInTimeBuilder(new PointInTimeBuilder(pitId).setKeepAlive(KEEP_ALIVE));
            if (request.writeGroupId() != null) {
                source.docValueField(request.writeGroupId());
            }
            if (searchAfter != null) {
                source.searchAfter(searchAfter);
            }
            SearchRequest search = new SearchRequest().source(source).allowPartialSearchResults(false);
            client.execute(TransportSearchAction.TYPE, search, step(this::onPage));
        }

        private void onPage(SearchResponse response) {
            if (response.getFailedShards() > 0) {
                throw new IllegalStateException("[_simhash/duplicates] [" + response.getFailedShards() + "] shards failed while reading "
                    + "fingerprints: a report over part of the documents would be wrong", response.getShardFailures()[0].getCause());
            }
            if (response.pointInTimeId() != null) {
                pitId = response.pointInTimeId();
            }
            SearchHit[] hits = response.getHits().getHits();
            for (SearchHit hit : hits) {
                Long hash = FingerprintMappings.fingerprintOf(hit, hashPath);
                if (hash == null) {
                    continue;
                }
                DocumentField routing = hit.field(ROUTING);
                int doc = table.size();
                table.add(hit.getIndex(), hit.getId(), hash, routing == null ? null : routing.getValue());
                if (currentGroup != null) {
                    rememberCurrentGroup(doc, hit.field(request.writeGroupId()));
                }
            }
            if (hits.length == pageSize) {
                readPage(hits[hits.length - 1].getSortValues());
            } else {
                readNanos = System.nanoTime();
                closePit();
                // grouping is CPU work of seconds for millions of documents: not on a search or transport thread
                threadPool.generic().execute(() -> {
                    try {
                        group();
                    } catch (Exception e) {
                        fail(e);
                    }
                });
            }
        }

        private void rememberCurrentGroup(int doc, DocumentField field) {
            if (doc == currentGroup.length) {
                currentGroup = Arrays.copyOf(currentGroup, doc + (doc >> 1));
            }
            if (field != null && field.getValues().size() == 1 && field.getValue() instanceof String s && s.length() == 16) {
                try {
                    long v = SimHash.parse(s);
                    // only the exact form this report writes (lowercase hex) counts: "ABCD..." or a 16-character decimal
                    // is a different keyword for collapse, so it must be overwritten
                    if (SimHash.toHex(v).equals(s)) {
                        currentGroup[doc] = v;
                        hasCurrentGroup.set(doc);
                    }
                } catch (IllegalArgumentException e) {
                    // not a value this report writes: it will be overwritten
                }
            }
        }

        private void group() {
            task.ensureNotCancelled();
            NearDuplicateComponents components = NearDuplicateComponents.find(table.hashes(), request.maxDistance(),
                task::ensureNotCancelled);
            DuplicateGroups.Page page = DuplicateGroups.page(table, components, request.from(), request.size(), request.maxMembers());
            groupNanos = System.nanoTime();
            if (request.writeGroupId() == null) {
                respond(page, 0);
            } else {
                writeGroupIds(components, page, 0, 0);
            }
        }

        /** Writes group ids from document {@code cursor} on, one bulk request at a time. */
        private void writeGroupIds(NearDuplicateComponents components, DuplicateGroups.Page page, int cursor, long updated) {
            task.ensureNotCancelled();
            BulkRequest bulk = new BulkRequest();
            int doc = cursor;
            for (; doc < table.size() && bulk.numberOfActions() < BULK_SIZE; doc++) {
                long group = components.componentMinHash(components.componentOf(doc));
                if (hasCurrentGroup.get(doc) && currentGroup[doc] == group) {
                    continue;
                }
                bulk.add(new UpdateRequest(table.index(doc), table.id(doc)).routing(table.routing(doc)).retryOnConflict(3)
                    .doc(Map.of(request.writeGroupId(), SimHash.toHex(group))));
            }
            if (bulk.numberOfActions() == 0) {
                respond(page, updated);
                return;
            }
            int next = doc;
            client.execute(TransportBulkAction.TYPE, bulk, step((BulkResponse r) -> {
                long written = updated;
                for (BulkItemResponse item : r.getItems()) {
                    if (item.isFailed()) {
                        // e.g. 403 for a user who may read but not write: the cause keeps its status
                        throw item.getFailure().getCause();
                    }
                    if (item.getResponse().getResult() != DocWriteResponse.Result.NOOP) {
                        written++;
                    }
                }
                writeGroupIds(components, page, next, written);
            }));
        }

        private void respond(DuplicateGroups.Page page, long updated) {
            if (finished.compareAndSet(false, true)) {
                long now = System.nanoTime();
                DuplicatesResponse.Phases phases = new DuplicatesResponse.Phases(millis(readNanos - startNanos),
                    millis(groupNanos - readNanos), request.writeGroupId() == null ? 0 : millis(now - groupNanos));
                listener.onResponse(new DuplicatesResponse(request.field(), request.maxDistance(), millis(now - startNanos), phases, page,
                    request.writeGroupId(), updated));
            }
        }

        private static long millis(long nanos) {
            return nanos / 1_000_000;
        }

        private void fail(Exception e) {
            closePit();
            if (finished.compareAndSet(false, true)) {
                listener.onFailure(e);
            }
        }

        private void closePit() {
            BytesReference id = pitId;
            pitId = null;
            if (id != null) {
                // best effort: an unclosed point in time expires after its keep-alive anyway. Not a child request: once the
                // task is cancelled no child may start, but the point in time should still be released
                TransportDuplicatesAction.this.client.execute(TransportClosePointInTimeAction.TYPE, new ClosePointInTimeRequest(id),
                    ActionListener.noop());
            }
        }
    }
}
