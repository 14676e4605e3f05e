package dev.simhash.duplicates;

import org.elasticsearch.action.ActionType;

/**
 * Starts a near-duplicate report in the background ({@code wait_for_completion=false}); its name puts it under the
 * {@code read} index privilege of the report's indices, like the report itself.
 */
public final class AsyncDuplicatesAction {

    public static final String NAME = "indices:data/read/simhash/duplicates/submit";
    public static final ActionType<AsyncDuplicatesResponse> INSTANCE = new ActionType<>(NAME);

    private AsyncDuplicatesAction() {}
}
