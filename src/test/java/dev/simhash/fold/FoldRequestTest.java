package dev.simhash.fold;

import org.elasticsearch.common.ParsingException;
import org.elasticsearch.common.bytes.BytesArray;
import org.elasticsearch.common.io.stream.NamedWriteableRegistry;
import org.elasticsearch.common.settings.Settings;
import org.elasticsearch.index.query.QueryBuilders;
import org.elasticsearch.search.SearchModule;
import org.elasticsearch.tasks.CancellableTask;
import org.elasticsearch.tasks.TaskId;
import org.elasticsearch.test.ESTestCase;
import org.elasticsearch.test.rest.FakeRestRequest;
import org.elasticsearch.xcontent.NamedXContentRegistry;
import org.elasticsearch.xcontent.XContentParseException;
import org.elasticsearch.xcontent.XContentType;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.startsWith;

/** The fold request as the REST handler reads it (URL parameters, a search body) and its wire format. */
public class FoldRequestTest extends ESTestCase {

    private final SearchModule search = new SearchModule(Settings.EMPTY, List.of());

    private FoldRequest parse(String params, String body) throws IOException {
        Map<String, String> map = new HashMap<>();
        map.put("index", "news");
        for (String kv : params.isEmpty() ? new String[0] : params.split("&")) {
            String[] p = kv.split("=", 2);
            map.put(p[0], p[1]);
        }
        FakeRestRequest.Builder request = new FakeRestRequest.Builder(new NamedXContentRegistry(search.getNamedXContents()))
            .withPath("/news/_simhash/fold").withParams(map);
        if (body != null) {
            request.withContent(new BytesArray(body), XContentType.JSON);
        }
        return FoldRequest.parse(request.build(), feature -> true);
    }

    public void testReadsTheFoldParametersAndTheSearchBody() throws IOException {
        FoldRequest r = parse("field=fp&max_distance=7&window=50&members=2",
            "{\"query\": {\"term\": {\"tag\": \"a\"}}, \"from\": 20, \"size\": 5}");
        assertEquals(new FoldParams("fp", 7, true, null, false, 50, true, 2), r.fold());
        assertEquals(20, r.from());
        assertEquals(5, r.size());
        assertEquals("the inner search starts at the first hit", 0, r.search().source().from());
        assertEquals(QueryBuilders.termQuery("tag", "a"), r.search().source().query());
        assertArrayEquals(new String[] { "news" }, r.search().indices());
        assertNull(r.validate());

        FoldRequest defaults = parse("field=fp", null);
        assertEquals(new FoldParams("fp", FoldParams.DEFAULT_MAX_DISTANCE, false, null, false, FoldParams.DEFAULT_WINDOW, false, 0), defaults.fold());
        assertEquals(0, defaults.from());
        assertEquals(FoldRequest.DEFAULT_SIZE, defaults.size());
    }

    public void testMinSimilarityIsAThresholdWithItsCandidateRadiusAndExcludesMaxDistance() throws IOException {
        FoldRequest r = parse("field=fp&min_similarity=0.7&members=3", null);
        assertEquals(Double.valueOf(0.7), r.fold().minSimilarity());
        assertTrue(r.fold().minSimilarityGiven());
        assertEquals(dev.simhash.core.CandidateRadius.radius(0.7), r.fold().maxDistance());
        assertFalse(r.fold().maxDistanceGiven());
        FoldRequest copy = copyWriteable(r, new NamedWriteableRegistry(search.getNamedWriteables()), FoldRequest::new);
        assertEquals(r.fold(), copy.fold());
        assertThat(r.getDescription(), containsString("min_similarity[0.7]"));
        Map<String, String> cases = Map.of(
            "field=fp&min_similarity=0", "[min_similarity] must be greater than 0 and at most 1",
            "field=fp&min_similarity=1.5", "[min_similarity] must be greater than 0 and at most 1",
            "field=fp&min_similarity=NaN", "[min_similarity] must be greater than 0 and at most 1",
            "field=fp&min_similarity=most", "[min_similarity] must be a number, got [most]",
            "field=fp&min_similarity=0.8&max_distance=3", "[min_similarity] and [max_distance] exclude each other");
        for (Map.Entry<String, String> c : cases.entrySet()) {
            IllegalArgumentException e = expectThrows(IllegalArgumentException.class, () -> parse(c.getKey(), "{}"));
            assertThat(c.getKey(), e.getMessage(), containsString(c.getValue()));
        }
    }

