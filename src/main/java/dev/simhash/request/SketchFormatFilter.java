package dev.simhash.request;

import dev.simhash.core.MinHashSketch;
import dev.simhash.core.SimHash;
import dev.simhash.mapper.SimHashFieldType;

import org.elasticsearch.action.ActionListener;
import org.elasticsearch.action.ActionRequest;
import org.elasticsearch.action.search.SearchRequest;
import org.elasticsearch.action.search.TransportSearchAction;
import org.elasticsearch.action.support.ActionFilter;
import org.elasticsearch.search.builder.SearchSourceBuilder;
import org.elasticsearch.search.fetch.subphase.FieldAndFormat;

/**
 * Refuses, with a 400 before any shard is searched, a search whose {@code docvalue_fields} ask for a {@code simhash}
 * field's sketch formats ({@code minhash-v1}, {@code long+minhash-v1}): doc-value fields read a field's own doc values,
 * the fingerprints, so each shard that fetched hits would fail and the search would answer 200 with those hits
 * missing. The sketch is read with the {@code fields} option. The formats are the plugin's own names, so no other field
 * type is concerned.
 */
public final class SketchFormatFilter extends ActionFilter.Simple {

    @Override
    public int order() {
        // after security (which runs first, at the lowest order): an unauthorized search is refused as such
        return 0;
    }

    @Override
    protected boolean apply(String action, ActionRequest request, ActionListener<?> listener) {
        if (TransportSearchAction.TYPE.name().equals(action) && request instanceof SearchRequest search) {
            IllegalArgumentException e = check(search.source());
            if (e != null) {
                listener.onFailure(e);
                return false;
            }
        }
        return true;
    }

    /** The 400 for a search body asking for a sketch format in {@code docvalue_fields}, or null. */
    public static IllegalArgumentException check(SearchSourceBuilder source) {
        if (source == null || source.docValueFields() == null) {
            return null;
        }
        for (FieldAndFormat f : source.docValueFields()) {
            if (MinHashSketch.ALGORITHM.equals(f.format) || SimHashFieldType.FINGERPRINT_AND_SKETCH_FORMAT.equals(f.format)) {
                String field = SimHash.abbreviate(f.field);
                return new IllegalArgumentException("[docvalue_fields] the format [" + f.format + "] of [" + field + "] reads the "
                    + "similarity sketch, which [docvalue_fields] cannot return (they read the fingerprint's doc values, in the "
                    + "formats [hex] and [long]); ask for it in [fields]: {\"fields\": [{\"field\": \"" + field + "\", \"format\": \""
                    + f.format + "\"}]}");
            }
        }
        return null;
    }
}
