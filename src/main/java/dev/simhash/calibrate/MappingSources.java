package dev.simhash.calibrate;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Finds, in an index's mapping (as a map: {@code {"properties": {...}}}), where the text of a {@code simhash} field comes
 * from: a multi-field's parent (the field {@code content} of {@code content.simhash}), or the fields that {@code copy_to}
 * the field. Plain maps, so that it reads the mapping as stored in the cluster state.
 */
public final class MappingSources {

    /**
     * Where a field sits in the mapping.
     *
     * @param mapping     the field's own mapping, or null when it is not mapped
     * @param multiParent the parent's full name when the field is a multi-field, else null
     * @param copiedFrom  full names of the fields that {@code copy_to} this field, in mapping order
     */
    public record Found(Map<String, Object> mapping, String multiParent, List<String> copiedFrom) {}

    private MappingSources() {}

    /** Looks up {@code field} (full dotted name) in {@code mapping}. */
    public static Found find(Map<String, Object> mapping, String field) {
        Walk walk = new Walk(field);
        walk.properties(properties(mapping), "");
        return new Found(walk.own, walk.parent, walk.copiedFrom);
    }

    private static Map<String, Object> properties(Map<String, Object> node) {
        return node == null ? null : asMap(node.get("properties"));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> asMap(Object o) {
        return o instanceof Map<?, ?> m ? (Map<String, Object>) m : null;
    }

    /** One look-up: what it has found so far. */
    private static final class Walk {
        private final String field;
        private Map<String, Object> own;
        private String parent;
        private final List<String> copiedFrom = new ArrayList<>();

        Walk(String field) {
            this.field = field;
        }

        void properties(Map<String, Object> properties, String prefix) {
            if (properties == null) {
                return;
            }
            for (Map.Entry<String, Object> e : properties.entrySet()) {
                Map<String, Object> node = asMap(e.getValue());
                if (node == null) {
                    continue;
                }
                String name = prefix + e.getKey();
                if (name.equals(field)) {
                    own = node;
                }
                if (copiesTo(node.get("copy_to"), field)) {
                    copiedFrom.add(name);
                }
                Map<String, Object> multi = asMap(node.get("fields"));
                if (multi != null) {
                    for (Map.Entry<String, Object> m : multi.entrySet()) {
                        Map<String, Object> sub = asMap(m.getValue());
                        if (sub != null && (name + "." + m.getKey()).equals(field)) {
                            own = sub;
                            parent = name;
                        }
                    }
                }
                properties(MappingSources.properties(node), name + ".");
            }
        }
    }

    private static boolean copiesTo(Object copyTo, String field) {
        if (copyTo instanceof String s) {
            return s.equals(field);
        }
        if (copyTo instanceof List<?> l) {
            return l.contains(field);
        }
        return false;
    }
}
