package dev.simhash.calibrate;

import dev.simhash.compat.CompatIndices;
import dev.simhash.compat.lucene.CompatHits;
import dev.simhash.core.FeatureBag;
import dev.simhash.core.FingerprintFields;
import dev.simhash.core.SimHash;
import dev.simhash.core.TextFingerprinter;
import dev.simhash.mapper.SimHashFieldMapper;
import dev.simhash.mapper.SimHashFieldType;

import org.elasticsearch.action.ActionListener;
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
import org.elasticsearch.common.document.DocumentField;
import org.elasticsearch.common.xcontent.support.XContentMapValues;
import org.elasticsearch.core.CheckedConsumer;
import org.elasticsearch.index.IndexService;
import org.elasticsearch.index.IndexSettings;
import org.elasticsearch.index.mapper.MappedFieldType;
import org.elasticsearch.index.mapper.MapperService;
import org.elasticsearch.index.query.QueryBuilders;
import org.elasticsearch.index.query.functionscore.ScoreFunctionBuilders;
import org.elasticsearch.indices.IndicesService;
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
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;

/**
 * Runs the calibration report: checks the field through the field capabilities API, samples documents with a seeded
 * {@code random_score} search (fingerprints from doc values, text from {@code _source}) and counts the documents with a
 * fingerprint, all as child requests with the caller's privileges; then, on the generic thread pool, compares all pairs
 * of sampled fingerprints and fingerprints edited copies of the sampled texts with the field's own fingerprinter.
 */
public final class TransportCalibrateAction extends HandledTransportAction<CalibrateRequest, CalibrateResponse> {

    /** Documents whose edited copies are fingerprinted at most (4 copies each); random pairs use the whole sample. */
    static final int MAX_EDITED_DOCS = 1_000;
    private static final String UNMAPPED = "unmapped";

    private final NodeClient client;
    private final ClusterService clusterService;
    private final ThreadPool threadPool;
    private final CompatIndices indices;
    private final IndicesService indicesService;

    @Inject
    public TransportCalibrateAction(TransportService transportService, ActionFilters actionFilters, NodeClient client,
                                    ClusterService clusterService, ThreadPool threadPool, CompatIndices indices,
                                    IndicesService indicesService) {
        super(CalibrateAction.NAME, transportService, actionFilters, CalibrateRequest::new, threadPool.generic());
        this.client = client;
        this.clusterService = clusterService;
        this.threadPool = threadPool;
        this.indices = indices;
        this.indicesService = indicesService;
    }

    @Override
    protected void doExecute(Task task, CalibrateRequest request, ActionListener<CalibrateResponse> listener) {
        new Job((CancellableTask) task, request, listener).start();
    }

    /** One sampled document: where it is, its stored fingerprint (null: none) and its text (null: none). */
    private record Sampled(String index, String id, float score, Long stored, String text) {}

    /** Where one index's texts are and how its field fingerprints them. */
    private record Target(String sourceField) {}

    private final class Job {
        private final CancellableTask task;
        private final CalibrateRequest request;
        private final ActionListener<CalibrateResponse> listener;
        private final Client client;
        private final long startNanos = System.nanoTime();
        private final Map<String, Target> targets = new TreeMap<>();

        Job(CancellableTask task, CalibrateRequest request, ActionListener<CalibrateResponse> listener) {
            this.task = task;
            this.request = request;
            this.listener = listener;
            this.client = new ParentTaskAssigningClient(TransportCalibrateAction.this.client, clusterService.localNode(), task);
        }

        private <T> ActionListener<T> step(CheckedConsumer<T, Exception> step) {
            return ContextPreservingActionListener.wrapPreservingContext(ActionListener.wrap(step, listener::onFailure),
                threadPool.getThreadContext());
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
            Set<String> sourceFields = new LinkedHashSet<>();
            targets.values().forEach(t -> sourceFields.add(t.sourceField()));
            SearchSourceBuilder source = new SearchSourceBuilder()
                .query(QueryBuilders.functionScoreQuery(ScoreFunctionBuilders.randomFunction().seed(request.seed()).setField("_seq_no")))
                .size(pageLimit).trackTotalHits(true).fetchSource(sourceFields.toArray(String[]::new), null)
                .docValueField(request.field(), "long");
            SearchRequest sample = new SearchRequest(request.indices()).indicesOptions(request.indicesOptions()).source(source)
                .allowPartialSearchResults(false);
            int size = pageLimit;
            client.execute(TransportSearchAction.TYPE, sample, step((SearchResponse r) -> onSample(r, size)));
        }

