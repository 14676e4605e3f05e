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

    @Test
    void dynamicTemplatesWhoseMappingUsesTheTable() {
        Map<String, Object> mapping = Map.of("dynamic_templates", List.of(
            Map.of("direct", Map.of("match", "fp_*", "mapping", Map.of("type", "simhash", "weights", "idf"))),
            Map.of("multi", Map.of("match_mapping_type", "string",
                "mapping", Map.of("type", "text", "fields", Map.of("sh", Map.of("type", "simhash", "weights", "idf"))))),
            Map.of("object", Map.of("match", "o_*", "mapping", Map.of("type", "object"))),
            Map.of("plain", Map.of("match", "k_*", "mapping", Map.of("type", "keyword", "weights", "idf"))),
            Map.of("other", Map.of("match", "x_*", "mapping", Map.of("type", "simhash", "weights", "other")))));
        assertEquals(List.of("direct", "multi"), WeightsUsage.inDynamicTemplates(mapping, "idf"));
        assertEquals(List.of("other"), WeightsUsage.inDynamicTemplates(mapping, "other"));
        assertEquals(List.of(), WeightsUsage.inDynamicTemplates(Map.of("dynamic_templates", "bad"), "idf"));
        assertEquals(List.of(), WeightsUsage.inMapping(mapping, "idf"), "dynamic templates are not fields");
    }

    @Test
    void templateMappingsLoseTheirTypeWrapper() {
        Map<String, Object> inner = Map.of("properties", Map.of("fp", Map.of("type", "simhash", "weights", "idf")));
        assertEquals(inner, WeightsUsage.unwrapType(Map.of("_doc", inner)));
        assertEquals(inner, WeightsUsage.unwrapType(inner));
        assertEquals(List.of("fp"), WeightsUsage.inMapping(WeightsUsage.unwrapType(Map.of("_doc", inner)), "idf"));
        Map<String, Object> twoKeys = Map.of("_doc", inner, "dynamic", false);
        assertEquals(twoKeys, WeightsUsage.unwrapType(twoKeys));
    }
}
