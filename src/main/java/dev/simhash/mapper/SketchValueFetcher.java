package dev.simhash.mapper;

import dev.simhash.core.MinHashSketch;

import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.util.BytesRef;
import org.elasticsearch.index.mapper.ValueFetcher;
import org.elasticsearch.search.fetch.StoredFieldsSpec;
import org.elasticsearch.search.lookup.Source;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Base64;
import java.util.List;

/**
 * Reads the similarity sketch of each document for the {@code fields} option with the format
 * {@value MinHashSketch#ALGORITHM}: its {@value MinHashSketch#BYTES} bytes in base64, from the binary doc values of
 * {@link SimHashFieldType#sketchField()} (no value for a document without a sketch, or where field-level security hides
 * the field, {@link SimHashFieldType#sketchValues}). This is how {@code like}, fold and the report read a document's
 * sketch with the caller's own read privileges.
 */
final class SketchValueFetcher implements ValueFetcher {

    /** The {@code simhash} field whose sketches are read. */
    private final String field;
    private BinaryDocValues values;

    SketchValueFetcher(String field) {
        this.field = field;
    }

    @Override
    public void setNextReader(LeafReaderContext context) {
        try {
            values = SimHashFieldType.sketchValues(context.reader(), field);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public List<Object> fetchValues(Source source, int doc, List<Object> ignoredValues) throws IOException {
        if (values == null || !values.advanceExact(doc)) {
            return List.of();
        }
        BytesRef b = values.binaryValue();
        if (b.length != MinHashSketch.BYTES) {
            return List.of();
        }
        return List.of(Base64.getEncoder().encodeToString(BytesRef.deepCopyOf(b).bytes));
    }

    @Override
    public StoredFieldsSpec storedFieldsSpec() {
        return StoredFieldsSpec.NO_REQUIREMENTS;
    }
}
