package dev.simhash.duplicates;

import org.elasticsearch.core.TimeValue;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReportRecordTest {

    private static final ReportRecord RUNNING = ReportRecord.running("Zm9vYmFyYmF6cXV4MTIzNA", "n1:17", List.of("a", "b"),
        List.of("a*"), "simhash", null, 1_000, 61_000);
    private static final ReportRecord WRITING = ReportRecord.running("YmFyYmF6cXV4Zm9vMTIzNA", "n1:18", List.of("a"), List.of("alias-a"),
        "simhash", "dup_group", 1_000, 61_000);

    @Test
    void theStoredDocumentReadsBackAsTheSameRecord() {
        ReportRecord done = WRITING.finished(ReportRecord.State.COMPLETED, Map.of("phase", "write"), Map.of("total_docs", 3), null);
        for (ReportRecord r : List.of(RUNNING, WRITING, done)) {
            assertEquals(r, ReportRecord.fromSource(r.id(), r.toSource()));
        }
        assertEquals("completed", done.toSource().get("state"));
        // a record stored by an earlier release: the id was the task's, and readers were checked on the concrete indices
        Map<String, Object> earlier = new java.util.HashMap<>(RUNNING.toSource());
        earlier.remove("read_as");
        earlier.remove("task");
        ReportRecord old = ReportRecord.fromSource("n1:17", earlier);
        assertEquals("n1:17", old.task());
        assertEquals(List.of("a", "b"), old.readAs());
        assertEquals(false, done.toSource().get("cancelled"));
        assertEquals(true, WRITING.finished(ReportRecord.State.CANCELLED, null, null, Map.of("type", "x")).toSource().get("cancelled"));
    }

    @Test
    void aRunningRecordWhoseTaskRunsIsRunningWithTheLiveStatus() {
        Map<String, Object> view = RUNNING.view(true, Map.of("phase", "group"));
        assertEquals("running", view.get("state"));
        assertEquals(true, view.get("is_running"));
        assertEquals(Map.of("phase", "group"), view.get("status"));
        assertNull(view.get("interrupted"));
    }

    @Test
    void aRunningRecordWhoseTaskIsGoneWasInterrupted() {
        Map<String, Object> view = RUNNING.view(false, null);
        assertEquals("interrupted", view.get("state"));
        assertEquals(false, view.get("is_running"));
        @SuppressWarnings("unchecked")
        Map<String, Object> why = (Map<String, Object>) view.get("interrupted");
        assertFalse(why.containsKey("group_ids_partly_written"), "nothing was written without write_group_id: " + why);

        Map<String, Object> writing = WRITING.withStatus(Map.of("phase", "write", "docs_written", 69_000, "docs_to_write", 200_000))
            .view(false, null);
        assertEquals("interrupted", writing.get("state"));
        @SuppressWarnings("unchecked")
        Map<String, Object> partly = (Map<String, Object>) writing.get("interrupted");
        assertEquals(true, partly.get("group_ids_partly_written"));
        assertTrue(((String) partly.get("advice")).contains("[dup_group]"), partly.toString());
        // the last recorded progress says how far the write got
        assertEquals(Map.of("phase", "write", "docs_written", 69_000, "docs_to_write", 200_000), writing.get("status"));
    }

    @Test
    void aFinishedRecordIsShownAsStoredWhateverTheTask() {
        ReportRecord cancelled = RUNNING.finished(ReportRecord.State.CANCELLED, null, null, Map.of("type", "task_cancelled_exception"));
        for (boolean running : new boolean[] { true, false }) {
            Map<String, Object> view = cancelled.view(running, Map.of("phase", "read"));
            assertEquals("cancelled", view.get("state"));
            assertEquals(true, view.get("cancelled"));
            assertEquals(false, view.get("is_running"));
            assertNull(view.get("status"), "no live status for a finished report");
        }
    }

    @Test
    void expiry() {
        assertFalse(RUNNING.expired(60_999));
        assertTrue(RUNNING.expired(61_000));
    }

    @Test
    void reportIdsAreRandomOrAnEarlierReleasesTaskIds() {
        assertTrue(ReportIdRequest.wellFormed("oTUltX4IQMOUUVeiohTt8A:12345"));
        assertTrue(ReportIdRequest.wellFormed("Zm9vYmFyYmF6cXV4MTIz-_"));
        for (String bad : List.of("", "abc", ":12", "node:", "node:12a", "node:1234567890123456789", "Zm9vYmFyYmF6cXV4MTIz+/",
            "Zm9vYmFyYmF6cXV4MTIzNAx", "x".repeat(300) + ":12")) {
            assertFalse(ReportIdRequest.wellFormed(bad), bad);
        }
        assertTrue(new ReportGetRequest("x").validate().getMessage().contains("[id] must be a report id"));
    }

    @Test
    void keepAliveHasAFloor() {
        assertEquals(TimeValue.timeValueSeconds(1), AsyncDuplicatesRequest.checkKeepAlive(TimeValue.timeValueSeconds(1)));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> AsyncDuplicatesRequest.checkKeepAlive(TimeValue.timeValueMillis(999)));
        assertEquals("[keep_alive] must be at least [1s], got [999ms]", e.getMessage());
    }

    @Test
    void keepAliveHasACeilingSoTheExpirationTimeNeverOverflows() {
        assertEquals(TimeValue.timeValueDays(365), AsyncDuplicatesRequest.checkKeepAlive(TimeValue.timeValueDays(365)));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> AsyncDuplicatesRequest.checkKeepAlive(TimeValue.parseTimeValue("9223372036854775807ms", "keep_alive")));
        assertEquals("[keep_alive] must be at most [365d], got [9223372036854775807ms]: the report's record is kept at most that long",
            e.getMessage());
    }
}
