package dev.simhash.duplicates;

import dev.simhash.breaker.RequestMemory;
import dev.simhash.compat.CompatIndices;
import dev.simhash.core.BandComponents;
import dev.simhash.core.DuplicateGroups;
import dev.simhash.core.NearDuplicateComponents;
import dev.simhash.request.PointInTime;
import dev.simhash.threshold.Verification;

import org.elasticsearch.action.ActionListener;
import org.elasticsearch.action.support.ActionFilters;
import org.elasticsearch.action.support.HandledTransportAction;
import org.elasticsearch.client.internal.Client;
import org.elasticsearch.client.internal.ParentTaskAssigningClient;
import org.elasticsearch.client.internal.node.NodeClient;
import org.elasticsearch.cluster.service.ClusterService;
import org.elasticsearch.common.breaker.CircuitBreaker;
import org.elasticsearch.common.settings.Setting;
import org.elasticsearch.common.util.concurrent.EsExecutors;
import org.elasticsearch.core.TimeValue;
import org.elasticsearch.indices.breaker.CircuitBreakerService;
import org.elasticsearch.injection.guice.Inject;
import org.elasticsearch.tasks.Task;
import org.elasticsearch.threadpool.ThreadPool;
import org.elasticsearch.transport.TransportService;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs the near-duplicate report as a cancellable task with a progress status ({@link DuplicatesTask}), as a short chain
 * of asynchronous steps, each checking for cancellation before it starts: the checks ({@link ReportPreflight}); the
 * reading of every matching fingerprint through a point in time, in parallel slices ({@link ReportScan}), or of the
 * candidates only, on the shards ({@link ShardedCandidates}); the grouping ({@link NearDuplicateComponents},
 * {@link BandComponents}); the fetch of the listed groups' members ({@link MemberFetch}); and, optionally, the writing of
 * each document's group id ({@link GroupIdWriter}). Every inner request is a child of the task and runs with the
 * caller's privileges.
 */
public final class TransportDuplicatesAction extends HandledTransportAction<DuplicatesRequest, DuplicatesResponse> {

    /**
     * Keep-alive of the report's point in time: renewed by every page read, and while grouping runs (which can take many
     * minutes) by a cheap search on it every half keep-alive, so the member fetch after grouping still finds it.
     */
    public static final Setting<TimeValue> KEEP_ALIVE_SETTING = Setting.timeSetting("simhash.duplicates.keep_alive",
        TimeValue.timeValueMinutes(1), TimeValue.timeValueSeconds(1), Setting.Property.NodeScope, Setting.Property.Dynamic);
    /** Upper bound of parallel slices, whatever the size of the search thread pool. */
    static final int MAX_SLICES = 16;
    /** How a 429 names the report, followed by what it was charging. */
    static final String MEMORY_LABEL = "simhash duplicates: ";

    private final NodeClient client;
    private final ClusterService clusterService;
    private final ThreadPool threadPool;
    private final CompatIndices indices;
    private final CircuitBreakerService breakers;
    private volatile TimeValue keepAlive;

    @Inject
    public TransportDuplicatesAction(TransportService transportService, ActionFilters actionFilters, NodeClient client,
                                     ClusterService clusterService, ThreadPool threadPool, CompatIndices indices,
                                     CircuitBreakerService breakers) {
        super(DuplicatesAction.NAME, transportService, actionFilters, DuplicatesRequest::new, threadPool.generic());
        this.client = client;
        this.clusterService = clusterService;
        this.threadPool = threadPool;
        this.indices = indices;
        this.breakers = breakers;
        this.keepAlive = KEEP_ALIVE_SETTING.get(clusterService.getSettings());
        clusterService.getClusterSettings().addSettingsUpdateConsumer(KEEP_ALIVE_SETTING, v -> keepAlive = v);
    }

    @Override
    protected void doExecute(Task task, DuplicatesRequest request, ActionListener<DuplicatesResponse> listener) {
        new Job((DuplicatesTask) task, request, listener).start();
    }

    /** Parallel slices: as many as the node's search thread pool runs at once (bounded), one for sequential reading. */
    int slices(DuplicatesRequest request) {
        if (request.readMode() == DuplicatesRequest.ReadMode.SEQUENTIAL) {
            return 1;
        }
        return Math.max(1, Math.min(MAX_SLICES, threadPool.info(ThreadPool.Names.SEARCH).getMax()));
    }

