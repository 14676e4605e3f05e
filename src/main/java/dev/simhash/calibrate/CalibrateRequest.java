package dev.simhash.calibrate;

import dev.simhash.request.Declarations;
import dev.simhash.wire.WireEnvelope;

import org.elasticsearch.action.ActionRequest;
import org.elasticsearch.action.ActionRequestValidationException;
import org.elasticsearch.action.IndicesRequest;
import org.elasticsearch.action.search.SearchRequest;
import org.elasticsearch.action.support.IndicesOptions;
import org.elasticsearch.common.io.stream.StreamInput;
import org.elasticsearch.common.io.stream.StreamOutput;
import org.elasticsearch.tasks.CancellableTask;
import org.elasticsearch.tasks.Task;
import org.elasticsearch.tasks.TaskId;
import org.elasticsearch.xcontent.ObjectParser;
import org.elasticsearch.xcontent.ParseField;
import org.elasticsearch.xcontent.XContentParser;

import java.io.IOException;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

import static org.elasticsearch.action.ValidateActions.addValidationError;

/**
 * The calibration request: which indices, the {@code simhash} field, where its text is in {@code _source}, the sample
 * size, the seed of sampling and edits, and the false-match rate the recommended radius must stay within. An
 * {@link IndicesRequest} so that security authorizes it against the target indices like a search.
 */
public final class CalibrateRequest extends ActionRequest implements IndicesRequest.Replaceable {

    public static final int DEFAULT_SAMPLE_SIZE = 1_000;
    /** Largest sample: one search page (the default {@code index.max_result_window}), 5e7 pairs. */
    public static final int MAX_SAMPLE_SIZE = 10_000;
    public static final long DEFAULT_SEED = 0;
    /**
     * One false match in a million random pairs: a document in an index of a thousand documents (1e3 candidate pairs)
     * then matches an unrelated one with probability 1e-3.
     */
    public static final double DEFAULT_MAX_FALSE_MATCH_RATE = 1e-6;

    public static final String FIELD = "field";
    public static final String SOURCE_FIELD = "source_field";
    public static final String SAMPLE_SIZE = "sample_size";
    public static final String SEED = "seed";
    public static final String MAX_FALSE_MATCH_RATE = "max_false_match_rate";

    private static final ObjectParser<CalibrateRequest, Void> PARSER = new ObjectParser<>("_simhash/calibrate");

    static {
        PARSER.declareString(CalibrateRequest::field, new ParseField(FIELD));
        PARSER.declareString(CalibrateRequest::sourceField, new ParseField(SOURCE_FIELD));
        PARSER.declareInt(CalibrateRequest::sampleSize, new ParseField(SAMPLE_SIZE));
        PARSER.declareLong(CalibrateRequest::seed, new ParseField(SEED));
        PARSER.declareDouble(CalibrateRequest::maxFalseMatchRate, new ParseField(MAX_FALSE_MATCH_RATE));
    }

    private String[] indices;
    private IndicesOptions indicesOptions = SearchRequest.DEFAULT_INDICES_OPTIONS;
    private String field;
    private String sourceField;
    private int sampleSize = DEFAULT_SAMPLE_SIZE;
    private long seed = DEFAULT_SEED;
    private double maxFalseMatchRate = DEFAULT_MAX_FALSE_MATCH_RATE;

    public CalibrateRequest(String... indices) {
        this.indices = Objects.requireNonNull(indices);
    }

    public CalibrateRequest(StreamInput in) throws IOException {
        super(in);
        StreamInput body = WireEnvelope.read(in).in();
        indices = body.readStringArray();
        indicesOptions = IndicesOptions.readIndicesOptions(body);
        field = body.readString();
        sourceField = body.readOptionalString();
        sampleSize = body.readVInt();
        seed = body.readLong();
        maxFalseMatchRate = body.readDouble();
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        super.writeTo(out);
        WireEnvelope.write(out, body -> {
            body.writeStringArray(indices);
            indicesOptions.writeIndicesOptions(body);
            body.writeString(field);
            body.writeOptionalString(sourceField);
            body.writeVInt(sampleSize);
            body.writeLong(seed);
            body.writeDouble(maxFalseMatchRate);
        });
    }

