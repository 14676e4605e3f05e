package dev.simhash.query;

import dev.simhash.core.BlockTermLayout;
import dev.simhash.core.MinHashSketch;
import dev.simhash.core.SimHash;
import dev.simhash.threshold.Verification;

import org.apache.lucene.document.BinaryDocValuesField;
import org.apache.lucene.document.BinaryPoint;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.SortedNumericDocValuesField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.FilterDirectoryReader;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.MultiDocValues;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.Explanation;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.Directory;
import org.apache.lucene.tests.index.FieldFilterLeafReader;
import org.apache.lucene.tests.index.RandomIndexWriter;
import org.apache.lucene.tests.search.QueryUtils;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.util.BytesRef;

import java.io.IOException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;

/**
 * The Lucene queries with sketch verification ({@code min_similarity}) on random in-memory indices equal brute force:
 * candidates within the radius ({@link SimHashQuery}) or sharing a band ({@link SketchBandQuery}) whose stored sketch
 * reaches the threshold, scored by the estimated similarity; documents without a sketch (none, or an empty value) never
 * match.
 */
public class SketchVerifiedQueryTest extends LuceneTestCase {

    static final String FIELD = "fp";
    static final String SKETCHES = FIELD + "._minhash";
    static final BlockTermLayout BLOCKS = BlockTermLayout.packed(FIELD);
    /** A document's fingerprint and sketch (null: none; empty: an empty value). */
    record Doc(long hash, byte[] sketch) {}

    private static void add(RandomIndexWriter w, int id, Doc doc) throws IOException {
        Document d = new Document();
        d.add(new NumericDocValuesField("id", id));
        d.add(new StringField("key", Integer.toString(id), Field.Store.NO));
        for (BytesRef term : BLOCKS.terms(doc.hash())) {
            d.add(new StringField(FIELD, term, Field.Store.NO));
        }
        d.add(new SortedNumericDocValuesField(FIELD, doc.hash()));
        if (doc.sketch() != null) {
            d.add(new BinaryDocValuesField(SKETCHES, new BytesRef(doc.sketch())));
            // the band values as the field type indexes them: 1-dimensional points [band, the band's 5-byte key at 64 + 5 band];
            // zeros for an empty value (Lucene keeps one schema per field: every document with a sketch value has the points)
            for (int band = 0; band < 14; band++) {
                byte[] point = new byte[6];
                if (doc.sketch().length == MinHashSketch.BYTES) {
                    point[0] = (byte) band;
                    System.arraycopy(doc.sketch(), 64 + 5 * band, point, 1, 5);
                }
                d.add(new BinaryPoint(SKETCHES, point));
            }
        }
        w.addDocument(d);
    }

    static byte[] flipBits(Random r, byte[] sketch, int bits) {
        byte[] out = sketch.clone();
        java.util.Set<Integer> flipped = new java.util.HashSet<>();
        while (flipped.size() < bits) {
            flipped.add(r.nextInt(out.length * 8));
        }
        for (int b : flipped) {
            out[b >>> 3] ^= (byte) (1 << (b & 7));
        }
        return out;
    }

    public void testEqualsBruteForceOnRandomCorpora() throws IOException {
        for (int round = 0; round < 4; round++) {
            Random r = random();
            Map<Integer, Doc> live = new HashMap<>();
            long base = r.nextLong();
            byte[] baseSketch = new byte[MinHashSketch.BYTES];
            r.nextBytes(baseSketch);
            try (Directory dir = newDirectory(); RandomIndexWriter w = new RandomIndexWriter(r, dir)) {
                int size = 100 + r.nextInt(800);
                for (int i = 0; i < size; i++) {
                    long h = r.nextInt(3) == 0 ? r.nextLong() : SimHashQueryTest.flip(r, base, r.nextInt(20));
                    byte[] sketch = switch (r.nextInt(20)) {
                        case 0 -> null;
                        case 1 -> new byte[0];
                        default -> flipBits(r, baseSketch, r.nextInt(300));
                    };
                    Doc doc = new Doc(h, sketch);
                    add(w, i, doc);
                    live.put(i, doc);
                }
                boolean deletions = round % 2 == 1;
                for (int i = 0; deletions && i < size; i += 1 + r.nextInt(30)) {
                    w.deleteDocuments(new Term("key", Integer.toString(i)));
                    live.remove(i);
                }
                try (IndexReader reader = w.getReader()) {
                    IndexSearcher searcher = newSearcher(reader);
                    for (int q = 0; q < 20; q++) {
                        long query = SimHashQueryTest.flip(r, base, r.nextInt(6));
                        byte[] querySketch = flipBits(r, baseSketch, r.nextInt(60));
                        double s = q == 0 ? 1.0 : 0.05 + 0.9 * r.nextDouble();
                        int radius = r.nextInt(20);
                        check(searcher, live, query, querySketch, s, radius, !deletions && q < 2);
                        check(searcher, live, querySketch, s, !deletions && q < 2);
                    }
                }
            }
        }
    }

