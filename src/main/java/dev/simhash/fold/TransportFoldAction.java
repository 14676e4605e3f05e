package dev.simhash.fold;

import dev.simhash.compat.CompatIndices;
import dev.simhash.mapper.SimHashFieldType;
import dev.simhash.neardup.FingerprintMappings;
import dev.simhash.neardup.FingerprintMappings.Fingerprints;
import dev.simhash.neardup.ThresholdChoice;
import dev.simhash.neardup.Verification;

import org.elasticsearch.action.ActionListener;
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
import org.elasticsearch.cluster.service.ClusterService;
import org.elasticsearch.common.util.concurrent.EsExecutors;
import org.elasticsearch.injection.guice.Inject;
import org.elasticsearch.index.query.BoolQueryBuilder;
import org.elasticsearch.index.query.QueryBuilders;
import org.elasticsearch.search.SearchHit;
import org.elasticsearch.search.builder.SearchSourceBuilder;
import org.elasticsearch.search.fetch.subphase.FieldAndFormat;
import org.elasticsearch.tasks.Task;
import org.elasticsearch.threadpool.ThreadPool;
import org.elasticsearch.transport.TransportService;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Runs the fold: checks the fingerprint field's mapping in the target indices (field capabilities), searches the first
 * {@code window} hits with the fingerprint as a doc-value field, and folds them greedily by rank on this node. Both
 * inner requests are children of the fold's task (cancelled with it) and run in the caller's thread context, so with the
 * caller's privileges.
 */
public final class TransportFoldAction extends HandledTransportAction<FoldRequest, FoldResponse> {

    private final NodeClient client;
    private final ClusterService clusterService;
    private final ThreadPool threadPool;
    private final CompatIndices indices;

    @Inject
    public TransportFoldAction(TransportService transportService, ActionFilters actionFilters, NodeClient client,
                               ClusterService clusterService, ThreadPool threadPool, CompatIndices indices) {
        super(FoldAction.NAME, transportService, actionFilters, FoldRequest::new, EsExecutors.DIRECT_EXECUTOR_SERVICE);
        this.client = client;
        this.clusterService = clusterService;
        this.threadPool = threadPool;
        this.indices = indices;
    }

    @Override
    protected void doExecute(Task task, FoldRequest request, ActionListener<FoldResponse> given) {
        ActionListener<FoldResponse> listener = ActionListener.notifyOnce(given);
        long startNanos = System.nanoTime();
        Client child = new ParentTaskAssigningClient(client, clusterService.localNode(), task);
        FoldParams fold = request.fold();
        String[] targets = FoldRequest.targetIndices(request.search());
        if (targets == null) {
            // a point in time whose id cannot be read here: the search itself reports what is wrong with it
            search(child, request, fold, Fingerprints.of(fold.field(), false, Set.of()), null, startNanos, listener);
            return;
        }
        // the search is sent from the field-caps callback: restore the caller's context there, so it runs as the caller
        child.execute(TransportFieldCapabilitiesAction.TYPE, FingerprintMappings.request(targets, request.search().indicesOptions(),
            fold.field()), ContextPreservingActionListener.wrapPreservingContext(ActionListener.wrap((FieldCapabilitiesResponse caps) -> {
                Fingerprints fingerprints = FingerprintMappings.checkFingerprint(caps, fold.field());
                FoldParams fitted = fold.fitTo(ResultWindow.smallest(indices::index, caps.getIndices(), fold.window()));
                ThresholdChoice.resolve(child, threadPool.getThreadContext(), targets, request.search().indicesOptions(), caps, fingerprints,
                    fold.field(), fitted.minSimilarityGiven() ? fitted.minSimilarity() : null, fitted.maxDistanceGiven(),
                    listener.delegateFailureAndWrap((l, verification) ->
                        search(child, request, fitted, fingerprints, verification, startNanos, l)));
            }, listener::onFailure), threadPool.getThreadContext()));
    }

