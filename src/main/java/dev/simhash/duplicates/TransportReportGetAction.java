package dev.simhash.duplicates;

import org.elasticsearch.ExceptionsHelper;
import org.elasticsearch.ResourceNotFoundException;
import org.elasticsearch.action.ActionListener;
import org.elasticsearch.action.admin.cluster.node.tasks.get.GetTaskRequest;
import org.elasticsearch.action.support.ActionFilters;
import org.elasticsearch.action.support.HandledTransportAction;
import org.elasticsearch.client.internal.node.NodeClient;
import org.elasticsearch.common.util.concurrent.EsExecutors;
import org.elasticsearch.injection.guice.Inject;
import org.elasticsearch.tasks.Task;
import org.elasticsearch.tasks.TaskId;
import org.elasticsearch.tasks.TaskInfo;
import org.elasticsearch.transport.TransportService;

import java.io.IOException;
import java.util.Map;

/**
 * Answers {@code GET _simhash/duplicates/<id>} for a caller who may read the report's indices: a running report with
 * its task's live progress, a finished one with its stored response or error, and a record still marked running whose
 * task is gone as interrupted.
 */
public final class TransportReportGetAction extends HandledTransportAction<ReportGetRequest, ReportGetResponse> {

    private final ReportStore store;
    private final ReportAccess access;

    @Inject
    public TransportReportGetAction(TransportService transportService, ActionFilters actionFilters, NodeClient client,
                                    ReportStore store) {
        super(ReportGetAction.NAME, transportService, actionFilters, ReportGetRequest::new, EsExecutors.DIRECT_EXECUTOR_SERVICE);
        this.store = store;
        this.access = new ReportAccess(store, client);
    }

    @Override
    protected void doExecute(Task task, ReportGetRequest request, ActionListener<ReportGetResponse> listener) {
        // the chain below answers from several callbacks: exactly one answer whatever happens
        ActionListener<ReportGetResponse> once = ActionListener.notifyOnce(listener);
        access.find(request.id(), once.delegateFailureAndWrap((l, record) -> {
            if (record.state() != ReportRecord.State.RUNNING) {
                l.onResponse(new ReportGetResponse(record.view(false, null)));
                return;
            }
            GetTaskRequest get = new GetTaskRequest().setTaskId(new TaskId(record.task()));
            store.internalClient().admin().cluster().getTask(get, new ActionListener<>() {
                @Override
                public void onResponse(org.elasticsearch.action.admin.cluster.node.tasks.get.GetTaskResponse response) {
                    TaskInfo info = response.getTask().getTask();
                    // task ids start again at 1 when a node restarts: the same id is the same report only with its start time
                    if (response.getTask().isCompleted() == false && DuplicatesAction.NAME.equals(info.action())
                        && info.startTime() == record.startMillis()) {
                        Map<String, Object> status = null;
                        if (info.status() != null) {
                            try {
                                status = TransportAsyncDuplicatesAction.toMap(info.status());
                            } catch (IOException | RuntimeException e) {
                                status = null;
                            }
                        }
                        l.onResponse(new ReportGetResponse(record.view(true, status)));
                    } else {
                        gone(record.id(), l);
                    }
                }

                @Override
                public void onFailure(Exception e) {
                    if (ExceptionsHelper.unwrapCause(e) instanceof ResourceNotFoundException) {
                        gone(record.id(), l);
                    } else {
                        l.onFailure(e);
                    }
                }
            });
        }));
    }

    /**
     * The task is gone: either it ended (its end is recorded before it is unregistered, so a second read shows it) or its
     * node stopped mid-report (the record still says running: interrupted).
     */
    private void gone(String id, ActionListener<ReportGetResponse> listener) {
        store.get(id, listener.delegateFailureAndWrap((l, again) -> {
            if (again == null) {
                l.onFailure(ReportAccess.notFound(id));
            } else {
                l.onResponse(new ReportGetResponse(again.view(false, null)));
            }
        }));
    }
}
