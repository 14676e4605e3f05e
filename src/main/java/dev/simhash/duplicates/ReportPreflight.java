package dev.simhash.duplicates;

import dev.simhash.compat.CompatIndices;
import dev.simhash.compat.lucene.CompatHits;
import dev.simhash.request.FingerprintMappings;
import dev.simhash.threshold.ThresholdChoice;
import dev.simhash.threshold.Thresholds;
import dev.simhash.threshold.Verification;

import org.elasticsearch.ExceptionsHelper;
import org.elasticsearch.action.ActionListener;
import org.elasticsearch.action.bulk.BulkItemResponse;
import org.elasticsearch.action.bulk.BulkRequest;
import org.elasticsearch.action.bulk.BulkResponse;
import org.elasticsearch.action.bulk.TransportBulkAction;
import org.elasticsearch.action.fieldcaps.FieldCapabilitiesResponse;
import org.elasticsearch.action.fieldcaps.TransportFieldCapabilitiesAction;
import org.elasticsearch.action.search.SearchRequest;
import org.elasticsearch.action.search.SearchResponse;
import org.elasticsearch.action.search.TransportSearchAction;
import org.elasticsearch.action.support.ContextPreservingActionListener;
import org.elasticsearch.action.update.UpdateRequest;
import org.elasticsearch.cluster.metadata.IndexMetadata;
import org.elasticsearch.common.UUIDs;
import org.elasticsearch.index.IndexSettings;
import org.elasticsearch.index.query.BoolQueryBuilder;
import org.elasticsearch.index.query.QueryBuilders;
import org.elasticsearch.rest.RestStatus;
import org.elasticsearch.search.builder.SearchSourceBuilder;

import java.util.Map;
import java.util.function.Consumer;

/**
 * Everything a report checks before it reads: the field's mappings (and the group id field's, when it writes), the
 * threshold, whether the caller may read the concrete indices, and, when it writes group ids, whether the caller may
 * write every target index and whether any document holds a value the report would overwrite. Nothing is read, let alone
 * written, before all of it passed.
 */
final class ReportPreflight {

    /** Documents per search page at most: lowered to the smallest {@code index.max_result_window} of the target indices. */
    static final int PAGE_SIZE = 10_000;
    /** Fingerprints per terms query when fetching the members of the listed groups. */
    static final int MEMBER_TERMS = 4_096;
    /** The values this report writes as group ids: a fingerprint as 16 lowercase hex digits. */
    static final String GROUP_ID_PATTERN = "[0-9a-f]{16}";

    private final ReportContext run;
    private final CompatIndices indices;
    private final DuplicatesRequest request;

    ReportPreflight(ReportContext run, CompatIndices indices) {
        this.run = run;
        this.indices = indices;
        this.request = run.request();
    }

    /** Runs the checks, then gives {@code then} the report's setup (on failure, the run fails instead). */
    void start(Consumer<ReportSetup> then) {
        String[] extra = request.writeGroupId() == null ? new String[0] : new String[] { request.writeGroupId() };
        run.client().execute(TransportFieldCapabilitiesAction.TYPE,
            FingerprintMappings.request(request.indices(), request.indicesOptions(), request.field(), extra),
            run.step((FieldCapabilitiesResponse caps) -> onFieldCaps(caps, then)));
    }

    private void onFieldCaps(FieldCapabilitiesResponse caps, Consumer<ReportSetup> then) {
        run.task().ensureNotCancelled();
        FingerprintMappings.Fingerprints fingerprints = FingerprintMappings.checkFingerprint(caps, request.field());
        if (request.writeGroupId() != null) {
            FingerprintMappings.checkGroupField(caps, request.writeGroupId());
        }
        int pageSize = PAGE_SIZE;
        int memberTerms = MEMBER_TERMS;
        for (String index : caps.getIndices()) {
            IndexMetadata metadata = indices.index(index);
            if (metadata != null) {
                pageSize = Math.min(pageSize, IndexSettings.MAX_RESULT_WINDOW_SETTING.get(metadata.getSettings()));
                memberTerms = Math.min(memberTerms, IndexSettings.MAX_TERMS_COUNT_SETTING.get(metadata.getSettings()));
                if (request.writeGroupId() != null && metadata.mapping() != null) {
                    FingerprintMappings.checkGroupTarget(index, metadata.mapping().sourceAsMap(), request.writeGroupId());
                }
            }
        }
        int page = pageSize;
        int terms = memberTerms;
        ThresholdChoice.resolve(run.client(), run.threadContext(), request.indices(), request.indicesOptions(), caps, fingerprints,
            request.field(), request.minSimilarity(), request.maxDistanceGiven(), run.step((Verification v) -> {
                run.task().ensureNotCancelled();
                int radius = Thresholds.radius(v, request.maxDistanceGiven(), request.maxDistance(), fingerprints::defaultMaxDistance);
                checkConcreteIndices(caps.getIndices(), scrolling -> {
                    ReportSetup setup = new ReportSetup(fingerprints, v, radius, caps.getIndices(), scrolling, page, terms);
                    if (request.writeGroupId() == null) {
                        then.accept(setup);
                    } else {
                        checkWritable(setup, then);
                    }
                });
            }));
    }

