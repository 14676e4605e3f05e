package dev.simhash.core;

import org.apache.lucene.analysis.core.WhitespaceAnalyzer;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The {@code weights} option: a spec naming a feature-weight table fingerprints through the fast path (FeatureBag) exactly as
 * the naive references multiply each weight by the table's factor (v2: {@link ReferenceSimHashV2}, the golden vectors'
 * weighted cases; v1: {@link ReferenceSimHash}'s weights times the factor), and the table is looked up by name, lazily.
 */
@ExtendWith(TestSeeds.class)
class FeatureWeightsFingerprintTest {

    private static final AtomicLong SEEDS = TestSeeds.sequence();

    /** A table for the tests: factors by feature, others {@code defaultWeight}. */
    record Table(FingerprintSpec.Version version, Map<String, Double> factors, double defaultWeight) implements FeatureWeights {
        @Override
        public double applyAsDouble(String feature) {
            Double f = factors.get(feature);
            return f == null ? defaultWeight : f;
        }
    }

    private static FeatureWeights.Tables only(String name, FeatureWeights table) {
        return n -> n.equals(name) ? table : null;
    }

    private static String hex(OptionalLong fp) {
        return fp.isPresent() ? SimHash.toHex(fp.getAsLong()) : null;
    }

    private static FingerprintSpec v2(String weights, int minFeatures) {
        Map<String, Object> raw = new HashMap<>();
        raw.put("version", "v2");
        raw.put("weights", weights);
        raw.put("min_features", minFeatures);
        return FingerprintSpec.parse(raw);
    }

    @TestFactory
    Stream<DynamicTest> weightedGoldenVectorsThroughTheSpec() {
        List<GoldenVectorsV2.Case> weighted = GoldenVectorsV2.load().stream().filter(c -> c.featureWeights() != null).toList();
        assertTrue(weighted.size() >= 3, "the v2 golden vectors have weighted cases");
        return weighted.stream().map(c -> DynamicTest.dynamicTest(c.id(), () -> {
            TextFingerprinter f = Fingerprinters.of(v2("idf", c.minFeatures()), null, "test",
                only("idf", new Table(FingerprintSpec.Version.V2, c.featureWeights(), 1.0)));
            assertEquals(c.expected(), hex(f.fingerprint(c.texts())), c.id());
            if (c.texts().size() == 1) {
                assertEquals(c.expected(), hex(f.fingerprint(c.texts().get(0))), c.id());
            }
        }));
    }

    private static String randomWord(Random r) {
        // a small vocabulary: repeats (tf > 1) and table hits
        return switch (r.nextInt(3)) {
            case 0 -> String.valueOf((char) ('a' + r.nextInt(12)));
            case 1 -> "w" + r.nextInt(40);
            default -> String.valueOf((char) (0x4E00 + r.nextInt(30)));
        };
    }

    private static double randomFactor(Random r) {
        return switch (r.nextInt(5)) {
            case 0 -> 0.0;
            case 1 -> 1 + r.nextInt(4);
            default -> r.nextDouble() * 5;
        };
    }

    @RepeatedTest(100)
    void v2MatchesTheReferenceOnRandomTablesAndTexts() {
        long seed = SEEDS.incrementAndGet();
        Random r = new Random(seed);
        List<String> texts = new ArrayList<>();
        for (int t = 1 + r.nextInt(3); t > 0; t--) {
            StringBuilder sb = new StringBuilder();
            for (int i = r.nextInt(60); i > 0; i--) {
                sb.append(randomWord(r)).append(' ');
            }
            texts.add(sb.toString());
        }
        Map<String, Double> factors = new HashMap<>();
        for (String feature : SimHashV2.features(texts).keySet()) {
            if (r.nextBoolean()) {
                factors.put(feature, randomFactor(r));
            }
        }
        double defaultWeight = randomFactor(r);
        int minFeatures = 1 + r.nextInt(r.nextBoolean() ? 3 : 40);
        Map<String, Double> all = new HashMap<>();
        for (String feature : SimHashV2.features(texts).keySet()) {
            all.put(feature, factors.getOrDefault(feature, defaultWeight));
        }
        OptionalLong expected = ReferenceSimHashV2.fingerprint(texts, minFeatures, all);
        TextFingerprinter f = Fingerprinters.of(v2("t", minFeatures), null, "test",
            only("t", new Table(FingerprintSpec.Version.V2, factors, defaultWeight)));
        assertEquals(hex(expected), hex(f.fingerprint(texts)), "seed " + seed);
        FeatureBag bag = f.newBag();
        texts.forEach(text -> f.addText(text, bag));
        assertEquals(hex(expected), hex(bag.fingerprint()), "seed " + seed + " (bag filled value by value)");
    }

