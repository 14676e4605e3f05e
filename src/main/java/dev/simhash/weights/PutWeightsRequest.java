package dev.simhash.weights;

import dev.simhash.core.FingerprintSpec;
import dev.simhash.core.SimHash;
import dev.simhash.request.Declarations;
import dev.simhash.wire.WireEnvelope;

import org.elasticsearch.action.ActionRequest;
import org.elasticsearch.action.ActionRequestValidationException;
import org.elasticsearch.common.io.stream.StreamInput;
import org.elasticsearch.common.io.stream.StreamOutput;
import org.elasticsearch.tasks.Task;
import org.elasticsearch.tasks.TaskId;
import org.elasticsearch.xcontent.ObjectParser;
import org.elasticsearch.xcontent.ParseField;
import org.elasticsearch.xcontent.XContentParser;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

import static org.elasticsearch.action.ValidateActions.addValidationError;

/** The request of {@link PutWeightsAction}: the upload or the computation of one table, its name from the URL. */
public final class PutWeightsRequest extends ActionRequest {

    public static final int DEFAULT_SAMPLE_SIZE = 10_000;
    public static final int MAX_SAMPLE_SIZE = 1_000_000;
    public static final int DEFAULT_MIN_DF = 2;
    /** The seed of the random sample when none is given: the same index gives the same sample, and the same table. */
    public static final int DEFAULT_SEED = 0;
    public static final double DEFAULT_WEIGHT = 1.0;
    public static final int DEFAULT_SHINGLE_SIZE = 1;

    /** The body as parsed, before it is checked (see {@link PutWeightsRequest#validate()}); null: not given. */
    static final class Body {
        String version;
        Map<String, Double> features;
        Double defaultWeight;
        String index;
        String field;
        Integer sampleSize;
        Integer minDf;
        Integer maxFeatures;
        String analyzer;
        Integer shingleSize;
        Integer seed;
    }

    private static final ObjectParser<Body, Void> PARSER = new ObjectParser<>("simhash_weights", false, Body::new);

    static {
        PARSER.declareString((b, v) -> b.version = v, new ParseField("version"));
        // an open set of feature names: read as a stream, so that an oversized table stops at the limit, not after it is read
        PARSER.declareField((b, v) -> b.features = v, (p, c) -> parseFeatures(p), new ParseField("features"),
            ObjectParser.ValueType.VALUE_OBJECT_ARRAY);
        PARSER.declareDouble((b, v) -> b.defaultWeight = v, new ParseField("default_weight"));
        PARSER.declareString((b, v) -> b.index = v, new ParseField("index"));
        PARSER.declareString((b, v) -> b.field = v, new ParseField("field"));
        PARSER.declareInt((b, v) -> b.sampleSize = v, new ParseField("sample_size"));
        PARSER.declareInt((b, v) -> b.minDf = v, new ParseField("min_df"));
        PARSER.declareInt((b, v) -> b.maxFeatures = v, new ParseField("max_features"));
        PARSER.declareString((b, v) -> b.analyzer = v, new ParseField("analyzer"));
        PARSER.declareInt((b, v) -> b.shingleSize = v, new ParseField("shingle_size"));
        PARSER.declareInt((b, v) -> b.seed = v, new ParseField("seed"));
    }

    /**
     * {@code features}: an object of feature -> number; stops at {@link WeightsTable#MAX_FEATURES} + 1 entries or past
     * {@link WeightsTable#MAX_BYTES}.
     */
    static Map<String, Double> parseFeatures(XContentParser p) throws IOException {
        if (p.currentToken() != XContentParser.Token.START_OBJECT) {
            throw new IllegalArgumentException("[features] must be an object of feature to factor, e.g. {\"the\": 0.1}, got "
                + p.currentToken());
        }
        Map<String, Double> m = new HashMap<>();
        long bytes = 0;
        for (XContentParser.Token t = p.nextToken(); t != XContentParser.Token.END_OBJECT; t = p.nextToken()) {
            String feature = p.currentName();
            bytes += WeightsTable.utf8Length(feature) + WeightsTable.FACTOR_BYTES;
            if (bytes > WeightsTable.MAX_BYTES) {
                throw new IllegalArgumentException("[features] holds more than " + WeightsTable.MAX_BYTES + " bytes (UTF-8 bytes of the "
                    + "features + " + WeightsTable.FACTOR_BYTES + " per factor) after " + (m.size() + 1) + " features, a table holds "
                    + "at most " + WeightsTable.MAX_BYTES + " bytes (tables live in the cluster state)");
            }
            t = p.nextToken();
            if (t != XContentParser.Token.VALUE_NUMBER) {
                throw new IllegalArgumentException("[features] factor of [" + SimHash.abbreviate(feature)
                    + "] must be a number, got [" + (t.isValue() ? SimHash.abbreviate(p.text()) : t) + "]");
            }
            m.put(feature, p.doubleValue());
            if (m.size() > WeightsTable.MAX_FEATURES) {
                throw new IllegalArgumentException("[features] has more than " + WeightsTable.MAX_FEATURES
                    + " features, a table holds at most " + WeightsTable.MAX_FEATURES + " (tables live in the cluster state)");
            }
        }
        return m;
    }

