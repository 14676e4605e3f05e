package dev.simhash.duplicates;

import dev.simhash.core.SimHash;
import dev.simhash.request.Params;
import dev.simhash.threshold.Thresholds;
import dev.simhash.request.Declarations;
import dev.simhash.wire.WireEnvelope;

import org.elasticsearch.action.ActionRequest;
import org.elasticsearch.action.ActionRequestValidationException;
import org.elasticsearch.action.IndicesRequest;
import org.elasticsearch.action.search.SearchRequest;
import org.elasticsearch.action.support.IndicesOptions;
import org.elasticsearch.common.io.stream.StreamInput;
import org.elasticsearch.common.io.stream.StreamOutput;
import org.elasticsearch.index.query.AbstractQueryBuilder;
import org.elasticsearch.index.query.QueryBuilder;
import org.elasticsearch.tasks.Task;
import org.elasticsearch.tasks.TaskId;
import org.elasticsearch.xcontent.ObjectParser;
import org.elasticsearch.xcontent.ObjectParser.ValueType;
import org.elasticsearch.xcontent.ParseField;
import org.elasticsearch.xcontent.XContentParser;

import java.io.IOException;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiConsumer;

import static org.elasticsearch.action.ValidateActions.addValidationError;

/**
 * The near-duplicate report request: which indices, the fingerprint object, the radius, an optional
 * filter query, paging over groups and an optional group id field to write. An {@link IndicesRequest}
 * so that security authorizes it against the target indices like a search.
 */
public final class DuplicatesRequest extends ActionRequest implements IndicesRequest.Replaceable {

    public static final int DEFAULT_MAX_DISTANCE = SimHash.DEFAULT_MAX_DISTANCE;
    /**
     * Largest radius: probing costs grow with C(16, floor(r/4)) per block (r <= 11 probes 137 block values, r <= 15 probes
     * 697), and from r = 12 on unrelated 64-bit fingerprints link by chance often enough that single linkage chains
     * large indices into meaningless giant groups.
     */
    public static final int MAX_MAX_DISTANCE = 11;
    public static final int DEFAULT_SIZE = 10;
    public static final int MAX_SIZE = 1000;
    public static final int DEFAULT_MAX_MEMBERS = 100;
    public static final int MAX_MAX_MEMBERS = 10_000;

    /** How fingerprints are read: sliced point-in-time searches in parallel (the default) or page by page (0.1's way). */
    public enum ReadMode {
        SLICED, SEQUENTIAL;

        static ReadMode parse(String value) {
            for (ReadMode m : values()) {
                if (m.name().toLowerCase(Locale.ROOT).equals(value)) {
                    return m;
                }
            }
            throw new IllegalArgumentException("[read] must be one of [sliced, sequential], got [" + SimHash.abbreviate(value) + "]");
        }
    }

    private String[] indices;
    private IndicesOptions indicesOptions = SearchRequest.DEFAULT_INDICES_OPTIONS;
    private String field;
    private int maxDistance = DEFAULT_MAX_DISTANCE;
    // false: the field's version default replaces DEFAULT_MAX_DISTANCE once the field is known
    private boolean maxDistanceGiven;
    // the similarity threshold given, or null: candidates within its radius are verified with the sketches
    private Double minSimilarity;
    private QueryBuilder query;
    private int from;
    private int size = DEFAULT_SIZE;
    private int maxMembers = DEFAULT_MAX_MEMBERS;
    private String writeGroupId;
    // true: write_group_id may replace values that are not group ids (user data) in the target documents
    private boolean overwriteGroupId;
    private ReadMode readMode = ReadMode.SLICED;
    // local only (wait_for_completion=false): the task manager stores the result in the .tasks index
    private boolean shouldStoreResult;

    public DuplicatesRequest(String... indices) {
        this.indices = Objects.requireNonNull(indices);
    }

    public DuplicatesRequest(StreamInput in) throws IOException {
        super(in);
        StreamInput body = WireEnvelope.read(in).in();
        indices = body.readStringArray();
        indicesOptions = IndicesOptions.readIndicesOptions(body);
        field = body.readString();
        maxDistance = body.readVInt();
        maxDistanceGiven = body.readBoolean();
        minSimilarity = body.readOptionalDouble();
        query = body.readOptionalNamedWriteable(QueryBuilder.class);
        from = body.readVInt();
        size = body.readVInt();
        maxMembers = body.readVInt();
        writeGroupId = body.readOptionalString();
        readMode = body.readEnum(ReadMode.class);
        overwriteGroupId = body.readBoolean();
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        super.writeTo(out);
        WireEnvelope.write(out, body -> {
            body.writeStringArray(indices);
            indicesOptions.writeIndicesOptions(body);
            body.writeString(field);
            body.writeVInt(maxDistance);
            body.writeBoolean(maxDistanceGiven);
            body.writeOptionalDouble(minSimilarity);
            body.writeOptionalNamedWriteable(query);
            body.writeVInt(from);
            body.writeVInt(size);
            body.writeVInt(maxMembers);
            body.writeOptionalString(writeGroupId);
            body.writeEnum(readMode);
            body.writeBoolean(overwriteGroupId);
        });
    }

