package dev.simhash.calibrate;

import dev.simhash.wire.WireTesting;

import org.elasticsearch.common.Strings;
import org.elasticsearch.common.io.stream.NamedWriteableRegistry;
import org.elasticsearch.test.ESTestCase;
import org.elasticsearch.xcontent.XContentParser;
import org.elasticsearch.xcontent.XContentParserConfiguration;
import org.elasticsearch.xcontent.json.JsonXContent;

import java.io.IOException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.hamcrest.Matchers.containsString;

/** The calibration request's parsing (body and URL parameters) and the wire format of request and response. */
public class CalibrateWireTest extends ESTestCase {

    private static CalibrateRequest parse(String json) throws IOException {
        try (XContentParser parser = JsonXContent.jsonXContent.createParser(XContentParserConfiguration.EMPTY, json)) {
            return new CalibrateRequest("news").parse(parser);
        }
    }

    private static String messages(Throwable e) {
        StringBuilder out = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            out.append(t.getMessage()).append(" | ");
        }
        return out.toString();
    }

    public void testParsesEveryParameter() throws IOException {
        CalibrateRequest r = parse("""
            {"field": "body.simhash", "source_field": "body", "sample_size": 500, "seed": -3, "max_false_match_rate": 1e-4}""");
        assertEquals("body.simhash", r.field());
        assertEquals("body", r.sourceField());
        assertEquals(500, r.sampleSize());
        assertEquals(-3, r.seed());
        assertEquals(1e-4, r.maxFalseMatchRate(), 0);
        assertNull(r.validate());
        CalibrateRequest defaults = parse("{\"field\": \"fp\"}");
        assertEquals(CalibrateRequest.DEFAULT_SAMPLE_SIZE, defaults.sampleSize());
        assertEquals(CalibrateRequest.DEFAULT_SEED, defaults.seed());
        assertEquals(1e-6, defaults.maxFalseMatchRate(), 0);
        assertNull(defaults.sourceField());
    }

    public void testBadBodiesNameTheParameter() throws IOException {
        // types and unknown fields: refused while parsing
        assertThat(messages(expectThrows(IllegalArgumentException.class, () -> parse("{\"field\": \"fp\", \"seed\": \"x\"}"))),
            containsString("[seed]"));
        assertThat(messages(expectThrows(IllegalArgumentException.class, () -> parse("{\"field\": \"fp\", \"sample_size\": true}"))),
            containsString("[sample_size]"));
        assertThat(messages(expectThrows(IllegalArgumentException.class,
            () -> parse("{\"field\": \"fp\", \"max_false_match_rate\": \"often\"}"))), containsString("[max_false_match_rate]"));
        assertThat(messages(expectThrows(IllegalArgumentException.class, () -> parse("{\"field\": \"fp\", \"bogus\": 1}"))),
            containsString("bogus"));
        // values: checked after parsing, each naming its parameter
        assertThat(parse("{\"field\": \"fp\", \"sample_size\": 1}").validate().getMessage(),
            containsString("[sample_size] must be between 2 and 10000, got [1]"));
        assertThat(parse("{\"field\": \"fp\", \"sample_size\": 10001}").validate().getMessage(),
            containsString("[sample_size] must be between 2 and 10000, got [10001]"));
        assertThat(parse("{\"field\": \"fp\", \"max_false_match_rate\": 1}").validate().getMessage(),
            containsString("[max_false_match_rate] must be a number greater than 0 and less than 1, got [1.0]"));
        assertThat(parse("{\"field\": \"fp\", \"source_field\": \" \"}").validate().getMessage(),
            containsString("[source_field] must be a field name"));
        assertThat(parse("{\"field\": \"\"}").validate().getMessage(), containsString("[field] is required"));
        assertThat(new CalibrateRequest("news").validate().getMessage(), containsString("[field] is required"));
    }

    public void testRequestAndResponseOverTheWire() throws IOException {
        CalibrateRequest r = new CalibrateRequest("a", "b").field("fp").sourceField("body").sampleSize(77).seed(5).maxFalseMatchRate(0.01);
        CalibrateRequest copy = copyWriteable(r, new NamedWriteableRegistry(List.of()), CalibrateRequest::new);
        assertArrayEquals(new String[] { "a", "b" }, copy.indices());
        assertEquals("fp", copy.field());
        assertEquals("body", copy.sourceField());
        assertEquals(77, copy.sampleSize());
        assertEquals(5, copy.seed());
        assertEquals(0.01, copy.maxFalseMatchRate(), 0);
        // as the next plugin release sends it (fields appended to its envelope)
        CalibrateRequest next = WireTesting.fromNextRelease(r, new NamedWriteableRegistry(List.of()), CalibrateRequest::new);
        assertEquals(WireTesting.write(r), WireTesting.write(next));

        Map<String, Object> report = new LinkedHashMap<>();
        report.put("field", "fp");
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("k", 0);
        row.put("recall", Map.of("1%", 0.5));
        report.put("by_k", List.of(row));
        report.put("recommendation", new LinkedHashMap<>(Map.of("max_distance", 3)));
        CalibrateResponse response = new CalibrateResponse(report);
        CalibrateResponse back = copyWriteable(response, new NamedWriteableRegistry(List.of()), CalibrateResponse::new);
        assertEquals(report, back.report());
        assertEquals(report, WireTesting.fromNextRelease(response, new NamedWriteableRegistry(List.of()), CalibrateResponse::new).report());
        assertEquals("{\"field\":\"fp\",\"by_k\":[{\"k\":0,\"recall\":{\"1%\":0.5}}],\"recommendation\":{\"max_distance\":3}}",
            Strings.toString(back));
    }

    public void testSourceValuesAsText() {
        assertEquals("a", TextPages.text("a"));
        assertEquals("a\nb\n3", TextPages.text(List.of("a", "b", 3)));
        assertEquals("a", TextPages.text(Arrays.asList("a", null, Map.of("x", 1))));
        assertNull(TextPages.text(Map.of("x", "y")));
        assertNull(TextPages.text(null));
        assertNull(TextPages.text(List.of()));
    }
}
