package dev.simhash.calibrate;

import dev.simhash.breaker.RequestMemory;
import dev.simhash.compat.CompatIndices;
import dev.simhash.core.MinHashSketch;

import org.elasticsearch.action.ActionListener;
import org.elasticsearch.action.fieldcaps.FieldCapabilitiesResponse;
import org.elasticsearch.action.fieldcaps.TransportFieldCapabilitiesAction;
import org.elasticsearch.action.search.SearchResponse;
import org.elasticsearch.action.search.TransportSearchAction;
import org.elasticsearch.action.support.ActionFilters;
import org.elasticsearch.action.support.HandledTransportAction;
import org.elasticsearch.client.internal.Client;
import org.elasticsearch.client.internal.ParentTaskAssigningClient;
import org.elasticsearch.client.internal.node.NodeClient;
import org.elasticsearch.cluster.service.ClusterService;
import org.elasticsearch.common.breaker.CircuitBreaker;
import org.elasticsearch.core.IOUtils;
import org.elasticsearch.core.Releasable;
import org.elasticsearch.indices.IndicesService;
import org.elasticsearch.indices.breaker.CircuitBreakerService;
import org.elasticsearch.injection.guice.Inject;
import org.elasticsearch.search.SearchHit;
import org.elasticsearch.tasks.CancellableTask;
import org.elasticsearch.tasks.Task;
import org.elasticsearch.threadpool.ThreadPool;
import org.elasticsearch.transport.TransportService;

