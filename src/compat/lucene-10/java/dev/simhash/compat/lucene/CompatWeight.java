package dev.simhash.compat.lucene;

import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.ScorerSupplier;
import org.apache.lucene.search.Weight;

import java.io.IOException;

/** Base of a weight that gives a {@link ScorerSupplier} per segment: Lucene 10's own contract. */
public abstract class CompatWeight extends Weight {

    protected CompatWeight(Query query) {
        super(query);
    }

    @Override
    public abstract ScorerSupplier scorerSupplier(LeafReaderContext context) throws IOException;

    /** A supplier of a scorer built up front. */
    protected static ScorerSupplier supplier(Scorer scorer) {
        return new DefaultScorerSupplier(scorer);
    }
}
