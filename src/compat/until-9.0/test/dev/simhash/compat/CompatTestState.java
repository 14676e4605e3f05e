package dev.simhash.compat;

import org.elasticsearch.cluster.ClusterName;
import org.elasticsearch.cluster.ClusterState;
import org.elasticsearch.cluster.metadata.IndexMetadata;
import org.elasticsearch.cluster.metadata.Metadata;

/** Cluster states and the plugin's access to them for unit tests: 8.19 and 9.0 have one metadata for the whole cluster. */
public final class CompatTestState {

    private CompatTestState() {}

    /** The access of a node (nothing is needed from the node's services). */
    public static CompatProjectCustom.Access access() {
        return CompatProjectCustom.Access.of(null);
    }

    /** A state whose metadata holds those indices and nothing else. */
    public static ClusterState state(IndexMetadata... indices) {
        Metadata.Builder metadata = Metadata.builder();
        for (IndexMetadata index : indices) {
            metadata.put(index, false);
        }
        return ClusterState.builder(ClusterName.DEFAULT).metadata(metadata).build();
    }
}