    /**
     * Finds out, as the caller, whether it may search the concrete indices (a search that matches nothing): if security
     * refuses, the report reads by scrolls of the request's own indices ({@link ReportSetup#scrolling}).
     */
    private void checkConcreteIndices(String[] concrete, Consumer<Boolean> then) {
        if (concrete.length == 0) {
            then.accept(false);
            return;
        }
        SearchRequest check = new SearchRequest(concrete).source(new SearchSourceBuilder().size(0).trackTotalHits(false)
            .query(QueryBuilders.boolQuery().mustNot(QueryBuilders.matchAllQuery())));
        run.client().execute(TransportSearchAction.TYPE, check, ContextPreservingActionListener.wrapPreservingContext(new ActionListener<>() {
            @Override
            public void onResponse(SearchResponse r) {
                run.safely(() -> then.accept(false));
            }

            @Override
            public void onFailure(Exception e) {
                if (ExceptionsHelper.status(e) != RestStatus.FORBIDDEN) {
                    run.fail().accept(e);
                    return;
                }
                run.safely(() -> then.accept(true));
            }
        }, run.threadContext()));
    }

    /**
     * Checks that the caller may write to every target index, without writing: a bulk of one partial update per index to
     * a document that does not exist (a random id, no upsert). Allowed, each answers 404 and changes nothing; forbidden,
     * 403, which fails the report before the write phase (group ids come from the fingerprints of every target index, so
     * writing some indices but not others would be wrong either way).
     */
    private void checkWritable(ReportSetup setup, Consumer<ReportSetup> then) {
        String[] concrete = setup.concreteIndices();
        if (concrete.length == 0) {
            checkForeignValues(setup, then);
            return;
        }
        String probe = "simhash-write-check-" + UUIDs.randomBase64UUID();
        BulkRequest bulk = new BulkRequest();
        for (String index : concrete) {
            // with a routing, so that an index whose mapping requires one answers like any other
            bulk.add(new UpdateRequest(index, probe).routing(probe).doc(Map.of()));
        }
        run.client().execute(TransportBulkAction.TYPE, bulk, run.step((BulkResponse r) -> {
            run.task().ensureNotCancelled();
            for (BulkItemResponse item : r.getItems()) {
                if (item.isFailed() && item.getFailure().getStatus() != RestStatus.NOT_FOUND) {
                    throw item.getFailure().getCause();
                }
            }
            checkForeignValues(setup, then);
        }));
    }

    /**
     * Counts the documents the report would write whose group id field holds a value that is not a group id (16 lowercase
     * hex digits): user data, which the report refuses to overwrite unless {@code overwrite_group_id} is set.
     */
    private void checkForeignValues(ReportSetup setup, Consumer<ReportSetup> then) {
        if (request.overwriteGroupId()) {
            then.accept(setup);
            return;
        }
        String name = request.writeGroupId();
        BoolQueryBuilder foreign = setup.covered(request).filter(QueryBuilders.existsQuery(name))
            .mustNot(QueryBuilders.regexpQuery(name, GROUP_ID_PATTERN));
        SearchRequest count = new SearchRequest(request.indices()).indicesOptions(request.indicesOptions())
            .source(new SearchSourceBuilder().query(foreign).size(0).trackTotalHits(true)).allowPartialSearchResults(false);
        run.client().execute(TransportSearchAction.TYPE, count, run.step((SearchResponse r) -> {
            run.task().ensureNotCancelled();
            long n = CompatHits.value(r.getHits().getTotalHits());
            if (n > 0) {
                throw new IllegalArgumentException("[write_group_id] [" + n + "] of the report's documents hold values in [" + name
                    + "] that are not group ids (16 lowercase hex digits): the report would overwrite them; write to another "
                    + "[keyword] field, or set [overwrite_group_id] to true to overwrite them");
            }
            then.accept(setup);
        }));
    }
}
