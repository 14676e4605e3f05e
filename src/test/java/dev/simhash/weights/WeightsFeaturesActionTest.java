package dev.simhash.weights;

import dev.simhash.core.FingerprintSpec;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * Which indices a table's features are authorized on: the plain names its source records; none (manage only) for uploads
 * and for sources security would narrow instead of checking whole (patterns, exclusions, date math, remote names).
 */
class WeightsFeaturesActionTest {

    private static WeightsTable table(Map<String, Object> source) {
        return new WeightsTable("t", FingerprintSpec.Version.V2, Map.of("a", 1.0), 1, source, 0);
    }

    @Test
    void plainSourceIndicesAreAuthorizedAsRecorded() {
        assertArrayEquals(new String[] {"news"}, WeightsFeaturesAction.sourceIndices(table(Map.of("type", "computed", "index", "news"))));
        assertArrayEquals(new String[] {"news", "mail"},
            WeightsFeaturesAction.sourceIndices(table(Map.of("type", "computed", "index", "news,mail"))));
    }

    @Test
    void uploadsAndSourcesSecurityWouldNarrowNeedManage() {
        assertNull(WeightsFeaturesAction.sourceIndices(table(Map.of("type", "uploaded"))));
        for (String index : List.of("news*", "news,mail*", "*", "_all", "news,-secret", "<logs-{now/d}>", "remote:news", "", "a,,b")) {
            assertNull(WeightsFeaturesAction.sourceIndices(table(Map.of("type", "computed", "index", index))), index);
        }
    }
}
