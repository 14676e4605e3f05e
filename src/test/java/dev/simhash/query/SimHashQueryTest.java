package dev.simhash.query;

import dev.simhash.core.BlockTermLayout;
import dev.simhash.core.SimHash;

import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.LongField;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.SortedNumericDocValuesField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.MultiDocValues;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.Explanation;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.Directory;
import org.apache.lucene.tests.index.RandomIndexWriter;
import org.apache.lucene.tests.search.QueryUtils;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.util.BytesRef;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/** The Lucene query on random in-memory indices equals brute force for every radius. */
public class SimHashQueryTest extends LuceneTestCase {

    static final String HASH = "fp.hash";
    static final String[] BLOCK_FIELDS = { "fp.b0", "fp.b1", "fp.b2", "fp.b3" };
    static final BlockTermLayout BLOCKS = BlockTermLayout.hexFields(BLOCK_FIELDS);
    /** The same fingerprints as a simhash field stores them: doc values and 3-byte block terms [j, hi, lo] in one field. */
    static final String PACKED = "fpp";

    /** Fingerprints with planted near-duplicate clusters (distances 0..20) and random ones. */
    static List<Long> corpus(Random r, int size) {
        List<Long> out = new ArrayList<>();
        while (out.size() < size) {
            long base = r.nextLong();
            out.add(base);
            int cluster = r.nextInt(6);
            for (int i = 0; i < cluster && out.size() < size; i++) {
                out.add(flip(r, base, r.nextInt(21)));
            }
        }
        return out;
    }

    static long flip(Random r, long h, int bits) {
        long mask = 0;
        while (Long.bitCount(mask) < bits) {
            mask |= 1L << r.nextInt(64);
        }
        return h ^ mask;
    }

    private static void addDoc(RandomIndexWriter w, int id, Long hash) throws IOException {
        Document d = new Document();
        d.add(new NumericDocValuesField("id", id));
        d.add(new StringField("key", Integer.toString(id), Field.Store.NO));
        if (hash != null) {
            d.add(new LongField(HASH, hash, Field.Store.NO));
            for (int j = 0; j < 4; j++) {
                d.add(new StringField(BLOCK_FIELDS[j], new BytesRef(SimHash.blockTerm(SimHash.block(hash, j))), Field.Store.NO));
                int block = (int) (hash >>> (16 * j)) & 0xFFFF;
                d.add(new StringField(PACKED, new BytesRef(new byte[] { (byte) j, (byte) (block >> 8), (byte) block }), Field.Store.NO));
            }
            d.add(new SortedNumericDocValuesField(PACKED, hash));
        }
        w.addDocument(d);
    }

    public void testEqualsBruteForceOnRandomCorpora() throws IOException {
        for (int round = 0; round < 6; round++) {
            int size = random().nextBoolean() ? random().nextInt(60) : 200 + random().nextInt(3000);
            List<Long> hashes = corpus(random(), size);
            Map<Integer, Long> live = new HashMap<>();
            try (Directory dir = newDirectory(); RandomIndexWriter w = new RandomIndexWriter(random(), dir)) {
                for (int i = 0; i < hashes.size(); i++) {
                    Long h = random().nextInt(20) == 0 ? null : hashes.get(i);
                    addDoc(w, i, h);
                    if (h != null) {
                        live.put(i, h);
                    }
                }
                boolean deletions = round % 2 == 1;
                for (int i = 0; deletions && i < hashes.size(); i += 1 + random().nextInt(40)) {
                    w.deleteDocuments(new Term("key", Integer.toString(i)));
                    live.remove(i);
                }
                try (IndexReader reader = w.getReader()) {
                    IndexSearcher searcher = newSearcher(reader);
                    for (int q = 0; q < 30; q++) {
                        long query = hashes.isEmpty() || random().nextInt(4) == 0 ? random().nextLong()
                            : flip(random(), hashes.get(random().nextInt(hashes.size())), random().nextInt(12));
                        int r = random().nextInt(5) == 0 ? random().nextInt(65) : random().nextInt(24);
                        check(searcher, live, query, r, !deletions && q < 2);
                    }
                    for (int r : new int[] { 0, 1, 2, 3, 4, 7, 11, 20, 64 }) {
                        check(searcher, live, hashes.isEmpty() ? 0 : hashes.get(0), r, false);
                    }
                }
            }
        }
    }

    private static void check(IndexSearcher searcher, Map<Integer, Long> live, long query, int r, boolean queryUtils)
        throws IOException {
        check(searcher, live, new SimHashQuery(HASH, BLOCKS, query, r), query, r, queryUtils);
        check(searcher, live, new SimHashQuery(PACKED, BlockTermLayout.packed(PACKED), query, r), query, r, queryUtils);
    }

    private static void check(IndexSearcher searcher, Map<Integer, Long> live, SimHashQuery q, long query, int r, boolean queryUtils)
        throws IOException {
        TopDocs top = searcher.search(q, Math.max(1, searcher.getIndexReader().maxDoc()));
        Map<Integer, Integer> actual = new TreeMap<>();
        float lastScore = Float.MAX_VALUE;
        List<ScoreDoc> sorted = List.of(top.scoreDocs);
        for (ScoreDoc sd : sorted) {
            NumericDocValues idv = MultiDocValues.getNumericValues(searcher.getIndexReader(), "id");
            assertTrue(idv.advanceExact(sd.doc));
            int id = (int) idv.longValue();
            int d = SimHash.distance(live.get(id), query);
            assertEquals("score of distance " + d + " r=" + r + " id=" + id + " " + searcher.explain(q, sd.doc), (64 - d) / 64f, sd.score, 1e-6f);
            assertTrue("ordered by score", sd.score <= lastScore);
            lastScore = sd.score;
            actual.put(id, d);
        }
        Map<Integer, Integer> expected = bruteForce(live, query, r);
        assertEquals("r=" + r + " query=" + SimHash.toHex(query), expected, actual);
        if (queryUtils) {
            // Lucene's generic checks (advance/score consistency, explain, equals); they assume no deleted documents
            QueryUtils.check(random(), q, searcher);
        }
    }

