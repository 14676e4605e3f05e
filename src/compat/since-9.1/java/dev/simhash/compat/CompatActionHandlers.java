package dev.simhash.compat;

import org.elasticsearch.plugins.ActionPlugin;

import java.util.Collection;

/**
 * Base of the plugin class for its transport actions: from 9.1 on, {@code ActionHandler} takes any action type and its
 * transport action. Subclasses give {@link #actions}; the components are {@link CompatPluginBase}'s.
 */
public abstract class CompatActionHandlers extends CompatPluginBase implements ActionPlugin {

    @Override
    public final Collection<ActionHandler> getActions() {
        return actions().stream().map(a -> new ActionHandler(a.type(), a.transport())).toList();
    }
}
