package dev.simhash.calibrate;

import dev.simhash.compat.CompatIndices;
import dev.simhash.core.FingerprintFields;
import dev.simhash.core.FingerprintSpec;
import dev.simhash.core.MinHashSketch;
import dev.simhash.mapper.SimHashFieldMapper;
import dev.simhash.mapper.SimHashFieldType;

import org.elasticsearch.action.fieldcaps.FieldCapabilities;
import org.elasticsearch.action.fieldcaps.FieldCapabilitiesRequest;
import org.elasticsearch.action.fieldcaps.FieldCapabilitiesResponse;
import org.elasticsearch.cluster.metadata.IndexMetadata;
import org.elasticsearch.cluster.metadata.MappingMetadata;
import org.elasticsearch.index.IndexService;
import org.elasticsearch.index.IndexSettings;
import org.elasticsearch.index.mapper.MappedFieldType;
import org.elasticsearch.index.mapper.MapperService;
import org.elasticsearch.indices.IndicesService;

import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The target indices of a calibration: that the field is a {@code simhash} field (through the field capabilities), where
 * each index keeps the text the field fingerprints (from its mapping), and each index's field type (its fingerprinter and
 * sketch), with what the report says of them.
 */
final class CalibrateTargets {

    private static final String UNMAPPED = "unmapped";

    /** Where one index's texts are. */
    record Target(String sourceField) {}

    private final CalibrateRequest request;
    private final CompatIndices indices;
    private final IndicesService indicesService;
    private final Map<String, Target> targets = new TreeMap<>();
    private final Map<String, SimHashFieldType> types = new TreeMap<>();

    CalibrateTargets(CalibrateRequest request, CompatIndices indices, IndicesService indicesService) {
        this.request = request;
        this.indices = indices;
        this.indicesService = indicesService;
    }

    /** The field capabilities that {@link #resolve} checks: the field's and those of the processor's object form. */
    FieldCapabilitiesRequest fieldCapsRequest() {
        String field = request.field();
        return new FieldCapabilitiesRequest().indices(request.indices()).indicesOptions(request.indicesOptions())
            .fields(field, FingerprintFields.hashPath(field)).includeUnmapped(true);
    }

    /**
     * Checks the field, finds each index's text field, and gives the sample's size: the request's, at most every target
     * index's {@code index.max_result_window}.
     */
    int resolve(FieldCapabilitiesResponse caps) {
        checkFieldType(caps, request.field());
        int pageLimit = request.sampleSize();
        for (String index : caps.getIndices()) {
            IndexMetadata metadata = indices.index(index);
            if (metadata == null) {
                continue;
            }
            pageLimit = Math.min(pageLimit, IndexSettings.MAX_RESULT_WINDOW_SETTING.get(metadata.getSettings()));
            Target target = target(index, metadata);
            if (target != null) {
                targets.put(index, target);
            }
        }
        return pageLimit;
    }

    /** Looks up the field type of every index that maps the field; mapper services built for it go to {@code toClose}. */
    void loadFieldTypes(List<Closeable> toClose) throws IOException {
        for (String index : targets.keySet()) {
            types.put(index, fieldType(index, toClose));
        }
    }

    /** Where the index's texts are; null when it does not map the field. */
    Target target(String index) {
        return targets.get(index);
    }

    SimHashFieldType type(String index) {
        return types.get(index);
    }

    /** The indices that map the field, in order. */
    List<String> indices() {
        return List.copyOf(types.keySet());
    }

    /** The text fields of the indices, each once, joined by ", ". */
    String sourceFields() {
        return String.join(", ", new LinkedHashSet<>(targets.values().stream().map(Target::sourceField).toList()));
    }

    /** The fingerprint options of the first index; null when none maps the field. */
    FingerprintSpec firstSpec() {
        return types.isEmpty() ? null : types.values().iterator().next().spec();
    }

    /**
     * The similarity sketch when every index verifies with the same one, else null: the verified rule's report only then,
     * since otherwise no query of them verifies alike.
     */
    MinHashSketch sketch() {
        return sketchNames().equals(Set.of(MinHashSketch.ALGORITHM)) ? types.values().iterator().next().sketch() : null;
    }

    private Set<String> sketchNames() {
        Set<String> sketchNames = new LinkedHashSet<>();
        types.values().forEach(t -> sketchNames.add(t.sketch() == null ? "none" : MinHashSketch.ALGORITHM));
        return sketchNames;
    }

