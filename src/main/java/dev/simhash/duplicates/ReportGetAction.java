package dev.simhash.duplicates;

import org.elasticsearch.action.ActionType;

/**
 * Reads a stored report ({@code GET _simhash/duplicates/<id>}); under the {@code read} privilege, and only for callers
 * who may read every index of the report.
 */
public final class ReportGetAction {

    public static final String NAME = "indices:data/read/simhash/duplicates/get";
    public static final ActionType<ReportGetResponse> INSTANCE = new ActionType<>(NAME);

    private ReportGetAction() {}
}
