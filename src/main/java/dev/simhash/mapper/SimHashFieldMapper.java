package dev.simhash.mapper;

import dev.simhash.core.FeatureWeights;
import dev.simhash.core.Fingerprinters;
import dev.simhash.core.FeatureBag;
import dev.simhash.core.FingerprintSpec;
import dev.simhash.core.MinHashSketch;
import dev.simhash.core.SketchBands;
import dev.simhash.core.SimHash;
import dev.simhash.core.TextFingerprinter;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.document.Field;
import org.apache.lucene.util.BytesRef;
import org.elasticsearch.index.analysis.IndexAnalyzers;
import org.elasticsearch.index.mapper.DocumentParserContext;
import org.elasticsearch.index.mapper.FieldMapper;
import org.elasticsearch.index.mapper.LuceneDocument;
import org.elasticsearch.index.mapper.MapperBuilderContext;
import org.elasticsearch.index.mapper.MapperService;
import org.elasticsearch.index.mapper.TypeParsers;
import org.elasticsearch.xcontent.XContentBuilder;
import org.elasticsearch.xcontent.XContentParser;

import java.io.IOException;
import java.util.OptionalLong;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Map;
import java.util.function.Function;

/**
 * The {@code simhash} field type. With {@code input: text} (the default) it fingerprints the text it is
 * given (as a multi-field: its parent's value; as a {@code copy_to} target: every copied value, in the
 * order of the document) with the field's own fingerprint options; with {@code input: fingerprint} it
 * takes ready-made fingerprints (16 hex digits or a signed 64-bit integer). Stored as one Lucene field:
 * the fingerprint in sorted-numeric doc values and its four 16-bit blocks as indexed terms. The options
 * are fixed when the field is created.
 */
public final class SimHashFieldMapper extends FieldMapper {

    public static final String CONTENT_TYPE = "simhash";
    public static final String INPUT = "input";
    /** The mapping option that names the similarity sketch stored beside the fingerprint, or {@link #NO_SKETCH}. */
    public static final String SKETCH = "sketch";
    public static final String NO_SKETCH = "none";

    /** What the field is given: a text to fingerprint, or the fingerprint itself. */
    public enum Input {
        TEXT, FINGERPRINT;

        public String optionName() {
            return name().toLowerCase(Locale.ROOT);
        }

        static Input fromOption(Object raw) {
            for (Input i : values()) {
                if (i.optionName().equals(raw)) {
                    return i;
                }
            }
            throw new IllegalArgumentException("[" + INPUT + "] must be one of [text, fingerprint], got ["
                + SimHash.abbreviate(String.valueOf(raw)) + "]");
        }
    }

    public static final TypeParser PARSER = parser(null, null);

    /**
     * The type parser of fields whose {@code weights} tables are found in the node's registry (null: none), and whose queries
     * look up only the band values the shard's filter may hold ({@code bandFilters}; null: every value).
     */
    public static TypeParser parser(FeatureWeights.Tables weights, BandFilters bandFilters) {
        return new TypeParser((name, context) -> new Builder(name, context.getIndexAnalyzers(), weights, bandFilters));
    }

    private static SimHashFieldMapper toType(FieldMapper in) {
        return (SimHashFieldMapper) in;
    }

    /** A fingerprint option as a mapping parameter: parsed and checked by {@link FingerprintSpec#parseValue}, not updateable. */
    private static Parameter<Object> specParam(String option, Function<SimHashFieldMapper, Object> initializer) {
        Object defaultValue = defaultValue(option);
        return new Parameter<>(option, false, () -> defaultValue,
            (n, c, o) -> FingerprintSpec.canonicalValue(option, o),
            m -> initializer.apply(toType(m)), (b, n, v) -> b.field(n, v), String::valueOf)
            // an option without a default (weights) is left out of include_defaults rather than written as null, which a
            // mapping does not accept: the mapping GET _mapping?include_defaults shows must be one that can be put again
            .setSerializerCheck((includeDefaults, isConfigured, v) -> v != null && (includeDefaults || isConfigured));
    }

    /** The value a mapping without the option gets: the latest version for a new field (recorded, see the Builder). */
    private static Object defaultValue(String option) {
        return FingerprintSpec.VERSION.equals(option) ? FingerprintSpec.LATEST.optionName() : FingerprintSpec.DEFAULTS.optionValue(option);
    }