    private static void check(IndexSearcher searcher, Map<Integer, Doc> live, long query, byte[] querySketch, double s, int radius,
                              boolean queryUtils) throws IOException {
        SketchCheck check = new SketchCheck(FIELD, MinHashSketch.V1, querySketch, Verification.of(s));
        check(searcher, new SimHashQuery(FIELD, BLOCKS, query, radius, check), live,
            doc -> SimHash.distance(doc.hash(), query) <= radius, querySketch, s, queryUtils);
    }

    /** The band query against brute force: a candidate holds one of the query sketch's 14 five-byte keys (from byte 64) whole. */
    private static void check(IndexSearcher searcher, Map<Integer, Doc> live, byte[] querySketch, double s, boolean queryUtils)
        throws IOException {
        SketchBandQuery q = new SketchBandQuery(new SketchCheck(FIELD, MinHashSketch.V1, querySketch, Verification.of(s)));
        check(searcher, q, live, doc -> {
            for (int at = 64; at < MinHashSketch.BYTES; at += 5) {
                if (Arrays.equals(doc.sketch(), at, at + 5, querySketch, at, at + 5)) {
                    return true;
                }
            }
            return false;
        }, querySketch, s, queryUtils);
    }

    private static void check(IndexSearcher searcher, org.apache.lucene.search.Query q, Map<Integer, Doc> live,
                              java.util.function.Predicate<Doc> candidate, byte[] querySketch, double s, boolean queryUtils)
        throws IOException {
        TopDocs top = searcher.search(q, Math.max(1, searcher.getIndexReader().maxDoc()));
        Map<Integer, Double> actual = new TreeMap<>();
        float last = Float.MAX_VALUE;
        for (ScoreDoc sd : top.scoreDocs) {
            NumericDocValues ids = MultiDocValues.getNumericValues(searcher.getIndexReader(), "id");
            assertTrue(ids.advanceExact(sd.doc));
            int id = (int) ids.longValue();
            assertTrue("ordered by similarity", sd.score <= last);
            last = sd.score;
            actual.put(id, (double) sd.score);
            Explanation e = searcher.explain(q, sd.doc);
            assertTrue(e.isMatch());
            assertEquals(sd.score, e.getValue().floatValue(), 1e-6f);
        }
        Map<Integer, Double> expected = new TreeMap<>();
        live.forEach((id, doc) -> {
            if (doc.sketch() == null || doc.sketch().length != MinHashSketch.BYTES || !candidate.test(doc)) {
                return;
            }
            double similarity = MinHashSketch.V1.similarity(doc.sketch(), querySketch);
            if (similarity >= s) {
                expected.put(id, (double) (float) similarity);
            }
        });
        assertEquals(q + " s=" + s, expected, actual);
        if (queryUtils) {
            QueryUtils.check(random(), q, searcher);
        }
    }

    public void testADocumentWithoutASketchNeverMatchesAndExplainSaysWhy() throws IOException {
        byte[] sketch = new byte[MinHashSketch.BYTES];
        random().nextBytes(sketch);
        try (Directory dir = newDirectory(); RandomIndexWriter w = new RandomIndexWriter(random(), dir)) {
            add(w, 0, new Doc(42L, sketch));
            add(w, 1, new Doc(42L, null));
            add(w, 2, new Doc(42L, new byte[0]));
            byte[] half = sketch.clone();
            for (int i = 0; i < 64; i += 2) {
                half[i] ^= (byte) 0xFF; // 256 of the 512 bins' bits differ: estimate 0
            }
            add(w, 3, new Doc(42L, half));
            try (IndexReader reader = w.getReader()) {
                IndexSearcher searcher = newSearcher(reader);
                SimHashQuery q = new SimHashQuery(FIELD, BLOCKS, 42L, 0, new SketchCheck(FIELD, MinHashSketch.V1, sketch, Verification.of(0.5)));
                TopDocs top = searcher.search(q, 10);
                assertEquals(1, top.scoreDocs.length);
                assertEquals(1.0f, top.scoreDocs[0].score, 0f);
                NumericDocValues ids = MultiDocValues.getNumericValues(reader, "id");
                for (int doc = 0; doc < reader.maxDoc(); doc++) {
                    assertTrue(ids.advanceExact(doc));
                    Explanation e = searcher.explain(q, doc);
                    long id = ids.longValue();
                    assertEquals(id == 0, e.isMatch());
                    if (id == 1 || id == 2) {
                        assertTrue(e.getDescription(), e.getDescription().contains("no similarity sketch"));
                    }
                    if (id == 3) {
                        assertTrue(e.getDescription(), e.getDescription().contains("< min_similarity [0.5]"));
                    }
                    ids = MultiDocValues.getNumericValues(reader, "id");
                }
            }
        }
    }

