package dev.simhash.compat;

import org.elasticsearch.index.mapper.MapperTestCase;

import java.util.List;

/**
 * Base of the {@code simhash} field's {@link MapperTestCase}s: 9.5 also asks whether a sort on the field can skip
 * documents, checks doc-values skippers through an {@code index: false} mapping, and that every parameter is covered.
 */
public abstract class CompatMapperTestCase extends MapperTestCase {

    /** Marks a parameter of the builder that the tested mapping cannot configure as covered by the parameter checks. */
    protected static void ignoreParameter(ParameterChecker checker, String name) {
        checker.registerIgnoredParameter(name);
    }

    // the fingerprint's doc values have neither points nor a doc-values skipper under the field's name (the field indexes
    // block terms), so a sort on it cannot skip non-competitive documents: the comparator has no competitive iterator
    @Override
    protected final List<SortShortcutSupport> getSortShortcutSupport() {
        return List.of(new SortShortcutSupport(this::minimalMapping, this::writeField, false));
    }

    // the check maps the field with [index: false] and [doc_values: true]; a simhash field has neither option: it always
    // indexes its block terms (candidates) and keeps its doc values (verification)
    @Override
    protected final boolean supportsDocValuesSkippers() {
        return false;
    }
}
