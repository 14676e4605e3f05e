package dev.simhash.duplicates;

import dev.simhash.core.MinHashSketch;

import org.apache.lucene.document.BinaryDocValuesField;
import org.apache.lucene.document.BinaryPoint;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.SortedNumericDocValuesField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.Term;
import org.apache.lucene.store.Directory;
import org.apache.lucene.tests.index.RandomIndexWriter;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.util.BytesRef;
import org.elasticsearch.index.mapper.Uid;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The report's reading of one shard ({@link ShardBandScan}) on random in-memory indices, against a brute force over the
 * documents as written: the band values of live documents by partition, and the candidates (live documents that share a
 * band key with another live document, or hold a value given as shared), with their id, routing, fingerprint and sketch.
 */
public class ShardBandScanTest extends LuceneTestCase {

    static final String FIELD = "body.simhash";
    static final String SKETCHES = FIELD + "._minhash";
    static final String[] WORDS = ("the harbor street bridge will close to all traffic for six weeks from monday while crews replace "
        + "deck and repaint railings city said on friday adding that buses be diverted").split(" ");

    record Doc(String id, String routing, long hash, byte[] sketch) {}

    private static void add(RandomIndexWriter w, Doc doc) throws IOException {
        Document d = new Document();
        d.add(new StringField("uid", doc.id(), Field.Store.NO));
        BytesRef id = Uid.encodeId(doc.id());
        d.add(new StoredField("_id", Arrays.copyOfRange(id.bytes, id.offset, id.offset + id.length)));
        if (doc.routing() != null) {
            d.add(new StoredField("_routing", doc.routing()));
        }
        if (doc.sketch() != null) {
            d.add(new SortedNumericDocValuesField(FIELD, doc.hash()));
            d.add(new BinaryDocValuesField(SKETCHES, new BytesRef(doc.sketch())));
            for (int band = 0; band < 14; band++) {
                byte[] point = new byte[6];
                point[0] = (byte) band;
                System.arraycopy(doc.sketch(), 64 + 5 * band, point, 1, 5);
                d.add(new BinaryPoint(SKETCHES, point));
            }
        }
        w.addDocument(d);
    }

    private static String text(Random random, int words) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < words; i++) {
            b.append(WORDS[random.nextInt(WORDS.length)]).append(i % 7 == 0 ? " x" + random.nextInt(1000) + " " : " ");
        }
        return b.toString();
    }

    /** Documents with planted copies (one word changed, or exact) and some without a fingerprint. */
    private static List<Doc> corpus(Random random, int n) {
        List<Doc> docs = new ArrayList<>();
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String t;
            if (texts.isEmpty() == false && random.nextInt(4) == 0) {
                String original = texts.get(random.nextInt(texts.size()));
                t = random.nextBoolean() ? original : original + " " + WORDS[random.nextInt(WORDS.length)];
            } else {
                t = text(random, 20 + random.nextInt(60));
            }
            texts.add(t);
            boolean none = random.nextInt(20) == 0;
            docs.add(new Doc("d" + i, random.nextInt(5) == 0 ? "r" + random.nextInt(3) : null, random.nextLong(),
                none ? null : MinHashSketch.V1.sketch(t)));
        }
        return docs;
    }

    private static long[] values(Doc d) {
        return dev.simhash.core.SketchBands.longValues(d.sketch(), 0);
    }

    public void testValuesAndCandidatesEqualBruteForce() throws IOException {
        for (int round = 0; round < 8; round++) {
            Random random = new Random(random().nextLong());
            List<Doc> docs = corpus(random, 50 + random.nextInt(250));
            Set<String> deleted = new HashSet<>();
            try (Directory dir = newDirectory(); RandomIndexWriter w = new RandomIndexWriter(random(), dir)) {
                for (Doc d : docs) {
                    add(w, d);
                }
                for (Doc d : docs) {
                    if (random.nextInt(10) == 0) {
                        deleted.add(d.id());
                        w.deleteDocuments(new Term("uid", d.id()));
                    }
                }
                List<Doc> live = docs.stream().filter(d -> deleted.contains(d.id()) == false).toList();
                AtomicLong charged = new AtomicLong();
                try (IndexReader reader = w.getReader()) {
                    ShardBandScan scan = new ShardBandScan(reader, FIELD, charged::addAndGet, () -> {});
                    assertEquals(live.stream().filter(d -> d.sketch() != null).count(), scan.docs());

                    // values: each partition ascending and distinct, together every live document's values
                    int partitions = 1 + random.nextInt(4);
                    TreeSet<Long> expected = new TreeSet<>();
                    for (Doc d : live) {
                        if (d.sketch() != null) {
                            for (long v : values(d)) {
                                expected.add(v);
                            }
                        }
                    }
                    TreeSet<Long> got = new TreeSet<>();
                    for (int p = 0; p < partitions; p++) {
                        long[] part = scan.values(p, partitions);
                        for (int i = 0; i < part.length; i++) {
                            assertTrue(i == 0 || part[i - 1] < part[i]);
                            assertEquals(p, ShardBandScan.partitionOf(part[i], partitions));
                            assertTrue(got.add(part[i]));
                        }
                    }
                    assertEquals(expected, got);

                    // a few values from "other shards": some held here, some not
                    List<Long> pool = new ArrayList<>(expected);
                    TreeSet<Long> shared = new TreeSet<>();
                    for (int i = 0; i < 3 && pool.isEmpty() == false; i++) {
                        shared.add(pool.get(random.nextInt(pool.size())));
                        shared.add(random.nextLong() & ((1L << 44) - 1));
                    }
                    long[] sharedArray = shared.stream().mapToLong(Long::longValue).toArray();
                    Set<String> expectedCandidates = new TreeSet<>();
                    for (Doc d : live) {
                        if (d.sketch() == null) {
                            continue;
                        }
                        long[] mine = values(d);
                        boolean candidate = false;
                        for (long v : mine) {
                            candidate |= shared.contains(v);
                        }
                        for (Doc other : live) {
                            if (other != d && other.sketch() != null) {
                                long[] theirs = values(other);
                                for (int band = 0; band < mine.length; band++) {
                                    candidate |= mine[band] == theirs[band];
                                }
                            }
                        }
                        if (candidate) {
                            expectedCandidates.add(d.id());
                        }
                    }
                    List<ShardBandScan.Candidate> candidates = scan.candidates(sharedArray);
                    Set<String> gotIds = new TreeSet<>();
                    for (ShardBandScan.Candidate c : candidates) {
                        assertTrue(gotIds.add(c.id()));
                        Doc d = docs.stream().filter(x -> x.id().equals(c.id())).findFirst().orElseThrow();
                        assertEquals(d.routing(), c.routing());
                        assertEquals(d.hash(), c.fingerprint());
                        assertArrayEquals(d.sketch(), c.sketch());
                    }
                    assertEquals(expectedCandidates, gotIds);
                    assertTrue("planted copies make candidates", round > 0 || gotIds.isEmpty() == false);
                }
                // what was charged while reading candidates stays charged for them; the arrays of values were given back
                assertTrue(charged.get() >= 0);
            }
        }
    }
}
