package dev.simhash.weights;

import org.elasticsearch.ElasticsearchStatusException;
import org.elasticsearch.action.ActionListener;
import org.elasticsearch.action.support.ActionFilters;
import org.elasticsearch.action.support.master.AcknowledgedResponse;
import org.elasticsearch.action.support.master.AcknowledgedTransportMasterNodeAction;
import org.elasticsearch.cluster.ClusterState;
import org.elasticsearch.cluster.block.ClusterBlockException;
import org.elasticsearch.cluster.block.ClusterBlockLevel;
import org.elasticsearch.cluster.service.ClusterService;
import org.elasticsearch.common.util.concurrent.EsExecutors;
import org.elasticsearch.injection.guice.Inject;
import org.elasticsearch.rest.RestStatus;
import org.elasticsearch.tasks.Task;
import org.elasticsearch.threadpool.ThreadPool;
import org.elasticsearch.transport.TransportService;

/**
 * Runs {@link StoreWeightsAction} on the master: adds the table unless the name is taken or a limit would be exceeded.
 */
public final class TransportStoreWeightsAction extends AcknowledgedTransportMasterNodeAction<StoreWeightsRequest> {

    private final WeightsChanges changes;

    @Inject
    public TransportStoreWeightsAction(TransportService transportService, ClusterService clusterService, ThreadPool threadPool,
                                       ActionFilters actionFilters, WeightsChanges changes) {
        super(StoreWeightsAction.NAME, transportService, clusterService, threadPool, actionFilters, StoreWeightsRequest::new,
            EsExecutors.DIRECT_EXECUTOR_SERVICE);
        this.changes = changes;
    }

    @Override
    protected void masterOperation(Task task, StoreWeightsRequest request, ClusterState state,
                                   ActionListener<AcknowledgedResponse> listener) {
        changes.submit("simhash-put-weights [" + request.table().name() + "]", new Put(request, listener), request);
    }

    @Override
    protected ClusterBlockException checkBlock(StoreWeightsRequest request, ClusterState state) {
        return state.blocks().globalBlockedException(ClusterBlockLevel.METADATA_WRITE);
    }

    /** The error of a name that is taken: 409, tables are immutable. */
    static ElasticsearchStatusException exists(String name) {
        return new ElasticsearchStatusException("feature-weight table [" + name + "] already exists; tables are immutable: a new table is "
            + "a new name (delete the old one when nothing uses it)", RestStatus.CONFLICT);
    }

    /** The error of tables that would hold too many features together: 400. */
    static IllegalArgumentException tooManyFeatures(long total) {
        return new IllegalArgumentException("[features] the cluster's feature-weight tables would hold " + total + " features, at most "
            + WeightsTable.MAX_TOTAL_FEATURES + " are allowed (tables live in the cluster state); delete tables that are no longer used");
    }

    /** The error of tables that would hold too many bytes together: 400. */
    static IllegalArgumentException tooManyBytes(long total) {
        return new IllegalArgumentException("[features] the cluster's feature-weight tables would hold " + total + " bytes (UTF-8 bytes "
            + "of their features + " + WeightsTable.FACTOR_BYTES + " per factor), at most " + WeightsTable.MAX_TOTAL_BYTES
            + " are allowed (tables live in the cluster state); delete tables that are no longer used");
    }

    /** Adding the table, as a change of the master's batch: on the tables the changes before it in the batch left. */
    static final class Put extends WeightsChanges.Change {
        private final WeightsTable table;

        Put(StoreWeightsRequest request, ActionListener<AcknowledgedResponse> listener) {
            super(request, listener);
            this.table = request.table();
        }

        @Override
        WeightsMetadata apply(WeightsMetadata tables, ClusterState state) {
            if (tables.tables().containsKey(table.name())) {
                throw exists(table.name());
            }
            long total = tables.totalFeatures() + table.size();
            if (total > WeightsTable.MAX_TOTAL_FEATURES) {
                throw tooManyFeatures(total);
            }
            table.checkBytes();
            long bytes = tables.totalBytes() + table.bytes();
            if (bytes > WeightsTable.MAX_TOTAL_BYTES) {
                throw tooManyBytes(bytes);
            }
            return tables.with(table);
        }

        @Override
        public String toString() {
            return "put [" + table.name() + "]";
        }
    }
}
