package dev.simhash.compat;

import org.elasticsearch.cluster.metadata.IndexAbstraction;
import org.elasticsearch.cluster.metadata.IndexMetadata;
import org.elasticsearch.cluster.service.ClusterService;
import org.elasticsearch.ingest.IngestService;
import org.elasticsearch.plugins.Plugin;

import java.util.SortedMap;

/**
 * The metadata of the caller's indices in the node's current cluster state: 8.19 and 9.0 have one metadata for the
 * whole cluster. A plugin component: transport actions get it injected.
 */
public final class CompatIndices {

    private final ClusterService clusterService;

    private CompatIndices(ClusterService clusterService) {
        this.clusterService = clusterService;
    }

    public static CompatIndices of(Plugin.PluginServices services) {
        return new CompatIndices(services.clusterService());
    }

    /** The same, for an ingest processor (created before the plugin's components). */
    public static CompatIndices of(IngestService ingest) {
        return new CompatIndices(ingest.getClusterService());
    }

    /** The indices, aliases and data streams of the cluster state by name. */
    public SortedMap<String, IndexAbstraction> lookup() {
        return clusterService.state().metadata().getIndicesLookup();
    }

    /** The index's metadata, or null when the cluster state has no such index (e.g. a remote cluster's). */
    public IndexMetadata index(String name) {
        return clusterService.state().metadata().index(name);
    }
}
