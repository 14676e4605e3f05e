package dev.simhash.duplicates;

import dev.simhash.breaker.RequestMemory;
import dev.simhash.compat.CompatIndices;
import dev.simhash.compat.lucene.CompatHits;
import dev.simhash.core.BandComponents;
import dev.simhash.core.DuplicateGroups;
import dev.simhash.core.FingerprintTable;
import dev.simhash.core.MinHashSketch;
import dev.simhash.core.NearDuplicateComponents;
import dev.simhash.core.SimHash;
import dev.simhash.mapper.SimHashFieldType;
import dev.simhash.request.FingerprintMappings;
import dev.simhash.request.PointInTime;
import dev.simhash.threshold.ThresholdChoice;
import dev.simhash.threshold.Thresholds;
import dev.simhash.threshold.Verification;

import org.elasticsearch.ElasticsearchStatusException;
import org.elasticsearch.ExceptionsHelper;
import org.elasticsearch.action.ActionListener;
import org.elasticsearch.action.DocWriteResponse;
import org.elasticsearch.action.bulk.BulkItemResponse;
import org.elasticsearch.action.bulk.BulkRequest;
import org.elasticsearch.action.bulk.BulkResponse;
import org.elasticsearch.action.bulk.TransportBulkAction;
import org.elasticsearch.action.fieldcaps.FieldCapabilitiesResponse;
import org.elasticsearch.action.fieldcaps.TransportFieldCapabilitiesAction;
import org.elasticsearch.action.search.ClearScrollRequest;
import org.elasticsearch.action.search.SearchRequest;
import org.elasticsearch.action.search.SearchResponse;
import org.elasticsearch.action.search.SearchScrollRequest;
import org.elasticsearch.action.search.TransportClearScrollAction;
import org.elasticsearch.action.search.TransportSearchAction;
import org.elasticsearch.action.search.TransportSearchScrollAction;
import org.elasticsearch.action.support.ActionFilters;
import org.elasticsearch.action.support.ContextPreservingActionListener;
import org.elasticsearch.action.support.HandledTransportAction;
import org.elasticsearch.action.update.UpdateRequest;
import org.elasticsearch.client.internal.Client;
import org.elasticsearch.client.internal.ParentTaskAssigningClient;
import org.elasticsearch.client.internal.node.NodeClient;
import org.elasticsearch.cluster.metadata.IndexMetadata;
import org.elasticsearch.cluster.service.ClusterService;
import org.elasticsearch.common.breaker.CircuitBreaker;
import org.elasticsearch.common.settings.Setting;
import org.elasticsearch.common.UUIDs;
import org.elasticsearch.common.document.DocumentField;
import org.elasticsearch.common.util.concurrent.EsExecutors;
import org.elasticsearch.core.CheckedConsumer;
import org.elasticsearch.core.TimeValue;
import org.elasticsearch.index.IndexSettings;
import org.elasticsearch.index.query.BoolQueryBuilder;
import org.elasticsearch.index.query.QueryBuilders;
import org.elasticsearch.indices.breaker.CircuitBreakerService;
import org.elasticsearch.injection.guice.Inject;
import org.elasticsearch.rest.RestStatus;
import org.elasticsearch.search.SearchHit;
import org.elasticsearch.search.builder.SearchSourceBuilder;
import org.elasticsearch.search.sort.SortBuilders;
import org.elasticsearch.search.fetch.StoredFieldsContext;
import org.elasticsearch.search.fetch.subphase.FieldAndFormat;
import org.elasticsearch.search.slice.SliceBuilder;
import org.elasticsearch.tasks.Task;
import org.elasticsearch.threadpool.ThreadPool;
import org.elasticsearch.transport.TransportService;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs the near-duplicate report as a cancellable task with a progress status ({@link DuplicatesTask}): reads every
 * matching fingerprint through a point in time, in parallel slices (or page by page with {@code "read": "sequential"}),
 * groups them with {@link NearDuplicateComponents}, fetches the {@code _id}s of the listed groups' members, and
 * optionally writes each document's group id with bulk updates. Every inner request is a child of the task and runs with
 * the caller's privileges.
 */
public final class TransportDuplicatesAction extends HandledTransportAction<DuplicatesRequest, DuplicatesResponse> {

