package dev.simhash.query;

import dev.simhash.core.BlockTermLayout;

import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.SortedNumericDocValuesField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.MultiDocValues;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.Directory;
import org.apache.lucene.tests.index.RandomIndexWriter;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.util.BytesRef;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The k nearest documents on random in-memory indices (several segments, deletions) equal brute force:
 * the same distances as the k smallest, each hit scored by its own distance; with a filter the nearest
 * are chosen among the filtered documents, an excluded document never comes back.
 */
public class SimHashNearestQueryTest extends LuceneTestCase {

    static final String FP = "fp";

    private static void addDoc(RandomIndexWriter w, int id, Long hash) throws IOException {
        Document d = new Document();
        d.add(new NumericDocValuesField("id", id));
        d.add(new StringField("key", Integer.toString(id), Field.Store.NO));
        d.add(new StringField("parity", id % 2 == 0 ? "even" : "odd", Field.Store.NO));
        if (hash != null) {
            for (int j = 0; j < 4; j++) {
                int block = (int) (hash >>> (16 * j)) & 0xFFFF;
                d.add(new StringField(FP, new BytesRef(new byte[] { (byte) j, (byte) (block >> 8), (byte) block }), Field.Store.NO));
            }
            d.add(new SortedNumericDocValuesField(FP, hash));
        }
        w.addDocument(d);
    }

    public void testKNearestEqualBruteForce() throws IOException {
        for (int round = 0; round < 5; round++) {
            List<Long> hashes = SimHashQueryTest.corpus(random(), random().nextBoolean() ? random().nextInt(40) : 300 + random().nextInt(2000));
            Map<Integer, Long> live = new HashMap<>();
            try (Directory dir = newDirectory(); RandomIndexWriter w = new RandomIndexWriter(random(), dir)) {
                for (int i = 0; i < hashes.size(); i++) {
                    Long h = random().nextInt(15) == 0 ? null : hashes.get(i);
                    addDoc(w, i, h);
                    if (h != null) {
                        live.put(i, h);
                    }
                }
                for (int i = 0; i < hashes.size(); i += 1 + random().nextInt(30)) {
                    w.deleteDocuments(new Term("key", Integer.toString(i)));
                    live.remove(i);
                }
                try (IndexReader reader = w.getReader()) {
                    IndexSearcher searcher = newSearcher(reader);
                    for (int q = 0; q < 20; q++) {
                        long query = hashes.isEmpty() || random().nextInt(3) == 0 ? random().nextLong()
                            : SimHashQueryTest.flip(random(), hashes.get(random().nextInt(hashes.size())), random().nextInt(10));
                        int k = 1 + random().nextInt(random().nextBoolean() ? 5 : 60);
                        int maxRadius = random().nextInt(4) == 0 ? random().nextInt(12) : 64;
                        boolean filtered = random().nextBoolean();
                        Integer excluded = live.isEmpty() || random().nextBoolean() ? null
                            : new ArrayList<>(live.keySet()).get(random().nextInt(live.size()));
                        check(searcher, live, query, k, maxRadius, filtered, excluded);
                    }
                }
            }
        }
    }

    private static void check(IndexSearcher searcher, Map<Integer, Long> live, long query, int k, int maxRadius, boolean filtered,
                              Integer excluded) throws IOException {
        Query filter = filtered ? new TermQuery(new Term("parity", "even")) : null;
        Query exclude = excluded == null ? null : new TermQuery(new Term("key", Integer.toString(excluded)));
        SimHashNearestQuery q = new SimHashNearestQuery(FP, BlockTermLayout.packed(FP), query, filter, exclude, k, maxRadius);
        TopDocs top = searcher.search(q, 10_000);
        NumericDocValues ids = MultiDocValues.getNumericValues(searcher.getIndexReader(), "id");
        List<Integer> actual = new ArrayList<>();
        for (ScoreDoc sd : top.scoreDocs) {
            assertTrue(ids.advanceExact(sd.doc));
            int id = (int) ids.longValue();
            long h = live.get(id);
            int d = Long.bitCount(h ^ query);
            assertEquals("score of " + id, (64 - d) / 64f, sd.score, 1e-6f);
            assertTrue("filter", !filtered || id % 2 == 0);
            assertNotEquals("excluded", excluded, (Integer) id);
            actual.add(d);
            ids = MultiDocValues.getNumericValues(searcher.getIndexReader(), "id");
        }
        List<Integer> expected = live.entrySet().stream()
            .filter(e -> !filtered || e.getKey() % 2 == 0)
            .filter(e -> !e.getKey().equals(excluded))
            .map(e -> Long.bitCount(e.getValue() ^ query))
            .filter(d -> d <= maxRadius)
            .sorted()
            .limit(k)
            .toList();
        actual.sort(Comparator.naturalOrder());
        assertEquals("k=" + k + " max=" + maxRadius + " filtered=" + filtered, expected, actual);
    }
}
