package dev.simhash.calibrate;

import dev.simhash.breaker.RequestMemory;
import dev.simhash.compat.CompatIndices;
import dev.simhash.compat.lucene.CompatHits;
import dev.simhash.core.FeatureBag;
import dev.simhash.core.FingerprintFields;
import dev.simhash.core.MinHashSketch;
import dev.simhash.core.SimHash;
import dev.simhash.core.TextFingerprinter;
import dev.simhash.mapper.SimHashFieldMapper;
import dev.simhash.mapper.SimHashFieldType;

import org.elasticsearch.action.ActionListener;
import org.elasticsearch.action.ActionRunnable;
import org.elasticsearch.action.fieldcaps.FieldCapabilities;
import org.elasticsearch.action.fieldcaps.FieldCapabilitiesRequest;
import org.elasticsearch.action.fieldcaps.FieldCapabilitiesResponse;
import org.elasticsearch.action.fieldcaps.TransportFieldCapabilitiesAction;
import org.elasticsearch.action.search.SearchRequest;
import org.elasticsearch.action.search.SearchResponse;
import org.elasticsearch.action.search.TransportSearchAction;
import org.elasticsearch.action.support.ActionFilters;
import org.elasticsearch.action.support.ContextPreservingActionListener;
import org.elasticsearch.action.support.HandledTransportAction;
import org.elasticsearch.client.internal.Client;
import org.elasticsearch.client.internal.ParentTaskAssigningClient;
import org.elasticsearch.client.internal.node.NodeClient;
import org.elasticsearch.cluster.metadata.IndexMetadata;
import org.elasticsearch.cluster.metadata.MappingMetadata;
import org.elasticsearch.cluster.service.ClusterService;
import org.elasticsearch.common.breaker.CircuitBreaker;
import org.elasticsearch.common.document.DocumentField;
import org.elasticsearch.common.xcontent.support.XContentMapValues;
import org.elasticsearch.core.CheckedConsumer;
import org.elasticsearch.core.CheckedRunnable;
import org.elasticsearch.core.IOUtils;
import org.elasticsearch.core.Releasable;
import org.elasticsearch.index.IndexService;
import org.elasticsearch.index.IndexSettings;
import org.elasticsearch.index.mapper.MappedFieldType;
import org.elasticsearch.index.mapper.MapperService;
import org.elasticsearch.index.query.BoolQueryBuilder;
import org.elasticsearch.index.query.QueryBuilders;
import org.elasticsearch.index.query.functionscore.ScoreFunctionBuilders;
import org.elasticsearch.indices.IndicesService;
import org.elasticsearch.indices.breaker.CircuitBreakerService;
import org.elasticsearch.injection.guice.Inject;
import org.elasticsearch.search.SearchHit;
import org.elasticsearch.search.builder.SearchSourceBuilder;
import org.elasticsearch.tasks.CancellableTask;
import org.elasticsearch.tasks.Task;
import org.elasticsearch.threadpool.ThreadPool;
import org.elasticsearch.transport.TransportService;

import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;

/**
 * Runs the calibration report: checks the field through the field capabilities API, samples documents with a seeded
 * {@code random_score} search (fingerprints from doc values only) and counts the documents with a fingerprint, all as
 * child requests with the caller's privileges; then reads the sampled texts in pages (source filtered to the text field,
 * each page's size bounded in bytes), reducing each text as it arrives: a bounded {@link ShingleSketch} for documents with
 * a fingerprint within {@link Calibration#MAX_K} bits of another one, the edit vocabulary, sizes and the original
 * fingerprint for the documents to edit. Then it compares all pairs of sampled fingerprints and reads the documents to
 * edit once more, page by page, to fingerprint their edited copies with the field's own fingerprinter. On a field with a
 * similarity sketch, the same passes sketch the texts of the documents with a neighbour and the edited copies and their
 * originals ({@link VerifiedPairs}, {@link EditSimilarity}). Everything the
 * request holds in proportion to the sample or the texts is charged to the request circuit breaker ({@link RequestMemory}).
 */
public final class TransportCalibrateAction extends HandledTransportAction<CalibrateRequest, CalibrateResponse> {

    /** How a 429 names the calibration, followed by what it was charging. */
    static final String MEMORY_LABEL = "simhash calibrate: ";

