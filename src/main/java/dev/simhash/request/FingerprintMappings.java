package dev.simhash.request;

import dev.simhash.core.FingerprintFields;
import dev.simhash.core.FingerprintSpec;
import dev.simhash.core.SimHash;
import dev.simhash.mapper.SimHashFieldMapper;
import dev.simhash.mapper.SimHashFieldType;

import org.elasticsearch.action.fieldcaps.FieldCapabilities;
import org.elasticsearch.action.fieldcaps.FieldCapabilitiesRequest;
import org.elasticsearch.action.fieldcaps.FieldCapabilitiesResponse;
import org.elasticsearch.action.support.IndicesOptions;
import org.elasticsearch.common.document.DocumentField;
import org.elasticsearch.search.SearchHit;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Reads fingerprints from search hits, and checks through the field capabilities API (so with the
 * caller's privileges) that the fields the fold and the report read are mapped as they need: a
 * {@code simhash} field, or the processor object's {@code hash} as a {@code long} with doc values; a
 * group id field as a {@code keyword}.
 */
public final class FingerprintMappings {

    private static final String UNMAPPED = "unmapped";

    /**
     * Where the fingerprints are read from in {@code docvalue_fields}: a {@code simhash} field itself, asked for in
     * the {@code long} format, or the object form's {@code hash} (a long already).
     */
    public record Fingerprints(String path, String format, Set<String> versions) {
        public static Fingerprints of(String field, boolean fieldType, Set<String> versions) {
            return fieldType ? new Fingerprints(field, "long", versions) : new Fingerprints(FingerprintFields.hashPath(field), null, Set.of());
        }

        public boolean isFieldType() {
            return format != null;
        }

        /**
         * The radius when the request gives none: the version default of the {@code simhash} field (6 for simhash-v2, 3 for
         * simhash-v1), simhash-v1's for the object form.
         *
         * @throws IllegalArgumentException naming {@code [max_distance]} when the target indices hold different versions
         */
        public int defaultMaxDistance() {
            if (!isFieldType() || versions.isEmpty()) {
                return SimHash.DEFAULT_MAX_DISTANCE;
            }
            if (versions.size() > 1) {
                throw new IllegalArgumentException("[max_distance] is required: [" + path + "] holds fingerprints of versions "
                    + new TreeSet<>(versions) + " in the target indices, whose default radii differ");
            }
            String v = versions.iterator().next();
            return FingerprintSpec.Version.fromOption(v).defaultMaxDistance();
        }
    }

    private FingerprintMappings() {}

    /** The field capabilities request covering the fingerprint object and any extra fields. */
    public static FieldCapabilitiesRequest request(String[] indices, IndicesOptions options, String field, String... extra) {
        List<String> fields = new ArrayList<>(List.of(field, FingerprintFields.hashPath(field)));
        fields.addAll(List.of(extra));
        // unmapped entries tell "mapped in some indices only" apart from "mapped everywhere"
        return new FieldCapabilitiesRequest().indices(indices).indicesOptions(options).fields(fields.toArray(String[]::new))
            .includeUnmapped(true);
    }

    /**
     * Whether some target index maps the {@code simhash} field with a similarity sketch, from the merged field
     * capabilities (their meta is the union over the indices, so this does not say that every index has one).
     */
    public static boolean someHaveSketch(FieldCapabilitiesResponse caps, Fingerprints fingerprints, String field) {
        if (!fingerprints.isFieldType()) {
            return false;
        }
        Map<String, FieldCapabilities> object = caps.getField(field);
        FieldCapabilities fc = object == null ? null : object.get(SimHashFieldMapper.CONTENT_TYPE);
        return fc != null && fc.meta() != null && fc.meta().containsKey(SimHashFieldType.SKETCH_META);
    }

    /**
     * The field capabilities of the {@code simhash} field index by index (not merged): the only way to learn with the
     * caller's privileges whether every target index stores sketches, since merged meta is a union.
     */
    public static FieldCapabilitiesRequest sketchRequest(String[] indices, IndicesOptions options, String field) {
        FieldCapabilitiesRequest request = new FieldCapabilitiesRequest().indices(indices).indicesOptions(options).fields(field);
        request.setMergeResults(false);
        return request;
    }

    /** The indices of an unmerged field capabilities response that map {@code field} as a {@code simhash} field without a sketch. */
    public static List<String> indicesWithoutSketch(FieldCapabilitiesResponse unmerged, String field) {
        TreeSet<String> without = new TreeSet<>();
        for (var index : unmerged.getIndexResponses()) {
            var fc = index.get().get(field);
            if (fc != null && SimHashFieldMapper.CONTENT_TYPE.equals(fc.type())
                && (fc.meta() == null || !fc.meta().containsKey(SimHashFieldType.SKETCH_META))) {
                without.add(index.getIndexName());
            }
        }
        return List.copyOf(without);
    }

    /**
     * @return where to read the fingerprints
     * @throws IllegalArgumentException naming {@code [field]} unless it is a {@code simhash} field in every target index
     *                                  that maps it, or {@code field.hash} is a {@code long} with doc values in every target
     *                                  index that maps it; and at least one index maps it
     */
    public static Fingerprints checkFingerprint(FieldCapabilitiesResponse caps, String field) {
        String hashPath = FingerprintFields.hashPath(field);
        Map<String, FieldCapabilities> object = caps.getField(field);
        if (object != null && object.containsKey(SimHashFieldMapper.CONTENT_TYPE)) {
            for (Map.Entry<String, FieldCapabilities> e : object.entrySet()) {
                if (!SimHashFieldMapper.CONTENT_TYPE.equals(e.getKey()) && !UNMAPPED.equals(e.getKey())) {
                    throw new IllegalArgumentException("[field] [" + field + "] is a [simhash] field in some target indices but a ["
                        + e.getKey() + "]" + where(e.getValue(), caps) + "; fold and report read one kind of fingerprint field");
                }
            }
            FieldCapabilities fc = object.get(SimHashFieldMapper.CONTENT_TYPE);
            Set<String> versions = fc.meta() == null ? Set.of() : fc.meta().getOrDefault(SimHashFieldType.VERSION_META, Set.of());
            return Fingerprints.of(field, true, versions);
        }
        if (object != null) {
            for (String type : object.keySet()) {
                if (!"object".equals(type) && !UNMAPPED.equals(type) && !"nested".equals(type)) {
                    throw new IllegalArgumentException("[field] [" + field + "] is a [" + type + "] field; it must name a [simhash] field "
                        + "or the object the simhash processor writes (with [hash] and [b0]..[b3] under it)");
                }
            }
        }
        Map<String, FieldCapabilities> hash = caps.getField(hashPath);
        if (hash == null || hash.keySet().stream().allMatch(UNMAPPED::equals)) {
            throw new IllegalArgumentException("[field] [" + field + "] is neither a [simhash] field nor a fingerprint object: [" + hashPath
                + "] is not mapped in the target indices; map a [simhash] field (docs/field-type.md)");
        }
        for (Map.Entry<String, FieldCapabilities> e : hash.entrySet()) {
            if (UNMAPPED.equals(e.getKey())) {
                // like the simhash query: an index without fingerprints simply contributes none
                continue;
            }
            if (!"long".equals(e.getKey()) || !e.getValue().isAggregatable()) {
                throw new IllegalArgumentException("[field] [" + hashPath + "] must be mapped as [long] with doc values, found ["
                    + e.getKey() + ("long".equals(e.getKey()) ? " without doc values" : "") + "]" + where(e.getValue(), caps)
                    + "; declare the fingerprint mapping of docs/processor.md");
            }
        }
        return Fingerprints.of(field, false, Set.of());
    }

    /**
     * @throws IllegalArgumentException naming {@code [write_group_id]} unless the field is mapped as an aggregatable
     *                                  {@code keyword} in every target index (collapse needs that, and dynamic mapping
     *                                  would make it {@code text})
     */
    public static void checkGroupField(FieldCapabilitiesResponse caps, String name) {
        Map<String, FieldCapabilities> field = caps.getField(name);
        if (field == null || field.isEmpty() || field.keySet().stream().allMatch(UNMAPPED::equals)) {
            throw new IllegalArgumentException("[write_group_id] field [" + name + "] must be mapped as [keyword] in the target indices "
                + "before the report writes it (collapse needs a keyword field; dynamic mapping would make it [text]), found [unmapped]");
        }
        for (Map.Entry<String, FieldCapabilities> e : field.entrySet()) {
            FieldCapabilities fc = e.getValue();
            if (!"keyword".equals(e.getKey()) || !fc.isAggregatable()) {
                throw new IllegalArgumentException("[write_group_id] field [" + name + "] must be mapped as [keyword] with doc values in "
                    + "every target index (collapse needs it), found [" + e.getKey() + "]" + where(fc, caps));
            }
        }
    }

    /**
     * Checks in one index's mapping that the group id field is one the report can write with a partial update: a
     * {@code keyword} field of the mapping whose parents are objects, not a multi-field of another field (its values
     * come from the parent), not inside a {@code nested} field, not a field alias and not a runtime field (neither
     * holds values of its own). A field this index does not map is left to {@link #checkGroupField}.
     *
     * @param mapping the index's mapping source (its {@code properties} and {@code runtime} at the top)
     * @throws IllegalArgumentException naming {@code [write_group_id]}
     */
    public static void checkGroupTarget(String index, Map<String, Object> mapping, String name) {
        if (mapping.get("runtime") instanceof Map<?, ?> runtime && runtime.containsKey(name)) {
            throw new IllegalArgumentException("[write_group_id] field [" + name + "] is a runtime field in index [" + index
                + "], which holds no values to write: name a [keyword] field of the mapping");
        }
        String[] parts = name.split("\\.");
        Object properties = mapping.get("properties");
        for (int i = 0; i < parts.length; i++) {
            if (!(properties instanceof Map<?, ?> props)) {
                return;
            }
            // an object with [subobjects: false] holds the rest of the path as one key
            String rest = String.join(".", Arrays.asList(parts).subList(i, parts.length));
            if (i < parts.length - 1 && props.get(rest) instanceof Map<?, ?> dotted) {
                checkGroupLeaf(index, name, dotted);
                return;
            }
            if (!(props.get(parts[i]) instanceof Map<?, ?> node)) {
                return;
            }
            if (i == parts.length - 1) {
                checkGroupLeaf(index, name, node);
                return;
            }
            Object type = node.get("type");
            if (type != null && !"object".equals(type)) {
                String parent = String.join(".", Arrays.asList(parts).subList(0, i + 1));
                throw new IllegalArgumentException("[write_group_id] field [" + name + "] is inside the [" + type + "] field [" + parent
                    + "] in index [" + index + "] (" + ("nested".equals(type) ? "a nested field" : "a multi-field, whose values come "
                    + "from [" + parent + "]") + "): name a top-level [keyword] field of the mapping");
            }
            properties = node.get("properties");
        }
    }

    private static void checkGroupLeaf(String index, String name, Map<?, ?> field) {
        Object type = field.get("type");
        if ("alias".equals(type)) {
            throw new IllegalArgumentException("[write_group_id] field [" + name + "] is a field alias of [" + field.get("path")
                + "] in index [" + index + "]: name the [keyword] field itself");
        }
        if (!"keyword".equals(type)) {
            throw new IllegalArgumentException("[write_group_id] field [" + name + "] must be mapped as [keyword], found [" + type
                + "] in index [" + index + "]");
        }
    }

    private static String where(FieldCapabilities fc, FieldCapabilitiesResponse caps) {
        // no indices on the entry: the field has this type in every index the request resolved
        String[] indices = fc.indices() != null ? fc.indices() : caps.getIndices();
        return indices == null || indices.length == 0 ? "" : " in " + new TreeSet<>(List.of(indices));
    }

    /**
     * The fingerprint of a hit from its doc values, or null (no fingerprint; several values: the first, i.e. the smallest).
     *
     * @throws IllegalArgumentException naming {@code [docvalue_fields]} when the caller asked for the field in a format
     *                                  that does not render the fingerprint as a plain decimal long
     */
    public static Long fingerprintOf(SearchHit hit, Fingerprints fingerprints) {
        String hashPath = fingerprints.path();
        DocumentField f = hit.field(hashPath);
        if (f == null || f.getValues().isEmpty()) {
            return null;
        }
        Object v = f.getValues().get(0);
        if (v instanceof Number n) {
            return n.longValue();
        }
        if (v == null) {
            return null;
        }
        if (fingerprints.isFieldType()) {
            // a simhash field's own formats: a long, or 16 hex digits (the default, when the caller asked for the field)
            try {
                return SimHash.parse(v.toString());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("[docvalue_fields] [" + hashPath + "] is rendered as [" + SimHash.describe(v.toString())
                    + "], not as a fingerprint", e);
            }
        }
        // a string only comes from a format the caller asked for in docvalue_fields: it must be the long in decimal
        // (never read as hex: 16 decimal digits are still decimal). Treating an unreadable value as "no fingerprint"
        // would silently leave the hit unfolded, so it is an error
        try {
            return SimHash.parseDecimal(v.toString());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("[docvalue_fields] the format requested for [" + hashPath + "] renders the fingerprint as ["
                + SimHash.describe(v.toString()) + "], which is not a 64-bit decimal integer; request [" + hashPath
                + "] without a format", e);
        }
    }

    /**
     * The sketch of a hit, read through the {@code fields} option in the {@value dev.simhash.core.MinHashSketch#ALGORITHM} format or the
     * {@value SimHashFieldType#FINGERPRINT_AND_SKETCH_FORMAT} format (the base64 value after the fingerprint), or null when the
     * document has none.
     */
    public static byte[] sketchOf(SearchHit hit, String field) {
        DocumentField f = hit.field(field);
        String s = null;
        if (f != null) {
            for (Object v : f.getValues()) {
                if (v instanceof String text) {
                    s = text;
                    break;
                }
            }
        }
        if (s == null) {
            return null;
        }
        byte[] bytes;
        try {
            bytes = Base64.getDecoder().decode(s);
        } catch (IllegalArgumentException e) {
            return null;
        }
        return bytes.length == dev.simhash.core.MinHashSketch.BYTES ? bytes : null;
    }
}
