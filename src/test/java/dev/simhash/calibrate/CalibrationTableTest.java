package dev.simhash.calibrate;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

class CalibrationTableTest {

    private static Map<String, Object> recall(double a, double b) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("1%", a);
        m.put("10%", b);
        return m;
    }

    @Test
    void rowsOfAHandWrittenReport() {
        Map<String, Object> k0 = Map.of("k", 0, "random_pairs_within", 3L, "related_pairs_within", 3L, "false_match_rate", 0.0,
            "false_match_rate_from", "observed", "recall", recall(0.5, 0.05));
        Map<String, Object> k1 = Map.of("k", 1, "random_pairs_within", 4L, "related_pairs_within", 3L, "false_match_rate", 1.234567e-5,
            "false_match_rate_from", "estimate", "recall", recall(0.9123, 0.1));
        Map<String, Object> s = Map.of("min_similarity", 0.8, "candidates", "bands", "radius", 13, "random_pairs_above", 2L,
            "related_pairs_above", 2L, "false_match_rate", 1.17e-21, "false_match_rate_from", "estimate", "recall", recall(0.98, 0.06));
        Map<String, Object> below = Map.of("min_similarity", 0.75, "candidates", "radius", "radius", 14, "random_pairs_above", 3L,
            "related_pairs_above", 2L, "false_match_rate", 2.5e-9, "false_match_rate_from", "estimate", "recall", recall(0.99, 0.2));
        String expected = """
            | max_distance | random pairs within | of them related | false-match rate | from | recall 1% | recall 10% |
            | ---: | ---: | ---: | ---: | --- | ---: | ---: |
            | 0 | 3 | 3 | 0 | observed | 0.50 | 0.05 |
            | 1 | 4 | 3 | 1.23e-05 | estimate | 0.91 | 0.10 |

            | min_similarity | candidates | random pairs above | of them related | false-match rate | from | recall 1% | recall 10% |
            | ---: | --- | ---: | ---: | ---: | --- | ---: | ---: |
            | 0.75 | radius 14 | 3 | 2 | 2.50e-09 | estimate | 0.99 | 0.20 |
            | 0.8 | bands | 2 | 2 | 1.17e-21 | estimate | 0.98 | 0.06 |
            """;
        assertEquals(expected, CalibrationTable.markdown(Map.of("by_k", List.of(k0, k1), "by_similarity", List.of(below, s))));
        // without a sketch: the radius table alone
        assertEquals(expected.substring(0, expected.indexOf("\n\n") + 1), CalibrationTable.markdown(Map.of("by_k", List.of(k0, k1))));
    }
}
