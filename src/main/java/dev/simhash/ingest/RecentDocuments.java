package dev.simhash.ingest;

import dev.simhash.core.SketchBands;
import dev.simhash.mapper.MappedFingerprint;
import dev.simhash.threshold.Verification;

import org.elasticsearch.action.support.SubscribableListener;
import org.elasticsearch.common.breaker.CircuitBreaker;
import org.elasticsearch.common.breaker.CircuitBreakingException;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

/**
 * The node's window of documents that went through a {@code simhash_dedup} processor recently: what a search cannot find yet
 * (documents of the same bulk, documents not yet refreshed). One window per fingerprint field, fingerprint spec and sender,
 * so that a document is only ever matched against documents its own sender sent (whose ids that sender knows already):
 * the window reveals nothing a search with the sender's privileges would hide. Entries leave the window when they are older
 * than the window's time or when it is full (the oldest first); their memory is charged to a circuit breaker.
 *
 * <p>A new document is compared by the threshold's own rule ({@link Verification#accepts}), as its search is. With the
 * sketch's bands (from {@link SketchBands#FROM} on) a window keeps its entries by band value, so a document is compared
 * with the entries that share one of its band values only, not with the whole window; with the fingerprint radius (lower
 * thresholds) it is compared with every entry.
 */
public final class RecentDocuments {

    /**
     * Heap of one entry besides its strings and sketch: the entry, its listener, the deque slot (160), and its band values
     * in the window's index: per band a map node, a boxed value and a table slot (64), an array slot of the values and of
     * the chain (12).
     */
    static final long ENTRY_OVERHEAD = 160 + SketchBands.BANDS * (64 + 12);
    static final String BREAKER_LABEL = "simhash_dedup window";

    /** Whom a window belongs to: the field its documents are compared on, how they are fingerprinted, who sent them. */
    record Key(String field, MappedFingerprint fingerprint, String sender) {}

    /**
     * One document in a window. Its outcome completes once its own processor has decided whether it is kept: at once for a
     * processor that only tags, after its lookup for one that may drop or fail it.
     */
    static final class Entry {
        final String index;
        final String id;
        final long fingerprint;
        final byte[] sketch;
        final long addedNanos;
        final long bytes;
        final SubscribableListener<Boolean> kept = new SubscribableListener<>();
        /** Its band values ({@link SketchBands#longValues}), and per band the next older entry of the window with the same value. */
        private final long[] bands;
        private final Entry[] older = new Entry[SketchBands.BANDS];
        /** The last comparison that met this entry (an entry sharing several band values is compared once). */
        private long seen;
        /** Out of the window: the end of every chain that reaches it. */
        private boolean gone;
        /** Its place in the window's order (entries added before it have lower numbers). */
        private long order;

        Entry(String index, String id, long fingerprint, byte[] sketch, long addedNanos) {
            this.index = index;
            this.id = id;
            this.fingerprint = fingerprint;
            this.sketch = sketch;
            this.addedNanos = addedNanos;
            this.bands = SketchBands.longValues(sketch, 0);
            this.bytes = ENTRY_OVERHEAD + sketch.length + 2L * (index.length() + id.length());
        }

        /** Records whether the document is kept (indexed); only the first call counts. */
        void decide(boolean isKept) {
            kept.onResponse(isKept);
        }
    }

    /** A document of the window whose sketch is at or above the threshold with the new one's. */
    record Match(Entry entry, double similarity) {}

    /** What {@link #admit} found, and the new document's own entry (null when it was not added). */
    record Admission(List<Match> matches, Entry own) {}

    /**
     * One window: its entries, oldest first, and by band value the newest entry holding it (whose chain {@link Entry#older}
     * leads to the older ones). Entries leave oldest first, so an entry out of the window ends every chain it is on.
     */
    private static final class Window {
        final ArrayDeque<Entry> entries = new ArrayDeque<>();
        final HashMap<Long, Entry> newest = new HashMap<>();
        long comparisons;
        long added;

        void add(Entry e) {
            e.order = ++added;
            entries.addLast(e);
            for (int j = 0; j < e.bands.length; j++) {
                e.older[j] = newest.put(e.bands[j], e);
            }
        }

        Entry removeOldest() {
            Entry e = entries.pollFirst();
            e.gone = true;
            for (int j = 0; j < e.bands.length; j++) {
                newest.remove(e.bands[j], e);
                e.older[j] = null;
            }
            return e;
        }

        /** Calls {@code visit} once for each entry in the window that shares a band value with {@code bands}. */
        void sharingABand(long[] bands, Consumer<Entry> visit) {
            long stamp = ++comparisons;
            for (int j = 0; j < bands.length; j++) {
                for (Entry e = newest.get(bands[j]); e != null && e.gone == false; e = e.older[j]) {
                    if (e.seen != stamp) {
                        e.seen = stamp;
                        visit.accept(e);
                    }
                }
            }
        }
    }

    private final LongSupplier nanoClock;
    private final Map<Key, Window> windows = new ConcurrentHashMap<>();
    private volatile CircuitBreaker breaker;
    private volatile long lastSweep;
    private static final long SWEEP_NANOS = 1_000_000_000L;

