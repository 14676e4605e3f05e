package dev.simhash.weights;

import org.elasticsearch.action.ActionListener;
import org.elasticsearch.action.support.ActionFilters;
import org.elasticsearch.action.support.HandledTransportAction;
import org.elasticsearch.common.util.concurrent.EsExecutors;
import org.elasticsearch.tasks.Task;
import org.elasticsearch.transport.TransportService;

/**
 * Runs {@link WeightsFeaturesAction}: looks the named table up and answers it whole, unless {@link #refusal} says this action
 * may not show it (one subclass per action name, so that security authorizes each by its own privilege).
 */
public abstract sealed class TransportWeightsFeaturesAction extends HandledTransportAction<WeightsFeaturesRequest, WeightsFeaturesResponse>
    permits TransportReadWeightsFeaturesAction, TransportAdminWeightsFeaturesAction {
    private final WeightsRegistry registry;

    TransportWeightsFeaturesAction(String name, TransportService transportService, ActionFilters actionFilters, WeightsRegistry registry) {
        super(name, transportService, actionFilters, WeightsFeaturesRequest::new, EsExecutors.DIRECT_EXECUTOR_SERVICE);
        this.registry = registry;
    }

    /** Why this action does not show table {@code t} for {@code request}, or null when it does. */
    abstract Exception refusal(WeightsTable t, WeightsFeaturesRequest request);

    @Override
    protected final void doExecute(Task task, WeightsFeaturesRequest request, ActionListener<WeightsFeaturesResponse> listener) {
        WeightsTable t = registry.get(request.name());
        if (t == null) {
            listener.onFailure(WeightsRegistry.notFound(request.name()));
            return;
        }
        Exception refused = refusal(t, request);
        if (refused != null) {
            listener.onFailure(refused);
            return;
        }
        listener.onResponse(new WeightsFeaturesResponse(t));
    }
}
