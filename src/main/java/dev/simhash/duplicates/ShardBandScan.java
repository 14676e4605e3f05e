package dev.simhash.duplicates;

import dev.simhash.core.MinHashSketch;
import dev.simhash.core.SketchBands;
import dev.simhash.mapper.SimHashFieldType;

import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.PointValues;
import org.apache.lucene.index.SortedNumericDocValues;
import org.apache.lucene.index.StoredFieldVisitor;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.FixedBitSet;
import org.elasticsearch.common.lucene.index.SequentialStoredFieldsLeafReader;
import org.elasticsearch.index.mapper.Uid;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongConsumer;

/**
 * The report's reading of one shard, through the caller's searcher (deleted documents, and those document-level security
 * hides, are not live; a field that field-level security hides has no values): how many documents have a fingerprint,
 * which band values they hold, and which of them hold a band value that another document holds too. The band values are
 * read from the field's points ({@code [band, key]}, one per band and document), band by band.
 */
final class ShardBandScan {

    /** One candidate document as read. */
    record Candidate(String id, String routing, long fingerprint, byte[] sketch) {}

    private final IndexReader reader;
    private final String field;
    private final String sketchField;
    /** Charges (positive) or releases (negative) the bytes of this scan's arrays. */
    private final LongConsumer memory;
    private final Runnable checkCancelled;

    ShardBandScan(IndexReader reader, String field, LongConsumer memory, Runnable checkCancelled) {
        this.reader = reader;
        this.field = field;
        this.sketchField = SimHashFieldType.sketchField(field);
        this.memory = memory;
        this.checkCancelled = checkCancelled;
    }

    /** Which of {@code partitions} hash partitions band value {@code v} belongs to. */
    static int partitionOf(long v, int partitions) {
        long mixed = v * 0x9E3779B97F4A7C15L;
        return (int) Long.remainderUnsigned(mixed ^ (mixed >>> 29), partitions);
    }

    /** The live documents with a fingerprint. */
    long docs() throws IOException {
        long docs = 0;
        for (LeafReaderContext leaf : reader.leaves()) {
            if (shows(leaf.reader()) == false) {
                continue;
            }
            Bits live = leaf.reader().getLiveDocs();
            SortedNumericDocValues values = DocValues.getSortedNumeric(leaf.reader(), field);
            for (int doc = values.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = values.nextDoc()) {
                if (live == null || live.get(doc)) {
                    docs++;
                }
            }
        }
        return docs;
    }

    /** The distinct band values of partition {@code partition} of {@code partitions} that live documents hold, ascending. */
    long[] values(int partition, int partitions) throws IOException {
        Longs out = new Longs();
        for (LeafReaderContext leaf : reader.leaves()) {
            checkCancelled.run();
            visit(leaf, -1, (doc, v) -> {
                if (partitionOf(v, partitions) == partition) {
                    out.add(v);
                }
            });
        }
        try {
            return out.sortedDistinct();
        } finally {
            out.release();
        }
    }

    /**
     * The live documents that hold a band value another live document of the shard holds too, or one in {@code shared}
     * (ascending): the only ones of the shard that can share a band with another document of the report.
     */
    List<Candidate> candidates(long[] shared) throws IOException {
        FixedBitSet marked = new FixedBitSet(Math.max(1, reader.maxDoc()));
        long markedBytes = marked.ramBytesUsed();
        memory.accept(markedBytes);
        try {
            for (int band = 0; band < SketchBands.BANDS; band++) {
                checkCancelled.run();
                Longs values = new Longs();
                try {
                    for (LeafReaderContext leaf : reader.leaves()) {
                        visit(leaf, band, (doc, v) -> values.add(v));
                    }
                    long[] repeated = values.repeated();
                    values.release();
                    for (LeafReaderContext leaf : reader.leaves()) {
                        int base = leaf.docBase;
                        visit(leaf, band, (doc, v) -> {
                            if (Arrays.binarySearch(repeated, v) >= 0 || Arrays.binarySearch(shared, v) >= 0) {
                                marked.set(base + doc);
                            }
                        });
                    }
                } finally {
                    values.release();
                }
            }
            return read(marked);
        } finally {
            memory.accept(-markedBytes);
        }
    }

