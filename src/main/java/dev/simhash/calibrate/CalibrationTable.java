package dev.simhash.calibrate;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The trade-off of a calibration report as Markdown tables, one row per radius ({@code by_k}) and, on a field with a
 * sketch, one per {@code min_similarity}: how often unrelated pairs match against how many edited copies are found. Reads
 * the report as its JSON gives it (maps, lists, numbers), so it renders a report fetched over REST as well as one built
 * here.
 */
public final class CalibrationTable {

    private CalibrationTable() {}

    /** The report's {@code by_k} and (if present) {@code by_similarity} rows as Markdown tables, separated by a blank line. */
    public static String markdown(Map<String, Object> report) {
        List<String> rates = new ArrayList<>();
        List<String> lines = new ArrayList<>();
        List<Map<String, Object>> byK = rows(report.get("by_k"));
        if (!byK.isEmpty()) {
            rates.addAll(map(byK.get(0).get("recall")).keySet());
        }
        String recallHeader = String.join(" | ", rates.stream().map(r -> "recall " + r).toList());
        String recallRule = String.join(" | ", rates.stream().map(r -> "---:").toList());
        lines.add("| max_distance | random pairs within | of them related | false-match rate | from | " + recallHeader + " |");
        lines.add("| ---: | ---: | ---: | ---: | --- | " + recallRule + " |");
        for (Map<String, Object> row : byK) {
            lines.add("| " + row.get("k") + " | " + row.get("random_pairs_within") + " | " + row.get("related_pairs_within") + " | "
                + rate(row.get("false_match_rate")) + " | " + row.get("false_match_rate_from") + " | " + recalls(row, rates) + " |");
        }
        List<Map<String, Object>> bySimilarity = rows(report.get("by_similarity"));
        if (!bySimilarity.isEmpty()) {
            lines.add("");
            lines.add("| min_similarity | candidates | random pairs above | of them related | false-match rate | from | " + recallHeader + " |");
            lines.add("| ---: | --- | ---: | ---: | ---: | --- | " + recallRule + " |");
            for (Map<String, Object> row : bySimilarity) {
                Object candidates = "bands".equals(row.get("candidates")) ? "bands" : "radius " + row.get("radius");
                lines.add("| " + row.get("min_similarity") + " | " + candidates + " | " + row.get("random_pairs_above") + " | "
                    + row.get("related_pairs_above") + " | " + rate(row.get("false_match_rate")) + " | " + row.get("false_match_rate_from")
                    + " | " + recalls(row, rates) + " |");
            }
        }
        return String.join("\n", lines) + "\n";
    }

    private static String recalls(Map<String, Object> row, List<String> rates) {
        Map<String, Object> recall = map(row.get("recall"));
        List<String> out = new ArrayList<>();
        for (String r : rates) {
            Object v = recall.get(r);
            out.add(v == null ? "" : String.format(Locale.ROOT, "%.2f", ((Number) v).doubleValue()));
        }
        return String.join(" | ", out);
    }

    /** A rate in three significant digits, 0 as 0. */
    static String rate(Object value) {
        double v = ((Number) value).doubleValue();
        return v == 0 ? "0" : String.format(Locale.ROOT, "%.3g", v);
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> rows(Object value) {
        return value == null ? List.of() : (List<Map<String, Object>>) value;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        return (Map<String, Object>) value;
    }
}
