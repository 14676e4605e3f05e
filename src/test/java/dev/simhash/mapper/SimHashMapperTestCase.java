package dev.simhash.mapper;

import dev.simhash.SimHashPlugin;
import dev.simhash.compat.CompatMapperTestCase;

import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.store.Directory;
import org.apache.lucene.tests.index.RandomIndexWriter;
import org.elasticsearch.core.CheckedConsumer;
import org.elasticsearch.index.mapper.DocValueFetcher;
import org.elasticsearch.index.mapper.MappedFieldType;
import org.elasticsearch.index.mapper.MapperService;
import org.elasticsearch.index.mapper.ParsedDocument;
import org.elasticsearch.index.mapper.TextSearchInfo;
import org.elasticsearch.index.mapper.ValueFetcher;
import org.elasticsearch.index.query.SearchExecutionContext;
import org.elasticsearch.nativeaccess.NativeAccess;
import org.elasticsearch.plugins.Plugin;
import org.elasticsearch.search.lookup.Source;
import org.elasticsearch.xcontent.XContentBuilder;
import org.elasticsearch.xcontent.XContentType;
import org.junit.AssumptionViolatedException;
import org.junit.Before;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;

import static org.hamcrest.Matchers.containsInAnyOrder;

/**
 * What Elasticsearch's mapper contract needs of every {@code simhash} field, whatever its {@code input}: the plugin that
 * registers the type, and the answers that hold for both inputs.
 */
public abstract class SimHashMapperTestCase extends CompatMapperTestCase {

    @Override
    protected Collection<? extends Plugin> getPlugins() {
        return List.of(new SimHashPlugin());
    }

    /**
     * The framework checks that index through {@code MapperServiceTestCase#withLuceneIndex} (final methods): that index is
     * written with Elasticsearch's codec, whose stored fields need the native zstd library, and a unit-test JVM here has no
     * native access (the libraries are not on Maven Central, and Elasticsearch refuses native access to a JVM running as
     * root). Where native zstd is available they run. Here they are skipped by name, and what they check is not checked
     * elsewhere: index-time field data (runtime scripts reading the field while a document is indexed) and whether a sort
     * on the field can skip documents. The fetch checks, which index the same way, run on Lucene's codec instead
     * ({@link #assertFetch}).
     */
    private static final Set<String> NEED_NATIVE_ZSTD = Set.of("testIndexTimeFieldData", "testSortShortcuts");

    @Before
    public void skipChecksThatNeedNativeZstd() {
        // with -Dtests.iters the name carries the repetition's seed after a space
        String method = getTestName().split(" ", 2)[0];
        assumeTrue("[" + method + "] writes with Elasticsearch's codec, which needs native zstd; this JVM has none",
            NEED_NATIVE_ZSTD.contains(method) == false || NativeAccess.instance().getZstd() != null);
    }

    /**
     * The framework's fetch check (the field's own value fetcher gives what its doc values give), on an index written with
     * Lucene's codec instead of Elasticsearch's (see {@link #NEED_NATIVE_ZSTD}), and with the real search context.
     */
    @Override
    protected void assertFetch(MapperService mapperService, String field, Object value, String format) throws IOException {
        MappedFieldType ft = mapperService.fieldType(field);
        ParsedDocument doc = mapperService.documentMapper().parse(source(b -> b.field(ft.name(), value)));
        SearchExecutionContext context = createSearchExecutionContext(mapperService);
        ValueFetcher fromDocValues = new DocValueFetcher(ft.docValueFormat(format, null),
            context.getForField(ft, MappedFieldType.FielddataOperation.SEARCH));
        ValueFetcher fromField = ft.valueFetcher(context, format);
        try (Directory dir = newDirectory(); RandomIndexWriter iw = new RandomIndexWriter(random(), dir)) {
            iw.addDocuments(doc.docs());
            try (DirectoryReader reader = iw.getReader()) {
                LeafReaderContext leaf = reader.leaves().get(0);
                // both fetchers read doc values, never the source
                Source source = Source.empty(XContentType.JSON);
                fromDocValues.setNextReader(leaf);
                fromField.setNextReader(leaf);
                List<Object> expected = fromDocValues.fetchValues(source, 0, new ArrayList<>());
                List<Object> fetched = fromField.fetchValues(source, 0, new ArrayList<>());
                assertThat("fetching " + value, fetched, containsInAnyOrder(expected.toArray()));
                checkFetched(value, expected);
            }
        }
    }

    /** Checks the values fetched for a document with {@code value}, beyond the two fetchers agreeing. */
    protected abstract void checkFetched(Object value, List<Object> fetched);

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