    /** Documents per search page at most: lowered to the smallest {@code index.max_result_window} of the target indices. */
    static final int PAGE_SIZE = 10_000;
    /** Updates per bulk request when writing group ids. */
    static final int BULK_SIZE = 1_000;
    /**
     * Keep-alive of the report's point in time: renewed by every page read, and while grouping runs (which can take many
     * minutes) by a cheap search on it every half keep-alive, so the member fetch after grouping still finds it.
     */
    public static final Setting<TimeValue> KEEP_ALIVE_SETTING = Setting.timeSetting("simhash.duplicates.keep_alive",
        TimeValue.timeValueMinutes(1), TimeValue.timeValueSeconds(1), Setting.Property.NodeScope, Setting.Property.Dynamic);
    /** Fingerprints per terms query when fetching the members of the listed groups. */
    static final int MEMBER_TERMS = 4_096;
    /** Upper bound of parallel slices, whatever the size of the search thread pool. */
    static final int MAX_SLICES = 16;
    private static final String ROUTING = "_routing";
    /** How a 429 names the report, followed by what it was charging. */
    static final String MEMORY_LABEL = "simhash duplicates: ";
    /** The values this report writes as group ids: a fingerprint as 16 lowercase hex digits. */
    static final String GROUP_ID_PATTERN = "[0-9a-f]{16}";

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

    /** Heap charged per member listed in the response: the member, its id string and the list's slot. */
    static long memberBytes(String id) {
        return 64 + id.length();
    }

    /** A growable array of longs. */
    private static final class Longs {
        long[] values = new long[1024];
        int size;

        void add(long v) {
            if (size == values.length) {
                values = Arrays.copyOf(values, size + (size >> 1));
            }
            values[size++] = v;
        }
    }

    /** One report run: a chain of asynchronous steps, each checking for cancellation before it starts. */
    private final class Job {
        private final DuplicatesTask task;
        private final DuplicatesRequest request;
        private final ActionListener<DuplicatesResponse> listener;
        private final Client client;
        private final long startNanos = System.nanoTime();
        private long readNanos;
        private long groupNanos;
        private long membersNanos;
        // where the fingerprints are read, known once the field capabilities are in (before any page is read)
        private volatile FingerprintMappings.Fingerprints fingerprints;
        private volatile String hashPath;
        /**
         * Ids are read with the fingerprints only when every document's id is needed (write_group_id) or when reading
         * sequentially (0.1's way, kept for comparison); otherwise only fingerprints are read, and the ids of the listed
         * groups' members are fetched after grouping: the scan then loads no stored fields at all.
         */
        private boolean idsWhileReading;
        /**
         * Whether the caller may read the concrete indices. A search through a point in time is authorized on the concrete
         * indices it was opened on, whatever expression opened it; a caller whose read privilege is on an alias (not on
         * its indices) reads through scrolls of the alias instead, ids included, so that no member fetch is needed.
         */
        private boolean scrolling;
        /**
         * The documents the report covers when it read only the candidates ({@link ShardedCandidates}); -1 when it read
         * every document.
         */
        private long coveredDocs = -1;
        private volatile String[] concreteIndices;
        /** The groups a report over one shard found on that shard ({@link ShardBandsResponse#grouped}); else null. */
        private volatile ShardBandsResponse shardGroups;
        /** Each slice's scroll while reading by scrolls; null otherwise and once they are cleared. */
        private volatile String[] scrollIds;
        private FingerprintTable table;
        private Longs[] sliceHashes;
        // with min_similarity: the threshold, and each document's sketch (at doc * BYTES) beside the table, read in a second
        // search of each page (the fields option renders one format of the field per hit)
        private volatile Verification verification;
        /** The radius the report groups with (and reports), once the threshold is resolved. */
        private volatile int radius;
        private byte[] sketchBytes;
        private BitSet sketchPresent;
        private final int slices;
        private final AtomicInteger slicesRunning;
        private final AtomicInteger slicesCounted = new AtomicInteger();
        private final AtomicLong docsTotal = new AtomicLong();
        private final AtomicBoolean finished = new AtomicBoolean();
        // every array proportional to the documents or the request, charged to the request circuit breaker
        private final RequestMemory memory;
        private long tableCharged;
        private final long[] sliceCharged;
        // the group id each document already has (written by an earlier run), so unchanged documents are not rewritten
        private long[] currentGroup;
        private BitSet hasCurrentGroup;
        // documents whose group id the write phase changes (-1: not writing yet), and how many it changed so far
        private volatile long docsToUpdate = -1;
        private volatile long docsUpdated;
        /** The point in time the report reads through (unless {@link #scrolling}), kept alive while it groups. */
        private final PointInTime pit;
        // page size and terms per query within every target index's limits
        private int pageSize = PAGE_SIZE;
        private int memberTerms = MEMBER_TERMS;

