package dev.simhash.weights;

import dev.simhash.compat.CompatProjectCustom;

import org.elasticsearch.action.ActionListener;
import org.elasticsearch.action.support.master.AcknowledgedRequest;
import org.elasticsearch.action.support.master.AcknowledgedResponse;
import org.elasticsearch.cluster.AckedBatchedClusterStateUpdateTask;
import org.elasticsearch.cluster.ClusterState;
import org.elasticsearch.cluster.ClusterStateTaskExecutor;
import org.elasticsearch.cluster.service.ClusterService;
import org.elasticsearch.cluster.service.MasterServiceTaskQueue;
import org.elasticsearch.common.Priority;
import org.elasticsearch.core.Releasable;

/**
 * The master's queue of changes to the feature-weight tables (adding and deleting one): changes waiting together run as one
 * batch, in the order they were submitted, each on the tables the ones before it left, and one cluster state is published
 * for all of them. A refused change (its exception) goes to its own caller only; a change that succeeded answers its caller
 * when the nodes have acknowledged the new state ({@code acknowledged: false} on an ack timeout), like every acked
 * metadata update.
 */
public final class WeightsChanges {

    static final String QUEUE_NAME = "simhash-weights";

    private final MasterServiceTaskQueue<Change> queue;

    public WeightsChanges(ClusterService clusterService, CompatProjectCustom.Access access) {
        // NORMAL: as the unbatched updates this queue replaced ran, and as ingest pipeline changes run
        this.queue = clusterService.createTaskQueue(QUEUE_NAME, Priority.NORMAL, new Executor(access));
    }

    /** Queues the change; it waits at most the request's master timeout for the master to run it. */
    void submit(String source, Change change, AcknowledgedRequest<?> request) {
        queue.submitTask(source, change, request.masterNodeTimeout());
    }

    /**
     * One change of the tables, answering its listener: with the acknowledgement once the published state is applied
     * (the ack listener is the task itself), or with the exception that refused it.
     */
    abstract static class Change extends AckedBatchedClusterStateUpdateTask {

        Change(AcknowledgedRequest<?> request, ActionListener<AcknowledgedResponse> listener) {
            super(request.ackTimeout(), listener);
        }

        /**
         * The tables after this change, or an exception (the status the caller gets) when it is refused.
         *
         * @param tables the tables as the changes before it in the batch left them
         * @param state  the cluster state the batch runs on: everything but the tables is as this change sees it
         */
        abstract WeightsMetadata apply(WeightsMetadata tables, ClusterState state);
    }

    /**
     * Runs a batch: threads the tables through the changes in order, then writes them into the state once; a batch whose
     * changes were all refused leaves the state as it was (nothing is published).
     */
    static final class Executor implements ClusterStateTaskExecutor<Change> {
        private final CompatProjectCustom.Access access;

        Executor(CompatProjectCustom.Access access) {
            this.access = access;
        }

        @Override
        public ClusterState execute(BatchExecutionContext<Change> batch) {
            ClusterState initial = batch.initialState();
            WeightsMetadata before = access.custom(initial, WeightsMetadata.TYPE);
            before = before == null ? WeightsMetadata.EMPTY : before;
            WeightsMetadata tables = before;
            for (TaskContext<Change> context : batch.taskContexts()) {
                Change change = context.getTask();
                WeightsMetadata after;
                try (Releasable ignored = context.captureResponseHeaders()) {
                    after = change.apply(tables, initial);
                } catch (Exception e) {
                    context.onFailure(e);
                    continue;
                }
                tables = after;
                context.success(change);
            }
            return tables == before ? initial : access.withCustom(initial, WeightsMetadata.TYPE, tables);
        }
    }
}
