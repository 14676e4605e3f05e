package dev.simhash.weights;

import dev.simhash.breaker.RequestMemory;
import dev.simhash.compat.lucene.CompatHits;
import dev.simhash.core.Fingerprinters;
import dev.simhash.core.FeatureBag;
import dev.simhash.core.FingerprintSpec;
import dev.simhash.core.TextFingerprinter;
import dev.simhash.request.PointInTime;

import org.elasticsearch.action.ActionListener;
import org.elasticsearch.action.search.SearchRequest;
import org.elasticsearch.action.search.SearchResponse;
import org.elasticsearch.action.search.TransportSearchAction;
import org.elasticsearch.action.support.ActionFilters;
import org.elasticsearch.action.support.HandledTransportAction;
import org.elasticsearch.client.internal.Client;
import org.elasticsearch.client.internal.ParentTaskAssigningClient;
import org.elasticsearch.client.internal.node.NodeClient;
import org.elasticsearch.cluster.service.ClusterService;
import org.elasticsearch.common.breaker.CircuitBreaker;
import org.elasticsearch.common.lucene.search.function.CombineFunction;
import org.elasticsearch.common.xcontent.support.XContentMapValues;
import org.elasticsearch.core.CheckedConsumer;
import org.elasticsearch.core.TimeValue;
import org.elasticsearch.index.query.QueryBuilder;
import org.elasticsearch.index.query.QueryBuilders;
import org.elasticsearch.index.query.functionscore.ScoreFunctionBuilders;
import org.elasticsearch.indices.breaker.CircuitBreakerService;
import org.elasticsearch.injection.guice.Inject;
import org.elasticsearch.search.SearchHit;
import org.elasticsearch.search.builder.SearchSourceBuilder;
import org.elasticsearch.tasks.Task;
import org.elasticsearch.tasks.TaskCancelledException;
import org.elasticsearch.threadpool.ThreadPool;
import org.elasticsearch.transport.TransportService;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Makes a table: an upload is checked and stored; a computation reads {@code sample_size} documents of the index (all of them
 * when it has no more; otherwise a seeded uniform random sample, {@link WeightsSampling}), through a point in time, page by
 * page, as child requests of the task with the caller's privileges, counts
 * each document's distinct features as the fingerprint makes them ({@link FeatureBag#features()}), turns the counts into
 * IDF factors ({@link DocumentFrequencies}) and stores the table ({@link StoreWeightsAction}, on the master).
 */
public final class TransportPutWeightsAction extends HandledTransportAction<PutWeightsRequest, PutWeightsResponse> {

    /** The most documents per page of the sample. */
    static final int PAGE_SIZE = 1_000;
    /** The documents of the sample's first page, before their sizes are known: few, as each may be megabytes. */
    static final int FIRST_PAGE_SIZE = 4;
    /** The source bytes a page of the sample should hold at most, from the largest document read so far. */
    static final long PAGE_BYTES = 8L * 1024 * 1024;
    /**
     * Heap bytes per character of a document's text while its features are counted (the feature bag and the list of its
     * distinct features), charged to the request breaker before the work; the page's source is charged twice its bytes
     * (the bytes and the parsed map).
     */
    static final long DOCUMENT_BYTES_PER_CHAR = 32;
    static final String MEMORY_LABEL = "simhash weights: ";
    /** Documents per page of the first sampling pass, which reads only their scores. */
    static final int SCORE_PAGE_SIZE = 5_000;
    /** Sequence numbers are unique among a shard's live documents; the function salts them with the index and shard. */
    static final String RANDOM_FIELD = "_seq_no";
    static final TimeValue KEEP_ALIVE = TimeValue.timeValueMinutes(1);

    private final NodeClient client;
    private final ClusterService clusterService;
    private final WeightsRegistry registry;
    private final ThreadPool threadPool;
    private final CircuitBreakerService breakers;

