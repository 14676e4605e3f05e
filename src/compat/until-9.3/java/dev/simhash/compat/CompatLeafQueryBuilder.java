package dev.simhash.compat;

import org.elasticsearch.common.io.stream.StreamInput;
import org.elasticsearch.index.query.AbstractQueryBuilder;

import java.io.IOException;

/**
 * Base of a query builder without inner clauses that count towards the clause limit: up to 9.3 there is no
 * {@code LeafQueryBuilder}, its {@link AbstractQueryBuilder} calls {@code doToQuery(SearchExecutionContext)} directly.
 */
public abstract class CompatLeafQueryBuilder<QB extends CompatLeafQueryBuilder<QB>> extends AbstractQueryBuilder<QB> {

    protected CompatLeafQueryBuilder() {}

    protected CompatLeafQueryBuilder(StreamInput in) throws IOException {
        super(in);
    }
}
