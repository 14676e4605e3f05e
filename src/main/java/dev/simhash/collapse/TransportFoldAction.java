package dev.simhash.collapse;

import dev.simhash.collapse.FingerprintMappings.Fingerprints;
import dev.simhash.compat.CompatIndices;

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
import org.elasticsearch.search.SearchHit;
import org.elasticsearch.search.builder.SearchSourceBuilder;
import org.elasticsearch.search.fetch.subphase.FieldAndFormat;
import org.elasticsearch.tasks.Task;
import org.elasticsearch.threadpool.ThreadPool;
import org.elasticsearch.transport.TransportService;

import java.util.ArrayList;
import java.util.List;
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
    protected void doExecute(Task task, FoldRequest request, ActionListener<FoldResponse> listener) {
        long startNanos = System.nanoTime();
        Client child = new ParentTaskAssigningClient(client, clusterService.localNode(), task);
        FoldParams fold = request.fold();
        String[] targets = FoldRequest.targetIndices(request.search());
        if (targets == null) {
            // a point in time whose id cannot be read here: the search itself reports what is wrong with it
            search(child, request, fold, Fingerprints.of(fold.field(), false, Set.of()), startNanos, listener);
            return;
        }
        // the search is sent from the field-caps callback: restore the caller's context there, so it runs as the caller
        child.execute(TransportFieldCapabilitiesAction.TYPE, FingerprintMappings.request(targets, request.search().indicesOptions(),
            fold.field()), ContextPreservingActionListener.wrapPreservingContext(ActionListener.wrap((FieldCapabilitiesResponse caps) -> {
                Fingerprints fingerprints = FingerprintMappings.checkFingerprint(caps, fold.field());
                FoldParams fitted = fold.fitTo(ResultWindow.smallest(indices::index, caps.getIndices(), fold.window()));
                search(child, request, fitted, fingerprints, startNanos, listener);
            }, listener::onFailure), threadPool.getThreadContext()));
    }

    private static void search(Client client, FoldRequest request, FoldParams given, Fingerprints fingerprints, long startNanos,
                               ActionListener<FoldResponse> listener) {
        // no max_distance: the field's version default (simhash-v2: 6, simhash-v1 and the object form: 3)
        FoldParams fold = given.withDefaultMaxDistance(fingerprints::defaultMaxDistance);
        SearchRequest search = request.search();
        String hashPath = fingerprints.path();
        boolean hashRequested = requested(search.source(), hashPath);
        if (!hashRequested) {
            search.source().docValueField(hashPath, fingerprints.format());
        }
        search.source().size(fold.window());
        client.execute(TransportSearchAction.TYPE, search, ActionListener.wrap((SearchResponse response) -> {
            FoldResponse folded = fold(response, request, fold, fingerprints, hashRequested, startNanos);
            ActionListener.respondAndRelease(listener, folded);
        }, listener::onFailure));
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
                             boolean hashRequested, long startNanos) {
        SearchHit[] hits = response.getHits().getHits();
        long[] hashes = new long[hits.length];
        boolean[] hasHash = new boolean[hits.length];
        for (int i = 0; i < hits.length; i++) {
            Long h = FingerprintMappings.fingerprintOf(hits[i], fingerprints);
            hasHash[i] = h != null;
            hashes[i] = h == null ? 0 : h;
        }
        GreedyFolding folding = GreedyFolding.fold(hashes, hasHash, fold.maxDistance());
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
                        members.add(new FoldResponse.Member(i, folding.distance(i)));
                    }
                }
            }
            page.add(new FoldResponse.Representative(rep, hasHash[rep] ? hashes[rep] : null, folding.foldedInto(rep), members));
        }
        return new FoldResponse(response, fold, (System.nanoTime() - startNanos) / 1_000_000, reps.length, page);
    }
}
