package dev.simhash.query;

import dev.simhash.mapper.FingerprintField;
import dev.simhash.threshold.Verification;

import org.apache.lucene.search.Query;
import org.elasticsearch.index.query.SearchExecutionContext;

import java.io.IOException;

/**
 * What a {@code simhash} query does on one shard: one immutable type per mode, each building its Lucene query from the
 * field, the query's fingerprint, the documents it is limited to ({@code only}, from {@code filter}; null: all) and the one it
 * leaves out ({@code exclude}; null: none). {@link QueryPlanner} chooses the mode.
 */
sealed interface QueryPlan {

    Query toQuery(FingerprintField fp, long hash, Query only, Query exclude, SearchExecutionContext context) throws IOException;

    /** The documents within {@code maxDistance} bits, scored by their distance. */
    record Radius(int maxDistance) implements QueryPlan {
        @Override
        public Query toQuery(FingerprintField fp, long hash, Query only, Query exclude, SearchExecutionContext context) {
            return SimHashNearestQuery.within(fp.docValuesField(), fp.blocks(), hash, maxDistance, only, exclude);
        }
    }

    /** The shard's {@code k} nearest documents within {@code maxDistance} bits. */
    record Nearest(int k, int maxDistance) implements QueryPlan {
        @Override
        public Query toQuery(FingerprintField fp, long hash, Query only, Query exclude, SearchExecutionContext context) {
            return new SimHashNearestQuery(fp.docValuesField(), fp.blocks(), hash, only, exclude, k, maxDistance);
        }
    }

    /**
     * The candidates of {@code threshold} (sharing a band of {@code sketch} where the bands cover it, else within its
     * radius of the fingerprint) whose sketches pass it, scored by the estimated similarity; with {@code k} (null: none),
     * the shard's k most similar of them.
     */
    record Similar(Verification threshold, byte[] sketch, Integer k) implements QueryPlan {
        @Override
        public Query toQuery(FingerprintField fp, long hash, Query only, Query exclude, SearchExecutionContext context)
            throws IOException {
            SketchCheck check = new SketchCheck(fp.fieldType().name(), fp.fieldType().sketch(), sketch, threshold);
            Query verified = threshold.byBands() ? SketchBandQuery.of(check, fp.fieldType().bandValuesHeld(context))
                : new SimHashQuery(fp.docValuesField(), fp.blocks(), hash, threshold.radius(), check);
            return k != null ? SimHashNearestQuery.verified(verified, check, only, exclude, k)
                : SimHashNearestQuery.filtered(verified, only, exclude);
        }
    }
}
