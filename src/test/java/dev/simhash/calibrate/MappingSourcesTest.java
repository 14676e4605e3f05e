package dev.simhash.calibrate;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class MappingSourcesTest {

    private static final Map<String, Object> MAPPING = Map.of("properties", Map.of(
        "title", Map.of("type", "text", "copy_to", "all_fp"),
        "body", Map.of("type", "text", "copy_to", List.of("all_fp", "other"), "fields", Map.of("simhash", Map.of("type", "simhash"))),
        "all_fp", Map.of("type", "simhash"),
        "one_fp", Map.of("type", "simhash"),
        "summary", Map.of("type", "text", "copy_to", "one_fp"),
        "meta", Map.of("properties", Map.of("abstract", Map.of("type", "text", "fields",
            Map.of("fp", Map.of("type", "simhash", "input", "text")))))));

    @Test
    void multiFieldParent() {
        MappingSources.Found f = MappingSources.find(MAPPING, "body.simhash");
        assertEquals(Map.of("type", "simhash"), f.mapping());
        assertEquals("body", f.multiParent());
        assertEquals(List.of(), f.copiedFrom());
    }

    @Test
    void multiFieldOfAFieldInAnObject() {
        MappingSources.Found f = MappingSources.find(MAPPING, "meta.abstract.fp");
        assertEquals("text", f.mapping().get("input"));
        assertEquals("meta.abstract", f.multiParent());
    }

    @Test
    void copyToTargets() {
        MappingSources.Found all = MappingSources.find(MAPPING, "all_fp");
        assertNull(all.multiParent());
        assertEquals(List.of("body", "title"), all.copiedFrom().stream().sorted().toList());
        assertEquals(List.of("summary"), MappingSources.find(MAPPING, "one_fp").copiedFrom());
    }

    @Test
    void unmapped() {
        assertNull(MappingSources.find(MAPPING, "nope").mapping());
        assertNull(MappingSources.find(Map.of(), "body").mapping());
        assertEquals("text", MappingSources.find(MAPPING, "body").mapping().get("type"));
    }
}
