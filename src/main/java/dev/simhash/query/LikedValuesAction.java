package dev.simhash.query;

import org.elasticsearch.action.ActionType;

/**
 * Reads the fingerprint and the sketch of the document a {@code like} names, on the node that holds its shard, in one
 * step: a realtime check that the document exists as the caller's GET would see it, then its values through the caller's
 * searcher of that copy (document- and field-level security apply). Its name puts it under the {@code read} index
 * privilege.
 */
public final class LikedValuesAction {

    public static final String NAME = "indices:data/read/simhash/like";
    public static final ActionType<LikedValuesResponse> INSTANCE = new ActionType<>(NAME);

    private LikedValuesAction() {}
}