    private final String name;
    private final String version;
    private final Map<String, Double> features;
    private final double defaultWeight;
    private final String index;
    private final String field;
    private final int sampleSize;
    private final int minDf;
    private final int maxFeatures;
    private final String analyzer;
    private final int shingleSize;
    private final int seed;
    private boolean shouldStoreResult;

    PutWeightsRequest(String name, Body b) {
        this.name = Objects.requireNonNull(name);
        this.version = b.version;
        this.features = b.features;
        this.defaultWeight = b.defaultWeight == null ? DEFAULT_WEIGHT : b.defaultWeight;
        this.index = b.index;
        this.field = b.field;
        this.sampleSize = b.sampleSize == null ? DEFAULT_SAMPLE_SIZE : b.sampleSize;
        this.minDf = b.minDf == null ? DEFAULT_MIN_DF : b.minDf;
        this.maxFeatures = b.maxFeatures == null ? WeightsTable.MAX_FEATURES : b.maxFeatures;
        this.analyzer = b.analyzer;
        this.shingleSize = b.shingleSize == null ? DEFAULT_SHINGLE_SIZE : b.shingleSize;
        this.seed = b.seed == null ? DEFAULT_SEED : b.seed;
        // computing and uploading take different options: say which does not belong
        if (b.features != null && b.index != null) {
            throw new IllegalArgumentException("[features] and [index] exclude each other: upload a table or compute one from an index");
        }
        if (b.features != null) {
            for (String computeOnly : new String[] {b.field == null ? null : "field", b.sampleSize == null ? null : "sample_size",
                b.minDf == null ? null : "min_df", b.maxFeatures == null ? null : "max_features",
                b.analyzer == null ? null : "analyzer", b.shingleSize == null ? null : "shingle_size", b.seed == null ? null : "seed"}) {
                if (computeOnly != null) {
                    throw new IllegalArgumentException("[" + computeOnly + "] only applies when computing a table from an [index]");
                }
            }
        }
        if (b.index != null && b.defaultWeight != null) {
            throw new IllegalArgumentException("[default_weight] only applies to an uploaded table; a computed table's is the IDF "
                + "of a feature just below [min_df]");
        }
    }

    /** The body this request was made from (its defaults given explicitly where they apply). */
    Body toBody() {
        Body b = new Body();
        b.version = version;
        b.features = features;
        b.index = index;
        if (index == null) {
            b.defaultWeight = defaultWeight;
        } else {
            b.field = field;
            b.sampleSize = sampleSize;
            b.minDf = minDf;
            b.maxFeatures = maxFeatures;
            b.analyzer = analyzer;
            b.shingleSize = shingleSize;
            b.seed = seed;
        }
        return b;
    }

    /** Parses a body; {@code name} from the URL. */
    public static PutWeightsRequest parse(String name, XContentParser parser) throws IOException {
        WeightsRegistry.checkName(name);
        return new PutWeightsRequest(name, Declarations.parse(PARSER, parser, null));
    }

    public PutWeightsRequest(StreamInput in) throws IOException {
        super(in);
        StreamInput body = WireEnvelope.read(in).in();
        name = body.readString();
        version = body.readOptionalString();
        if (body.readBoolean()) {
            int n = body.readVInt();
            Map<String, Double> m = new HashMap<>();
            for (int i = 0; i < n; i++) {
                m.put(body.readString(), body.readDouble());
            }
            features = m;
        } else {
            features = null;
        }
        defaultWeight = body.readDouble();
        index = body.readOptionalString();
        field = body.readOptionalString();
        sampleSize = body.readVInt();
        minDf = body.readVInt();
        maxFeatures = body.readVInt();
        analyzer = body.readOptionalString();
        shingleSize = body.readVInt();
        seed = body.readInt();
        shouldStoreResult = body.readBoolean();
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        super.writeTo(out);
        WireEnvelope.write(out, body -> {
            body.writeString(name);
            body.writeOptionalString(version);
            body.writeBoolean(features != null);
            if (features != null) {
                body.writeVInt(features.size());
                for (Map.Entry<String, Double> e : features.entrySet()) {
                    body.writeString(e.getKey());
                    body.writeDouble(e.getValue());
                }
            }
            body.writeDouble(defaultWeight);
            body.writeOptionalString(index);
            body.writeOptionalString(field);
            body.writeVInt(sampleSize);
            body.writeVInt(minDf);
            body.writeVInt(maxFeatures);
            body.writeOptionalString(analyzer);
            body.writeVInt(shingleSize);
            body.writeInt(seed);
            body.writeBoolean(shouldStoreResult);
        });
    }