    @RepeatedTest(100)
    void v1MatchesTheReferenceWithEveryWeightingAndShingleSize() {
        long seed = SEEDS.incrementAndGet();
        Random r = new Random(seed);
        List<String> tokens = new ArrayList<>();
        for (int i = r.nextInt(80); i > 0; i--) {
            tokens.add(randomWord(r));
        }
        int shingleSize = 1 + r.nextInt(3);
        Weighting weighting = Weighting.values()[r.nextInt(Weighting.values().length)];
        int minFeatures = 1 + r.nextInt(r.nextBoolean() ? 2 : 30);
        Map<String, Double> factors = new HashMap<>();
        for (String feature : ReferenceSimHash.features(tokens, shingleSize)) {
            if (r.nextBoolean()) {
                factors.put(feature, randomFactor(r));
            }
        }
        double defaultWeight = randomFactor(r);
        // the reference: v1's tf per feature, its weighting, times the factor; factor 0 leaves the feature out
        Map<String, Integer> tf = new LinkedHashMap<>();
        for (String feature : ReferenceSimHash.features(tokens, shingleSize)) {
            tf.merge(feature, 1, Integer::sum);
        }
        Map<String, Double> weighted = new LinkedHashMap<>();
        tf.forEach((feature, n) -> {
            double factor = factors.getOrDefault(feature, defaultWeight);
            if (factor != 0) {
                weighted.put(feature, ReferenceSimHash.weight(weighting.optionName(), n) * factor);
            }
        });
        OptionalLong expected = ReferenceSimHash.fingerprintWeighted(weighted, minFeatures);

        FingerprintSpec spec = FingerprintSpec.parse(Map.of("analyzer", "whitespace", "shingle_size", shingleSize,
            "weighting", weighting.optionName(), "min_features", minFeatures, "weights", "t1"));
        TextFingerprinter f = Fingerprinters.of(spec, null, "test", only("t1", new Table(FingerprintSpec.Version.V1, factors, defaultWeight)));
        assertEquals(hex(expected), hex(f.fingerprint(String.join(" ", tokens))), "seed " + seed);
    }

    @Test
    void unitFactorsChangeNothingAndZeroDropsAFeature() {
        String text = "the quick brown fox jumps over the lazy dog";
        OptionalLong plain = SimHashV2.fingerprint(text, 1);
        TextFingerprinter ones = Fingerprinters.of(v2("ones", 1), null, "test", only("ones", new Table(FingerprintSpec.Version.V2, Map.of(), 1.0)));
        assertEquals(hex(plain), hex(ones.fingerprint(text)));
        TextFingerprinter dropThe = Fingerprinters.of(v2("x", 1), null, "test",
            only("x", new Table(FingerprintSpec.Version.V2, Map.of("the", 0.0), 1.0)));
        Map<String, Double> withoutThe = new HashMap<>();
        SimHashV2.features(List.of(text)).keySet().forEach(feature -> withoutThe.put(feature, feature.equals("the") ? 0.0 : 1.0));
        assertEquals(hex(ReferenceSimHashV2.fingerprint(List.of(text), 1, withoutThe)), hex(dropThe.fingerprint(text)));
        assertNotEquals(hex(plain), hex(dropThe.fingerprint(text)));
        TextFingerprinter dropAll = Fingerprinters.of(v2("z", 1), null, "test", only("z", new Table(FingerprintSpec.Version.V2, Map.of(), 0.0)));
        assertFalse(dropAll.fingerprint(text).isPresent(), "every feature left out: no fingerprint, never 0");
    }

    @Test
    void minFeaturesCountsOnlyTheFeaturesKept() {
        // "a b" has 3 features (a, b, "a b"); dropping "a" leaves 2
        TextFingerprinter f = Fingerprinters.of(v2("t", 3), null, "test", only("t", new Table(FingerprintSpec.Version.V2, Map.of("a", 0.0), 1.0)));
        assertFalse(f.fingerprint("a b").isPresent());
        TextFingerprinter g = Fingerprinters.of(v2("t", 2), null, "test", only("t", new Table(FingerprintSpec.Version.V2, Map.of("a", 0.0), 1.0)));
        assertTrue(g.fingerprint("a b").isPresent());
    }

