package dev.simhash.fold;

import dev.simhash.request.SketchFormatFilter;
import dev.simhash.wire.WireEnvelope;

import org.elasticsearch.action.ActionRequest;
import org.elasticsearch.action.ActionRequestValidationException;
import org.elasticsearch.action.IndicesRequest;
import org.elasticsearch.action.search.SearchContextId;
import org.elasticsearch.action.search.SearchRequest;
import org.elasticsearch.action.support.IndicesOptions;
import org.elasticsearch.common.Strings;
import org.elasticsearch.common.io.stream.StreamInput;
import org.elasticsearch.common.io.stream.StreamOutput;
import org.elasticsearch.features.NodeFeature;
import org.elasticsearch.rest.RestRequest;
import org.elasticsearch.rest.action.search.RestSearchAction;
import org.elasticsearch.search.builder.PointInTimeBuilder;
import org.elasticsearch.search.builder.SearchSourceBuilder;
import org.elasticsearch.tasks.CancellableTask;
import org.elasticsearch.tasks.Task;
import org.elasticsearch.tasks.TaskId;

import java.io.IOException;
import java.util.Arrays;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * The fold request: an ordinary search, the fold parameters, and the page ({@code from}, {@code size}) of the folded
 * list to return. An {@link IndicesRequest} so that security authorizes it like a search, against the indices the search
 * reads (with a point in time, those of the point in time); its inner field-capabilities request and search are then
 * authorized again, each on its own, with the caller's privileges.
 */
public final class FoldRequest extends ActionRequest implements IndicesRequest.Replaceable {

    static final int DEFAULT_SIZE = 10;
    private static final String ENDPOINT = "[_simhash/fold]";

    private final SearchRequest search;
    private final FoldParams fold;
    private final int from;
    private final int size;
    /** What security authorizes the fold against (it may replace wildcards); the inner requests use the search's own. */
    private String[] indices;

    /**
     * @param search the search whose first {@code window} hits are folded; its {@code from} and {@code size} select the
     *               page of the folded list (then the search itself asks for {@code from: 0})
     */
    FoldRequest(SearchRequest search, FoldParams fold) {
        this.search = Objects.requireNonNull(search);
        this.fold = Objects.requireNonNull(fold);
        SearchSourceBuilder source = search.source() == null ? new SearchSourceBuilder() : search.source();
        search.source(source);
        rejectUnsupported(search, source);
        this.from = Math.max(source.from(), 0);
        this.size = source.size() < 0 ? DEFAULT_SIZE : source.size();
        source.from(0);
        String[] targets = targetIndices(search);
        this.indices = targets == null ? Strings.EMPTY_ARRAY : targets.clone();
    }

    public FoldRequest(StreamInput in) throws IOException {
        super(in);
        StreamInput body = WireEnvelope.read(in).in();
        search = new SearchRequest(body);
        fold = FoldParams.readFrom(body);
        from = body.readVInt();
        size = body.readVInt();
        indices = body.readStringArray();
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        super.writeTo(out);
        WireEnvelope.write(out, body -> {
            search.writeTo(body);
            fold.writeTo(body);
            body.writeVInt(from);
            body.writeVInt(size);
            body.writeStringArray(indices);
        });
    }

    /**
     * Reads a REST request: the fold parameters from the URL ({@code field}, {@code max_distance}, {@code window},
     * {@code members}), and the body and the other URL parameters exactly as {@code _search} reads them (its own parser:
     * malformed JSON and unknown keys are parse errors with their location).
     *
     * @throws IllegalArgumentException naming the offending parameter
     */
    public static FoldRequest parse(RestRequest request, Predicate<NodeFeature> clusterSupportsFeature) throws IOException {
        FoldParams fold = FoldParams.from(request);
        SearchRequest search = new SearchRequest();
        request.withContentOrSourceParamParserOrNull(parser -> RestSearchAction.parseSearchRequest(
            search, request, parser, clusterSupportsFeature, size -> search.source().size(size)));
        return new FoldRequest(search, fold);
    }