        Job(DuplicatesTask task, DuplicatesRequest request, ActionListener<DuplicatesResponse> listener) {
            this.task = task;
            this.request = request;
            this.listener = listener;
            this.client = new ParentTaskAssigningClient(TransportDuplicatesAction.this.client, clusterService.localNode(), task);
            this.pit = new PointInTime(client, TransportDuplicatesAction.this.client, keepAlive);
            this.slices = slices(request);
            this.slicesRunning = new AtomicInteger(slices);
            this.memory = new RequestMemory(breakers.getBreaker(CircuitBreaker.REQUEST), MEMORY_LABEL);
            this.sliceCharged = new long[slices];
            task.slices(slices);
        }

        /**
         * Allocates the holders of what is read, once it is known whether pairs are verified: then the ids are read with the
         * fingerprints (every document's sketch is held anyway, and the member fetch by fingerprint could not tell apart
         * documents of equal fingerprints in different groups).
         */
        private void allocate() {
            this.idsWhileReading = request.writeGroupId() != null || request.readMode() == DuplicatesRequest.ReadMode.SEQUENTIAL
                || verification != null || scrolling;
            if (scrolling) {
                scrollIds = new String[slices];
            }
            if (verification != null) {
                sketchBytes = new byte[1024 * MinHashSketch.BYTES];
                sketchPresent = new BitSet();
            }
            if (idsWhileReading) {
                table = new FingerprintTable();
                sliceHashes = null;
            } else {
                table = null;
                sliceHashes = new Longs[slices];
                for (int i = 0; i < slices; i++) {
                    sliceHashes[i] = new Longs();
                }
            }
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
            fingerprints = FingerprintMappings.checkFingerprint(caps, request.field());
            hashPath = fingerprints.path();
            if (request.writeGroupId() != null) {
                FingerprintMappings.checkGroupField(caps, request.writeGroupId());
            }
            for (String index : caps.getIndices()) {
                IndexMetadata metadata = indices.index(index);
                if (metadata != null) {
                    pageSize = Math.min(pageSize, IndexSettings.MAX_RESULT_WINDOW_SETTING.get(metadata.getSettings()));
                    memberTerms = Math.min(memberTerms, IndexSettings.MAX_TERMS_COUNT_SETTING.get(metadata.getSettings()));
                    if (request.writeGroupId() != null && metadata.mapping() != null) {
                        FingerprintMappings.checkGroupTarget(index, metadata.mapping().sourceAsMap(), request.writeGroupId());
                    }
                }
            }
            ThresholdChoice.resolve(client, threadPool.getThreadContext(), request.indices(), request.indicesOptions(), caps, fingerprints,
                request.field(), request.minSimilarity(), request.maxDistanceGiven(), step((Verification v) -> {
                    task.ensureNotCancelled();
                    verification = v;
                    radius = Thresholds.radius(v, request.maxDistanceGiven(), request.maxDistance(), fingerprints::defaultMaxDistance);
                    concreteIndices = caps.getIndices();
                    checkConcreteIndices(caps.getIndices(), () -> {
                        allocate();
                        if (request.writeGroupId() == null) {
                            read();
                        } else {
                            // everything that can refuse the write is checked before anything is read, let alone written
                            checkWritable(caps.getIndices());
                        }
                    });
                }));
        }

        /**
         * Finds out, as the caller, whether it may search the concrete indices (a search that matches nothing): if
         * security refuses, the report reads by scrolls of the request's own indices ({@link #scrolling}).
         */
        private void checkConcreteIndices(String[] concrete, Runnable then) {
            if (concrete.length == 0) {
                then.run();
                return;
            }
            SearchRequest check = new SearchRequest(concrete).source(new SearchSourceBuilder().size(0).trackTotalHits(false)
                .query(QueryBuilders.boolQuery().mustNot(QueryBuilders.matchAllQuery())));
            client.execute(TransportSearchAction.TYPE, check, ContextPreservingActionListener.wrapPreservingContext(new ActionListener<>() {
                @Override
                public void onResponse(SearchResponse r) {
                    proceed();
                }

                @Override
                public void onFailure(Exception e) {
                    if (ExceptionsHelper.status(e) != RestStatus.FORBIDDEN) {
                        fail(e);
                        return;
                    }
                    scrolling = true;
                    proceed();
                }

                private void proceed() {
                    try {
                        then.run();
                    } catch (Exception failure) {
                        fail(failure);
                    }
                }
            }, threadPool.getThreadContext()));
        }

