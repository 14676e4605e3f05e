package dev.simhash.core;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * How a text becomes a fingerprint: algorithm version, feature analyzer, shingle size, weighting and
 * minimum number of features. The one place where these options are named, defaulted, parsed and
 * validated, for the token filter, the ingest processor, the {@code simhash} field type and the query
 * alike. Immutable; {@link Fingerprinters} turns it into a fingerprinter.
 */
public final class FingerprintSpec {

    public static final String VERSION = "version";
    public static final String ANALYZER = "analyzer";
    public static final String SHINGLE_SIZE = "shingle_size";
    public static final String WEIGHTING = "weighting";
    public static final String MIN_FEATURES = "min_features";
    /** The name of a feature-weight table ({@code _simhash/weights}); absent: no table. */
    public static final String WEIGHTS = "weights";
    /**
     * Which table {@code weights} must be ({@link FeatureWeights#digest()}): recorded by a {@code simhash} field when it is
     * created; not one of {@link #OPTIONS} (the table's name is the option, the digest pins it).
     */
    public static final String WEIGHTS_DIGEST = "weights_digest";

    /** Every option of a spec, in the order they are rendered. */
    public static final List<String> OPTIONS = List.of(VERSION, ANALYZER, SHINGLE_SIZE, WEIGHTING, MIN_FEATURES, WEIGHTS);

    /** The algorithm versions of the fingerprint contract; a released version never changes. */
    public enum Version {
        /** simhash-v1: features from an analyzer, optional shingles and a weighting; see docs/spec/simhash-v1.md. */
        V1(SimHash.DEFAULT_MAX_DISTANCE, List.of(VERSION, ANALYZER, SHINGLE_SIZE, WEIGHTING, MIN_FEATURES, WEIGHTS)),
        /** simhash-v2: fixed features (folded text, words and Han characters, unigrams and bigrams, binary weights); see docs/spec/simhash-v2.md. */
        V2(SimHashV2.DEFAULT_MAX_DISTANCE, List.of(VERSION, MIN_FEATURES, WEIGHTS));

        private final int defaultMaxDistance;
        private final List<String> options;

        Version(int defaultMaxDistance, List<String> options) {
            this.defaultMaxDistance = defaultMaxDistance;
            this.options = options;
        }

        /** The option value users write, e.g. {@code v1}. */
        public String optionName() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** The name of the contract, e.g. {@code simhash-v1}. */
        public String algorithm() {
            return "simhash-" + optionName();
        }

        /** The documented default radius of this version (v1: 3 bits; v2: 6 bits, chosen on natural near-duplicates). */
        public int defaultMaxDistance() {
            return defaultMaxDistance;
        }

        /** The options that decide a fingerprint of this version, in rendering order. */
        public List<String> options() {
            return options;
        }

        public static Version fromOption(String value) {
            for (Version v : values()) {
                if (v.optionName().equals(value)) {
                    return v;
                }
            }
            throw invalid(VERSION, "unknown version [" + SimHash.abbreviate(value)
                + "], expected one of [v1, v2]");
        }
    }

    /**
     * The version of configurations that do not record one: processors, token filters and object-form queries without
     * {@code version} (their stored configurations predate v2, so their fingerprints must not change meaning).
     */
    public static final Version DEFAULT_VERSION = Version.V1;
    /** The version of new configurations that record their version: a {@code simhash} field mapped without one. */
    public static final Version LATEST = Version.V2;
    public static final String DEFAULT_ANALYZER = FeatureAnalyzer.DEFAULT.optionName();
    public static final FingerprintSpec DEFAULTS = new FingerprintSpec(DEFAULT_VERSION, DEFAULT_ANALYZER, FingerprintOptions.DEFAULTS);

    /**
     * An invalid fingerprint option: the message is {@code [option] reason}, and callers that report options their
     * own way (the ingest processor's configuration errors) read the option and the reason separately.
     */
    public static final class InvalidOptionException extends IllegalArgumentException {
        private final String option;
        private final String reason;

        InvalidOptionException(String option, String reason) {
            super("[" + option + "] " + reason);
            this.option = option;
            this.reason = reason;
        }

        public String option() {
            return option;
        }

        public String reason() {
            return reason;
        }
    }

