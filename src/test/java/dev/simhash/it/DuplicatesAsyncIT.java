package dev.simhash.it;

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
import java.util.concurrent.TimeUnit;

import static dev.simhash.it.support.Rest.toJson;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code _simhash/duplicates?wait_for_completion=false} on a real node: the report's id at once, its progress in
 * {@code GET _simhash/duplicates/<id>} (and {@code _tasks}) while it runs, the kept result (equal to the synchronous
 * report) or error afterwards and nothing in {@code _tasks}, cancellation that reads back as cancelled, deletion; and
 * sliced reading equal to sequential reading.
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
        CollapseCorpus.loadSlow(rest, SLOW, 2, 99);
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
        String id = a.at("id");
        assertNotNull(id, a.toString());
        assertTrue(id.matches("[A-Za-z0-9_-]{22}"), "a random id, not the task's: " + a);
        assertTrue(String.valueOf((Object) a.at("task")).matches("[A-Za-z0-9_-]+:[0-9]+"), "the task's id apart: " + a);
        assertEquals(2, a.json().size(), "only the id and the task: " + a);
        return id;
    }

    /** Polls {@code GET _simhash/duplicates/<id>} until the report has ended. */
    Rest.Answer waitForReport(String id) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        Rest.Answer a = null;
        while (System.nanoTime() < deadline) {
            a = rest.get("/_simhash/duplicates/" + id);
            assertEquals(200, a.status(), a.toString());
            if (Boolean.FALSE.equals(a.at("is_running"))) {
                return a;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("report [" + id + "] still running: " + a);
    }

    @Test
    void keptResultEqualsTheSynchronousReport() throws Exception {
        for (String body : List.of("{\"field\": \"simhash\", \"max_distance\": 5, \"size\": 1000, \"max_members\": 10000}",
            "{\"field\": \"simhash\", \"max_distance\": 3, \"from\": 7, \"size\": 9, \"max_members\": 2}",
            "{\"field\": \"simhash\", \"max_distance\": 4, \"query\": {\"term\": {\"tag\": \"a\"}}}")) {
            Rest.Answer sync = rest.post("/" + INDEX + "/_simhash/duplicates", body);
            assertEquals(200, sync.status(), sync.toString());
            assertTrue(((Number) sync.at("groups_total")).intValue() > 10, sync.toString());
            String id = startAsync(INDEX, body);
            Rest.Answer done = waitForReport(id);
            assertEquals("completed", done.at("state"), done.toString());
            assertEquals(Boolean.FALSE, done.at("cancelled"), done.toString());
            assertEquals(List.of(INDEX), done.at("indices"), done.toString());
            Map<String, Object> kept = done.at("response");
            assertNotNull(kept, done.toString());
            assertEquals(comparable(sync.json()), comparable(kept), body);
            assertEquals("read", "" + ((Map<?, ?>) kept.get("phases_ms")).keySet().iterator().next());
            // the status at completion is kept with the report
            assertEquals((Object) sync.at("total_docs"), done.at("status.docs_read"), done.toString());
            assertEquals((Object) sync.at("total_docs"), done.at("status.docs_total"), done.toString());
            assertEquals((Object) sync.at("groups_total"), done.at("status.groups_found"), done.toString());
            assertNull(done.at("error"), done.toString());
            // and nothing of it is a task result any more
            // (the task is unregistered just after the end is recorded: wait for that moment)
            Rest.Answer task = rest.get("/_tasks/" + done.at("task"));
            for (long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(20); task.status() == 200 && System.nanoTime() < until; ) {
                Thread.sleep(50);
                task = rest.get("/_tasks/" + done.at("task"));
            }
            assertEquals(404, task.status(), task.toString());
            assertTrue(task.body().contains("isn't running and hasn't stored its results"), task.toString());
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

    /** Polls the running report until {@code phase} shows; returns its live status. */
    Map<String, Object> waitForPhase(String id, String phase) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        List<Object> seen = new ArrayList<>();
        while (System.nanoTime() < deadline) {
            Rest.Answer a = rest.get("/_simhash/duplicates/" + id);
            assertEquals(200, a.status(), a.toString());
            if (Boolean.FALSE.equals(a.at("is_running"))) {
                throw new AssertionError("finished before phase [" + phase + "] was seen; statuses seen: " + seen + "; " + a);
            }
            Map<String, Object> status = a.at("status");
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
    void showsProgressWhileRunningAndKeepsTheResult() throws Exception {
        String id = startAsync(SLOW, "{\"field\": \"simhash\", \"max_distance\": 2, \"query\": {\"exists\": {\"field\": "
            + "\"simhash\"}}}");
        Map<String, Object> status = waitForPhase(id, "group");
        assertEquals(50_000, ((Number) status.get("docs_read")).intValue(), status.toString());
        assertEquals(50_000, ((Number) status.get("docs_total")).intValue(), status.toString());
        assertTrue(((Number) status.get("slices")).intValue() >= 1, status.toString());
        // _tasks?detailed lists it with the same status, and without the query (monitor-only users see descriptions)
        Rest.Answer list = rest.get("/_tasks?actions=*simhash*&detailed");
        assertTrue(list.body().contains("\"phase\":"), list.toString());
        assertTrue(list.body().contains("with a query"), list.toString());
        assertFalse(list.body().contains("exists"), "the query is not in the task's description: " + list);
        Rest.Answer done = waitForReport(id);
        assertEquals(50_000, ((Number) done.at("response.total_docs")).intValue(), done.toString());
        assertTrue(((Number) done.at("response.groups_total")).intValue() > 0, done.toString());
    }

    @Test
    void aCancelledReportReadsBackAsCancelled() throws Exception {
        String id = startAsync(SLOW, "{\"field\": \"simhash\", \"max_distance\": 2}");
        waitForPhase(id, "group");
        Rest.Answer cancel = rest.post("/_tasks/" + rest.get("/_simhash/duplicates/" + id).at("task") + "/_cancel", null);
        assertEquals(200, cancel.status(), cancel.toString());
        Rest.Answer done = waitForReport(id);
        assertEquals("cancelled", done.at("state"), done.toString());
        assertEquals(Boolean.TRUE, done.at("cancelled"), done.toString());
        assertNull(done.at("response"), "a cancelled report has no result: " + done);
        assertEquals("task_cancelled_exception", done.at("error.type"), done.toString());
        Rest.Answer after = rest.get("/_tasks?actions=*simhash*");
        for (int i = 0; i < 50 && after.body().contains("simhash/duplicates\""); i++) {
            Thread.sleep(100);
            after = rest.get("/_tasks?actions=*simhash*");
        }
        assertFalse(after.body().contains("simhash/duplicates\""), after.toString());
    }

    @Test
    void deletingARunningReportCancelsItAndRemovesIt() throws Exception {
        String id = startAsync(SLOW, "{\"field\": \"simhash\", \"max_distance\": 2}");
        waitForPhase(id, "group");
        Rest.Answer delete = rest.delete("/_simhash/duplicates/" + id);
        assertEquals(200, delete.status(), delete.toString());
        assertEquals(Boolean.TRUE, delete.at("acknowledged"), delete.toString());
        Rest.Answer gone = rest.get("/_simhash/duplicates/" + id);
        assertEquals(404, gone.status(), gone.toString());
        assertTrue(gone.body().contains("report [" + id + "] not found"), gone.toString());
        // the delete waited for the cancelled task to stop
        Rest.Answer tasks = rest.get("/_tasks?actions=*simhash*");
        assertFalse(tasks.body().contains("simhash/duplicates\""), tasks.toString());
        assertEquals(404, rest.delete("/_simhash/duplicates/" + id).status());
    }

    @Test
    void aFailedReportKeepsItsError() throws Exception {
        String id = startAsync(INDEX, "{\"field\": \"nope\"}");
        Rest.Answer done = waitForReport(id);
        assertEquals("failed", done.at("state"), done.toString());
        assertNull(done.at("response"), done.toString());
        assertEquals("illegal_argument_exception", done.at("error.type"), done.toString());
        assertEquals(400, ((Number) done.at("error.status")).intValue(), done.toString());
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
        Rest.Answer badKeepAlive = rest.post("/" + INDEX + "/_simhash/duplicates?wait_for_completion=false&keep_alive=-1",
            "{\"field\": \"simhash\"}");
        assertEquals(400, badKeepAlive.status(), badKeepAlive.toString());
        assertTrue(badKeepAlive.body().contains("[keep_alive]"), badKeepAlive.toString());
        // a keep-alive whose expiration time would overflow: refused with the documented maximum, not kept for no time at all
        Rest.Answer endless = rest.post("/" + INDEX + "/_simhash/duplicates?wait_for_completion=false&keep_alive=9223372036854775807ms",
            "{\"field\": \"simhash\"}");
        assertEquals(400, endless.status(), endless.toString());
        assertTrue(endless.body().contains("[keep_alive] must be at most [365d], got [9223372036854775807ms]"), endless.toString());
        Rest.Answer tooLong = rest.post("/" + INDEX + "/_simhash/duplicates?wait_for_completion=false&keep_alive=366d",
            "{\"field\": \"simhash\"}");
        assertEquals(400, tooLong.status(), tooLong.toString());
        assertTrue(tooLong.body().contains("[keep_alive] must be at most [365d], got [366d]"), tooLong.toString());
        // the maximum itself is kept that long
        Rest.Answer year = rest.post("/" + INDEX + "/_simhash/duplicates?wait_for_completion=false&keep_alive=365d",
            "{\"field\": \"simhash\"}");
        assertEquals(200, year.status(), year.toString());
        Rest.Answer kept = rest.get("/_simhash/duplicates/" + year.at("id"));
        assertEquals(200, kept.status(), kept.toString());
        assertEquals(365L * 24 * 3600 * 1000, ((Number) kept.at("expiration_time_in_millis")).longValue()
            - ((Number) kept.at("start_time_in_millis")).longValue(), kept.toString());
        rest.delete("/_simhash/duplicates/" + year.at("id"));
        Rest.Answer missing = rest.post("/nope-missing/_simhash/duplicates?wait_for_completion=false", "{\"field\": \"simhash\"}");
        assertEquals(404, missing.status(), "no such index, no report: " + missing);
        // unknown and malformed report ids
        @SuppressWarnings("unchecked")
        String node = ((Map<String, Object>) rest.get("/_nodes/_local").at("nodes")).keySet().iterator().next();
        Rest.Answer unknown = rest.get("/_simhash/duplicates/" + node + ":987654321");
        assertEquals(404, unknown.status(), unknown.toString());
        assertTrue(unknown.body().contains("report [" + node + ":987654321] not found"), unknown.toString());
        assertEquals(404, rest.delete("/_simhash/duplicates/" + node + ":987654321").status());
        // an id of 302 characters is no report id (at most 64 characters): at most 64 of them are echoed
        String longId = "n".repeat(296) + ":12345";
        Rest.Answer longUnknown = rest.get("/_simhash/duplicates/" + longId);
        assertEquals(400, longUnknown.status(), longUnknown.toString());
        assertTrue(longUnknown.body().contains("got [" + "n".repeat(64) + "...(302 chars)]"), longUnknown.toString());
        assertFalse(longUnknown.body().contains("n".repeat(65)), longUnknown.toString());
        Rest.Answer malformed = rest.get("/_simhash/duplicates/not-a-report-id");
        assertEquals(400, malformed.status(), malformed.toString());
        assertTrue(malformed.body().contains("[id] must be a report id"), malformed.toString());
    }
}
