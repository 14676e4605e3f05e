package dev.simhash.weights;

import org.elasticsearch.action.ActionType;
import org.elasticsearch.common.regex.Regex;

/**
 * The features of one table, which reveal the vocabulary of the index it was computed from: under an action on that index
 * ({@link #READ}, authorized by the {@code read} privilege on the table's source index) or under {@code cluster:admin}
 * ({@link #ADMIN}, the {@code manage} privilege; the only way for uploaded tables). {@code GET _simhash/weights} runs them as
 * the caller; the metadata without features stays under {@code cluster:monitor}.
 */
public final class WeightsFeaturesAction {

    public static final String READ_NAME = "indices:data/read/simhash/weights/features";
    public static final String ADMIN_NAME = "cluster:admin/simhash/weights/features";
    public static final ActionType<WeightsFeaturesResponse> READ = new ActionType<>(READ_NAME);
    public static final ActionType<WeightsFeaturesResponse> ADMIN = new ActionType<>(ADMIN_NAME);

    private WeightsFeaturesAction() {}

    /**
     * The indices a table was computed from, as recorded in its source, when they are plain names security can authorize as
     * they are; null for uploaded tables and for sources given as patterns, aliases of patterns or date math (those need
     * {@code manage}: a pattern would be narrowed to what the caller may read, not checked as a whole).
     */
    public static String[] sourceIndices(WeightsTable table) {
        if (table.source().get("index") instanceof String index && !index.isEmpty()) {
            String[] names = index.split(",");
            for (String n : names) {
                if (n.isEmpty() || Regex.isSimpleMatchPattern(n) || n.startsWith("-") || n.startsWith("<") || n.startsWith("_")
                    || n.contains(":")) {
                    return null;
                }
            }
            return names;
        }
        return null;
    }
}
