package dev.simhash.request;

import org.elasticsearch.rest.RestRequest;
import org.elasticsearch.test.ESTestCase;
import org.elasticsearch.test.rest.FakeRestRequest;

import java.util.HashMap;
import java.util.Map;

/** URL parameters: parsed by {@link RestRequest}'s own parsers, refused with a message that names the parameter. */
public class RestParamsTest extends ESTestCase {

    private RestRequest request(String name, String value) {
        Map<String, String> params = new HashMap<>();
        if (value != null) {
            params.put(name, value);
        }
        return new FakeRestRequest.Builder(xContentRegistry()).withParams(params).build();
    }

    public void testValuesAndDefaults() {
        assertTrue(RestParams.flag(request("wait_for_completion", null), "wait_for_completion", true));
        assertTrue(RestParams.flag(request("wait_for_completion", ""), "wait_for_completion", false));
        assertFalse(RestParams.flag(request("wait_for_completion", "false"), "wait_for_completion", true));
        assertEquals(20, RestParams.integer(request("sample_size", "20"), "sample_size", 1));
        assertEquals(7, RestParams.integer(request("sample_size", null), "sample_size", 7));
        assertEquals(-9_000_000_000L, RestParams.integer(request("seed", "-9000000000"), "seed", 0L));
        assertEquals(0.5, RestParams.number(request("rate", "0.5"), "rate", 0.1), 0);
        assertEquals(0.1, RestParams.number(request("rate", null), "rate", 0.1), 0);
    }

    public void testBadValuesNameTheParameter() {
        assertEquals("[wait_for_completion] must be [true] or [false], got [maybe]", expectThrows(IllegalArgumentException.class,
            () -> RestParams.flag(request("wait_for_completion", "maybe"), "wait_for_completion", true)).getMessage());
        assertEquals("[sample_size] must be an integer, got [many]", expectThrows(IllegalArgumentException.class,
            () -> RestParams.integer(request("sample_size", "many"), "sample_size", 1)).getMessage());
        assertEquals("[sample_size] must be an integer, got [99999999999]", expectThrows(IllegalArgumentException.class,
            () -> RestParams.integer(request("sample_size", "99999999999"), "sample_size", 1)).getMessage());
        assertEquals("[seed] must be an integer, got [x]", expectThrows(IllegalArgumentException.class,
            () -> RestParams.integer(request("seed", "x"), "seed", 0L)).getMessage());
        assertEquals("[rate] must be a number, got [often]", expectThrows(IllegalArgumentException.class,
            () -> RestParams.number(request("rate", "often"), "rate", 0.1)).getMessage());
    }
}
