package dev.simhash.duplicates;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One stored asynchronous near-duplicate report as kept in {@link ReportStore#INDEX}: who may read it is decided by its
 * concrete indices, how long it lives by its expiry, and what it says by its state, its last progress and, once finished,
 * its response or its error.
 *
 * @param id          the report's id: random, so that it tells nothing of other reports (records of earlier releases: the
 *                    task's id)
 * @param task        the id of the task that runs it ({@code node:number})
 * @param state       the stored state; {@link State#RUNNING} until the report ends
 * @param indices     the concrete indices the report reads (and, with {@code write_group_id}, writes)
 * @param readAs      the indices as the caller's request named them once security resolved them (an alias stays an
 *                    alias): who may read every one of them may read the report
 * @param startMillis when the task started (epoch milliseconds), to tell it from a later task with the same id
 * @param expiryMillis when the record is removed (epoch milliseconds)
 * @param status      the last recorded progress (the task's status), or null
 * @param response    the report, once completed
 * @param error       the error, once failed or cancelled
 */
public record ReportRecord(String id, String task, State state, List<String> indices, List<String> readAs, String field,
                           String writeGroupId, long startMillis, long expiryMillis, Map<String, Object> status, Map<String, Object> response, Map<String, Object> error) {

    /** The states of a report; {@link #INTERRUPTED} is never stored: it is what a running record whose task is gone means. */
    public enum State {
        RUNNING, COMPLETED, FAILED, CANCELLED, INTERRUPTED;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }

        static State of(String label) {
            for (State s : values()) {
                if (s.label().equals(label)) {
                    return s;
                }
            }
            throw new IllegalStateException("unknown report state [" + label + "]");
        }
    }

    public ReportRecord {
        indices = List.copyOf(indices);
        readAs = List.copyOf(readAs);
    }

    /** A report that has just started. */
    public static ReportRecord running(String id, String task, List<String> indices, List<String> readAs, String field,
                                       String writeGroupId, long startMillis, long expiryMillis) {
        return new ReportRecord(id, task, State.RUNNING, indices, readAs, field, writeGroupId, startMillis, expiryMillis, null, null,
            null);
    }

    public boolean expired(long nowMillis) {
        return expiryMillis <= nowMillis;
    }

    /** The same record with its latest progress. */
    public ReportRecord withStatus(Map<String, Object> latest) {
        return new ReportRecord(id, task, state, indices, readAs, field, writeGroupId, startMillis, expiryMillis, latest, response,
            error);
    }

    /** The same record in another state, with the final progress, response and error. */
    public ReportRecord finished(State end, Map<String, Object> lastStatus, Map<String, Object> result, Map<String, Object> failure) {
        return new ReportRecord(id, task, end, indices, readAs, field, writeGroupId, startMillis, expiryMillis, lastStatus, result,
            failure);
    }

    /** The stored document. */
    public Map<String, Object> toSource() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("task", task);
        m.put("state", state.label());
        m.put("indices", indices);
        m.put("read_as", readAs);
        m.put("field", field);
        if (writeGroupId != null) {
            m.put("write_group_id", writeGroupId);
        }
        m.put("start_time_in_millis", startMillis);
        m.put("expiration_time_in_millis", expiryMillis);
        m.put("cancelled", state == State.CANCELLED);
        if (status != null) {
            m.put("status", status);
        }
        if (response != null) {
            m.put("response", response);
        }
        if (error != null) {
            m.put("error", error);
        }
        return m;
    }

    /** Reads a stored document back. */
    @SuppressWarnings("unchecked")
    public static ReportRecord fromSource(String id, Map<String, Object> source) {
        List<String> indices = strings((List<Object>) source.get("indices"));
        // records of earlier releases: the id was the task's, and readers were checked on the concrete indices
        Object task = source.getOrDefault("task", id);
        List<String> readAs = source.containsKey("read_as") ? strings((List<Object>) source.get("read_as")) : indices;
        return new ReportRecord(id, String.valueOf(task), State.of((String) source.get("state")), indices, readAs,
            (String) source.get("field"),
            (String) source.get("write_group_id"), ((Number) source.get("start_time_in_millis")).longValue(),
            ((Number) source.get("expiration_time_in_millis")).longValue(), (Map<String, Object>) source.get("status"),
            (Map<String, Object>) source.get("response"), (Map<String, Object>) source.get("error"));
    }

    private static List<String> strings(List<Object> values) {
        List<String> strings = new ArrayList<>();
        for (Object o : values) {
            strings.add(String.valueOf(o));
        }
        return strings;
    }

    /**
     * What a reader is told: the record as stored, except that a record still marked running whose task no longer runs
     * (the node stopped or died mid-report) is {@link State#INTERRUPTED}, with what that means for written group ids.
     *
     * @param taskRunning whether the report's task (same id, same start time) still runs in the cluster
     * @param liveStatus  the running task's status now, or null
     */
    public Map<String, Object> view(boolean taskRunning, Map<String, Object> liveStatus) {
        State shown = state == State.RUNNING && taskRunning == false ? State.INTERRUPTED : state;
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", id);
        m.put("task", task);
        m.put("state", shown.label());
        m.put("is_running", shown == State.RUNNING);
        m.put("cancelled", shown == State.CANCELLED);
        m.put("start_time_in_millis", startMillis);
        m.put("expiration_time_in_millis", expiryMillis);
        m.put("indices", indices);
        m.put("field", field);
        if (writeGroupId != null) {
            m.put("write_group_id", writeGroupId);
        }
        Map<String, Object> shownStatus = shown == State.RUNNING && liveStatus != null ? liveStatus : status;
        if (shownStatus != null) {
            m.put("status", shownStatus);
        }
        if (shown == State.INTERRUPTED) {
            Map<String, Object> why = new LinkedHashMap<>();
            why.put("reason", "the report's task no longer runs: the node that ran it stopped before the report ended");
            if (writeGroupId != null) {
                // the write phase updates documents in bulks: some may carry this report's group ids, others older or none
                why.put("group_ids_partly_written", true);
                why.put("advice", "documents may carry group ids in [" + writeGroupId + "] only partly; run the report again with the "
                    + "same write_group_id to complete them");
            }
            m.put("interrupted", why);
        }
        if (response != null) {
            m.put("response", response);
        }
        if (error != null) {
            m.put("error", error);
        }
        return m;
    }
}