    /** Documents whose edited copies are fingerprinted at most (4 copies each); random pairs use the whole sample. */
    static final int MAX_EDITED_DOCS = 1_000;
    /**
     * Words of text edited at most in one request, over all edited documents (each is read 5 times: its fingerprint and 4
     * copies): the documents are taken in the sample's order while their words fit, so that the time a request takes is
     * bounded whatever the texts' sizes (about 10 s of one core for 2 million words; 1,000 texts of 2,000 words fit).
     */
    static final long MAX_EDITED_WORDS = 2_000_000;
    /**
     * Words of text read at most in one request to decide which pairs are related (texts of documents with a neighbour
     * within {@link Calibration#MAX_K} bits): beyond that, such documents are not compared by their texts.
     */
    static final long MAX_COMPARED_WORDS = 16_000_000;
    /** Tokens between two checks for cancellation while a text is analysed. */
    private static final int CHECK_EVERY_TOKENS = 1 << 16;
    /** Heap per hit of the sample search (a fingerprint from doc values, no source) until it is reduced. */
    static final long SAMPLE_HIT_BYTES = 1_024;
    /** Heap per sampled document once reduced: its index, id, score and fingerprint, and its slots in the arrays. */
    static final long SAMPLED_DOC_BYTES = 192;
    /** Texts read in the first page; later pages adapt to the largest source seen. */
    static final int FIRST_PAGE_DOCS = 4;
    static final int MAX_PAGE_DOCS = 200;
    /** The source bytes one page of texts should hold at most (one larger text is read alone). */
    static final long PAGE_SOURCE_BYTES = 8L << 20;
    /** Assumed source size of a text before any was seen. */
    static final long FIRST_SOURCE_BYTES = 16L << 10;
    /** Copies of a page's source in memory while it arrives: the response's bytes, the parsed source, the text. */
    static final int SOURCE_COPIES = 3;
    /** Heap per character of a text held between reading and reducing it (UTF-16 worst case plus the string). */
    static final long TEXT_BYTES_PER_CHAR = 2;
    static final long TEXT_OVERHEAD_BYTES = 64;
    /** Transient heap per character while a text is sketched, fingerprinted and its features counted. */
    static final long REDUCE_BYTES_PER_CHAR = 16;
    /**
     * Transient heap per character while a text's edited copies are made and fingerprinted: the copy (its builder and its
     * string, UTF-16 at worst, with room for insertions), the plan (an int per edit) and the copy's analysis.
     */
    static final long EDIT_BYTES_PER_CHAR = 24;
    /** Heap per similarity sketch held for the random pairs: its bytes and the array's header and slot. */
    static final long MINHASH_SKETCH_BYTES = MinHashSketch.BYTES + 24;
    private static final String UNMAPPED = "unmapped";

    private final NodeClient client;
    private final ClusterService clusterService;
    private final ThreadPool threadPool;
    private final CompatIndices indices;
    private final IndicesService indicesService;
    private final CircuitBreakerService breakers;

    @Inject
    public TransportCalibrateAction(TransportService transportService, ActionFilters actionFilters, NodeClient client,
                                    ClusterService clusterService, ThreadPool threadPool, CompatIndices indices,
                                    IndicesService indicesService, CircuitBreakerService breakers) {
        super(CalibrateAction.NAME, transportService, actionFilters, CalibrateRequest::new, threadPool.generic());
        this.client = client;
        this.clusterService = clusterService;
        this.threadPool = threadPool;
        this.indices = indices;
        this.indicesService = indicesService;
        this.breakers = breakers;
    }

    @Override
    protected void doExecute(Task task, CalibrateRequest request, ActionListener<CalibrateResponse> listener) {
        RequestMemory memory = new RequestMemory(breakers.getBreaker(CircuitBreaker.REQUEST), MEMORY_LABEL);
        List<Closeable> toClose = new ArrayList<>();
        Releasable resources = () -> {
            memory.close();
            IOUtils.closeWhileHandlingException(toClose);
        };
        new Job((CancellableTask) task, request, completeOnce(listener, resources), memory, toClose).start();
    }

    /**
     * The listener a job completes: once only (a second completion, e.g. a failure after a response whose listener threw,
     * is dropped), and the request's memory and resources released before the caller hears of it.
     */
    static <T> ActionListener<T> completeOnce(ActionListener<T> listener, Releasable resources) {
        return ActionListener.notifyOnce(ActionListener.runBefore(listener, resources::close));
    }

    /** One sampled document: where it is, its random score and its stored fingerprint (null: none). */
    private record Sampled(String index, String id, float score, Long stored) {}

    /** Where one index's texts are and how its field fingerprints them. */
    private record Target(String sourceField) {}

    /** Takes the text of the document at a place of the sample (null: none) as the pages arrive, in the sample's order. */
    @FunctionalInterface
    private interface TextConsumer {
        void accept(int position, String text) throws Exception;
    }