    public RecentDocuments(LongSupplier nanoClock) {
        this.nanoClock = nanoClock;
    }

    /** Charges the windows' memory to {@code breaker} from now on (set once the node's breakers exist). */
    public void useBreaker(CircuitBreaker breaker) {
        this.breaker = breaker;
    }

    /**
     * Finds the documents of the window that match a new one, then adds the new one (when it has an id to be named by and
     * the window has room within the breaker), in one step, so that of two documents of one bulk the later finds the earlier.
     *
     * @param eligible   which indices' documents may match (those the processor's target covers)
     * @param decided    whether the new document's entry is decided at once (kept)
     * @param windowNanos how long entries stay; 0 or a {@code maxSize} of 0 keeps none
     */
    Admission admit(Key key, String index, String id, long fingerprint, byte[] sketch, Verification threshold,
                    Predicate<String> eligible, boolean decided, long windowNanos, int maxSize) {
        long now = nanoClock.getAsLong();
        if (now - lastSweep > SWEEP_NANOS) {
            // windows nobody adds to any more give their memory back too
            lastSweep = now;
            sweep(windowNanos);
        }
        List<Entry> evicted = new ArrayList<>();
        try {
            while (true) {
                Window window = windows.computeIfAbsent(key, k -> new Window());
                synchronized (window) {
                    if (windows.get(key) != window) {
                        // swept away as empty meanwhile: use the window that replaces it
                        continue;
                    }
                    return admit(window, now, index, id, fingerprint, sketch, threshold, eligible, decided, windowNanos, maxSize,
                        evicted);
                }
            }
        } finally {
            undecided(evicted);
        }
    }

    private Admission admit(Window window, long now, String index, String id, long fingerprint, byte[] sketch,
                            Verification threshold, Predicate<String> eligible, boolean decided, long windowNanos, int maxSize,
                            List<Entry> evicted) {
        List<Match> matches = new ArrayList<>();
        Entry own = null;
        trim(window, now - windowNanos, maxSize, evicted);
        Consumer<Entry> compare = e -> {
            if (eligible.test(e.index) && (e.index.equals(index) && e.id.equals(id)) == false
                && threshold.accepts(e.fingerprint, e.sketch, 0, fingerprint, sketch, 0)) {
                matches.add(new Match(e, Verification.similarity(e.sketch, 0, sketch, 0)));
            }
        };
        if (threshold.byBands()) {
            window.sharingABand(SketchBands.longValues(sketch, 0), compare);
            // in the window's order (oldest first), as a comparison with every entry gives them
            matches.sort((a, b) -> Long.compare(a.entry().order, b.entry().order));
        } else {
            window.entries.forEach(compare);
        }
        if (id != null && windowNanos > 0 && maxSize > 0) {
            Entry candidate = new Entry(index, id, fingerprint, sketch, now);
            if (charge(candidate.bytes)) {
                if (window.entries.size() >= maxSize) {
                    evicted.add(release(window.removeOldest()));
                }
                window.add(candidate);
                own = candidate;
                if (decided) {
                    own.decide(true);
                }
            }
        }
        return new Admission(matches, own);
    }

    /** Drops expired entries from every window (and empty windows), giving their memory back. */
    void sweep(long windowNanos) {
        long oldest = nanoClock.getAsLong() - windowNanos;
        List<Entry> evicted = new ArrayList<>();
        for (Map.Entry<Key, Window> e : windows.entrySet()) {
            Window window = e.getValue();
            synchronized (window) {
                trim(window, oldest, Integer.MAX_VALUE, evicted);
                if (window.entries.isEmpty()) {
                    windows.remove(e.getKey(), window);
                }
            }
        }
        undecided(evicted);
    }

    /** Documents in all windows (for tests and stats). */
    int size() {
        int n = 0;
        for (Window window : windows.values()) {
            synchronized (window) {
                n += window.entries.size();
            }
        }
        return n;
    }

    private void trim(Window window, long oldestNanos, int maxSize, List<Entry> evicted) {
        ArrayDeque<Entry> entries = window.entries;
        while (entries.isEmpty() == false && (entries.peekFirst().addedNanos < oldestNanos || entries.size() > maxSize)) {
            evicted.add(release(window.removeOldest()));
        }
    }

    private boolean charge(long bytes) {
        CircuitBreaker b = breaker;
        if (b == null) {
            return true;
        }
        try {
            b.addEstimateBytesAndMaybeBreak(bytes, BREAKER_LABEL);
            return true;
        } catch (CircuitBreakingException e) {
            // a full breaker keeps the document out of the window; its lookup still searches the index
            return false;
        }
    }

    private Entry release(Entry e) {
        CircuitBreaker b = breaker;
        if (b != null) {
            b.addWithoutBreaking(-e.bytes);
        }
        return e;
    }

    /**
     * Entries that left the window undecided are nobody's match any more: documents waiting on them go on without them.
     * Outside the window's lock, since that runs the waiters' pipelines.
     */
    private static void undecided(List<Entry> evicted) {
        for (Entry e : evicted) {
            e.decide(false);
        }
    }
}