    /** What the report says of the target indices, which the sample does not know. */
    List<String> warnings() {
        Set<Object> specs = new LinkedHashSet<>();
        types.values().forEach(t -> specs.add(t.spec().toMap()));
        List<String> warnings = new ArrayList<>();
        if (sketchNames().size() > 1) {
            warnings.add("some target indices store a similarity sketch in [" + request.field() + "] and some do not: the report "
                + "covers radii ([max_distance]) only");
        }
        if (specs.size() > 1) {
            warnings.add("the target indices fingerprint [" + request.field() + "] with different options " + specs
                + ": each document's copies are fingerprinted with its own index's options, and [fingerprint] shows the first");
        }
        return warnings;
    }

    /** Where the index's text for the field is, from its mapping; null when the index does not map the field. */
    private Target target(String index, IndexMetadata metadata) {
        MappingMetadata mapping = metadata.mapping();
        Map<String, Object> source = mapping == null ? Map.of() : mapping.sourceAsMap();
        MappingSources.Found found = MappingSources.find(source, request.field());
        if (found.mapping() == null) {
            return null;
        }
        if (SimHashFieldMapper.Input.FINGERPRINT.optionName().equals(found.mapping().get(SimHashFieldMapper.INPUT))) {
            throw new IllegalArgumentException("[field] [" + request.field() + "] takes ready-made fingerprints ([input] = [fingerprint]) "
                + "in index [" + index + "]: _simhash/calibrate fingerprints edited copies of the documents' texts with the field's "
                + "own options, which such a field does not have");
        }
        if (request.sourceField() != null) {
            if (MappingSources.find(source, request.sourceField()).mapping() == null) {
                throw new IllegalArgumentException("[source_field] [" + request.sourceField() + "] is not mapped in index [" + index
                    + "]");
            }
            return new Target(request.sourceField());
        }
        if (found.multiParent() != null) {
            return new Target(found.multiParent());
        }
        if (found.copiedFrom().size() == 1) {
            return new Target(found.copiedFrom().get(0));
        }
        throw new IllegalArgumentException("[source_field] is required: [field] [" + request.field() + "] in index [" + index
            + "] is not a multi-field of a text field but " + (found.copiedFrom().isEmpty() ? "a field no other field copies to"
            : "the copy_to target of " + found.copiedFrom()) + "; name the text field whose edited copies to fingerprint");
    }

    /** The index's field type: from the index's own mapper service on this node, or one built from its metadata. */
    private SimHashFieldType fieldType(String index, List<Closeable> toClose) throws IOException {
        IndexMetadata metadata = indices.index(index);
        if (metadata == null) {
            throw new IllegalStateException("index [" + index + "] disappeared while calibrating");
        }
        IndexService service = indicesService.indexService(metadata.getIndex());
        MappedFieldType type;
        if (service != null) {
            type = service.mapperService().fieldType(request.field());
        } else {
            MapperService mappers = indicesService.createIndexMapperServiceForValidation(metadata);
            toClose.add(mappers);
            mappers.merge(metadata, MapperService.MergeReason.MAPPING_RECOVERY);
            type = mappers.fieldType(request.field());
        }
        if (!(type instanceof SimHashFieldType ft) || ft.fingerprinter() == null) {
            throw new IllegalArgumentException("[field] [" + request.field() + "] is not a [" + SimHashFieldMapper.CONTENT_TYPE
                + "] field with [input] = [text] in index [" + index + "]");
        }
        return ft;
    }

    /**
     * @throws IllegalArgumentException naming {@code [field]} unless it is a {@code simhash} field in every target index
     *                                  that maps it, and at least one does
     */
    static void checkFieldType(FieldCapabilitiesResponse caps, String field) {
        Map<String, FieldCapabilities> types = caps.getField(field);
        boolean simhash = false;
        if (types != null) {
            for (String type : types.keySet()) {
                if (SimHashFieldMapper.CONTENT_TYPE.equals(type)) {
                    simhash = true;
                } else if (!UNMAPPED.equals(type) && !"object".equals(type)) {
                    throw new IllegalArgumentException("[field] [" + field + "] is a [" + type + "] field; it must name a ["
                        + SimHashFieldMapper.CONTENT_TYPE + "] field, e.g. the multi-field [" + field + ".simhash] of a text field");
                }
            }
        }
        if (simhash) {
            return;
        }
        Map<String, FieldCapabilities> hash = caps.getField(FingerprintFields.hashPath(field));
        if (hash != null && !hash.keySet().stream().allMatch(UNMAPPED::equals)) {
            throw new IllegalArgumentException("[field] [" + field + "] is the object form of the simhash processor, which "
                + "_simhash/calibrate does not support: it fingerprints edited copies with the options bound to a [simhash] field; map "
                + "one (see docs/operations/upgrades.md, \"Migrating from the object form to the field type\") and calibrate that");
        }
        throw new IllegalArgumentException("[field] [" + field + "] is not mapped in the target indices; it must name a ["
            + SimHashFieldMapper.CONTENT_TYPE + "] field");
    }
}
