package dev.simhash.ingest;

import dev.simhash.breaker.LimitedBreaker;
import dev.simhash.core.FingerprintSpec;
import dev.simhash.core.MinHashSketch;
import dev.simhash.core.SimHash;
import dev.simhash.core.SketchBands;
import dev.simhash.core.TextFingerprinter;
import dev.simhash.mapper.MappedFingerprint;
import dev.simhash.threshold.Verification;

import org.elasticsearch.test.ESTestCase;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;


/** The node's window of recent documents: who sees whom, for how long, in how much memory, and waiting on undecided ones. */
public class RecentDocumentsTest extends ESTestCase {

    static final String STORY = "the harbor street bridge will close to all traffic for six weeks from monday while crews replace the "
        + "deck and repaint the railings the city said on friday adding that buses will be diverted";
    static final byte[] ORIGINAL = MinHashSketch.V1.sketch(STORY);
    static final byte[] COPY = MinHashSketch.V1.sketch(STORY + " for the whole period");
    static final byte[] OTHER = MinHashSketch.V1.sketch("a completely different story about the weather in the mountains this weekend");
    static final Verification AT_08 = Verification.of(0.8);
    static final MappedFingerprint V2 = MappedFingerprint.of("body.simhash", Map.of("type", "simhash", "version", "v2", "sketch",
        "minhash-v1"));
    static final long SECOND = 1_000_000_000L;

    private final AtomicLong clock = new AtomicLong(1_000 * SECOND);
    private final RecentDocuments recent = new RecentDocuments(clock::get);

    /** The fingerprint these tests give a sketch: the first 8 bytes of its bits (the window compares fingerprints by radius). */
    private static long fingerprintOf(byte[] sketch) {
        long fp = 0;
        for (int i = 0; i < 8; i++) {
            fp = (fp << 8) | (sketch[i] & 0xFF);
        }
        return fp;
    }

    private RecentDocuments.Admission admit(String sender, String index, String id, byte[] sketch, boolean decided) {
        return recent.admit(new RecentDocuments.Key("body.simhash", V2, sender), index, id, fingerprintOf(sketch), sketch, AT_08,
            i -> i.equals("news"), decided, 30 * SECOND, 100);
    }

    private static List<String> ids(RecentDocuments.Admission a) {
        List<String> out = new ArrayList<>();
        for (RecentDocuments.Match m : a.matches()) {
            out.add(m.entry().id);
        }
        return out;
    }

    public void testALaterDocumentFindsAnEarlierOneOfTheSameSenderOnly() {
        assertTrue(admit("alice", "news", "1", ORIGINAL, true).matches().isEmpty());
        assertEquals("another sender's documents are not matched", List.of(), ids(admit("bob", "news", "2", COPY, true)));
        RecentDocuments.Admission copy = admit("alice", "news", "3", COPY, true);
        assertEquals(List.of("1"), ids(copy));
        assertEquals(MinHashSketch.V1.similarity(ORIGINAL, COPY), copy.matches().get(0).similarity(), 0);
        assertEquals("an unrelated text matches nothing", List.of(), ids(admit("alice", "news", "4", OTHER, true)));
        assertEquals("a document sent again is not its own near-duplicate", List.of(),
            ids(admit("alice", "news", "1", ORIGINAL, true)).stream().filter("1"::equals).toList());
        assertEquals("documents of indices the target does not cover are not matched", List.of(),
            ids(recent.admit(new RecentDocuments.Key("body.simhash", V2, "alice"), "archive", "9", fingerprintOf(COPY), COPY, AT_08,
            i -> i.equals("archive"), true, 30 * SECOND, 100)));
        MappedFingerprint v1 = MappedFingerprint.of("body.simhash", Map.of("type", "simhash", "version", "v1"));
        assertFalse(v1.sameAs(V2));
        assertEquals(FingerprintSpec.Version.V1, v1.spec().version());
        assertNull(v1.sketch());
    }