        /**
         * Checks that the caller may write to every target index, without writing: a bulk of one partial update per index
         * to a document that does not exist (a random id, no upsert). Allowed, each answers 404 and changes nothing;
         * forbidden, 403, which fails the report before the write phase (group ids come from the fingerprints of every
         * target index, so writing some indices but not others would be wrong either way).
         */
        private void checkWritable(String[] concrete) {
            if (concrete.length == 0) {
                checkForeignValues();
                return;
            }
            String probe = "simhash-write-check-" + UUIDs.randomBase64UUID();
            BulkRequest bulk = new BulkRequest();
            for (String index : concrete) {
                // with a routing, so that an index whose mapping requires one answers like any other
                bulk.add(new UpdateRequest(index, probe).routing(probe).doc(Map.of()));
            }
            client.execute(TransportBulkAction.TYPE, bulk, step((BulkResponse r) -> {
                task.ensureNotCancelled();
                for (BulkItemResponse item : r.getItems()) {
                    if (item.isFailed() && item.getFailure().getStatus() != RestStatus.NOT_FOUND) {
                        throw item.getFailure().getCause();
                    }
                }
                checkForeignValues();
            }));
        }

        /**
         * Counts the documents the report would write whose group id field holds a value that is not a group id (16
         * lowercase hex digits): user data, which the report refuses to overwrite unless {@code overwrite_group_id} is set.
         */
        private void checkForeignValues() {
            if (request.overwriteGroupId()) {
                openPit();
                return;
            }
            String name = request.writeGroupId();
            BoolQueryBuilder foreign = filter().filter(QueryBuilders.existsQuery(name))
                .mustNot(QueryBuilders.regexpQuery(name, GROUP_ID_PATTERN));
            SearchRequest count = new SearchRequest(request.indices()).indicesOptions(request.indicesOptions())
                .source(new SearchSourceBuilder().query(foreign).size(0).trackTotalHits(true)).allowPartialSearchResults(false);
            client.execute(TransportSearchAction.TYPE, count, step((SearchResponse r) -> {
                task.ensureNotCancelled();
                long n = CompatHits.value(r.getHits().getTotalHits());
                if (n > 0) {
                    throw new IllegalArgumentException("[write_group_id] [" + n + "] of the report's documents hold values in [" + name
                        + "] that are not group ids (16 lowercase hex digits): the report would overwrite them; write to another "
                        + "[keyword] field, or set [overwrite_group_id] to true to overwrite them");
                }
                openPit();
            }));
        }

        /** Reads the documents: on the shards when only candidates are needed ({@link #candidatesOnShards}), else all. */
        private void read() {
            List<ShardedCandidates.Shard> shards = candidatesOnShards();
            if (shards == null) {
                openPit();
                return;
            }
            new ShardedCandidates(client, threadPool.getThreadContext(), shards, hashPath, verification, request.from(), request.size(),
                memory, task::ensureNotCancelled, this::addCandidates, this::fail).run(docs -> {
                    if (docs > Integer.MAX_VALUE) {
                        throw new IllegalArgumentException("[_simhash/duplicates] a report covers at most [" + Integer.MAX_VALUE
                            + "] documents, these indices hold [" + docs + "]; narrow it with [query]");
                    }
                    coveredDocs = docs;
                    task.docsTotal(docs);
                    readNanos = System.nanoTime();
                    // grouping is CPU work of seconds for millions of documents: not on a search or transport thread
                    threadPool.generic().execute(() -> {
                        try {
                            group();
                        } catch (Exception e) {
                            fail(e);
                        }
                    });
                });
        }

        private void openPit() {
            if (scrolling) {
                for (int slice = 0; slice < slices; slice++) {
                    readPage(slice, null);
                }
                return;
            }
            pit.open(request.indices(), request.indicesOptions(), step((Void opened) -> {
                for (int slice = 0; slice < slices; slice++) {
                    readPage(slice, null);
                }
            }));
        }

        /**
         * The shards to read candidates from, when the report reads only those ({@link ShardedCandidates}): a listing at a
         * threshold whose candidates come from the bands, over the whole of indices of this cluster; else null.
         */
        private List<ShardedCandidates.Shard> candidatesOnShards() {
            if (verification == null || verification.byBands() == false || request.query() != null || request.writeGroupId() != null
                || scrolling || request.readMode() == DuplicatesRequest.ReadMode.SEQUENTIAL || concreteIndices == null) {
                return null;
            }
            return ShardedCandidates.shardsOf(indices, request.indices(), concreteIndices);
        }

