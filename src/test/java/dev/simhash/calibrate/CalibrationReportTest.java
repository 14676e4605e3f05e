package dev.simhash.calibrate;

import dev.simhash.core.FingerprintSpec;
import dev.simhash.wire.WireTesting;

import org.elasticsearch.common.Strings;
import org.elasticsearch.common.io.stream.NamedWriteableRegistry;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The typed report writes the map the response has always carried: the keys in their order, ints as ints, longs as longs,
 * doubles as doubles, null values where the report shows null and absent keys where it leaves them out; the same bytes on
 * the wire as that map, and the same JSON.
 */
class CalibrationReportTest {

    private static final String RELATED = "texts whose token bigrams (the tokens the field fingerprints, read as the field reads the "
        + "text) have a Jaccard similarity of at least 0.5: near-duplicates already in the data, not false matches";

    /** An ordered map of the given keys and values. */
    private static Map<String, Object> ordered(Object... keysAndValues) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            m.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return m;
    }

    private static CalibrationReport withSketch() {
        List<CalibrationReport.Recall> recall = List.of(new CalibrationReport.Recall("1%", 0.5), new CalibrationReport.Recall("10%", null));
        CalibrationReport.Statistics statistics = new CalibrationReport.Statistics(
            new CalibrationReport.Sample(new Calibration.Counts(10, 9, 5, 1, 4, 0, 2, 3, 120, 0, 1), 40.5, 10.0, null),
            new CalibrationReport.RandomPairsSummary(6, 2.1667, null, 0.1667, 16, 1, List.of(0L, 2L, 4L)),
            List.of(new CalibrationReport.Edits("1%", 3, 1.0, 0, 0, new CalibrationReport.EditSimilarities(0.9023, 0.8, 1)),
                new CalibrationReport.Edits("10%", 3, 12.5, null, 3, new CalibrationReport.EditSimilarities(null, null, 3))),
            List.of(new CalibrationReport.ByK(0, 1, 1, 0.0, null, 0.0, "observed", recall)),
            new CalibrationReport.Recommendation(0.01, new CalibrationReport.Radius(0, 0.0, "observed", recall)),
            new CalibrationReport.Similarity(List.of(new CalibrationReport.BySimilarity(0.8, "bands", 13, 2, 1, 0.1667, 2.5e-9, 0.1667,
                "observed", List.of(new CalibrationReport.Recall("1%", 1.0)))), new CalibrationReport.SimilarityRecommendation(0.01, null)),
            List.of("a warning"));
        return new CalibrationReport(12, "body.simhash", "body", List.of("a", "b"), null, "minhash-v1", 7, 100, "index.max_result_window",
            1000, statistics);
    }

    private static final Map<String, Object> WITH_SKETCH = ordered(
        "took_ms", 12L, "field", "body.simhash", "source_field", "body", "indices", List.of("a", "b"), "fingerprint", null,
        "sketch", "minhash-v1", "seed", 7L, "sample_size", 100, "sample_size_limited_by", "index.max_result_window",
        "max_edited_docs", 1000,
        "sample", ordered("docs_total", 10L, "docs_with_fingerprint_total", 9L, "sampled", 5, "sampled_without_fingerprint", 1,
            "sampled_with_text", 4, "texts_without_fingerprint", 0, "stored_fingerprint_differs", 2, "edited_docs", 3,
            "edited_words", 120L, "texts_not_edited", 0, "texts_not_compared", 1, "median_text_chars", 40.5, "median_words", 10.0,
            "median_features", null),
        "random_pairs", ordered("pairs", 6L, "mean_distance", 2.1667, "sd_distance", null, "resolution", 0.1667,
            "related_pairs_within_16", 1L, "related", RELATED, "pairs_at_distance", List.of(0L, 2L, 4L)),
        "edits", List.of(
            ordered("rate", "1%", "copies", 3, "mean_words_changed", 1.0, "median_distance", 0, "copies_without_fingerprint", 0,
                "median_similarity", 0.9023, "p5_similarity", 0.8, "copies_without_sketch", 1),
            ordered("rate", "10%", "copies", 3, "mean_words_changed", 12.5, "median_distance", null, "copies_without_fingerprint", 3,
                "median_similarity", null, "p5_similarity", null, "copies_without_sketch", 3)),
        "by_k", List.of(ordered("k", 0, "random_pairs_within", 1L, "related_pairs_within", 1L, "observed_false_match_rate", 0.0,
            "estimated_false_match_rate", null, "false_match_rate", 0.0, "false_match_rate_from", "observed",
            "recall", ordered("1%", 0.5, "10%", null))),
        "recommendation", ordered("max_false_match_rate", 0.01, "max_distance", 0, "false_match_rate", 0.0,
            "false_match_rate_from", "observed", "recall", ordered("1%", 0.5, "10%", null)),
        "by_similarity", List.of(ordered("min_similarity", 0.8, "candidates", "bands", "radius", 13, "random_pairs_above", 2L,
            "related_pairs_above", 1L, "observed_false_match_rate", 0.1667, "estimated_false_match_rate", 2.5e-9,
            "false_match_rate", 0.1667, "false_match_rate_from", "observed", "recall", ordered("1%", 1.0))),
        "similarity_recommendation", ordered("max_false_match_rate", 0.01, "min_similarity", null, "chosen_by", "too_few_documents"),
        "warnings", List.of("a warning"));

    private static final String WITH_SKETCH_JSON = "{\"took_ms\":12,\"field\":\"body.simhash\",\"source_field\":\"body\","
        + "\"indices\":[\"a\",\"b\"],\"fingerprint\":null,\"sketch\":\"minhash-v1\",\"seed\":7,\"sample_size\":100,"
        + "\"sample_size_limited_by\":\"index.max_result_window\",\"max_edited_docs\":1000,"
        + "\"sample\":{\"docs_total\":10,\"docs_with_fingerprint_total\":9,\"sampled\":5,\"sampled_without_fingerprint\":1,"
        + "\"sampled_with_text\":4,\"texts_without_fingerprint\":0,\"stored_fingerprint_differs\":2,\"edited_docs\":3,"
        + "\"edited_words\":120,\"texts_not_edited\":0,\"texts_not_compared\":1,\"median_text_chars\":40.5,\"median_words\":10.0,"
        + "\"median_features\":null},"
        + "\"random_pairs\":{\"pairs\":6,\"mean_distance\":2.1667,\"sd_distance\":null,\"resolution\":0.1667,"
        + "\"related_pairs_within_16\":1,\"related\":\"" + RELATED + "\",\"pairs_at_distance\":[0,2,4]},"
        + "\"edits\":[{\"rate\":\"1%\",\"copies\":3,\"mean_words_changed\":1.0,\"median_distance\":0,\"copies_without_fingerprint\":0,"
        + "\"median_similarity\":0.9023,\"p5_similarity\":0.8,\"copies_without_sketch\":1},"
        + "{\"rate\":\"10%\",\"copies\":3,\"mean_words_changed\":12.5,\"median_distance\":null,\"copies_without_fingerprint\":3,"
        + "\"median_similarity\":null,\"p5_similarity\":null,\"copies_without_sketch\":3}],"
        + "\"by_k\":[{\"k\":0,\"random_pairs_within\":1,\"related_pairs_within\":1,\"observed_false_match_rate\":0.0,"
        + "\"estimated_false_match_rate\":null,\"false_match_rate\":0.0,\"false_match_rate_from\":\"observed\","
        + "\"recall\":{\"1%\":0.5,\"10%\":null}}],"
        + "\"recommendation\":{\"max_false_match_rate\":0.01,\"max_distance\":0,\"false_match_rate\":0.0,"
        + "\"false_match_rate_from\":\"observed\",\"recall\":{\"1%\":0.5,\"10%\":null}},"
        + "\"by_similarity\":[{\"min_similarity\":0.8,\"candidates\":\"bands\",\"radius\":13,\"random_pairs_above\":2,"
        + "\"related_pairs_above\":1,\"observed_false_match_rate\":0.1667,\"estimated_false_match_rate\":2.5E-9,"
        + "\"false_match_rate\":0.1667,\"false_match_rate_from\":\"observed\",\"recall\":{\"1%\":1.0}}],"
        + "\"similarity_recommendation\":{\"max_false_match_rate\":0.01,\"min_similarity\":null,\"chosen_by\":\"too_few_documents\"},"
        + "\"warnings\":[\"a warning\"]}";

    @Test
    void theMapOfAReportWithASketch() {
        Map<String, Object> map = withSketch().toMap();
        // Map.equals tells an Integer from a Long; the JSON shows the order and the number formats
        assertEquals(WITH_SKETCH, map);
        assertEquals(List.copyOf(WITH_SKETCH.keySet()), List.copyOf(map.keySet()));
        assertEquals(WITH_SKETCH_JSON, Strings.toString(new CalibrateResponse(withSketch())));
    }

    @Test
    void theWireFormIsTheMapsGenericForm() throws IOException {
        CalibrateResponse typed = new CalibrateResponse(withSketch());
        assertEquals(WireTesting.write(new CalibrateResponse(WITH_SKETCH)), WireTesting.write(typed));
        CalibrateResponse back = WireTesting.roundTrip(typed, new NamedWriteableRegistry(List.of()), CalibrateResponse::new);
        assertNull(back.typedReport(), "a response read from the wire holds the map");
        assertEquals(WITH_SKETCH, back.report());
        assertEquals(WITH_SKETCH_JSON, Strings.toString(back));
        assertEquals(typed, back);
        assertEquals(typed.hashCode(), back.hashCode());
    }

    @Test
    void withoutASketchOrARecommendationTheirKeysAreAbsentOrNull() {
        CalibrationReport.Statistics statistics = new CalibrationReport.Statistics(
            new CalibrationReport.Sample(new Calibration.Counts(0, 0, 0, 0, 0, 0, 0, 0), null, null, null),
            new CalibrationReport.RandomPairsSummary(0, null, null, 1.0, 16, 0, List.of()),
            List.of(new CalibrationReport.Edits("1%", 0, null, null, 0, null)), List.of(),
            new CalibrationReport.Recommendation(1e-6, null), null, List.of());
        FingerprintSpec spec = FingerprintSpec.DEFAULTS;
        CalibrationReport report = new CalibrationReport(3, "fp", "body", List.of("a"), spec, null, 0, 10, null, 1000, statistics);
        Map<String, Object> map = report.toMap();
        assertEquals(Arrays.asList("took_ms", "field", "source_field", "indices", "fingerprint", "sketch", "seed", "sample_size",
            "max_edited_docs", "sample", "random_pairs", "edits", "by_k", "recommendation", "warnings"), List.copyOf(map.keySet()));
        assertEquals(spec.toMap(), map.get("fingerprint"));
        assertNull(map.get("sketch"));
        assertEquals(ordered("max_false_match_rate", 1e-6, "max_distance", null), map.get("recommendation"));
        assertEquals(ordered("rate", "1%", "copies", 0, "mean_words_changed", null, "median_distance", null,
            "copies_without_fingerprint", 0), ((List<?>) map.get("edits")).get(0));
        assertFalse(map.containsKey("sample_size_limited_by"));
        CalibrateResponse response = new CalibrateResponse(report);
        assertSame(report, response.typedReport());
        String json = Strings.toString(response);
        assertTrue(json.contains(",\"recommendation\":{\"max_false_match_rate\":1.0E-6,\"max_distance\":null},\"warnings\":[]}"), json);
        assertTrue(json.contains(",\"sketch\":null,"), json);
    }
}