    public void testDocumentsLeaveAfterTheWindowOrWhenItIsFull() {
        admit("alice", "news", "1", ORIGINAL, true);
        clock.addAndGet(31 * SECOND);
        assertEquals("older than the window", List.of(), ids(admit("alice", "news", "2", COPY, true)));
        for (int i = 0; i < 100; i++) {
            admit("alice", "news", "other-" + i, OTHER, true);
        }
        assertEquals("pushed out by a full window", List.of(), ids(admit("alice", "news", "3", COPY, true)));
        assertEquals(100, recent.size());
        clock.addAndGet(31 * SECOND);
        recent.sweep(30 * SECOND);
        assertEquals(0, recent.size());
        RecentDocuments.Admission noId = admit("alice", "news", null, ORIGINAL, true);
        assertNull("a document without an id cannot be named, so it is not kept", noId.own());
    }

    public void testMemoryIsChargedToTheBreakerAndGivenBack() {
        LimitedBreaker breaker = new LimitedBreaker(30_000);
        recent.useBreaker(breaker);
        admit("alice", "news", "1", ORIGINAL, true);
        long one = breaker.getUsed();
        assertEquals(RecentDocuments.ENTRY_OVERHEAD + MinHashSketch.BYTES + 2 * ("news".length() + 1), one);
        int n = 1;
        while (admit("alice", "news", "d" + n, OTHER, true).own() != null) {
            n++;
        }
        assertTrue("a full breaker keeps documents out: " + n, breaker.getUsed() <= 30_000 && n > 10);
        clock.addAndGet(31 * SECOND);
        recent.sweep(30 * SECOND);
        assertEquals(0, breaker.getUsed());
    }

    public void testAnUndecidedDocumentIsWaitedForAndCountsOnlyIfKept() {
        RecentDocuments.Admission first = admit("alice", "news", "1", ORIGINAL, false);
        RecentDocuments.Admission second = admit("alice", "news", "2", COPY, false);
        List<Boolean> outcome = new ArrayList<>();
        second.matches().get(0).entry().kept.addListener(org.elasticsearch.action.ActionListener.wrap(outcome::add, e -> {}));
        assertTrue(outcome.isEmpty());
        first.own().decide(false);
        first.own().decide(true);
        assertEquals("the first decision counts", List.of(false), outcome);
        // an undecided document that leaves the window releases its waiters
        RecentDocuments.Admission third = admit("alice", "news", "3", COPY, true);
        List<Boolean> late = new ArrayList<>();
        third.matches().stream().filter(m -> m.entry().id.equals("2")).findFirst().orElseThrow().entry().kept
            .addListener(org.elasticsearch.action.ActionListener.wrap(late::add, e -> {}));
        clock.addAndGet(31 * SECOND);
        recent.sweep(30 * SECOND);
        assertEquals(List.of(false), late);
    }
    /**
     * Against a comparison with every entry of the window by the threshold's rule: from 0.78 on the window finds the entries
     * through their band values, below it compares every entry by the fingerprint radius; entries leave as the window fills.
     * The sketches include copies that share no band value but whose bins agree (found by the radius rule only) and copies
     * that share band values but whose bins do not (found by neither).
     */
    public void testMatchesAreThoseOfAComparisonWithEveryEntry() {
        TextFingerprinter v2 = TextFingerprinter.v2(1);
        for (double threshold : new double[] {0.6, 0.78, 0.8, 0.9}) {
            Verification rule = Verification.of(threshold);
            RecentDocuments window = new RecentDocuments(clock::get);
            int maxSize = between(20, 60);
            List<byte[]> sketches = new ArrayList<>();
            List<Long> fingerprints = new ArrayList<>();
            List<String> bases = new ArrayList<>();
            for (int d = 0; d < 400; d++) {
                byte[] sketch;
                long fp;
                if (bases.isEmpty() || rarely()) {
                    String text = randomWords(between(3, 80));
                    bases.add(text);
                    sketch = MinHashSketch.V1.sketch(text);
                    fp = v2.fingerprint(text).getAsLong();
                } else if (randomBoolean()) {
                    // an edited copy of an earlier text
                    String text = edit(randomFrom(bases));
                    sketch = MinHashSketch.V1.sketch(text);
                    fp = v2.fingerprint(text).getAsLong();
                } else {
                    // bins of one earlier sketch with the band keys of another (or random ones)
                    int a = between(0, sketches.size() - 1);
                    sketch = sketches.get(a).clone();
                    byte[] keys = randomBoolean() ? sketches.get(between(0, sketches.size() - 1)) : randomByteArrayOfLength(MinHashSketch.BYTES);
                    System.arraycopy(keys, MinHashSketch.V1.binBytes(), sketch, MinHashSketch.V1.binBytes(), MinHashSketch.BYTES - MinHashSketch.V1.binBytes());
                    if (randomBoolean()) {
                        // or the bins of a third
                        System.arraycopy(sketches.get(between(0, sketches.size() - 1)), 0, sketch, 0, MinHashSketch.V1.binBytes());
                    }
                    fp = randomBoolean() ? fingerprints.get(a) ^ (1L << between(0, 63)) : randomLong();
                }
                List<String> expected = new ArrayList<>();
                for (int e = Math.max(0, sketches.size() - maxSize); e < sketches.size(); e++) {
                    if (rule.accepts(fingerprints.get(e), sketches.get(e), 0, fp, sketch, 0)) {
                        expected.add("d" + e);
                    }
                }
                RecentDocuments.Admission a = window.admit(new RecentDocuments.Key("body.simhash", V2, "alice"), "news", "d" + d, fp,
                    sketch, rule, i -> true, true, 30 * SECOND, maxSize);
                assertEquals("document " + d + " at " + threshold, expected, ids(a));
                for (RecentDocuments.Match m : a.matches()) {
                    assertEquals(MinHashSketch.V1.similarity(m.entry().sketch, sketch), m.similarity(), 0);
                }
                sketches.add(sketch);
                fingerprints.add(fp);
            }
            assertEquals(maxSize, window.size());
        }
    }