    private static Map<String, String> userMeta(Map<String, String> typeMeta) {
        Map<String, String> m = new HashMap<>(typeMeta);
        m.remove(SimHashFieldType.VERSION_META);
        m.remove(SimHashFieldType.SKETCH_META);
        return Map.copyOf(m);
    }

    public static final class Builder extends FieldMapper.Builder {

        private final Parameter<String> input = new Parameter<>(INPUT, false, () -> Input.TEXT.optionName(),
            (n, c, o) -> Input.fromOption(o).optionName(), m -> toType(m).input.optionName(), (b, n, v) -> b.field(n, v), v -> v);
        private final Parameter<Object> version = specParam(FingerprintSpec.VERSION, m -> m.version);
        private final Parameter<Object> analyzer = specParam(FingerprintSpec.ANALYZER, m -> m.specValue(FingerprintSpec.ANALYZER));
        private final Parameter<Object> shingleSize = specParam(FingerprintSpec.SHINGLE_SIZE,
            m -> m.specValue(FingerprintSpec.SHINGLE_SIZE));
        private final Parameter<Object> weighting = specParam(FingerprintSpec.WEIGHTING, m -> m.specValue(FingerprintSpec.WEIGHTING));
        private final Parameter<Object> minFeatures = specParam(FingerprintSpec.MIN_FEATURES,
            m -> m.specValue(FingerprintSpec.MIN_FEATURES));
        private final Parameter<Object> weights = specParam(FingerprintSpec.WEIGHTS, m -> m.specValue(FingerprintSpec.WEIGHTS));
        // which table [weights] is: recorded when the field is created (see build). A mapping put again without it (it is
        // the plugin's, users do not write it) keeps the recorded one; a field recorded without one (made before digests)
        // may get one then; a recorded digest never changes
        private final Parameter<String> weightsDigest = new Parameter<>(FingerprintSpec.WEIGHTS_DIGEST, false, () -> null,
            (n, c, o) -> digestValue(o), m -> toType(m).weightsDigest(), (b, n, v) -> b.field(n, v), String::valueOf)
            .setSerializerCheck((includeDefaults, isConfigured, v) -> v != null)
            .setMergeValidator((previous, current, conflicts) -> {
                if (current == null) {
                    // the parameter takes the incoming null: the builder keeps the recorded digest for build
                    keptDigest = previous;
                    return true;
                }
                return previous == null || previous.equals(current);
            });
        // the similarity sketch: a new simhash-v2 text field gets the latest one; a mapping read back from the cluster state
        // without the option is a field made before sketches existed and has none (see build). Always written into the
        // mapping of a text field, as the version is, so that the default never changes what a field stores
        private final Parameter<String> sketch = new Parameter<>(SKETCH, false, () -> null,
            (n, c, o) -> sketchValue(o), m -> toType(m).fieldType().sketchName(), (b, n, v) -> b.field(n, v), String::valueOf)
            .setSerializerCheck((includeDefaults, isConfigured, v) -> v != null)
            .setMergeValidator((previous, current, conflicts) -> {
                if (current == null) {
                    // a mapping put again without the option keeps the recorded sketch (the parameter takes the null)
                    keptSketch = previous;
                    return true;
                }
                return Objects.equals(previous, current);
            });
        /** The recorded sketch when a merge gave none (see {@link #sketch}). */
        private String keptSketch;
        /** The recorded digest when a merge gave none (see {@link #weightsDigest}). */
        private String keptDigest;
        // as Parameter.metaParam(), but initialized from the user's meta: the field type's meta also carries the version
        private final Parameter<Map<String, String>> meta = new Parameter<>("meta", true, Map::of,
            (n, c, o) -> TypeParsers.parseMeta(n, o), m -> userMeta(toType(m).fieldType().meta()),
            XContentBuilder::stringStringMap, Objects::toString);

        private final IndexAnalyzers indexAnalyzers;
        private final FeatureWeights.Tables weightTables;
        private final BandFilters bandFilters;

        public Builder(String name, IndexAnalyzers indexAnalyzers) {
            this(name, indexAnalyzers, null, null);
        }

