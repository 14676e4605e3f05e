package dev.simhash.weights;

import org.elasticsearch.action.ActionType;
import org.elasticsearch.action.support.master.AcknowledgedResponse;

/**
 * Adds one table to the cluster state, on the master: refused when the name is taken (tables are immutable) or when the
 * table or the cluster's tables would exceed the limits ({@link WeightsTable#MAX_BYTES}, {@link WeightsTable#MAX_TOTAL_FEATURES},
 * {@link WeightsTable#MAX_TOTAL_BYTES}). Internal: {@code PUT _simhash/weights/<name>} runs it
 * after uploading or computing the table; its name is under {@code cluster:admin}, the {@code manage} privilege.
 */
public final class StoreWeightsAction {

    public static final String NAME = "cluster:admin/simhash/weights/store";
    public static final ActionType<AcknowledgedResponse> INSTANCE = new ActionType<>(NAME);

    private StoreWeightsAction() {}
}
