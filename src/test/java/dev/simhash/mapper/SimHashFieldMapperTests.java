package dev.simhash.mapper;

import dev.simhash.core.FingerprintSpec;
import dev.simhash.core.MinHashSketch;

import org.elasticsearch.xcontent.XContentBuilder;

import java.io.IOException;
import java.util.List;
import java.util.Locale;

/**
 * Elasticsearch's contract for field mappers ({@code MapperTestCase}), run on the {@code simhash} field as users map it:
 * {@code input: text}, the fingerprint computed from the text given to the field.
 */
public class SimHashFieldMapperTests extends SimHashMapperTestCase {

    private static final String[] WORDS = { "near", "duplicate", "news", "story", "edited", "twice", "refund", "received", "blender",
        "近似", "重复", "检测", "搜索", "引擎", "东京" };

    @Override
    protected void minimalMapping(XContentBuilder b) throws IOException {
        b.field("type", SimHashFieldMapper.CONTENT_TYPE);
    }

    @Override
    protected Object getSampleValueForDocument() {
        return "Near-duplicate detection finds the news story that was edited twice";
    }

    /** A text of random words (each has features, so each gives a fingerprint), sometimes random realistic Unicode. */
    @Override
    protected Object randomValue() {
        if (rarely()) {
            return randomRealisticUnicodeOfCodepointLengthBetween(1, 40);
        }
        StringBuilder text = new StringBuilder();
        for (int i = between(1, 12); i > 0; i--) {
            text.append(randomBoolean() ? randomFrom(WORDS) : randomAlphaOfLengthBetween(1, 9).toLowerCase(Locale.ROOT)).append(' ');
        }
        return text.toString().trim();
    }

    /** A text with features has exactly one fingerprint (all texts of a document are one text), in 16 hex digits. */
    @Override
    protected void checkFetched(Object value, List<Object> fetched) {
        assertTrue(fetched.size() <= 1);
        for (Object v : fetched) {
            assertTrue(String.valueOf(v), String.valueOf(v).matches("[0-9a-f]{16}"));
        }
        if (value instanceof String s && s.matches(".*[a-z].*")) {
            assertEquals("a text with letters has a fingerprint: " + value, 1, fetched.size());
        }
    }

    /**
     * The mapping as the field records it: a new field writes its version and its sketch into the mapping (so that a later
     * default never changes what it stores), and the meta check compares the mapping given with the mapping kept.
     */
    @Override
    protected void metaMapping(XContentBuilder b) throws IOException {
        minimalMapping(b);
        b.field(FingerprintSpec.VERSION, FingerprintSpec.LATEST.optionName());
        b.field(SimHashFieldMapper.SKETCH, MinHashSketch.ALGORITHM);
    }

    private static void v1(XContentBuilder b) throws IOException {
        b.field("type", SimHashFieldMapper.CONTENT_TYPE).field(FingerprintSpec.VERSION, "v1");
    }

    /** Every option decides what the stored fingerprints mean, so none can change once the field exists. */
    @Override
    protected void registerParameters(ParameterChecker checker) throws IOException {
        checker.registerConflictCheck(SimHashFieldMapper.INPUT, b -> b.field(SimHashFieldMapper.INPUT, "fingerprint"));
        checker.registerConflictCheck(FingerprintSpec.VERSION, b -> b.field(FingerprintSpec.VERSION, "v1"));
        // analyzer, shingle_size and weighting are simhash-v1 options (v2 fixes its features)
        checker.registerConflictCheck(FingerprintSpec.ANALYZER, fieldMapping(SimHashFieldMapperTests::v1),
            fieldMapping(b -> v1(b.field(FingerprintSpec.ANALYZER, "whitespace"))));
        checker.registerConflictCheck(FingerprintSpec.SHINGLE_SIZE, fieldMapping(SimHashFieldMapperTests::v1),
            fieldMapping(b -> v1(b.field(FingerprintSpec.SHINGLE_SIZE, 2))));
        checker.registerConflictCheck(FingerprintSpec.WEIGHTING, fieldMapping(SimHashFieldMapperTests::v1),
            fieldMapping(b -> v1(b.field(FingerprintSpec.WEIGHTING, "binary"))));
        checker.registerConflictCheck(FingerprintSpec.MIN_FEATURES, b -> b.field(FingerprintSpec.MIN_FEATURES, 3));
        checker.registerConflictCheck(FingerprintSpec.WEIGHTS, b -> b.field(FingerprintSpec.WEIGHTS, "news"));
        // a recorded digest never changes (the field refuses a table of that name with other weights)
        checker.registerConflictCheck(FingerprintSpec.WEIGHTS_DIGEST, fieldMapping(minimalWith(b -> b.field(FingerprintSpec.WEIGHTS, "news")
                .field(FingerprintSpec.WEIGHTS_DIGEST, "0123456789abcdef0123456789abcdef"))),
            fieldMapping(minimalWith(b -> b.field(FingerprintSpec.WEIGHTS, "news")
                .field(FingerprintSpec.WEIGHTS_DIGEST, "fedcba9876543210fedcba9876543210"))));
        checker.registerConflictCheck(SimHashFieldMapper.SKETCH, b -> b.field(SimHashFieldMapper.SKETCH, SimHashFieldMapper.NO_SKETCH));
    }

    /**
     * The sketch's Lucene field holds the sketch as a binary doc value and, as points, its 14 band keys: band j is the point
     * [j, the 5-byte key of band j at byte 64 + 5j] of that same sketch (docs/spec/minhash-v1.md, "Candidates"); a field without a sketch has
     * neither.
     */
    public void testTheSketchFieldIndexesTheBandsOfTheStoredSketch() throws IOException {
        org.elasticsearch.index.mapper.ParsedDocument doc = createDocumentMapper(fieldMapping(this::minimalMapping))
            .parse(source(b -> b.field("field", getSampleValueForDocument())));
        byte[] sketch = null;
        List<org.apache.lucene.util.BytesRef> terms = new java.util.ArrayList<>();
        for (org.apache.lucene.index.IndexableField f : doc.rootDoc().getFields("field._minhash")) {
            if (f.fieldType().docValuesType() == org.apache.lucene.index.DocValuesType.BINARY) {
                sketch = org.apache.lucene.util.BytesRef.deepCopyOf(f.binaryValue()).bytes;
            } else {
                // a band value: a one-dimensional point of 6 bytes, not indexed as a term
                assertEquals(org.apache.lucene.index.IndexOptions.NONE, f.fieldType().indexOptions());
                assertEquals(1, f.fieldType().pointDimensionCount());
                assertEquals(6, f.fieldType().pointNumBytes());
                terms.add(org.apache.lucene.util.BytesRef.deepCopyOf(f.binaryValue()));
            }
        }
        assertNotNull("a sketch doc value", sketch);
        assertEquals(MinHashSketch.BYTES, sketch.length);
        assertEquals(14, terms.size());
        for (int j = 0; j < 14; j++) {
            // [band, its 5-byte key], the keys stored after the 64 bytes of bins
            byte[] expected = new byte[6];
            expected[0] = (byte) j;
            System.arraycopy(sketch, 64 + 5 * j, expected, 1, 5);
            assertEquals(new org.apache.lucene.util.BytesRef(expected), terms.get(j));
        }
        org.elasticsearch.index.mapper.ParsedDocument none = createDocumentMapper(fieldMapping(b -> b.field("type",
            SimHashFieldMapper.CONTENT_TYPE).field("sketch", "none"))).parse(source(b -> b.field("field", getSampleValueForDocument())));
        assertEquals(List.of(), none.rootDoc().getFields("field._minhash"));
    }
}
