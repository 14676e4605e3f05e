package dev.simhash.compat;

import org.elasticsearch.cluster.metadata.IndexNameExpressionResolver;
import org.elasticsearch.action.ActionRequest;
import org.elasticsearch.action.ActionResponse;
import org.elasticsearch.action.ActionType;
import org.elasticsearch.action.support.TransportAction;
import org.elasticsearch.cluster.node.DiscoveryNodes;
import org.elasticsearch.common.io.stream.NamedWriteableRegistry;
import org.elasticsearch.common.settings.ClusterSettings;
import org.elasticsearch.common.settings.IndexScopedSettings;
import org.elasticsearch.common.settings.Settings;
import org.elasticsearch.common.settings.SettingsFilter;
import org.elasticsearch.features.NodeFeature;
import org.elasticsearch.plugins.ActionPlugin;
import org.elasticsearch.plugins.Plugin;
import org.elasticsearch.rest.RestController;
import org.elasticsearch.rest.RestHandler;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Base of the plugin class for its REST handlers and components: 8.19 (as 9.2) gives REST handlers the node's services
 * as separate arguments. Subclasses give {@link #restHandlers} and {@link #actions}; {@link CompatIndices} is
 * a component, injected into transport actions.
 */
public abstract class CompatActionPlugin extends Plugin implements ActionPlugin {

    @Override
    public final Collection<?> createComponents(PluginServices services) {
        // CompatIndices is injected into the transport actions that read index settings from the cluster state
        java.util.List<Object> all = new java.util.ArrayList<>(List.of(CompatIndices.of(services)));
        all.addAll(components(services));
        return all;
    }

    /** The plugin's other components (injected into its transport actions), created once when the node is built. */
    protected Collection<?> components(PluginServices services) {
        return List.of();
    }

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

    /** A transport action of the plugin: its type and its implementation. */
    public record Action<Q extends ActionRequest, R extends ActionResponse>(ActionType<R> type,
                                                                          Class<? extends TransportAction<Q, R>> transport) {}

    /** The plugin's transport actions. */
    protected abstract List<Action<?, ?>> actions();

    @Override
    public final Collection<ActionHandler<? extends ActionRequest, ? extends ActionResponse>> getActions() {
        List<ActionHandler<? extends ActionRequest, ? extends ActionResponse>> handlers = new ArrayList<>();
        for (Action<?, ?> action : actions()) {
            handlers.add(handler(action));
        }
        return handlers;
    }

    private static <Q extends ActionRequest, R extends ActionResponse> ActionHandler<Q, R> handler(Action<Q, R> action) {
        return new ActionHandler<>(action.type(), action.transport());
    }
}