    /**
     * The body's fields as sent, before validation: {@link ObjectParser} checks the syntax and, through each declaration's
     * type, the kind of each value (wrapping errors with their location); then the setters check the values, so a value
     * error is the setter's own message naming the parameter.
     */
    private static final class Body {
        String field;
        Long maxDistance;
        Double minSimilarity;
        QueryBuilder query;
        Long from;
        Long size;
        Long maxMembers;
        String writeGroupId;
        Boolean overwriteGroupId;
        String read;
    }

    private static final ObjectParser<Body, Void> PARSER = new ObjectParser<>("_simhash/duplicates", Body::new);

    static {
        PARSER.declareString((b, v) -> b.field = v, new ParseField("field"));
        declareWholeNumber((b, v) -> b.maxDistance = v, Thresholds.MAX_DISTANCE);
        PARSER.declareField((b, v) -> b.minSimilarity = v, (p, c) -> Thresholds.minSimilarity(p), new ParseField(Thresholds.MIN_SIMILARITY),
            ValueType.DOUBLE);
        PARSER.declareObject((b, v) -> b.query = v, (p, c) -> AbstractQueryBuilder.parseTopLevelQuery(p), new ParseField("query"));
        declareWholeNumber((b, v) -> b.from = v, "from");
        declareWholeNumber((b, v) -> b.size = v, "size");
        declareWholeNumber((b, v) -> b.maxMembers = v, "max_members");
        PARSER.declareString((b, v) -> b.writeGroupId = v, new ParseField("write_group_id"));
        PARSER.declareBoolean((b, v) -> b.overwriteGroupId = v, new ParseField("overwrite_group_id"));
        PARSER.declareString((b, v) -> b.read = v, new ParseField("read"));
    }

    private static void declareWholeNumber(BiConsumer<Body, Long> setter, String name) {
        PARSER.declareField(setter, (p, c) -> Params.wholeNumber(p, name), new ParseField(name), ValueType.LONG);
    }

    /**
     * Reads the JSON body: {@code field} (required), {@code max_distance} or {@code min_similarity}, {@code query}, {@code from}, {@code size},
     * {@code max_members}, {@code write_group_id}, {@code overwrite_group_id}, {@code read}.
     *
     * @param parser the body, or null when the request has none
     * @throws org.elasticsearch.xcontent.XContentParseException for malformed JSON, a body that is not an object, an unknown
     *         field or a value of the wrong type, with its location and the parameter's name
     * @throws IllegalArgumentException naming the offending parameter, for an invalid value
     */
    public static DuplicatesRequest parse(XContentParser parser, String... indices) throws IOException {
        if (parser == null) {
            throw new IllegalArgumentException("[field] is required: " + Params.FIELD_HINT + "; send a body such as {\"field\": "
                + "\"body.simhash\"}");
        }
        Body body = Declarations.parse(PARSER, parser, null);
        if (body.field == null) {
            throw new IllegalArgumentException("[field] is required: the fingerprint object to group by, e.g. [simhash]");
        }
        DuplicatesRequest request = new DuplicatesRequest(indices).field(body.field);
        Thresholds.checkNotBoth(body.minSimilarity, body.maxDistance);
        if (body.maxDistance != null) {
            request.maxDistance(body.maxDistance);
        }
        if (body.minSimilarity != null) {
            request.minSimilarity(body.minSimilarity);
        }
        request.query(body.query);
        if (body.from != null) {
            request.from(body.from);
        }
        if (body.size != null) {
            request.size(body.size);
        }
        if (body.maxMembers != null) {
            request.maxMembers(body.maxMembers);
        }
        if (body.read != null) {
            request.readMode(ReadMode.parse(body.read));
        }
        if (body.overwriteGroupId != null) {
            request.overwriteGroupId(body.overwriteGroupId);
        }
        // after [field], whatever the order of the keys: it must not lie inside the fingerprint object
        return request.writeGroupId(body.writeGroupId);
    }

    public DuplicatesRequest field(String field) {
        this.field = Params.required("field", field, "the fingerprint object to group by, e.g. [simhash]");
        return this;
    }

    public DuplicatesRequest maxDistance(long maxDistance) {
        this.maxDistance = Thresholds.maxDistance(maxDistance, MAX_MAX_DISTANCE);
        this.maxDistanceGiven = true;
        return this;
    }

    /** Links only candidate pairs whose sketches estimate at least this similarity, in (0, 1]. */
    public DuplicatesRequest minSimilarity(double minSimilarity) {
        this.minSimilarity = Thresholds.minSimilarity(minSimilarity);
        return this;
    }

    /** The similarity threshold given, or null. */
    public Double minSimilarity() {
        return minSimilarity;
    }

    public boolean maxDistanceGiven() {
        return maxDistanceGiven;
    }

    public DuplicatesRequest query(QueryBuilder query) {
        this.query = query;
        return this;
    }

