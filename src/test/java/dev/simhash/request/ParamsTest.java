package dev.simhash.request;

import org.elasticsearch.test.ESTestCase;
import org.elasticsearch.xcontent.XContentParser;
import org.elasticsearch.xcontent.json.JsonXContent;

import java.io.IOException;

import static org.hamcrest.Matchers.startsWith;

/** The checks that follow the typed parsing of body values name the parameter. */
public class ParamsTest extends ESTestCase {

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