    /** One report run: check, read, group, fetch the members or write the group ids, respond (or fail, once). */
    private final class Job {
        private final DuplicatesTask task;
        private final DuplicatesRequest request;
        private final ActionListener<DuplicatesResponse> listener;
        private final ReportContext run;
        private final int slices;
        private final AtomicBoolean finished = new AtomicBoolean();
        private final long startNanos = System.nanoTime();
        private long readNanos;
        private long groupNanos;
        private long membersNanos;
        /**
         * The documents the report covers when it read only the candidates ({@link ShardedCandidates}); -1 when it read
         * every document.
         */
        private volatile long coveredDocs = -1;
        private volatile ReportSetup setup;
        private volatile ReportDocuments docs;
        private volatile ReportScan scan;
        /** Set once the write phase starts: a failure then says how far it got. */
        private volatile GroupIdWriter writer;

        Job(DuplicatesTask task, DuplicatesRequest request, ActionListener<DuplicatesResponse> listener) {
            this.task = task;
            this.request = request;
            this.listener = listener;
            Client child = new ParentTaskAssigningClient(TransportDuplicatesAction.this.client, clusterService.localNode(), task);
            // every array proportional to the documents or the request is charged to the request circuit breaker
            this.run = new ReportContext(task, request, child, threadPool.getThreadContext(),
                new RequestMemory(breakers.getBreaker(CircuitBreaker.REQUEST), MEMORY_LABEL),
                new PointInTime(child, TransportDuplicatesAction.this.client, keepAlive), this::fail);
            this.slices = slices(request);
            task.slices(slices);
        }

        void start() {
            new ReportPreflight(run, indices).start(this::read);
        }

        /** Reads the documents: on the shards when only candidates are needed ({@link #candidatesOnShards}), else all. */
        private void read(ReportSetup checked) {
            setup = checked;
            docs = new ReportDocuments(request, checked, slices, run.memory());
            scan = new ReportScan(run, checked, docs, slices, keepAlive, TransportDuplicatesAction.this.client);
            List<ShardedCandidates.Shard> shards = candidatesOnShards();
            if (shards == null) {
                scan.readAll(finished::get, () -> {
                    readNanos = System.nanoTime();
                    if (docs.idsWhileReading()) {
                        run.pit().close();
                    } else {
                        // the member fetch reads through the point in time after grouping
                        run.pit().keepAlive(threadPool);
                    }
                    groupElsewhere();
                });
                return;
            }
            new ShardedCandidates(run.client(), run.threadContext(), shards, checked.hashPath(), checked.verification(), request.from(),
                request.size(), run.memory(), task::ensureNotCancelled, (index, r) -> {
                    docs.addCandidates(index, r);
                    task.addDocsRead(r.candidates());
                }, this::fail).run(covered -> {
                    if (covered > Integer.MAX_VALUE) {
                        throw new IllegalArgumentException("[_simhash/duplicates] a report covers at most [" + Integer.MAX_VALUE
                            + "] documents, these indices hold [" + covered + "]; narrow it with [query]");
                    }
                    coveredDocs = covered;
                    task.docsTotal(covered);
                    readNanos = System.nanoTime();
                    groupElsewhere();
                });
        }

        /**
         * The shards to read candidates from, when the report reads only those ({@link ShardedCandidates}): a listing at a
         * threshold whose candidates come from the bands, over the whole of indices of this cluster; else null.
         */
        private List<ShardedCandidates.Shard> candidatesOnShards() {
            Verification v = setup.verification();
            if (v == null || v.byBands() == false || request.query() != null || request.writeGroupId() != null
                || setup.scrolling() || request.readMode() == DuplicatesRequest.ReadMode.SEQUENTIAL || setup.concreteIndices() == null) {
                return null;
            }
            return ShardedCandidates.shardsOf(indices, request.indices(), setup.concreteIndices());
        }

        /** Grouping is CPU work of seconds for millions of documents: not on a search or transport thread. */
        private void groupElsewhere() {
            threadPool.generic().execute(() -> run.safely(this::group));
        }