    @Inject
    public TransportPutWeightsAction(TransportService transportService, ActionFilters actionFilters, NodeClient client,
                                     ClusterService clusterService, ThreadPool threadPool, WeightsRegistry registry,
                                     CircuitBreakerService breakers) {
        super(PutWeightsAction.NAME, transportService, actionFilters, PutWeightsRequest::new, threadPool.generic());
        this.client = client;
        this.clusterService = clusterService;
        this.registry = registry;
        this.threadPool = threadPool;
        this.breakers = breakers;
    }

    @Override
    protected void doExecute(Task task, PutWeightsRequest request, ActionListener<PutWeightsResponse> caller) {
        // the computation fails from several callbacks (a page, a cancellation, the store); the caller hears only the first
        ActionListener<PutWeightsResponse> listener = ActionListener.notifyOnce(caller);
        if (registry.get(request.name()) != null) {
            // answered before any work; the master checks again when storing
            listener.onFailure(TransportStoreWeightsAction.exists(request.name()));
            return;
        }
        PutWeightsTask t = (PutWeightsTask) task;
        Client child = new ParentTaskAssigningClient(client, clusterService.localNode(), task);
        if (request.features() != null) {
            WeightsTable table;
            try {
                table = new WeightsTable(request.name(), request.version(), request.features(), request.defaultWeight(),
                    source("type", "uploaded"), threadPool.absoluteTimeInMillis());
            } catch (IllegalArgumentException e) {
                listener.onFailure(e);
                return;
            }
            store(t, child, table, listener);
            return;
        }
        FingerprintSpec spec = request.spec();
        if (!spec.hasBuiltInAnalyzer()) {
            listener.onFailure(new IllegalArgumentException("[analyzer] a table is computed with a built-in feature analyzer "
                + "([default], [standard], [whitespace]) or for v2, got [" + spec.analyzer() + "]"));
            return;
        }
        new Job(t, child, request, Fingerprinters.of(spec, null, "the node"), listener).open();
    }

    private void store(PutWeightsTask task, Client child, WeightsTable table,
                       ActionListener<PutWeightsResponse> listener) {
        try {
            table.checkBytes(); // again on the master; here before the table is sent there
        } catch (IllegalArgumentException e) {
            listener.onFailure(e);
            return;
        }
        task.phase("store");
        child.execute(StoreWeightsAction.INSTANCE, new StoreWeightsRequest(table),
            listener.delegateFailureAndWrap((l, r) -> l.onResponse(new PutWeightsResponse(table, r.isAcknowledged()))));
    }

    /**
     * One computation: open a point in time, count the matching documents, draw the sample's score threshold when there are
     * more than the sample size, read the sample's pages, close, store.
     */
    private final class Job {
        private final PutWeightsTask task;
        private final Client child;
        private final PutWeightsRequest request;
        private final TextFingerprinter fingerprinter;
        private final ActionListener<PutWeightsResponse> listener;
        private final DocumentFrequencies df = new DocumentFrequencies(DocumentFrequencies.DEFAULT_MAX_TRACKED);
        /** The counts and the page being read, charged to the request breaker (a 429 when they do not fit). */
        private final RequestMemory memory = new RequestMemory(breakers.getBreaker(CircuitBreaker.REQUEST), MEMORY_LABEL);
        private long countsCharged;
        /** The largest source of a document read so far (bytes; -1 before the first page), which sizes the next page. */
        private long largestSource = -1;
        private final PointInTime pit;
        /** The documents the sample is read from: those with a value, or those of them scoring at least the threshold. */
        private QueryBuilder sampleQuery;
        private long matching;
        private boolean random;
        /** The first sampling pass: its keep probability and the scores of the documents it kept so far. */
        private double passProbability;
        private float[] scores = new float[0];
        private int scoreCount;

        Job(PutWeightsTask task, Client child, PutWeightsRequest request, TextFingerprinter fingerprinter,
            ActionListener<PutWeightsResponse> listener) {
            this.task = task;
            this.child = child;
            this.pit = new PointInTime(child, client, KEEP_ALIVE);
            this.request = request;
            this.fingerprinter = fingerprinter;
            this.listener = listener;
        }

        void open() {
            pit.open(new String[] { request.index() }, null, ActionListener.wrap(opened -> count(), listener::onFailure));
        }

