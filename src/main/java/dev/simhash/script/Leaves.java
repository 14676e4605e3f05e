package dev.simhash.script;

import org.apache.lucene.index.LeafReaderContext;
import org.elasticsearch.script.DocReader;
import org.elasticsearch.script.LeafReaderContextSupplier;

/** Gets the segment behind a {@link DocReader}, so scripts can read doc values without the per-document doc map. */
final class Leaves {

    private Leaves() {}

    static LeafReaderContext of(DocReader reader) {
        if (reader instanceof LeafReaderContextSupplier supplier) {
            return supplier.getLeafReaderContext();
        }
        // every caller in Elasticsearch 9.5 passes a DocValuesDocReader; anything else is a new code path we have not seen
        throw new IllegalStateException("simhash scripts need a segment-backed doc reader, got [" + reader.getClass().getName() + "]");
    }
}
