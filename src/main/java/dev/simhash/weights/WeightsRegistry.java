package dev.simhash.weights;

import dev.simhash.compat.CompatProjectCustom;
import dev.simhash.core.FeatureWeights;
import dev.simhash.core.SimHash;

import org.elasticsearch.ResourceNotFoundException;
import org.elasticsearch.cluster.ClusterChangedEvent;
import org.elasticsearch.cluster.ClusterState;
import org.elasticsearch.cluster.ClusterStateApplier;
import org.elasticsearch.cluster.service.ClusterService;
import org.elasticsearch.gateway.GatewayService;

import java.util.Map;

/**
 * The node's feature-weight tables by name, as of the last applied cluster state: parsed once per node (when the cluster
 * state arrives) and shared by the processor, the field type and the query. Kept current by a high-priority cluster-state
 * applier, so it is updated before the ingest service re-creates pipelines and before indices are (re)opened, e.g. after a
 * restart. Users of a table look it up when they fingerprint, not only when they are configured.
 */
public final class WeightsRegistry implements FeatureWeights.Tables, ClusterStateApplier {

    private volatile CompatProjectCustom.Access access;
    private volatile WeightsMetadata current = WeightsMetadata.EMPTY;
    private volatile boolean recovered;

    /** Starts following the cluster state (called once, when the plugin's components are created). */
    public void start(ClusterService clusterService, CompatProjectCustom.Access access) {
        this.access = access;
        clusterService.addHighPriorityApplier(this);
    }

    @Override
    public void applyClusterState(ClusterChangedEvent event) {
        apply(event.state());
    }

    void apply(ClusterState state) {
        WeightsMetadata m = access.custom(state, WeightsMetadata.TYPE);
        current = m == null ? WeightsMetadata.EMPTY : m;
        recovered = !state.blocks().hasGlobalBlock(GatewayService.STATE_NOT_RECOVERED_BLOCK);
    }

    @Override
    public WeightsTable get(String name) {
        return current.tables().get(name);
    }

    /** Every table by name. */
    public Map<String, WeightsTable> tables() {
        return current.tables();
    }

    /**
     * Whether the node has applied a recovered cluster state: from then on a table that is not here does not exist, and
     * configurations (pipelines, mappings) naming it can be refused; before (a node starting) they are accepted and the
     * table is looked up when first used.
     */
    @Override
    public boolean recovered() {
        return recovered;
    }

    /** A table name from a URL, checked: the 400 that names it when it could never be a table's. */
    static String checkName(String name) {
        String reason = FeatureWeights.invalidNameReason(name);
        if (reason != null) {
            throw new IllegalArgumentException("invalid feature-weight table name [" + SimHash.abbreviate(name) + "]: " + reason);
        }
        return name;
    }

    /** The error of a table that does not exist: 404. */
    static ResourceNotFoundException notFound(String name) {
        return new ResourceNotFoundException("feature-weight table [" + name + "] not found");
    }
}
