package dev.simhash.compat;

import org.elasticsearch.cluster.metadata.IndexMetadata;
import org.elasticsearch.cluster.project.ProjectResolver;
import org.elasticsearch.cluster.service.ClusterService;
import org.elasticsearch.plugins.Plugin;

/**
 * The metadata of the caller's indices in the node's current cluster state: 9.1 and later look them up in the caller's
 * project. A plugin component: transport actions get it injected.
 */
public final class CompatIndices {

    private final ClusterService clusterService;
    private final ProjectResolver projectResolver;

    private CompatIndices(ClusterService clusterService, ProjectResolver projectResolver) {
        this.clusterService = clusterService;
        this.projectResolver = projectResolver;
    }

    public static CompatIndices of(Plugin.PluginServices services) {
        return new CompatIndices(services.clusterService(), services.projectResolver());
    }

    /** The index's metadata, or null when the cluster state has no such index (e.g. a remote cluster's). */
    public IndexMetadata index(String name) {
        return projectResolver.getProjectMetadata(clusterService.state()).index(name);
    }
}
