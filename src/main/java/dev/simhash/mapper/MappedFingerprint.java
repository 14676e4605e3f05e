package dev.simhash.mapper;

import dev.simhash.core.FeatureWeights;
import dev.simhash.core.Fingerprinters;
import dev.simhash.core.FingerprintSpec;
import dev.simhash.core.MinHashSketch;
import dev.simhash.core.TextFingerprinter;

import org.apache.lucene.analysis.Analyzer;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * What a {@code simhash} text field computes, read back from its mapping as the cluster state stores it (a plain map), for
 * code that fingerprints outside the index (an ingest processor): the field's spec and its sketch, so that a document
 * fingerprinted there gets exactly the fingerprint and sketch the field would give it.
 *
 * @param spec   the field's fingerprint spec (with the weights digest it records)
 * @param sketch the field's sketch, or null when it stores none
 */
public record MappedFingerprint(FingerprintSpec spec, MinHashSketch sketch) {

    /**
     * Reads the field's options from its mapping.
     *
     * @param field   the field's full name, for messages
     * @param mapping the field's own mapping ({@code {"type": "simhash", "version": "v2", ...}})
     * @throws IllegalArgumentException naming the field when it is not a {@code simhash} field that fingerprints text
     */
    public static MappedFingerprint of(String field, Map<String, Object> mapping) {
        Object type = mapping.get("type");
        if (!SimHashFieldMapper.CONTENT_TYPE.equals(type)) {
            throw new IllegalArgumentException("[" + field + "] is a [" + type + "] field, not a [" + SimHashFieldMapper.CONTENT_TYPE
                + "] field");
        }
        Object input = mapping.get(SimHashFieldMapper.INPUT);
        if (input != null && SimHashFieldMapper.Input.fromOption(input) != SimHashFieldMapper.Input.TEXT) {
            throw new IllegalArgumentException("[" + field + "] takes ready-made fingerprints ([" + SimHashFieldMapper.INPUT
                + "] = [fingerprint]): it has no text to compare");
        }
        Map<String, Object> given = new HashMap<>();
        for (String option : FingerprintSpec.OPTIONS) {
            if (mapping.get(option) != null) {
                given.put(option, mapping.get(option));
            }
        }
        // the version is always recorded in the mapping; the latest is what a field without it was made with
        FingerprintSpec spec = FingerprintSpec.parse(given, FingerprintSpec.OPTIONS, FingerprintSpec.LATEST);
        Object digest = mapping.get(FingerprintSpec.WEIGHTS_DIGEST);
        if (digest != null) {
            spec = spec.withWeightsDigest(digest.toString());
        }
        // the sketch is always recorded too; a field without the option was made before sketches existed
        Object sketch = mapping.get(SimHashFieldMapper.SKETCH);
        return new MappedFingerprint(spec, MinHashSketch.ALGORITHM.equals(sketch) ? MinHashSketch.V1 : null);
    }

    /**
     * The fingerprinter of the spec, with the node's analyzers (a field whose analyzer is defined in its index's settings is
     * refused, naming the analyzer).
     */
    public TextFingerprinter fingerprinter(Function<String, Analyzer> nodeAnalyzers, String where, FeatureWeights.Tables weights) {
        return Fingerprinters.of(spec, nodeAnalyzers, where, weights);
    }

    /** Whether two fields give the same fingerprints and sketches to the same text. */
    public boolean sameAs(MappedFingerprint other) {
        return spec.equals(other.spec) && sketch == other.sketch;
    }
}
