package dev.simhash.weights;

import org.elasticsearch.action.ActionType;

/**
 * {@code PUT _simhash/weights/<name>}: a new, immutable feature-weight table, either uploaded ({@code features},
 * {@code default_weight}) or computed as IDF from a sample of an index's text field ({@code index}, {@code field},
 * {@code sample_size}, {@code seed}, {@code min_df}, {@code max_features}), always for one fingerprint {@code version}. Computing runs as
 * a cancellable task with a progress status. Under {@code cluster:admin} (the {@code manage} privilege); reading the sample
 * also needs {@code read} on the index.
 */
public final class PutWeightsAction {

    public static final String NAME = "cluster:admin/simhash/weights/put";
    public static final ActionType<PutWeightsResponse> INSTANCE = new ActionType<>(NAME);

    private PutWeightsAction() {}
}
