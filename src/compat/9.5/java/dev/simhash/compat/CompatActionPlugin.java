package dev.simhash.compat;

import org.elasticsearch.cluster.node.DiscoveryNodes;
import org.elasticsearch.features.NodeFeature;
import org.elasticsearch.plugins.ActionPlugin;
import org.elasticsearch.plugins.Plugin;
import org.elasticsearch.rest.RestHandler;

import java.util.Collection;
import java.util.List;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Base of the plugin class for its REST handlers and components: 9.5 hands REST handlers a services object.
 * Subclasses give {@link #restHandlers} and receive {@link CompatIndices} once the node is built.
 */
public abstract class CompatActionPlugin extends Plugin implements ActionPlugin {

    @Override
    public final Collection<?> createComponents(PluginServices services) {
        CompatIndices indices = CompatIndices.of(services);
        onIndices(indices);
        return List.of(indices);
    }

    /** Called once, when the node creates the plugin's components. */
    protected abstract void onIndices(CompatIndices indices);

    @Override
    public final Collection<RestHandler> getRestHandlers(RestHandlersServices services, Supplier<DiscoveryNodes> nodesInCluster,
                                                         Predicate<NodeFeature> clusterSupportsFeature) {
        return restHandlers(clusterSupportsFeature);
    }

    /** The plugin's REST handlers. */
    protected abstract Collection<RestHandler> restHandlers(Predicate<NodeFeature> clusterSupportsFeature);
}