        /**
         * Appends one shard's candidates (or the members of its page of groups) to the table (a sink of
         * {@link ShardedCandidates}).
         */
        private void addCandidates(String index, ShardBandsResponse r) {
            synchronized (table) {
                if (r.grouped()) {
                    // the shard grouped its candidates itself: the members of the page's groups, their groups and similarities,
                    // no sketches
                    shardGroups = r;
                    sketchBytes = new byte[0];
                }
                for (int i = 0; i < r.candidates(); i++) {
                    int doc = table.size();
                    table.add(index, r.id(i), r.fingerprint(i), r.routing(i));
                    if (r.grouped() == false) {
                        addSketch(doc, r.sketches(), i * MinHashSketch.BYTES);
                    }
                }
                long now = table.ramBytesUsed() + sketchBytes.length + sketchPresent.size() / Byte.SIZE
                    + (r.grouped() ? (long) r.candidates() * (Integer.BYTES + Double.BYTES) : 0);
                memory.update(tableCharged, now, "candidates read");
                tableCharged = now;
            }
            task.addDocsRead(r.candidates());
        }

        /** The documents the report covers: those with a fingerprint that match {@code query}, plus {@code extra}. */
        private BoolQueryBuilder filter() {
            BoolQueryBuilder filter = QueryBuilders.boolQuery().filter(QueryBuilders.existsQuery(hashPath));
            if (request.query() != null) {
                // scores are irrelevant for the report: the query only selects documents
                filter.filter(request.query());
            }
            return filter;
        }

        private SearchSourceBuilder scan(BoolQueryBuilder query, Object[] searchAfter) {
            SearchSourceBuilder source = new SearchSourceBuilder().query(query).size(pageSize).fetchSource(false).trackTotalHits(false);
            if (scrolling) {
                source.sort(SortBuilders.fieldSort("_doc"));
            } else {
                pit.on(source);
            }
            if (verification == null) {
                source.docValueField(hashPath, fingerprints.format());
            } else {
                // the fingerprint and the sketch as one value list: Elasticsearch renders one format per field name, so
                // this reads both in one search (the fields option needs stored fields enabled: the _id comes along)
                source.fetchField(new FieldAndFormat(hashPath, SimHashFieldType.FINGERPRINT_AND_SKETCH_FORMAT));
            }
            if (searchAfter != null) {
                source.searchAfter(searchAfter);
            }
            return source;
        }

        private void readPage(int slice, Object[] searchAfter) {
            if (finished.get()) {
                return;
            }
            task.ensureNotCancelled();
            SearchSourceBuilder source = scan(filter(), searchAfter);
            if (searchAfter == null) {
                // the first page of each slice counts its documents, for the progress status
                source.trackTotalHitsUpTo(Integer.MAX_VALUE);
            }
            if (slices > 1) {
                source.slice(new SliceBuilder(slice, slices));
            }
            if (!idsWhileReading) {
                // no _id, no stored fields: only the fingerprint's doc values (and the _shard_doc sort value)
                source.storedFields(StoredFieldsContext.fromList(List.of(StoredFieldsContext._NONE_)));
            }
            if (request.writeGroupId() != null) {
                source.docValueField(request.writeGroupId());
            }
            if (scrolling && searchAfter != null) {
                SearchScrollRequest next = new SearchScrollRequest(scrollIds[slice]).scroll(keepAlive);
                client.execute(TransportSearchScrollAction.TYPE, next, step((SearchResponse r) -> onPage(slice, false, r)));
                return;
            }
            SearchRequest search = scrolling
                ? new SearchRequest(request.indices()).indicesOptions(request.indicesOptions()).scroll(keepAlive).source(source)
                : new SearchRequest().source(source);
            search.allowPartialSearchResults(false);
            client.execute(TransportSearchAction.TYPE, search, step((SearchResponse r) -> onPage(slice, searchAfter == null, r)));
        }

        private void checkShards(SearchResponse response, String what) {
            if (response.getFailedShards() > 0) {
                throw new IllegalStateException("[_simhash/duplicates] [" + response.getFailedShards() + "] shards failed while " + what
                    + ": a report over part of the documents would be wrong", response.getShardFailures()[0].getCause());
            }
            pit.renew(response);
        }

