package dev.simhash.weights;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Who uses a feature-weight table: ingest pipelines with a {@code simhash} processor and mappings (of indices and of index
 * templates) with a {@code simhash} field or dynamic template whose {@code weights} names it. Plain Java over the
 * configurations as maps (pipelines' configurations, mapping sources), so a table in use is not deleted from under them.
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

    /**
     * The names of the root dynamic templates of a mapping source whose {@code mapping} is a {@code simhash} field using the
     * table, or has one among its multi-fields or properties: every field they map later would need it.
     */
    public static List<String> inDynamicTemplates(Map<String, ?> mapping, String table) {
        List<String> out = new ArrayList<>();
        if (mapping.get("dynamic_templates") instanceof List<?> templates) {
            for (Object t : templates) {
                if (t instanceof Map<?, ?> named) {
                    for (Map.Entry<?, ?> e : named.entrySet()) {
                        if (e.getValue() instanceof Map<?, ?> def && def.get("mapping") instanceof Map<?, ?> field
                            && (usesTable(field, table) || !inMappingNode(field, table).isEmpty())) {
                            out.add(String.valueOf(e.getKey()));
                        }
                    }
                }
            }
        }
        return out;
    }

    /**
     * A template's mapping source as stored: templates keep it under the single type name {@code _doc} (index mappings are
     * read without it); the mapping itself, whichever form it has.
     */
    public static Map<String, ?> unwrapType(Map<String, ?> mapping) {
        if (mapping.size() == 1 && mapping.get("_doc") instanceof Map<?, ?> inner) {
            @SuppressWarnings("unchecked")
            Map<String, ?> m = (Map<String, ?>) inner;
            return m;
        }
        return mapping;
    }

    private static boolean usesTable(Map<?, ?> field, String table) {
        return "simhash".equals(field.get("type")) && table.equals(field.get("weights"));
    }

    private static List<String> inMappingNode(Map<?, ?> node, String table) {
        List<String> out = new ArrayList<>();
        walk(node, "", table, out);
        return out;
    }

    private static void walk(Map<?, ?> node, String path, String table, List<String> out) {
        for (String key : List.of("properties", "fields")) {
            if (node.get(key) instanceof Map<?, ?> children) {
                for (Map.Entry<?, ?> e : children.entrySet()) {
                    if (e.getValue() instanceof Map<?, ?> field) {
                        String p = path.isEmpty() ? String.valueOf(e.getKey()) : path + "." + e.getKey();
                        if (usesTable(field, table)) {
                            out.add(p);
                        }
                        walk(field, p, table, out);
                    }
                }
            }
        }
    }
}
