package dev.simhash.compat.lucene;

import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.ScorerSupplier;
import org.apache.lucene.search.Weight;

import java.io.IOException;

/**
 * Base of a weight that gives a {@link ScorerSupplier} per segment, as in Lucene 10: Lucene 9 asks
 * {@link #scorer} instead, answered here from the supplier.
 */
public abstract class CompatWeight extends Weight {

    protected CompatWeight(Query query) {
        super(query);
    }

    @Override
    public abstract ScorerSupplier scorerSupplier(LeafReaderContext context) throws IOException;

    @Override
    public final Scorer scorer(LeafReaderContext context) throws IOException {
        ScorerSupplier supplier = scorerSupplier(context);
        return supplier == null ? null : supplier.get(Long.MAX_VALUE);
    }

    /** A supplier of a scorer built up front. */
    protected static ScorerSupplier supplier(Scorer scorer) {
        return new ScorerSupplier() {
            @Override
            public Scorer get(long leadCost) {
                return scorer;
            }

            @Override
            public long cost() {
                return scorer.iterator().cost();
            }
        };
    }
}
