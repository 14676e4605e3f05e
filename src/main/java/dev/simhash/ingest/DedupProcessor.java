package dev.simhash.ingest;

import dev.simhash.compat.CompatIndices;
import dev.simhash.compat.CompatProcessorFactory;
import dev.simhash.core.FeatureWeights;
import dev.simhash.core.MinHashSketch;
import dev.simhash.core.TextFingerprinter;
import dev.simhash.mapper.MappedFingerprint;
import dev.simhash.mapper.SimHashFieldType;
import dev.simhash.query.SimHashQueryBuilder;
import dev.simhash.request.FingerprintMappings;
import dev.simhash.threshold.Thresholds;
import dev.simhash.threshold.Verification;

import org.apache.lucene.analysis.Analyzer;
import org.elasticsearch.ElasticsearchStatusException;
import org.elasticsearch.action.ActionListener;
import org.elasticsearch.action.search.SearchRequest;
import org.elasticsearch.action.search.SearchResponse;
import org.elasticsearch.client.internal.Client;
import org.elasticsearch.common.document.DocumentField;
import org.elasticsearch.common.util.concurrent.ThreadContext;
import org.elasticsearch.core.TimeValue;
import org.elasticsearch.index.analysis.AnalysisRegistry;
import org.elasticsearch.index.query.BoolQueryBuilder;
import org.elasticsearch.index.query.QueryBuilders;
import org.elasticsearch.ingest.AbstractProcessor;
import org.elasticsearch.ingest.ConfigurationUtils;
import org.elasticsearch.ingest.IngestDocument;
import org.elasticsearch.ingest.Processor;
import org.elasticsearch.rest.RestStatus;
import org.elasticsearch.search.SearchHit;
import org.elasticsearch.search.builder.SearchSourceBuilder;
import org.elasticsearch.search.fetch.subphase.FieldAndFormat;
import org.elasticsearch.threadpool.Scheduler;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;

/**
 * Ingest processor {@code simhash_dedup}: finds the documents a new document near-duplicates before it is indexed (a
 * verified {@code simhash} query with its fingerprint and sketch, computed as the target's {@code simhash} field computes
 * them, plus the node's window of recent documents that no search can see yet), then tags, drops or fails it.
 */
public final class DedupProcessor extends AbstractProcessor {

    public static final String TYPE = "simhash_dedup";
    public static final String DEFAULT_TARGET_FIELD = "duplicate_of";
    public static final TimeValue DEFAULT_WINDOW = TimeValue.timeValueSeconds(30);
    public static final int DEFAULT_WINDOW_SIZE = 10_000;
    public static final TimeValue DEFAULT_TIMEOUT = TimeValue.timeValueSeconds(10);
    /** Documents looked up by one search, at most. */
    static final int BATCH = 100;
    /** How long the first document of a batch waits for others. */
    static final long BATCH_DELAY_MILLIS = 2;
    /** Hits one batch's search returns, at most. */
    static final int BATCH_HITS = 1000;
    /** The thread-context header security keeps the caller's authentication in: documents are matched within one sender. */
    static final String AUTHENTICATION_HEADER = "_xpack_security_authentication";

    /** What happens to a document that near-duplicates one the target holds. */
    public enum OnDuplicate {
        TAG, DROP, FAIL;

        String optionName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** The options of one processor, as given in the pipeline. */
    record Options(String field, String simhashField, String target, Double minSimilarity, OnDuplicate onDuplicate,
                   String targetField, TimeValue window, int windowSize, TimeValue timeout, boolean ignoreMissing) {}

    /** The node's services a lookup needs. */
    record Services(Client client, ThreadContext threadContext, CompatIndices indices, RecentDocuments recent,
                    BiFunction<Long, Runnable, Scheduler.ScheduledCancellable> scheduler, AnalysisRegistry analysis,
                    FeatureWeights.Tables weights) {}

    private final Options options;
    private final Services services;
    private final DedupTargets targets;
    private final Verification threshold;
    private final LookupBatches batches;