        public Builder(String name, IndexAnalyzers indexAnalyzers, FeatureWeights.Tables weightTables, BandFilters bandFilters) {
            super(name);
            this.indexAnalyzers = indexAnalyzers;
            this.weightTables = weightTables;
            this.bandFilters = bandFilters;
            // the version decides what every stored fingerprint means: always written into the mapping, so that a later
            // change of the default never changes the meaning of an existing field
            version.alwaysSerialize();
        }

        @Override
        protected Parameter<?>[] getParameters() {
            return new Parameter<?>[] { input, version, analyzer, shingleSize, weighting, minFeatures, weights, weightsDigest, sketch,
                meta };
        }

        // overrides Builder#contentType() where it exists (9.5); a plain method on older lines
        public String contentType() {
            return CONTENT_TYPE;
        }

        @Override
        public SimHashFieldMapper build(MapperBuilderContext context) {
            Input in = Input.fromOption(input.getValue());
            FingerprintSpec spec = null;
            TextFingerprinter fingerprinter = null;
            String sketchName = NO_SKETCH;
            if (in == Input.TEXT) {
                Map<String, Object> given = new HashMap<>();
                given.put(FingerprintSpec.VERSION, version.getValue());
                for (Parameter<Object> p : List.of(analyzer, shingleSize, weighting, minFeatures, weights)) {
                    if (p.isConfigured()) {
                        given.put(p.name, p.getValue());
                    }
                }
                FingerprintSpec named = FingerprintSpec.parse(given, FingerprintSpec.OPTIONS, FingerprintSpec.LATEST);
                // a mapping read back from the cluster state (a node starting, a restored snapshot) is not a new field
                boolean recovery = context.getMergeReason() == MapperService.MergeReason.MAPPING_RECOVERY;
                String digest = weightsDigest.getValue() != null ? weightsDigest.getValue() : keptDigest;
                if (named.weights() != null && digest == null && !recovery && weightTables != null && weightTables.recovered()) {
                    // a new field records which table it is made with, as it records its version
                    digest = Fingerprinters.weights(named, weightTables).digest();
                }
                spec = named.withWeightsDigest(digest);
                sketchName = sketchOf(named.version(), recovery);
                fingerprinter = Fingerprinters.of(spec, this::indexAnalyzer, "the index", weightTables);
                if (weightTables == null || weightTables.recovered()) {
                    // a missing table is refused when the mapping is put; mappings read while the node starts (before the
                    // cluster state is recovered) look their table up when a document is indexed. A field whose table is
                    // another one now (e.g. restored from a snapshot) is refused when it fingerprints, never here: a mapping
                    // is also built when a shard is allocated or restored, and some lines do not tell that apart from a
                    // put, so refusing here could leave the index without its shards
                    Fingerprinters.weights(named, weightTables);
                }
            } else {
                for (Parameter<?> p : List.of(analyzer, shingleSize, weighting, minFeatures, weights, weightsDigest, sketch)) {
                    if (p.isConfigured()) {
                        throw new IllegalArgumentException("[" + p.name + "] does not apply to a [" + CONTENT_TYPE + "] field with ["
                            + INPUT + "] = [fingerprint]: it takes ready-made fingerprints");
                    }
                }
            }
            SimHashFieldType type = new SimHashFieldType(context.buildFullName(leafName()), in,
                FingerprintSpec.parseVersion(version.getValue()), spec, fingerprinter,
                sketchName.equals(NO_SKETCH) ? null : MinHashSketch.V1, meta.getValue(), bandFilters);
            return new SimHashFieldMapper(leafName(), type, builderParams(this, context), this);
        }

        /** The sketch of a text field: the one given, else none for a mapping read back, else the version's default. */
        private String sketchOf(FingerprintSpec.Version v, boolean recovery) {
            String given = sketch.getValue() != null ? sketch.getValue() : keptSketch;
            if (given == null) {
                return recovery || v != FingerprintSpec.Version.V2 ? NO_SKETCH : MinHashSketch.ALGORITHM;
            }
            if (!given.equals(NO_SKETCH) && v != FingerprintSpec.Version.V2) {
                throw new IllegalArgumentException("[" + SKETCH + "] [" + given + "] needs [" + FingerprintSpec.VERSION + "] ["
                    + FingerprintSpec.Version.V2.optionName() + "]: its candidates come from simhash-v2 fingerprints");
            }
            return given;
        }

        private Analyzer indexAnalyzer(String name) {
            return indexAnalyzers == null ? null : indexAnalyzers.get(name);
        }
    }

