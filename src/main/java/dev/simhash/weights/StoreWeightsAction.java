package dev.simhash.weights;

import dev.simhash.compat.CompatProjectCustom;

import org.elasticsearch.ElasticsearchStatusException;
import org.elasticsearch.action.ActionListener;
import org.elasticsearch.action.ActionRequestValidationException;
import org.elasticsearch.action.ActionType;
import org.elasticsearch.action.support.ActionFilters;
import org.elasticsearch.action.support.master.AcknowledgedRequest;
import org.elasticsearch.action.support.master.AcknowledgedResponse;
import org.elasticsearch.action.support.master.AcknowledgedTransportMasterNodeAction;
import org.elasticsearch.cluster.AckedClusterStateUpdateTask;
import org.elasticsearch.cluster.ClusterState;
import org.elasticsearch.cluster.block.ClusterBlockException;
import org.elasticsearch.cluster.block.ClusterBlockLevel;
import org.elasticsearch.cluster.service.ClusterService;
import org.elasticsearch.common.io.stream.StreamInput;
import org.elasticsearch.common.io.stream.StreamOutput;
import org.elasticsearch.common.util.concurrent.EsExecutors;
import org.elasticsearch.injection.guice.Inject;
import org.elasticsearch.rest.RestStatus;
import org.elasticsearch.tasks.Task;
import org.elasticsearch.threadpool.ThreadPool;
import org.elasticsearch.transport.TransportService;

import java.io.IOException;

/**
 * Adds one table to the cluster state, on the master: refused when the name is taken (tables are immutable) or when the
 * cluster's tables would exceed {@link WeightsTable#MAX_TOTAL_FEATURES}. Internal: {@code PUT _simhash/weights/<name>} runs it
 * after uploading or computing the table; its name is under {@code cluster:admin}, the {@code manage} privilege.
 */
public final class StoreWeightsAction {

    public static final String NAME = "cluster:admin/simhash/weights/store";
    public static final ActionType<AcknowledgedResponse> INSTANCE = new ActionType<>(NAME);

    private StoreWeightsAction() {}

    /** The table to add. */
    public static final class Request extends AcknowledgedRequest<Request> {
        private final WeightsTable table;

        public Request(WeightsTable table) {
            super(TRAPPY_IMPLICIT_DEFAULT_MASTER_NODE_TIMEOUT, DEFAULT_ACK_TIMEOUT);
            this.table = table;
        }

        public Request(StreamInput in) throws IOException {
            super(in);
            this.table = WeightsMetadata.readTable(in);
        }

        @Override
        public void writeTo(StreamOutput out) throws IOException {
            super.writeTo(out);
            WeightsMetadata.writeTable(out, table);
        }

        @Override
        public ActionRequestValidationException validate() {
            return null;
        }

        public WeightsTable table() {
            return table;
        }
    }

    /** The error of a name that is taken: 409, tables are immutable. */
    static ElasticsearchStatusException exists(String name) {
        return new ElasticsearchStatusException("feature-weight table [" + name + "] already exists; tables are immutable: a new table is "
            + "a new name (delete the old one when nothing uses it)", RestStatus.CONFLICT);
    }

    /** Runs on the master. */
    public static final class Transport extends AcknowledgedTransportMasterNodeAction<Request> {
        private final CompatProjectCustom.Access access;

        @Inject
        public Transport(TransportService transportService, ClusterService clusterService, ThreadPool threadPool,
                         ActionFilters actionFilters, CompatProjectCustom.Access access) {
            super(NAME, transportService, clusterService, threadPool, actionFilters, Request::new, EsExecutors.DIRECT_EXECUTOR_SERVICE);
            this.access = access;
        }

        @Override
        protected void masterOperation(Task task, Request request, ClusterState state, ActionListener<AcknowledgedResponse> listener) {
            WeightsTable table = request.table();
            clusterService.submitUnbatchedStateUpdateTask("simhash-put-weights [" + table.name() + "]",
                new AckedClusterStateUpdateTask(request, listener) {
                    @Override
                    public ClusterState execute(ClusterState current) {
                        WeightsMetadata m = access.custom(current, WeightsMetadata.TYPE);
                        m = m == null ? WeightsMetadata.EMPTY : m;
                        if (m.tables().containsKey(table.name())) {
                            throw exists(table.name());
                        }
                        if (m.totalFeatures() + table.size() > WeightsTable.MAX_TOTAL_FEATURES) {
                            throw new IllegalArgumentException("[features] the cluster's feature-weight tables would hold "
                                + (m.totalFeatures() + table.size()) + " features, at most " + WeightsTable.MAX_TOTAL_FEATURES
                                + " are allowed (tables live in the cluster state); delete tables that are no longer used");
                        }
                        return access.withCustom(current, WeightsMetadata.TYPE, m.with(table));
                    }
                });
        }

        @Override
        protected ClusterBlockException checkBlock(Request request, ClusterState state) {
            return state.blocks().globalBlockedException(ClusterBlockLevel.METADATA_WRITE);
        }
    }
}
