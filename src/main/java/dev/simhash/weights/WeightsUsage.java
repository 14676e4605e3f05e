package dev.simhash.weights;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Who uses a feature-weight table: ingest pipelines with a {@code simhash} processor and index mappings with a {@code simhash}
 * field whose {@code weights} names it. Plain Java over the configurations as maps (pipelines' configurations, mapping
 * sources), so a table in use is not deleted from under them.
 */
public final class WeightsUsage {

    private WeightsUsage() {}

    /** Whether a pipeline's configuration has a {@code simhash} processor (at any depth: on_failure, foreach, ...) using the table. */
    public static boolean inPipeline(Object config, String table) {
        if (config instanceof Map<?, ?> m) {
            for (Map.Entry<?, ?> e : m.entrySet()) {
                if ("simhash".equals(e.getKey()) && e.getValue() instanceof Map<?, ?> p && table.equals(p.get("weights"))) {
                    return true;
                }
                if (inPipeline(e.getValue(), table)) {
                    return true;
                }
            }
        } else if (config instanceof List<?> l) {
            for (Object o : l) {
                if (inPipeline(o, table)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The paths of the {@code simhash} fields of a mapping source (properties and multi-fields) using the table. */
    public static List<String> inMapping(Map<String, ?> mapping, String table) {
        List<String> out = new ArrayList<>();
        walk(mapping, "", table, out);
        return out;
    }

    private static void walk(Map<?, ?> node, String path, String table, List<String> out) {
        for (String key : List.of("properties", "fields")) {
            if (node.get(key) instanceof Map<?, ?> children) {
                for (Map.Entry<?, ?> e : children.entrySet()) {
                    if (e.getValue() instanceof Map<?, ?> field) {
                        String p = path.isEmpty() ? String.valueOf(e.getKey()) : path + "." + e.getKey();
                        if ("simhash".equals(field.get("type")) && table.equals(field.get("weights"))) {
                            out.add(p);
                        }
                        walk(field, p, table, out);
                    }
                }
            }
        }
    }
}
