package dev.simhash.threshold;

import dev.simhash.duplicates.DuplicatesRequest;
import dev.simhash.query.SimHashQueryBuilder;

import org.elasticsearch.test.ESTestCase;
import org.elasticsearch.xcontent.XContentParseException;
import org.elasticsearch.xcontent.XContentParser;
import org.elasticsearch.xcontent.json.JsonXContent;

import java.util.List;

/**
 * The query, the report and the ingest processor read {@code min_similarity} and {@code max_distance} the same way and
 * refuse them with the same words: each check is written once, here.
 */
public class ThresholdsTest extends ESTestCase {

    /** The message of what the query body {@code {"field": "fp", <body>}} is refused with, wherever it is wrapped. */
    private String queryError(String body) {
        Exception e = expectThrows(Exception.class, () -> parseQuery(body));
        return rootMessage(e);
    }

    private SimHashQueryBuilder parseQuery(String body) throws Exception {
        try (XContentParser p = createParser(JsonXContent.jsonXContent, "{\"field\": \"fp\", " + body + "}")) {
            p.nextToken();
            return SimHashQueryBuilder.fromXContent(p);
        }
    }

    private String reportError(String body) {
        return rootMessage(expectThrows(Exception.class, () -> parseReport(body)));
    }

    private DuplicatesRequest parseReport(String body) throws Exception {
        try (XContentParser p = createParser(JsonXContent.jsonXContent, "{\"field\": \"fp\", " + body + "}")) {
            return DuplicatesRequest.parse(p, "news");
        }
    }

    /**
     * The message that names the parameter, without the query's own prefix: a value refused while it is read is the cause
     * of the parser's located exception; one refused once the body is read is the exception itself.
     */
    private static String rootMessage(Throwable e) {
        Throwable t = e instanceof XContentParseException && e.getCause() != null ? e.getCause() : e;
        return t.getMessage().replaceFirst("^\\[simhash\\] ", "");
    }

    public void testABadSimilarityIsRefusedInTheSameWordsByTheQueryTheReportAndTheProcessor() {
        for (String bad : List.of("0", "-0.5", "1.01", "\"high\"", "\"\"")) {
            String query = queryError("\"text\": \"x\", \"min_similarity\": " + bad);
            String report = reportError("\"min_similarity\": " + bad);
            Object raw = bad.startsWith("\"") ? bad.substring(1, bad.length() - 1) : Double.valueOf(bad);
            String processor = expectThrows(IllegalArgumentException.class, () -> Thresholds.minSimilarity(raw)).getMessage();
            assertTrue(bad + ": " + query, query.startsWith("[min_similarity] must be "));
            assertEquals(bad, query, report);
            assertEquals(bad, query, processor);
        }
    }

    public void testNumbersAreReadTheSameWayEverywhere() throws Exception {
        // a string holding a number is a number, as Elasticsearch reads them; a fraction is never a radius
        assertEquals(Integer.valueOf(5), parseQuery("\"hash\": 1, \"max_distance\": \"5\"").maxDistance());
        assertEquals(5, parseReport("\"max_distance\": \"5\"").maxDistance());
        assertEquals(Double.valueOf(0.85), parseQuery("\"text\": \"x\", \"min_similarity\": \"0.85\"").minSimilarity());
        assertEquals(Double.valueOf(0.85), parseReport("\"min_similarity\": \"0.85\"").minSimilarity());
        assertEquals(Integer.valueOf(3), parseQuery("\"hash\": 1, \"k\": \"3\"").k());
        for (String bad : List.of("2.5", "\"2.5\"", "\"far\"")) {
            String query = queryError("\"hash\": 1, \"max_distance\": " + bad);
            assertTrue(bad + ": " + query, query.startsWith("[max_distance] must be an integer, got ["));
            assertEquals(bad, query, reportError("\"max_distance\": " + bad));
        }
        // beyond 64 bits: the range, quoting the value as given
        assertEquals("[max_distance] must be between 0 and 64, got [123456789012345678901234]",
            queryError("\"hash\": 1, \"max_distance\": 123456789012345678901234"));
        assertEquals("[max_distance] must be between 0 and 11, got [-99999999999]", reportError("\"max_distance\": -99999999999"));
    }

    public void testBothThresholdsAreRefusedInOneMessage() {
        String query = queryError("\"text\": \"x\", \"min_similarity\": 0.8, \"max_distance\": 3");
        String report = reportError("\"min_similarity\": 0.8, \"max_distance\": 3");
        assertEquals(Thresholds.bothGiven().getMessage(), query);
        assertEquals(Thresholds.bothGiven().getMessage(), report);
        assertTrue(query, query.startsWith("[min_similarity] and [max_distance] exclude each other"));
    }

    public void testTheDefaultAppliesOnlyWithoutRadiusOrKWhereBothSidesHaveSketches() {
        assertEquals(Double.valueOf(0.6), Thresholds.queryThreshold(0.6, false, false, false));
        assertEquals(Double.valueOf(Thresholds.DEFAULT_MIN_SIMILARITY), Thresholds.queryThreshold(null, true, true, true));
        assertNull("a radius or k given", Thresholds.queryThreshold(null, false, true, true));
        assertNull("a bare hash has no sketch", Thresholds.queryThreshold(null, true, false, true));
        assertNull("the field stores none", Thresholds.queryThreshold(null, true, true, false));
    }
}
