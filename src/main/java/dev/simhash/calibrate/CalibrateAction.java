package dev.simhash.calibrate;

import org.elasticsearch.action.ActionType;

/** The calibration report action; its name puts it under the {@code read} index privilege. */
public final class CalibrateAction {

    /** Authorized like a search: {@code read} covers {@code indices:data/read/*}. */
    public static final String NAME = "indices:data/read/simhash/calibrate";
    public static final ActionType<CalibrateResponse> INSTANCE = new ActionType<>(NAME);

    private CalibrateAction() {}
}