        private void onSample(SearchResponse response, int size) {
            task.ensureNotCancelled();
            long total = response.getHits().getTotalHits() == null ? -1 : CompatHits.value(response.getHits().getTotalHits());
            List<Sampled> sampled = new ArrayList<>();
            for (SearchHit hit : response.getHits().getHits()) {
                Target target = targets.get(hit.getIndex());
                DocumentField f = hit.field(request.field());
                Long stored = f == null || f.getValues().isEmpty() ? null : ((Number) f.getValues().get(0)).longValue();
                String text = target == null || !hit.hasSource() ? null
                    : text(XContentMapValues.extractValue(target.sourceField(), hit.getSourceAsMap()));
                sampled.add(new Sampled(hit.getIndex(), hit.getId(), hit.getScore(), stored, text));
            }
            SearchSourceBuilder count = new SearchSourceBuilder().size(0).trackTotalHits(true)
                .query(QueryBuilders.existsQuery(request.field()));
            client.execute(TransportSearchAction.TYPE, new SearchRequest(request.indices()).indicesOptions(request.indicesOptions())
                .source(count), step((SearchResponse r) -> {
                    long withFingerprint = CompatHits.value(r.getHits().getTotalHits());
                    threadPool.generic().execute(() -> {
                        try {
                            listener.onResponse(calibrate(sampled, total, withFingerprint, size));
                        } catch (Exception e) {
                            listener.onFailure(e);
                        }
                    });
                }));
        }

        /** The fields' texts are fingerprinted by each index's field type; validation mapper services are closed at the end. */
        private CalibrateResponse calibrate(List<Sampled> sampled, long total, long withFingerprint, int size) throws IOException {
            List<Closeable> toClose = new ArrayList<>();
            try {
                Map<String, SimHashFieldType> types = new TreeMap<>();
                for (String index : targets.keySet()) {
                    types.put(index, fieldType(index, toClose));
                }
                return calibrate(sampled, total, withFingerprint, size, types);
            } finally {
                for (Closeable c : toClose) {
                    c.close();
                }
            }
        }

