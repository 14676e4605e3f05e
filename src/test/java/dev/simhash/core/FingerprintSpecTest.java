package dev.simhash.core;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.core.KeywordAnalyzer;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The one parser of fingerprint options: defaults, values as they arrive from JSON and settings, errors naming the option. */
class FingerprintSpecTest {

    /** A table as the spec sees it: v2 features, all weights 1, the given digest. */
    private static FeatureWeights tableWithDigest(String digest) {
        return new FeatureWeights() {
            @Override
            public FingerprintSpec.Version version() {
                return FingerprintSpec.Version.V2;
            }

            @Override
            public String digest() {
                return digest;
            }

            @Override
            public double applyAsDouble(String feature) {
                return 1;
            }
        };
    }

    @Test
    void aRecordedDigestAcceptsOnlyTheTableWithThatDigest() {
        String d1 = "0123456789abcdef0123456789abcdef";
        String d2 = "fedcba9876543210fedcba9876543210";
        FingerprintSpec named = FingerprintSpec.parse(Map.of("version", "v2", "weights", "t"));
        FingerprintSpec pinned = named.withWeightsDigest(d1);
        assertEquals(d1, pinned.weightsDigest());
        assertFalse(pinned.equals(named), "the digest decides which weights the fingerprints have");
        assertEquals(named.toMap(), pinned.toMap(), "not one of the rendered options");
        FeatureWeights same = tableWithDigest(d1);
        assertSame(same, Fingerprinters.weights(pinned, name -> same));
        FeatureWeights other = tableWithDigest(d2);
        assertSame(other, Fingerprinters.weights(named, name -> other), "without a digest any table of the name will do");
        assertEquals("[weights] table [t] is not the table this field was created with: the field recorded [weights_digest] [" + d1
                + "], the table's digest is [" + d2 + "] (it was deleted and made again with other weights); fingerprints made with it "
                + "would not match the stored ones. Put the original table back under this name, or copy the documents into a new field",
            assertThrows(IllegalArgumentException.class, () -> Fingerprinters.weights(pinned, name -> other)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> Fingerprinters.of(pinned, null, "the node", name -> other).fingerprint("a b c"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> named.withWeightsDigest("XYZ")).getMessage()
            .startsWith("[weights_digest] must be the 32 lowercase hex digits of a table's digest, got [XYZ]"));
        assertEquals("[weights_digest] applies only with [weights]", assertThrows(IllegalArgumentException.class,
            () -> FingerprintSpec.parse(Map.of("version", "v2")).withWeightsDigest(d1)).getMessage());
    }

    @Test
    void absentOptionsTakeTheDefaultsOfSimhashV1() {
        FingerprintSpec spec = FingerprintSpec.parse(Map.of());
        assertEquals(FingerprintSpec.Version.V1, spec.version());
        assertEquals("default", spec.analyzer());
        assertEquals(1, spec.options().shingleSize());
        assertEquals(Weighting.TF, spec.options().weighting());
        assertEquals(1, spec.options().minFeatures());
        assertEquals(Map.of("version", "v1", "analyzer", "default", "shingle_size", 1, "weighting", "tf", "min_features", 1), spec.toMap());
        assertEquals(spec, FingerprintSpec.DEFAULTS);
    }

    @Test
    void versionTwoFixesItsFeaturesAndHasItsOwnRadius() {
        FingerprintSpec v2 = FingerprintSpec.parse(Map.of("version", "v2", "min_features", "3"));
        assertEquals(FingerprintSpec.Version.V2, v2.version());
        assertEquals(Map.of("version", "v2", "min_features", 3), v2.toMap());
        assertFalse(v2.applies("analyzer"));
        assertTrue(v2.applies("min_features"));
        assertTrue(v2.hasBuiltInAnalyzer(), "needs no index or node analyzer");
        assertEquals(6, FingerprintSpec.Version.V2.defaultMaxDistance());
        assertEquals(3, FingerprintSpec.Version.V1.defaultMaxDistance());
        assertEquals("simhash-v2", FingerprintSpec.Version.V2.algorithm());
        // absent version: v1 for configurations that do not record one, the latest where the caller says so
        assertEquals(FingerprintSpec.Version.V1, FingerprintSpec.parse(Map.of()).version());
        assertEquals(FingerprintSpec.Version.V2,
            FingerprintSpec.parse(Map.of(), FingerprintSpec.OPTIONS, FingerprintSpec.LATEST).version());
        for (String option : List.of("analyzer", "shingle_size", "weighting")) {
            Map<String, Object> raw = Map.of("version", "v2", option, option.equals("shingle_size") ? 2 : "standard");
            FingerprintSpec.InvalidOptionException e = assertThrows(FingerprintSpec.InvalidOptionException.class,
                () -> FingerprintSpec.parse(raw));
            assertEquals(option, e.option());
            assertTrue(e.getMessage().startsWith("[" + option + "] does not apply to simhash-v2"), e.getMessage());
        }
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class, () -> FingerprintSpec.parse(Map.of("version", "v3")));
        assertEquals("[version] unknown version [v3], expected one of [v1, v2]", unknown.getMessage());
        assertThrows(IllegalArgumentException.class,
            () -> new FingerprintSpec(FingerprintSpec.Version.V2, "standard", new FingerprintOptions(1, Weighting.LOG_TF, 1)));
    }

