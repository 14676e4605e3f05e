package dev.simhash.collapse;

import dev.simhash.collapse.FingerprintMappings.Fingerprints;
import dev.simhash.compat.lucene.CompatHits;
import dev.simhash.core.SimHash;

import org.apache.lucene.search.TotalHits;
import org.elasticsearch.action.ActionRequestValidationException;
import org.elasticsearch.action.fieldcaps.FieldCapabilitiesResponse;
import org.elasticsearch.action.fieldcaps.TransportFieldCapabilitiesAction;
import org.elasticsearch.action.search.SearchContextId;
import org.elasticsearch.action.search.SearchRequest;
import org.elasticsearch.action.search.SearchResponse;
import org.elasticsearch.action.search.TransportSearchAction;
import org.elasticsearch.action.support.ContextPreservingActionListener;
import org.elasticsearch.client.internal.node.NodeClient;
import org.elasticsearch.cluster.metadata.IndexMetadata;
import org.elasticsearch.common.bytes.BytesReference;
import org.elasticsearch.features.NodeFeature;
import org.elasticsearch.rest.BaseRestHandler;
import org.elasticsearch.rest.RestChannel;
import org.elasticsearch.rest.RestRequest;
import org.elasticsearch.rest.RestResponse;
import org.elasticsearch.rest.RestStatus;
import org.elasticsearch.rest.action.RestActionListener;
import org.elasticsearch.rest.action.RestActions;
import org.elasticsearch.rest.action.RestCancellableNodeClient;
import org.elasticsearch.rest.action.search.RestSearchAction;
import org.elasticsearch.search.SearchHit;
import org.elasticsearch.search.SearchHits;
import org.elasticsearch.search.builder.PointInTimeBuilder;
import org.elasticsearch.search.builder.SearchSourceBuilder;
import org.elasticsearch.search.fetch.subphase.FieldAndFormat;
import org.elasticsearch.xcontent.XContentBuilder;

import java.io.IOException;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

import static org.elasticsearch.rest.RestRequest.Method.GET;
import static org.elasticsearch.rest.RestRequest.Method.POST;

/**
 * {@code GET|POST /{index}/_simhash/fold}: runs an ordinary search for the first {@code window}
 * hits and folds near-duplicates greedily by rank on the coordinating node, returning a page of
 * representatives shaped like a search response.
 */
public final class RestFoldAction extends BaseRestHandler {

    public static final int DEFAULT_MAX_DISTANCE = SimHash.DEFAULT_MAX_DISTANCE;
    public static final int DEFAULT_WINDOW = 100;
    public static final int MAX_WINDOW = 10_000;
    public static final int DEFAULT_MEMBERS = 0;
    public static final int MAX_MEMBERS = 100;

    private static final int DEFAULT_SIZE = 10;
    private static final String ENDPOINT = "[_simhash/fold]";

    private final Predicate<NodeFeature> clusterSupportsFeature;
    private final Function<String, IndexMetadata> indices;

    /**
     * @param project the metadata of the caller's project, read when a request runs (for the indices'
     *                {@code index.max_result_window})
     */
    public RestFoldAction(Predicate<NodeFeature> clusterSupportsFeature, Function<String, IndexMetadata> indices) {
        this.clusterSupportsFeature = clusterSupportsFeature;
        this.indices = indices;
    }

    /** The fold parameters, validated; {@code windowGiven} tells an explicit {@code window} from the default. */
    record FoldParams(String field, int maxDistance, int window, boolean windowGiven, int members) {
        static FoldParams from(RestRequest request) {
            String field = Params.required("field", request.param("field"), "the fingerprint object to fold on, e.g. [simhash]");
            int maxDistance = Params.intParam("max_distance", request.param("max_distance"), DEFAULT_MAX_DISTANCE, 0, SimHash.BITS);
            int window = Params.intParam("window", request.param("window"), DEFAULT_WINDOW, 1, MAX_WINDOW);
            int members = Params.intParam("members", request.param("members"), DEFAULT_MEMBERS, 0, MAX_MEMBERS);
            return new FoldParams(field, maxDistance, window, request.hasParam("window"), members);
        }

