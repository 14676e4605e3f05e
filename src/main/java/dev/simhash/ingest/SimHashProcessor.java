package dev.simhash.ingest;

import dev.simhash.compat.CompatProcessorFactory;
import dev.simhash.core.FeatureWeights;
import dev.simhash.core.Fingerprinters;
import dev.simhash.core.FeatureBag;
import dev.simhash.core.FingerprintFields;
import dev.simhash.core.FingerprintSpec;
import dev.simhash.core.SimHash;
import dev.simhash.core.TextFingerprinter;

import org.apache.lucene.analysis.Analyzer;
import org.elasticsearch.index.analysis.AnalysisRegistry;
import org.elasticsearch.ingest.AbstractProcessor;
import org.elasticsearch.ingest.ConfigurationUtils;
import org.elasticsearch.ingest.IngestDocument;
import org.elasticsearch.ingest.Processor;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * Ingest processor {@code simhash}: fingerprints a text field (simhash-v1) and writes the full hash
 * ({@code <target>.hash}, a long) and the four 16-bit blocks ({@code <target>.b0..b3}, 4-hex-digit
 * terms) for the exact {@code simhash} query.
 */
public final class SimHashProcessor extends AbstractProcessor {

    public static final String TYPE = "simhash";
    public static final String DEFAULT_TARGET_FIELD = "simhash";

    private final String field;
    private final String targetField;
    private final boolean ignoreMissing;
    private final TextFingerprinter fingerprinter;

    SimHashProcessor(String tag, String description, String field, String targetField, boolean ignoreMissing,
                     TextFingerprinter fingerprinter) {
        super(tag, description);
        this.field = field;
        this.targetField = targetField;
        this.ignoreMissing = ignoreMissing;
        this.fingerprinter = fingerprinter;
    }

    @Override
    public String getType() {
        return TYPE;
    }

    @Override
    public IngestDocument execute(IngestDocument document) {
        Object value = document.getFieldValue(field, Object.class, ignoreMissing);
        if (value == null) {
            if (ignoreMissing) {
                return document;
            }
            throw new IllegalArgumentException("field [" + field + "] is null, cannot compute its simhash");
        }
        OptionalLong fp = fingerprint(value);
        if (fp.isPresent()) {
            document.setFieldValue(targetField, storedForm(fp.getAsLong()));
        } else if (document.hasField(targetField)) {
            // no features, no fingerprint: never leave a stale one from an earlier version of the document
            document.removeField(targetField);
        }
        return document;
    }

    private OptionalLong fingerprint(Object value) {
        if (value instanceof String text) {
            return fingerprinter.fingerprint(text);
        }
        if (value instanceof List<?> list) {
            List<String> texts = strings(field, list, "a string, an array of strings or an object of feature weights");
            return fingerprinter.fingerprint(texts);
        }
        if (value instanceof Map<?, ?> map) {
            return FeatureBag.fingerprintWeighted(weights(map), fingerprinter.options().minFeatures());
        }
        throw new IllegalArgumentException("field [" + field + "] must be a string, an array of strings or an object of feature "
            + "weights, but is of type [" + typeName(value) + "]");
    }

    /**
     * The strings of an array field's value (nulls left out), or an error naming the field, what it must be, and the first
     * element that is not a string.
     */
    static List<String> strings(String field, List<?> list, String mustBe) {
        List<String> texts = new ArrayList<>(list.size());
        for (int i = 0; i < list.size(); i++) {
            Object element = list.get(i);
            if (element instanceof String s) {
                texts.add(s);
            } else if (element != null) {
                throw new IllegalArgumentException("field [" + field + "] must be " + mustBe + ", but element [" + i + "] is of type ["
                    + typeName(element) + "]");
            }
        }
        return texts;
    }