    @Test
    void aBagCountsOnlyTheFeaturesItWeighs() {
        // the simhash field adds its Lucene fields once a document has min_features distinct features: with a table,
        // features with factor 0 do not count, so a fingerprint is never promised for a text that has none
        TextFingerprinter f = Fingerprinters.of(v2("t", 1), null, "test", only("t", new Table(FingerprintSpec.Version.V2, Map.of("b", 1.0), 0.0)));
        FeatureBag bag = f.newBag();
        f.addText("a", bag);
        assertEquals(0, bag.distinctFeatures());
        assertFalse(bag.fingerprint().isPresent());
        f.addText("b", bag);
        assertEquals(1, bag.distinctFeatures(), "b counts; a and the bigram a b have factor 0");
        assertTrue(bag.fingerprint().isPresent());
        bag.reset();
        assertEquals(0, bag.distinctFeatures());
        // v1 with a document shorter than one shingle: its one feature (the tokens joined) counts unless its factor is 0
        FingerprintSpec v1 = FingerprintSpec.parse(Map.of("analyzer", "whitespace", "shingle_size", 3, "weights", "t"));
        TextFingerprinter g = Fingerprinters.of(v1, null, "test", only("t", new Table(FingerprintSpec.Version.V1, Map.of("x y", 0.0), 1.0)));
        FeatureBag b1 = g.newBag();
        g.addText("x y", b1);
        assertEquals(0, b1.distinctFeatures());
        assertFalse(b1.fingerprint().isPresent());
        FeatureBag b2 = g.newBag();
        g.addText("x z", b2);
        assertEquals(1, b2.distinctFeatures());
        assertEquals(List.of("x z"), b2.features());
    }

    @Test
    void theOptionIsParsedCheckedAndRendered() {
        FingerprintSpec spec = FingerprintSpec.parse(Map.of("weights", "news-idf"));
        assertEquals("news-idf", spec.weights());
        assertEquals("news-idf", spec.toMap().get("weights"));
        assertFalse(FingerprintSpec.parse(Map.of()).toMap().containsKey("weights"), "absent: not rendered");
        assertEquals(spec, FingerprintSpec.parse(Map.of("weights", "news-idf")));
        assertNotEquals(spec, FingerprintSpec.parse(Map.of("weights", "other")));
        assertNotEquals(spec, FingerprintSpec.DEFAULTS);
        assertEquals("news-idf", v2("news-idf", 1).weights(), "v2 takes weights too");
        for (String bad : List.of("BAD", "a b", "..", "_x", "-x", ".x", "", "a/b")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> FingerprintSpec.parse(Map.of("weights", bad)), bad);
            assertTrue(e.getMessage().startsWith("[weights] table name "), e.getMessage());
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> FingerprintSpec.parse(Map.of("weights", 7)));
        assertEquals("[weights] must be a string, got [7]", e.getMessage());
    }

    @Test
    void aMissingTableOrOneOfAnotherVersionNamesTheOptionWhenUsed() {
        Map<String, FeatureWeights> tables = new HashMap<>();
        TextFingerprinter f = Fingerprinters.of(v2("later", 1), null, "test", tables::get);
        // built before the table exists (a node restarting): fails only when used, naming the option
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> f.fingerprint("some text"));
        assertEquals("[weights] no feature-weight table [later]: create it with PUT _simhash/weights/later", e.getMessage());
        tables.put("later", new Table(FingerprintSpec.Version.V2, Map.of(), 1.0));
        assertEquals(hex(SimHashV2.fingerprint("some text", 1)), hex(f.fingerprint("some text")));
        tables.put("later", new Table(FingerprintSpec.Version.V1, Map.of(), 1.0));
        e = assertThrows(IllegalArgumentException.class, () -> f.fingerprint("some text"));
        assertEquals("[weights] table [later] holds simhash-v1 features, this fingerprint is simhash-v2: use a table computed for [v2]",
            e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Fingerprinters.weights(v2("later", 1), null));
        assertEquals(null, Fingerprinters.weights(FingerprintSpec.DEFAULTS, null), "no weights option: nothing to resolve");
    }

    @Test
    void aFactorFunctionReturningAnInvalidFactorIsRefused() {
        for (double bad : new double[] {-1, Double.NaN, Double.POSITIVE_INFINITY}) {
            TextFingerprinter f = Fingerprinters.of(v2("t", 1), null, "test", only("t", new Table(FingerprintSpec.Version.V2, Map.of(), bad)));
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> f.fingerprint("a b"));
            assertTrue(e.getMessage().contains("must be a finite number >= 0"), e.getMessage());
        }
    }

    @Test
    void withoutWeightsTheFingerprinterIsThePlainOne() {
        TextFingerprinter f = new TextFingerprinter(new WhitespaceAnalyzer(), FingerprintOptions.DEFAULTS);
        assertFalse(f.hasFactors());
        assertTrue(Fingerprinters.of(FingerprintSpec.parse(Map.of("weights", "x")), null, "test", n -> null).hasFactors());
    }
}
