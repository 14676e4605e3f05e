package dev.simhash.fold;

import org.elasticsearch.action.ActionType;

/** The fold action: a search whose near-duplicate hits are folded; its name puts it under the {@code read} index privilege. */
public final class FoldAction {

    /** Authorized like a search: {@code read} covers {@code indices:data/read/*}. */
    public static final String NAME = "indices:data/read/simhash/fold";
    public static final ActionType<FoldResponse> INSTANCE = new ActionType<>(NAME);

    private FoldAction() {}
}