    static Map<Integer, Integer> bruteForce(Map<Integer, Long> live, long query, int r) {
        Map<Integer, Integer> out = new TreeMap<>();
        live.forEach((id, h) -> {
            int d = SimHash.distance(h, query);
            if (d <= r) {
                out.put(id, d);
            }
        });
        return out;
    }

    public void testExplainAgreesWithMatching() throws IOException {
        try (Directory dir = newDirectory(); RandomIndexWriter w = new RandomIndexWriter(random(), dir)) {
            long base = 0x0123_4567_89ab_cdefL;
            addDoc(w, 0, base);
            addDoc(w, 1, base ^ 0b111);
            addDoc(w, 2, base ^ 0xFFFFL);
            addDoc(w, 3, null);
            try (IndexReader reader = w.getReader()) {
                IndexSearcher searcher = newSearcher(reader);
                SimHashQuery q = new SimHashQuery(HASH, BLOCKS, base, 3);
                Set<Integer> matched = new TreeSet<>();
                for (ScoreDoc sd : searcher.search(q, 10).scoreDocs) {
                    matched.add(sd.doc);
                    Explanation e = searcher.explain(q, sd.doc);
                    assertTrue(e.isMatch());
                    assertEquals(sd.score, e.getValue().floatValue(), 1e-6f);
                }
                assertEquals(2, matched.size());
                for (int doc = 0; doc < reader.maxDoc(); doc++) {
                    assertEquals(matched.contains(doc), searcher.explain(q, doc).isMatch());
                }
            }
        }
    }

    public void testComposesInBooleanAndBoosts() throws IOException {
        try (Directory dir = newDirectory(); RandomIndexWriter w = new RandomIndexWriter(random(), dir)) {
            long base = random().nextLong();
            for (int i = 0; i < 50; i++) {
                addDoc(w, i, flip(random(), base, i % 10));
            }
            try (IndexReader reader = w.getReader()) {
                IndexSearcher searcher = newSearcher(reader);
                BooleanQuery bq = new BooleanQuery.Builder()
                    .add(new SimHashQuery(HASH, BLOCKS, base, 5), BooleanClause.Occur.FILTER)
                    .add(new TermQuery(new Term("key", "7")), BooleanClause.Occur.MUST_NOT)
                    .build();
                int expected = 0;
                for (int i = 0; i < 50; i++) {
                    if (i % 10 <= 5 && i != 7) {
                        expected++;
                    }
                }
                assertEquals(expected, searcher.count(bq));
                // a boost multiplies the score (64 - d) / 64, also inside a bool
                float boost = 2.5f;
                Query boosted = new BooleanQuery.Builder()
                    .add(new BoostQuery(new SimHashQuery(HASH, BLOCKS, base, 5), boost), BooleanClause.Occur.MUST)
                    .add(new TermQuery(new Term("key", "7")), BooleanClause.Occur.MUST_NOT)
                    .build();
                TopDocs top = searcher.search(boosted, 100);
                assertEquals(expected, top.scoreDocs.length);
                NumericDocValues ids = MultiDocValues.getNumericValues(reader, "id");
                for (ScoreDoc sd : top.scoreDocs) {
                    ids = MultiDocValues.getNumericValues(reader, "id");
                    assertTrue(ids.advanceExact(sd.doc));
                    int distance = (int) (ids.longValue() % 10); // documents were planted at distance i % 10
                    assertEquals(boost * (64 - distance) / 64f, sd.score, 1e-6f);
                }
            }
        }
    }

    /** An oracle check (reported apart from the plugin's tests): the brute force above tells a wrong verifier apart. */
    public void testOracleCatchesAWrongVerifier() {
        Map<Integer, Long> live = Map.of(1, 0L, 2, 0b1111L, 3, 0b11111L);
        Map<Integer, Integer> right = bruteForce(live, 0L, 4);
        Map<Integer, Integer> dropped = bruteForce(live, 0L, 3);
        Map<Integer, Integer> added = bruteForce(live, 0L, 5);
        assertNotEquals(right, dropped);
        assertNotEquals(right, added);
    }

    public void testBlockTermParsing() {
        BlockTermLayout hex = BLOCKS;
        assertEquals(0x03fa, hex.value(2, new BytesRef("03fa")));
        assertEquals(-1, hex.value(2, new BytesRef("3fa")));
        assertEquals(-1, hex.value(2, new BytesRef("03fz")));
        assertEquals(-1, hex.value(2, new BytesRef("03fa0")));
        BlockTermLayout packed = BlockTermLayout.packed(PACKED);
        assertEquals(new BytesRef(new byte[] { 2, 0x03, (byte) 0xfa }), packed.term(2, 0x03fa));
        assertEquals(0xfffe, packed.value(3, new BytesRef(new byte[] { 3, (byte) 0xff, (byte) 0xfe })));
        assertEquals(-1, packed.value(2, new BytesRef(new byte[] { 3, (byte) 0xff, (byte) 0xfe })));
        assertEquals(-1, packed.value(3, new BytesRef(new byte[] { 3, (byte) 0xff })));
        assertTrue(packed.pastBlock(1, new BytesRef(new byte[] { 2, 0, 0 })));
        assertFalse(packed.pastBlock(2, new BytesRef(new byte[] { 2, 0, 0 })));
    }
}
