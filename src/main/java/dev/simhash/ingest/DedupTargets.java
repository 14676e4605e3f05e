package dev.simhash.ingest;

import dev.simhash.calibrate.MappingSources;
import dev.simhash.compat.CompatIndices;
import dev.simhash.mapper.MappedFingerprint;

import org.elasticsearch.cluster.metadata.IndexAbstraction;
import org.elasticsearch.cluster.metadata.IndexMetadata;
import org.elasticsearch.cluster.metadata.MappingMetadata;
import org.elasticsearch.common.regex.Regex;
import org.elasticsearch.index.Index;

import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Resolves a {@code simhash_dedup} processor's target (an index, an alias, a pattern, or the document's own index) in the
 * node's cluster state: the concrete indices it covers, and how their {@code simhash} field fingerprints, which must be
 * the same in all of them (a field's options are read from its mapping once per mapping version).
 */
final class DedupTargets {

    /** A target or field the processor cannot use: the option to name, and why (the message is {@code [option] reason}). */
    static final class Refused extends IllegalArgumentException {
        final String option;
        final String reason;

        Refused(String option, String reason) {
            super("[" + option + "] " + reason);
            this.option = option;
            this.reason = reason;
        }
    }

    /** The target's concrete indices, and the fingerprint all of them map the field with. */
    record Resolved(Set<String> indices, Set<String> namedIndices, MappedFingerprint fingerprint) {}

    private final CompatIndices indices;
    private final String field;
    private final Map<String, Object> parsed = new ConcurrentHashMap<>();

    DedupTargets(CompatIndices indices, String field) {
        this.indices = indices;
        this.field = field;
    }

    /**
     * @param target the expression (comma-separated names, aliases, patterns)
     * @return null when the expression covers no index of the cluster state
     * @throws Refused naming the option when an index maps the field otherwise, or the indices disagree
     */
    Resolved resolve(String target) {
        SortedMap<String, IndexAbstraction> lookup = indices.lookup();
        Set<String> concrete = new LinkedHashSet<>();
        // indices named outright or through an alias (not through a pattern): a search that may not read them is refused
        Set<String> named = new LinkedHashSet<>();
        for (String part : target.split(",")) {
            String name = part.trim();
            if (name.isEmpty() || name.startsWith("-")) {
                continue;
            }
            if (Regex.isSimpleMatchPattern(name)) {
                for (Map.Entry<String, IndexAbstraction> e : lookup.entrySet()) {
                    if (Regex.simpleMatch(name, e.getKey()) && (e.getKey().startsWith(".") == false || name.startsWith("."))) {
                        add(e.getValue(), concrete);
                    }
                }
            } else {
                IndexAbstraction a = lookup.get(name);
                if (a != null) {
                    add(a, concrete);
                    add(a, named);
                }
            }
        }
        if (concrete.isEmpty()) {
            return null;
        }
        MappedFingerprint common = null;
        for (String index : concrete) {
            MappedFingerprint f = fingerprintOf(index);
            if (f == null) {
                continue;
            }
            if (common != null && common.sameAs(f) == false) {
                throw new Refused("target", "[" + target + "]: its indices map [" + field + "] with different fingerprint "
                    + "options, so one fingerprint of the document cannot be compared with all of them");
            }
            common = f;
        }
        if (common == null) {
            throw new Refused("simhash_field", "[" + field + "] is not mapped in [" + target + "]: map it as a [simhash] "
                + "field there");
        }
        if (common.sketch() == null) {
            throw new Refused("simhash_field", "[" + field + "] stores no similarity sketch in [" + target + "] (its "
                + "mapping says [sketch: none]): the processor compares sketches, as min_similarity does");
        }
        return new Resolved(concrete, named, common);
    }

    private static void add(IndexAbstraction a, Set<String> into) {
        for (Index i : a.getIndices()) {
            into.add(i.getName());
        }
    }

    /** The field's fingerprint in one index (null: not mapped there), read from the mapping once per mapping version. */
    private MappedFingerprint fingerprintOf(String index) {
        IndexMetadata meta = indices.index(index);
        if (meta == null) {
            return null;
        }
        String key = meta.getIndexUUID() + "/" + meta.getMappingVersion();
        Object cached = parsed.get(key);
        if (cached == null) {
            cached = parse(meta);
            if (parsed.size() > 1024) {
                parsed.clear();
            }
            parsed.put(key, cached);
        }
        if (cached instanceof Refused e) {
            throw new Refused(e.option, e.reason);
        }
        return cached == NOT_MAPPED ? null : (MappedFingerprint) cached;
    }

    private static final Object NOT_MAPPED = new Object();

    private Object parse(IndexMetadata meta) {
        MappingMetadata mapping = meta.mapping();
        if (mapping == null) {
            return NOT_MAPPED;
        }
        Map<String, Object> own = MappingSources.find(mapping.sourceAsMap(), field).mapping();
        if (own == null) {
            return NOT_MAPPED;
        }
        try {
            return MappedFingerprint.of(field, own);
        } catch (IllegalArgumentException e) {
            return new Refused("simhash_field", e.getMessage() + " in index [" + meta.getIndex().getName() + "]");
        }
    }
}