    private final class Job {
        private final CancellableTask task;
        private final CalibrateRequest request;
        private final ActionListener<CalibrateResponse> listener;
        private final RequestMemory memory;
        private final List<Closeable> toClose;
        private final Client client;
        private final long startNanos = System.nanoTime();
        private final Map<String, Target> targets = new TreeMap<>();
        private final Map<String, SimHashFieldType> types = new TreeMap<>();

        private int size;
        private long total;
        private long withFingerprint;
        /** The sample in the order of the seeded random scores (ties by index and id): the edited documents are the first. */
        private List<Sampled> docs;
        /** Of the sample's documents with a fingerprint: their fingerprints, and whether another one is within MAX_K bits. */
        private long[] fingerprints;
        private int[] fingerprintIndex;
        private boolean[] near;
        private ShingleSketch[] sketches;
        /** What the text sketches of the documents with a neighbour (token bigrams, and similarity) hold. */
        private long sketchBytes;
        /** The field's similarity sketch when every target index has one (null: the report covers radii only). */
        private MinHashSketch minhash;
        /** Of the sample's documents with a fingerprint and a neighbour: the similarity sketches of their texts. */
        private byte[][] minhashes;
        private final List<EditSimilarity> similarities = new ArrayList<>();
        private VerifiedPairs verifiedPairs;
        private final TextEdits.Vocabulary vocabulary;

        private int pageDocs = FIRST_PAGE_DOCS;
        private long largestSource = FIRST_SOURCE_BYTES;

        private int withText;
        private int textWithoutFingerprint;
        private int mismatch;
        /** The words of the edited documents' texts, and of the texts compared for related pairs, so far. */
        private long editedWords;
        private long comparedWords;
        /** Texts that would have been edited, or compared, but for the word budgets. */
        private int notEdited;
        private int notCompared;
        /** Of each edited document, the similarity sketch of its text (null without a sketch). */
        private final List<byte[]> originalSketches = new ArrayList<>();
        /** The documents to edit: their places in the sample, fingerprints and a hash of their texts in the first pass. */
        private final List<Integer> editedPositions = new ArrayList<>();
        private final List<Long> originals = new ArrayList<>();
        private final List<Long> textHashes = new ArrayList<>();
        private int editedIndex;
        private final List<Integer> chars = new ArrayList<>();
        private final List<Integer> words = new ArrayList<>();
        private final List<Integer> features = new ArrayList<>();
        private final List<EditRecall> recalls = new ArrayList<>();
        private RandomPairs pairs;

        Job(CancellableTask task, CalibrateRequest request, ActionListener<CalibrateResponse> listener, RequestMemory memory,
            List<Closeable> toClose) {
            this.task = task;
            this.request = request;
            this.listener = listener;
            this.memory = memory;
            this.toClose = toClose;
            this.client = new ParentTaskAssigningClient(TransportCalibrateAction.this.client, clusterService.localNode(), task);
            this.vocabulary = new TextEdits.Vocabulary(TextEdits.Vocabulary.MAX_WORDS_PER_KIND, request.seed());
            for (double rate : Calibration.EDIT_RATES) {
                recalls.add(new EditRecall(rate));
            }
        }

        private <T> ActionListener<T> step(CheckedConsumer<T, Exception> step) {
            return ContextPreservingActionListener.wrapPreservingContext(ActionListener.wrap(step, listener::onFailure),
                threadPool.getThreadContext());
        }

        /** Runs the next step on the generic pool: texts are reduced and fingerprinted there, never on a search thread. */
        private void fork(CheckedRunnable<Exception> step) {
            threadPool.generic().execute(ActionRunnable.wrap(listener, l -> step.run()));
        }

        void start() {
            String field = request.field();
            FieldCapabilitiesRequest caps = new FieldCapabilitiesRequest().indices(request.indices())
                .indicesOptions(request.indicesOptions()).fields(field, FingerprintFields.hashPath(field)).includeUnmapped(true);
            client.execute(TransportFieldCapabilitiesAction.TYPE, caps, step(this::onFieldCaps));
        }