    DedupProcessor(String tag, String description, Options options, Services services) {
        super(tag, description);
        this.options = options;
        this.services = services;
        this.targets = new DedupTargets(services.indices(), options.simhashField());
        this.threshold = Verification.of(options.minSimilarity() == null ? Thresholds.DEFAULT_MIN_SIMILARITY : options.minSimilarity());
        this.batches = new LookupBatches();
    }

    @Override
    public String getType() {
        return TYPE;
    }

    @Override
    public boolean isAsync() {
        return true;
    }

    @Override
    public IngestDocument execute(IngestDocument document) {
        throw new UnsupportedOperationException("[" + TYPE + "] runs asynchronously");
    }

    @Override
    public void execute(IngestDocument document, BiConsumer<IngestDocument, Exception> handler) {
        Lookup lookup;
        try {
            lookup = start(document);
        } catch (Exception e) {
            handler.accept(null, e);
            return;
        }
        if (lookup == null) {
            handler.accept(document, null);
            return;
        }
        lookup.run(handler);
    }

    /** Fingerprints the document and admits it to the window; null when there is nothing to compare (no text, no features). */
    private Lookup start(IngestDocument document) {
        Object value = document.getFieldValue(options.field(), Object.class, options.ignoreMissing());
        if (value == null) {
            if (options.ignoreMissing()) {
                return null;
            }
            throw new IllegalArgumentException("field [" + options.field() + "] is null, cannot look for its near-duplicates");
        }
        List<String> texts = texts(value);
        String index = document.getMetadata().getIndex();
        String id = document.getMetadata().getId();
        String target = options.target() != null ? options.target() : index;
        DedupTargets.Resolved resolved = targets.resolve(target);
        if (resolved == null) {
            throw new IllegalArgumentException("[target] [" + target + "] matches no index: create the index with its [simhash] field "
                + "[" + options.simhashField() + "] before documents go through [" + TYPE + "]");
        }
        MappedFingerprint mapped = resolved.fingerprint();
        TextFingerprinter fingerprinter = mapped.fingerprinter(this::nodeAnalyzer,
            "the node (an ingest processor cannot use an index's own analyzers)", services.weights());
        MinHashSketch.Accumulator tokens = mapped.sketch().accumulator();
        OptionalLong fp = fingerprinter.fingerprint(texts, tokens);
        byte[] sketch = tokens.sketch();
        if (fp.isEmpty() || sketch == null) {
            // no fingerprint: the field stores nothing for this text, so nothing can be its near-duplicate
            return null;
        }
        // with the default target, documents of the same index; else the indices the target names (not through patterns,
        // which a search expands to what the sender may read only)
        boolean defaultTarget = options.target() == null;
        String header = services.threadContext().getHeader(AUTHENTICATION_HEADER);
        String sender = header == null ? "" : header;
        RecentDocuments.Key key = new RecentDocuments.Key(options.simhashField(), mapped, sender);
        RecentDocuments.Admission admission = services.recent().admit(key, index, id, fp.getAsLong(), sketch, threshold,
            i -> defaultTarget ? i.equals(index) : resolved.namedIndices().contains(i), options.onDuplicate() == OnDuplicate.TAG,
            options.window().nanos(), options.windowSize());
        return new Lookup(document, index, id, sender, fp.getAsLong(), sketch, admission);
    }

    private List<String> texts(Object value) {
        if (value instanceof String s) {
            return List.of(s);
        }
        if (value instanceof List<?> list) {
            return SimHashProcessor.strings(options.field(), list, "a string or an array of strings");
        }
        throw new IllegalArgumentException("field [" + options.field() + "] must be a string or an array of strings, but is of type ["
            + value.getClass().getSimpleName() + "]");
    }

