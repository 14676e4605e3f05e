package dev.simhash.compat;

import org.elasticsearch.cluster.metadata.IndexAbstraction;
import org.elasticsearch.cluster.metadata.IndexMetadata;
import org.elasticsearch.cluster.project.ProjectResolver;
import org.elasticsearch.cluster.service.ClusterService;
import org.elasticsearch.ingest.IngestService;
import org.elasticsearch.plugins.Plugin;

import java.util.SortedMap;
import java.util.function.Supplier;

/**
 * The metadata of the caller's indices in the node's current cluster state: 9.1 and later look them up in the caller's
 * project. A plugin component: transport actions get it injected.
 */
public final class CompatIndices {

    private final ClusterService clusterService;
    // looked up when used: the ingest service is given its resolver after it creates the processor factories
    private final Supplier<ProjectResolver> projectResolver;

    private CompatIndices(ClusterService clusterService, Supplier<ProjectResolver> projectResolver) {
        this.clusterService = clusterService;
        this.projectResolver = projectResolver;
    }

    public static CompatIndices of(Plugin.PluginServices services) {
        ProjectResolver resolver = services.projectResolver();
        return new CompatIndices(services.clusterService(), () -> resolver);
    }

    /** The same, for an ingest processor (created before the plugin's components). */
    public static CompatIndices of(IngestService ingest) {
        return new CompatIndices(ingest.getClusterService(), ingest::getProjectResolver);
    }

    /** The resolver of the caller's project (for Elasticsearch's own action bases). */
    ProjectResolver projectResolver() {
        return projectResolver.get();
    }

    /** The indices, aliases and data streams of the cluster state by name. */
    public SortedMap<String, IndexAbstraction> lookup() {
        return projectResolver.get().getProjectMetadata(clusterService.state()).getIndicesLookup();
    }

    /** The index's metadata, or null when the cluster state has no such index (e.g. a remote cluster's). */
    public IndexMetadata index(String name) {
        return projectResolver.get().getProjectMetadata(clusterService.state()).index(name);
    }
}
