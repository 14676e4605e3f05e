package dev.simhash.duplicates;

import dev.simhash.request.FingerprintMappings;
import dev.simhash.threshold.Verification;

import org.elasticsearch.index.query.BoolQueryBuilder;
import org.elasticsearch.index.query.QueryBuilders;

/**
 * What a report knows once its preflight is done, before it reads a document.
 *
 * @param fingerprints    where the fingerprints are read
 * @param verification    the verified threshold ({@code min_similarity}), or null for a plain radius
 * @param radius          the radius the report groups with (and reports)
 * @param concreteIndices the indices the request resolved to
 * @param scrolling       whether the caller may not read the concrete indices (its read privilege is on an alias): the
 *                        report then reads by scrolls of the request's own indices, ids included, because a point in time
 *                        is authorized on the concrete indices it was opened on
 * @param pageSize        documents per search page, within every target index's {@code index.max_result_window}
 * @param memberTerms     fingerprints per terms query of the member fetch, within every index's {@code index.max_terms_count}
 */
record ReportSetup(FingerprintMappings.Fingerprints fingerprints, Verification verification, int radius, String[] concreteIndices,
                   boolean scrolling, int pageSize, int memberTerms) {

    String hashPath() {
        return fingerprints.path();
    }

    /** The documents the report covers: those with a fingerprint that match the request's {@code query}. */
    BoolQueryBuilder covered(DuplicatesRequest request) {
        BoolQueryBuilder filter = QueryBuilders.boolQuery().filter(QueryBuilders.existsQuery(hashPath()));
        if (request.query() != null) {
            // scores are irrelevant for the report: the query only selects documents
            filter.filter(request.query());
        }
        return filter;
    }
}