        private void group() {
            task.ensureNotCancelled();
            task.phase(DuplicatesStatus.Phase.GROUP);
            ShardBandsResponse grouped = docs.shardGroups();
            if (grouped != null) {
                respondWithShardGroups(grouped);
                return;
            }
            long[] hashes = docs.hashes();
            // sequential reading is 0.1's way throughout, for comparisons: grouping in one thread too
            int parallelism = request.readMode() == DuplicatesRequest.ReadMode.SEQUENTIAL ? 1
                : EsExecutors.allocatedProcessors(clusterService.getSettings());
            // charged before grouping starts: a report that does not fit fails here with 429, before it writes anything
            Verification v = setup.verification();
            NearDuplicateComponents.Sketches sketches = docs.sketches(v);
            // by the bands when the threshold is within their range (as the query takes candidates), else by the radius
            boolean byBands = v != null && v.byBands();
            long grouping = byBands ? BandComponents.estimateBytes(hashes.length, parallelism)
                : NearDuplicateComponents.estimateBytes(hashes.length, parallelism, sketches != null);
            run.memory().add(grouping, "grouping");
            NearDuplicateComponents components = byBands
                ? BandComponents.find(hashes, sketches, task::ensureNotCancelled, task::groupsFound, threadPool.generic(), parallelism)
                : NearDuplicateComponents.find(hashes, sketches, setup.radius(), task::ensureNotCancelled, task::groupsFound,
                    threadPool.generic(), parallelism);
            run.memory().add(components.ramBytesUsed() - grouping, "groups");
            if (docs.idsWhileReading() == false) {
                DuplicateGroups.Selection selection = DuplicateGroups.select(components, request.from(), request.size());
                groupNanos = System.nanoTime();
                new MemberFetch(run, setup, scan, hashes, components, selection).start(page -> {
                    membersNanos = System.nanoTime();
                    respond(page, 0);
                });
                return;
            }
            DuplicateGroups.Page read = DuplicateGroups.page(docs.table(), components, request.from(), request.size(),
                request.maxMembers(), sketches == null ? null : docs::similarity);
            // the documents not read (when only candidates were) share no band value with any other: each is a group of its own
            DuplicateGroups.Page page = coveredDocs < 0 ? read
                : new DuplicateGroups.Page((int) coveredDocs, read.groupsTotal(), read.duplicatesTotal(), read.groups());
            groupNanos = System.nanoTime();
            membersNanos = groupNanos;
            if (request.writeGroupId() == null) {
                respond(page, 0);
                return;
            }
            writer = new GroupIdWriter(run, docs, components);
            writer.start(updated -> respond(page, updated));
        }

        /**
         * Answers with the page of groups the one shard of the report found ({@link ShardBandsResponse#grouped}): the table
         * holds their members, and each member's similarity to its group's representative came with it. A page only asks for
         * the similarity of a member to its own group's representative (or to a document identical to it, with the same
         * similarity), so that is what the lookup answers. The shard kept the page's groups only (in report order), and
         * counted them all.
         */
        private void respondWithShardGroups(ShardBandsResponse grouped) {
            NearDuplicateComponents components = grouped.components();
            run.memory().add(components.ramBytesUsed(), "groups");
            task.groupsFound(grouped.groupsTotal());
            DuplicateGroups.Page page = DuplicateGroups.page(docs.table(), components, 0, request.size(), request.maxMembers(),
                (doc, representative) -> grouped.similarity(doc));
            // the documents not read are in no group: each is a group of its own
            page = new DuplicateGroups.Page((int) coveredDocs, grouped.groupsTotal(), grouped.duplicatesTotal(), page.groups());
            groupNanos = System.nanoTime();
            membersNanos = groupNanos;
            respond(page, 0);
        }

        private void respond(DuplicateGroups.Page page, long updated) {
            if (finished.compareAndSet(false, true)) {
                run.pit().close();
                long peak = run.memory().peak();
                run.memory().close();
                long now = System.nanoTime();
                DuplicatesResponse.Phases phases = new DuplicatesResponse.Phases(millis(readNanos - startNanos),
                    millis(groupNanos - readNanos), millis(membersNanos - groupNanos),
                    request.writeGroupId() == null ? 0 : millis(now - membersNanos));
                Verification v = setup.verification();
                listener.onResponse(new DuplicatesResponse(request.field(), setup.radius(), v == null ? null : v.minSimilarity(),
                    millis(now - startNanos), phases, page, request.writeGroupId(), updated, peak));
            }
        }

        private static long millis(long nanos) {
            return nanos / 1_000_000;
        }

        private void fail(Exception e) {
            run.pit().close();
            ReportScan s = scan;
            if (s != null) {
                s.clearScrolls();
            }
            run.memory().close();
            GroupIdWriter w = writer;
            if (w != null) {
                e = w.partlyWritten(e);
            }
            if (finished.compareAndSet(false, true)) {
                listener.onFailure(e);
            }
        }
    }
}
