package dev.simhash.duplicates;

import dev.simhash.breaker.RequestMemory;
import dev.simhash.core.FingerprintTable;
import dev.simhash.core.MinHashSketch;
import dev.simhash.core.NearDuplicateComponents;
import dev.simhash.core.SimHash;
import dev.simhash.request.FingerprintMappings;
import dev.simhash.threshold.Verification;

import org.elasticsearch.common.document.DocumentField;
import org.elasticsearch.search.SearchHit;

import java.util.Arrays;
import java.util.BitSet;

/**
 * What a report read, one entry per document, every array charged to the request circuit breaker: the fingerprints (with
 * index, id and routing when ids are read while reading), each document's sketch when pairs are verified, and the group id
 * each document already holds when the report writes them. Pages of several slices arrive at once: the table is filled
 * under its lock, the fingerprints without ids per slice.
 */
final class ReportDocuments {

    private static final String ROUTING = "_routing";

    /** A growable array of longs. */
    private static final class Longs {
        long[] values = new long[1024];
        int size;

        void add(long v) {
            if (size == values.length) {
                values = Arrays.copyOf(values, size + (size >> 1));
            }
            values[size++] = v;
        }
    }

    private final RequestMemory memory;
    private final FingerprintMappings.Fingerprints fingerprints;
    private final String writeGroupId;
    /**
     * Ids are read with the fingerprints only when every document's id is needed (write_group_id), when every document's
     * sketch is held anyway (min_similarity: the member fetch by fingerprint could not tell apart documents of equal
     * fingerprints in different groups), when reading by scrolls, or when reading sequentially (0.1's way, kept for
     * comparison); otherwise only fingerprints are read, and the ids of the listed groups' members are fetched after
     * grouping: the scan then loads no stored fields at all.
     */
    private final boolean idsWhileReading;
    private final FingerprintTable table;
    private final Longs[] sliceHashes;
    private final long[] sliceCharged;
    private long tableCharged;
    // with min_similarity: each document's sketch, at doc * BYTES, and which documents have one
    private byte[] sketchBytes;
    private final BitSet sketchPresent;
    // the group id each document already has (written by an earlier run), so unchanged documents are not rewritten
    private long[] currentGroup;
    private final BitSet hasCurrentGroup;
    /** The groups a report over one shard found on that shard ({@link ShardBandsResponse#grouped}); else null. */
    private volatile ShardBandsResponse shardGroups;

    ReportDocuments(DuplicatesRequest request, ReportSetup setup, int slices, RequestMemory memory) {
        this.memory = memory;
        this.fingerprints = setup.fingerprints();
        this.writeGroupId = request.writeGroupId();
        boolean verifying = setup.verification() != null;
        this.idsWhileReading = writeGroupId != null || request.readMode() == DuplicatesRequest.ReadMode.SEQUENTIAL || verifying
            || setup.scrolling();
        this.sketchBytes = verifying ? new byte[1024 * MinHashSketch.BYTES] : null;
        this.sketchPresent = verifying ? new BitSet() : null;
        this.table = idsWhileReading ? new FingerprintTable() : null;
        this.sliceHashes = idsWhileReading ? null : new Longs[slices];
        this.sliceCharged = new long[slices];
        if (sliceHashes != null) {
            for (int i = 0; i < slices; i++) {
                sliceHashes[i] = new Longs();
            }
        }
        this.currentGroup = writeGroupId == null ? null : new long[1024];
        this.hasCurrentGroup = writeGroupId == null ? null : new BitSet();
    }

    boolean idsWhileReading() {
        return idsWhileReading;
    }

    /** The documents read with their ids, or null when only fingerprints were read. */
    FingerprintTable table() {
        return table;
    }

    ShardBandsResponse shardGroups() {
        return shardGroups;
    }

    /** Adds one page of hits read by {@code slice}; returns how many had a fingerprint. */
    int addPage(int slice, SearchHit[] hits) {
        int read = 0;
        if (idsWhileReading) {
            synchronized (table) {
                for (SearchHit hit : hits) {
                    Long hash = FingerprintMappings.fingerprintOf(hit, fingerprints);
                    if (hash == null) {
                        continue;
                    }
                    DocumentField routing = hit.field(ROUTING);
                    int doc = table.size();
                    table.add(hit.getIndex(), hit.getId(), hash, routing == null ? null : routing.getValue());
                    if (sketchBytes != null) {
                        addSketch(doc, FingerprintMappings.sketchOf(hit, fingerprints.path()), 0);
                    }
                    if (currentGroup != null) {
                        rememberCurrentGroup(doc, hit.field(writeGroupId));
                    }
                    read++;
                }
                long now = table.ramBytesUsed() + (currentGroup == null ? 0
                    : (long) currentGroup.length * Long.BYTES + hasCurrentGroup.size() / Byte.SIZE)
                    + (sketchBytes == null ? 0 : sketchBytes.length + sketchPresent.size() / Byte.SIZE);
                memory.update(tableCharged, now, "fingerprints and ids read");
                tableCharged = now;
            }
        } else {
            Longs mine = sliceHashes[slice];
            for (SearchHit hit : hits) {
                Long hash = FingerprintMappings.fingerprintOf(hit, fingerprints);
                if (hash != null) {
                    mine.add(hash);
                    read++;
                }
            }
            long now = (long) mine.values.length * Long.BYTES;
            memory.update(sliceCharged[slice], now, "fingerprints read");
            sliceCharged[slice] = now;
        }
        return read;
    }

