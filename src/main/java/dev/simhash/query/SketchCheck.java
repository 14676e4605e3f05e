package dev.simhash.query;

import dev.simhash.core.MinHashSketch;
import dev.simhash.core.SketchBands;
import dev.simhash.mapper.SimHashFieldType;

import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.util.BytesRef;

import java.io.IOException;
import java.util.Arrays;
import java.util.Objects;

/**
 * The second check of a {@code min_similarity} query: a candidate (within the Hamming radius, or sharing a band of the
 * sketch, {@link SketchBands}) matches only when the
 * estimated similarity of its stored sketch (the binary doc values of the {@code simhash} field's sketch field) and the
 * query's sketch is at least {@code minSimilarity}. A document without a stored sketch never matches, nor one whose
 * field is hidden by field-level security ({@link SimHashFieldType#sketchValues}).
 */
final class SketchCheck {

    /** The {@code simhash} field whose sketches are compared. */
    private final String field;
    private final String sketchField;
    private final MinHashSketch sketch;
    private final byte[] querySketch;
    private final double minSimilarity;

    SketchCheck(String field, MinHashSketch sketch, byte[] querySketch, double minSimilarity) {
        if (querySketch.length != sketch.bytes()) {
            throw new IllegalArgumentException("[sketch] must be " + sketch.bytes() + " bytes, got [" + querySketch.length + "]");
        }
        this.field = field;
        this.sketchField = SimHashFieldType.sketchField(field);
        this.sketch = sketch;
        this.querySketch = querySketch.clone();
        this.minSimilarity = minSimilarity;
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
        return minSimilarity;
    }

    /** The band values of the query's sketch, which the candidates of a banded threshold share one of. */
    BytesRef[] bandValues() {
        return SketchBands.values(querySketch);
    }

    /** The estimated similarity of the document the values are positioned on, or -1 when it has no (well-formed) sketch. */
    double similarity(BinaryDocValues values, int doc) throws IOException {
        if (values == null || !values.advanceExact(doc)) {
            return -1;
        }
        BytesRef b = values.binaryValue();
        if (b.length != querySketch.length) {
            return -1; // an empty value: the document has no sketch
        }
        return sketch.similarity(querySketch, 0, b.bytes, b.offset);
    }

    /** A copy of a document's stored sketch, or null when it has none (for explanations, not the hot path). */
    byte[] storedSketch(BinaryDocValues values, int doc) throws IOException {
        if (values == null || !values.advanceExact(doc)) {
            return null;
        }
        BytesRef b = values.binaryValue();
        return b.length == querySketch.length ? BytesRef.deepCopyOf(b).bytes : null;
    }

    /** The estimated similarity of the query's sketch and a stored one from {@link #storedSketch}. */
    double similarity(byte[] stored) {
        return sketch.similarity(querySketch, 0, stored, 0);
    }

    /** How many bands of the query's sketch a stored one from {@link #storedSketch} shares ({@link SketchBands#sharedBands}). */
    int sharedBands(byte[] stored) {
        return SketchBands.sharedBands(querySketch, 0, stored, 0);
    }

    /** Whether a similarity from {@link #similarity} passes the threshold (-1, no sketch, never does: the threshold is > 0). */
    boolean passes(double similarity) {
        return similarity >= minSimilarity;
    }

    @Override
    public String toString() {
        return "min_similarity=" + minSimilarity;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SketchCheck other && sketchField.equals(other.sketchField) && sketch == other.sketch
            && Arrays.equals(querySketch, other.querySketch) && minSimilarity == other.minSimilarity;
    }

    @Override
    public int hashCode() {
        return Objects.hash(sketchField, System.identityHashCode(sketch), Arrays.hashCode(querySketch), minSimilarity);
    }
}