        private void onFieldCaps(FieldCapabilitiesResponse caps) {
            task.ensureNotCancelled();
            checkFieldType(caps, request.field());
            int pageLimit = request.sampleSize();
            for (String index : caps.getIndices()) {
                IndexMetadata metadata = indices.index(index);
                if (metadata == null) {
                    continue;
                }
                pageLimit = Math.min(pageLimit, IndexSettings.MAX_RESULT_WINDOW_SETTING.get(metadata.getSettings()));
                Target target = target(index, metadata);
                if (target != null) {
                    targets.put(index, target);
                }
            }
            size = pageLimit;
            // fingerprints only: the texts come later, in pages whose bytes are bounded
            long hitBytes = (long) size * SAMPLE_HIT_BYTES;
            memory.add(hitBytes, "sample of [" + size + "] fingerprints");
            SearchSourceBuilder source = new SearchSourceBuilder()
                .query(QueryBuilders.functionScoreQuery(ScoreFunctionBuilders.randomFunction().seed(request.seed()).setField("_seq_no")))
                .size(size).trackTotalHits(true).fetchSource(false).docValueField(request.field(), "long");
            SearchRequest sample = new SearchRequest(request.indices()).indicesOptions(request.indicesOptions()).source(source)
                .allowPartialSearchResults(false);
            client.execute(TransportSearchAction.TYPE, sample, step((SearchResponse r) -> onSample(r, hitBytes)));
        }

        private void onSample(SearchResponse response, long hitBytes) {
            task.ensureNotCancelled();
            total = response.getHits().getTotalHits() == null ? -1 : CompatHits.value(response.getHits().getTotalHits());
            SearchHit[] hits = response.getHits().getHits();
            memory.add(hits.length * SAMPLED_DOC_BYTES, "[" + hits.length + "] sampled documents");
            List<Sampled> sampled = new ArrayList<>(hits.length);
            for (SearchHit hit : hits) {
                DocumentField f = hit.field(request.field());
                Long stored = f == null || f.getValues().isEmpty() ? null : ((Number) f.getValues().get(0)).longValue();
                sampled.add(new Sampled(hit.getIndex(), hit.getId(), hit.getScore(), stored));
            }
            sampled.sort(Comparator.comparingDouble((Sampled s) -> -s.score()).thenComparing(Sampled::index).thenComparing(Sampled::id));
            docs = sampled;
            SearchSourceBuilder count = new SearchSourceBuilder().size(0).trackTotalHits(true)
                .query(QueryBuilders.existsQuery(request.field()));
            client.execute(TransportSearchAction.TYPE, new SearchRequest(request.indices()).indicesOptions(request.indicesOptions())
                .source(count), step((SearchResponse r) -> {
                    // the sample's response is gone by now
                    memory.release(hitBytes);
                    withFingerprint = CompatHits.value(r.getHits().getTotalHits());
                    fork(this::readTexts);
                }));
        }

        /** The field types, the fingerprints of the sample and which of them have a neighbour; then the first pass over the texts. */
        private void readTexts() throws Exception {
            for (String index : targets.keySet()) {
                types.put(index, fieldType(index, toClose));
            }
            // the verified rule's report only when every index verifies with the same sketch: else no query of them does alike
            Set<String> sketchNames = new LinkedHashSet<>();
            types.values().forEach(t -> sketchNames.add(t.sketch() == null ? "none" : MinHashSketch.ALGORITHM));
            if (sketchNames.equals(Set.of(MinHashSketch.ALGORITHM))) {
                minhash = types.values().iterator().next().sketch();
                for (double rate : Calibration.EDIT_RATES) {
                    similarities.add(new EditSimilarity(rate));
                }
            }
            fingerprintIndex = new int[docs.size()];
            int n = 0;
            for (int i = 0; i < docs.size(); i++) {
                fingerprintIndex[i] = docs.get(i).stored() == null ? -1 : n++;
            }
            fingerprints = new long[n];
            for (int i = 0; i < docs.size(); i++) {
                if (fingerprintIndex[i] >= 0) {
                    fingerprints[fingerprintIndex[i]] = docs.get(i).stored();
                }
            }
            // only pairs within MAX_K bits are ever asked whether their texts are near-duplicates: only their texts are sketched
            near = new boolean[n];
            for (int i = 0; i < n; i++) {
                if (i % 256 == 0) {
                    task.ensureNotCancelled();
                }
                for (int j = i + 1; j < n; j++) {
                    if (Long.bitCount(fingerprints[i] ^ fingerprints[j]) <= Calibration.MAX_K) {
                        near[i] = true;
                        near[j] = true;
                    }
                }
            }
            sketches = new ShingleSketch[n];
            minhashes = minhash == null ? null : new byte[n][];
            List<Integer> all = new ArrayList<>(docs.size());
            for (int i = 0; i < docs.size(); i++) {
                all.add(i);
            }
            fetchTexts(all, 0, this::reduce, this::comparePairs);
        }