    /**
     * Appends one shard's candidates (or the members of its page of groups) to the table (a sink of
     * {@link ShardedCandidates}).
     */
    void addCandidates(String index, ShardBandsResponse r) {
        synchronized (table) {
            if (r.grouped()) {
                // the shard grouped its candidates itself: the members of the page's groups, their groups and similarities,
                // no sketches
                shardGroups = r;
                sketchBytes = new byte[0];
            }
            for (int i = 0; i < r.candidates(); i++) {
                int doc = table.size();
                table.add(index, r.id(i), r.fingerprint(i), r.routing(i));
                if (r.grouped() == false) {
                    addSketch(doc, r.sketches(), i * MinHashSketch.BYTES);
                }
            }
            long now = table.ramBytesUsed() + sketchBytes.length + sketchPresent.size() / Byte.SIZE
                + (r.grouped() ? (long) r.candidates() * (Integer.BYTES + Double.BYTES) : 0);
            memory.update(tableCharged, now, "candidates read");
            tableCharged = now;
        }
    }

    /** Keeps document {@code doc}'s sketch, at {@code sketch[offset..]} (null: it has none), growing the array by half when full. */
    private void addSketch(int doc, byte[] sketch, int offset) {
        int size = MinHashSketch.BYTES;
        if ((long) (doc + 1) * size > sketchBytes.length) {
            long grown = Math.max((long) (doc + 1) * size, sketchBytes.length + (long) (sketchBytes.length >> 1));
            if (grown > Integer.MAX_VALUE - 16) {
                throw new IllegalArgumentException("[min_similarity] a report verifies at most [" + ((Integer.MAX_VALUE - 16) / size)
                    + "] documents; narrow it with [query]");
            }
            sketchBytes = Arrays.copyOf(sketchBytes, (int) grown);
        }
        if (sketch != null) {
            System.arraycopy(sketch, offset, sketchBytes, doc * size, size);
            sketchPresent.set(doc);
        }
    }

    private void rememberCurrentGroup(int doc, DocumentField field) {
        if (doc == currentGroup.length) {
            currentGroup = Arrays.copyOf(currentGroup, doc + (doc >> 1));
        }
        if (field != null && field.getValues().size() == 1 && field.getValue() instanceof String s && s.length() == 16) {
            try {
                long v = SimHash.parse(s);
                // only the exact form this report writes (lowercase hex) counts: "ABCD..." or a 16-character decimal
                // is a different keyword for collapse, so it must be overwritten
                if (SimHash.toHex(v).equals(s)) {
                    currentGroup[doc] = v;
                    hasCurrentGroup.set(doc);
                }
            } catch (IllegalArgumentException e) {
                // not a value this report writes: it will be overwritten
            }
        }
    }

    /** Whether document {@code doc} holds {@code group} as its group id already (written by an earlier run). */
    boolean holdsGroup(int doc, long group) {
        return hasCurrentGroup.get(doc) && currentGroup[doc] == group;
    }

    /** Every document's fingerprint, in document order: the table's, or the slices' joined (releasing them). */
    long[] hashes() {
        if (idsWhileReading) {
            memory.add((long) table.size() * Long.BYTES, "fingerprints to group");
            return table.hashes();
        }
        int n = 0;
        for (Longs l : sliceHashes) {
            n += l.size;
        }
        memory.add((long) n * Long.BYTES, "fingerprints to group");
        long[] all = new long[n];
        int at = 0;
        for (int i = 0; i < sliceHashes.length; i++) {
            System.arraycopy(sliceHashes[i].values, 0, all, at, sliceHashes[i].size);
            at += sliceHashes[i].size;
            sliceHashes[i] = null;
            memory.release(sliceCharged[i]);
            sliceCharged[i] = 0;
        }
        return all;
    }

    /** The sketches to verify pairs with, given the threshold (null without one). */
    NearDuplicateComponents.Sketches sketches(Verification verification) {
        return verification == null ? null
            : new NearDuplicateComponents.Sketches(sketchBytes, sketchPresent, MinHashSketch.BYTES, verification::linked);
    }

    /** The estimated similarity of two documents' sketches. */
    double similarity(int doc, int other) {
        return Verification.similarity(sketchBytes, doc * MinHashSketch.BYTES, sketchBytes, other * MinHashSketch.BYTES);
    }
}
