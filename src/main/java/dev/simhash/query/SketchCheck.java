package dev.simhash.query;

import dev.simhash.core.MinHashSketch;
import dev.simhash.core.SketchBands;
import dev.simhash.mapper.SimHashFieldType;
import dev.simhash.threshold.Verification;

import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.util.BytesRef;

import java.io.IOException;
import java.util.Arrays;
import java.util.Objects;

/**
 * The second check of a {@code min_similarity} query: a candidate (within the Hamming radius, or sharing a band of the
 * sketch, {@link SketchBands}) matches only when its stored sketch (the binary doc values of the {@code simhash} field's
 * sketch field) and the query's pass the threshold's rule ({@link Verification#passes}: enough equal bins, the same rule
 * as fold, report and the ingest processor). A document without a stored sketch never matches, nor one whose
 * field is hidden by field-level security ({@link SimHashFieldType#sketchValues}).
 */
final class SketchCheck {

    /** The {@code simhash} field whose sketches are compared. */
    private final String field;
    private final String sketchField;
    private final MinHashSketch sketch;
    private final byte[] querySketch;
    private final Verification threshold;

    SketchCheck(String field, MinHashSketch sketch, byte[] querySketch, Verification threshold) {
        if (querySketch.length != sketch.bytes()) {
            throw new IllegalArgumentException("[sketch] must be " + sketch.bytes() + " bytes, got [" + querySketch.length + "]");
        }
        this.field = field;
        this.sketchField = SimHashFieldType.sketchField(field);
        this.sketch = sketch;
        this.querySketch = querySketch.clone();
        this.threshold = threshold;
    }

    /** The Lucene field of the sketches and their band values. */
    String sketchField() {
        return sketchField;
    }

    /** The segment's sketches, or null when it has none or field-level security hides the field. */
    BinaryDocValues sketches(LeafReader reader) throws IOException {
        return SimHashFieldType.sketchValues(reader, field);
    }

    double minSimilarity() {
        return threshold.minSimilarity();
    }

    /** The band values of the query's sketch, which the candidates of a banded threshold share one of. */
    BytesRef[] bandValues() {
        return SketchBands.values(querySketch);
    }

    /** How many bins of the document's stored sketch equal the query sketch's, or -1 when it has no (well-formed) sketch. */
    int equalBins(BinaryDocValues values, int doc) throws IOException {
        if (values == null || !values.advanceExact(doc)) {
            return -1;
        }
        BytesRef b = values.binaryValue();
        if (b.length != querySketch.length) {
            return -1; // an empty value: the document has no sketch
        }
        return sketch.equalBins(querySketch, 0, b.bytes, b.offset);
    }

    /** A copy of a document's stored sketch, or null when it has none (for explanations, not the hot path). */
    byte[] storedSketch(BinaryDocValues values, int doc) throws IOException {
        if (values == null || !values.advanceExact(doc)) {
            return null;
        }
        BytesRef b = values.binaryValue();
        return b.length == querySketch.length ? BytesRef.deepCopyOf(b).bytes : null;
    }

    /** How many bins of a stored sketch from {@link #storedSketch} equal the query sketch's. */
    int equalBins(byte[] stored) {
        return sketch.equalBins(querySketch, 0, stored, 0);
    }

    /** The estimated similarity of sketches with {@code equalBins} equal bins, or -1 for a document without sketch (-1). */
    double similarity(int equalBins) {
        return equalBins < 0 ? -1 : sketch.similarityOfEqualBins(equalBins);
    }

    /** How many bands of the query's sketch a stored one from {@link #storedSketch} shares ({@link SketchBands#sharedBands}). */
    int sharedBands(byte[] stored) {
        return SketchBands.sharedBands(querySketch, 0, stored, 0);
    }

    /** Whether a document with {@code equalBins} equal bins (-1: no sketch) passes the threshold, by {@link Verification#passes}. */
    boolean passes(int equalBins) {
        return threshold.passes(equalBins);
    }

    @Override
    public String toString() {
        return "min_similarity=" + threshold.minSimilarity();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SketchCheck other && sketchField.equals(other.sketchField) && sketch == other.sketch
            && Arrays.equals(querySketch, other.querySketch) && threshold.equals(other.threshold);
    }

    @Override
    public int hashCode() {
        return Objects.hash(sketchField, System.identityHashCode(sketch), Arrays.hashCode(querySketch), threshold);
    }
}