        private SearchSourceBuilder pitSource(QueryBuilder query, int size) {
            return pit.on(new SearchSourceBuilder().query(query).size(size).trackTotalHits(false));
        }

        private void search(SearchSourceBuilder source, CheckedConsumer<SearchResponse, Exception> onResponse) {
            child.execute(TransportSearchAction.TYPE, new SearchRequest().source(source).allowPartialSearchResults(false),
                ActionListener.wrap(r -> {
                    try {
                        pit.renew(r);
                        onResponse.accept(r);
                    } catch (Exception e) {
                        fail(e);
                    }
                }, this::fail));
        }

        private boolean cancelled() {
            if (task.isCancelled()) {
                fail(new TaskCancelledException("cancelled: " + task.getReasonCancelled()));
                return true;
            }
            return false;
        }

        /** How many documents have a value: no more than the sample size, and all of them are the sample. */
        private void count() {
            task.phase("count");
            search(pitSource(QueryBuilders.existsQuery(request.field()), 0).trackTotalHits(true), r -> {
                matching = r.getHits().getTotalHits() == null ? 0 : CompatHits.value(r.getHits().getTotalHits());
                if (matching <= request.sampleSize()) {
                    sampleQuery = QueryBuilders.existsQuery(request.field());
                    task.phase("read");
                    page(null);
                } else {
                    random = true;
                    passProbability = WeightsSampling.passProbability(matching, request.sampleSize());
                    task.phase("select");
                    scorePage(null);
                }
            });
        }

        /** The matching documents with a seeded random score in [0, 1), those scoring below {@code minScore} left out. */
        private QueryBuilder randomQuery(float minScore) {
            return QueryBuilders.functionScoreQuery(QueryBuilders.existsQuery(request.field()),
                    ScoreFunctionBuilders.randomFunction().seed(request.seed()).setField(RANDOM_FIELD))
                .boostMode(CombineFunction.REPLACE).setMinScore(minScore);
        }

        /** The first sampling pass: the scores of the documents it keeps, in index order. */
        private void scorePage(Object[] searchAfter) {
            if (cancelled()) {
                return;
            }
            SearchSourceBuilder source = pitSource(randomQuery(WeightsSampling.minScore(passProbability)), SCORE_PAGE_SIZE)
                .fetchSource(false).trackScores(true);
            if (searchAfter != null) {
                source.searchAfter(searchAfter);
            }
            search(source, r -> {
                SearchHit[] hits = r.getHits().getHits();
                if (scoreCount + hits.length > scores.length) {
                    scores = Arrays.copyOf(scores, Math.max(scores.length * 2, scoreCount + hits.length));
                }
                for (SearchHit hit : hits) {
                    scores[scoreCount++] = hit.getScore();
                }
                if (hits.length > 0) {
                    scorePage(hits[hits.length - 1].getSortValues());
                } else if (scoreCount < request.sampleSize() && passProbability < 1) {
                    // too few kept (rare): again, keeping more
                    passProbability = WeightsSampling.retry(passProbability);
                    scoreCount = 0;
                    scorePage(null);
                } else {
                    float threshold = WeightsSampling.threshold(scores, scoreCount, request.sampleSize());
                    scores = null;
                    sampleQuery = randomQuery(threshold);
                    task.phase("read");
                    page(null);
                }
            });
        }

        /** The sample's documents, in index order, until the sample is full or they end. */
        private void page(Object[] searchAfter) {
            if (cancelled()) {
                return;
            }
            int size = (int) Math.min(pageSize(), request.sampleSize() - df.documents());
            SearchSourceBuilder source = pitSource(sampleQuery, size).fetchSource(new String[] {request.field()}, null);
            if (searchAfter != null) {
                source.searchAfter(searchAfter);
            }
            search(source, this::onPage);
        }

        /**
         * Documents per page: a few until their sizes are known, then as many of the largest seen so far as fit in
         * {@link #PAGE_BYTES} (a page's sources are all in memory at once), at most {@link #PAGE_SIZE}.
         */
        private int pageSize() {
            if (largestSource < 0) {
                return FIRST_PAGE_SIZE;
            }
            return (int) Math.max(1, Math.min(PAGE_SIZE, PAGE_BYTES / Math.max(1, largestSource)));
        }

