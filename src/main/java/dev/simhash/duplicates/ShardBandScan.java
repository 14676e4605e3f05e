package dev.simhash.duplicates;

import dev.simhash.core.BandComponents;
import dev.simhash.core.DuplicateGroups;
import dev.simhash.core.MinHashSketch;
import dev.simhash.core.NearDuplicateComponents;
import dev.simhash.core.SketchBands;
import dev.simhash.mapper.SimHashFieldType;
import dev.simhash.threshold.Verification;

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
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.BitSet;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongConsumer;

/**
 * The report's reading of one shard, through the caller's searcher (deleted documents, and those document-level security
 * hides, are not live; a field that field-level security hides has no values): how many documents have a fingerprint,
 * which band values they hold, which of them hold a band value that another document holds too, and the groups those
 * form. The band values are read from the field's points ({@code [band, key]}, one per band and document), band by band.
 */
final class ShardBandScan {

    /**
     * The candidate documents as read: the shard's document number, id and routing (null for none, and null ids where they
     * were not read: {@link #candidates(long[], Executor, int, boolean)}), fingerprint and sketch of each, in growing arrays,
     * by document number.
     */
    static final class Candidates {
        /** Whether {@link #ids} and {@link #routings} were read with the candidates. */
        final boolean withIds;
        int[] docs = new int[16];
        String[] ids = new String[16];
        String[] routings = new String[16];
        long[] fingerprints = new long[16];
        byte[] sketches = new byte[16 * MinHashSketch.BYTES];
        int size;

        Candidates(boolean withIds) {
            this.withIds = withIds;
        }

        /** Appends one; returns the bytes the arrays grew by. */
        long add(int doc, String id, String routing, long fingerprint, BytesRef sketch) {
            long grew = 0;
            if (size == ids.length) {
                int n = size * 2;
                grew = (long) size * (3L * Integer.BYTES + Long.BYTES + MinHashSketch.BYTES);
                docs = Arrays.copyOf(docs, n);
                ids = Arrays.copyOf(ids, n);
                routings = Arrays.copyOf(routings, n);
                fingerprints = Arrays.copyOf(fingerprints, n);
                sketches = Arrays.copyOf(sketches, n * MinHashSketch.BYTES);
            }
            docs[size] = doc;
            ids[size] = id;
            routings[size] = routing;
            fingerprints[size] = fingerprint;
            System.arraycopy(sketch.bytes, sketch.offset, sketches, size * MinHashSketch.BYTES, MinHashSketch.BYTES);
            size++;
            return grew + idBytes(id, routing);
        }
    }

    /** The heap of an id's String (a header, its array's header and its bytes) and the routing's, if any. */
    private static long idBytes(String id, String routing) {
        return (id == null ? 0 : 56 + id.length()) + (routing == null ? 0 : 56 + routing.length());
    }

    private final IndexReader reader;
    private final String field;
    private final String sketchField;
    /** Charges (positive) or releases (negative) the bytes of this scan's arrays. */
    private final LongConsumer memory;
    private final Runnable checkCancelled;
    /** The most documents a shard may have to be marked by packed pairs ({@link #markPacked}). */
    private final int packedDocs;

    ShardBandScan(IndexReader reader, String field, LongConsumer memory, Runnable checkCancelled) {
        this(reader, field, memory, checkCancelled, 1 << DOC_BITS);
    }

    /** As above; tests lower {@code packedDocs} to reach the walk for larger shards. */
    ShardBandScan(IndexReader reader, String field, LongConsumer memory, Runnable checkCancelled, int packedDocs) {
        this.reader = reader;
        this.packedDocs = packedDocs;
        this.field = field;
        this.sketchField = SimHashFieldType.sketchField(field);
        this.memory = memory;
        this.checkCancelled = checkCancelled;
    }

    private static final int KEY_BITS = 8 * SketchBands.KEY_BYTES;
    private static final long KEY_MASK = (1L << KEY_BITS) - 1;

