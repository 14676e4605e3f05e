package dev.simhash.compat.lucene;

import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.Query;

/** Reads a boolean clause in the unit tests: Lucene 10's {@link BooleanClause} is a record. */
public final class CompatClauses {

    private CompatClauses() {}

    public static BooleanClause.Occur occur(BooleanClause clause) {
        return clause.occur();
    }

    public static Query query(BooleanClause clause) {
        return clause.query();
    }
}
