package dev.simhash.compat;

import org.elasticsearch.action.ActionRequest;
import org.elasticsearch.action.ActionResponse;
import org.elasticsearch.action.ActionType;
import org.elasticsearch.action.support.TransportAction;
import org.elasticsearch.plugins.Plugin;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * What every Elasticsearch line shares at the base of the plugin class: the components (created once when the node is
 * built, injected into transport actions) and the description of the plugin's transport actions. The lines differ only
 * in how action handlers and REST handlers are handed over, which {@code CompatActionHandlers} and
 * {@code CompatActionPlugin} adapt.
 */
public abstract class CompatPluginBase extends Plugin {

    @Override
    public final Collection<?> createComponents(PluginServices services) {
        // CompatIndices is injected into the transport actions that read index settings from the cluster state
        List<Object> all = new ArrayList<>(List.of(CompatIndices.of(services)));
        all.addAll(components(services));
        return all;
    }

    /** The plugin's other components (injected into its transport actions), created once when the node is built. */
    protected Collection<?> components(PluginServices services) {
        return List.of();
    }

    /** A transport action of the plugin: its type and its implementation. */
    public record Action<Q extends ActionRequest, R extends ActionResponse>(ActionType<R> type,
                                                                          Class<? extends TransportAction<Q, R>> transport) {}

    /** The plugin's transport actions. */
    protected abstract List<Action<?, ?>> actions();
}
