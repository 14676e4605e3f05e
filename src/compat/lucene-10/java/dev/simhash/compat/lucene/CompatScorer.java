package dev.simhash.compat.lucene;

import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.Weight;

/** Base of a scorer: Lucene 10's scorer no longer knows its weight. */
public abstract class CompatScorer extends Scorer {

    protected CompatScorer(Weight weight) {
        super();
    }
}