    /**
     * Reads a JSON body with the parameters ({@code field}, {@code source_field}, {@code sample_size}, {@code seed},
     * {@code max_false_match_rate}) into this request; their values are checked by {@link #validate()}.
     *
     * @throws IllegalArgumentException (a parse exception) naming the offending parameter: unknown, or of the wrong type
     */
    public CalibrateRequest parse(XContentParser parser) throws IOException {
        return Declarations.parse(PARSER, parser, this, null);
    }

    public CalibrateRequest field(String field) {
        this.field = field;
        return this;
    }

    public CalibrateRequest sourceField(String sourceField) {
        this.sourceField = sourceField;
        return this;
    }

    public CalibrateRequest sampleSize(int sampleSize) {
        this.sampleSize = sampleSize;
        return this;
    }

    public CalibrateRequest seed(long seed) {
        this.seed = seed;
        return this;
    }

    public CalibrateRequest maxFalseMatchRate(double rate) {
        this.maxFalseMatchRate = rate;
        return this;
    }

    public String field() {
        return field;
    }

    public String sourceField() {
        return sourceField;
    }

    public int sampleSize() {
        return sampleSize;
    }

    public long seed() {
        return seed;
    }

    public double maxFalseMatchRate() {
        return maxFalseMatchRate;
    }

    public CalibrateRequest indicesOptions(IndicesOptions indicesOptions) {
        this.indicesOptions = Objects.requireNonNull(indicesOptions);
        return this;
    }

    @Override
    public String[] indices() {
        return indices;
    }

    @Override
    public CalibrateRequest indices(String... indices) {
        this.indices = Objects.requireNonNull(indices);
        return this;
    }

    @Override
    public IndicesOptions indicesOptions() {
        return indicesOptions;
    }

    @Override
    public ActionRequestValidationException validate() {
        ActionRequestValidationException e = null;
        if (field == null || field.isBlank()) {
            e = addValidationError("[" + FIELD + "] is required: the [simhash] field to calibrate, e.g. [body.simhash]", e);
        }
        if (sourceField != null && sourceField.isBlank()) {
            e = addValidationError("[" + SOURCE_FIELD + "] must be a field name, got [" + sourceField + "]", e);
        }
        if (sampleSize < 2 || sampleSize > MAX_SAMPLE_SIZE) {
            e = addValidationError(String.format(Locale.ROOT, "[%s] must be between 2 and %d, got [%d]", SAMPLE_SIZE, MAX_SAMPLE_SIZE,
                sampleSize), e);
        }
        if (!(maxFalseMatchRate > 0 && maxFalseMatchRate < 1)) {
            e = addValidationError("[" + MAX_FALSE_MATCH_RATE + "] must be a number greater than 0 and less than 1, got ["
                + maxFalseMatchRate + "]", e);
        }
        return e;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CalibrateRequest r && Arrays.equals(indices, r.indices) && indicesOptions.equals(r.indicesOptions)
            && Objects.equals(field, r.field) && Objects.equals(sourceField, r.sourceField) && sampleSize == r.sampleSize
            && seed == r.seed && Double.compare(maxFalseMatchRate, r.maxFalseMatchRate) == 0;
    }

    @Override
    public int hashCode() {
        return Objects.hash(Arrays.hashCode(indices), indicesOptions, field, sourceField, sampleSize, seed, maxFalseMatchRate);
    }

    @Override
    public Task createTask(long id, String type, String action, TaskId parentTaskId, Map<String, String> headers) {
        return new CancellableTask(id, type, action, getDescription(), parentTaskId, headers);
    }

    @Override
    public String getDescription() {
        return "simhash calibrate indices" + Arrays.toString(indices) + ", field[" + field + "], sample_size[" + sampleSize + "], seed["
            + seed + "]";
    }
}