    /**
     * The band rule's limit, explicitly: a sketch with the query's bins but one bit off in every band key (similarity 1)
     * is no candidate of the band query, while one that keeps a single key whole is.
     */
    public void testTheBandQueryFindsOnlySketchesThatShareABand() throws IOException {
        byte[] sketch = new byte[MinHashSketch.BYTES];
        random().nextBytes(sketch);
        byte[] everyBandDiffers = sketch.clone();
        for (int band = 0; band < 14; band++) {
            everyBandDiffers[64 + 5 * band + random().nextInt(5)] ^= (byte) (1 << random().nextInt(8));
        }
        byte[] oneBandKept = everyBandDiffers.clone();
        int kept = random().nextInt(14);
        System.arraycopy(sketch, 64 + 5 * kept, oneBandKept, 64 + 5 * kept, 5);
        try (Directory dir = newDirectory(); RandomIndexWriter w = new RandomIndexWriter(random(), dir)) {
            add(w, 0, new Doc(1L, everyBandDiffers));
            add(w, 1, new Doc(2L, oneBandKept));
            add(w, 2, new Doc(3L, null));
            try (IndexReader reader = w.getReader()) {
                SketchBandQuery q = new SketchBandQuery(new SketchCheck(FIELD, MinHashSketch.V1, sketch, Verification.of(0.8)));
                assertOnlyMatch(reader, q, 1, 1f, Map.of(0L, List.of("shares none of the query sketch's 14 band keys"),
                    2L, List.of("no similarity sketch")));
            }
        }
    }

    /**
     * A reader that does not show the fingerprint field (as field-level security shows a role that excludes it) shows no
     * sketch either: neither the band query nor the radius query with a sketch check matches, though both would without it.
     */
    public void testAReaderThatHidesTheFingerprintFieldHidesItsSketch() throws IOException {
        byte[] sketch = new byte[MinHashSketch.BYTES];
        random().nextBytes(sketch);
        try (Directory dir = newDirectory(); RandomIndexWriter w = new RandomIndexWriter(random(), dir)) {
            add(w, 0, new Doc(42L, sketch));
            try (DirectoryReader reader = w.getReader()) {
                List<org.apache.lucene.search.Query> queries = List.of(
                    new SketchBandQuery(new SketchCheck(FIELD, MinHashSketch.V1, sketch, Verification.of(0.8))),
                    new SimHashQuery(FIELD, BLOCKS, 42L, 0, new SketchCheck(FIELD, MinHashSketch.V1, sketch, Verification.of(0.8))));
                for (org.apache.lucene.search.Query q : queries) {
                    assertEquals(q.toString(), 1, newSearcher(reader).count(q));
                }
                // everything but the fingerprint field: the sketch's own field and its band points are still there
                DirectoryReader hiding = new FilterDirectoryReader(reader, new FilterDirectoryReader.SubReaderWrapper() {
                    @Override
                    public LeafReader wrap(LeafReader leaf) {
                        return new FieldFilterLeafReader(leaf, Set.of(FIELD), true);
                    }
                }) {
                    @Override
                    protected DirectoryReader doWrapDirectoryReader(DirectoryReader in) {
                        throw new UnsupportedOperationException();
                    }

                    @Override
                    public CacheHelper getReaderCacheHelper() {
                        return null;
                    }
                };
                assertNotNull(hiding.leaves().get(0).reader().getPointValues(SKETCHES));
                for (org.apache.lucene.search.Query q : queries) {
                    assertEquals(q.toString(), 0, new IndexSearcher(hiding).count(q));
                }
            }
        }
    }

    /**
     * Exactly the document with id {@code matching} matches {@code q}, with {@code score}; the explanation of every other
     * document says no and contains its {@code reasons}.
     */
    private static void assertOnlyMatch(IndexReader reader, org.apache.lucene.search.Query q, long matching, float score,
                                        Map<Long, List<String>> reasons) throws IOException {
        IndexSearcher searcher = newSearcher(reader);
        TopDocs top = searcher.search(q, 10);
        assertEquals(1, top.scoreDocs.length);
        assertEquals(score, top.scoreDocs[0].score, 1e-6f);
        NumericDocValues ids = MultiDocValues.getNumericValues(reader, "id");
        for (int doc = 0; doc < reader.maxDoc(); doc++) {
            assertTrue(ids.advanceExact(doc));
            long id = ids.longValue();
            Explanation e = searcher.explain(q, doc);
            assertEquals(id == matching, e.isMatch());
            for (String reason : reasons.getOrDefault(id, List.of())) {
                assertTrue(e.getDescription(), e.getDescription().contains(reason));
            }
            ids = MultiDocValues.getNumericValues(reader, "id");
        }
    }
}
