package dev.simhash.duplicates;

import dev.simhash.core.CandidateRadius;
import dev.simhash.core.DuplicateGroups;
import dev.simhash.threshold.Thresholds;
import dev.simhash.threshold.Verification;

import org.elasticsearch.common.Strings;
import org.elasticsearch.common.io.stream.NamedWriteableRegistry;
import org.elasticsearch.common.settings.Settings;
import org.elasticsearch.common.xcontent.XContentHelper;
import org.elasticsearch.index.query.QueryBuilders;
import org.elasticsearch.search.SearchModule;
import org.elasticsearch.tasks.CancellableTask;
import org.elasticsearch.tasks.TaskId;
import org.elasticsearch.test.ESTestCase;
import org.elasticsearch.xcontent.NamedXContentRegistry;
import org.elasticsearch.xcontent.XContentParseException;
import org.elasticsearch.xcontent.XContentParser;
import org.elasticsearch.xcontent.XContentParserConfiguration;
import org.elasticsearch.xcontent.json.JsonXContent;

import java.io.IOException;
import java.util.List;
import java.util.Map;

import static org.hamcrest.Matchers.anyOf;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.instanceOf;
import static org.hamcrest.Matchers.startsWith;

/** The report's request parsing and the wire format of request and response (used when a node forwards them). */
public class DuplicatesWireTest extends ESTestCase {

    private final SearchModule search = new SearchModule(Settings.EMPTY, List.of());

    private DuplicatesRequest parse(String json) throws IOException {
        XContentParserConfiguration config = XContentParserConfiguration.EMPTY
            .withRegistry(new NamedXContentRegistry(search.getNamedXContents()));
        try (XContentParser parser = JsonXContent.jsonXContent.createParser(config, json)) {
            return DuplicatesRequest.parse(parser, "news", "blogs");
        }
    }

    public void testParsesEveryParameter() throws IOException {
        DuplicatesRequest r = parse("""
            {"field": "fp", "max_distance": 7, "query": {"term": {"tag": "a"}}, "from": 20, "size": 5, "max_members": 3,
             "write_group_id": "dup"}""");
        assertEquals("fp", r.field());
        assertEquals(7, r.maxDistance());
        assertEquals(QueryBuilders.termQuery("tag", "a"), r.query());
        assertEquals(20, r.from());
        assertEquals(5, r.size());
        assertEquals(3, r.maxMembers());
        assertEquals("dup", r.writeGroupId());
        assertArrayEquals(new String[] { "news", "blogs" }, r.indices());
        assertNull(r.validate());
        DuplicatesRequest defaults = parse("{\"field\": \"fp\", \"max_distance\": \"4\"}");
        assertEquals(4, defaults.maxDistance());
        assertEquals(DuplicatesRequest.DEFAULT_SIZE, defaults.size());
        assertEquals(DuplicatesRequest.DEFAULT_MAX_MEMBERS, defaults.maxMembers());
        assertNull(defaults.query());
    }

    public void testRejectsInvalidValuesNamingThem() {
        Map<String, String> cases = Map.of(
            "{}", "[field] is required",
            "{\"field\": \"\"}", "[field] is required",
            "{\"field\": \"fp\", \"max_distance\": 99999999999}", "[max_distance] must be between 0 and 11, got [99999999999]",
            "{\"field\": \"fp\", \"size\": \"1001\"}", "[size] must be between 0 and 1000, got [1001]",
            "{\"write_group_id\": \"fp.g\", \"field\": \"fp\"}", "[write_group_id] must not be inside the fingerprint object [fp]",
            "{\"field\": \"fp\", \"read\": \"fast\"}", "[read] must be one of [sliced, sequential], got [fast]");
        for (Map.Entry<String, String> c : cases.entrySet()) {
            IllegalArgumentException e = expectThrows(IllegalArgumentException.class, () -> parse(c.getKey()));
            assertThat(c.getKey(), e.getMessage(), containsString(c.getValue()));
        }
    }

