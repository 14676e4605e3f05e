package dev.simhash.core;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Pins simhash-v1: every golden vector is reproduced by the production code. */
class GoldenVectorsTest {

    static OptionalLong compute(GoldenVectors.Case c) {
        if (c.weighted()) {
            return FeatureBag.fingerprintWeighted(c.features(), c.minFeatures());
        }
        return new TextFingerprinter(FeatureAnalyzer.fromOption(c.analyzer()), c.options()).fingerprint(c.text());
    }

    @TestFactory
    Stream<DynamicTest> everyGoldenVectorIsReproduced() {
        return GoldenVectors.load().stream().map(c -> DynamicTest.dynamicTest(c.id(), () -> {
            OptionalLong fp = compute(c);
            assertEquals(c.expected(), fp.isPresent() ? SimHash.toHex(fp.getAsLong()) : null, c.id());
        }));
    }

    @Test
    void fileCoversTheRequiredKinds() {
        List<GoldenVectors.Case> cases = GoldenVectors.load();
        assertTrue(cases.size() >= 40, "at least 40 golden vectors, got " + cases.size());
        Set<String> ids = cases.stream().map(GoldenVectors.Case::id).collect(Collectors.toSet());
        assertEquals(cases.size(), ids.size(), "duplicate ids");
        for (String prefix : List.of("en-", "zh-", "mixed-", "short-", "long-", "repeated-", "weights-", "empty")) {
            assertTrue(ids.stream().anyMatch(id -> id.startsWith(prefix)), "no case of kind " + prefix);
        }
        assertTrue(cases.stream().anyMatch(c -> c.expected() == null), "no case without a fingerprint");
        assertTrue(cases.stream().filter(c -> c.expected() != null).count() >= 40, "most cases must have fingerprints");
    }

    @Test
    void nearDuplicatesInTheFileAreCloseAndOthersFar() {
        List<GoldenVectors.Case> cases = GoldenVectors.load();
        long en1 = fp(cases, "en-sentence");
        long en2 = fp(cases, "en-sentence-punctuation-variant");
        long upper = fp(cases, "en-uppercase-same-as-lower");
        long zh1 = fp(cases, "zh-news");
        long zh2 = fp(cases, "zh-news-edited");
        assertEquals(en1, upper, "the default analyzer lowercases");
        assertEquals(en1, en2, "punctuation is not a feature in the default analyzer");
        assertTrue(SimHash.distance(zh1, zh2) <= 10, "one-word edit: " + SimHash.distance(zh1, zh2));
        assertTrue(SimHash.distance(en1, zh1) > 10);
        assertFalse(fp(cases, "mixed-1") == fp(cases, "zh-search"));
    }

    private static long fp(List<GoldenVectors.Case> cases, String id) {
        return SimHash.parse(cases.stream().filter(c -> c.id().equals(id)).findFirst().orElseThrow().expected());
    }
}