    public DuplicatesRequest from(long from) {
        this.from = Params.checkRange("from", from, 0, Integer.MAX_VALUE);
        return this;
    }

    public DuplicatesRequest size(long size) {
        this.size = Params.checkRange("size", size, 0, MAX_SIZE);
        return this;
    }

    public DuplicatesRequest maxMembers(long maxMembers) {
        this.maxMembers = Params.checkRange("max_members", maxMembers, 0, MAX_MAX_MEMBERS);
        return this;
    }

    /** The field every matching document's group id is written to; null: write nothing. */
    public DuplicatesRequest writeGroupId(String name) {
        if (name != null) {
            Params.required("write_group_id", name, "the keyword field to write group ids into");
            if (name.startsWith("_")) {
                throw new IllegalArgumentException("[write_group_id] must not name a metadata field, got [" + SimHash.abbreviate(name) + "]");
            }
            if (field != null && (name.equals(field) || name.startsWith(field + "."))) {
                throw new IllegalArgumentException("[write_group_id] must not be inside the fingerprint object [" + field + "], got ["
                    + name + "]");
            }
        }
        this.writeGroupId = name;
        return this;
    }

    /** Whether {@code write_group_id} may replace values in the field that are not group ids (by default it refuses to). */
    public DuplicatesRequest overwriteGroupId(boolean overwrite) {
        this.overwriteGroupId = overwrite;
        return this;
    }

    public boolean overwriteGroupId() {
        return overwriteGroupId;
    }

    public DuplicatesRequest readMode(ReadMode readMode) {
        this.readMode = Objects.requireNonNull(readMode);
        return this;
    }

    public ReadMode readMode() {
        return readMode;
    }

    /** Whether the task manager stores the finished report (or its error) as a task result: {@code wait_for_completion=false}. */
    public DuplicatesRequest shouldStoreResult(boolean store) {
        this.shouldStoreResult = store;
        return this;
    }

    @Override
    public boolean getShouldStoreResult() {
        return shouldStoreResult;
    }

    public DuplicatesRequest indicesOptions(IndicesOptions indicesOptions) {
        this.indicesOptions = Objects.requireNonNull(indicesOptions);
        return this;
    }

    public String field() {
        return field;
    }

    public int maxDistance() {
        return maxDistance;
    }

    public QueryBuilder query() {
        return query;
    }

    public int from() {
        return from;
    }

    public int size() {
        return size;
    }

    public int maxMembers() {
        return maxMembers;
    }

    public String writeGroupId() {
        return writeGroupId;
    }

    @Override
    public String[] indices() {
        return indices;
    }

    @Override
    public DuplicatesRequest indices(String... indices) {
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
            e = addValidationError("[field] is required", e);
        }
        if (writeGroupId != null && field != null && (writeGroupId.equals(field) || writeGroupId.startsWith(field + "."))) {
            e = addValidationError("[write_group_id] must not be inside the fingerprint object [" + field + "]", e);
        }
        if (maxDistanceGiven && minSimilarity != null) {
            e = addValidationError(Thresholds.bothGiven().getMessage(), e);
        }
        if (overwriteGroupId && writeGroupId == null) {
            e = addValidationError("[overwrite_group_id] only applies with [write_group_id]", e);
        }
        return e;
    }

    @Override
    public Task createTask(long id, String type, String action, TaskId parentTaskId, Map<String, String> headers) {
        return new DuplicatesTask(id, type, action, getDescription(), parentTaskId, headers);
    }

    @Override
    public String getDescription() {
        // without the query: _tasks?detailed shows descriptions to monitor-only users, and a query can hold data
        String q = query == null ? "" : ", with a query";
        return "simhash duplicates indices" + Arrays.toString(indices) + ", field[" + field + "], max_distance[" + maxDistance + "]"
            + (minSimilarity == null ? "" : ", min_similarity[" + minSimilarity + "]") + q
            + (writeGroupId == null ? "" : ", write_group_id[" + writeGroupId + "]");
    }

    // the wire fields (shouldStoreResult stays on the node that received the request)
    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (o == null || getClass() != o.getClass()) {
            return false;
        }
        DuplicatesRequest that = (DuplicatesRequest) o;
        return Arrays.equals(indices, that.indices) && indicesOptions.equals(that.indicesOptions) && Objects.equals(field, that.field)
            && maxDistance == that.maxDistance && maxDistanceGiven == that.maxDistanceGiven && Objects.equals(minSimilarity,
            that.minSimilarity) && Objects.equals(query, that.query) && from == that.from && size == that.size
            && maxMembers == that.maxMembers && Objects.equals(writeGroupId, that.writeGroupId) && overwriteGroupId == that.overwriteGroupId
            && readMode == that.readMode;
    }

    @Override
    public int hashCode() {
        return Objects.hash(Arrays.hashCode(indices), indicesOptions, field, maxDistance, maxDistanceGiven, minSimilarity, query, from, size,
            maxMembers, writeGroupId, overwriteGroupId, readMode);
    }
}
