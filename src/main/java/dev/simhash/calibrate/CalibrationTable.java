package dev.simhash.calibrate;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The trade-off of a calibration report as Markdown tables, one row per radius ({@code by_k}) and, on a field with a
 * sketch, one per {@code min_similarity}: how often unrelated pairs match against how many edited copies are found. Reads
 * the report's typed rows; a report fetched over REST (its JSON as maps, lists and numbers) is read into those rows first.
 */
public final class CalibrationTable {

    private CalibrationTable() {}

    /**
     * The {@code by_k} and (if any) {@code by_similarity} rows as Markdown tables, separated by a blank line; the recall
     * columns are the edit rates of the first {@code by_k} row.
     */
    public static String markdown(List<CalibrationReport.ByK> byK, List<CalibrationReport.BySimilarity> bySimilarity) {
        List<String> rates = byK.isEmpty() ? List.of() : byK.get(0).recall().stream().map(CalibrationReport.Recall::rate).toList();
        List<String> lines = new ArrayList<>();
        String recallHeader = String.join(" | ", rates.stream().map(r -> "recall " + r).toList());
        String recallRule = String.join(" | ", rates.stream().map(r -> "---:").toList());
        lines.add("| max_distance | random pairs within | of them related | false-match rate | from | " + recallHeader + " |");
        lines.add("| ---: | ---: | ---: | ---: | --- | " + recallRule + " |");
        for (CalibrationReport.ByK row : byK) {
            lines.add("| " + row.k() + " | " + row.randomPairsWithin() + " | " + row.relatedPairsWithin() + " | "
                + rate(row.falseMatchRate()) + " | " + row.falseMatchRateFrom() + " | " + recalls(row.recall(), rates) + " |");
        }
        if (!bySimilarity.isEmpty()) {
            lines.add("");
            lines.add("| min_similarity | candidates | random pairs above | of them related | false-match rate | from | " + recallHeader + " |");
            lines.add("| ---: | --- | ---: | ---: | ---: | --- | " + recallRule + " |");
            for (CalibrationReport.BySimilarity row : bySimilarity) {
                String candidates = "bands".equals(row.candidates()) ? "bands" : "radius " + row.radius();
                lines.add("| " + row.minSimilarity() + " | " + candidates + " | " + row.randomPairsAbove() + " | "
                    + row.relatedPairsAbove() + " | " + rate(row.falseMatchRate()) + " | " + row.falseMatchRateFrom()
                    + " | " + recalls(row.recall(), rates) + " |");
            }
        }
        return String.join("\n", lines) + "\n";
    }

    /** The tables of a report as its JSON gives it (maps, lists, numbers): its {@code by_k} and {@code by_similarity} rows. */
    public static String markdown(Map<String, Object> report) {
        return markdown(JsonRows.byK(report.get("by_k")), JsonRows.bySimilarity(report.get("by_similarity")));
    }

    private static String recalls(List<CalibrationReport.Recall> recall, List<String> rates) {
        List<String> out = new ArrayList<>();
        for (String r : rates) {
            Double v = recall.stream().filter(x -> x.rate().equals(r)).findFirst().map(CalibrationReport.Recall::value).orElse(null);
            out.add(v == null ? "" : String.format(Locale.ROOT, "%.2f", v));
        }
        return String.join(" | ", out);
    }

    /** A rate in three significant digits, 0 as 0. */
    static String rate(double v) {
        return v == 0 ? "0" : String.format(Locale.ROOT, "%.3g", v);
    }

    /** The table's rows read back from a report's JSON, each value checked for its type. */
    static final class JsonRows {

        private JsonRows() {}

        static List<CalibrationReport.ByK> byK(Object rows) {
            List<CalibrationReport.ByK> out = new ArrayList<>();
            for (Map<?, ?> row : rows("by_k", rows)) {
                out.add(new CalibrationReport.ByK(whole(row, "k").intValue(), whole(row, "random_pairs_within").longValue(),
                    whole(row, "related_pairs_within").longValue(), number(row, "observed_false_match_rate").doubleValue(),
                    orNull(row, "estimated_false_match_rate"), number(row, "false_match_rate").doubleValue(),
                    string(row, "false_match_rate_from"), recall(row)));
            }
            return out;
        }

        static List<CalibrationReport.BySimilarity> bySimilarity(Object rows) {
            List<CalibrationReport.BySimilarity> out = new ArrayList<>();
            for (Map<?, ?> row : rows("by_similarity", rows)) {
                out.add(new CalibrationReport.BySimilarity(number(row, "min_similarity").doubleValue(), string(row, "candidates"),
                    whole(row, "radius").intValue(), whole(row, "random_pairs_above").longValue(),
                    whole(row, "related_pairs_above").longValue(), number(row, "observed_false_match_rate").doubleValue(),
                    orNull(row, "estimated_false_match_rate"), number(row, "false_match_rate").doubleValue(),
                    string(row, "false_match_rate_from"), recall(row)));
            }
            return out;
        }

        private static List<Map<?, ?>> rows(String name, Object value) {
            if (value == null) {
                return List.of();
            }
            if (!(value instanceof List<?> list)) {
                throw new IllegalArgumentException("[" + name + "] is not a list of rows: " + value);
            }
            List<Map<?, ?>> out = new ArrayList<>();
            for (Object row : list) {
                if (!(row instanceof Map<?, ?> m)) {
                    throw new IllegalArgumentException("a row of [" + name + "] is not an object: " + row);
                }
                out.add(m);
            }
            return out;
        }

        private static List<CalibrationReport.Recall> recall(Map<?, ?> row) {
            if (!(row.get("recall") instanceof Map<?, ?> recall)) {
                throw new IllegalArgumentException("a row without [recall]: " + row);
            }
            List<CalibrationReport.Recall> out = new ArrayList<>();
            recall.forEach((rate, value) -> out.add(new CalibrationReport.Recall(String.valueOf(rate),
                value == null ? null : number(recall, String.valueOf(rate)).doubleValue())));
            return out;
        }

        private static Number number(Map<?, ?> row, String key) {
            if (!(row.get(key) instanceof Number n)) {
                throw new IllegalArgumentException("[" + key + "] is not a number in " + row);
            }
            return n;
        }

        /** A count: a whole number as JSON gives it (an int or a long). */
        private static Number whole(Map<?, ?> row, String key) {
            Number n = number(row, key);
            if (n instanceof Double || n instanceof Float) {
                throw new IllegalArgumentException("[" + key + "] is not a whole number in " + row);
            }
            return n;
        }

        private static Double orNull(Map<?, ?> row, String key) {
            return row.get(key) == null ? null : number(row, key).doubleValue();
        }

        private static String string(Map<?, ?> row, String key) {
            if (!(row.get(key) instanceof String s)) {
                throw new IllegalArgumentException("[" + key + "] is not a string in " + row);
            }
            return s;
        }
    }
}