    /** simhash-v2's options: its features and weights are fixed, only min_features varies. */
    static FingerprintOptions v2Options(int minFeatures) {
        return new FingerprintOptions(FingerprintOptions.DEFAULT_SHINGLE_SIZE, Weighting.BINARY, minFeatures);
    }

    private static InvalidOptionException invalid(String option, String reason) {
        return new InvalidOptionException(option, reason);
    }

    private final Version version;
    private final String analyzer;
    private final FingerprintOptions options;
    /** The feature-weight table's name, or null. */
    private final String weights;
    /** The digest the table must have (recorded by a field when it was created), or null: any table of that name. */
    private final String weightsDigest;

    public FingerprintSpec(Version version, String analyzer, FingerprintOptions options) {
        this(version, analyzer, options, null);
    }

    /** A spec whose features' weights are multiplied by the factors of the named table ({@code weights}; null for none). */
    public FingerprintSpec(Version version, String analyzer, FingerprintOptions options, String weights) {
        this(version, analyzer, options, weights, null);
    }

    private FingerprintSpec(Version version, String analyzer, FingerprintOptions options, String weights, String weightsDigest) {
        if (weightsDigest != null && weights == null) {
            throw invalid(WEIGHTS_DIGEST, "applies only with [" + WEIGHTS + "]");
        }
        this.weightsDigest = weightsDigest;
        if (weights != null) {
            String reason = FeatureWeights.invalidNameReason(weights);
            if (reason != null) {
                throw invalid(WEIGHTS, reason);
            }
        }
        this.weights = weights;
        this.version = Objects.requireNonNull(version, "[version] must not be null");
        if (analyzer == null || analyzer.isBlank()) {
            throw invalid(ANALYZER, "must be a non-empty analyzer name");
        }
        this.analyzer = analyzer;
        this.options = Objects.requireNonNull(options);
        if (version == Version.V2 && !(analyzer.equals(DEFAULT_ANALYZER) && options.equals(v2Options(options.minFeatures())))) {
            throw new IllegalArgumentException(version.algorithm() + " fixes its analysis, shingles and weighting, got [" + analyzer
                + "], [" + options + "]");
        }
    }

    public Version version() {
        return version;
    }

    /** The analyzer name as given (a built-in feature analyzer or another analyzer's name). */
    public String analyzer() {
        return analyzer;
    }

    /** Shingle size, weighting and minimum number of features. */
    public FingerprintOptions options() {
        return options;
    }

    /** The name of the feature-weight table, or null when the spec has none. */
    public String weights() {
        return weights;
    }

    /** The digest the spec's table must have, or null when any table of its name will do. */
    public String weightsDigest() {
        return weightsDigest;
    }

    /**
     * This spec using only the table with this digest ({@link FeatureWeights#digest()}; null: any table of the name): what
     * a field records when it is created, so that a table deleted and made again with other weights under the same name is
     * refused instead of silently changing what new fingerprints mean.
     *
     * @throws IllegalArgumentException naming {@code [weights_digest]} when it is not 32 lowercase hex digits or the spec has no table
     */
    public FingerprintSpec withWeightsDigest(String digest) {
        if (digest != null && !digest.matches("[0-9a-f]{32}")) {
            throw invalid(WEIGHTS_DIGEST, "must be the 32 lowercase hex digits of a table's digest, got [" + SimHash.abbreviate(digest)
                + "]");
        }
        return Objects.equals(digest, weightsDigest) ? this : new FingerprintSpec(version, analyzer, options, weights, digest);
    }

    /**
     * Builds a spec from raw option values as they arrive from JSON, index settings or processor
     * configuration (strings, numbers). Options that are absent take their defaults.
     *
     * @param allowed the options the caller accepts (e.g. a token filter has no analyzer)
     * @throws IllegalArgumentException starting with the option in brackets, e.g. {@code [shingle_size] ...}
     */
    public static FingerprintSpec parse(Map<String, ?> raw, Collection<String> allowed) {
        return parse(raw, allowed, DEFAULT_VERSION);
    }