    /**
     * A value of the wrong kind is refused by the parser's typed declaration, with the value's location and the parameter's
     * name; a value of the right kind that is no valid number fails with the location and a cause naming the parameter.
     */
    public void testRejectsWrongTypesWithLocation() {
        Map<String, String> kinds = Map.of(
            "{\"field\": \"fp\", \"size\": true}", "size doesn't support values of type: VALUE_BOOLEAN",
            "{\"field\": \"fp\", \"max_members\": [1]}", "max_members doesn't support values of type: START_ARRAY",
            "{\"field\": 7}", "field doesn't support values of type: VALUE_NUMBER",
            "{\"field\": \"fp\", \"query\": 3}", "query doesn't support values of type: VALUE_NUMBER",
            "{\"field\": \"fp\", \"min_similarity\": true}", "min_similarity doesn't support values of type: VALUE_BOOLEAN",
            "{\"field\": \"fp\", \"overwrite_group_id\": 1}", "overwrite_group_id doesn't support values of type: VALUE_NUMBER");
        for (Map.Entry<String, String> c : kinds.entrySet()) {
            XContentParseException e = expectThrows(XContentParseException.class, () -> parse(c.getKey()));
            String name = c.getValue().substring(0, c.getValue().indexOf(' '));
            assertThat(c.getKey(), e.getMessage(), startsWith("[1:"));
            assertThat(c.getKey(), e.getMessage(), containsString("[_simhash/duplicates] failed to parse field [" + name + "]"));
            assertThat(c.getKey(), e.getCause().getMessage(), containsString("[_simhash/duplicates] " + c.getValue()));
            assertNotNull(c.getKey(), e.getLocation());
        }
        Map<String, String> values = Map.of(
            "{\"field\": \"fp\", \"max_distance\": 2.5}", "[max_distance] must be an integer, got [2.5]",
            "{\"field\": \"fp\", \"max_distance\": \"x\"}", "[max_distance] must be an integer, got [x]",
            "{\"field\": \"fp\", \"from\": \"1.5\"}", "[from] must be an integer, got [1.5]",
            "{\"field\": \"fp\", \"overwrite_group_id\": \"yes\"}", "[yes]");
        for (Map.Entry<String, String> c : values.entrySet()) {
            XContentParseException e = expectThrows(XContentParseException.class, () -> parse(c.getKey()));
            String name = c.getKey().substring(c.getKey().lastIndexOf(", \"") + 3, c.getKey().lastIndexOf("\":"));
            assertThat(c.getKey(), e.getMessage(), startsWith("[1:"));
            assertThat(c.getKey(), e.getMessage(), containsString("[_simhash/duplicates] failed to parse field [" + name + "]"));
            assertThat(c.getKey(), e.getCause().getMessage(), containsString(c.getValue()));
        }
    }

    public void testRejectsUnknownFieldsAndMalformedJsonWithLocation() {
        XContentParseException unknown = expectThrows(XContentParseException.class, () -> parse("{\"field\": \"fp\",\n \"unknown\": 1}"));
        assertThat(unknown.getMessage(), startsWith("[2:2] [_simhash/duplicates] unknown field [unknown]"));
        XContentParseException truncated = expectThrows(XContentParseException.class, () -> parse("{\"field\": \"fp\", \"size\": "));
        assertEquals(1, truncated.getLineNumber());
        assertTrue(truncated.getColumnNumber() > 0);
        XContentParseException query = expectThrows(XContentParseException.class,
            () -> parse("{\"field\": \"fp\", \"query\": {\"nope\": {}}}"));
        assertThat(query.getMessage(), containsString("failed to parse field [query]"));
        assertThat(query.getCause().getMessage(), containsString("[nope]"));
        XContentParseException array = expectThrows(XContentParseException.class, () -> parse("[1, 2]"));
        assertThat(array.getMessage(), containsString("[_simhash/duplicates] Expected START_OBJECT"));
        assertEquals(1, array.getLineNumber());
        IllegalArgumentException none = expectThrows(IllegalArgumentException.class, () -> DuplicatesRequest.parse(null, "news"));
        assertThat(none.getMessage(), startsWith("[field] is required"));
    }

    public void testTheFieldsDefaultRadiusReplacesOnlyAnAbsentMaxDistance() throws IOException {
        DuplicatesRequest absent = parse("{\"field\": \"fp\"}");
        assertEquals(6, Thresholds.radius(null, absent.maxDistanceGiven(), absent.maxDistance(), () -> 6));
        DuplicatesRequest copy = copyWriteable(parse("{\"field\": \"fp\"}"), new NamedWriteableRegistry(search.getNamedWriteables()),
            DuplicatesRequest::new);
        assertEquals("still absent after the wire", 6, Thresholds.radius(null, copy.maxDistanceGiven(), copy.maxDistance(), () -> 6));
        DuplicatesRequest given = copyWriteable(parse("{\"field\": \"fp\", \"max_distance\": 3}"),
            new NamedWriteableRegistry(search.getNamedWriteables()), DuplicatesRequest::new);
        // indices of mixed versions have no default: an explicit radius must not ask for one
        assertEquals(3, Thresholds.radius(null, given.maxDistanceGiven(), given.maxDistance(), () -> {
            throw new IllegalArgumentException("[max_distance] is required");
        }));
        // a similarity threshold groups within its own candidate radius, whatever the field's default
        DuplicatesRequest similar = parse("{\"field\": \"fp\", \"min_similarity\": 0.7}");
        Verification v = Verification.of(similar.minSimilarity());
        assertEquals(CandidateRadius.radius(0.7), Thresholds.radius(v, similar.maxDistanceGiven(), similar.maxDistance(), () -> 6));
    }

