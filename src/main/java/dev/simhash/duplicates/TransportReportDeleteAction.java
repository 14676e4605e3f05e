package dev.simhash.duplicates;

import org.elasticsearch.ExceptionsHelper;
import org.elasticsearch.ResourceNotFoundException;
import org.elasticsearch.action.ActionListener;
import org.elasticsearch.action.support.ActionFilters;
import org.elasticsearch.action.support.HandledTransportAction;
import org.elasticsearch.action.support.SubscribableListener;
import org.elasticsearch.action.support.master.AcknowledgedResponse;
import org.elasticsearch.client.internal.node.NodeClient;
import org.elasticsearch.common.util.concurrent.EsExecutors;
import org.elasticsearch.injection.guice.Inject;
import org.elasticsearch.tasks.Task;
import org.elasticsearch.transport.TransportService;

/**
 * Answers {@code DELETE _simhash/duplicates/<id>} for a caller who may read the report's indices: cancels the report
 * if it runs (waiting for it to stop, so that its end is not recorded after the deletion) and deletes its record.
 */
public final class TransportReportDeleteAction extends HandledTransportAction<ReportDeleteRequest, AcknowledgedResponse> {

    private final ReportStore store;
    private final ReportAccess access;

    @Inject
    public TransportReportDeleteAction(TransportService transportService, ActionFilters actionFilters, NodeClient client,
                                       ReportStore store) {
        super(ReportDeleteAction.NAME, transportService, actionFilters, ReportDeleteRequest::new, EsExecutors.DIRECT_EXECUTOR_SERVICE);
        this.store = store;
        this.access = new ReportAccess(store, client);
    }

    @Override
    protected void doExecute(Task task, ReportDeleteRequest request, ActionListener<AcknowledgedResponse> listener) {
        // the chain below answers from several callbacks: exactly one answer whatever happens
        ActionListener<AcknowledgedResponse> once = ActionListener.notifyOnce(listener);
        access.find(request.id(), once.delegateFailureAndWrap((l, record) -> {
            SubscribableListener<Void> stopped = new SubscribableListener<>();
            if (record.state() == ReportRecord.State.RUNNING) {
                store.cancel(record.task(), new ActionListener<>() {
                    @Override
                    public void onResponse(Void v) {
                        stopped.onResponse(null);
                    }

                    @Override
                    public void onFailure(Exception e) {
                        // an interrupted report's task is gone: nothing to cancel
                        if (ExceptionsHelper.unwrapCause(e) instanceof ResourceNotFoundException) {
                            stopped.onResponse(null);
                        } else {
                            stopped.onFailure(e);
                        }
                    }
                });
            } else {
                stopped.onResponse(null);
            }
            stopped.addListener(l.delegateFailureAndWrap((l2, v) -> store.delete(record.id(), l2.map(d -> AcknowledgedResponse.TRUE))));
        }));
    }
}
