package dev.simhash.weights;

import org.elasticsearch.action.support.ActionFilters;
import org.elasticsearch.injection.guice.Inject;
import org.elasticsearch.transport.TransportService;

/** {@link WeightsFeaturesAction#ADMIN}: any table, for {@code manage}. */
public final class TransportAdminWeightsFeaturesAction extends TransportWeightsFeaturesAction {

    @Inject
    public TransportAdminWeightsFeaturesAction(TransportService transportService, ActionFilters actionFilters, WeightsRegistry registry) {
        super(WeightsFeaturesAction.ADMIN_NAME, transportService, actionFilters, registry);
    }

    @Override
    Exception refusal(WeightsTable t, WeightsFeaturesRequest request) {
        return null;
    }
}
