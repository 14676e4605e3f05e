package dev.simhash.bench;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.simhash.core.CandidateRadius;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

class VerifiedBenchTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static Map<String, Object> query(VerifiedBench.Method m) throws Exception {
        Map<String, Object> body = JSON.readValue(VerifiedBench.body(m, "idx", 42, 0x0123456789abcdefL, "c2tldGNo", "a \"quoted\" text"), Map.class);
        assertEquals(10, body.get("size"));
        assertEquals(false, body.get("_source"));
        return BenchNode.at(body, "query");
    }

    @Test
    void requestsAreTheMethodsTheyName() throws Exception {
        assertEquals(java.util.List.of("42"), BenchNode.at(query(VerifiedBench.Method.IDS), "ids.values"));

        Map<String, Object> verified = BenchNode.at(query(VerifiedBench.Method.VERIFIED), "simhash");
        assertEquals("body.simhash", verified.get("field"));
        assertEquals(Map.of("index", "idx", "id", "42"), verified.get("like"));
        // the default threshold: neither a radius nor a similarity given
        assertFalse(verified.containsKey("max_distance"));
        assertFalse(verified.containsKey("min_similarity"));

        Map<String, Object> text = BenchNode.at(query(VerifiedBench.Method.TEXT), "simhash");
        assertEquals(Map.of("field", "body.simhash", "text", "a \"quoted\" text"), text);

        Map<String, Object> radius = BenchNode.at(query(VerifiedBench.Method.VERIFIED_RADIUS), "simhash");
        assertEquals(Map.of("index", "idx", "id", "42"), radius.get("like"));
        assertEquals(0.7, radius.get("min_similarity"));
        assertFalse(radius.containsKey("max_distance"));

        assertEquals((Integer) 6, BenchNode.<Integer>at(query(VerifiedBench.Method.PLAIN), "simhash.max_distance"));
        assertEquals((Integer) CandidateRadius.radius(0.8), BenchNode.<Integer>at(query(VerifiedBench.Method.CANDIDATES), "simhash.max_distance"));

        Map<String, Object> hs = BenchNode.at(query(VerifiedBench.Method.HASH_SKETCH), "simhash");
        assertEquals("0123456789abcdef", hs.get("hash"));
        assertEquals("c2tldGNo", hs.get("sketch"));
        assertEquals(0.8, hs.get("min_similarity"));
        assertNull(hs.get("like"));

        Map<String, Object> scan = BenchNode.at(query(VerifiedBench.Method.SCAN), "script_score");
        assertEquals(Map.of("match_all", Map.of()), scan.get("query"));
        assertEquals("0123456789abcdef", BenchNode.at(scan, "script.params.hash"));
        assertEquals("simhash", BenchNode.at(scan, "script.lang"));
        // (64 - 6) / 64: the scan keeps the documents within the plain query's 6 bits
        assertEquals(58 / 64.0, ((Number) scan.get("min_score")).doubleValue());
    }
}
