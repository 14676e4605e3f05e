package dev.simhash.weights;

import org.elasticsearch.test.ESTestCase;
import org.elasticsearch.xcontent.XContentParseException;
import org.elasticsearch.xcontent.XContentParser;
import org.elasticsearch.xcontent.XContentParserConfiguration;
import org.elasticsearch.xcontent.json.JsonXContent;

import java.io.IOException;
import java.util.Map;

import static org.hamcrest.Matchers.containsString;

/** The body of {@code PUT _simhash/weights/<name>}: typed declarations, errors that name the field, checks after parsing. */
public class PutWeightsRequestParseTest extends ESTestCase {

    private static PutWeightsRequest parse(String json) throws IOException {
        try (XContentParser parser = JsonXContent.jsonXContent.createParser(XContentParserConfiguration.EMPTY, json)) {
            return PutWeightsRequest.parse("t", parser);
        }
    }

    private static String messages(Throwable e) {
        StringBuilder out = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            out.append(t.getMessage()).append(" | ");
        }
        return out.toString();
    }

    public void testUploadAndCompute() throws IOException {
        PutWeightsRequest up = parse("{\"version\": \"v2\", \"features\": {\"the\": 0.5, \"fox\": 3}, \"default_weight\": 2}");
        assertEquals(Map.of("the", 0.5, "fox", 3.0), up.features());
        assertEquals(2.0, up.defaultWeight(), 0);
        assertNull(up.validate());
        PutWeightsRequest idf = parse("{\"version\": \"v2\", \"index\": \"news\", \"field\": \"body\", \"sample_size\": 50, \"seed\": 7}");
        assertEquals("news", idf.index());
        assertEquals(50, idf.sampleSize());
        assertEquals(7, idf.seed());
        assertEquals(PutWeightsRequest.DEFAULT_MIN_DF, idf.minDf());
        assertNull(idf.validate());
    }

    public void testValuesOfTheWrongTypeNameTheField() {
        XContentParseException e = expectThrows(XContentParseException.class,
            () -> parse("{\"version\": \"v2\", \"index\": \"news\", \"field\": \"body\", \"sample_size\": true}"));
        assertThat(e.getMessage(), containsString("[simhash_weights] failed to parse field [sample_size]"));
        e = expectThrows(XContentParseException.class, () -> parse("{\"version\": [\"v2\"], \"features\": {}}"));
        assertThat(e.getMessage(), containsString("[simhash_weights] failed to parse field [version]"));
        e = expectThrows(XContentParseException.class, () -> parse("{\"version\": \"v2\", \"features\": {}, \"idf\": true}"));
        assertThat(e.getMessage(), containsString("[simhash_weights] unknown field [idf]"));
        assertThat(messages(expectThrows(XContentParseException.class, () -> parse("{\"version\": \"v2\", \"features\": [\"the\"]}"))),
            containsString("[features] must be an object of feature to factor"));
        assertThat(messages(expectThrows(XContentParseException.class, () -> parse("{\"version\": \"v2\", \"features\": {\"the\": \"x\"}}"))),
            containsString("[features] factor of [the] must be a number, got [x]"));
    }

    public void testValuesAndCombinationsAreCheckedAfterParsing() throws IOException {
        assertThat(expectThrows(IllegalArgumentException.class,
            () -> parse("{\"version\": \"v2\", \"features\": {}, \"index\": \"x\"}")).getMessage(),
            containsString("[features] and [index] exclude each other"));
        assertThat(expectThrows(IllegalArgumentException.class, () -> parse("{\"version\": \"v2\", \"features\": {}, \"seed\": 1}"))
            .getMessage(), containsString("[seed] only applies when computing a table from an [index]"));
        assertThat(parse("{\"version\": \"v2\", \"index\": \"news\", \"field\": \"body\", \"sample_size\": 0}").validate().getMessage(),
            containsString("[sample_size] must be between 1 and 1000000, got [0]"));
        assertThat(parse("{\"features\": {}}").validate().getMessage(), containsString("[version] is required"));
    }
}