        private CalibrateResponse calibrate(List<Sampled> sampled, long total, long withFingerprint, int size,
                                            Map<String, SimHashFieldType> types) {
            // the order of the seeded random scores (ties by index and id): the edited documents are the first of them
            List<Sampled> docs = new ArrayList<>(sampled);
            docs.sort(Comparator.comparingDouble((Sampled s) -> -s.score()).thenComparing(Sampled::index).thenComparing(Sampled::id));
            List<Sampled> withFp = docs.stream().filter(d -> d.stored() != null).toList();
            long[] fingerprints = withFp.stream().mapToLong(Sampled::stored).toArray();
            // pairs close enough to matter are checked for texts that are near-duplicates already (not false matches)
            List<Set<String>> shingles = new ArrayList<>(Collections.nCopies(withFp.size(), null));
            RandomPairs.Related related = (i, j) -> {
                if (withFp.get(i).text() == null || withFp.get(j).text() == null) {
                    return false;
                }
                return TextSimilarity.jaccard(shingles(shingles, withFp, i), shingles(shingles, withFp, j))
                    >= TextSimilarity.RELATED_JACCARD;
            };
            RandomPairs pairs = RandomPairs.of(fingerprints, related, Calibration.MAX_K);
            task.ensureNotCancelled();

            TextEdits.Vocabulary vocabulary = new TextEdits.Vocabulary();
            docs.stream().filter(d -> d.text() != null).limit(MAX_EDITED_DOCS).forEach(d -> vocabulary.addText(d.text()));
            List<EditRecall> recalls = new ArrayList<>();
            for (double rate : Calibration.EDIT_RATES) {
                recalls.add(new EditRecall(rate));
            }
            int withText = 0;
            int textWithoutFingerprint = 0;
            int mismatch = 0;
            int edited = 0;
            List<Integer> chars = new ArrayList<>();
            List<Integer> words = new ArrayList<>();
            List<Integer> features = new ArrayList<>();
            for (int i = 0; i < docs.size(); i++) {
                Sampled d = docs.get(i);
                if (d.text() == null) {
                    continue;
                }
                withText++;
                if (edited >= MAX_EDITED_DOCS) {
                    continue;
                }
                if (edited % 50 == 0) {
                    task.ensureNotCancelled();
                }
                TextFingerprinter fingerprinter = types.get(d.index()).fingerprinter();
                OptionalLong original = fingerprinter.fingerprint(d.text());
                if (original.isEmpty()) {
                    textWithoutFingerprint++;
                    continue;
                }
                if (d.stored() == null || d.stored() != original.getAsLong()) {
                    mismatch++;
                }
                edited++;
                chars.add(d.text().length());
                words.add(TextEdits.words(d.text()).size());
                features.add(distinctFeatures(fingerprinter, d.text()));
                for (int r = 0; r < recalls.size(); r++) {
                    TextEdits.Copy copy = TextEdits.edit(d.text(), recalls.get(r).rate(), vocabulary, TextEdits.random(request.seed(), i, r));
                    OptionalLong fp = fingerprinter.fingerprint(copy.text());
                    recalls.get(r).add(fp.isEmpty() ? -1 : SimHash.distance(original.getAsLong(), fp.getAsLong()), copy.edits());
                }
            }
            String sourceFields = String.join(", ", new LinkedHashSet<>(targets.values().stream().map(Target::sourceField).toList()));
            Calibration calibration = new Calibration(request.maxFalseMatchRate(), pairs, recalls,
                new Calibration.Counts(total, withFingerprint, docs.size(), docs.size() - fingerprints.length, withText,
                    textWithoutFingerprint, mismatch, edited),
                new Calibration.TextSizes(Calibration.median(chars), Calibration.median(words), Calibration.median(features)),
                sourceFields);

            Map<String, Object> report = new LinkedHashMap<>();
            report.put("took_ms", (System.nanoTime() - startNanos) / 1_000_000);
            report.put("field", request.field());
            report.put("source_field", sourceFields);
            report.put("indices", List.copyOf(types.keySet()));
            Map<String, Object> spec = types.isEmpty() ? null : types.values().iterator().next().spec().toMap();
            report.put("fingerprint", spec);
            report.put("seed", request.seed());
            report.put("sample_size", request.sampleSize());
            if (size < request.sampleSize()) {
                report.put("sample_size_limited_by", "index.max_result_window");
            }
            report.put("max_edited_docs", MAX_EDITED_DOCS);
            report.putAll(calibration.toMap());
            Set<Object> specs = new LinkedHashSet<>();
            types.values().forEach(t -> specs.add(t.spec().toMap()));
            if (specs.size() > 1) {
                @SuppressWarnings("unchecked")
                List<String> warnings = new ArrayList<>((Collection<String>) report.get("warnings"));
                warnings.add("the target indices fingerprint [" + request.field() + "] with different options " + specs
                    + ": each document's copies are fingerprinted with its own index's options, and [fingerprint] shows the first");
                report.put("warnings", warnings);
            }
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

    private static Set<String> shingles(List<Set<String>> cache, List<Sampled> docs, int i) {
        Set<String> s = cache.get(i);
        if (s == null) {
            s = TextSimilarity.shingles(docs.get(i).text());
            cache.set(i, s);
        }
        return s;
    }

    /** The number of distinct features the fingerprinter takes from the text. */
    static int distinctFeatures(TextFingerprinter fingerprinter, String text) {
        FeatureBag bag = fingerprinter.newBag();
        fingerprinter.addText(text, bag);
        return bag.distinctFeatures();
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
                + "one (see the README, \"Migrating from the object form to the field type\") and calibrate that");
        }
        throw new IllegalArgumentException("[field] [" + field + "] is not mapped in the target indices; it must name a ["
            + SimHashFieldMapper.CONTENT_TYPE + "] field");
    }
}