        /**
         * Receives the hashes of a text's tokens while it is analysed: hands them to the given sketches (either may be
         * null) and stops a cancelled task every {@link #CHECK_EVERY_TOKENS} tokens, so that a long text does not hold a
         * cancelled request.
         */
        private FeatureBag.TokenHashes tokens(ShingleSketch.Builder shingles, MinHashSketch.Accumulator similarity) {
            long[] n = new long[1];
            return h -> {
                if (shingles != null) {
                    shingles.add(h);
                }
                if (similarity != null) {
                    similarity.add(h);
                }
                if (++n[0] % CHECK_EVERY_TOKENS == 0) {
                    task.ensureNotCancelled();
                }
            };
        }

        /**
         * First pass, one text at a time: counts, and for the documents that need it one analysis of the text, as the
         * field reads it, that gives its fingerprint, its token-bigram sketch (documents with a neighbour: are their
         * pairs related?) and its similarity sketch; and the edit vocabulary from the documents to edit. Memory is
         * charged before the work it is for; the word budgets bound the work.
         */
        private void reduce(int position, String text) {
            if (text == null) {
                return;
            }
            withText++;
            Sampled d = docs.get(position);
            int f = fingerprintIndex[position];
            boolean nearDoc = f >= 0 && near[f];
            boolean editCandidate = editedPositions.size() < MAX_EDITED_DOCS;
            if (!nearDoc && !editCandidate) {
                return;
            }
            long work = REDUCE_BYTES_PER_CHAR * text.length();
            memory.add(work, "reducing the text of [" + d.id() + "]");
            try {
                int wordCount = TextEdits.wordCount(text, task::ensureNotCancelled);
                boolean sketch = nearDoc && comparedWords + wordCount <= MAX_COMPARED_WORDS;
                boolean edit = editCandidate && editedWords + wordCount <= MAX_EDITED_WORDS;
                if (nearDoc && !sketch) {
                    notCompared++;
                }
                if (editCandidate && !edit) {
                    notEdited++;
                }
                if (!sketch && !edit) {
                    return;
                }
                SimHashFieldType type = types.get(d.index());
                if (sketch) {
                    long bytes = ShingleSketch.bytes(ShingleSketch.DEFAULT_SIZE) + (minhash == null ? 0 : MINHASH_SKETCH_BYTES);
                    memory.add(bytes, "text sketches");
                    sketchBytes += bytes;
                    comparedWords += wordCount;
                }
                if (edit && minhash != null) {
                    memory.add(MINHASH_SKETCH_BYTES, "similarity sketches of the edited documents");
                }
                ShingleSketch.Builder shingles = sketch ? ShingleSketch.builder(ShingleSketch.DEFAULT_SIZE) : null;
                MinHashSketch.Accumulator similarity = minhash == null ? null : type.sketch().accumulator();
                // one analysis gives the fingerprint, the number of features and the tokens both sketches read
                TextFingerprinter fingerprinter = type.fingerprinter();
                FeatureBag bag = fingerprinter.newBag();
                bag.tokenHashes(tokens(shingles, similarity));
                fingerprinter.addText(text, bag);
                OptionalLong original = bag.fingerprint();
                byte[] similaritySketch = similarity == null ? null : similarity.sketch();
                if (sketch) {
                    sketches[f] = shingles.build();
                    if (minhash != null) {
                        minhashes[f] = similaritySketch;
                    }
                }
                if (!edit) {
                    return;
                }
                if (original.isEmpty()) {
                    textWithoutFingerprint++;
                    return;
                }
                if (d.stored() == null || d.stored() != original.getAsLong()) {
                    mismatch++;
                }
                editedPositions.add(position);
                originals.add(original.getAsLong());
                originalSketches.add(similaritySketch);
                textHashes.add(SimHash.featureHash(text));
                chars.add(text.length());
                words.add(wordCount);
                features.add(bag.distinctFeatures());
                editedWords += wordCount;
                // the vocabulary grows by at most the text's characters and a string per word kept: charged before, then
                // set to what it grew by
                long most = TEXT_BYTES_PER_CHAR * text.length()
                    + TextEdits.Vocabulary.WORD_OVERHEAD_BYTES * Math.min(wordCount, 2L * TextEdits.Vocabulary.MAX_WORDS_PER_KIND);
                memory.add(most, "edit vocabulary");
                long before = vocabulary.bytes();
                try {
                    vocabulary.addText(text, task::ensureNotCancelled);
                } finally {
                    memory.release(most);
                }
                memory.add(vocabulary.bytes() - before, "edit vocabulary");
            } finally {
                memory.release(work);
            }
        }

