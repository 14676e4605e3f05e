package dev.simhash.script;

import dev.simhash.core.FingerprintFields;
import dev.simhash.core.SimHash;
import dev.simhash.mapper.SimHashFieldType;

import org.elasticsearch.index.mapper.MappedFieldType;
import org.elasticsearch.index.mapper.NumberFieldMapper;
import org.elasticsearch.search.lookup.SearchLookup;

import java.math.BigInteger;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * The validated {@code params} of a simhash script: the doc-values field holding the fingerprints
 * and the fingerprint to compare them with. Built once per shard, so nothing is checked per document.
 */
final class HammingScriptParams {

    static final String FIELD = "field";
    static final String HASH = "hash";
    /** Only the long type: its doc values are the raw signed 64-bit fingerprint the processor wrote. */
    static final String REQUIRED_TYPE = "long";

    private final String target;
    /** The object form's hash field until {@link #checkMapping} finds a {@code simhash} field by that name. */
    private String hashField;
    private final long hash;

    private HammingScriptParams(String target, long hash) {
        this.target = target;
        this.hashField = FingerprintFields.hashPath(target);
        this.hash = hash;
    }

    /** The {@code simhash} field or the processor's target object named by {@code field}, e.g. {@code simhash}. */
    String target() {
        return target;
    }

    /** The field read from doc values: the {@code simhash} field itself, or the object's long, e.g. {@code simhash.hash}. */
    String hashField() {
        return hashField;
    }

    /** The fingerprint given in {@code hash}. */
    long hash() {
        return hash;
    }

    /**
     * Parses and validates script params, and checks the mapping of the hash field when a lookup is given.
     *
     * @throws IllegalArgumentException naming the offending param in brackets
     */
    static HammingScriptParams parse(Map<String, Object> params, SearchLookup lookup) {
        HammingScriptParams p = parse(params);
        if (lookup != null) {
            p.checkMapping(lookup::fieldType);
        }
        return p;
    }

    /** Parses and validates the params alone, without looking at any mapping. */
    static HammingScriptParams parse(Map<String, Object> params) {
        Map<String, Object> ps = params == null ? Map.of() : params;
        for (String key : ps.keySet()) {
            if (FIELD.equals(key) == false && HASH.equals(key) == false) {
                // a typo such as "hsah" or an option of another feature (max_distance) must not be silently ignored
                throw new IllegalArgumentException(String.format(Locale.ROOT,
                    "unknown simhash script param [%s], expected [%s, %s]", SimHash.abbreviate(key), FIELD, HASH));
            }
        }
        return new HammingScriptParams(parseField(ps.get(FIELD)), parseHash(ps.get(HASH)));
    }

    private static String parseField(Object value) {
        if (value == null) {
            throw new IllegalArgumentException("[" + FIELD + "] param is required: a simhash field or the target object of the simhash processor, e.g. [simhash]");
        }
        if (!(value instanceof String s)) {
            throw new IllegalArgumentException(String.format(Locale.ROOT,
                "[%s] must be a string naming a simhash field or the target object of the simhash processor, got [%s] (%s)",
                FIELD, describe(value), jsonType(value)));
        }
        if (s.isBlank()) {
            throw new IllegalArgumentException("[" + FIELD + "] must not be empty");
        }
        return s;
    }

    private static long parseHash(Object value) {
        if (value == null) {
            throw new IllegalArgumentException("[" + HASH + "] param is required: a fingerprint as 16 hex digits or a signed 64-bit integer");
        }
        // JSON integers arrive as Integer or Long; never round-trip them through a string, where 16 decimal digits would read as hex
        if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return ((Number) value).longValue();
        }
        if (value instanceof String s) {
            try {
                return SimHash.parse(s);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("[" + HASH + "] " + e.getMessage(), e);
            }
        }
        if (value instanceof BigInteger) {
            throw new IllegalArgumentException(String.format(Locale.ROOT,
                "[%s] [%s] is outside the signed 64-bit range; give an unsigned fingerprint as 16 hex digits", HASH, describe(value)));
        }
        throw new IllegalArgumentException(String.format(Locale.ROOT,
            "[%s] must be 16 hex digits (a string) or a signed 64-bit integer, got [%s] (%s)", HASH, describe(value), jsonType(value)));
    }

    /**
     * Finds the fingerprints: a {@code simhash} field by that name, else the object form's hash field, which must be
     * a long with doc values, the only storage of it the scripts can read.
     */
    void checkMapping(Function<String, MappedFieldType> fieldTypes) {
        MappedFieldType given = fieldTypes.apply(target);
        if (given instanceof SimHashFieldType) {
            hashField = given.name();
            return;
        }
        MappedFieldType type = fieldTypes.apply(hashField);
        if (type == null) {
            String hint = "";
            if (isLong(given) && target.endsWith("." + FingerprintFields.HASH)) {
                hint = String.format(Locale.ROOT, "; pass the target object [%s], not its hash field",
                    target.substring(0, target.length() - FingerprintFields.HASH.length() - 1));
            }
            throw new IllegalArgumentException(String.format(Locale.ROOT,
                "[%s] is [%s] but [%s] is not mapped; name a [simhash] field, or map [%s] as a [%s] under the target object the "
                    + "simhash processor writes%s",
                FIELD, target, hashField, hashField, REQUIRED_TYPE, hint));
        }
        if (isLong(type) == false) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "[%s] is [%s] but [%s] is mapped as [%s], expected [%s]",
                FIELD, target, hashField, type.typeName(), REQUIRED_TYPE));
        }
        if (type.hasDocValues() == false) {
            throw new IllegalArgumentException(String.format(Locale.ROOT,
                "[%s] is [%s] but [%s] has no doc values (doc_values: false, or a runtime field); simhash scripts read fingerprints "
                    + "from doc values", FIELD, target, hashField));
        }
    }

    private static boolean isLong(MappedFieldType type) {
        return type instanceof NumberFieldMapper.NumberFieldType n && n.numericType() == org.elasticsearch.index.fielddata.IndexNumericFieldData.NumericType.LONG;
    }

    private static String describe(Object value) {
        return SimHash.abbreviate(String.valueOf(value));
    }

    private static String jsonType(Object value) {
        if (value instanceof Number) {
            return "a number";
        }
        if (value instanceof Boolean) {
            return "a boolean";
        }
        if (value instanceof List<?>) {
            return "an array";
        }
        if (value instanceof Map<?, ?>) {
            return "an object";
        }
        return "a " + value.getClass().getSimpleName();
    }
}