import java.io.Closeable;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs the calibration report, as a sequence of steps: checks the field through the field capabilities API
 * ({@link CalibrateTargets}), samples documents with a seeded {@code random_score} search (fingerprints from doc values
 * only) and counts the documents with a fingerprint ({@link SampleSearches}), all as child requests with the caller's
 * privileges; then reads the sampled texts in pages ({@link TextPages}), reducing each text as it arrives
 * ({@link TextReduction}: a bounded {@link ShingleSketch} for documents with a fingerprint within {@link Calibration#MAX_K}
 * bits of another one, the edit vocabulary, sizes and the original fingerprint for the documents to edit). Then it compares
 * all pairs of sampled fingerprints ({@link SampleDocs}) and reads the documents to edit once more, page by page, to
 * fingerprint their edited copies with the field's own fingerprinter ({@link EditedCopies}). On a field with a similarity
 * sketch, the same passes sketch the texts of the documents with a neighbour and the edited copies and their originals
 * ({@link VerifiedPairs}, {@link EditSimilarity}). The answer is a typed {@link CalibrationReport}. Everything the request
 * holds in proportion to the sample or the texts is charged to the request circuit breaker ({@link RequestMemory}).
 */
public final class TransportCalibrateAction extends HandledTransportAction<CalibrateRequest, CalibrateResponse> {

    /** How a 429 names the calibration, followed by what it was charging. */
    static final String MEMORY_LABEL = "simhash calibrate: ";
    /** Why a sample is smaller than the request asked. */
    private static final String SIZE_LIMITED_BY = "index.max_result_window";

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

    /** One request's steps, in the order they run; each step's work is in the class it names. */
    private final class Job {
        private final CancellableTask task;
        private final CalibrateRequest request;
        private final ActionListener<CalibrateResponse> listener;
        private final RequestMemory memory;
        private final List<Closeable> toClose;
        private final Client client;
        private final JobSteps steps;
        private final long startNanos = System.nanoTime();
        private final CalibrateTargets targets;

        /** The sample's size: the request's, or less when an index's result window is smaller. */
        private int size;
        private long total;
        private long withFingerprint;
        /** The sample in the order of the seeded random scores (ties by index and id): the edited documents are the first. */
        private List<SampleDocs.Doc> sampled;
        private SampleDocs sample;
        private MinHashSketch minhash;
        private TextPages pages;
        private TextReduction firstPass;
        private SampleDocs.Compared pairs;
        private EditedCopies copies;

        Job(CancellableTask task, CalibrateRequest request, ActionListener<CalibrateResponse> listener, RequestMemory memory,
            List<Closeable> toClose) {
            this.task = task;
            this.request = request;
            this.listener = listener;
            this.memory = memory;
            this.toClose = toClose;
            this.client = new ParentTaskAssigningClient(TransportCalibrateAction.this.client, clusterService.localNode(), task);
            this.steps = new JobSteps(threadPool, listener);
            this.targets = new CalibrateTargets(request, indices, indicesService);
        }

        /** 1. The field's capabilities in the target indices. */
        void start() {
            client.execute(TransportFieldCapabilitiesAction.TYPE, targets.fieldCapsRequest(), steps.step(this::sampleFingerprints));
        }

        /** 2. Checks the field and each index's text field, then samples the fingerprints. */
        private void sampleFingerprints(FieldCapabilitiesResponse caps) {
            task.ensureNotCancelled();
            size = targets.resolve(caps);
            // fingerprints only: the texts come later, in pages whose bytes are bounded
            long hitBytes = (long) size * SampleSearches.SAMPLE_HIT_BYTES;
            memory.add(hitBytes, "sample of [" + size + "] fingerprints");
            client.execute(TransportSearchAction.TYPE, SampleSearches.sample(request, size),
                steps.step((SearchResponse r) -> countFingerprints(r, hitBytes)));
        }

        /** 3. Keeps the sampled documents, then counts the documents with a fingerprint. */
        private void countFingerprints(SearchResponse response, long hitBytes) {
            task.ensureNotCancelled();
            total = SampleSearches.total(response);
            SearchHit[] hits = response.getHits().getHits();
            memory.add(hits.length * SampleSearches.SAMPLED_DOC_BYTES, "[" + hits.length + "] sampled documents");
            sampled = SampleSearches.docs(hits, request.field());
            client.execute(TransportSearchAction.TYPE, SampleSearches.countWithFingerprint(request), steps.step((SearchResponse r) -> {
                // the sample's response is gone by now
                memory.release(hitBytes);
                withFingerprint = SampleSearches.count(r);
                steps.fork(this::readTexts);
            }));
        }

        /** 4. The field types, the fingerprints of the sample and which have a neighbour; then the first pass over the texts. */
        private void readTexts() throws Exception {
            targets.loadFieldTypes(toClose);
            minhash = targets.sketch();
            sample = new SampleDocs(sampled, task::ensureNotCancelled);
            pages = new TextPages(task, request, client, memory, steps, targets, sampled);
            firstPass = new TextReduction(task::ensureNotCancelled, memory, sample, targets, minhash, request.seed());
            List<Integer> all = new ArrayList<>(sample.size());
            for (int i = 0; i < sample.size(); i++) {
                all.add(i);
            }
            pages.read(all, firstPass::reduce, this::comparePairs);
        }

        /** 5. All pairs of the sample's fingerprints; then the texts to edit, read again for their edited copies. */
        private void comparePairs() throws Exception {
            task.ensureNotCancelled();
            pairs = firstPass.comparePairs();
            copies = new EditedCopies(task::ensureNotCancelled, memory, sample, targets, minhash, request.seed(), firstPass);
            pages.read(copies.positions(), copies::edit, () -> listener.onResponse(new CalibrateResponse(report())));
        }

        /** 6. The report. */
        private CalibrationReport report() {
            long tookMs = (System.nanoTime() - startNanos) / 1_000_000;
            String sourceFields = targets.sourceFields();
            Calibration calibration = new Calibration(request.maxFalseMatchRate(), pairs.pairs(), copies.recalls(),
                firstPass.counts(total, withFingerprint), firstPass.sizes(), sourceFields,
                pairs.verified() == null ? null : new Calibration.Verified(pairs.verified(), copies.similarities()));
            return new CalibrationReport(tookMs, request.field(), sourceFields, targets.indices(), targets.firstSpec(),
                minhash == null ? null : MinHashSketch.ALGORITHM, request.seed(), request.sampleSize(),
                size < request.sampleSize() ? SIZE_LIMITED_BY : null, Calibration.MAX_EDITED_DOCS,
                calibration.statistics(targets.warnings()));
        }
    }
}