    /** A pair whose bins agree but that shares no band value: the bands do not make it a candidate, the radius does. */
    public void testTheCandidateRuleIsTheSearchsRule() {
        byte[] copy = ORIGINAL.clone();
        for (int i = MinHashSketch.V1.binBytes(); i < copy.length; i++) {
            copy[i] ^= (byte) 0x5A;
        }
        assertEquals(0, SketchBands.sharedBands(ORIGINAL, 0, copy, 0));
        long fp = fingerprintOf(ORIGINAL);
        for (double threshold : new double[] {0.6, 0.8}) {
            RecentDocuments window = new RecentDocuments(clock::get);
            RecentDocuments.Key key = new RecentDocuments.Key("body.simhash", V2, "alice");
            window.admit(key, "news", "1", fp, ORIGINAL, Verification.of(threshold), i -> true, true, 30 * SECOND, 100);
            RecentDocuments.Admission a = window.admit(key, "news", "2", fp ^ 1, copy, Verification.of(threshold), i -> true, true,
                30 * SECOND, 100);
            assertEquals("at " + threshold, threshold < SketchBands.FROM ? List.of("1") : List.of(), ids(a));
        }
        assertTrue(SimHash.distance(fp, fp ^ 1) <= Verification.of(0.6).radius());
    }

    private static String randomWords(int n) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n; i++) {
            b.append(i == 0 ? "" : " ").append("w").append(between(0, 300));
        }
        return b.toString();
    }

    /** The text with a few words replaced, removed or added. */
    private static String edit(String text) {
        List<String> words = new ArrayList<>(List.of(text.split(" ")));
        for (int k = between(0, 3); k > 0; k--) {
            int at = between(0, words.size() - 1);
            switch (between(0, 2)) {
                case 0 -> words.set(at, "x" + between(0, 300));
                case 1 -> {
                    if (words.size() > 1) {
                        words.remove(at);
                    }
                }
                default -> words.add(at, "y" + between(0, 300));
            }
        }
        return String.join(" ", words);
    }
}
