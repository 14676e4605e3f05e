package dev.simhash.ingest;

import dev.simhash.breaker.LimitedBreaker;
import dev.simhash.core.FingerprintSpec;
import dev.simhash.core.MinHashSketch;
import dev.simhash.mapper.MappedFingerprint;
import dev.simhash.neardup.Verification;

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

    private RecentDocuments.Admission admit(String sender, String index, String id, byte[] sketch, boolean decided) {
        return recent.admit(new RecentDocuments.Key("body.simhash", V2, sender), index, id, sketch, AT_08, i -> i.equals("news"),
            decided, 30 * SECOND, 100);
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
            ids(recent.admit(new RecentDocuments.Key("body.simhash", V2, "alice"), "archive", "9", COPY, AT_08,
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
        LimitedBreaker breaker = new LimitedBreaker(10_000);
        recent.useBreaker(breaker);
        admit("alice", "news", "1", ORIGINAL, true);
        long one = breaker.getUsed();
        assertEquals(RecentDocuments.ENTRY_OVERHEAD + MinHashSketch.BYTES + 2 * ("news".length() + 1), one);
        int n = 1;
        while (admit("alice", "news", "d" + n, OTHER, true).own() != null) {
            n++;
        }
        assertTrue("a full breaker keeps documents out: " + n, breaker.getUsed() <= 10_000 && n > 10);
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
}
