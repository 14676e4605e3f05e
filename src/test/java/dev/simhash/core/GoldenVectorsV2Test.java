package dev.simhash.core;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The simhash-v2 golden vectors: the production path ({@link SimHashV2}) and the naive reference both give every expected value. */
class GoldenVectorsV2Test {

    static String hex(OptionalLong fp) {
        return fp.isPresent() ? SimHash.toHex(fp.getAsLong()) : null;
    }

    static OptionalLong production(GoldenVectorsV2.Case c) {
        Map<String, Double> w = c.featureWeights();
        return w == null ? (c.texts().size() == 1 ? SimHashV2.fingerprint(c.texts().get(0), c.minFeatures())
                : SimHashV2.fingerprint(c.texts(), c.minFeatures()))
            : SimHashV2.fingerprint(c.texts(), c.minFeatures(), f -> w.getOrDefault(f, 1.0));
    }

    @TestFactory
    Stream<DynamicTest> productionMatchesGoldenVectors() {
        return GoldenVectorsV2.load().stream().map(c -> DynamicTest.dynamicTest(c.id(),
            () -> assertEquals(c.expected(), hex(production(c)), c.id())));
    }

    @TestFactory
    Stream<DynamicTest> referenceMatchesGoldenVectors() {
        return GoldenVectorsV2.load().stream().map(c -> DynamicTest.dynamicTest(c.id(),
            () -> assertEquals(c.expected(), hex(ReferenceSimHashV2.fingerprint(c.texts(), c.minFeatures(), c.featureWeights())), c.id())));
    }

    @Test
    void fileCoversTheContract() {
        List<GoldenVectorsV2.Case> cases = GoldenVectorsV2.load();
        assertTrue(cases.size() >= 40, "about 40 cases");
        Map<String, String> byId = cases.stream().filter(c -> c.expected() != null)
            .collect(Collectors.toMap(GoldenVectorsV2.Case::id, GoldenVectorsV2.Case::expected));
        // the normalisation promises of v2, visible in the file itself
        assertEquals(byId.get("en-sentence"), byId.get("en-uppercase-same-as-lower"));
        assertEquals(byId.get("en-sentence"), byId.get("en-sentence-punctuation-variant"));
        assertEquals(byId.get("en-sentence"), byId.get("en-fullwidth-same-as-ascii"));
        assertEquals(byId.get("zh-simplified"), byId.get("zh-traditional-same-as-simplified"));
        assertEquals(byId.get("zh-variant-wei"), byId.get("zh-variant-wei-tw"));
        assertEquals(byId.get("zh-variant-wei"), byId.get("zh-variant-wei-simplified"));
        assertEquals(byId.get("zh-long"), byId.get("zh-long-traditional"));
        assertEquals(byId.get("zh-punctuation-fullwidth"), byId.get("zh-punctuation-fullwidth-vs-ascii"));
        assertEquals(byId.get("mixed-zh-en"), byId.get("mixed-zh-en-traditional"));
        assertEquals(byId.get("array-two-values"), byId.get("array-joined-equivalent"));
        assertTrue(!byId.get("en-sentence").equals(byId.get("en-word-order-matters")), "word order counts through bigrams");
        for (String none : List.of("empty", "whitespace-only", "punctuation-only", "short-min-features-not-reached", "weights-all-zero")) {
            assertEquals(null, cases.stream().filter(c -> c.id().equals(none)).findFirst().orElseThrow().expected(), none);
        }
    }
}
