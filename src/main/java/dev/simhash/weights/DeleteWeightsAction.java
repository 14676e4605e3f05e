package dev.simhash.weights;

import org.elasticsearch.action.ActionType;
import org.elasticsearch.action.support.master.AcknowledgedResponse;

/**
 * {@code DELETE _simhash/weights/<name>}, on the master: 404 for a table that does not exist, 409 naming the pipelines,
 * index fields and index templates (composable, component, legacy) that use it (their fingerprints, or the indices created
 * from them, would fail without it); otherwise the table leaves the cluster state.
 */
public final class DeleteWeightsAction {

    public static final String NAME = "cluster:admin/simhash/weights/delete";
    public static final ActionType<AcknowledgedResponse> INSTANCE = new ActionType<>(NAME);

    private DeleteWeightsAction() {}
}