        /**
         * The window the inner search can serve, given the smallest {@code index.max_result_window} of its indices: the
         * default shrinks to it; an explicit window above it is the caller's error, as {@code from + size} is in _search.
         */
        FoldParams fitTo(ResultWindow limit) {
            if (window <= limit.size()) {
                return this;
            }
            if (windowGiven) {
                throw new IllegalArgumentException(String.format(Locale.ROOT, "[window] must be at most [%d], the "
                    + "[index.max_result_window] of index [%s], got [%d]: the fold searches the first [window] hits; lower [window] "
                    + "or raise the index setting", limit.size(), limit.index(), window));
            }
            return new FoldParams(field, maxDistance, limit.size(), false, members);
        }
    }

    @Override
    public String getName() {
        return "simhash_fold_action";
    }

    @Override
    public List<Route> routes() {
        return List.of(
            new Route(GET, "/_simhash/fold"),
            new Route(POST, "/_simhash/fold"),
            new Route(GET, "/{index}/_simhash/fold"),
            new Route(POST, "/{index}/_simhash/fold"));
    }

    @Override
    protected Set<String> responseParams() {
        return Set.of(RestSearchAction.INCLUDE_NAMED_QUERIES_SCORE_PARAM);
    }

    @Override
    protected RestChannelConsumer prepareRequest(RestRequest request, NodeClient client) throws IOException {
        FoldParams fold = FoldParams.from(request);
        SearchRequest search = new SearchRequest();
        // the body and the URL parameters of _search (q, sort, routing, preference, ...) mean exactly what they mean there
        request.withContentOrSourceParamParserOrNull(parser -> RestSearchAction.parseSearchRequest(
            search, request, parser, clusterSupportsFeature, size -> search.source().size(size)));
        SearchSourceBuilder source = search.source();
        rejectUnsupported(search, source);
        ActionRequestValidationException invalid = search.validate();
        if (invalid != null) {
            // e.g. indices together with a point in time: report it before checking mappings of the wrong indices
            throw invalid;
        }
        int from = Math.max(source.from(), 0);
        int size = source.size() < 0 ? DEFAULT_SIZE : source.size();
        source.from(0);
        String[] targets = targetIndices(search);
        long startNanos = System.nanoTime();
        return channel -> {
            RestCancellableNodeClient cancellable = new RestCancellableNodeClient(client, request.getHttpChannel());
            if (targets == null) {
                // a point in time whose id cannot be read here: the search itself reports what is wrong with it
                search(channel, cancellable, search, fold, from, size, Fingerprints.of(fold.field(), false, java.util.Set.of()), startNanos);
                return;
            }
            // the search is sent from the field-caps callback: restore the caller's context there, so it runs as the caller
            cancellable.execute(TransportFieldCapabilitiesAction.TYPE,
                FingerprintMappings.request(targets, search.indicesOptions(), fold.field()),
                ContextPreservingActionListener.wrapPreservingContext(new RestActionListener<FieldCapabilitiesResponse>(channel) {
                    @Override
                    protected void processResponse(FieldCapabilitiesResponse caps) {
                        Fingerprints fingerprints = FingerprintMappings.checkFingerprint(caps, fold.field());
                        FoldParams fitted = fold.fitTo(ResultWindow.smallest(indices, caps.getIndices(), fold.window()));
                        search(channel, cancellable, search, fitted, from, size, fingerprints, startNanos);
                    }
                }, client.threadPool().getThreadContext()));
        };
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

    private static void search(RestChannel channel, RestCancellableNodeClient client, SearchRequest search, FoldParams fold, int from,
                               int size, Fingerprints fingerprints, long startNanos) {
        String hashPath = fingerprints.path();
        boolean hashRequested = requested(search.source(), hashPath);
        if (!hashRequested) {
            search.source().docValueField(hashPath, fingerprints.format());
        }
        search.source().size(fold.window());
        client.execute(TransportSearchAction.TYPE, search, new RestActionListener<>(channel) {
            @Override
            protected void processResponse(SearchResponse response) throws IOException {
                channel.sendResponse(new RestResponse(RestStatus.OK,
                    render(channel, response, fold, from, size, fingerprints, hashRequested, startNanos)));
            }
        });
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
        if (source.slice() != null) {
            throw new IllegalArgumentException("[slice] is not supported by " + ENDPOINT + ": folding needs the globally ranked hits");
        }
    }

    private static boolean requested(SearchSourceBuilder source, String field) {
        if (source.docValueFields() != null) {
            for (FieldAndFormat f : source.docValueFields()) {
                if (f.field.equals(field)) {
                    return true;
                }
            }
        }
        return false;
    }

    static XContentBuilder render(RestChannel channel, SearchResponse response, FoldParams fold, int from, int size,
                                  Fingerprints fingerprints, boolean hashRequested, long startNanos) throws IOException {
        String hashPath = fingerprints.path();
        SearchHits searchHits = response.getHits();
        SearchHit[] hits = searchHits.getHits();
        long[] hashes = new long[hits.length];
        boolean[] hasHash = new boolean[hits.length];
        for (int i = 0; i < hits.length; i++) {
            Long h = FingerprintMappings.fingerprintOf(hits[i], fingerprints);
            hasHash[i] = h != null;
            hashes[i] = h == null ? 0 : h;
        }
        GreedyFolding folding = GreedyFolding.fold(hashes, hasHash, fold.maxDistance());
        int[] reps = folding.representatives();

        XContentBuilder b = channel.newBuilder();
        RestRequest params = channel.request();
        b.startObject();
        b.field("took", (System.nanoTime() - startNanos) / 1_000_000);
        b.field("timed_out", response.isTimedOut());
        if (response.isTerminatedEarly() != null) {
            b.field("terminated_early", response.isTerminatedEarly());
        }
        if (response.pointInTimeId() != null) {
            b.field("pit_id", Base64.getUrlEncoder().encodeToString(BytesReference.toBytes(response.pointInTimeId())));
        }
        RestActions.buildBroadcastShardsHeader(b, params, response.getTotalShards(), response.getSuccessfulShards(),
            response.getSkippedShards(), response.getFailedShards(), response.getShardFailures());
        b.startObject("hits");
        TotalHits total = searchHits.getTotalHits();
        if (total != null) {
            b.startObject("total");
            b.field("value", CompatHits.value(total));
            b.field("relation", CompatHits.exact(total) ? "eq" : "gte");
            b.endObject();
        }
        if (Float.isNaN(searchHits.getMaxScore())) {
            b.nullField("max_score");
        } else {
            b.field("max_score", searchHits.getMaxScore());
        }
        b.startArray("hits");
        int end = (int) Math.min(reps.length, (long) from + size);
        for (int p = from; p < end; p++) {
            int rep = reps[p];
            SearchHit hit = hits[rep];
            if (!hashRequested) {
                hit.removeDocumentField(hashPath);
            }
            b.startObject();
            hit.toInnerXContent(b, params);
            b.startObject("_simhash");
            if (hasHash[rep]) {
                b.field("hash", SimHash.toHex(hashes[rep]));
            }
            b.field("folded", folding.foldedInto(rep));
            if (fold.members() > 0) {
                b.startArray("members");
                int listed = 0;
                for (int i = rep + 1; i < hits.length && listed < fold.members(); i++) {
                    if (folding.representativeOf(i) == rep) {
                        b.startObject();
                        b.field("_index", hits[i].getIndex());
                        b.field("_id", hits[i].getId());
                        if (Float.isNaN(hits[i].getScore())) {
                            b.nullField("_score");
                        } else {
                            b.field("_score", hits[i].getScore());
                        }
                        b.field("distance", folding.distance(i));
                        b.endObject();
                        listed++;
                    }
                }
                b.endArray();
            }
            b.endObject();
            b.endObject();
        }
        b.endArray();
        b.endObject();
        b.startObject("simhash_fold");
        b.field("field", fold.field());
        b.field("max_distance", fold.maxDistance());
        b.field("window", fold.window());
        b.field("considered", hits.length);
        b.field("groups", reps.length);
        b.endObject();
        b.endObject();
        return b;
    }
}