    public void testRequestRoundTripAndCancellableTask() throws IOException {
        DuplicatesRequest r = parse("{\"field\": \"fp\", \"max_distance\": 5, \"query\": {\"match_all\": {}}, \"write_group_id\": \"g\"}");
        DuplicatesRequest copy = copyWriteable(r, new NamedWriteableRegistry(search.getNamedWriteables()), DuplicatesRequest::new);
        assertEquals(r.field(), copy.field());
        assertEquals(r.maxDistance(), copy.maxDistance());
        assertEquals(r.query(), copy.query());
        assertEquals(r.writeGroupId(), copy.writeGroupId());
        assertEquals(DuplicatesRequest.ReadMode.SLICED, copy.readMode());
        assertEquals(DuplicatesRequest.ReadMode.SEQUENTIAL, parse("{\"field\": \"fp\", \"read\": \"sequential\"}").readMode());
        assertArrayEquals(r.indices(), copy.indices());
        assertEquals(r.indicesOptions(), copy.indicesOptions());
        CancellableTask task = (CancellableTask) r.createTask(1, "transport", DuplicatesAction.NAME, TaskId.EMPTY_TASK_ID, Map.of());
        assertThat(task.getDescription(), containsString("simhash duplicates indices[news, blogs], field[fp], max_distance[5]"));
        assertTrue(task instanceof DuplicatesTask);
        assertEquals("{\"phase\":\"read\",\"slices\":0,\"docs_read\":0,\"groups_found\":0,\"docs_written\":0,\"docs_to_write\":0}",
            Strings.toString(task.getStatus()));
    }

    public void testMinSimilarityParsesRoundTripsAndExcludesMaxDistance() throws IOException {
        DuplicatesRequest r = parse("{\"field\": \"fp\", \"min_similarity\": 0.75}");
        assertEquals(Double.valueOf(0.75), r.minSimilarity());
        assertFalse(r.maxDistanceGiven());
        assertEquals(Double.valueOf(0.6), parse("{\"field\": \"fp\", \"min_similarity\": \"0.6\"}").minSimilarity());
        DuplicatesRequest copy = copyWriteable(r, new NamedWriteableRegistry(search.getNamedWriteables()), DuplicatesRequest::new);
        assertEquals(r.minSimilarity(), copy.minSimilarity());
        assertFalse(copy.maxDistanceGiven());
        assertNull(copyWriteable(parse("{\"field\": \"fp\"}"), new NamedWriteableRegistry(search.getNamedWriteables()),
            DuplicatesRequest::new).minSimilarity());
        assertThat(r.getDescription(), containsString("min_similarity[0.75]"));
        Map<String, String> cases = Map.of(
            "{\"field\": \"fp\", \"min_similarity\": 0}", "[min_similarity] must be greater than 0 and at most 1, got [0.0]",
            "{\"field\": \"fp\", \"min_similarity\": 1.01}", "[min_similarity] must be greater than 0 and at most 1, got [1.01]",
            "{\"field\": \"fp\", \"min_similarity\": -1}", "[min_similarity] must be greater than 0 and at most 1",
            "{\"field\": \"fp\", \"min_similarity\": 0.8, \"max_distance\": 3}", "[min_similarity] and [max_distance] exclude each other",
            "{\"max_distance\": 3, \"min_similarity\": 0.8, \"field\": \"fp\"}", "[min_similarity] and [max_distance] exclude each other");
        for (Map.Entry<String, String> c : cases.entrySet()) {
            // refused while the value is read (located, the cause naming it) or once the body is read
            Exception e = expectThrows(Exception.class, () -> parse(c.getKey()));
            String message = e instanceof XContentParseException ? e.getCause().getMessage() : e.getMessage();
            assertThat(c.getKey(), e, anyOf(instanceOf(IllegalArgumentException.class), instanceOf(XContentParseException.class)));
            assertThat(c.getKey(), message, containsString(c.getValue()));
        }
        XContentParseException word = expectThrows(XContentParseException.class,
            () -> parse("{\"field\": \"fp\", \"min_similarity\": \"most\"}"));
        assertThat(word.getMessage(), containsString("failed to parse field [min_similarity]"));
        assertEquals("[min_similarity] must be a number, got [most]", word.getCause().getMessage());
    }

