package dev.simhash.duplicates;

import dev.simhash.core.DuplicateGroups;
import org.elasticsearch.core.TimeValue;
import org.elasticsearch.index.query.QueryBuilders;
import org.elasticsearch.tasks.TaskId;
import org.elasticsearch.test.ESTestCase;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static dev.simhash.wire.WireCopies.copies;

/**
 * The wire formats of the fold and report messages: each comes back whole from its own bytes and from the bytes the next
 * plugin release would write (its envelope carrying fields this release does not know).
 */
public class DuplicatesWireFormatTest extends ESTestCase {

    private static DuplicatesRequest duplicatesRequest() {
        DuplicatesRequest r = new DuplicatesRequest("news", "blogs").field("body.simhash").maxDistance(5)
            .query(QueryBuilders.termQuery("tag", "a")).from(3).size(7);
        r.setParentTask(new TaskId("node-1", 42));
        return r;
    }

    public void testDuplicatesRequest() throws IOException {
        DuplicatesRequest r = duplicatesRequest();
        for (DuplicatesRequest copy : copies(r, DuplicatesRequest::new)) {
            assertArrayEquals(r.indices(), copy.indices());
            assertEquals("body.simhash", copy.field());
            assertEquals(5, copy.maxDistance());
            assertEquals(QueryBuilders.termQuery("tag", "a"), copy.query());
            assertEquals(3, copy.from());
            assertEquals(7, copy.size());
            assertEquals(new TaskId("node-1", 42), copy.getParentTask());
        }
        DuplicatesRequest similar = new DuplicatesRequest("news").field("fp").minSimilarity(0.75);
        for (DuplicatesRequest copy : copies(similar, DuplicatesRequest::new)) {
            assertEquals(Double.valueOf(0.75), copy.minSimilarity());
            assertNull(copy.query());
        }
    }

    public void testAsyncDuplicatesRequestAndResponse() throws IOException {
        AsyncDuplicatesRequest r = new AsyncDuplicatesRequest(duplicatesRequest(), TimeValue.timeValueHours(3));
        for (AsyncDuplicatesRequest copy : copies(r, AsyncDuplicatesRequest::new)) {
            assertEquals(TimeValue.timeValueHours(3), copy.keepAlive());
            assertEquals("body.simhash", copy.report().field());
            assertEquals(QueryBuilders.termQuery("tag", "a"), copy.report().query());
        }
        for (AsyncDuplicatesResponse copy : copies(new AsyncDuplicatesResponse("Zm9vYmFyYmF6cXV4MTIzNA", "node:17"),
            AsyncDuplicatesResponse::new)) {
            assertEquals("Zm9vYmFyYmF6cXV4MTIzNA", copy.id());
            assertEquals("node:17", copy.task());
        }
    }

    public void testDuplicatesResponseAndStatus() throws IOException {
        DuplicateGroups.Member rep = new DuplicateGroups.Member("news", "1", 1.0);
        DuplicateGroups.Page page = new DuplicateGroups.Page(10, 2, 3, List.of(
            new DuplicateGroups.Group("00000000000000ff", 2, List.of(rep, new DuplicateGroups.Member("news", "2", 0.875)), rep),
            new DuplicateGroups.Group("0000000000000001", 2, List.of(new DuplicateGroups.Member("blogs", "x"),
                new DuplicateGroups.Member("blogs", "y")))));
        DuplicatesResponse r = new DuplicatesResponse("fp", 9, 0.8, 12, new DuplicatesResponse.Phases(5, 6, 2, 1), page, "g", 4, 4096);
        for (DuplicatesResponse copy : copies(r, DuplicatesResponse::new)) {
            assertEquals(page, copy.page());
            assertEquals(4, copy.updated());
        }
        DuplicatesStatus status = new DuplicatesStatus(DuplicatesStatus.Phase.WRITE, 2, 100, -1, 7, 50, 60);
        for (DuplicatesStatus copy : copies(status, DuplicatesStatus::new)) {
            assertEquals(status, copy);
        }
    }

    public void testReportRequestsAndResponse() throws IOException {
        ReportGetRequest get = new ReportGetRequest("abc:1");
        get.indices("news", "blogs");
        for (ReportGetRequest copy : copies(get, ReportGetRequest::new)) {
            assertEquals("abc:1", copy.id());
            assertArrayEquals(new String[] { "news", "blogs" }, copy.indices());
        }
        for (ReportDeleteRequest copy : copies(new ReportDeleteRequest("abc:2"), ReportDeleteRequest::new)) {
            assertEquals("abc:2", copy.id());
            assertArrayEquals(new String[] { "*" }, copy.indices());
        }
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("id", "abc:1");
        view.put("is_running", false);
        view.put("response", Map.of("groups_total", 3));
        for (ReportGetResponse copy : copies(new ReportGetResponse(view), ReportGetResponse::new)) {
            assertEquals(view, copy.view());
        }
    }
}
