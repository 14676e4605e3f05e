package dev.simhash.calibrate;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CalibrationTableTest {

    private static final String EXPECTED = """
        | max_distance | random pairs within | of them related | false-match rate | from | recall 1% | recall 10% |
        | ---: | ---: | ---: | ---: | --- | ---: | ---: |
        | 0 | 3 | 3 | 0 | observed | 0.50 | 0.05 |
        | 1 | 4 | 3 | 1.23e-05 | estimate | 0.91 | 0.10 |

        | min_similarity | candidates | random pairs above | of them related | false-match rate | from | recall 1% | recall 10% |
        | ---: | --- | ---: | ---: | ---: | --- | ---: | ---: |
        | 0.75 | radius 14 | 3 | 2 | 2.50e-09 | estimate | 0.99 | 0.20 |
        | 0.8 | bands | 2 | 2 | 1.17e-21 | estimate | 0.98 | 0.06 |
        """;
    private static final String RADII_ONLY = EXPECTED.substring(0, EXPECTED.indexOf("\n\n") + 1);

    private static List<CalibrationReport.Recall> recall(double a, double b) {
        return List.of(new CalibrationReport.Recall("1%", a), new CalibrationReport.Recall("10%", b));
    }

    @Test
    void rowsOfAHandWrittenReport() {
        CalibrationReport.ByK k0 = new CalibrationReport.ByK(0, 3, 3, 0.0, null, 0.0, "observed", recall(0.5, 0.05));
        CalibrationReport.ByK k1 = new CalibrationReport.ByK(1, 4, 3, 0.0, 1.234567e-5, 1.234567e-5, "estimate", recall(0.9123, 0.1));
        CalibrationReport.BySimilarity s = new CalibrationReport.BySimilarity(0.8, "bands", 13, 2, 2, 0.0, 1.17e-21, 1.17e-21, "estimate",
            recall(0.98, 0.06));
        CalibrationReport.BySimilarity below = new CalibrationReport.BySimilarity(0.75, "radius", 14, 3, 2, 0.0, 2.5e-9, 2.5e-9,
            "estimate", recall(0.99, 0.2));
        assertEquals(EXPECTED, CalibrationTable.markdown(List.of(k0, k1), List.of(below, s)));
        // without a sketch: the radius table alone
        assertEquals(RADII_ONLY, CalibrationTable.markdown(List.of(k0, k1), List.of()));
    }

    private static Map<String, Object> json(double a, double b) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("1%", a);
        m.put("10%", b);
        return m;
    }

    /** A row as a JSON parser gives it: small whole numbers as ints, a null where the report has none. */
    private static Map<String, Object> row(Object... keysAndValues) {
        Map<String, Object> m = new HashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            m.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return m;
    }

    @Test
    void rowsOfAReportFetchedOverRest() {
        Map<String, Object> k0 = row("k", 0, "random_pairs_within", 3, "related_pairs_within", 3, "observed_false_match_rate", 0.0,
            "estimated_false_match_rate", null, "false_match_rate", 0.0, "false_match_rate_from", "observed", "recall", json(0.5, 0.05));
        Map<String, Object> k1 = row("k", 1, "random_pairs_within", 4L, "related_pairs_within", 3, "observed_false_match_rate", 0.0,
            "estimated_false_match_rate", 1.234567e-5, "false_match_rate", 1.234567e-5, "false_match_rate_from", "estimate",
            "recall", json(0.9123, 0.1));
        Map<String, Object> s = row("min_similarity", 0.8, "candidates", "bands", "radius", 13, "random_pairs_above", 2,
            "related_pairs_above", 2, "observed_false_match_rate", 0.0, "estimated_false_match_rate", 1.17e-21, "false_match_rate",
            1.17e-21, "false_match_rate_from", "estimate", "recall", json(0.98, 0.06));
        Map<String, Object> below = row("min_similarity", 0.75, "candidates", "radius", "radius", 14, "random_pairs_above", 3,
            "related_pairs_above", 2, "observed_false_match_rate", 0.0, "estimated_false_match_rate", 2.5e-9, "false_match_rate", 2.5e-9,
            "false_match_rate_from", "estimate", "recall", json(0.99, 0.2));
        assertEquals(EXPECTED, CalibrationTable.markdown(Map.of("by_k", List.of(k0, k1), "by_similarity", List.of(below, s))));
        assertEquals(RADII_ONLY, CalibrationTable.markdown(Map.of("by_k", List.of(k0, k1))));

        Map<String, Object> noRate = new HashMap<>(k0);
        noRate.put("false_match_rate", "0");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> CalibrationTable.markdown(Map.of("by_k", List.of(noRate))));
        assertTrue(e.getMessage().startsWith("[false_match_rate] is not a number"), e.getMessage());
    }
}