    /**
     * {@link #parse(Map, Collection)} with the version taken when {@code version} is absent.
     *
     * @throws IllegalArgumentException for an option the version does not have (v2 fixes analyzer, shingles and weighting)
     */
    public static FingerprintSpec parse(Map<String, ?> raw, Collection<String> allowed, Version defaultVersion) {
        for (String key : raw.keySet()) {
            if (!allowed.contains(key)) {
                throw invalid(SimHash.abbreviate(key), "is not a fingerprint option, expected one of "
                    + allowed);
            }
        }
        Version version = raw.get(VERSION) == null ? defaultVersion : parseVersion(raw.get(VERSION));
        String weights = raw.get(WEIGHTS) == null ? null : parseWeights(raw.get(WEIGHTS));
        for (String option : OPTIONS) {
            if (raw.get(option) != null && !version.options().contains(option)) {
                throw invalid(option, "does not apply to " + version.algorithm() + ", which fixes its features (folded "
                    + "text, Unicode words and Han characters, unigrams and bigrams, each distinct one weight 1); set [version] to [v1] "
                    + "to choose the analyzer, shingles and weighting");
            }
        }
        if (version == Version.V2) {
            int minFeatures = raw.get(MIN_FEATURES) == null ? FingerprintOptions.DEFAULT_MIN_FEATURES : parseMinFeatures(raw.get(MIN_FEATURES));
            return new FingerprintSpec(version, DEFAULT_ANALYZER, v2Options(minFeatures), weights);
        }
        String analyzer = raw.get(ANALYZER) == null ? DEFAULT_ANALYZER : parseAnalyzer(raw.get(ANALYZER));
        int shingleSize = raw.get(SHINGLE_SIZE) == null ? FingerprintOptions.DEFAULT_SHINGLE_SIZE : parseShingleSize(raw.get(SHINGLE_SIZE));
        Weighting weighting = raw.get(WEIGHTING) == null ? Weighting.DEFAULT : parseWeighting(raw.get(WEIGHTING));
        int minFeatures = raw.get(MIN_FEATURES) == null ? FingerprintOptions.DEFAULT_MIN_FEATURES : parseMinFeatures(raw.get(MIN_FEATURES));
        return new FingerprintSpec(version, analyzer, new FingerprintOptions(shingleSize, weighting, minFeatures), weights);
    }

    /** {@link #parse(Map, Collection)} accepting every option. */
    public static FingerprintSpec parse(Map<String, ?> raw) {
        return parse(raw, OPTIONS);
    }

    /**
     * Converts and validates one raw option value by its name, for callers that handle every option alike (the mapping
     * parameters, {@link #canonicalValue}): a {@link Version}, the analyzer name, an {@link Integer}, a {@link Weighting} or
     * the weights table's name. Typed callers use the option's own parser ({@link #parseVersion} and the others).
     *
     * @throws IllegalArgumentException starting with the option in brackets
     */
    public static Object parseValue(String option, Object raw) {
        return switch (option) {
            case VERSION -> parseVersion(raw);
            case ANALYZER -> parseAnalyzer(raw);
            case SHINGLE_SIZE -> parseShingleSize(raw);
            case WEIGHTING -> parseWeighting(raw);
            case MIN_FEATURES -> parseMinFeatures(raw);
            case WEIGHTS -> parseWeights(raw);
            default -> throw invalid(SimHash.abbreviate(option), "is not a fingerprint option, expected one of " + OPTIONS);
        };
    }

    /** {@code version}: {@code v1} or {@code v2}. */
    public static Version parseVersion(Object raw) {
        return Version.fromOption(string(VERSION, raw));
    }

    /** {@code analyzer}: a non-empty name (resolved later, by {@link Fingerprinters#analyzer}). */
    public static String parseAnalyzer(Object raw) {
        String name = string(ANALYZER, raw);
        if (name.isBlank()) {
            throw invalid(ANALYZER, "must be a non-empty analyzer name");
        }
        return name;
    }

    /** {@code shingle_size}: 1 to {@value FingerprintOptions#MAX_SHINGLE_SIZE}. */
    public static int parseShingleSize(Object raw) {
        int v = integer(SHINGLE_SIZE, raw);
        if (v < 1 || v > FingerprintOptions.MAX_SHINGLE_SIZE) {
            throw invalid(SHINGLE_SIZE, "must be between 1 and " + FingerprintOptions.MAX_SHINGLE_SIZE + ", got [" + v + "]");
        }
        return v;
    }

