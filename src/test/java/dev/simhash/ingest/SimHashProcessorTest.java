package dev.simhash.ingest;

import dev.simhash.core.FeatureAnalyzer;
import dev.simhash.core.FeatureBag;
import dev.simhash.core.FingerprintOptions;
import dev.simhash.core.GoldenVectors;
import dev.simhash.core.SimHash;
import dev.simhash.core.TextFingerprinter;

import org.elasticsearch.ElasticsearchException;
import org.elasticsearch.ingest.IngestDocument;
import org.elasticsearch.ingest.TestIngestDocument;
import org.elasticsearch.test.ESTestCase;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Option parsing, value types and agreement with the core and the golden vectors. */
public class SimHashProcessorTest extends ESTestCase {

    private static final SimHashProcessor.Factory FACTORY = new SimHashProcessor.Factory(null);

    private static SimHashProcessor create(Object... keyValues) throws Exception {
        Map<String, Object> config = new HashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            config.put((String) keyValues[i], keyValues[i + 1]);
        }
        SimHashProcessor p = FACTORY.create(Map.of(), "tag", null, config);
        assertTrue("unconsumed options: " + config, config.isEmpty());
        return p;
    }

    private static IngestDocument doc(Map<String, Object> source) {
        return TestIngestDocument.withDefaultVersion(new HashMap<>(source));
    }

    public void testDefaultsAndStoredForm() throws Exception {
        SimHashProcessor p = create("field", "body");
        assertEquals("simhash", p.targetField());
        assertFalse(p.ignoreMissing());
        String text = "北京时间今天上午，国家统计局发布了最新一期的居民消费价格指数数据。CPI rose 0.2%";
        IngestDocument d = p.execute(doc(Map.of("body", text)));
        long expected = new TextFingerprinter(FeatureAnalyzer.DEFAULT, FingerprintOptions.DEFAULTS).fingerprint(text).getAsLong();
        assertEquals(expected, (long) d.getFieldValue("simhash.hash", Long.class));
        for (int j = 0; j < 4; j++) {
            assertEquals(SimHash.blockTerm(SimHash.block(expected, j)), d.getFieldValue("simhash.b" + j, String.class));
        }
    }

    public void testGoldenVectors() throws Exception {
        for (GoldenVectors.Case c : GoldenVectors.load()) {
            SimHashProcessor p = c.weighted()
                ? create("field", "f", "target_field", "fp", "min_features", c.minFeatures())
                : create("field", "f", "target_field", "fp", "analyzer", c.analyzer(), "shingle_size", c.shingleSize(), "weighting",
                    c.weighting(), "min_features", c.minFeatures());
            IngestDocument d = p.execute(doc(Map.of("f", c.weighted() ? c.features() : c.text())));
            if (c.expected() == null) {
                assertFalse(c.id(), d.hasField("fp"));
            } else {
                assertEquals(c.id(), SimHash.parse(c.expected()), (long) d.getFieldValue("fp.hash", Long.class));
            }
        }
    }

    public void testArrayOfStringsIsOneDocumentAndNullElementsAreSkipped() throws Exception {
        SimHashProcessor p = create("field", "tags", "analyzer", "whitespace");
        List<Object> values = new ArrayList<>(Arrays.asList("alpha beta", null, "gamma"));
        IngestDocument d = p.execute(doc(Map.of("tags", values)));
        long expected = new TextFingerprinter(FeatureAnalyzer.WHITESPACE, FingerprintOptions.DEFAULTS).fingerprint("alpha beta gamma")
            .getAsLong();
        assertEquals(expected, (long) d.getFieldValue("simhash.hash", Long.class));
    }

    public void testObjectOfWeightsUsesExplicitWeights() throws Exception {
        Map<String, Object> weights = new LinkedHashMap<>();
        weights.put("simhash", 3);
        weights.put("检测", 1.5);
        IngestDocument d = create("field", "features").execute(doc(Map.of("features", weights)));
        long expected = FeatureBag.fingerprintWeighted(Map.of("simhash", 3.0, "检测", 1.5), 1).getAsLong();
        assertEquals(expected, (long) d.getFieldValue("simhash.hash", Long.class));
        weights.put("bad", -1);
        IllegalArgumentException e = expectThrows(IllegalArgumentException.class,
            () -> create("field", "features").execute(doc(Map.of("features", weights))));
        assertTrue(e.getMessage(), e.getMessage().contains("weight of [bad] is [-1]"));
    }

    public void testWrongTypesAreClearErrors() throws Exception {
        SimHashProcessor p = create("field", "body");
        IllegalArgumentException e = expectThrows(IllegalArgumentException.class, () -> p.execute(doc(Map.of("body", 42))));
        assertTrue(e.getMessage(), e.getMessage().contains("field [body] must be a string") && e.getMessage().contains("[Integer]"));
        e = expectThrows(IllegalArgumentException.class, () -> p.execute(doc(Map.of("body", List.of("ok", 7)))));
        assertTrue(e.getMessage(), e.getMessage().contains("element [1] is of type [Integer]"));
    }

    public void testMissingAndNullFields() throws Exception {
        SimHashProcessor strict = create("field", "body");
        IllegalArgumentException e = expectThrows(IllegalArgumentException.class, () -> strict.execute(doc(Map.of("other", "x"))));
        assertTrue(e.getMessage(), e.getMessage().contains("body"));
        Map<String, Object> withNull = new HashMap<>();
        withNull.put("body", null);
        e = expectThrows(IllegalArgumentException.class, () -> strict.execute(doc(withNull)));
        assertTrue(e.getMessage(), e.getMessage().contains("field [body] is null"));
        SimHashProcessor lenient = create("field", "body", "ignore_missing", true);
        assertFalse(lenient.execute(doc(Map.of("other", "x"))).hasField("simhash"));
        assertFalse(lenient.execute(doc(withNull)).hasField("simhash"));
    }

    public void testNoFeaturesRemovesAStaleFingerprint() throws Exception {
        IngestDocument d = create("field", "body").execute(doc(Map.of("body", "  ，。 ", "simhash", Map.of("hash", 5L))));
        assertFalse(d.hasField("simhash"));
    }

    public void testInvalidOptionsNameTheOption() {
        assertInvalid("field", null, "[field] required property is missing");
        assertInvalid("weighting", "idf", "[weighting] unknown weighting [idf]");
        assertInvalid("shingle_size", 0, "[shingle_size] must be between 1 and 8, got [0]");
        assertInvalid("min_features", 0, "[min_features] must be at least 1, got [0]");
        assertInvalid("analyzer", "no_such", "[analyzer] unknown analyzer [no_such]");
        assertInvalid("ignore_missing", "yes", "[ignore_missing]");
        assertInvalid("target_field", "", "[target_field] must not be empty");
    }

    private void assertInvalid(String option, Object value, String message) {
        Map<String, Object> config = new HashMap<>();
        config.put("field", "body");
        if (value == null) {
            config.remove(option);
        } else {
            config.put(option, value);
        }
        Exception e = expectThrows(Exception.class, () -> FACTORY.create(Map.of(), "tag", null, config));
        assertTrue(e.getClass().getName(), e instanceof ElasticsearchException);
        assertTrue(e.getMessage(), e.getMessage().contains(message));
    }
}
