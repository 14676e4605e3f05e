package dev.simhash.compat;

import org.elasticsearch.cluster.ClusterName;
import org.elasticsearch.cluster.ClusterState;
import org.elasticsearch.cluster.metadata.IndexMetadata;
import org.elasticsearch.cluster.metadata.ProjectId;
import org.elasticsearch.cluster.metadata.ProjectMetadata;
import org.elasticsearch.cluster.project.TestProjectResolvers;
import org.elasticsearch.plugins.Plugin;

import java.lang.reflect.Proxy;

/** Cluster states and the plugin's access to them for unit tests: 9.1 and later keep indices and customs in the default project. */
public final class CompatTestState {

    private CompatTestState() {}

    /** The access a node of one (the default) project has. */
    public static CompatProjectCustom.Access access() {
        // the access asks the services for the project resolver only
        Plugin.PluginServices services = (Plugin.PluginServices) Proxy.newProxyInstance(CompatTestState.class.getClassLoader(),
            new Class<?>[] {Plugin.PluginServices.class}, (proxy, method, args) -> {
                if (method.getName().equals("projectResolver")) {
                    return TestProjectResolvers.DEFAULT_PROJECT_ONLY;
                }
                throw new UnsupportedOperationException(method.getName());
            });
        return CompatProjectCustom.Access.of(services);
    }

    /** A state whose default project holds those indices and nothing else. */
    public static ClusterState state(IndexMetadata... indices) {
        ProjectMetadata.Builder project = ProjectMetadata.builder(ProjectId.DEFAULT);
        for (IndexMetadata index : indices) {
            project.put(index, false);
        }
        return ClusterState.builder(ClusterName.DEFAULT).putProjectMetadata(project).build();
    }
}