    /** {@code weighting}: a {@link Weighting} by its option name. */
    public static Weighting parseWeighting(Object raw) {
        try {
            return Weighting.fromOption(string(WEIGHTING, raw));
        } catch (IllegalArgumentException e) {
            throw invalid(WEIGHTING, e.getMessage());
        }
    }

    /** {@code min_features}: at least 1. */
    public static int parseMinFeatures(Object raw) {
        int v = integer(MIN_FEATURES, raw);
        if (v < 1) {
            throw invalid(MIN_FEATURES, "must be at least 1, got [" + v + "]");
        }
        return v;
    }

    /** {@code weights}: a valid table name (the table is looked up later, by {@link Fingerprinters#weights}). */
    public static String parseWeights(Object raw) {
        String name = string(WEIGHTS, raw);
        String reason = FeatureWeights.invalidNameReason(name);
        if (reason != null) {
            throw invalid(WEIGHTS, "table name " + reason);
        }
        return name;
    }

    /**
     * One raw option value in the form users write it, validated: a version or weighting by its option name,
     * numbers as {@link Integer}, the analyzer as its name; equal to {@link #optionValue} of a spec with that value.
     *
     * @throws IllegalArgumentException starting with the option in brackets
     */
    public static Object canonicalValue(String option, Object raw) {
        Object parsed = parseValue(option, raw);
        return parsed instanceof Version v ? v.optionName() : parsed instanceof Weighting w ? w.optionName() : parsed;
    }

    private static String string(String option, Object raw) {
        if (raw instanceof String s) {
            return s;
        }
        throw invalid(option, "must be a string, got [" + SimHash.abbreviate(String.valueOf(raw)) + "]");
    }

    private static int integer(String option, Object raw) {
        if (raw instanceof Integer || raw instanceof Short || raw instanceof Byte) {
            return ((Number) raw).intValue();
        }
        if (raw instanceof Long l && l == l.intValue()) {
            return l.intValue();
        }
        if (raw instanceof String s) {
            String t = s.trim();
            if (!t.isEmpty() && t.length() <= 10 && t.chars().allMatch(c -> c >= '0' && c <= '9' || c == '-')) {
                try {
                    return Integer.parseInt(t);
                } catch (NumberFormatException e) {
                    // fall through to the message below
                }
            }
        }
        throw invalid(option, "must be an integer, got [" + SimHash.abbreviate(String.valueOf(raw)) + "]");
    }

    /** The value of an option in this spec, in the form users write it. */
    public Object optionValue(String option) {
        return switch (option) {
            case VERSION -> version.optionName();
            case ANALYZER -> analyzer;
            case SHINGLE_SIZE -> options.shingleSize();
            case WEIGHTING -> options.weighting().optionName();
            case MIN_FEATURES -> options.minFeatures();
            case WEIGHTS -> weights;
            default -> throw invalid(option, "is not a fingerprint option");
        };
    }

    /** Whether an option decides the fingerprints of this spec's version (v2 has no analyzer, shingle size or weighting). */
    public boolean applies(String option) {
        return version.options().contains(option);
    }

    /** Every option of the spec's version with its value, in {@link #OPTIONS} order ({@code weights} only when set). */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        for (String o : version.options()) {
            if (optionValue(o) != null) {
                m.put(o, optionValue(o));
            }
        }
        return m;
    }

    /** Whether the analyzer is one of the built-in feature analyzers, or v2's own (needs no index or node to resolve). */
    public boolean hasBuiltInAnalyzer() {
        return version == Version.V2 || builtInAnalyzer() != null;
    }

    /** The built-in feature analyzer of that name, or null: another analyzer, resolved by {@link Fingerprinters#analyzer}. */
    FeatureAnalyzer builtInAnalyzer() {
        for (FeatureAnalyzer a : FeatureAnalyzer.values()) {
            if (a.optionName().equals(analyzer)) {
                return a;
            }
        }
        return null;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FingerprintSpec other
            && version == other.version
            && analyzer.equals(other.analyzer)
            && options.equals(other.options)
            && Objects.equals(weights, other.weights)
            && Objects.equals(weightsDigest, other.weightsDigest);
    }

    @Override
    public int hashCode() {
        return Objects.hash(version, analyzer, options, weights, weightsDigest);
    }

    @Override
    public String toString() {
        return toMap().toString();
    }
}
