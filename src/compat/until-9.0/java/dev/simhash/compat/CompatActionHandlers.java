package dev.simhash.compat;

import org.elasticsearch.action.ActionRequest;
import org.elasticsearch.action.ActionResponse;
import org.elasticsearch.plugins.ActionPlugin;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Base of the plugin class for its transport actions: up to 9.0, {@code ActionHandler} is generic in the request and
 * response. Subclasses give {@link #actions}; the components are {@link CompatPluginBase}'s.
 */
public abstract class CompatActionHandlers extends CompatPluginBase implements ActionPlugin {

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
