package dev.simhash.duplicates;

import dev.simhash.core.MinHashSketch;
import dev.simhash.threshold.Verification;

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
 * documents as written: the band values of live documents by partition, the candidates (live documents that share a band
 * key with another live document, or hold a value given as shared), with their id, routing, fingerprint and sketch, and the
 * groups the shard finds among them.
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

    static final Verification VERIFICATION = Verification.of(0.8);

    /**
     * The shard's groups equal the connected components, over the live documents with a sketch, of the pairs that share a
     * band key and pass the threshold's test (found here by a breadth-first search over all pairs); each group's id is its
     * smallest fingerprint (unsigned), its representative the member holding it, and each member's similarity is the
     * sketches' estimate against that representative. The shard lists groups {@code [from, from + size)} in report order
     * (largest first, then by id) and counts them all.
     */
    private static int checkGroups(ShardBandScan.Groups groups, List<Doc> live, int from, int size) {
        List<Doc> docs = live.stream().filter(d -> d.sketch() != null).toList();
        int n = docs.size();
        int[] component = new int[n];
        Arrays.fill(component, -1);
        List<List<Doc>> expected = new ArrayList<>();
        for (int start = 0; start < n; start++) {
            if (component[start] >= 0) {
                continue;
            }
            List<Doc> members = new ArrayList<>();
            java.util.ArrayDeque<Integer> queue = new java.util.ArrayDeque<>(List.of(start));
            component[start] = expected.size();
            while (queue.isEmpty() == false) {
                int a = queue.poll();
                members.add(docs.get(a));
                for (int b = 0; b < n; b++) {
                    if (component[b] < 0 && VERIFICATION.accepts(docs.get(a).hash(), docs.get(a).sketch(), 0, docs.get(b).hash(),
                        docs.get(b).sketch(), 0)) {
                        component[b] = expected.size();
                        queue.add(b);
                    }
                }
            }
            expected.add(members);
        }
        java.util.Map<Set<String>, List<Doc>> expectedGroups = new java.util.HashMap<>();
        for (List<Doc> members : expected) {
            if (members.size() > 1) {
                expectedGroups.put(new TreeSet<>(members.stream().map(Doc::id).toList()), members);
            }
        }
        java.util.Map<Integer, Set<String>> got = new java.util.HashMap<>();
        for (int i = 0; i < groups.size(); i++) {
            got.computeIfAbsent(groups.groupOf()[i], g -> new TreeSet<>()).add(groups.ids()[i]);
        }
        assertEquals(expectedGroups.size(), groups.groupsTotal());
        assertEquals(expectedGroups.keySet().stream().mapToLong(Set::size).sum(), groups.duplicatesTotal());
        // report order, written out: more members first, then the smallest fingerprint, unsigned
        List<List<Doc>> ordered = new ArrayList<>(expectedGroups.values());
        ordered.sort((x, y) -> x.size() != y.size() ? y.size() - x.size()
            : Long.compareUnsigned(x.stream().map(Doc::hash).min(Long::compareUnsigned).orElseThrow(),
                y.stream().map(Doc::hash).min(Long::compareUnsigned).orElseThrow()));
        List<Set<String>> page = new ArrayList<>();
        for (int g = from; g < Math.min(ordered.size(), (long) from + size); g++) {
            page.add(new TreeSet<>(ordered.get(g).stream().map(Doc::id).toList()));
        }
        assertEquals(page.size(), groups.groupIds().length);
        for (int g = 0; g < page.size(); g++) {
            assertEquals("group " + g + " of the page", page.get(g), got.get(g));
        }
        for (var e : got.entrySet()) {
            List<Doc> members = expectedGroups.get(e.getValue());
            Doc smallest = members.stream().min((x, y) -> Long.compareUnsigned(x.hash(), y.hash())).orElseThrow();
            int g = e.getKey();
            assertEquals(smallest.hash(), groups.groupIds()[g]);
            assertEquals(smallest.id(), groups.ids()[groups.representatives()[g]]);
            for (int i = 0; i < groups.size(); i++) {
                if (groups.groupOf()[i] == g) {
                    String id = groups.ids()[i];
                    Doc d = members.stream().filter(x -> x.id().equals(id)).findFirst().orElseThrow();
                    assertEquals(d.hash(), groups.fingerprints()[i]);
                    assertEquals(d.routing(), groups.routings()[i]);
                    assertEquals(Verification.similarity(d.sketch(), 0, smallest.sketch(), 0), groups.similarity()[i], 0);
                }
            }
        }
        return got.size();
    }

    public void testValuesAndCandidatesEqualBruteForce() throws IOException {
        int groupsSeen = 0;
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
                    // one walk per band (packed pairs) and, as for shards of more than 2^24 documents, two
                    ShardBandScan twoWalks = new ShardBandScan(reader, FIELD, charged::addAndGet, () -> {}, 0);
                    ShardBandScan.Candidates candidates = (round % 2 == 0 ? scan : twoWalks).candidates(sharedArray);
                    ShardBandScan.Candidates other = (round % 2 == 0 ? twoWalks : scan).candidates(sharedArray);
                    assertArrayEquals(Arrays.copyOf(candidates.ids, candidates.size), Arrays.copyOf(other.ids, other.size));
                    // the bands split among threads mark the same documents
                    java.util.concurrent.ExecutorService threads = java.util.concurrent.Executors.newFixedThreadPool(2);
                    try {
                        ShardBandScan.Candidates parallel = scan.candidates(sharedArray, threads, 2 + round % 3, true);
                        assertArrayEquals(Arrays.copyOf(candidates.ids, candidates.size), Arrays.copyOf(parallel.ids, parallel.size));
                    } finally {
                        threads.shutdown();
                    }
                    Set<String> gotIds = new TreeSet<>();
                    for (int i = 0; i < candidates.size; i++) {
                        String id = candidates.ids[i];
                        assertTrue(gotIds.add(id));
                        Doc d = docs.stream().filter(x -> x.id().equals(id)).findFirst().orElseThrow();
                        assertEquals(d.routing(), candidates.routings[i]);
                        assertEquals(d.hash(), candidates.fingerprints[i]);
                        assertArrayEquals(d.sketch(), Arrays.copyOfRange(candidates.sketches, i * MinHashSketch.BYTES,
                            (i + 1) * MinHashSketch.BYTES));
                    }
                    assertEquals(expectedCandidates, gotIds);
                    // every group, the candidates read with their ids; then a random page, only its members' ids read
                    groupsSeen += checkGroups(scan.group(scan.candidates(new long[0]), VERIFICATION, null, 1, 0, Integer.MAX_VALUE), live, 0,
                        Integer.MAX_VALUE);
                    int from = random().nextInt(5);
                    int size = random().nextInt(7);
                    checkGroups(scan.group(scan.candidates(new long[0], null, 1, false), VERIFICATION, null, 1, from, size), live, from, size);
                    assertTrue("planted copies make candidates", round > 0 || gotIds.isEmpty() == false);
                }
                // what was charged while reading candidates stays charged for them; the arrays of values were given back
                assertTrue(charged.get() >= 0);
            }
        }
        assertTrue("the planted copies form groups", groupsSeen > 0);
    }
}