        /** All pairs of the sample's fingerprints (related by their sketches); the sketches go; then the texts to edit again. */
        private void comparePairs() throws Exception {
            task.ensureNotCancelled();
            ShingleSketch[] s = sketches;
            RandomPairs.Related related = (i, j) -> s[i] != null && s[j] != null
                && s[i].jaccard(s[j]) >= TextSimilarity.RELATED_JACCARD;
            pairs = RandomPairs.of(fingerprints, related, Calibration.MAX_K);
            if (minhash != null) {
                verifiedPairs = new VerifiedPairs(fingerprints, minhashes, minhash, related, pairs);
                minhashes = null;
            }
            sketches = null;
            memory.release(sketchBytes);
            fetchTexts(editedPositions, 0, this::edit, () -> listener.onResponse(report()));
        }

        /**
         * Second pass: edited copies of one text at each rate (edits linear in the text), each analysed once for its
         * fingerprint and similarity sketch, and their distances from the text's.
         */
        private void edit(int position, String text) {
            Sampled d = docs.get(position);
            int e = editedIndex++;
            if (text == null) {
                return; // deleted since the first pass
            }
            if (!similarities.isEmpty()) {
                memory.add(EditSimilarity.BYTES_PER_COPY * similarities.size(), "similarities of edited copies");
            }
            long work = EDIT_BYTES_PER_CHAR * text.length();
            memory.add(work, "editing the text of [" + d.id() + "]");
            try {
                SimHashFieldType type = types.get(d.index());
                TextFingerprinter fingerprinter = type.fingerprinter();
                OptionalLong original;
                byte[] originalSketch;
                if (SimHash.featureHash(text) == textHashes.get(e)) {
                    original = OptionalLong.of(originals.get(e));
                    originalSketch = originalSketches.get(e);
                } else {
                    // the document has changed since the first pass: the text as it is now
                    MinHashSketch.Accumulator similarity = minhash == null ? null : type.sketch().accumulator();
                    original = fingerprinter.fingerprint(text, tokens(null, similarity));
                    originalSketch = similarity == null ? null : similarity.sketch();
                }
                if (original.isEmpty()) {
                    return;
                }
                for (int r = 0; r < recalls.size(); r++) {
                    TextEdits.Copy copy = TextEdits.edit(text, recalls.get(r).rate(), vocabulary,
                        TextEdits.random(request.seed(), position, r), task::ensureNotCancelled);
                    MinHashSketch.Accumulator similarity = similarities.isEmpty() ? null : type.sketch().accumulator();
                    OptionalLong fp = fingerprinter.fingerprint(copy.text(), tokens(null, similarity));
                    int distance = fp.isEmpty() ? -1 : SimHash.distance(original.getAsLong(), fp.getAsLong());
                    recalls.get(r).add(distance, copy.edits());
                    if (similarity != null) {
                        byte[] copySketch = similarity.sketch();
                        similarities.get(r).add(distance, originalSketch, copySketch);
                    }
                }
            } finally {
                memory.release(work);
            }
        }

