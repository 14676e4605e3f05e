package dev.simhash.it;

import dev.simhash.it.support.Fixtures;
import dev.simhash.it.support.RealNodeExtension;
import dev.simhash.it.support.Rest;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static dev.simhash.it.support.Rest.toJson;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code _simhash/duplicates?wait_for_completion=false} on a real node: the task id at once, a progress status in
 * {@code _tasks} while it runs, the stored result (equal to the synchronous report) or the stored error afterwards,
 * cancellation that stores no result; and sliced reading equal to sequential reading.
 */
@ExtendWith(RealNodeExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DuplicatesAsyncIT {

    private static final String INDEX = "dup-async";
    /** Fingerprints sharing blocks 0..2: three block tables hold one huge bucket, so grouping takes seconds. */
    private static final String SLOW = "dup-async-slow";

    private final Rest rest;
    private final CollapseCorpus corpus = CollapseCorpus.planted(1414, 4000, 80, 5);

    DuplicatesAsyncIT(Rest rest) {
        this.rest = rest;
    }

    @BeforeAll
    void load() {
        rest.delete("/dup-async*");
        corpus.load(rest, INDEX, 3, null);
        rest.ok("PUT", "/" + SLOW, CollapseCorpus.mapping(2));
        Random r = new Random(99);
        long shared = r.nextLong() & ~0xFFFFL;
        StringBuilder ndjson = new StringBuilder();
        for (int i = 0; i < 50_000; i++) {
            ndjson.append("{\"index\":{}}\n").append(toJson(Map.of("simhash", Fixtures.storedForm(shared | r.nextInt(1 << 16)))))
                .append('\n');
            if (i % 10_000 == 9_999) {
                assertEquals(200, rest.bulk("/" + SLOW + "/_bulk", ndjson.toString()).status());
                ndjson.setLength(0);
            }
        }
        rest.ok("POST", "/" + SLOW + "/_refresh", null);
    }

    @AfterAll
    void drop() {
        rest.delete("/dup-async*");
    }

    /** The report without its timings and its memory (which depend on how it read). */
    static Map<String, Object> comparable(Map<String, Object> report) {
        Map<String, Object> m = new LinkedHashMap<>(report);
        m.remove("took_ms");
        m.remove("phases_ms");
        m.remove("peak_memory_bytes");
        return m;
    }

    String startAsync(String index, String body) {
        Rest.Answer a = rest.post("/" + index + "/_simhash/duplicates?wait_for_completion=false", body);
        assertEquals(200, a.status(), a.toString());
        String task = a.at("task");
        assertNotNull(task, a.toString());
        assertEquals(1, a.json().size(), "only the task id: " + a);
        return task;
    }

    Rest.Answer waitForTask(String task) {
        Rest.Answer done = rest.get("/_tasks/" + task + "?wait_for_completion=true&timeout=120s");
        assertEquals(200, done.status(), done.toString());
        assertEquals(Boolean.TRUE, done.at("completed"), done.toString());
        return done;
    }

    @Test
    void storedResultEqualsTheSynchronousReport() {
        for (String body : List.of("{\"field\": \"simhash\", \"max_distance\": 5, \"size\": 1000, \"max_members\": 10000}",
            "{\"field\": \"simhash\", \"max_distance\": 3, \"from\": 7, \"size\": 9, \"max_members\": 2}",
            "{\"field\": \"simhash\", \"max_distance\": 4, \"query\": {\"term\": {\"tag\": \"a\"}}}")) {
            Rest.Answer sync = rest.post("/" + INDEX + "/_simhash/duplicates", body);
            assertEquals(200, sync.status(), sync.toString());
            assertTrue(((Number) sync.at("groups_total")).intValue() > 10, sync.toString());
            String task = startAsync(INDEX, body);
            Rest.Answer done = waitForTask(task);
            Map<String, Object> stored = done.at("response");
            assertNotNull(stored, done.toString());
            assertEquals(comparable(sync.json()), comparable(stored), body);
            assertEquals("indices:data/read/simhash/duplicates", done.at("task.action"));
            assertEquals("read", "" + ((Map<?, ?>) stored.get("phases_ms")).keySet().iterator().next());
            // the status at completion is stored with the task
            assertEquals((Object) sync.at("total_docs"), done.at("task.status.docs_read"), done.toString());
            assertEquals((Object) sync.at("total_docs"), done.at("task.status.docs_total"), done.toString());
            assertEquals((Object) sync.at("groups_total"), done.at("task.status.groups_found"), done.toString());
            assertNull(done.at("error"), done.toString());
        }
    }

    @Test
    void worksWithASmallMaxResultWindow() {
        String small = "dup-async-window";
        corpus.load(rest, small, 2, null);
        rest.ok("PUT", "/" + small + "/_settings", "{\"index\": {\"max_result_window\": 20, \"max_terms_count\": 7}}");
        String body = "{\"field\": \"simhash\", \"max_distance\": 5, \"size\": 1000, \"max_members\": 10000";
        Map<String, Object> expected = comparable(rest.post("/" + INDEX + "/_simhash/duplicates", body + "}").json());
        for (String read : List.of("sliced", "sequential")) {
            Rest.Answer a = rest.post("/" + small + "/_simhash/duplicates", body + ", \"read\": \"" + read + "\"}");
            assertEquals(200, a.status(), a.toString());
            // the same documents under another index name
            assertEquals(toJson(expected).replace("\"" + INDEX + "\"", "\"" + small + "\""), toJson(comparable(a.json())), read);
        }
        rest.delete("/" + small);
    }

    @Test
    void slicedReadingEqualsSequentialReading() {
        for (int r : new int[] { 0, 3, 7, 11 }) {
            String body = "{\"field\": \"simhash\", \"max_distance\": " + r + ", \"size\": 1000, \"max_members\": 10000";
            Rest.Answer sliced = rest.post("/" + INDEX + "/_simhash/duplicates", body + "}");
            Rest.Answer sequential = rest.post("/" + INDEX + "/_simhash/duplicates", body + ", \"read\": \"sequential\"}");
            assertEquals(200, sliced.status(), sliced.toString());
            assertEquals(200, sequential.status(), sequential.toString());
            assertEquals(comparable(sequential.json()), comparable(sliced.json()), "r=" + r);
        }
    }

    /** Polls the running task until {@code phase} shows; returns its status. */
    Map<String, Object> waitForPhase(String task, String phase) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        List<Object> seen = new ArrayList<>();
        while (System.nanoTime() < deadline) {
            Rest.Answer a = rest.get("/_tasks/" + task);
            assertEquals(200, a.status(), a.toString());
            Map<String, Object> status = a.at("task.status");
            if (Boolean.TRUE.equals(a.at("completed"))) {
                throw new AssertionError("finished before phase [" + phase + "] was seen; statuses seen: " + seen + "; " + a);
            }
            if (status != null) {
                seen.add(status.get("phase"));
                if (phase.equals(status.get("phase"))) {
                    return status;
                }
            }
            Thread.sleep(20);
        }
        throw new AssertionError("phase [" + phase + "] never showed; seen " + seen);
    }

    @Test
    void showsProgressWhileRunningAndStoresTheResult() throws Exception {
        String task = startAsync(SLOW, "{\"field\": \"simhash\", \"max_distance\": 2}");
        Map<String, Object> status = waitForPhase(task, "group");
        assertEquals(50_000, ((Number) status.get("docs_read")).intValue(), status.toString());
        assertEquals(50_000, ((Number) status.get("docs_total")).intValue(), status.toString());
        assertTrue(((Number) status.get("slices")).intValue() >= 1, status.toString());
        // _tasks?detailed lists it with the same status
        Rest.Answer list = rest.get("/_tasks?actions=*simhash*&detailed");
        assertTrue(list.body().contains("\"phase\":"), list.toString());
        Rest.Answer done = waitForTask(task);
        assertEquals(50_000, ((Number) done.at("response.total_docs")).intValue(), done.toString());
        assertTrue(((Number) done.at("response.groups_total")).intValue() > 0, done.toString());
    }

    @Test
    void cancellingStopsTheReportAndStoresNoResult() throws Exception {
        String task = startAsync(SLOW, "{\"field\": \"simhash\", \"max_distance\": 2}");
        waitForPhase(task, "group");
        Rest.Answer cancel = rest.post("/_tasks/" + task + "/_cancel", null);
        assertEquals(200, cancel.status(), cancel.toString());
        Rest.Answer done = waitForTask(task);
        assertNull(done.at("response"), "a cancelled report stores no result: " + done);
        assertEquals("task_cancelled_exception", done.at("error.type"), done.toString());
        Rest.Answer after = rest.get("/_tasks?actions=*simhash*");
        for (int i = 0; i < 50 && after.body().contains("simhash/duplicates"); i++) {
            Thread.sleep(100);
            after = rest.get("/_tasks?actions=*simhash*");
        }
        assertTrue(!after.body().contains("simhash/duplicates"), after.toString());
    }

    @Test
    void aFailedReportStoresItsError() {
        String task = startAsync(INDEX, "{\"field\": \"nope\"}");
        Rest.Answer done = waitForTask(task);
        assertNull(done.at("response"), done.toString());
        assertEquals("illegal_argument_exception", done.at("error.type"), done.toString());
        assertTrue(String.valueOf((Object) done.at("error.reason")).contains("[field] [nope] is neither a [simhash] field nor a fingerprint object"), done.toString());
    }

    @Test
    void badParametersAnswer4xxNamingThem() {
        Rest.Answer notBoolean = rest.post("/" + INDEX + "/_simhash/duplicates?wait_for_completion=maybe", "{\"field\": \"simhash\"}");
        assertEquals(400, notBoolean.status(), notBoolean.toString());
        assertTrue(notBoolean.body().contains("[wait_for_completion] must be [true] or [false], got [maybe]"), notBoolean.toString());
        // parameter errors in the body answer 400 at once, before any task starts
        Rest.Answer badBody = rest.post("/" + INDEX + "/_simhash/duplicates?wait_for_completion=false", "{\"field\": \"simhash\", "
            + "\"max_distance\": 12}");
        assertEquals(400, badBody.status(), badBody.toString());
        assertTrue(badBody.body().contains("[max_distance] must be between 0 and 11"), badBody.toString());
        Rest.Answer badRead = rest.post("/" + INDEX + "/_simhash/duplicates", "{\"field\": \"simhash\", \"read\": \"fast\"}");
        assertEquals(400, badRead.status(), badRead.toString());
        assertTrue(badRead.body().contains("[read] must be one of [sliced, sequential], got [fast]"), badRead.toString());
        // unknown task ids: Elasticsearch's own answers
        @SuppressWarnings("unchecked")
        String node = ((Map<String, Object>) rest.get("/_nodes/_local").at("nodes")).keySet().iterator().next();
        Rest.Answer unknown = rest.get("/_tasks/" + node + ":987654321");
        assertEquals(404, unknown.status(), unknown.toString());
        assertTrue(unknown.body().contains("task [" + node + ":987654321] isn't running and hasn't stored its results"), unknown.toString());
        Rest.Answer malformed = rest.get("/_tasks/not-a-task-id");
        assertEquals(400, malformed.status(), malformed.toString());
        assertTrue(malformed.body().contains("malformed task id not-a-task-id"), malformed.toString());
    }
}
