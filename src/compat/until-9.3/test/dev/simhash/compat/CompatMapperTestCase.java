package dev.simhash.compat;

import org.elasticsearch.index.mapper.MapperTestCase;

/** Base of the {@code simhash} field's {@link MapperTestCase}s: this line's contract needs nothing beyond it. */
public abstract class CompatMapperTestCase extends MapperTestCase {

    /** Nothing to mark: this line's contract does not check that every parameter of the builder is covered. */
    protected static void ignoreParameter(ParameterChecker checker, String name) {}
}