        private void onPage(SearchResponse r) {
            SearchHit[] hits = r.getHits().getHits();
            long pageBytes = 0;
            for (SearchHit hit : hits) {
                long bytes = hit.getSourceRef() == null ? 0 : hit.getSourceRef().length();
                pageBytes += bytes;
                largestSource = Math.max(largestSource, bytes);
            }
            // the page is in memory already: charged as it is read (a page is sized to hold little), released after
            memory.add(2 * pageBytes, "reading a page of the sample of [" + request.index() + "]");
            try {
                FeatureBag bag = fingerprinter.newBag();
                for (SearchHit hit : hits) {
                    if (cancelled()) {
                        return;
                    }
                    long work = hit.getSourceRef() == null ? 0 : DOCUMENT_BYTES_PER_CHAR * hit.getSourceRef().length();
                    // the features of one document, charged before they are counted
                    memory.add(work, "counting the features of [" + hit.getId() + "]");
                    try {
                        bag.reset();
                        for (String text : texts(hit.getSourceAsMap())) {
                            fingerprinter.addText(text, bag);
                        }
                        df.addDocument(bag.features());
                    } finally {
                        memory.release(work);
                    }
                    memory.update(countsCharged, df.ramBytesUsed(), "document frequencies");
                    countsCharged = df.ramBytesUsed();
                    task.docsRead.incrementAndGet();
                }
            } finally {
                memory.release(2 * pageBytes);
            }
            task.featuresCounted = df.distinctFeatures();
            if (hits.length == 0 || df.documents() >= request.sampleSize()) {
                finish();
            } else {
                page(hits[hits.length - 1].getSortValues());
            }
        }

        private List<String> texts(Map<String, Object> source) {
            List<String> out = new ArrayList<>();
            for (Object v : XContentMapValues.extractRawValues(request.field(), source)) {
                if (v instanceof String s) {
                    out.add(s);
                } else if (v != null) {
                    throw new IllegalArgumentException("[field] [" + request.field() + "] must hold text, got a value of type ["
                        + v.getClass().getSimpleName() + "]");
                }
            }
            return out;
        }

        private void finish() {
            close();
            if (df.documents() == 0) {
                listener.onFailure(new IllegalArgumentException("[index] [" + request.index() + "] has no document with a value in [field] ["
                    + request.field() + "] to compute a table from"));
                return;
            }
            WeightsTable table;
            try {
                FingerprintSpec spec = request.spec();
                table = new WeightsTable(request.name(), request.version(), df.idf(request.minDf(), request.maxFeatures()),
                    df.defaultWeight(request.minDf()),
                    source("type", "computed", "index", request.index(), "field", request.field(),
                        "documents", df.documents(), "sample_size", request.sampleSize(),
                        "sampling", random ? "random" : "all", "matching", matching, "seed", random ? request.seed() : null,
                        "min_df", request.minDf(),
                        "max_features", request.maxFeatures(), "idf", "ln(1 + documents / df)",
                        "analyzer", spec.version() == FingerprintSpec.Version.V1 ? spec.analyzer() : null,
                        "shingle_size", spec.version() == FingerprintSpec.Version.V1 ? spec.options().shingleSize() : null,
                        "pruned", df.pruned() > 0 ? Boolean.TRUE : null),
                    threadPool.absoluteTimeInMillis());
            } catch (IllegalArgumentException e) {
                listener.onFailure(e);
                return;
            }
            store(task, child, table, listener);
        }

        private void fail(Exception e) {
            close();
            listener.onFailure(e);
        }

        private void close() {
            memory.close();
            pit.close();
        }
    }

    /** Source of a table, as GET shows it: the given keys and values, in order, without those whose value is null. */
    static Map<String, Object> source(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            if (kv[i + 1] != null) {
                m.put((String) kv[i], kv[i + 1]);
            }
        }
        return m;
    }
}
