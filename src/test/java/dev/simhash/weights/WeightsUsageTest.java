package dev.simhash.weights;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Finding the pipelines and mapped fields that use a table. */
class WeightsUsageTest {

    @Test
    void pipelinesAtAnyDepth() {
        Map<String, Object> p = Map.of("processors", List.of(
            Map.of("set", Map.of("field", "x", "value", "idf")),
            Map.of("foreach", Map.of("field", "xs", "processor", Map.of("simhash", Map.of("field", "_ingest._value", "weights", "idf"))))));
        assertTrue(WeightsUsage.inPipeline(p, "idf"));
        assertFalse(WeightsUsage.inPipeline(p, "other"));
        assertTrue(WeightsUsage.inPipeline(Map.of("processors", List.of(), "on_failure",
            List.of(Map.of("simhash", Map.of("field", "b", "weights", "t2")))), "t2"));
        assertFalse(WeightsUsage.inPipeline(Map.of("processors", List.of(Map.of("simhash", Map.of("field", "b")))), "t2"));
    }

    @Test
    void mappingFieldsMultiFieldsAndObjects() {
        Map<String, Object> mapping = Map.of("properties", Map.of(
            "body", Map.of("type", "text", "fields", Map.of("simhash", Map.of("type", "simhash", "weights", "idf"))),
            "meta", Map.of("properties", Map.of("fp", Map.of("type", "simhash", "weights", "idf"))),
            "title", Map.of("type", "simhash", "weights", "other"),
            "n", Map.of("type", "keyword", "weights", "idf")));
        assertEquals(List.of("body.simhash", "meta.fp"), WeightsUsage.inMapping(mapping, "idf").stream().sorted().toList());
        assertEquals(List.of("title"), WeightsUsage.inMapping(mapping, "other"));
        assertEquals(List.of(), WeightsUsage.inMapping(Map.of(), "idf"));
    }
}
