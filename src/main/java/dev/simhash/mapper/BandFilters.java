package dev.simhash.mapper;

import dev.simhash.core.BandValueFilter;
import dev.simhash.core.SketchBands;

import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.apache.lucene.index.IndexableField;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.PointValues;
import org.elasticsearch.common.breaker.CircuitBreaker;
import org.elasticsearch.common.settings.ClusterSettings;
import org.elasticsearch.common.settings.Setting;
import org.elasticsearch.common.settings.Settings;
import org.elasticsearch.common.util.concurrent.ThreadContext;
import org.elasticsearch.index.engine.Engine;
import org.elasticsearch.index.mapper.LuceneDocument;
import org.elasticsearch.index.shard.IndexEventListener;
import org.elasticsearch.index.shard.IndexShard;
import org.elasticsearch.index.shard.IndexingOperationListener;
import org.elasticsearch.index.shard.ShardId;
import org.elasticsearch.threadpool.ThreadPool;

import java.io.IOException;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongPredicate;

/**
 * Per shard copy on this node and per sketch field, the band values its documents hold ({@link BandValueFilter}), so that a
 * verified query looks up in the band points only the values some document of the shard may hold: a text with no
 * near-duplicate (most documents an ingest processor looks up) then costs no traversal of the points at all.
 *
 * <p>A filter is built the first time a query needs it, in the background (until then queries look up every value): it is
 * registered first, so that every document indexed from then on adds its values ({@link #preIndex}, on primaries, replicas
 * and recoveries alike); then the shard is refreshed, so that every document indexed before is in the reader whose band
 * points are read. Values of deleted or updated documents stay (they only make "perhaps" answers more frequent). A filter
 * is dropped with its shard copy; its memory is charged to the fielddata circuit breaker (it is, like field data, built from the index and kept), and a refused charge leaves
 * the shard without a filter, or with one that stops growing.
 */
public final class BandFilters implements IndexingOperationListener, IndexEventListener {

    private static final Logger logger = LogManager.getLogger(BandFilters.class);

    /** Whether verified queries use the filters (dynamic; off drops them all and gives their memory back). */
    public static final Setting<Boolean> ENABLED = Setting.boolSetting("simhash.band_filter.enabled", true, Setting.Property.NodeScope,
        Setting.Property.Dynamic);
    static final String BREAKER_LABEL = "simhash band filter";
    /** After a build failed (e.g. its memory was refused), the next is tried this much later at the earliest. */
    private static final long RETRY_NANOS = TimeUnit.MINUTES.toNanos(1);

    private record Key(ShardId shard, String field) {}

    private static final class State {
        final BandValueFilter filter;
        volatile boolean ready;

        State(BandValueFilter filter) {
            this.filter = filter;
        }
    }

    private final Map<ShardId, IndexShard> shards = new ConcurrentHashMap<>();
    private final Map<Key, State> filters = new ConcurrentHashMap<>();
    /** The shards with a filter, and its fields: what an indexed document is checked against. */
    private final Map<ShardId, Map<String, State>> byShard = new ConcurrentHashMap<>();
    /** Filters being built, and when a build last failed. */
    private final Set<Key> building = ConcurrentHashMap.newKeySet();
    private final Map<Key, Long> failed = new ConcurrentHashMap<>();
    private volatile boolean enabled;
    private volatile CircuitBreaker breaker;
    private volatile ThreadPool threadPool;

    /** Starts answering queries: filters are built on the generic pool, charged to {@code breaker}. */
    public void start(Settings settings, ClusterSettings clusterSettings, CircuitBreaker breaker, ThreadPool threadPool) {
        this.breaker = breaker;
        this.threadPool = threadPool;
        this.enabled = ENABLED.get(settings);
        clusterSettings.addSettingsUpdateConsumer(ENABLED, on -> {
            enabled = on;
            if (on == false) {
                filters.keySet().forEach(this::drop);
            }
        });
    }

    /**
     * Which band values ({@link SketchBands#longValues}) some document of this shard copy may hold in {@code field}'s
     * points: a value it answers false for is held by none. Null when there is no filter (yet): then every value must be
     * looked up. The first call for a shard and field starts building its filter.
     */
    public LongPredicate mayHold(ShardId shard, String field) {
        if (enabled == false || breaker == null) {
            return null;
        }
        Key key = new Key(shard, field);
        State state = filters.get(key);
        if (state == null) {
            IndexShard indexShard = shards.get(shard);
            Long failedAt = failed.get(key);
            if (indexShard != null && (failedAt == null || System.nanoTime() - failedAt > RETRY_NANOS) && building.add(key)) {
                // the node's own work, not the caller's: built outside the caller's thread context
                ThreadPool pool = threadPool;
                try (ThreadContext.StoredContext ignored = pool.getThreadContext().stashContext()) {
                    pool.generic().execute(() -> {
                        try {
                            if (build(key, indexShard) == false) {
                                failed.put(key, System.nanoTime());
                            }
                        } finally {
                            building.remove(key);
                        }
                    });
                }
            }
            return null;
        }
        return state.ready ? state.filter::mightContain : null;
    }

