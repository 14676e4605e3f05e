package dev.simhash.neardup;

import org.elasticsearch.test.ESTestCase;
import org.elasticsearch.test.rest.FakeRestRequest;
import org.elasticsearch.xcontent.XContentParser;
import org.elasticsearch.xcontent.json.JsonXContent;

import java.io.IOException;
import java.util.Map;

import static org.hamcrest.Matchers.startsWith;

/** The checks that follow the typed parsing of URL parameters and body values name the parameter. */
public class ParamsTest extends ESTestCase {

    private boolean waitForCompletion(Map<String, String> params) {
        return Params.booleanParam(new FakeRestRequest.Builder(xContentRegistry()).withParams(params).build(), "wait_for_completion",
            true);
    }

    public void testABooleanUrlParameterNamesItselfWhenInvalid() {
        assertTrue(waitForCompletion(Map.of()));
        assertTrue("present without a value means on", waitForCompletion(Map.of("wait_for_completion", "")));
        assertTrue(waitForCompletion(Map.of("wait_for_completion", "true")));
        assertFalse(waitForCompletion(Map.of("wait_for_completion", "false")));
        IllegalArgumentException e = expectThrows(IllegalArgumentException.class,
            () -> waitForCompletion(Map.of("wait_for_completion", "nope")));
        assertEquals("[wait_for_completion] must be [true] or [false], got [nope]", e.getMessage());
    }

    private long wholeNumber(String json) throws IOException {
        try (XContentParser p = createParser(JsonXContent.jsonXContent, "{\"n\": " + json + "}")) {
            p.nextToken();
            p.nextToken();
            p.nextToken();
            return Params.wholeNumber(p, "n");
        }
    }

    public void testAWholeNumberIsAnIntegerOrAStringHoldingOneButNeverAFraction() throws IOException {
        long n = randomLongBetween(-1_000_000_000_000L, 1_000_000_000_000L);
        assertEquals(n, wholeNumber(Long.toString(n)));
        assertEquals(n, wholeNumber("\"" + n + "\""));
        assertEquals(7, wholeNumber("7.0"));
        for (String bad : new String[] { "2.5", "\"2.5\"", "\"x\"", "\"\"" }) {
            IllegalArgumentException e = expectThrows(IllegalArgumentException.class, () -> wholeNumber(bad));
            assertThat(bad, e.getMessage(), startsWith("[n] must be an integer, got ["));
        }
    }

    public void testARangeCheckNamesTheParameterAndTheBounds() {
        assertEquals(3, Params.checkRange("size", 3, 0, 10));
        IllegalArgumentException e = expectThrows(IllegalArgumentException.class, () -> Params.checkRange("max_distance", 70, 0, 64));
        assertEquals("[max_distance] must be between 0 and 64, got [70]", e.getMessage());
    }
}