    private final Input input;
    /** The version recorded in the mapping (also for [input] = [fingerprint], where it decides nothing). */
    private final Object version;
    private final IndexAnalyzers indexAnalyzers;
    private final FeatureWeights.Tables weightTables;
    private final BandFilters bandFilters;

    private SimHashFieldMapper(String leafName, SimHashFieldType type, BuilderParams params, Builder builder) {
        super(leafName, type, params);
        this.input = type.input();
        this.version = builder.version.getValue();
        this.indexAnalyzers = builder.indexAnalyzers;
        this.weightTables = builder.weightTables;
        this.bandFilters = builder.bandFilters;
    }

    @Override
    public SimHashFieldType fieldType() {
        return (SimHashFieldType) super.fieldType();
    }

    /** The digest of the table the field was created with, or null (no table, or a field made before digests). */
    private String weightsDigest() {
        FingerprintSpec spec = fieldType().spec();
        return spec == null ? null : spec.weightsDigest();
    }

    private static String digestValue(Object raw) {
        if (raw instanceof String s) {
            return s;
        }
        throw new IllegalArgumentException("[" + FingerprintSpec.WEIGHTS_DIGEST + "] must be a string, got ["
            + SimHash.abbreviate(String.valueOf(raw)) + "]");
    }

    private static String sketchValue(Object raw) {
        if (raw instanceof String s && (s.equals(MinHashSketch.ALGORITHM) || s.equals(NO_SKETCH))) {
            return s;
        }
        throw new IllegalArgumentException("[" + SKETCH + "] must be one of [" + MinHashSketch.ALGORITHM + ", " + NO_SKETCH + "], got ["
            + SimHash.abbreviate(String.valueOf(raw)) + "]");
    }

    private Object specValue(String option) {
        FingerprintSpec spec = fieldType().spec();
        // options the field's version does not have (v2: analyzer, shingle_size, weighting) keep their defaults
        return spec == null || !spec.applies(option) ? defaultValue(option) : spec.optionValue(option);
    }

    @Override
    public FieldMapper.Builder getMergeBuilder() {
        return new Builder(leafName(), indexAnalyzers, weightTables, bandFilters).init(this);
    }

    @Override
    protected String contentType() {
        return CONTENT_TYPE;
    }

    @Override
    protected void parseCreateField(DocumentParserContext context) throws IOException {
        XContentParser parser = context.parser();
        XContentParser.Token token = parser.currentToken();
        if (token == XContentParser.Token.VALUE_NULL) {
            return;
        }
        if (input == Input.FINGERPRINT) {
            long h = readFingerprint(parser, token);
            context.doc().add(LuceneFields.docValue(fullPath(), () -> h));
            context.doc().add(LuceneFields.blockTerms(fullPath(), fieldType().blockLayout(), () -> h));
            return;
        }
        // a value given to this field itself must be text; one that reaches it from a parent (multi-field) or through
        // copy_to is read as text as the parent reads it (a text or keyword field takes numbers and booleans too)
        boolean direct = !context.isWithinCopyTo() && leafName().equals(parser.currentName());
        boolean scalar = token == XContentParser.Token.VALUE_NUMBER || token == XContentParser.Token.VALUE_BOOLEAN;
        if (token != XContentParser.Token.VALUE_STRING && (direct || !scalar)) {
            throw new IllegalArgumentException("a [" + CONTENT_TYPE + "] field with [" + INPUT + "] = [text] takes text, got "
                + describe(token) + "; to store ready-made fingerprints use [" + INPUT + "] = [fingerprint]");
        }
        addText(context.doc(), parser.text());
    }

    private static long readFingerprint(XContentParser parser, XContentParser.Token token) throws IOException {
        if (token == XContentParser.Token.VALUE_NUMBER) {
            if (parser.numberType() != XContentParser.NumberType.INT && parser.numberType() != XContentParser.NumberType.LONG) {
                throw new IllegalArgumentException("a fingerprint must be 16 hex digits (a string) or a signed 64-bit integer, got ["
                    + SimHash.abbreviate(parser.text()) + "]");
            }
            return parser.longValue();
        }
        if (token == XContentParser.Token.VALUE_STRING) {
            return SimHash.parse(parser.text());
        }
        throw new IllegalArgumentException("a fingerprint must be 16 hex digits (a string) or a signed 64-bit integer, got "
            + describe(token));
    }