    public void testRejectsInvalidParametersNamingThem() {
        Map<String, String> cases = Map.of(
            "", "[field] is required",
            "field=", "[field] is required",
            "field=fp&max_distance=70", "[max_distance] must be between 0 and 64, got [70]",
            "field=fp&max_distance=far", "[max_distance] must be an integer, got [far]",
            "field=fp&window=0", "[window] must be between 1 and 10000, got [0]",
            "field=fp&members=2.5", "[members] must be an integer, got [2.5]",
            "field=fp&scroll=1m", "[scroll] is not supported by [_simhash/fold]");
        for (Map.Entry<String, String> c : cases.entrySet()) {
            IllegalArgumentException e = expectThrows(IllegalArgumentException.class, () -> parse(c.getKey(), "{}"));
            assertThat(c.getKey(), e.getMessage(), containsString(c.getValue()));
        }
        Map<String, String> bodies = Map.of(
            "{\"aggs\": {\"t\": {\"terms\": {\"field\": \"tag\"}}}}", "[aggs] is not supported",
            "{\"search_after\": [1]}", "[search_after] is not supported",
            "{\"profile\": true}", "[profile] is not supported",
            "{\"slice\": {\"id\": 0, \"max\": 2}}", "[slice] is not supported");
        for (Map.Entry<String, String> c : bodies.entrySet()) {
            IllegalArgumentException e = expectThrows(IllegalArgumentException.class, () -> parse("field=fp", c.getKey()));
            assertThat(c.getKey(), e.getMessage(), containsString(c.getValue()));
        }
    }

    /** The body is a search body, read by the search's own parser: syntax errors and unknown keys carry their location. */
    public void testBodySyntaxErrorsCarryTheirLocation() {
        ParsingException unknown = expectThrows(ParsingException.class, () -> parse("field=fp", "{\"query\": {\"match_all\": {}},\n \"bogus\": 1}"));
        assertThat(unknown.getMessage(), containsString("[bogus]"));
        assertEquals(2, unknown.getLineNumber());
        XContentParseException truncated = expectThrows(XContentParseException.class, () -> parse("field=fp", "{\"query\": "));
        assertThat(truncated.getMessage(), startsWith("[1:"));
        ParsingException wrongType = expectThrows(ParsingException.class, () -> parse("field=fp", "{\"query\": 5}"));
        assertThat(wrongType.getMessage(), containsString("query"));
        assertEquals(1, wrongType.getLineNumber());
        // as in _search: a number parameter that is not a number is a 400 (IllegalArgumentException)
        expectThrows(IllegalArgumentException.class, () -> parse("field=fp", "{\"size\": \"many\"}"));
    }

    public void testWireRoundTripAndCancellableTask() throws IOException {
        FoldRequest r = parse("field=fp&max_distance=5&members=3", "{\"query\": {\"match_all\": {}}, \"from\": 4, \"size\": 2}");
        FoldRequest copy = copyWriteable(r, new NamedWriteableRegistry(search.getNamedWriteables()), FoldRequest::new);
        assertEquals(r.fold(), copy.fold());
        assertEquals(r.from(), copy.from());
        assertEquals(r.size(), copy.size());
        assertEquals(r.search().source(), copy.search().source());
        assertArrayEquals(r.search().indices(), copy.search().indices());
        assertArrayEquals("authorized like the search", new String[] { "news" }, copy.indices());
        assertEquals(r.indicesOptions(), copy.indicesOptions());
        CancellableTask task = (CancellableTask) r.createTask(1, "transport", FoldAction.NAME, TaskId.EMPTY_TASK_ID, Map.of());
        assertThat(task.getDescription(), containsString("simhash fold field[fp], max_distance[5], window[100]"));
    }
}
