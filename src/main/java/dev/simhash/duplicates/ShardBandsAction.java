package dev.simhash.duplicates;

import org.elasticsearch.action.ActionType;

/**
 * The report's work on one shard copy, on the node that holds it: the shard's band values, or its documents that share a
 * band value with another ({@link ShardBandsRequest}). Its name puts it under the {@code read} index privilege, and the
 * shard's searcher is the caller's (document- and field-level security apply as in a search).
 */
public final class ShardBandsAction {

    public static final String NAME = "indices:data/read/simhash/duplicates/bands";
    public static final ActionType<ShardBandsResponse> INSTANCE = new ActionType<>(NAME);

    private ShardBandsAction() {}
}
