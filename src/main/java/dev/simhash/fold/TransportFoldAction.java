package dev.simhash.fold;

import dev.simhash.compat.CompatIndices;
import dev.simhash.mapper.SimHashFieldType;
import dev.simhash.request.CallerSteps;
import dev.simhash.request.FingerprintMappings;
import dev.simhash.request.FingerprintMappings.Fingerprints;
import dev.simhash.threshold.ThresholdChoice;
import dev.simhash.threshold.Verification;

import org.elasticsearch.action.ActionListener;
import org.elasticsearch.action.fieldcaps.FieldCapabilitiesResponse;
import org.elasticsearch.action.fieldcaps.TransportFieldCapabilitiesAction;
import org.elasticsearch.action.search.SearchRequest;
import org.elasticsearch.action.search.SearchResponse;
import org.elasticsearch.action.search.TransportSearchAction;
import org.elasticsearch.action.support.ActionFilters;
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
import org.elasticsearch.search.fetch.StoredFieldsContext;
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
            fold.field()), CallerSteps.step(threadPool.getThreadContext(), (FieldCapabilitiesResponse caps) -> {
                Fingerprints fingerprints = FingerprintMappings.checkFingerprint(caps, fold.field());
                FoldParams fitted = fold.fitTo(ResultWindow.smallest(indices::index, caps.getIndices(), fold.window()));
                ThresholdChoice.resolve(child, threadPool.getThreadContext(), targets, request.search().indicesOptions(), caps, fingerprints,
                    fold.field(), fitted.minSimilarityGiven() ? fitted.minSimilarity() : null, fitted.maxDistanceGiven(),
                    listener.delegateFailureAndWrap((l, verification) ->
                        search(child, request, fitted, fingerprints, verification, startNanos, l)));
            }, listener::onFailure));
    }

    private static void search(Client client, FoldRequest request, FoldParams given, Fingerprints fingerprints, Verification verification,
                               long startNanos, ActionListener<FoldResponse> listener) {
        // no max_distance: the field's version default (simhash-v2: 6, simhash-v1 and the object form: 3); with a
        // verification, its threshold and candidate radius
        FoldParams fold = verification != null ? given.withVerification(verification, given.minSimilarityGiven())
            : given.withDefaultMaxDistance(fingerprints::defaultMaxDistance);
        SearchRequest search = request.search();
        SearchSourceBuilder source = search.source();
        String hashPath = fingerprints.path();
        // the body's own docvalue_fields and fields render the field in the formats it chose: the hits keep them
        boolean hashRequested = requested(source, hashPath);
        boolean hashFetched = fetched(source, hashPath);
        boolean hitsHideIds = false;
        if (verification != null && source.storedFields() != null && !source.storedFields().fetchFields()) {
            // stored fields turned off (_none_): the hits would have no _id, which the sketches are read by. Read the
            // metadata after all (still no _source: _none_ never fetches it) and leave it out of the rendered hits
            source.storedFields((StoredFieldsContext) null);
            source.fetchSource(false);
            hitsHideIds = true;
        }
        // with a verification, the fingerprint and the sketch in one value list when the body leaves the field's fetch
        // formats to the fold (Elasticsearch renders one format per field name): one search instead of two
        boolean together = verification != null && !hashRequested && !hashFetched;
        // a body that asks for the field in the fields option gets it in its own format, which may not carry the
        // fingerprint (minhash-v1): then the fingerprints are read with the sketches, by id
        boolean fromHits = !hashFetched;
        if (together) {
            source.fetchField(new FieldAndFormat(hashPath, SimHashFieldType.FINGERPRINT_AND_SKETCH_FORMAT));
        } else if (!hashRequested && !hashFetched) {
            source.docValueField(hashPath, fingerprints.format());
        }
        search.source().size(fold.window());
        boolean keepField = hashRequested || hashFetched;
        boolean hideIds = hitsHideIds;
        client.execute(TransportSearchAction.TYPE, search, ActionListener.wrap((SearchResponse response) -> {
            if (fromHits && (verification == null || together)) {
                FoldResponse folded = fold(response, request, fold, fingerprints, keepField, hideIds, null,
                    together ? sketchesOf(response, hashPath) : null, startNanos);
                ActionListener.respondAndRelease(listener, folded);
                return;
            }
            // held until the second read is in: the fold renders this response's hits
            response.mustIncRef();
            ActionListener<ById> withRead = ActionListener.runAfter(ActionListener.wrap((ById read) -> {
                FoldResponse folded = fold(response, request, fold, fingerprints, keepField, hideIds, read.hashes(), read.sketches(),
                    startNanos);
                ActionListener.respondAndRelease(listener, folded);
            }, listener::onFailure), response::decRef);
            readById(client, search, response, fingerprints, fromHits, verification != null, withRead);
        }, listener::onFailure));
    }

    /** What the second search read, per hit: its fingerprint (null: read from the hit itself) and its sketch (null: none). */
    private record ById(Long[] hashes, byte[][] sketches) {}

    /**
     * Reads by {@code _index} and {@code _id}, in a second search with the caller's privileges, what the fold's search could
     * not read without changing what the hits show: the sketches ({@code sketches}), and the fingerprints unless
     * {@code hashesInHits} (the body asked for the field in the {@code fields} option, in a format of its own; the option
     * renders one format of a field per hit). A hit whose document is not found (deleted since) gets neither, and folds
     * with no other hit.
     */
    private static void readById(Client client, SearchRequest search, SearchResponse response, Fingerprints fingerprints,
                                 boolean hashesInHits, boolean sketches, ActionListener<ById> listener) {
        SearchHit[] hits = response.getHits().getHits();
        Map<String, List<String>> idsByIndex = new LinkedHashMap<>();
        for (SearchHit hit : hits) {
            if (hit.getId() != null && hit.getIndex() != null
                && (!hashesInHits || FingerprintMappings.fingerprintOf(hit, fingerprints) != null)) {
                idsByIndex.computeIfAbsent(hit.getIndex(), k -> new ArrayList<>()).add(hit.getId());
            }
        }
        if (idsByIndex.isEmpty()) {
            listener.onResponse(new ById(hashesInHits ? null : new Long[hits.length], sketches ? new byte[hits.length][] : null));
            return;
        }
        BoolQueryBuilder query = QueryBuilders.boolQuery().minimumShouldMatch(1);
        int wanted = 0;
        for (Map.Entry<String, List<String>> e : idsByIndex.entrySet()) {
            query.should(QueryBuilders.boolQuery().filter(QueryBuilders.termQuery("_index", e.getKey()))
                .filter(QueryBuilders.idsQuery().addIds(e.getValue().toArray(String[]::new))));
            wanted += e.getValue().size();
        }
        SearchSourceBuilder source = new SearchSourceBuilder().query(query).size(wanted).fetchSource(false).trackTotalHits(false);
        if (sketches) {
            source.fetchField(new FieldAndFormat(fingerprints.path(), hashesInHits ? Verification.SKETCH_FORMAT
                : SimHashFieldType.FINGERPRINT_AND_SKETCH_FORMAT));
        } else {
            source.docValueField(fingerprints.path(), fingerprints.format());
        }
        SearchRequest byId = new SearchRequest().indicesOptions(search.indicesOptions()).source(source);
        if (search.pointInTimeBuilder() != null) {
            source.pointInTimeBuilder(search.pointInTimeBuilder());
        } else {
            byId.indices(search.indices());
        }
        client.execute(TransportSearchAction.TYPE, byId, ActionListener.wrap((SearchResponse r) -> {
            Map<String, SearchHit> byDoc = new HashMap<>();
            for (SearchHit hit : r.getHits().getHits()) {
                byDoc.put(hit.getIndex() + '\u0000' + hit.getId(), hit);
            }
            Long[] hashes = hashesInHits ? null : new Long[hits.length];
            byte[][] out = sketches ? new byte[hits.length][] : null;
            for (int i = 0; i < hits.length; i++) {
                SearchHit found = byDoc.get(hits[i].getIndex() + '\u0000' + hits[i].getId());
                if (found == null) {
                    continue;
                }
                if (hashes != null) {
                    hashes[i] = FingerprintMappings.fingerprintOf(found, fingerprints);
                }
                if (out != null) {
                    out[i] = FingerprintMappings.sketchOf(found, fingerprints.path());
                }
            }
            listener.onResponse(new ById(hashes, out));
        }, listener::onFailure));
    }

    private static byte[][] sketchesOf(SearchResponse response, String field) {
        SearchHit[] hits = response.getHits().getHits();
        byte[][] out = new byte[hits.length][];
        for (int i = 0; i < hits.length; i++) {
            out[i] = FingerprintMappings.sketchOf(hits[i], field);
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
                             boolean keepField, boolean hideIds, Long[] readHashes, byte[][] sketches, long startNanos) {
        SearchHit[] hits = response.getHits().getHits();
        long[] hashes = new long[hits.length];
        boolean[] hasHash = new boolean[hits.length];
        for (int i = 0; i < hits.length; i++) {
            Long h = readHashes != null ? readHashes[i] : FingerprintMappings.fingerprintOf(hits[i], fingerprints);
            hasHash[i] = h != null;
            hashes[i] = h == null ? 0 : h;
        }
        Verification verification = sketches == null ? null : fold.verification();
        GreedyFolding.Verifier verifier = verification == null ? null : (i, rep) ->
            sketches[i] != null && sketches[rep] != null && verification.linked(sketches[i], 0, sketches[rep], 0)
                ? Verification.similarity(sketches[i], 0, sketches[rep], 0) : Double.NaN;
        GreedyFolding folding;
        if (verification != null && verification.byBands()) {
            // candidates share a band value, whatever the fingerprints' distance (a hit without a fingerprint has none)
            folding = GreedyFolding.foldBySketchBands(hashes, hasHash, sketches, verifier);
        } else {
            folding = GreedyFolding.fold(hashes, hasHash, fold.maxDistance(), verifier);
        }
        int[] reps = folding.representatives();
        List<FoldResponse.Representative> page = new ArrayList<>();
        int end = (int) Math.min(reps.length, (long) request.from() + request.size());
        for (int p = request.from(); p < end; p++) {
            int rep = reps[p];
            if (!keepField && hits[rep].field(fingerprints.path()) != null) {
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
        return new FoldResponse(response, fold, (System.nanoTime() - startNanos) / 1_000_000, reps.length, page, hideIds);
    }
}
