package dev.simhash.weights;

import org.elasticsearch.action.support.ActionFilters;
import org.elasticsearch.injection.guice.Inject;
import org.elasticsearch.transport.TransportService;

import java.util.Arrays;

/**
 * {@link WeightsFeaturesAction#READ}: answers only for the indices the table records, so that the privilege security checked
 * is the one on the table's own source.
 */
public final class TransportReadWeightsFeaturesAction extends TransportWeightsFeaturesAction {

    @Inject
    public TransportReadWeightsFeaturesAction(TransportService transportService, ActionFilters actionFilters, WeightsRegistry registry) {
        super(WeightsFeaturesAction.READ_NAME, transportService, actionFilters, registry);
    }

    @Override
    Exception refusal(WeightsTable t, WeightsFeaturesRequest request) {
        String[] source = WeightsFeaturesAction.sourceIndices(t);
        if (source == null || !Arrays.equals(source, request.indices())) {
            return new IllegalArgumentException("[indices] table [" + request.name() + "] was not computed from "
                + Arrays.toString(request.indices()) + "; its features are shown to readers of its source index only");
        }
        return null;
    }
}