    private static void search(Client client, FoldRequest request, FoldParams given, Fingerprints fingerprints, Verification verification,
                               long startNanos, ActionListener<FoldResponse> listener) {
        // no max_distance: the field's version default (simhash-v2: 6, simhash-v1 and the object form: 3); with a
        // verification, its threshold and candidate radius
        FoldParams fold = verification != null ? given.withVerification(verification, given.minSimilarityGiven())
            : given.withDefaultMaxDistance(fingerprints::defaultMaxDistance);
        SearchRequest search = request.search();
        String hashPath = fingerprints.path();
        boolean hashRequested = requested(search.source(), hashPath);
        // with a verification, the fingerprint and the sketch in one value list when the body leaves the field's fetch
        // formats to the fold (Elasticsearch renders one format per field name): one search instead of two
        boolean together = verification != null && !hashRequested && !fetched(search.source(), hashPath)
            && (search.source().storedFields() == null || search.source().storedFields().fetchFields());
        if (together) {
            search.source().fetchField(new FieldAndFormat(hashPath, SimHashFieldType.FINGERPRINT_AND_SKETCH_FORMAT));
        } else if (!hashRequested) {
            search.source().docValueField(hashPath, fingerprints.format());
        }
        search.source().size(fold.window());
        client.execute(TransportSearchAction.TYPE, search, ActionListener.wrap((SearchResponse response) -> {
            if (verification == null || together) {
                FoldResponse folded = fold(response, request, fold, fingerprints, hashRequested,
                    together ? sketchesOf(response, hashPath) : null, startNanos);
                ActionListener.respondAndRelease(listener, folded);
                return;
            }
            // held until the sketches are in: the fold renders this response's hits
            response.mustIncRef();
            ActionListener<byte[][]> withSketches = ActionListener.runAfter(ActionListener.wrap((byte[][] sketches) -> {
                FoldResponse folded = fold(response, request, fold, fingerprints, hashRequested, sketches, startNanos);
                ActionListener.respondAndRelease(listener, folded);
            }, listener::onFailure), response::decRef);
            fetchSketches(client, search, response, fingerprints, withSketches);
        }, listener::onFailure));
    }

    /**
     * Reads the sketches of the hits that have a fingerprint, by {@code _index} and {@code _id}, in a second search with the
     * caller's privileges (the {@code fields} option renders one format of a field per hit, and the fold's search already
     * reads the fingerprint in it). A hit whose sketch is not found (deleted since) gets none, and folds with no other hit.
     */
    private static void fetchSketches(Client client, SearchRequest search, SearchResponse response, Fingerprints fingerprints,
                                      ActionListener<byte[][]> listener) {
        SearchHit[] hits = response.getHits().getHits();
        Map<String, List<String>> idsByIndex = new LinkedHashMap<>();
        for (SearchHit hit : hits) {
            if (hit.getId() != null && hit.getIndex() != null && FingerprintMappings.fingerprintOf(hit, fingerprints) != null) {
                idsByIndex.computeIfAbsent(hit.getIndex(), k -> new ArrayList<>()).add(hit.getId());
            }
        }
        if (idsByIndex.isEmpty()) {
            listener.onResponse(new byte[hits.length][]);
            return;
        }
        BoolQueryBuilder query = QueryBuilders.boolQuery().minimumShouldMatch(1);
        int wanted = 0;
        for (Map.Entry<String, List<String>> e : idsByIndex.entrySet()) {
            query.should(QueryBuilders.boolQuery().filter(QueryBuilders.termQuery("_index", e.getKey()))
                .filter(QueryBuilders.idsQuery().addIds(e.getValue().toArray(String[]::new))));
            wanted += e.getValue().size();
        }
        SearchSourceBuilder source = new SearchSourceBuilder().query(query).size(wanted).fetchSource(false).trackTotalHits(false)
            .fetchField(new FieldAndFormat(fingerprints.path(), Verification.SKETCH_FORMAT));
        SearchRequest sketches = new SearchRequest().indicesOptions(search.indicesOptions()).source(source);
        if (search.pointInTimeBuilder() != null) {
            source.pointInTimeBuilder(search.pointInTimeBuilder());
        } else {
            sketches.indices(search.indices());
        }
        client.execute(TransportSearchAction.TYPE, sketches, ActionListener.wrap((SearchResponse r) -> {
            Map<String, byte[]> byDoc = new HashMap<>();
            for (SearchHit hit : r.getHits().getHits()) {
                byte[] sketch = Verification.sketchOf(hit, fingerprints.path());
                if (sketch != null) {
                    byDoc.put(hit.getIndex() + '\u0000' + hit.getId(), sketch);
                }
            }
            byte[][] out = new byte[hits.length][];
            for (int i = 0; i < hits.length; i++) {
                out[i] = byDoc.get(hits[i].getIndex() + '\u0000' + hits[i].getId());
            }
            listener.onResponse(out);
        }, listener::onFailure));
    }

