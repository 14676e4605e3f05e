package dev.simhash.compat;

import org.elasticsearch.cluster.metadata.IndexNameExpressionResolver;
import org.elasticsearch.cluster.node.DiscoveryNodes;
import org.elasticsearch.common.io.stream.NamedWriteableRegistry;
import org.elasticsearch.common.settings.ClusterSettings;
import org.elasticsearch.common.settings.IndexScopedSettings;
import org.elasticsearch.common.settings.Settings;
import org.elasticsearch.common.settings.SettingsFilter;
import org.elasticsearch.features.NodeFeature;
import org.elasticsearch.rest.RestController;
import org.elasticsearch.rest.RestHandler;

import java.util.Collection;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Base of the plugin class for its REST handlers: up to 9.3, Elasticsearch gives REST handlers the node's services as
 * separate arguments. Subclasses give {@link #restHandlers}; transport actions are {@link CompatActionHandlers}'.
 */
public abstract class CompatActionPlugin extends CompatActionHandlers {

    @Override
    public final Collection<RestHandler> getRestHandlers(Settings settings, NamedWriteableRegistry namedWriteableRegistry,
                                                         RestController restController, ClusterSettings clusterSettings,
                                                         IndexScopedSettings indexScopedSettings, SettingsFilter settingsFilter,
                                                         IndexNameExpressionResolver indexNameExpressionResolver,
                                                         Supplier<DiscoveryNodes> nodesInCluster,
                                                         Predicate<NodeFeature> clusterSupportsFeature) {
        return restHandlers(clusterSupportsFeature);
    }

    /** The plugin's REST handlers. */
    protected abstract Collection<RestHandler> restHandlers(Predicate<NodeFeature> clusterSupportsFeature);
}
