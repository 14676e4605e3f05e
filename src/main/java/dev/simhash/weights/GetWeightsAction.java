package dev.simhash.weights;

import org.elasticsearch.action.ActionType;

/**
 * {@code GET _simhash/weights[/<name>]}: the tables' metadata from the node's registry, optionally with their features
 * ({@code features=true}: all; {@code size=N}: the first N in sorted order). Under {@code cluster:monitor}; the features
 * only for callers who may read the table's source index or have {@code manage} ({@link WeightsFeaturesAction}).
 */
public final class GetWeightsAction {

    public static final String NAME = "cluster:monitor/simhash/weights/get";
    public static final ActionType<GetWeightsResponse> INSTANCE = new ActionType<>(NAME);

    private GetWeightsAction() {}
}