    @Override
    public ActionRequestValidationException validate() {
        ActionRequestValidationException e = null;
        if (version == null) {
            e = addValidationError("[version] is required: a table holds the features of one fingerprint version, [v1] or [v2]", e);
        } else {
            try {
                FingerprintSpec.Version.fromOption(version);
            } catch (IllegalArgumentException x) {
                e = addValidationError(x.getMessage(), e);
            }
        }
        if (features == null && index == null) {
            e = addValidationError("either [features] (an uploaded table) or [index] and [field] (computed from the index) is required", e);
        }
        if (index != null) {
            if (field == null) {
                e = addValidationError("[field] is required with [index]", e);
            }
            if (sampleSize < 1 || sampleSize > MAX_SAMPLE_SIZE) {
                e = addValidationError("[sample_size] must be between 1 and " + MAX_SAMPLE_SIZE + ", got [" + sampleSize + "]", e);
            }
            if (minDf < 1) {
                e = addValidationError("[min_df] must be at least 1, got [" + minDf + "]", e);
            }
            if (maxFeatures < 1 || maxFeatures > WeightsTable.MAX_FEATURES) {
                e = addValidationError("[max_features] must be between 1 and " + WeightsTable.MAX_FEATURES + ", got [" + maxFeatures
                    + "]", e);
            }
            if ("v2".equals(version) && (analyzer != null || shingleSize != DEFAULT_SHINGLE_SIZE)) {
                e = addValidationError("[analyzer] and [shingle_size] do not apply to v2, which fixes its features", e);
            }
        }
        return e;
    }

    public String name() {
        return name;
    }

    FingerprintSpec.Version version() {
        return FingerprintSpec.Version.fromOption(version);
    }

    Map<String, Double> features() {
        return features;
    }

    double defaultWeight() {
        return defaultWeight;
    }

    String index() {
        return index;
    }

    String field() {
        return field;
    }

    int sampleSize() {
        return sampleSize;
    }

    int minDf() {
        return minDf;
    }

    int maxFeatures() {
        return maxFeatures;
    }

    int seed() {
        return seed;
    }

    /** The fingerprint spec whose features the table is computed from. */
    FingerprintSpec spec() {
        Map<String, Object> raw = new HashMap<>();
        raw.put(FingerprintSpec.VERSION, version);
        if (analyzer != null) {
            raw.put(FingerprintSpec.ANALYZER, analyzer);
        }
        if (shingleSize != DEFAULT_SHINGLE_SIZE) {
            raw.put(FingerprintSpec.SHINGLE_SIZE, shingleSize);
        }
        return FingerprintSpec.parse(raw);
    }

    public PutWeightsRequest shouldStoreResult(boolean store) {
        this.shouldStoreResult = store;
        return this;
    }

    @Override
    public boolean getShouldStoreResult() {
        return shouldStoreResult;
    }

    @Override
    public Task createTask(long id, String type, String action, TaskId parentTaskId, Map<String, String> headers) {
        return new PutWeightsTask(id, type, action, getDescription(), parentTaskId, headers, index == null ? 0 : sampleSize);
    }

    @Override
    public String getDescription() {
        return "simhash weights [" + name + "] " + (index == null ? "upload" : "from index[" + index + "], field[" + field
            + "], sample_size[" + sampleSize + "], seed[" + seed + "]");
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PutWeightsRequest r && name.equals(r.name) && Objects.equals(version, r.version)
            && Objects.equals(features, r.features) && Double.compare(defaultWeight, r.defaultWeight) == 0
            && Objects.equals(index, r.index) && Objects.equals(field, r.field) && sampleSize == r.sampleSize && minDf == r.minDf
            && maxFeatures == r.maxFeatures && Objects.equals(analyzer, r.analyzer) && shingleSize == r.shingleSize && seed == r.seed
            && shouldStoreResult == r.shouldStoreResult;
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, version, features, defaultWeight, index, field, sampleSize, minDf, maxFeatures, analyzer, shingleSize,
            seed, shouldStoreResult);
    }
}