    private List<Candidate> read(FixedBitSet marked) throws IOException {
        List<Candidate> out = new ArrayList<>();
        for (LeafReaderContext leaf : reader.leaves()) {
            checkCancelled.run();
            LeafReader r = leaf.reader();
            int base = leaf.docBase;
            int end = base + r.maxDoc();
            int first = nextMarked(marked, base);
            if (first >= end) {
                continue;
            }
            SortedNumericDocValues fingerprints = DocValues.getSortedNumeric(r, field);
            BinaryDocValues sketches = SimHashFieldType.sketchValues(r, field);
            // Elasticsearch's readers can read stored fields in order, decompressing each block once (a fetch phase's way)
            StoredFields stored = r instanceof SequentialStoredFieldsLeafReader sequential ? sequential.getSequentialStoredFieldsReader()
                : r.storedFields();
            for (int g = first; g < end; g = nextMarked(marked, g + 1)) {
                int doc = g - base;
                if (fingerprints.advanceExact(doc) == false || sketches == null || sketches.advanceExact(doc) == false) {
                    continue;
                }
                BytesRef b = sketches.binaryValue();
                if (b.length != MinHashSketch.BYTES) {
                    continue;
                }
                IdAndRouting ids = new IdAndRouting();
                stored.document(doc, ids);
                if (ids.id == null) {
                    continue;
                }
                out.add(new Candidate(ids.id, ids.routing, fingerprints.nextValue(), BytesRef.deepCopyOf(b).bytes));
                memory.accept(CANDIDATE_BYTES + MinHashSketch.BYTES + ids.id.length());
            }
        }
        return out;
    }

    /** Roughly the heap of one {@link Candidate} beside its sketch's bytes and its id's characters. */
    static final long CANDIDATE_BYTES = 120;

    private static int nextMarked(FixedBitSet marked, int from) {
        return from >= marked.length() ? DocIdSetIterator.NO_MORE_DOCS : marked.nextSetBit(from);
    }

    /** Whether {@code reader} shows the field: field-level security hides the fingerprint, and with it its sketch. */
    private boolean shows(LeafReader r) {
        return r.getFieldInfos().fieldInfo(field) != null;
    }

    private interface ValueConsumer {
        void accept(int doc, long value);
    }

    /** Every band value of band {@code band} (all bands for -1) that a live document of the segment holds. */
    private void visit(LeafReaderContext leaf, int band, ValueConsumer consumer) throws IOException {
        LeafReader r = leaf.reader();
        if (shows(r) == false) {
            return;
        }
        PointValues points = r.getPointValues(sketchField);
        if (points == null) {
            return;
        }
        Bits live = r.getLiveDocs();
        points.intersect(new PointValues.IntersectVisitor() {
            @Override
            public void visit(int docID) {
                throw new IllegalStateException("every cell is read value by value");
            }

            @Override
            public void visit(int docID, byte[] packedValue) {
                if ((band < 0 || (packedValue[0] & 0xFF) == band) && (live == null || live.get(docID))) {
                    consumer.accept(docID, SketchBands.longValue(packedValue, 0));
                }
            }

            @Override
            public PointValues.Relation compare(byte[] minPackedValue, byte[] maxPackedValue) {
                if (band >= 0 && ((minPackedValue[0] & 0xFF) > band || (maxPackedValue[0] & 0xFF) < band)) {
                    return PointValues.Relation.CELL_OUTSIDE_QUERY;
                }
                return PointValues.Relation.CELL_CROSSES_QUERY;
            }
        });
    }

    /** Reads {@code _id} and {@code _routing}. */
    private static final class IdAndRouting extends StoredFieldVisitor {
        String id;
        String routing;

        @Override
        public Status needsField(FieldInfo fieldInfo) {
            return "_id".equals(fieldInfo.name) || "_routing".equals(fieldInfo.name) ? Status.YES : Status.NO;
        }

        @Override
        public void binaryField(FieldInfo fieldInfo, byte[] value) {
            if ("_id".equals(fieldInfo.name)) {
                id = Uid.decodeId(value);
            }
        }

        @Override
        public void stringField(FieldInfo fieldInfo, String value) {
            if ("_routing".equals(fieldInfo.name)) {
                routing = value;
            }
        }
    }

    /** A growing array of band values, charged as it grows. */
    private final class Longs {
        long[] values = new long[1024];
        int size;
        long charged;

        Longs() {
            charge();
        }

        void add(long v) {
            if (size == values.length) {
                values = Arrays.copyOf(values, values.length * 2);
                charge();
            }
            values[size++] = v;
        }

        private void charge() {
            long now = (long) values.length * Long.BYTES;
            memory.accept(now - charged);
            charged = now;
        }

        long[] sortedDistinct() {
            Arrays.sort(values, 0, size);
            int n = 0;
            for (int i = 0; i < size; i++) {
                if (n == 0 || values[i] != values[n - 1]) {
                    values[n++] = values[i];
                }
            }
            return Arrays.copyOf(values, n);
        }

        /** The values that occur more than once, ascending and distinct. */
        long[] repeated() {
            Arrays.sort(values, 0, size);
            int n = 0;
            for (int i = 1; i < size; i++) {
                if (values[i] == values[i - 1] && (n == 0 || values[n - 1] != values[i])) {
                    values[n++] = values[i];
                }
            }
            return Arrays.copyOf(values, n);
        }

        void release() {
            memory.accept(-charged);
            charged = 0;
            values = new long[0];
            size = 0;
        }
    }
}
