package dev.simhash.compat;

import org.elasticsearch.cluster.node.DiscoveryNodes;
import org.elasticsearch.features.NodeFeature;
import org.elasticsearch.rest.RestHandler;

import java.util.Collection;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Base of the plugin class for its REST handlers: 9.5 hands REST handlers a services object. Subclasses give
 * {@link #restHandlers}; transport actions are {@link CompatActionHandlers}'.
 */
public abstract class CompatActionPlugin extends CompatActionHandlers {

    @Override
    public final Collection<RestHandler> getRestHandlers(RestHandlersServices services, Supplier<DiscoveryNodes> nodesInCluster,
                                                         Predicate<NodeFeature> clusterSupportsFeature) {
        return restHandlers(clusterSupportsFeature);
    }

    /** The plugin's REST handlers. */
    protected abstract Collection<RestHandler> restHandlers(Predicate<NodeFeature> clusterSupportsFeature);
}