    private Analyzer nodeAnalyzer(String name) {
        try {
            return services.analysis() == null ? null : services.analysis().getAnalyzer(name);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The near-duplicate found, from a search hit or the window. */
    record Found(String index, String id, double similarity) {}

    /** One document's lookup: the search, then the window's matches once their own documents are decided. */
    private final class Lookup {
        private final IngestDocument document;
        private final String index;
        private final String id;
        /** Who sent the document (security's authentication header; empty without security): lookups go out per sender. */
        private final String sender;
        private final long fingerprint;
        private final byte[] sketch;
        private final RecentDocuments.Admission admission;
        private final AtomicBoolean done = new AtomicBoolean();
        private volatile Scheduler.ScheduledCancellable timer;

        Lookup(IngestDocument document, String index, String id, String sender, long fingerprint, byte[] sketch,
               RecentDocuments.Admission admission) {
            this.document = document;
            this.index = index;
            this.id = id;
            this.sender = sender;
            this.fingerprint = fingerprint;
            this.sketch = sketch;
            this.admission = admission;
        }

        void run(BiConsumer<IngestDocument, Exception> handler) {
            long millis = options.timeout().millis();
            timer = services.scheduler().apply(millis, () -> fail(handler, new ElasticsearchStatusException("[" + TYPE
                + "] the lookup of near-duplicates of [" + id + "] took longer than [timeout] [" + options.timeout() + "]",
                RestStatus.GATEWAY_TIMEOUT)));
            batches.add(this, handler);
        }

        String target() {
            return options.target() != null ? options.target() : index;
        }

        /** This document's query: its fingerprint and sketch at the threshold. */
        SimHashQueryBuilder query() {
            return new SimHashQueryBuilder(options.simhashField()).hash(fingerprint).sketch(sketch).minSimilarity(threshold.minSimilarity());
        }

        /** Whether a hit is this document itself (indexed again under its id): not its own near-duplicate. */
        boolean isSelf(String hitIndex, String hitId) {
            return id != null && id.equals(hitId) && index.equals(hitIndex);
        }

        /** The search of this document alone (when its batch's answer was cut off at the hits a search returns). */
        void searchAlone(BiConsumer<IngestDocument, Exception> handler) {
            BoolQueryBuilder query = QueryBuilders.boolQuery().must(query());
            if (id != null) {
                query.mustNot(QueryBuilders.boolQuery().filter(QueryBuilders.idsQuery().addIds(id))
                    .filter(QueryBuilders.termQuery("_index", index)));
            }
            SearchRequest search = new SearchRequest(target().split(",")).source(new SearchSourceBuilder().query(query).size(1)
                .fetchSource(false).trackTotalHits(false));
            services.client().search(search, ActionListener.wrap(r -> {
                if (failedShards(handler, r)) {
                    return;
                }
                SearchHit[] hits = r.getHits().getHits();
                found(handler, hits.length == 0 ? null : new Found(hits[0].getIndex(), hits[0].getId(), hits[0].getScore()));
            }, e -> fail(handler, e)));
        }

        /** Fails the lookup when the search missed shards (it could have missed the original); true when it did. */
        boolean failedShards(BiConsumer<IngestDocument, Exception> handler, SearchResponse response) {
            if (response.getShardFailures().length == 0) {
                return false;
            }
            fail(handler, new ElasticsearchStatusException("[" + TYPE + "] the lookup of near-duplicates of [" + id + "] failed on ["
                + response.getFailedShards() + "] shards: " + response.getShardFailures()[0].reason(),
                response.getShardFailures()[0].status(), response.getShardFailures()[0].getCause()));
            return true;
        }

        /** Goes on with the best searchable match found (null: none), then the window's. */
        void found(BiConsumer<IngestDocument, Exception> handler, Found searched) {
            List<RecentDocuments.Match> matches = admission.matches();
            if (matches.isEmpty()) {
                decide(handler, searched);
                return;
            }
            // a window document counts once its own processor has kept it (a dropped or failed one is nobody's original)
            Decided decided = new Decided(matches.size(), handler, searched);
            for (RecentDocuments.Match m : matches) {
                m.entry().kept.addListener(ActionListener.wrap(kept -> decided.one(m, kept), e -> decided.one(m, false)));
            }
        }

        /** Gathers the window's matches as their documents are decided. */
        private final class Decided {
            private int pending;
            private final BiConsumer<IngestDocument, Exception> handler;
            private Found best;

            Decided(int pending, BiConsumer<IngestDocument, Exception> handler, Found searched) {
                this.pending = pending;
                this.handler = handler;
                this.best = searched;
            }

            void one(RecentDocuments.Match m, boolean kept) {
                Found result;
                synchronized (this) {
                    if (kept && (best == null || m.similarity() > best.similarity())) {
                        best = new Found(m.entry().index, m.entry().id, m.similarity());
                    }
                    if (--pending > 0) {
                        return;
                    }
                    result = best;
                }
                decide(handler, result);
            }
        }

        private void decide(BiConsumer<IngestDocument, Exception> handler, Found found) {
            if (done.compareAndSet(false, true) == false) {
                return;
            }
            cancelTimer();
            RecentDocuments.Entry own = admission.own();
            if (found == null) {
                if (own != null) {
                    own.decide(true);
                }
                handler.accept(document, null);
                return;
            }
            switch (options.onDuplicate()) {
                case TAG -> {
                    Map<String, Object> tag = new LinkedHashMap<>();
                    tag.put("index", found.index());
                    tag.put("id", found.id());
                    tag.put("similarity", found.similarity());
                    document.setFieldValue(options.targetField(), tag);
                    handler.accept(document, null);
                }
                case DROP -> {
                    if (own != null) {
                        own.decide(false);
                    }
                    handler.accept(null, null);
                }
                case FAIL -> {
                    if (own != null) {
                        own.decide(false);
                    }
                    handler.accept(null, new ElasticsearchStatusException(String.format(Locale.ROOT,
                        "[%s] document [%s] is a near-duplicate of document [%s] of index [%s] (estimated similarity %s, at least "
                            + "[min_similarity] %s)", TYPE, id, found.id(), found.index(), found.similarity(), threshold.minSimilarity()),
                        RestStatus.CONFLICT));
                }
            }
        }

        private void fail(BiConsumer<IngestDocument, Exception> handler, Exception e) {
            if (done.compareAndSet(false, true) == false) {
                return;
            }
            cancelTimer();
            if (admission.own() != null && options.onDuplicate() != OnDuplicate.TAG) {
                // its fate is up to on_failure now; later documents do not wait on it, nor count it
                admission.own().decide(false);
            }
            handler.accept(null, e);
        }

        private void cancelTimer() {
            Scheduler.ScheduledCancellable t = timer;
            if (t != null) {
                t.cancel();
            }
        }
    }

    /**
     * Lookups that go out together: a search costs far more than indexing a short document, so the documents of a bulk
     * that one sender sends to one target are looked up by one search, the union of their queries, whose hits each
     * document then verifies against its own sketch (the same estimate the query scores with). A batch goes out when it
     * holds {@value #BATCH} documents or {@value #BATCH_DELAY_MILLIS} ms after its first, in the sender's thread context.
     */
    private final class LookupBatches {
        private final Map<String, Batch> open = new HashMap<>();

        private final class Batch {
            final String key;
            final String target;
            final java.util.function.Supplier<ThreadContext.StoredContext> context;
            final List<Lookup> lookups = new ArrayList<>();
            final List<BiConsumer<IngestDocument, Exception>> handlers = new ArrayList<>();
            boolean sent;

            Batch(String key, String target, java.util.function.Supplier<ThreadContext.StoredContext> context) {
                this.key = key;
                this.target = target;
                this.context = context;
            }
        }

        void add(Lookup lookup, BiConsumer<IngestDocument, Exception> handler) {
            String key = lookup.target() + "\u0000" + lookup.sender;
            Batch full = null;
            Batch opened = null;
            synchronized (this) {
                Batch b = open.get(key);
                if (b == null) {
                    b = new Batch(key, lookup.target(), services.threadContext().newRestorableContext(false));
                    open.put(key, b);
                    opened = b;
                }
                b.lookups.add(lookup);
                b.handlers.add(handler);
                if (b.lookups.size() >= BATCH) {
                    open.remove(key);
                    full = b;
                }
            }
            if (full != null) {
                send(full);
            } else if (opened != null) {
                Batch later = opened;
                services.scheduler().apply(BATCH_DELAY_MILLIS, () -> {
                    synchronized (this) {
                        if (open.get(later.key) == later) {
                            open.remove(later.key);
                        }
                    }
                    send(later);
                });
            }
        }

        private void send(Batch b) {
            synchronized (this) {
                if (b.sent) {
                    return;
                }
                b.sent = true;
            }
            BoolQueryBuilder union = QueryBuilders.boolQuery();
            for (Lookup l : b.lookups) {
                union.should(l.query());
            }
            SearchRequest search = new SearchRequest(b.target.split(",")).source(new SearchSourceBuilder().query(union).size(BATCH_HITS)
                .fetchSource(false).trackTotalHits(false)
                .fetchField(new FieldAndFormat(options.simhashField(), SimHashFieldType.FINGERPRINT_AND_SKETCH_FORMAT)));
            try (ThreadContext.StoredContext ignored = b.context.get()) {
                services.client().search(search, ActionListener.wrap(r -> answered(b, r), e -> {
                    for (int i = 0; i < b.lookups.size(); i++) {
                        b.lookups.get(i).fail(b.handlers.get(i), e);
                    }
                }));
            }
        }

        private void answered(Batch b, SearchResponse response) {
            SearchHit[] hits = response.getHits().getHits();
            // a cut-off answer may lack some document's match: those without one in it are searched alone
            boolean complete = hits.length < BATCH_HITS;
            // each hit's fingerprint and sketch: a hit found by another document's query is this document's only when it is
            // a candidate of this document by the threshold's rule too (a shared band, or the radius), as its own query asks
            long[] hashes = new long[hits.length];
            byte[][] sketches = new byte[hits.length][];
            for (int h = 0; h < hits.length; h++) {
                DocumentField f = hits[h].field(options.simhashField());
                if (f != null && f.getValues().isEmpty() == false && f.getValues().get(0) instanceof Number hash) {
                    hashes[h] = hash.longValue();
                    sketches[h] = FingerprintMappings.sketchOf(hits[h], options.simhashField());
                }
            }
            for (int i = 0; i < b.lookups.size(); i++) {
                Lookup l = b.lookups.get(i);
                BiConsumer<IngestDocument, Exception> handler = b.handlers.get(i);
                if (l.failedShards(handler, response)) {
                    continue;
                }
                Found best = null;
                for (int h = 0; h < hits.length; h++) {
                    if (sketches[h] == null || l.isSelf(hits[h].getIndex(), hits[h].getId())
                        || threshold.accepts(l.fingerprint, l.sketch, 0, hashes[h], sketches[h], 0) == false) {
                        continue;
                    }
                    double similarity = Verification.similarity(l.sketch, 0, sketches[h], 0);
                    if (best == null || similarity > best.similarity()) {
                        best = new Found(hits[h].getIndex(), hits[h].getId(), similarity);
                    }
                }
                if (best == null && complete == false) {
                    l.searchAlone(handler);
                } else {
                    l.found(handler, best);
                }
            }
        }
    }

    /** Reads and checks the processor's options; unknown options are refused by the ingest framework. */
    public static final class Factory extends CompatProcessorFactory {

        private final Client client;
        private final ThreadContext threadContext;
        private final CompatIndices indices;
        private final RecentDocuments recent;
        private final BiFunction<Long, Runnable, Scheduler.ScheduledCancellable> scheduler;
        private final AnalysisRegistry analysis;
        private final FeatureWeights.Tables weights;

        public Factory(Processor.Parameters parameters, RecentDocuments recent, FeatureWeights.Tables weights) {
            this.client = parameters.client;
            this.threadContext = parameters.threadContext;
            this.indices = CompatIndices.of(parameters.ingestService);
            this.recent = recent;
            this.scheduler = parameters.scheduler;
            this.analysis = parameters.analysisRegistry;
            this.weights = weights;
        }

        @Override
        public DedupProcessor create(Map<String, Processor.Factory> registry, String tag, String description, Map<String, Object> config) {
            String field = ConfigurationUtils.readStringProperty(TYPE, tag, config, "field");
            String simhashField = ConfigurationUtils.readStringProperty(TYPE, tag, config, "simhash_field", field + ".simhash");
            String target = ConfigurationUtils.readOptionalStringProperty(TYPE, tag, config, "target");
            Double minSimilarity = readMinSimilarity(tag, config);
            OnDuplicate onDuplicate = readOnDuplicate(tag, config);
            String targetField = ConfigurationUtils.readStringProperty(TYPE, tag, config, "target_field", DEFAULT_TARGET_FIELD);
            TimeValue window = readTime(tag, config, "window", DEFAULT_WINDOW);
            int windowSize = ConfigurationUtils.readIntProperty(TYPE, tag, config, "window_size", DEFAULT_WINDOW_SIZE);
            TimeValue timeout = readTime(tag, config, "timeout", DEFAULT_TIMEOUT);
            boolean ignoreMissing = ConfigurationUtils.readBooleanProperty(TYPE, tag, config, "ignore_missing", false);
            for (Map.Entry<String, String> e : Map.of("field", field, "simhash_field", simhashField, "target_field", targetField).entrySet()) {
                if (e.getValue().isEmpty()) {
                    throw ConfigurationUtils.newConfigurationException(TYPE, tag, e.getKey(), "must not be empty");
                }
            }
            if (target != null && target.isBlank()) {
                throw ConfigurationUtils.newConfigurationException(TYPE, tag, "target", "must not be empty");
            }
            if (windowSize < 0) {
                throw ConfigurationUtils.newConfigurationException(TYPE, tag, "window_size", "must be 0 or more, got [" + windowSize + "]");
            }
            if (timeout.millis() <= 0) {
                throw ConfigurationUtils.newConfigurationException(TYPE, tag, "timeout", "must be positive, got [" + timeout + "]");
            }
            Options options = new Options(field, simhashField, target, minSimilarity, onDuplicate, targetField, window, windowSize, timeout,
                ignoreMissing);
            DedupProcessor processor = new DedupProcessor(tag, description, options,
                new Services(client, threadContext, indices, recent, scheduler, analysis, weights));
            if (target != null) {
                // a target that exists now must map the field as the processor needs (one that does not exist yet is checked
                // when a document comes)
                try {
                    processor.targets.resolve(target);
                } catch (DedupTargets.Refused e) {
                    throw ConfigurationUtils.newConfigurationException(TYPE, tag, e.option, e.reason);
                }
            }
            return processor;
        }

        private static Double readMinSimilarity(String tag, Map<String, Object> config) {
            try {
                return Thresholds.minSimilarity(config.remove(Thresholds.MIN_SIMILARITY));
            } catch (IllegalArgumentException e) {
                throw ConfigurationUtils.newConfigurationException(TYPE, tag, Thresholds.MIN_SIMILARITY,
                    e.getMessage().replaceFirst("^\\[" + Thresholds.MIN_SIMILARITY + "\\] ", ""));
            }
        }

        private static OnDuplicate readOnDuplicate(String tag, Map<String, Object> config) {
            String raw = ConfigurationUtils.readStringProperty(TYPE, tag, config, "on_duplicate", OnDuplicate.TAG.optionName());
            for (OnDuplicate o : OnDuplicate.values()) {
                if (o.optionName().equals(raw)) {
                    return o;
                }
            }
            throw ConfigurationUtils.newConfigurationException(TYPE, tag, "on_duplicate", "must be one of [tag, drop, fail], got [" + raw
                + "]");
        }

        private static TimeValue readTime(String tag, Map<String, Object> config, String option, TimeValue defaultValue) {
            String raw = ConfigurationUtils.readOptionalStringProperty(TYPE, tag, config, option);
            if (raw == null) {
                return defaultValue;
            }
            try {
                return TimeValue.parseTimeValue(raw, option);
            } catch (IllegalArgumentException e) {
                throw ConfigurationUtils.newConfigurationException(TYPE, tag, option, e.getMessage());
            }
        }
    }
}
