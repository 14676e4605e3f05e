package dev.simhash.script;

import dev.simhash.core.SimHash;

import org.apache.lucene.document.Document;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.SortedNumericDocValuesField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.store.Directory;
import org.apache.lucene.tests.index.RandomIndexWriter;
import org.elasticsearch.index.mapper.NumberFieldMapper;
import org.elasticsearch.script.DocValuesDocReader;
import org.elasticsearch.script.FieldScript;
import org.elasticsearch.script.NumberSortScript;
import org.elasticsearch.script.ScoreScript;
import org.elasticsearch.search.lookup.SearchLookup;
import org.elasticsearch.test.ESTestCase;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import static org.hamcrest.Matchers.containsString;

/**
 * The three script contexts on a random Lucene index (random codec and segments):
 * every document's value equals the brute-force distance, including multi-valued and missing ones.
 */
public class HammingScriptsTest extends ESTestCase {

    private static final String HASH_FIELD = "fp.hash";
    private static final NumberFieldMapper.NumberFieldType LONG =
        new NumberFieldMapper.NumberFieldType(HASH_FIELD, NumberFieldMapper.NumberType.LONG);

    private final SimHashScriptEngine engine = new SimHashScriptEngine();

    private static SearchLookup lookup() {
        return new SearchLookup(name -> HASH_FIELD.equals(name) ? LONG : null, (ft, sl, op) -> {
            throw new UnsupportedOperationException("the scripts must not use field data");
        }, (ctx, doc) -> {
            throw new UnsupportedOperationException("the scripts must not load _source");
        });
    }

    /** Fingerprints per document id: empty = no fingerprint; several = multi-valued. */
    private List<long[]> randomCorpus(long query, boolean allowMulti) {
        List<long[]> docs = new ArrayList<>();
        int n = between(1, 400);
        for (int i = 0; i < n; i++) {
            int kind = between(0, 9);
            if (kind == 0) {
                docs.add(new long[0]);
            } else if (kind == 1 && allowMulti) {
                long[] values = new long[between(2, 4)];
                for (int v = 0; v < values.length; v++) {
                    values[v] = near(query);
                }
                docs.add(values);
            } else {
                docs.add(new long[] { near(query) });
            }
        }
        docs.add(new long[] { query });   // distance 0
        docs.add(new long[] { ~query });  // distance 64: indistinguishable from "no fingerprint", by design
        return docs;
    }

    /** A fingerprint at a random distance from {@code query}, biased to small distances like real near-duplicates. */
    private long near(long query) {
        if (randomBoolean()) {
            return randomLong();
        }
        long v = query;
        for (int flips = between(0, 10); flips > 0; flips--) {
            v ^= 1L << between(0, 63);
        }
        return v;
    }

    private static int expectedDistance(long[] values, long query) {
        int best = 64;
        for (long v : values) {
            best = Math.min(best, SimHash.distance(v, query));
        }
        return best;
    }

    public void testEveryContextMatchesBruteForce() throws IOException {
        for (boolean allowMulti : new boolean[] { false, true }) {
            long query = randomLong();
            List<long[]> corpus = randomCorpus(query, allowMulti);
            try (Directory dir = newDirectory()) {
                try (RandomIndexWriter w = new RandomIndexWriter(random(), dir)) {
                    for (int id = 0; id < corpus.size(); id++) {
                        Document d = new Document();
                        d.add(new NumericDocValuesField("id", id));
                        for (long v : corpus.get(id)) {
                            d.add(new SortedNumericDocValuesField(HASH_FIELD, v));
                        }
                        w.addDocument(d);
                    }
                    try (DirectoryReader reader = w.getReader()) {
                        Object hash = randomBoolean() ? SimHash.toHex(query) : (Object) query;
                        check(reader, Map.of("field", "fp", "hash", hash), corpus, query);
                    }
                }
            }
        }
    }

