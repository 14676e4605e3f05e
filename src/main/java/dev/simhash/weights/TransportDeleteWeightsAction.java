package dev.simhash.weights;

import dev.simhash.compat.CompatProjectCustom;

import org.elasticsearch.ElasticsearchStatusException;
import org.elasticsearch.action.ActionListener;
import org.elasticsearch.action.support.ActionFilters;
import org.elasticsearch.action.support.master.AcknowledgedResponse;
import org.elasticsearch.action.support.master.AcknowledgedTransportMasterNodeAction;
import org.elasticsearch.cluster.ClusterState;
import org.elasticsearch.cluster.block.ClusterBlockException;
import org.elasticsearch.cluster.block.ClusterBlockLevel;
import org.elasticsearch.cluster.metadata.ComponentTemplate;
import org.elasticsearch.cluster.metadata.ComposableIndexTemplate;
import org.elasticsearch.cluster.metadata.IndexMetadata;
import org.elasticsearch.cluster.metadata.IndexTemplateMetadata;
import org.elasticsearch.cluster.metadata.MappingMetadata;
import org.elasticsearch.cluster.metadata.Template;
import org.elasticsearch.cluster.service.ClusterService;
import org.elasticsearch.common.compress.CompressedXContent;
import org.elasticsearch.common.util.concurrent.EsExecutors;
import org.elasticsearch.common.xcontent.XContentHelper;
import org.elasticsearch.injection.guice.Inject;
import org.elasticsearch.rest.RestStatus;
import org.elasticsearch.tasks.Task;
import org.elasticsearch.threadpool.ThreadPool;
import org.elasticsearch.transport.TransportService;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Runs {@link DeleteWeightsAction} on the master: 404 for a table that does not exist, 409 naming the pipelines, index fields
 * and index templates that use it; otherwise the table leaves the cluster state.
 */
public final class TransportDeleteWeightsAction extends AcknowledgedTransportMasterNodeAction<DeleteWeightsRequest> {

    /** Users named in the refusal at most (the count is always given). */
    static final int MAX_USERS_LISTED = 10;

    private final CompatProjectCustom.Access access;
    private final WeightsChanges changes;

    @Inject
    public TransportDeleteWeightsAction(TransportService transportService, ClusterService clusterService, ThreadPool threadPool,
                                        ActionFilters actionFilters, CompatProjectCustom.Access access, WeightsChanges changes) {
        super(DeleteWeightsAction.NAME, transportService, clusterService, threadPool, actionFilters, DeleteWeightsRequest::new,
            EsExecutors.DIRECT_EXECUTOR_SERVICE);
        this.access = access;
        this.changes = changes;
    }

    @Override
    protected void masterOperation(Task task, DeleteWeightsRequest request, ClusterState state,
                                   ActionListener<AcknowledgedResponse> listener) {
        changes.submit("simhash-delete-weights [" + request.name() + "]", new Delete(access, request, listener), request);
    }

    @Override
    protected ClusterBlockException checkBlock(DeleteWeightsRequest request, ClusterState state) {
        return state.blocks().globalBlockedException(ClusterBlockLevel.METADATA_WRITE);
    }

    /**
     * The pipelines, index fields and index templates' fields that use the table, e.g. {@code pipeline [p]},
     * {@code index [i] field [body.simhash]}, {@code index template [t] field [body.simhash]},
     * {@code component template [c] dynamic template [d]}, {@code legacy template [l] field [f]}.
     */
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
                addMappingUsers(users, "index [" + index.getIndex().getName() + "]", mapping.sourceAsMap(), name);
            }
        }
        users.addAll(templateUsers(access.composableTemplates(state), access.componentTemplates(state), access.legacyTemplates(state),
            name));
        return users;
    }

    /**
     * The fields and dynamic templates of composable index templates, component templates and legacy templates whose
     * mappings use the table: an index created from them would fail (each template is named by its own kind and name,
     * sorted, so the answer is stable).
     */
    static List<String> templateUsers(Map<String, ComposableIndexTemplate> composable, Map<String, ComponentTemplate> components,
                                      Map<String, IndexTemplateMetadata> legacy, String name) {
        List<String> users = new ArrayList<>();
        for (Map.Entry<String, ComposableIndexTemplate> t : new TreeMap<>(composable).entrySet()) {
            Template template = t.getValue().template();
            addTemplateUsers(users, "index template [" + t.getKey() + "]", template == null ? null : template.mappings(), name);
        }
        for (Map.Entry<String, ComponentTemplate> t : new TreeMap<>(components).entrySet()) {
            Template template = t.getValue().template();
            addTemplateUsers(users, "component template [" + t.getKey() + "]", template == null ? null : template.mappings(), name);
        }
        for (Map.Entry<String, IndexTemplateMetadata> t : new TreeMap<>(legacy).entrySet()) {
            addTemplateUsers(users, "legacy template [" + t.getKey() + "]", t.getValue().mappings(), name);
        }
        return users;
    }

    private static void addTemplateUsers(List<String> users, String owner, CompressedXContent mappings, String name) {
        if (mappings != null) {
            addMappingUsers(users, owner, WeightsUsage.unwrapType(XContentHelper.convertToMap(mappings.compressedReference(), true).v2()),
                name);
        }
    }

    private static void addMappingUsers(List<String> users, String owner, Map<String, ?> mapping, String name) {
        for (String field : WeightsUsage.inMapping(mapping, name)) {
            users.add(owner + " field [" + field + "]");
        }
        for (String dynamic : WeightsUsage.inDynamicTemplates(mapping, name)) {
            users.add(owner + " dynamic template [" + dynamic + "]");
        }
    }

    /** The error of a table that is in use: 409 naming (the first of) its users. */
    static ElasticsearchStatusException inUse(String name, List<String> users) {
        return new ElasticsearchStatusException("feature-weight table [" + name + "] is in use by " + users.size() + ": "
            + String.join(", ", users.subList(0, Math.min(MAX_USERS_LISTED, users.size())))
            + (users.size() > MAX_USERS_LISTED ? ", ..." : "")
            + "; delete or change those first (a mapping's field keeps its table: reindex into a new index)", RestStatus.CONFLICT);
    }

    /**
     * Deleting the table, as a change of the master's batch: on the tables the changes before it in the batch left; its
     * users are read from the batch's state (the batch changes only tables).
     */
    static final class Delete extends WeightsChanges.Change {
        private final CompatProjectCustom.Access access;
        private final String name;

        Delete(CompatProjectCustom.Access access, DeleteWeightsRequest request, ActionListener<AcknowledgedResponse> listener) {
            super(request, listener);
            this.access = access;
            this.name = request.name();
        }

        @Override
        WeightsMetadata apply(WeightsMetadata tables, ClusterState state) {
            if (!tables.tables().containsKey(name)) {
                throw WeightsRegistry.notFound(name);
            }
            List<String> users = users(access, state, name);
            if (!users.isEmpty()) {
                throw inUse(name, users);
            }
            return tables.without(name);
        }

        @Override
        public String toString() {
            return "delete [" + name + "]";
        }
    }
}
