package dev.simhash.duplicates;

import org.elasticsearch.action.ActionType;

/** The near-duplicate report action; its name puts it under the {@code read} index privilege. */
public final class DuplicatesAction {

    /** Authorized like a search: {@code read} covers {@code indices:data/read/*}. */
    public static final String NAME = "indices:data/read/simhash/duplicates";
    public static final ActionType<DuplicatesResponse> INSTANCE = new ActionType<>(NAME);

    private DuplicatesAction() {}
}