        private void onPage(int slice, boolean first, SearchResponse response) {
            String[] ids = scrollIds;
            if (ids != null) {
                // null once the scrolls were cleared (the report failed): a late page's scroll expires on its own
                ids[slice] = response.getScrollId();
            }
            checkShards(response, "reading fingerprints");
            if (first && response.getHits().getTotalHits() != null) {
                long total = docsTotal.addAndGet(CompatHits.value(response.getHits().getTotalHits()));
                if (slicesCounted.incrementAndGet() == slices) {
                    task.docsTotal(total);
                }
            }
            SearchHit[] hits = response.getHits().getHits();
            int read = 0;
            if (idsWhileReading) {
                synchronized (table) {
                    for (int i = 0; i < hits.length; i++) {
                        SearchHit hit = hits[i];
                        Long hash = FingerprintMappings.fingerprintOf(hit, fingerprints);
                        if (hash == null) {
                            continue;
                        }
                        DocumentField routing = hit.field(ROUTING);
                        int doc = table.size();
                        table.add(hit.getIndex(), hit.getId(), hash, routing == null ? null : routing.getValue());
                        if (verification != null) {
                            addSketch(doc, FingerprintMappings.sketchOf(hit, hashPath), 0);
                        }
                        if (currentGroup != null) {
                            rememberCurrentGroup(doc, hit.field(request.writeGroupId()));
                        }
                        read++;
                    }
                    long now = table.ramBytesUsed() + (currentGroup == null ? 0
                        : (long) currentGroup.length * Long.BYTES + hasCurrentGroup.size() / Byte.SIZE)
                        + (sketchBytes == null ? 0 : sketchBytes.length + sketchPresent.size() / Byte.SIZE);
                    memory.update(tableCharged, now, "fingerprints and ids read");
                    tableCharged = now;
                }
            } else {
                Longs mine = sliceHashes[slice];
                for (SearchHit hit : hits) {
                    Long hash = FingerprintMappings.fingerprintOf(hit, fingerprints);
                    if (hash != null) {
                        mine.add(hash);
                        read++;
                    }
                }
                long now = (long) mine.values.length * Long.BYTES;
                memory.update(sliceCharged[slice], now, "fingerprints read");
                sliceCharged[slice] = now;
            }
            task.addDocsRead(read);
            if (hits.length == pageSize) {
                readPage(slice, hits[hits.length - 1].getSortValues());
            } else if (slicesRunning.decrementAndGet() == 0) {
                clearScrolls();
                readNanos = System.nanoTime();
                if (idsWhileReading) {
                    pit.close();
                } else {
                    // the member fetch reads through the point in time after grouping
                    pit.keepAlive(threadPool);
                }
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

        /** Keeps document {@code doc}'s sketch, at {@code sketch[offset..]} (null: it has none), growing the array by half when full. */
        private void addSketch(int doc, byte[] sketch, int offset) {
            int size = MinHashSketch.BYTES;
            if ((long) (doc + 1) * size > sketchBytes.length) {
                long grown = Math.max((long) (doc + 1) * size, sketchBytes.length + (long) (sketchBytes.length >> 1));
                if (grown > Integer.MAX_VALUE - 16) {
                    throw new IllegalArgumentException("[min_similarity] a report verifies at most [" + ((Integer.MAX_VALUE - 16) / size)
                        + "] documents; narrow it with [query]");
                }
                sketchBytes = Arrays.copyOf(sketchBytes, (int) grown);
            }
            if (sketch != null) {
                System.arraycopy(sketch, offset, sketchBytes, doc * size, size);
                sketchPresent.set(doc);
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

        private long[] hashes() {
            if (idsWhileReading) {
                memory.add((long) table.size() * Long.BYTES, "fingerprints to group");
                return table.hashes();
            }
            int n = 0;
            for (Longs l : sliceHashes) {
                n += l.size;
            }
            memory.add((long) n * Long.BYTES, "fingerprints to group");
            long[] all = new long[n];
            int at = 0;
            for (int i = 0; i < sliceHashes.length; i++) {
                System.arraycopy(sliceHashes[i].values, 0, all, at, sliceHashes[i].size);
                at += sliceHashes[i].size;
                sliceHashes[i] = null;
                memory.release(sliceCharged[i]);
                sliceCharged[i] = 0;
            }
            return all;
        }

        private void group() {
            task.ensureNotCancelled();
            task.phase(DuplicatesStatus.Phase.GROUP);
            ShardBandsResponse grouped = shardGroups;
            if (grouped != null) {
                respondWithShardGroups(grouped);
                return;
            }
            long[] hashes = hashes();
            // sequential reading is 0.1's way throughout, for comparisons: grouping in one thread too
            int parallelism = request.readMode() == DuplicatesRequest.ReadMode.SEQUENTIAL ? 1
                : EsExecutors.allocatedProcessors(clusterService.getSettings());
            // charged before grouping starts: a report that does not fit fails here with 429, before it writes anything
            Verification v = verification;
            NearDuplicateComponents.Sketches sketches = v == null ? null
                : new NearDuplicateComponents.Sketches(sketchBytes, sketchPresent, MinHashSketch.BYTES, v::linked);
            // by the bands when the threshold is within their range (as the query takes candidates), else by the radius
            boolean byBands = v != null && v.byBands();
            long grouping = byBands ? BandComponents.estimateBytes(hashes.length, parallelism)
                : NearDuplicateComponents.estimateBytes(hashes.length, parallelism, sketches != null);
            memory.add(grouping, "grouping");
            NearDuplicateComponents components = byBands
                ? BandComponents.find(hashes, sketches, task::ensureNotCancelled, task::groupsFound, threadPool.generic(), parallelism)
                : NearDuplicateComponents.find(hashes, sketches, radius, task::ensureNotCancelled, task::groupsFound,
                    threadPool.generic(), parallelism);
            memory.add(components.ramBytesUsed() - grouping, "groups");
            if (idsWhileReading) {
                DuplicateGroups.Page page = DuplicateGroups.page(table, components, request.from(), request.size(),
                    request.maxMembers(), sketches == null ? null : (doc, other) -> Verification.similarity(sketchBytes,
                        doc * MinHashSketch.BYTES, sketchBytes, other * MinHashSketch.BYTES));
                if (coveredDocs >= 0) {
                    // the documents not read share no band value with any other: each is a group of its own
                    page = new DuplicateGroups.Page((int) coveredDocs, page.groupsTotal(), page.duplicatesTotal(), page.groups());
                }
                groupNanos = System.nanoTime();
                membersNanos = groupNanos;
                if (request.writeGroupId() == null) {
                    respond(page, 0);
                } else {
                    task.phase(DuplicatesStatus.Phase.WRITE);
                    task.docsToWrite(table.size());
                    long toWrite = 0;
                    for (int doc = 0; doc < table.size(); doc++) {
                        if (!hasCurrentGroup.get(doc) || currentGroup[doc] != components.componentMinHash(components.componentOf(doc))) {
                            toWrite++;
                        }
                    }
                    docsToUpdate = toWrite;
                    writeGroupIds(components, page, 0, 0);
                }
            } else {
                DuplicateGroups.Selection selection = DuplicateGroups.select(components, request.from(), request.size());
                groupNanos = System.nanoTime();
                new MemberFetch(hashes, components, selection).start();
            }
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
            memory.add(components.ramBytesUsed(), "groups");
            task.groupsFound(grouped.groupsTotal());
            DuplicateGroups.Page page = DuplicateGroups.page(table, components, 0, request.size(), request.maxMembers(),
                (doc, representative) -> grouped.similarity(doc));
            // the documents not read are in no group: each is a group of its own
            page = new DuplicateGroups.Page((int) coveredDocs, grouped.groupsTotal(), grouped.duplicatesTotal(), page.groups());
            groupNanos = System.nanoTime();
            membersNanos = groupNanos;
            respond(page, 0);
        }

        /**
         * Fetches {@code _index} and {@code _id} of every member of the listed groups: through the same point in time, a
         * terms query on the members' fingerprints (which no document outside those groups has: identical fingerprints
         * share a group), in batches of {@value #MEMBER_TERMS} fingerprints.
         */
        private final class MemberFetch {
            private final NearDuplicateComponents components;
            private final DuplicateGroups.Selection selection;
            private final DuplicateGroups.Listed listed;
            private final List<List<DuplicateGroups.Member>> members = new ArrayList<>();

            MemberFetch(long[] hashes, NearDuplicateComponents components, DuplicateGroups.Selection selection) {
                this.components = components;
                this.selection = selection;
                for (int p = 0; p < selection.components().length; p++) {
                    members.add(new ArrayList<>());
                }
                if (request.maxMembers() == 0 || selection.components().length == 0) {
                    listed = new DuplicateGroups.Listed(new long[0], new int[0]);
                    return;
                }
                long listedDocs = 0;
                for (int c : selection.components()) {
                    listedDocs += components.componentSize(c);
                }
                memory.add(DuplicateGroups.Selection.listedBytes(components.componentCount(), listedDocs), "members to fetch");
                listed = selection.listed(hashes, components);
            }

            void start() {
                task.phase(DuplicatesStatus.Phase.MEMBERS);
                batch(0, null);
            }

            private void batch(int from, Object[] searchAfter) {
                task.ensureNotCancelled();
                long[] memberHashes = listed.hashes();
                if (from >= memberHashes.length) {
                    done();
                    return;
                }
                int to = Math.min(memberHashes.length, from + memberTerms);
                List<Long> terms = new ArrayList<>(to - from);
                for (int i = from; i < to; i++) {
                    terms.add(memberHashes[i]);
                }
                SearchSourceBuilder source = scan(filter().filter(QueryBuilders.termsQuery(hashPath, terms)), searchAfter);
                client.execute(TransportSearchAction.TYPE, new SearchRequest().source(source).allowPartialSearchResults(false),
                    step((SearchResponse r) -> {
                        checkShards(r, "fetching group members");
                        SearchHit[] hits = r.getHits().getHits();
                        long bytes = 0;
                        for (SearchHit hit : hits) {
                            bytes += memberBytes(hit.getId());
                        }
                        memory.add(bytes, "members fetched");
                        for (SearchHit hit : hits) {
                            Long hash = FingerprintMappings.fingerprintOf(hit, fingerprints);
                            int p = hash == null ? -1 : listed.pageOf(hash, from, to);
                            // a document with several values may match through another one: count it in its own batch only
                            if (p >= 0) {
                                members.get(p).add(new DuplicateGroups.Member(hit.getIndex(), hit.getId()));
                            }
                        }
                        if (hits.length == pageSize) {
                            batch(from, hits[hits.length - 1].getSortValues());
                        } else {
                            batch(to, null);
                        }
                    }));
            }

            private void done() {
                pit.close();
                for (int p = 0; p < selection.components().length; p++) {
                    int expected = request.maxMembers() == 0 ? 0 : components.componentSize(selection.components()[p]);
                    if (members.get(p).size() != expected) {
                        throw new IllegalStateException("[_simhash/duplicates] found [" + members.get(p).size() + "] members of group ["
                            + DuplicateGroups.groupId(components, selection.components()[p]) + "] of size [" + expected + "]");
                    }
                }
                membersNanos = System.nanoTime();
                respond(DuplicateGroups.page(selection, components, members, request.maxMembers()), 0);
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
            int visited = doc - cursor;
            if (bulk.numberOfActions() == 0) {
                task.addDocsWritten(visited);
                respond(page, updated);
                return;
            }
            int next = doc;
            client.execute(TransportBulkAction.TYPE, bulk, step((BulkResponse r) -> {
                long written = updated;
                Exception failure = null;
                for (BulkItemResponse item : r.getItems()) {
                    if (item.isFailed()) {
                        // the cause keeps its status; the items written besides it still count in the failure's message
                        failure = failure == null ? item.getFailure().getCause() : failure;
                    } else if (item.getResponse().getResult() != DocWriteResponse.Result.NOOP) {
                        written++;
                    }
                }
                docsUpdated = written;
                if (failure != null) {
                    throw failure;
                }
                task.addDocsWritten(visited);
                writeGroupIds(components, page, next, written);
            }));
        }

        private void respond(DuplicateGroups.Page page, long updated) {
            if (finished.compareAndSet(false, true)) {
                pit.close();
                long peak = memory.peak();
                memory.close();
                long now = System.nanoTime();
                DuplicatesResponse.Phases phases = new DuplicatesResponse.Phases(millis(readNanos - startNanos),
                    millis(groupNanos - readNanos), millis(membersNanos - groupNanos),
                    request.writeGroupId() == null ? 0 : millis(now - membersNanos));
                Verification v = verification;
                listener.onResponse(new DuplicatesResponse(request.field(), radius, v == null ? null : v.minSimilarity(),
                    millis(now - startNanos), phases, page,
                    request.writeGroupId(), updated, peak));
            }
        }

        private static long millis(long nanos) {
            return nanos / 1_000_000;
        }

        private void fail(Exception e) {
            pit.close();
            clearScrolls();
            memory.close();
            if (docsToUpdate >= 0) {
                // a report stopped in the write phase (a failed bulk item, a cancellation) has written part of the group ids:
                // say how far it got; a rerun skips the documents that hold their group id already
                e = new ElasticsearchStatusException(String.format(Locale.ROOT, "[_simhash/duplicates] wrote group ids to [%d] of [%d] "
                    + "documents before failing: rerun the report to complete (documents that hold their group id are skipped); "
                    + "cause: %s", docsUpdated, docsToUpdate, e.getMessage()), ExceptionsHelper.status(e), e);
            }
            if (finished.compareAndSet(false, true)) {
                listener.onFailure(e);
            }
        }

        /** Releases the scrolls of {@link #scrolling} (best effort: they expire after their keep-alive anyway). */
        private void clearScrolls() {
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
                // as the caller (a scroll is cleared by whoever opened it), not as a child: the task may be cancelled
                TransportDuplicatesAction.this.client.execute(TransportClearScrollAction.TYPE, clear, ActionListener.noop());
            }
        }

    }
}