    /** Gives each value that {@code sorted[0..size)} (ascending) holds more than once to {@code out}, once, in order. */
    static void forEachRepeated(long[] sorted, int size, LongConsumer out) {
        for (int i = 1; i < size; i++) {
            if (sorted[i] == sorted[i - 1] && (i == 1 || sorted[i - 1] != sorted[i - 2])) {
                out.accept(sorted[i]);
            }
        }
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
    Candidates candidates(long[] shared) throws IOException {
        return candidates(shared, null, 1, true);
    }

    /**
     * As {@link #candidates(long[])}, the bands split among up to {@code parallelism} threads (the caller's and
     * {@code executor}'s), each marking its own bit set, merged at the end; with {@code ids} false, without their
     * {@code _id} and {@code _routing} (the stored fields, most of the reading's time: {@link #group} reads them for the
     * members it lists).
     */
    Candidates candidates(long[] shared, Executor executor, int parallelism, boolean ids) throws IOException {
        int threads = executor == null ? 1 : Math.max(1, Math.min(parallelism, SketchBands.BANDS));
        FixedBitSet[] marks = new FixedBitSet[threads];
        long markedBytes = 0;
        for (int t = 0; t < threads; t++) {
            marks[t] = new FixedBitSet(Math.max(1, reader.maxDoc()));
            markedBytes += marks[t].ramBytesUsed();
        }
        memory.accept(markedBytes);
        try {
            new NearDuplicateComponents.Parts(threads, part -> {
                try {
                    for (int band = part; band < SketchBands.BANDS; band += threads) {
                        checkCancelled.run();
                        if (reader.maxDoc() <= packedDocs) {
                            markPacked(band, shared, marks[part]);
                        } else {
                            markInTwoWalks(band, shared, marks[part]);
                        }
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }, new AtomicBoolean()).run(executor);
            for (int t = 1; t < threads; t++) {
                marks[0].or(marks[t]);
            }
            return read(marks[0], ids);
        } catch (UncheckedIOException e) {
            throw e.getCause();
        } finally {
            memory.accept(-markedBytes);
        }
    }

    /**
     * A page of the groups of a shard's candidates, found on the shard (what a report over one shard needs, so that no sketch
     * leaves the shard): the members of each group of the page (id, routing, fingerprint), each one's group (its position on
     * the page) and similarity to its group's representative, and per group its id and representative (a member's
     * position); with the number of groups of two or more documents and of their documents over the whole shard.
     */
    record Groups(int size, String[] ids, String[] routings, long[] fingerprints, int[] groupOf, double[] similarity, long[] groupIds,
                  int[] representatives, long comparisons, long hotBuckets, int groupsTotal, long duplicatesTotal) {}

    /**
     * Groups the candidates as the report does ({@link BandComponents}), in up to {@code parallelism} threads (the caller's
     * and {@code executor}'s), charging the grouping's arrays, and keeps groups {@code [from, from + size)} in report order
     * ({@link DuplicateGroups#select}): only their members' {@code _id} and {@code _routing} are read, where the candidates
     * came without them.
     */
    Groups group(Candidates c, Verification verification, Executor executor, int parallelism, int from, int size) throws IOException {
        int n = c.size;
        long grouping = BandComponents.estimateBytes(n, parallelism);
        memory.accept(grouping);
        try {
            BitSet present = new BitSet(n);
            present.set(0, n);
            NearDuplicateComponents.Sketches sketches = new NearDuplicateComponents.Sketches(c.sketches, present, MinHashSketch.BYTES,
                verification::linked);
            NearDuplicateComponents components = BandComponents.find(Arrays.copyOf(c.fingerprints, n), sketches, checkCancelled,
                groups -> {}, executor, parallelism);
            DuplicateGroups.Selection page = DuplicateGroups.select(components, from, size);
            int[] position = page.pagePositions(components.componentCount());
            int members = 0;
            for (int doc = 0; doc < n; doc++) {
                if (position[components.componentOf(doc)] >= 0) {
                    members++;
                }
            }
            int[] listed = new int[members];
            members = 0;
            for (int doc = 0; doc < n; doc++) {
                if (position[components.componentOf(doc)] >= 0) {
                    listed[members++] = doc;
                }
            }
            if (c.withIds == false) {
                readIds(c, listed);
            }
            int groups = page.components().length;
            String[] ids = new String[members];
            String[] routings = new String[members];
            long[] fingerprints = new long[members];
            int[] groupOf = new int[members];
            double[] similarity = new double[members];
            long[] groupIds = new long[groups];
            int[] representatives = new int[groups];
            for (int m = 0; m < members; m++) {
                int doc = listed[m];
                int k = components.componentOf(doc);
                int g = position[k];
                int rep = components.representative(k);
                ids[m] = c.ids[doc];
                routings[m] = c.routings[doc];
                fingerprints[m] = c.fingerprints[doc];
                groupOf[m] = g;
                similarity[m] = Verification.similarity(c.sketches, doc * MinHashSketch.BYTES, c.sketches, rep * MinHashSketch.BYTES);
                if (doc == rep) {
                    representatives[g] = m;
                }
                groupIds[g] = components.componentMinHash(k);
            }
            return new Groups(members, ids, routings, fingerprints, groupOf, similarity, groupIds, representatives, components.comparisons(),
                components.hotBuckets(), page.groupsTotal(), page.duplicatesTotal());
        } finally {
            memory.accept(-grouping);
        }
    }

    /** Bits of a document number packed beside a band's key: shards of at most 2^24 documents are marked in one walk per band. */
    private static final int DOC_BITS = 24;
    /** The bits of a packed pair a band's values are first bucketed by. */
    private static final int TOP_BITS = 16;

    /**
     * Marks the documents holding a value of band {@code band} that another holds or {@code shared} has: one walk, the
     * (key, document) pairs packed in one long each, sorted, runs of equal keys marked.
     */
    private void markPacked(int band, long[] shared, FixedBitSet marked) throws IOException {
        Longs pairs = new Longs();
        try {
            for (LeafReaderContext leaf : reader.leaves()) {
                int base = leaf.docBase;
                visit(leaf, band, (doc, v) -> pairs.add((v & KEY_MASK) << DOC_BITS | (base + doc)));
            }
            int n = pairs.size;
            // a counting sort on the top bits of the key, then each bucket sorted: equal keys end up adjacent
            long[] byTop = new long[n];
            long bytes = (long) n * Long.BYTES;
            memory.accept(bytes);
            try {
                int[] start = new int[(1 << TOP_BITS) + 1];
                long[] values = pairs.values;
                for (int i = 0; i < n; i++) {
                    start[(int) (values[i] >>> (64 - TOP_BITS)) + 1]++;
                }
                for (int b = 0; b < 1 << TOP_BITS; b++) {
                    start[b + 1] += start[b];
                }
                int[] fill = Arrays.copyOf(start, 1 << TOP_BITS);
                for (int i = 0; i < n; i++) {
                    byTop[fill[(int) (values[i] >>> (64 - TOP_BITS))]++] = values[i];
                }
                pairs.release();
                for (int b = 0; b < 1 << TOP_BITS; b++) {
                    int from = start[b];
                    int to = start[b + 1];
                    if (to - from > 1) {
                        Arrays.sort(byTop, from, to);
                    }
                    markRuns(band, byTop, from, to, shared, marked);
                }
            } finally {
                memory.accept(-bytes);
            }
        } finally {
            pairs.release();
        }
    }

    /** Marks the documents of {@code sorted[from..to)} whose key another holds too or {@code shared} has. */
    private static void markRuns(int band, long[] sorted, int from, int to, long[] shared, FixedBitSet marked) {
        for (int run = from; run < to;) {
            long key = sorted[run] >>> DOC_BITS;
            int end = run + 1;
            while (end < to && sorted[end] >>> DOC_BITS == key) {
                end++;
            }
            if (end - run > 1 || (shared.length > 0 && Arrays.binarySearch(shared, (long) band << KEY_BITS | key) >= 0)) {
                for (int i = run; i < end; i++) {
                    marked.set((int) (sorted[i] & ((1L << DOC_BITS) - 1)));
                }
            }
            run = end;
        }
    }

    /** As {@link #markPacked} for larger shards: the band's values collected and sorted, then a second walk marks. */
    private void markInTwoWalks(int band, long[] shared, FixedBitSet marked) throws IOException {
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

    private Candidates read(FixedBitSet marked, boolean withIds) throws IOException {
        Candidates out = new Candidates(withIds);
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
            StoredFields stored = withIds ? storedFields(r) : null;
            for (int g = first; g < end; g = nextMarked(marked, g + 1)) {
                int doc = g - base;
                if (fingerprints.advanceExact(doc) == false || sketches == null || sketches.advanceExact(doc) == false) {
                    continue;
                }
                BytesRef b = sketches.binaryValue();
                if (b.length != MinHashSketch.BYTES) {
                    continue;
                }
                IdAndRouting ids = null;
                if (stored != null) {
                    ids = new IdAndRouting();
                    stored.document(doc, ids);
                    if (ids.id == null) {
                        continue;
                    }
                }
                memory.accept(out.add(g, ids == null ? null : ids.id, ids == null ? null : ids.routing, fingerprints.nextValue(), b));
            }
        }
        return out;
    }

    /** Elasticsearch's readers can read stored fields in order, decompressing each block once (a fetch phase's way). */
    private static StoredFields storedFields(LeafReader r) throws IOException {
        return r instanceof SequentialStoredFieldsLeafReader sequential ? sequential.getSequentialStoredFieldsReader() : r.storedFields();
    }

    /**
     * Reads {@code _id} and {@code _routing} of the candidates {@code which} (ascending positions in {@code c}) into
     * {@code c}, charging their strings. A document whose {@code _id} is not stored cannot be listed: an error.
     */
    private void readIds(Candidates c, int[] which) throws IOException {
        int at = 0;
        for (LeafReaderContext leaf : reader.leaves()) {
            int base = leaf.docBase;
            int end = base + leaf.reader().maxDoc();
            if (at == which.length || c.docs[which[at]] >= end) {
                continue;
            }
            checkCancelled.run();
            StoredFields stored = storedFields(leaf.reader());
            for (; at < which.length && c.docs[which[at]] < end; at++) {
                int i = which[at];
                IdAndRouting ids = new IdAndRouting();
                stored.document(c.docs[i] - base, ids);
                if (ids.id == null) {
                    throw new IllegalStateException("document [" + (c.docs[i] - base) + "] of a segment of the shard has no stored _id");
                }
                c.ids[i] = ids.id;
                c.routings[i] = ids.routing;
                memory.accept(idBytes(ids.id, ids.routing));
            }
        }
    }

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
            Longs out = new Longs();
            forEachRepeated(values, size, out::add);
            long[] repeated = Arrays.copyOf(out.values, out.size);
            out.release();
            return repeated;
        }

        void release() {
            memory.accept(-charged);
            charged = 0;
            values = new long[0];
            size = 0;
        }
    }
}
