package dev.simhash.compat.lucene;

import org.apache.lucene.search.TotalHits;

/** Reads a hit count: Lucene 10's {@link TotalHits} is a record. */
public final class CompatHits {

    private CompatHits() {}

    /** Whether the count is exact (not a lower bound). */
    public static boolean exact(TotalHits totalHits) {
        return totalHits.relation() == TotalHits.Relation.EQUAL_TO;
    }

    public static long value(TotalHits totalHits) {
        return totalHits.value();
    }
}
