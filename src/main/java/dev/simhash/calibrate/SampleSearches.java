package dev.simhash.calibrate;

import dev.simhash.compat.lucene.CompatHits;

import org.elasticsearch.action.search.SearchRequest;
import org.elasticsearch.action.search.SearchResponse;
import org.elasticsearch.common.document.DocumentField;
import org.elasticsearch.index.query.QueryBuilders;
import org.elasticsearch.index.query.functionscore.ScoreFunctionBuilders;
import org.elasticsearch.search.SearchHit;
import org.elasticsearch.search.builder.SearchSourceBuilder;

import java.util.ArrayList;
import java.util.List;

/**
 * The searches that sample a calibration: a seeded {@code random_score} search that reads the fingerprints from doc values
 * only (the texts come later, in pages whose bytes are bounded), and the count of the documents with a fingerprint.
 */
final class SampleSearches {

    /** Heap per hit of the sample search (a fingerprint from doc values, no source) until it is reduced. */
    static final long SAMPLE_HIT_BYTES = 1_024;
    /** Heap per sampled document once reduced: its index, id, score and fingerprint, and its slots in the arrays. */
    static final long SAMPLED_DOC_BYTES = 192;

    private SampleSearches() {}

    /** The sample of {@code size} documents, ordered by a random score seeded by the request's seed. */
    static SearchRequest sample(CalibrateRequest request, int size) {
        SearchSourceBuilder source = new SearchSourceBuilder()
            .query(QueryBuilders.functionScoreQuery(ScoreFunctionBuilders.randomFunction().seed(request.seed()).setField("_seq_no")))
            .size(size).trackTotalHits(true).fetchSource(false).docValueField(request.field(), "long");
        return new SearchRequest(request.indices()).indicesOptions(request.indicesOptions()).source(source)
            .allowPartialSearchResults(false);
    }

    /** The documents in the target indices, as the sample search counted them; -1 when it did not. */
    static long total(SearchResponse response) {
        return response.getHits().getTotalHits() == null ? -1 : CompatHits.value(response.getHits().getTotalHits());
    }

    /** The sampled documents with their stored fingerprints, in the sample's order ({@link SampleDocs#SAMPLE_ORDER}). */
    static List<SampleDocs.Doc> docs(SearchHit[] hits, String field) {
        List<SampleDocs.Doc> sampled = new ArrayList<>(hits.length);
        for (SearchHit hit : hits) {
            DocumentField f = hit.field(field);
            Long stored = f == null || f.getValues().isEmpty() ? null : ((Number) f.getValues().get(0)).longValue();
            sampled.add(new SampleDocs.Doc(hit.getIndex(), hit.getId(), hit.getScore(), stored));
        }
        sampled.sort(SampleDocs.SAMPLE_ORDER);
        return sampled;
    }

    /** The count of the documents with a fingerprint in the field. */
    static SearchRequest countWithFingerprint(CalibrateRequest request) {
        SearchSourceBuilder count = new SearchSourceBuilder().size(0).trackTotalHits(true).query(QueryBuilders.existsQuery(request.field()));
        return new SearchRequest(request.indices()).indicesOptions(request.indicesOptions()).source(count);
    }

    /** The count {@link #countWithFingerprint} asked for. */
    static long count(SearchResponse response) {
        return CompatHits.value(response.getHits().getTotalHits());
    }
}
