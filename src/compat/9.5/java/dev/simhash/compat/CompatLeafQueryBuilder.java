package dev.simhash.compat;

import org.elasticsearch.common.io.stream.StreamInput;
import org.elasticsearch.index.query.LeafQueryBuilder;

import java.io.IOException;

/** Base of a query builder without inner clauses that count towards the clause limit: 9.5's {@code LeafQueryBuilder}. */
public abstract class CompatLeafQueryBuilder<QB extends CompatLeafQueryBuilder<QB>> extends LeafQueryBuilder<QB> {

    protected CompatLeafQueryBuilder() {}

    protected CompatLeafQueryBuilder(StreamInput in) throws IOException {
        super(in);
    }
}
