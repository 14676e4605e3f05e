package dev.simhash.query;

import dev.simhash.compat.lucene.CompatScorer;

import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.TwoPhaseIterator;
import org.apache.lucene.search.Weight;

import java.io.IOException;

/**
 * A scorer over candidates that are verified one by one ({@link #verify}, the second phase of a two-phase iteration),
 * scored at most {@code boost}: the shape of every simhash query's scorer.
 */
abstract class VerifyingScorer extends CompatScorer {

    private final DocIdSetIterator approximation;
    private final TwoPhaseIterator twoPhase;
    private final DocIdSetIterator iterator;
    protected final float boost;

    VerifyingScorer(Weight weight, DocIdSetIterator approximation, float boost, float matchCost) {
        super(weight);
        this.approximation = approximation;
        this.boost = boost;
        this.twoPhase = new TwoPhaseIterator(approximation) {
            @Override
            public boolean matches() throws IOException {
                return verify(approximation.docID());
            }

            @Override
            public float matchCost() {
                return matchCost;
            }
        };
        this.iterator = TwoPhaseIterator.asDocIdSetIterator(twoPhase);
    }

    /** Whether the candidate {@code doc}, on which the approximation is positioned, matches. */
    protected abstract boolean verify(int doc) throws IOException;

    @Override
    public int docID() {
        return approximation.docID();
    }

    @Override
    public DocIdSetIterator iterator() {
        return iterator;
    }

    @Override
    public TwoPhaseIterator twoPhaseIterator() {
        return twoPhase;
    }

    @Override
    public float getMaxScore(int upTo) {
        return boost;
    }
}
