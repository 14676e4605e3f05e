package dev.simhash.mapper;

import org.apache.lucene.index.LeafReaderContext;
import org.elasticsearch.index.mapper.ValueFetcher;
import org.elasticsearch.search.fetch.StoredFieldsSpec;
import org.elasticsearch.search.lookup.Source;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a document's fingerprint and its sketch in one value list for the {@code fields} option with the format
 * {@value SimHashFieldType#FINGERPRINT_AND_SKETCH_FORMAT}: the fingerprint as a signed long, then the sketch in base64 (a
 * document without a fingerprint has neither). Elasticsearch renders one format per field name in a hit, so this is how
 * the report reads both in one search instead of two. (On a field without sketches the format reads the fingerprint alone,
 * {@link SimHashFieldType#valueFetcher}.)
 */
final class FingerprintAndSketchFetcher implements ValueFetcher {

    private final ValueFetcher fingerprint;
    private final ValueFetcher sketch;

    FingerprintAndSketchFetcher(ValueFetcher fingerprint, ValueFetcher sketch) {
        this.fingerprint = fingerprint;
        this.sketch = sketch;
    }

    @Override
    public void setNextReader(LeafReaderContext context) {
        fingerprint.setNextReader(context);
        sketch.setNextReader(context);
    }

    @Override
    public List<Object> fetchValues(Source source, int doc, List<Object> ignoredValues) throws IOException {
        List<Object> hash = fingerprint.fetchValues(source, doc, ignoredValues);
        if (hash.isEmpty()) {
            return hash;
        }
        List<Object> both = new ArrayList<>(hash);
        both.addAll(sketch.fetchValues(source, doc, ignoredValues));
        return both;
    }

    @Override
    public StoredFieldsSpec storedFieldsSpec() {
        return StoredFieldsSpec.NO_REQUIREMENTS;
    }
}