    public void testVerifiedResponseRoundTripAndJson() throws IOException {
        DuplicateGroups.Member rep = new DuplicateGroups.Member("news", "1", 1.0);
        DuplicateGroups.Page page = new DuplicateGroups.Page(10, 1, 2, List.of(new DuplicateGroups.Group("00000000000000ff", 2,
            List.of(rep, new DuplicateGroups.Member("news", "2", 0.875)), rep)));
        DuplicatesResponse r = new DuplicatesResponse("fp", 9, 0.8, 12, new DuplicatesResponse.Phases(5, 6, 2, 0), page, null, 0, 4096);
        DuplicatesResponse copy = copyWriteable(r, new NamedWriteableRegistry(List.of()), DuplicatesResponse::new);
        assertEquals(r.page(), copy.page());
        String json = Strings.toString(copy);
        Map<String, Object> map = XContentHelper.convertToMap(JsonXContent.jsonXContent, json, false);
        assertEquals(0.8, map.get("min_similarity"));
        // the candidate radius is no max_distance a caller could send: a report by threshold shows the threshold only
        assertFalse(json, map.containsKey("max_distance"));
        assertThat(json, containsString("{\"group_id\":\"00000000000000ff\",\"size\":2,\"representative\":{\"_index\":\"news\","
            + "\"_id\":\"1\"},\"members\":[{\"_index\":\"news\",\"_id\":\"1\",\"similarity\":1.0},"
            + "{\"_index\":\"news\",\"_id\":\"2\",\"similarity\":0.875}]}"));
        // a report without min_similarity shows neither
        DuplicatesResponse plain = new DuplicatesResponse("fp", 3, 12, new DuplicatesResponse.Phases(5, 6, 2, 0),
            new DuplicateGroups.Page(10, 1, 2, List.of(new DuplicateGroups.Group("00000000000000ff", 2,
                List.of(new DuplicateGroups.Member("news", "1"), new DuplicateGroups.Member("news", "2"))))), null, 0, 4096);
        String plainJson = Strings.toString(copyWriteable(plain, new NamedWriteableRegistry(List.of()), DuplicatesResponse::new));
        assertFalse(plainJson, plainJson.contains("similarity"));
        assertFalse(plainJson, plainJson.contains("representative"));
        assertThat(plainJson, containsString("\"max_distance\":3"));
    }

    public void testStatusRoundTripAndJson() throws IOException {
        DuplicatesStatus s = new DuplicatesStatus(DuplicatesStatus.Phase.GROUP, 4, 900, 1000, 17, 0, 0);
        DuplicatesStatus copy = copyWriteable(s, new NamedWriteableRegistry(List.of()), DuplicatesStatus::new);
        assertEquals(s, copy);
        assertEquals("{\"phase\":\"group\",\"slices\":4,\"docs_read\":900,\"docs_total\":1000,\"groups_found\":17,"
            + "\"docs_written\":0,\"docs_to_write\":0}", Strings.toString(copy));
        assertEquals(DuplicatesStatus.NAME, copy.getWriteableName());
    }

    public void testResponseRoundTripAndJson() throws IOException {
        DuplicateGroups.Page page = new DuplicateGroups.Page(10, 1, 3, List.of(new DuplicateGroups.Group("00000000000000ff", 3,
            List.of(new DuplicateGroups.Member("news", "1"), new DuplicateGroups.Member("news", "2")))));
        DuplicatesResponse r = new DuplicatesResponse("fp", 3, 12, new DuplicatesResponse.Phases(5, 6, 2, 1), page, "g", 10, 4096);
        DuplicatesResponse copy = copyWriteable(r, new NamedWriteableRegistry(List.of()), DuplicatesResponse::new);
        assertEquals(r.page(), copy.page());
        assertEquals(r.updated(), copy.updated());
        String json = Strings.toString(copy);
        Map<String, Object> map = XContentHelper.convertToMap(JsonXContent.jsonXContent, json, false);
        assertEquals(Map.of("read", 5, "group", 6, "members", 2, "write", 1), map.get("phases_ms"));
        assertEquals(Map.of("field", "g", "updated", 10), map.get("write_group_id"));
        assertEquals(3, map.get("duplicates_total"));
        assertEquals(4096, map.get("peak_memory_bytes"));
        assertThat(json, containsString("{\"group_id\":\"00000000000000ff\",\"size\":3,\"members\":[{\"_index\":\"news\",\"_id\":\"1\"}"));
    }
}
