package dev.simhash.script;

import dev.simhash.core.SimHash;

import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.SortedNumericDocValues;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Reads the fingerprints of one segment straight from the doc values of the hash field and gives
 * their Hamming distance to a fixed fingerprint: the per-document hot path of every simhash script.
 */
final class FingerprintReader {

    /** Distance reported for a document without a fingerprint: as far away as a fingerprint can be. */
    static final int MISSING_DISTANCE = SimHash.BITS;

    private final LeafReader reader;
    private final String field;
    private final long hash;

    private SortedNumericDocValues multi;
    /** Non-null when the segment has at most one value per document: the common, cheaper path. */
    private NumericDocValues single;
    private int lastDoc = -1;
    private int lastDistance;

    FingerprintReader(LeafReader reader, String field, long hash) {
        this.reader = reader;
        this.field = field;
        this.hash = hash;
        reset();
    }

    private void reset() {
        try {
            // a segment without any value of the field (or an unmapped field) yields empty doc values
            multi = DocValues.getSortedNumeric(reader, field);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        single = DocValues.unwrapSingleton(multi);
        lastDoc = -1;
    }

    /**
     * Hamming distance (0..64) between the document's fingerprint and the given one; the smallest
     * one if the document has several; {@link #MISSING_DISTANCE} if it has none.
     */
    int distance(int doc) {
        if (doc == lastDoc) {
            return lastDistance; // score() may be asked more than once per document
        }
        if (doc < lastDoc) {
            reset(); // doc values only move forward; callers almost never go back, but must not get wrong answers if they do
        }
        try {
            lastDistance = single != null ? singleDistance(doc) : multiDistance(doc);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        lastDoc = doc;
        return lastDistance;
    }

    private int singleDistance(int doc) throws IOException {
        return single.advanceExact(doc) ? Long.bitCount(single.longValue() ^ hash) : MISSING_DISTANCE;
    }

    private int multiDistance(int doc) throws IOException {
        if (multi.advanceExact(doc) == false) {
            return MISSING_DISTANCE;
        }
        int best = MISSING_DISTANCE;
        for (int i = multi.docValueCount(); i > 0 && best > 0; i--) {
            best = Math.min(best, Long.bitCount(multi.nextValue() ^ hash));
        }
        return best;
    }
}