    /** Builds the filter of a shard and field; false when it could not (it is then tried again later). */
    private boolean build(Key key, IndexShard shard) {
        State state;
        try {
            long documents;
            Engine engine = shard.getEngineOrNull();
            if (engine == null) {
                return false;
            }
            try (Engine.Searcher sizing = engine.acquireSearcher(BREAKER_LABEL, Engine.SearcherScope.EXTERNAL)) {
                documents = sizing.getIndexReader().maxDoc();
            }
            CircuitBreaker b = breaker;
            state = new State(new BandValueFilter((documents + documents / 4) * SketchBands.BANDS,
                bytes -> b.addEstimateBytesAndMaybeBreak(bytes, BREAKER_LABEL)));
        } catch (RuntimeException e) {
            logger.debug(() -> "no band filter for " + key, e);
            return false;
        }
        // registered before the refresh: every document indexed from now on adds its values, every earlier one is read below
        if (filters.putIfAbsent(key, state) != null) {
            release(state);
            return true;
        }
        byShard.computeIfAbsent(key.shard(), s -> new ConcurrentHashMap<>()).put(key.field(), state);
        try {
            shard.refresh(BREAKER_LABEL);
            Engine engine = shard.getEngineOrNull();
            if (engine == null) {
                drop(key);
                return false;
            }
            try (Engine.Searcher searcher = engine.acquireSearcher(BREAKER_LABEL, Engine.SearcherScope.EXTERNAL)) {
                for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
                    PointValues points = leaf.reader().getPointValues(key.field());
                    if (points != null) {
                        points.intersect(new AllValues(state.filter));
                    }
                }
            }
            if (enabled && shards.get(key.shard()) == shard && filters.get(key) == state) {
                state.ready = true;
            } else {
                drop(key);
            }
            return true;
        } catch (RuntimeException | IOException e) {
            logger.debug(() -> "no band filter for " + key, e);
            drop(key);
            return false;
        }
    }

    /** Adds every band point of a segment to the filter (live or deleted: a deleted one only answers "perhaps" for nothing). */
    private static final class AllValues implements PointValues.IntersectVisitor {
        private final BandValueFilter filter;

        AllValues(BandValueFilter filter) {
            this.filter = filter;
        }

        @Override
        public void visit(int docID) {
            throw new IllegalStateException("every cell is read value by value");
        }

        @Override
        public void visit(int docID, byte[] packedValue) {
            filter.add(SketchBands.longValue(packedValue, 0));
        }

        @Override
        public PointValues.Relation compare(byte[] minPackedValue, byte[] maxPackedValue) {
            return PointValues.Relation.CELL_CROSSES_QUERY;
        }
    }

    private void drop(Key key) {
        State state = filters.remove(key);
        if (state != null) {
            Map<String, State> fields = byShard.get(key.shard());
            if (fields != null) {
                fields.remove(key.field(), state);
            }
            release(state);
        }
    }

    private void release(State state) {
        CircuitBreaker b = breaker;
        if (b != null) {
            b.addWithoutBreaking(-state.filter.bytes());
        }
    }

    /**
     * Adds the band values of a document about to be indexed: before the engine has it, so that no refresh can show it
     * to a query while its values are not in the filter yet (an operation that then fails leaves values no document
     * holds, which only make "perhaps" answers more frequent).
     */
    @Override
    public Engine.Index preIndex(ShardId shardId, Engine.Index index) {
        Map<String, State> fields = byShard.get(shardId);
        if (fields == null || fields.isEmpty()) {
            return index;
        }
        for (LuceneDocument doc : index.docs()) {
            for (IndexableField f : doc.getFields()) {
                if (f instanceof LuceneFields.SketchField sketch) {
                    State state = fields.get(f.name());
                    byte[] bytes = state == null ? null : sketch.sketch();
                    if (bytes != null) {
                        for (long v : SketchBands.longValues(bytes, 0)) {
                            state.filter.add(v);
                        }
                    }
                }
            }
        }
        return index;
    }

    @Override
    public void afterIndexShardStarted(IndexShard indexShard) {
        shards.put(indexShard.shardId(), indexShard);
    }

    @Override
    public void beforeIndexShardClosed(ShardId shardId, IndexShard indexShard, Settings indexSettings) {
        if (indexShard != null) {
            shards.remove(shardId, indexShard);
        }
        Map<String, State> fields = byShard.remove(shardId);
        if (fields != null) {
            for (String field : fields.keySet()) {
                drop(new Key(shardId, field));
            }
        }
    }
}
