package dev.simhash.duplicates;

import org.elasticsearch.action.ActionType;
import org.elasticsearch.action.support.master.AcknowledgedResponse;

/**
 * Cancels a report if it runs and deletes its record ({@code DELETE _simhash/duplicates/<id>}); under the {@code read}
 * privilege, so that whoever could run the report (and only they) can stop and remove it.
 */
public final class ReportDeleteAction {

    public static final String NAME = "indices:data/read/simhash/duplicates/delete";
    public static final ActionType<AcknowledgedResponse> INSTANCE = new ActionType<>(NAME);

    private ReportDeleteAction() {}
}