    private static void rejectUnsupported(SearchRequest search, SearchSourceBuilder source) {
        if (search.scroll() != null) {
            throw new IllegalArgumentException("[scroll] is not supported by " + ENDPOINT
                + ": it folds the first [window] hits at once; page through the folded list with [from] and [size]");
        }
        if (source.searchAfter() != null) {
            throw new IllegalArgumentException("[search_after] is not supported by " + ENDPOINT
                + ": page through the folded list with [from] and [size]");
        }
        if (source.aggregations() != null) {
            throw new IllegalArgumentException("[aggs] is not supported by " + ENDPOINT + ": run aggregations with _search");
        }
        if (source.suggest() != null) {
            throw new IllegalArgumentException("[suggest] is not supported by " + ENDPOINT + ": run suggesters with _search");
        }
        if (source.profile()) {
            throw new IllegalArgumentException("[profile] is not supported by " + ENDPOINT + ": profile the query with _search");
        }
        IllegalArgumentException sketchFormat = SketchFormatFilter.check(source);
        if (sketchFormat != null) {
            throw sketchFormat;
        }
        if (source.slice() != null) {
            throw new IllegalArgumentException("[slice] is not supported by " + ENDPOINT + ": folding needs the globally ranked hits");
        }
    }

    /**
     * The indices the search reads, for the mapping check: with a point in time its own indices (decoded from its id;
     * the request names none, and checking every index of the cluster would reject a fold because of unrelated
     * indices), otherwise the request's. Null when a point-in-time id cannot be decoded.
     */
    static String[] targetIndices(SearchRequest search) {
        PointInTimeBuilder pit = search.pointInTimeBuilder();
        if (pit == null) {
            return search.indices();
        }
        try {
            String[] indices = SearchContextId.decodeIndices(pit.getEncodedId());
            return indices.length == 0 ? null : indices;
        } catch (RuntimeException e) {
            return null;
        }
    }

    @Override
    public String[] indices() {
        return indices;
    }

    @Override
    public FoldRequest indices(String... indices) {
        this.indices = Objects.requireNonNull(indices);
        return this;
    }

    @Override
    public IndicesOptions indicesOptions() {
        return search.indicesOptions();
    }

    /** As for a search: remote clusters' indices are authorized there, data streams can be searched. */
    @Override
    public boolean allowsRemoteIndices() {
        return true;
    }

    @Override
    public boolean includeDataStreams() {
        return true;
    }

    /** The inner search (asking for {@code from: 0}; the action sets its size to the window). */
    public SearchRequest search() {
        return search;
    }

    FoldParams fold() {
        return fold;
    }

    /** The first representative of the folded list to return. */
    public int from() {
        return from;
    }

    /** How many representatives to return. */
    public int size() {
        return size;
    }

    @Override
    public ActionRequestValidationException validate() {
        // e.g. indices together with a point in time: reported before the mapping check looks at the wrong indices
        return search.validate();
    }

    @Override
    public Task createTask(long id, String type, String action, TaskId parentTaskId, Map<String, String> headers) {
        return new CancellableTask(id, type, action, getDescription(), parentTaskId, headers);
    }

    @Override
    public String getDescription() {
        return "simhash fold field[" + fold.field() + "], max_distance[" + fold.maxDistance() + "], "
            + (fold.minSimilarity() == null ? "" : "min_similarity[" + fold.minSimilarity() + "], ") + "window[" + fold.window() + "], "
            + search.getDescription();
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (o instanceof FoldRequest that) {
            return search.equals(that.search) && fold.equals(that.fold) && from == that.from && size == that.size
                && Arrays.equals(indices, that.indices);
        }
        return false;
    }

    @Override
    public int hashCode() {
        return Objects.hash(search, fold, from, size, Arrays.hashCode(indices));
    }
}