    @Test
    void valuesArriveAsJsonNumbersOrAsSettingsStrings() {
        Map<String, Object> fromJson = Map.of("analyzer", "standard", "shingle_size", 2, "weighting", "log_tf", "min_features", 5L);
        Map<String, Object> fromSettings = Map.of("analyzer", "standard", "shingle_size", "2", "weighting", "log_tf", "min_features", "5");
        FingerprintSpec a = FingerprintSpec.parse(fromJson);
        assertEquals(a, FingerprintSpec.parse(fromSettings));
        assertEquals(new FingerprintOptions(2, Weighting.LOG_TF, 5), a.options());
        assertEquals(2, FingerprintSpec.canonicalValue("shingle_size", "2"));
        assertEquals("log_tf", FingerprintSpec.canonicalValue("weighting", "log_tf"));
        assertEquals("v1", FingerprintSpec.canonicalValue("version", "v1"));
    }

    @Test
    void errorsNameTheOption() {
        Map<Map<String, Object>, String> cases = new LinkedHashMap<>();
        cases.put(Map.of("shingle_size", 0), "[shingle_size] must be between 1 and 8, got [0]");
        cases.put(Map.of("shingle_size", 9), "[shingle_size] must be between 1 and 8, got [9]");
        cases.put(Map.of("shingle_size", "two"), "[shingle_size] must be an integer, got [two]");
        cases.put(Map.of("shingle_size", 1.5), "[shingle_size] must be an integer, got [1.5]");
        cases.put(Map.of("min_features", 0), "[min_features] must be at least 1, got [0]");
        cases.put(Map.of("min_features", 1L << 40), "[min_features] must be an integer, got [1099511627776]");
        cases.put(Map.of("weighting", "idf"), "[weighting] unknown weighting [idf], expected one of [tf, binary, log_tf]");
        cases.put(Map.of("version", "v9"), "[version] unknown version [v9], expected one of [v1, v2]");
        cases.put(Map.of("version", 1), "[version] must be a string, got [1]");
        cases.put(Map.of("analyzer", " "), "[analyzer] must be a non-empty analyzer name");
        cases.put(Map.of("shingel_size", 2), "[shingel_size] is not a fingerprint option, expected one of "
            + "[version, analyzer, shingle_size, weighting, min_features, weights]");
        cases.forEach((raw, message) -> assertEquals(message,
            assertThrows(IllegalArgumentException.class, () -> FingerprintSpec.parse(raw)).getMessage(), raw.toString()));
        // a caller that takes fewer options (the token filter has no analyzer) says which it takes
        assertEquals("[analyzer] is not a fingerprint option, expected one of [shingle_size]", assertThrows(IllegalArgumentException.class,
            () -> FingerprintSpec.parse(Map.of("analyzer", "standard"), List.of("shingle_size"))).getMessage());
    }

    @Test
    void builtInAnalyzersComeFirstThenTheLookup() {
        Analyzer other = new KeywordAnalyzer();
        FingerprintSpec standard = FingerprintSpec.parse(Map.of("analyzer", "standard"));
        assertTrue(standard.hasBuiltInAnalyzer());
        // a lookup that knows "standard" too (Elasticsearch's own) never shadows the built-in feature analyzer
        assertSame(FeatureAnalyzer.STANDARD.analyzer(), Fingerprinters.analyzer(standard, name -> other));
        FingerprintSpec custom = FingerprintSpec.parse(Map.of("analyzer", "my_text"));
        assertFalse(custom.hasBuiltInAnalyzer());
        assertSame(other, Fingerprinters.analyzer(custom, name -> name.equals("my_text") ? other : null));
        assertEquals("[analyzer] unknown analyzer [my_text]: use one of [default, standard, whitespace] or the name of an analyzer of "
            + "the node or the index", assertThrows(IllegalArgumentException.class, () -> Fingerprinters.analyzer(custom, name -> null)).getMessage());
    }
}