        /**
         * Reads the texts of the sample's documents at {@code positions} from {@code from} on, one page per search (source
         * filtered to the text fields; as many documents as {@link #PAGE_SOURCE_BYTES} holds at the largest source seen so
         * far, at least one), hands them to {@code consumer} in order on the generic pool, then runs {@code then}.
         */
        private void fetchTexts(List<Integer> positions, int from, TextConsumer consumer, CheckedRunnable<Exception> then)
            throws Exception {
            task.ensureNotCancelled();
            if (from >= positions.size()) {
                then.run();
                return;
            }
            int n = Math.min(pageDocs, positions.size() - from);
            List<Integer> page = positions.subList(from, from + n);
            long reserved = n * largestSource * SOURCE_COPIES;
            memory.add(reserved, "a page of [" + n + "] texts");
            Map<String, List<String>> idsByIndex = new TreeMap<>();
            Set<String> sourceFields = new LinkedHashSet<>();
            for (int position : page) {
                Sampled d = docs.get(position);
                idsByIndex.computeIfAbsent(d.index(), k -> new ArrayList<>()).add(d.id());
                Target target = targets.get(d.index());
                if (target != null) {
                    sourceFields.add(target.sourceField());
                }
            }
            BoolQueryBuilder query = QueryBuilders.boolQuery().minimumShouldMatch(1);
            idsByIndex.forEach((index, ids) -> query.should(QueryBuilders.boolQuery().filter(QueryBuilders.termQuery("_index", index))
                .filter(QueryBuilders.idsQuery().addIds(ids.toArray(String[]::new)))));
            SearchSourceBuilder source = new SearchSourceBuilder().query(query).size(n).trackTotalHits(false)
                .fetchSource(sourceFields.isEmpty() ? new String[] { "_none_" } : sourceFields.toArray(String[]::new), null);
            SearchRequest search = new SearchRequest(request.indices()).indicesOptions(request.indicesOptions()).source(source)
                .allowPartialSearchResults(false);
            client.execute(TransportSearchAction.TYPE, search, step((SearchResponse r) -> {
                Map<String, String> texts = new HashMap<>();
                long held = 0;
                long largest = 0;
                for (SearchHit hit : r.getHits().getHits()) {
                    Target target = targets.get(hit.getIndex());
                    if (target == null || !hit.hasSource()) {
                        continue;
                    }
                    largest = Math.max(largest, hit.getSourceRef().length());
                    String text = text(XContentMapValues.extractValue(target.sourceField(), hit.getSourceAsMap()));
                    if (text != null) {
                        texts.put(key(hit.getIndex(), hit.getId()), text);
                        held += TEXT_OVERHEAD_BYTES + TEXT_BYTES_PER_CHAR * text.length();
                    }
                }
                largestSource = Math.max(largestSource, largest);
                pageDocs = (int) Math.max(1, Math.min(Math.min(MAX_PAGE_DOCS, 2L * pageDocs), PAGE_SOURCE_BYTES / largestSource));
                // from the page's estimate to the texts it left: the response's bytes go when this listener returns
                memory.release(reserved);
                memory.add(held, "a page of [" + texts.size() + "] texts");
                long charged = held;
                fork(() -> {
                    try {
                        for (int i = 0; i < page.size(); i++) {
                            if (i % 16 == 0) {
                                task.ensureNotCancelled();
                            }
                            int position = page.get(i);
                            Sampled d = docs.get(position);
                            consumer.accept(position, texts.remove(key(d.index(), d.id())));
                        }
                    } finally {
                        memory.release(charged);
                    }
                    fetchTexts(positions, from + n, consumer, then);
                });
            }));
        }

        private CalibrateResponse report() {
            String sourceFields = String.join(", ", new LinkedHashSet<>(targets.values().stream().map(Target::sourceField).toList()));
            Calibration calibration = new Calibration(request.maxFalseMatchRate(), pairs, recalls,
                new Calibration.Counts(total, withFingerprint, docs.size(), docs.size() - fingerprints.length, withText,
                    textWithoutFingerprint, mismatch, editedPositions.size(), editedWords, notEdited, notCompared),
                new Calibration.TextSizes(Calibration.median(chars), Calibration.median(words), Calibration.median(features)),
                sourceFields, verifiedPairs == null ? null : new Calibration.Verified(verifiedPairs, similarities));

            Map<String, Object> report = new LinkedHashMap<>();
            report.put("took_ms", (System.nanoTime() - startNanos) / 1_000_000);
            report.put("field", request.field());
            report.put("source_field", sourceFields);
            report.put("indices", List.copyOf(types.keySet()));
            Map<String, Object> spec = types.isEmpty() ? null : types.values().iterator().next().spec().toMap();
            report.put("fingerprint", spec);
            report.put("sketch", minhash == null ? null : MinHashSketch.ALGORITHM);
            report.put("seed", request.seed());
            report.put("sample_size", request.sampleSize());
            if (size < request.sampleSize()) {
                report.put("sample_size_limited_by", "index.max_result_window");
            }
            report.put("max_edited_docs", MAX_EDITED_DOCS);
            Set<Object> specs = new LinkedHashSet<>();
            types.values().forEach(t -> specs.add(t.spec().toMap()));
            Set<String> sketchNames = new LinkedHashSet<>();
            types.values().forEach(t -> sketchNames.add(t.sketch() == null ? "none" : MinHashSketch.ALGORITHM));
            List<String> warnings = new ArrayList<>();
            if (sketchNames.size() > 1) {
                warnings.add("some target indices store a similarity sketch in [" + request.field() + "] and some do not: the report "
                    + "covers radii ([max_distance]) only");
            }
            if (specs.size() > 1) {
                warnings.add("the target indices fingerprint [" + request.field() + "] with different options " + specs
                    + ": each document's copies are fingerprinted with its own index's options, and [fingerprint] shows the first");
            }
            report.putAll(calibration.toMap(warnings));
            return new CalibrateResponse(report);
        }

