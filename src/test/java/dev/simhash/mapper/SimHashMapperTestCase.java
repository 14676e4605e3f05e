package dev.simhash.mapper;

import dev.simhash.SimHashPlugin;
import dev.simhash.compat.CompatMapperTestCase;

import org.elasticsearch.core.CheckedConsumer;
import org.elasticsearch.index.mapper.MappedFieldType;
import org.elasticsearch.index.mapper.TextSearchInfo;
import org.elasticsearch.plugins.Plugin;
import org.elasticsearch.xcontent.XContentBuilder;
import org.junit.AssumptionViolatedException;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * What Elasticsearch's mapper contract needs of every {@code simhash} field, whatever its {@code input}: the plugin that
 * registers the type, and the answers that hold for both inputs.
 */
public abstract class SimHashMapperTestCase extends CompatMapperTestCase {

    @Override
    protected Collection<? extends Plugin> getPlugins() {
        return List.of(new SimHashPlugin());
    }

    /** A value of the field for a document, drawn at random. */
    protected abstract Object randomValue();

    @Override
    protected Object generateRandomInputValue(MappedFieldType ft) {
        return randomValue();
    }

    // ignore_malformed is not a parameter of the field: a malformed value fails its document (documented in
    // docs/field-type.md), and the framework checks that the parameter is refused
    @Override
    protected boolean supportsIgnoreMalformed() {
        return false;
    }

    // nothing is stored: the fingerprint lives in doc values and block terms; the field has no [store] parameter
    @Override
    protected boolean supportsStoredFields() {
        return false;
    }

    // the field has no [script] parameter: its value comes from the document (or, as a multi-field, from its parent)
    @Override
    protected IngestScriptSupport ingestScriptSupport() {
        throw new AssumptionViolatedException("a simhash field has no [script] parameter");
    }

    /**
     * The field is searchable (term, terms and exists queries on fingerprints, and the simhash query), yet it answers
     * {@link TextSearchInfo#NONE} on purpose: a text is not a fingerprint, so {@code match} on the field is a clear 400,
     * and a {@code query_string} or {@code multi_match} over all fields does not send every word of the query to it.
     * The framework's rule (searchable iff text-searchable) is replaced by that statement.
     */
    @Override
    protected void assertSearchable(MappedFieldType fieldType) {
        assertTrue(fieldType.isSearchable());
        assertSame(TextSearchInfo.NONE, fieldType.getTextSearchInfo());
    }

    /**
     * The field has no synthetic source of its own (its doc values hold the fingerprint, not the text or the value as
     * given): Elasticsearch keeps the value as given for it (its fallback), so synthetic source shows exactly the input.
     */
    @Override
    protected SyntheticSourceSupport syntheticSourceSupport(boolean ignoreMalformed) {
        return new SyntheticSourceSupport() {
            @Override
            public boolean preservesExactSource() {
                return true;
            }

            @Override
            public SyntheticSourceExample example(int maxValues) {
                if (maxValues > 1 && randomBoolean()) {
                    List<Object> values = new ArrayList<>();
                    for (int i = between(1, maxValues); i > 0; i--) {
                        values.add(randomValue());
                    }
                    return new SyntheticSourceExample(values, values, SimHashMapperTestCase.this::minimalMapping);
                }
                Object value = randomValue();
                return new SyntheticSourceExample(value, value, SimHashMapperTestCase.this::minimalMapping);
            }

            @Override
            public List<SyntheticSourceInvalidExample> invalidExample() {
                return List.of();
            }
        };
    }

    /** The minimal mapping with more options. */
    protected final CheckedConsumer<XContentBuilder, IOException> minimalWith(CheckedConsumer<XContentBuilder, IOException> more) {
        return b -> {
            minimalMapping(b);
            more.accept(b);
        };
    }
}
