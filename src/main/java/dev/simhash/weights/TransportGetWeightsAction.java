package dev.simhash.weights;

import org.elasticsearch.ExceptionsHelper;
import org.elasticsearch.action.ActionListener;
import org.elasticsearch.action.support.ActionFilters;
import org.elasticsearch.action.support.GroupedActionListener;
import org.elasticsearch.action.support.HandledTransportAction;
import org.elasticsearch.client.internal.node.NodeClient;
import org.elasticsearch.common.util.concurrent.EsExecutors;
import org.elasticsearch.injection.guice.Inject;
import org.elasticsearch.rest.RestStatus;
import org.elasticsearch.tasks.Task;
import org.elasticsearch.transport.TransportService;

import java.util.List;

/**
 * Runs {@link GetWeightsAction}: answers from the local registry (the node's copy of the cluster state). Features reveal the
 * vocabulary of the index a table was computed from, so they are read through {@link WeightsFeaturesAction} as the caller:
 * with {@code read} on the table's source index, or with {@code manage}.
 */
public final class TransportGetWeightsAction extends HandledTransportAction<GetWeightsRequest, GetWeightsResponse> {
    private final WeightsRegistry registry;
    private final NodeClient client;

    @Inject
    public TransportGetWeightsAction(TransportService transportService, ActionFilters actionFilters, WeightsRegistry registry,
                                     NodeClient client) {
        super(GetWeightsAction.NAME, transportService, actionFilters, GetWeightsRequest::new, EsExecutors.DIRECT_EXECUTOR_SERVICE);
        this.registry = registry;
        this.client = client;
    }

    @Override
    protected void doExecute(Task task, GetWeightsRequest request, ActionListener<GetWeightsResponse> listener) {
        List<WeightsTable> tables;
        if (request.name() != null) {
            WeightsTable t = registry.get(request.name());
            if (t == null) {
                listener.onFailure(WeightsRegistry.notFound(request.name()));
                return;
            }
            tables = List.of(t);
        } else {
            tables = List.copyOf(registry.tables().values());
        }
        if (request.featureLimit() == 0 || tables.isEmpty()) {
            listener.onResponse(new GetWeightsResponse(request.name(), tables, request.featureLimit()));
            return;
        }
        WeightsTable[] read = new WeightsTable[tables.size()];
        GroupedActionListener<Void> all = new GroupedActionListener<>(tables.size(),
            listener.map(ignored -> new GetWeightsResponse(request.name(), List.of(read), request.featureLimit())));
        for (int i = 0; i < tables.size(); i++) {
            int slot = i;
            features(task, tables.get(i), all.map(r -> {
                read[slot] = r.table();
                return null;
            }));
        }
    }

    /** The table's features as the caller: by read on its source index, else (or for uploads) by manage. */
    private void features(Task task, WeightsTable table, ActionListener<WeightsFeaturesResponse> listener) {
        String[] source = WeightsFeaturesAction.sourceIndices(table);
        WeightsFeaturesRequest admin = new WeightsFeaturesRequest(table.name(), null);
        admin.setParentTask(client.getLocalNodeId(), task.getId());
        if (source == null) {
            client.execute(WeightsFeaturesAction.ADMIN, admin, listener);
            return;
        }
        WeightsFeaturesRequest read = new WeightsFeaturesRequest(table.name(), source);
        read.setParentTask(client.getLocalNodeId(), task.getId());
        client.execute(WeightsFeaturesAction.READ, read, listener.delegateResponse((l, denied) -> {
            if (ExceptionsHelper.status(denied) != RestStatus.FORBIDDEN) {
                l.onFailure(denied);
                return;
            }
            // no read on the source index: manage still may; if not, the index privilege is the one to name
            client.execute(WeightsFeaturesAction.ADMIN, admin, l.delegateResponse((l2, e) -> l2.onFailure(denied)));
        }));
    }
}
