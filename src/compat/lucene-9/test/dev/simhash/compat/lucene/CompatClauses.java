package dev.simhash.compat.lucene;

import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.Query;

/** Reads a boolean clause in the unit tests: Lucene 9's {@link BooleanClause} has getters. */
public final class CompatClauses {

    private CompatClauses() {}

    public static BooleanClause.Occur occur(BooleanClause clause) {
        return clause.getOccur();
    }

    public static Query query(BooleanClause clause) {
        return clause.getQuery();
    }
}