    private Map<String, Double> weights(Map<?, ?> map) {
        Map<String, Double> weights = new LinkedHashMap<>();
        for (Map.Entry<?, ?> e : map.entrySet()) {
            String feature = String.valueOf(e.getKey());
            if (!(e.getValue() instanceof Number n) || !(n.doubleValue() > 0) || Double.isInfinite(n.doubleValue())) {
                throw new IllegalArgumentException("field [" + field + "] is an object of feature weights, but the weight of ["
                    + SimHash.abbreviate(feature) + "] is [" + e.getValue() + "]: weights must be positive numbers");
            }
            weights.put(feature, n.doubleValue());
        }
        return weights;
    }

    private static String typeName(Object value) {
        return value.getClass().getSimpleName();
    }

    /** The object written under the target field: {@code {"hash": long, "b0": "xxxx", ..., "b3": "xxxx"}}. */
    public static Map<String, Object> storedForm(long fingerprint) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put(FingerprintFields.HASH, fingerprint);
        for (int j = 0; j < SimHash.BLOCKS; j++) {
            out.put(FingerprintFields.block(j), SimHash.blockTerm(SimHash.block(fingerprint, j)));
        }
        return out;
    }

    String field() {
        return field;
    }

    String targetField() {
        return targetField;
    }

    boolean ignoreMissing() {
        return ignoreMissing;
    }

    TextFingerprinter fingerprinter() {
        return fingerprinter;
    }

    /** Reads and validates the processor's options; unknown options are rejected by the ingest framework. */
    public static final class Factory extends CompatProcessorFactory {

        private final AnalysisRegistry analysisRegistry;
        private final FeatureWeights.Tables weights;

        public Factory(AnalysisRegistry analysisRegistry) {
            this(analysisRegistry, null);
        }

        /** A factory whose processors find the feature-weight tables ({@code weights}) in the node's registry (null: none). */
        public Factory(AnalysisRegistry analysisRegistry, FeatureWeights.Tables weights) {
            this.analysisRegistry = analysisRegistry;
            this.weights = weights;
        }

        @Override
        public SimHashProcessor create(Map<String, Processor.Factory> registry, String tag, String description,
                                       Map<String, Object> config) throws Exception {
            String field = ConfigurationUtils.readStringProperty(TYPE, tag, config, "field");
            String targetField = ConfigurationUtils.readStringProperty(TYPE, tag, config, "target_field", DEFAULT_TARGET_FIELD);
            boolean ignoreMissing = ConfigurationUtils.readBooleanProperty(TYPE, tag, config, "ignore_missing", false);
            if (field.isEmpty()) {
                throw ConfigurationUtils.newConfigurationException(TYPE, tag, "field", "must not be empty");
            }
            if (targetField.isEmpty()) {
                throw ConfigurationUtils.newConfigurationException(TYPE, tag, "target_field", "must not be empty");
            }
            Map<String, Object> raw = new LinkedHashMap<>();
            for (String option : FingerprintSpec.OPTIONS) {
                Object value = config.remove(option);
                if (value != null) {
                    raw.put(option, value);
                }
            }
            try {
                FingerprintSpec spec = FingerprintSpec.parse(raw);
                // the node's global analyzers: an ingest node has no index at hand
                TextFingerprinter fingerprinter = Fingerprinters.of(spec, this::globalAnalyzer, "the node (an ingest processor cannot use an "
                    + "index's own analyzers; a simhash field can)", weights);
                if (weights == null || weights.recovered()) {
                    // a missing table is refused when the pipeline is put; while the node starts (pipelines re-created before
                    // the cluster state is recovered) the table is looked up when a document is processed
                    Fingerprinters.weights(spec, weights);
                }
                return new SimHashProcessor(tag, description, field, targetField, ignoreMissing, fingerprinter);
            } catch (FingerprintSpec.InvalidOptionException e) {
                throw ConfigurationUtils.newConfigurationException(TYPE, tag, e.option(), e.reason());
            } catch (IllegalArgumentException e) {
                // the node's analysis registry refused the analyzer name
                throw ConfigurationUtils.newConfigurationException(TYPE, tag, FingerprintSpec.ANALYZER, e.getMessage());
            }
        }

        private Analyzer globalAnalyzer(String name) {
            if (analysisRegistry == null) {
                return null;
            }
            try {
                return analysisRegistry.getAnalyzer(name);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
    }
}
