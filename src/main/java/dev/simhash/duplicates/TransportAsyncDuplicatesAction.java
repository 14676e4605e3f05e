package dev.simhash.duplicates;

import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.elasticsearch.ElasticsearchException;
import org.elasticsearch.ExceptionsHelper;
import org.elasticsearch.action.ActionListener;
import org.elasticsearch.action.support.ActionFilters;
import org.elasticsearch.action.support.HandledTransportAction;
import org.elasticsearch.cluster.metadata.IndexNameExpressionResolver;
import org.elasticsearch.cluster.service.ClusterService;
import org.elasticsearch.common.UUIDs;
import org.elasticsearch.common.bytes.BytesReference;
import org.elasticsearch.common.util.concurrent.EsExecutors;
import org.elasticsearch.common.xcontent.XContentHelper;
import org.elasticsearch.core.TimeValue;
import org.elasticsearch.injection.guice.Inject;
import org.elasticsearch.tasks.Task;
import org.elasticsearch.tasks.TaskId;
import org.elasticsearch.tasks.TaskManager;
import org.elasticsearch.threadpool.Scheduler;
import org.elasticsearch.threadpool.ThreadPool;
import org.elasticsearch.transport.TransportService;
import org.elasticsearch.xcontent.ToXContent;
import org.elasticsearch.xcontent.XContentBuilder;
import org.elasticsearch.xcontent.XContentFactory;
import org.elasticsearch.xcontent.XContentType;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Starts a report in the background: resolves its concrete indices (after security has narrowed them to the caller's),
 * registers the report's task, stores its record as running, answers the id, then runs the report as the caller,
 * recording its progress every few seconds and, at the end, its response or its error. Nothing is stored as a task
 * result: {@code GET _tasks/<id>} shows the task while it runs and nothing once it has ended.
 */
public final class TransportAsyncDuplicatesAction extends HandledTransportAction<AsyncDuplicatesRequest, AsyncDuplicatesResponse> {

    private static final Logger LOGGER = LogManager.getLogger(TransportAsyncDuplicatesAction.class);

    /** How often a running report's progress is written to its record. */
    static final TimeValue PROGRESS_INTERVAL = TimeValue.timeValueSeconds(3);

    private final TaskManager taskManager;
    private final ClusterService clusterService;
    private final IndexNameExpressionResolver resolver;
    private final TransportDuplicatesAction reports;
    private final ReportStore store;
    private final ThreadPool threadPool;

    @Inject
    public TransportAsyncDuplicatesAction(TransportService transportService, ActionFilters actionFilters, ClusterService clusterService,
                                          IndexNameExpressionResolver resolver, TransportDuplicatesAction reports, ReportStore store,
                                          ThreadPool threadPool) {
        super(AsyncDuplicatesAction.NAME, transportService, actionFilters, AsyncDuplicatesRequest::new,
            EsExecutors.DIRECT_EXECUTOR_SERVICE);
        this.taskManager = transportService.getTaskManager();
        this.clusterService = clusterService;
        this.resolver = resolver;
        this.reports = reports;
        this.store = store;
        this.threadPool = threadPool;
    }

    @Override
    protected void doExecute(Task task, AsyncDuplicatesRequest request, ActionListener<AsyncDuplicatesResponse> listener) {
        DuplicatesRequest report = request.report();
        String[] concrete;
        try {
            concrete = resolver.concreteIndexNames(clusterService.state(), report);
        } catch (RuntimeException e) {
            listener.onFailure(e);
            return;
        }
        // the report's own task, not a child of this one: it outlives this request, and its id is the report's id
        DuplicatesTask reportTask = (DuplicatesTask) taskManager.register("transport", DuplicatesAction.NAME, report);
        // the report's id is random, not the task's: an id tells nothing of other reports and cannot be guessed from one
        String id = UUIDs.randomBase64UUID();
        String taskId = new TaskId(clusterService.localNode().getId(), reportTask.getId()).toString();
        long start = reportTask.getStartTime();
        // who may read it is checked on the indices as the request names them once security resolved them: an alias the
        // caller may read stays an alias (its concrete index may be out of the caller's reach)
        ReportRecord record = ReportRecord.running(id, taskId, List.of(concrete), List.of(report.indices()), report.field(),
            report.writeGroupId(), start, start + request.keepAlive().millis());
        ActionListener<AsyncDuplicatesResponse> once = ActionListener.notifyOnce(listener);
        // running is stored before the report starts: a node that dies mid-report leaves a record that says so
        store.create(record, new ActionListener<>() {
            @Override
            public void onResponse(Void stored) {
                new Run(record, reportTask, report).start();
                once.onResponse(new AsyncDuplicatesResponse(id, taskId));
            }

            @Override
            public void onFailure(Exception e) {
                taskManager.unregister(reportTask);
                once.onFailure(e);
            }
        });
    }

    /** The JSON form of a response or status, as stored in the record. */
    static Map<String, Object> toMap(ToXContent content) throws IOException {
        BytesReference bytes = XContentHelper.toXContent(content, XContentType.JSON, false);
        return XContentHelper.convertToMap(bytes, true, XContentType.JSON).v2();
    }

    /** The JSON form of an error ({@code type}, {@code reason}, causes) with its HTTP status, as stored in the record. */
    static Map<String, Object> errorMap(Exception e) {
        try (XContentBuilder b = XContentFactory.jsonBuilder()) {
            b.startObject();
            ElasticsearchException.generateThrowableXContent(b, ToXContent.EMPTY_PARAMS, e);
            b.endObject();
            Map<String, Object> m = new LinkedHashMap<>(XContentHelper.convertToMap(BytesReference.bytes(b), true, XContentType.JSON).v2());
            m.put("status", ExceptionsHelper.status(e).getStatus());
            return m;
        } catch (IOException | RuntimeException io) {
            return Map.of("type", "exception", "reason", String.valueOf(e.getMessage()));
        }
    }

    /**
     * One background report: its record is written by one write at a time (progress, then the end), so a late
     * progress write never overwrites the end; the task is unregistered only after the end is recorded, so a task that
     * is gone while its record still says running means the report was interrupted.
     */
    private final class Run {
        private final ReportRecord record;
        private final DuplicatesTask task;
        private final DuplicatesRequest report;
        private Scheduler.Cancellable progress;
        private boolean writing;
        private boolean finished;
        private Map<String, Object> pendingEnd;

        Run(ReportRecord record, DuplicatesTask task, DuplicatesRequest report) {
            this.record = record;
            this.task = task;
            this.report = report;
        }

        void start() {
            synchronized (this) {
                try {
                    progress = threadPool.scheduleWithFixedDelay(this::recordProgress, PROGRESS_INTERVAL, threadPool.generic());
                } catch (RuntimeException e) {
                    // the node is shutting down: the report still runs (and is cancelled with the node), without progress
                    LOGGER.debug("no progress recording for simhash report [" + record.id() + "]", e);
                }
            }
            reports.execute(task, report, ActionListener.notifyOnce(new ActionListener<>() {
                @Override
                public void onResponse(DuplicatesResponse response) {
                    Map<String, Object> result;
                    try {
                        result = toMap(response);
                    } catch (IOException | RuntimeException e) {
                        end(ReportRecord.State.FAILED, null, errorMap(e));
                        return;
                    }
                    end(ReportRecord.State.COMPLETED, result, null);
                }

                @Override
                public void onFailure(Exception e) {
                    end(task.isCancelled() ? ReportRecord.State.CANCELLED : ReportRecord.State.FAILED, null, errorMap(e));
                }
            }));
        }

        private Map<String, Object> status() {
            try {
                return toMap(task.getStatus());
            } catch (IOException | RuntimeException e) {
                return null;
            }
        }

        private void recordProgress() {
            synchronized (this) {
                if (finished || writing) {
                    return;
                }
                writing = true;
            }
            Map<String, Object> status = status();
            if (status == null) {
                afterWrite();
                return;
            }
            // a record deleted meanwhile is not created again: updates only
            store.update(record.id(), Map.of("status", status), ActionListener.running(this::afterWrite));
        }

        private void afterWrite() {
            Map<String, Object> end;
            synchronized (this) {
                writing = false;
                end = pendingEnd;
                pendingEnd = null;
                if (end != null) {
                    writing = true;
                }
            }
            if (end != null) {
                writeEnd(end);
            }
        }

        private void end(ReportRecord.State state, Map<String, Object> response, Map<String, Object> error) {
            Map<String, Object> doc = record.finished(state, status(), response, error).toSource();
            synchronized (this) {
                finished = true;
                if (progress != null) {
                    progress.cancel();
                }
                if (writing) {
                    pendingEnd = doc;
                    return;
                }
                writing = true;
            }
            writeEnd(doc);
        }

        private void writeEnd(Map<String, Object> doc) {
            store.update(record.id(), doc, ActionListener.runAfter(ActionListener.wrap(v -> {}, e -> {
                // deleted or expired meanwhile: nothing to record
                LOGGER.debug(() -> "could not record the end of simhash report [" + record.id() + "]", e);
            }), () -> taskManager.unregister(task)));
        }
    }
}
