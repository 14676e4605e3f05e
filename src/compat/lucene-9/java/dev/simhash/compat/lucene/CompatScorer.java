package dev.simhash.compat.lucene;

import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.Weight;

/** Base of a scorer: Lucene 9's scorer is created with its weight. */
public abstract class CompatScorer extends Scorer {

    protected CompatScorer(Weight weight) {
        super(weight);
    }
}
