package dev.simhash.chaos;

import java.util.Map;

/** One background {@code _simhash/duplicates} report started during the load, and how it ended. */
final class ReportRun {

    /** How a report ended. */
    enum End {
        /** Completed, with its stored response. */
        COMPLETED,
        /** Failed, with its stored error. */
        FAILED,
        /** The task and its result are gone (404): acceptable only when its node was killed while it ran. */
        LOST,
        /** Still not completed when polling gave up. */
        TIMED_OUT
    }

    final ChaosState.Index index;
    final String taskId;
    /** The report's id, which {@code GET _simhash/duplicates/<id>} reads (its task's id is another one). */
    final String reportId;
    final long startedAt;
    volatile long endedAt;
    volatile End end;
    volatile Map<String, Object> response;
    volatile String error;
    /** For a failed report: how its stored error counts (unavailability is allowed, anything else is a defect). */
    volatile Outcomes.Category errorCategory;

    ReportRun(ChaosState.Index index, String taskId, String reportId, long startedAt) {
        this.index = index;
        this.taskId = taskId;
        this.reportId = reportId;
        this.startedAt = startedAt;
    }

    /** The id of the node that ran the task ({@code <node id>:<number>}). */
    String nodeId() {
        return taskId.substring(0, taskId.lastIndexOf(':'));
    }
}