    private static byte[][] sketchesOf(SearchResponse response, String field) {
        SearchHit[] hits = response.getHits().getHits();
        byte[][] out = new byte[hits.length][];
        for (int i = 0; i < hits.length; i++) {
            out[i] = Verification.sketchOf(hits[i], field);
        }
        return out;
    }

    /** Whether the body's {@code fields} option names the field itself. */
    private static boolean fetched(SearchSourceBuilder source, String field) {
        if (source.fetchFields() != null) {
            for (FieldAndFormat f : source.fetchFields()) {
                if (f.field.equals(field)) {
                    return true;
                }
            }
        }
        return false;
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

    /** Folds the ranked hits greedily and keeps the requested page of representatives. */
    static FoldResponse fold(SearchResponse response, FoldRequest request, FoldParams fold, Fingerprints fingerprints,
                             boolean hashRequested, byte[][] sketches, long startNanos) {
        SearchHit[] hits = response.getHits().getHits();
        long[] hashes = new long[hits.length];
        boolean[] hasHash = new boolean[hits.length];
        for (int i = 0; i < hits.length; i++) {
            Long h = FingerprintMappings.fingerprintOf(hits[i], fingerprints);
            hasHash[i] = h != null;
            hashes[i] = h == null ? 0 : h;
        }
        Verification verification = sketches == null ? null : fold.verification();
        GreedyFolding folding = GreedyFolding.fold(hashes, hasHash, fold.maxDistance(), verification == null ? null : (i, rep) ->
            sketches[i] != null && sketches[rep] != null && verification.linked(sketches[i], 0, sketches[rep], 0)
                ? Verification.similarity(sketches[i], 0, sketches[rep], 0) : Double.NaN);
        int[] reps = folding.representatives();
        List<FoldResponse.Representative> page = new ArrayList<>();
        int end = (int) Math.min(reps.length, (long) request.from() + request.size());
        for (int p = request.from(); p < end; p++) {
            int rep = reps[p];
            if (!hashRequested && hits[rep].field(fingerprints.path()) != null) {
                // read for folding only: the hit shows the fields the body asked for. Only when present: a hit without
                // fields (a document of an index that does not map the field) has an immutable empty map
                hits[rep].removeDocumentField(fingerprints.path());
            }
            List<FoldResponse.Member> members = null;
            if (fold.members() > 0) {
                members = new ArrayList<>();
                for (int i = rep + 1; i < hits.length && members.size() < fold.members(); i++) {
                    if (folding.representativeOf(i) == rep) {
                        members.add(new FoldResponse.Member(i, folding.distance(i), verification == null ? null : folding.similarity(i)));
                    }
                }
            }
            page.add(new FoldResponse.Representative(rep, hasHash[rep] ? hashes[rep] : null, folding.foldedInto(rep), members));
        }
        return new FoldResponse(response, fold, (System.nanoTime() - startNanos) / 1_000_000, reps.length, page);
    }
}