    private void check(DirectoryReader reader, Map<String, Object> params, List<long[]> corpus, long query) throws IOException {
        SearchLookup lookup = lookup();
        ScoreScript.LeafFactory hammingScore = engine.compile(null, "hamming", ScoreScript.CONTEXT, Map.of()).newFactory(params, lookup);
        ScoreScript.LeafFactory similarityScore = engine.compile(null, "similarity", ScoreScript.CONTEXT, Map.of())
            .newFactory(params, lookup);
        NumberSortScript.LeafFactory hammingSort = engine.compile(null, "hamming", NumberSortScript.CONTEXT, Map.of())
            .newFactory(params, lookup);
        FieldScript.LeafFactory hammingField = engine.compile(null, "hamming", FieldScript.CONTEXT, Map.of()).newFactory(params, lookup);
        FieldScript.LeafFactory similarityField = engine.compile(null, "similarity", FieldScript.CONTEXT, Map.of())
            .newFactory(params, lookup);
        assertFalse(hammingScore.needs_score());
        assertFalse(hammingScore.needs_termStats());
        assertFalse(hammingSort.needs_score());
        int seen = 0;
        for (LeafReaderContext leaf : reader.leaves()) {
            NumericDocValues ids = DocValues.getNumeric(leaf.reader(), "id");
            ScoreScript score = hammingScore.newInstance(new DocValuesDocReader(lookup, leaf));
            ScoreScript similarity = similarityScore.newInstance(new DocValuesDocReader(lookup, leaf));
            NumberSortScript sort = hammingSort.newInstance(new DocValuesDocReader(lookup, leaf));
            FieldScript field = hammingField.newInstance(leaf);
            FieldScript simField = similarityField.newInstance(leaf);
            List<Integer> order = new ArrayList<>();
            for (int doc = 0; doc < leaf.reader().maxDoc(); doc++) {
                assertTrue(ids.advanceExact(doc));
                int expected = expectedDistance(corpus.get((int) ids.longValue()), query);
                double expectedSimilarity = (64 - expected) / 64.0;
                score.setDocument(doc);
                assertEquals(expected, score.execute(null), 0);
                assertEquals(expected, score.execute(null), 0); // asked twice for one document
                similarity.setDocument(doc);
                assertEquals(expectedSimilarity, similarity.execute(null), 0);
                assertEquals((float) expectedSimilarity, (float) similarity.execute(null), 0); // exact in float too
                sort.setDocument(doc);
                assertEquals(expected, sort.execute(), 0);
                field.setDocument(doc);
                assertEquals(expected, field.execute());
                simField.setDocument(doc);
                assertEquals(expectedSimilarity, simField.execute());
                order.add(doc);
                seen++;
            }
            // any order of documents, even going backwards, gives the same answers
            Collections.shuffle(order, random());
            for (int doc : order) {
                field.setDocument(doc);
                assertEquals(expectedDistance(corpus.get(idOf(leaf, doc)), query), field.execute());
            }
        }
        assertEquals(corpus.size(), seen);
    }

    private static int idOf(LeafReaderContext leaf, int doc) throws IOException {
        NumericDocValues ids = DocValues.getNumeric(leaf.reader(), "id");
        assertTrue(ids.advanceExact(doc));
        return (int) ids.longValue();
    }

    public void testExplanationNamesTheDistanceAndTheFingerprint() throws IOException {
        try (Directory dir = newDirectory(); RandomIndexWriter w = new RandomIndexWriter(random(), dir)) {
            Document withFp = new Document();
            withFp.add(new SortedNumericDocValuesField(HASH_FIELD, 0b111L));
            withFp.add(new NumericDocValuesField("id", 0));
            w.addDocument(withFp);
            Document without = new Document();
            without.add(new NumericDocValuesField("id", 1));
            w.addDocument(without);
            w.forceMerge(1);
            try (DirectoryReader reader = w.getReader()) {
                LeafReaderContext leaf = reader.leaves().get(0);
                // the merge may put the two documents in either order: find each by its id
                int first = idOf(leaf, 0) == 0 ? 0 : 1;
                SearchLookup lookup = lookup();
                ScoreScript script = engine.compile(null, "similarity", ScoreScript.CONTEXT, Map.of())
                    .newFactory(Map.of("field", "fp", "hash", 0L), lookup)
                    .newInstance(new DocValuesDocReader(lookup, leaf));
                ScoreScript.ExplanationHolder holder = new ScoreScript.ExplanationHolder();
                script.setDocument(first);
                double value = script.execute(holder);
                assertEquals(61 / 64.0, value, 0);
                String description = holder.get((float) value, null).getDescription();
                assertThat(description, containsString("Hamming distance 3"));
                assertThat(description, containsString("[0000000000000000]"));
                script.setDocument(1 - first);
                assertEquals(0, script.execute(holder), 0);
                assertThat(holder.get(0f, null).getDescription(), containsString("no fingerprint in [fp.hash]"));
            }
        }
    }

    public void testUnmappedFieldFailsWhenTheShardBuildsTheScript() {
        SearchLookup lookup = lookup();
        IllegalArgumentException e = expectThrows(IllegalArgumentException.class,
            () -> engine.compile(null, "hamming", ScoreScript.CONTEXT, Map.of()).newFactory(Map.of("field", "other", "hash", 1), lookup));
        assertThat(e.getMessage(), containsString("[other.hash] is not mapped"));
    }
}