    private static String describe(XContentParser.Token token) {
        return switch (token) {
            case VALUE_NUMBER -> "a number";
            case VALUE_BOOLEAN -> "a boolean";
            case START_OBJECT -> "an object";
            case START_ARRAY -> "an array";
            default -> "[" + token + "]";
        };
    }

    /**
     * Adds one more text to the document's fingerprint of this field. Every fingerprint is computed here, while the
     * document is parsed, so that a failure is this document's parsing error (a 400 for it alone), never an exception
     * inside Lucene's indexing chain. The first text is fingerprinted at once with the thread's reusable bag (no bag per
     * document); only a second text (an array, or another {@code copy_to} source) makes a bag of its own, which then
     * reads the first text again, so the features stay one token sequence, and the fingerprint of all texts so far is
     * computed again. The Lucene fields are added once there is a fingerprint (the texts have {@code min_features}
     * features; more texts never take it away) and read the latest one when Lucene indexes the document.
     */
    private void addText(LuceneDocument doc, String text) {
        TextFingerprinter fingerprinter = fieldType().fingerprinter();
        PendingFingerprint pending = (PendingFingerprint) doc.getByKey(this);
        if (pending == null) {
            pending = new PendingFingerprint(fullPath(), text);
            doc.onlyAddKey(this, pending);
            // one reading of the text gives the fingerprint and the sketch's tokens
            pending.update(doc, fingerprinter.fingerprint(text, pending.sketch));
            return;
        }
        if (pending.bag == null) {
            pending.bag = fingerprinter.newBag();
            // the first text's tokens are in the sketch already
            fingerprinter.addText(pending.first, pending.bag);
            pending.first = null;
            pending.bag.tokenHashes(pending.sketch);
        }
        fingerprinter.addText(text, pending.bag);
        pending.update(doc, pending.bag.fingerprint());
    }

    /**
     * The texts of one document for one field, kept under the mapper as key in the Lucene document (which only
     * keys fields: this one is never indexed itself): the first text, a bag of all texts once there is a second, and
     * the fingerprint of the texts so far.
     */
    private final class PendingFingerprint extends Field {
        String first;
        FeatureBag bag;
        private boolean added;
        private long fingerprint;
        /** The sketch's bins so far (null: the field has no sketch), and the sketch once Lucene has read it. */
        private final MinHashSketch.Accumulator sketch;
        private byte[] sketchBytes;
        private BytesRef[] bands;

        PendingFingerprint(String name, String first) {
            super(name, LuceneFields.TERMS_TYPE);
            this.first = first;
            MinHashSketch s = SimHashFieldMapper.this.fieldType().sketch();
            this.sketch = s == null ? null : s.accumulator();
        }

        /** The sketch of all texts (they have tokens: they have a fingerprint), computed once, when Lucene indexes the document. */
        private byte[] sketchBytes() {
            if (sketchBytes == null) {
                sketchBytes = sketch.sketch();
            }
            return sketchBytes;
        }

        /** The sketch's band values ({@link SketchBands#terms}), computed once with the sketch. */
        private BytesRef[] bands() {
            if (bands == null) {
                byte[] b = sketchBytes();
                bands = b == null ? new BytesRef[0] : SketchBands.values(b);
            }
            return bands;
        }

        /** Records the fingerprint of the texts so far, and adds the Lucene fields (which read it) with the first one. */
        void update(LuceneDocument doc, OptionalLong fp) {
            if (fp.isEmpty()) {
                if (added) {
                    throw new IllegalStateException("the fingerprint of field [" + fullPath() + "] disappeared with more text");
                }
                return;
            }
            fingerprint = fp.getAsLong();
            if (!added) {
                added = true;
                doc.add(LuceneFields.docValue(fullPath(), () -> fingerprint));
                doc.add(LuceneFields.blockTerms(fullPath(), SimHashFieldMapper.this.fieldType().blockLayout(), () -> fingerprint));
                if (sketch != null) {
                    String sketchField = SimHashFieldMapper.this.fieldType().sketchField();
                    doc.add(LuceneFields.sketch(sketchField, this::sketchBytes));
                    for (int band = 0; band < SketchBands.BANDS; band++) {
                        doc.add(LuceneFields.sketchBand(sketchField, band, this::bands));
                    }
                }
            }
        }
    }
}