        /** Where the index's text for the field is, from its mapping; null when the index does not map the field. */
        private Target target(String index, IndexMetadata metadata) {
            MappingMetadata mapping = metadata.mapping();
            Map<String, Object> source = mapping == null ? Map.of() : mapping.sourceAsMap();
            MappingSources.Found found = MappingSources.find(source, request.field());
            if (found.mapping() == null) {
                return null;
            }
            if (SimHashFieldMapper.Input.FINGERPRINT.optionName().equals(found.mapping().get(SimHashFieldMapper.INPUT))) {
                throw new IllegalArgumentException("[field] [" + request.field() + "] takes ready-made fingerprints ([input] = [fingerprint]) "
                    + "in index [" + index + "]: _simhash/calibrate fingerprints edited copies of the documents' texts with the field's "
                    + "own options, which such a field does not have");
            }
            if (request.sourceField() != null) {
                if (MappingSources.find(source, request.sourceField()).mapping() == null) {
                    throw new IllegalArgumentException("[source_field] [" + request.sourceField() + "] is not mapped in index [" + index
                        + "]");
                }
                return new Target(request.sourceField());
            }
            if (found.multiParent() != null) {
                return new Target(found.multiParent());
            }
            if (found.copiedFrom().size() == 1) {
                return new Target(found.copiedFrom().get(0));
            }
            throw new IllegalArgumentException("[source_field] is required: [field] [" + request.field() + "] in index [" + index
                + "] is not a multi-field of a text field but " + (found.copiedFrom().isEmpty() ? "a field no other field copies to"
                : "the copy_to target of " + found.copiedFrom()) + "; name the text field whose edited copies to fingerprint");
        }

        /** The index's field type: from the index's own mapper service on this node, or one built from its metadata. */
        private SimHashFieldType fieldType(String index, List<Closeable> toClose) throws IOException {
            IndexMetadata metadata = indices.index(index);
            if (metadata == null) {
                throw new IllegalStateException("index [" + index + "] disappeared while calibrating");
            }
            IndexService service = indicesService.indexService(metadata.getIndex());
            MappedFieldType type;
            if (service != null) {
                type = service.mapperService().fieldType(request.field());
            } else {
                MapperService mappers = indicesService.createIndexMapperServiceForValidation(metadata);
                toClose.add(mappers);
                mappers.merge(metadata, MapperService.MergeReason.MAPPING_RECOVERY);
                type = mappers.fieldType(request.field());
            }
            if (!(type instanceof SimHashFieldType ft) || ft.fingerprinter() == null) {
                throw new IllegalArgumentException("[field] [" + request.field() + "] is not a [" + SimHashFieldMapper.CONTENT_TYPE
                    + "] field with [input] = [text] in index [" + index + "]");
            }
            return ft;
        }
    }

    private static String key(String index, String id) {
        return index + '\u0000' + id;
    }

    /** A source value as one text: a string, the values of an array joined by newlines (read as one token sequence), else null. */
    static String text(Object value) {
        if (value instanceof String s) {
            return s;
        }
        if (value instanceof Number || value instanceof Boolean) {
            return value.toString();
        }
        if (value instanceof List<?> list) {
            List<String> parts = new ArrayList<>();
            for (Object o : list) {
                String t = o instanceof List<?> ? null : text(o);
                if (t != null) {
                    parts.add(t);
                }
            }
            return parts.isEmpty() ? null : String.join("\n", parts);
        }
        return null;
    }

    /**
     * @throws IllegalArgumentException naming {@code [field]} unless it is a {@code simhash} field in every target index
     *                                  that maps it, and at least one does
     */
    static void checkFieldType(FieldCapabilitiesResponse caps, String field) {
        Map<String, FieldCapabilities> types = caps.getField(field);
        boolean simhash = false;
        if (types != null) {
            for (String type : types.keySet()) {
                if (SimHashFieldMapper.CONTENT_TYPE.equals(type)) {
                    simhash = true;
                } else if (!UNMAPPED.equals(type) && !"object".equals(type)) {
                    throw new IllegalArgumentException("[field] [" + field + "] is a [" + type + "] field; it must name a ["
                        + SimHashFieldMapper.CONTENT_TYPE + "] field, e.g. the multi-field [" + field + ".simhash] of a text field");
                }
            }
        }
        if (simhash) {
            return;
        }
        Map<String, FieldCapabilities> hash = caps.getField(FingerprintFields.hashPath(field));
        if (hash != null && !hash.keySet().stream().allMatch(UNMAPPED::equals)) {
            throw new IllegalArgumentException("[field] [" + field + "] is the object form of the simhash processor, which "
                + "_simhash/calibrate does not support: it fingerprints edited copies with the options bound to a [simhash] field; map "
                + "one (see docs/operations/upgrades.md, \"Migrating from the object form to the field type\") and calibrate that");
        }
        throw new IllegalArgumentException("[field] [" + field + "] is not mapped in the target indices; it must name a ["
            + SimHashFieldMapper.CONTENT_TYPE + "] field");
    }
}
