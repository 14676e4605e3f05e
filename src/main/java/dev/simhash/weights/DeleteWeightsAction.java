package dev.simhash.weights;

import dev.simhash.compat.CompatProjectCustom;

import org.elasticsearch.ElasticsearchStatusException;
import org.elasticsearch.ResourceNotFoundException;
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
import org.elasticsearch.cluster.metadata.IndexMetadata;
import org.elasticsearch.cluster.metadata.MappingMetadata;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code DELETE _simhash/weights/<name>}, on the master: 404 for a table that does not exist, 409 naming the pipelines and
 * index fields that use it (their fingerprints would fail without it); otherwise the table leaves the cluster state.
 */
public final class DeleteWeightsAction {

    public static final String NAME = "cluster:admin/simhash/weights/delete";
    public static final ActionType<AcknowledgedResponse> INSTANCE = new ActionType<>(NAME);
    /** Users named in the refusal at most (the count is always given). */
    static final int MAX_USERS_LISTED = 10;

    private DeleteWeightsAction() {}

    /** The name of the table to delete. */
    public static final class Request extends AcknowledgedRequest<Request> {
        private final String name;

        public Request(String name) {
            super(TRAPPY_IMPLICIT_DEFAULT_MASTER_NODE_TIMEOUT, DEFAULT_ACK_TIMEOUT);
            this.name = name;
        }

        public Request(StreamInput in) throws IOException {
            super(in);
            this.name = in.readString();
        }

        @Override
        public void writeTo(StreamOutput out) throws IOException {
            super.writeTo(out);
            out.writeString(name);
        }

        @Override
        public ActionRequestValidationException validate() {
            return null;
        }

        public String name() {
            return name;
        }
    }

    static ResourceNotFoundException notFound(String name) {
        return new ResourceNotFoundException("feature-weight table [" + name + "] not found");
    }

    /** The pipelines and index fields that use the table, e.g. {@code pipeline [p]}, {@code index [i] field [body.simhash]}. */
    static List<String> users(CompatProjectCustom.Access access, ClusterState state, String name) {
        List<String> users = new ArrayList<>();
        for (Map.Entry<String, Map<String, Object>> p : access.pipelines(state).entrySet()) {
            if (WeightsUsage.inPipeline(p.getValue(), name)) {
                users.add("pipeline [" + p.getKey() + "]");
            }
        }
        for (IndexMetadata index : access.indices(state)) {
            MappingMetadata mapping = index.mapping();
            if (mapping != null) {
                for (String field : WeightsUsage.inMapping(mapping.sourceAsMap(), name)) {
                    users.add("index [" + index.getIndex().getName() + "] field [" + field + "]");
                }
            }
        }
        return users;
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
            String name = request.name();
            clusterService.submitUnbatchedStateUpdateTask("simhash-delete-weights [" + name + "]",
                new AckedClusterStateUpdateTask(request, listener) {
                    @Override
                    public ClusterState execute(ClusterState current) {
                        WeightsMetadata m = access.custom(current, WeightsMetadata.TYPE);
                        if (m == null || !m.tables().containsKey(name)) {
                            throw notFound(name);
                        }
                        List<String> users = users(access, current, name);
                        if (!users.isEmpty()) {
                            throw new ElasticsearchStatusException("feature-weight table [" + name + "] is in use by " + users.size() + ": "
                                + String.join(", ", users.subList(0, Math.min(MAX_USERS_LISTED, users.size())))
                                + (users.size() > MAX_USERS_LISTED ? ", ..." : "")
                                + "; delete or change those first (a mapping's field keeps its table: reindex into a new index)",
                                RestStatus.CONFLICT);
                        }
                        return access.withCustom(current, WeightsMetadata.TYPE, m.without(name));
                    }
                });
        }

        @Override
        protected ClusterBlockException checkBlock(Request request, ClusterState state) {
            return state.blocks().globalBlockedException(ClusterBlockLevel.METADATA_WRITE);
        }
    }
}
