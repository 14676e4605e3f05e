package dev.simhash.core;

import org.apache.lucene.analysis.Analyzer;

import java.util.function.Function;

/**
 * What a {@link FingerprintSpec} is turned into: its analyzer, its feature-weight table and the fingerprinter made of
 * them. The one rule by which an analyzer name is resolved: a built-in feature analyzer ({@code default},
 * {@code standard}, {@code whitespace}) by that name, otherwise whatever the caller knows by that name (the node's global
 * analyzers, or an index's analyzers where an index is at hand).
 */
public final class Fingerprinters {

    private static final String ANYWHERE = "the node or the index";

    private Fingerprinters() {}

    /**
     * The spec's analyzer: built in, or found by {@code others}.
     *
     * @throws IllegalArgumentException naming {@code [analyzer]} when neither knows the name
     */
    public static Analyzer analyzer(FingerprintSpec spec, Function<String, Analyzer> others) {
        return analyzer(spec, others, ANYWHERE);
    }

    /** {@link #analyzer(FingerprintSpec, Function)}, saying in the error where {@code others} looked, e.g. {@code the node}. */
    public static Analyzer analyzer(FingerprintSpec spec, Function<String, Analyzer> others, String where) {
        FeatureAnalyzer builtIn = spec.builtInAnalyzer();
        if (builtIn != null) {
            return builtIn.analyzer();
        }
        Analyzer a = others == null ? null : others.apply(spec.analyzer());
        if (a == null) {
            throw new FingerprintSpec.InvalidOptionException(FingerprintSpec.ANALYZER, "unknown analyzer [" + SimHash.abbreviate(spec.analyzer())
                + "]: use one of [default, standard, whitespace] or the name of an analyzer of " + where);
        }
        return a;
    }

    /** A fingerprinter for the spec, its analyzer resolved by {@link #analyzer}. */
    public static TextFingerprinter of(FingerprintSpec spec, Function<String, Analyzer> others) {
        return of(spec, others, ANYWHERE);
    }

    /** {@link #of(FingerprintSpec, Function)}, saying in an error where {@code others} looked, e.g. {@code the node}. */
    public static TextFingerprinter of(FingerprintSpec spec, Function<String, Analyzer> others, String where) {
        return of(spec, others, where, null);
    }

    /**
     * {@link #of(FingerprintSpec, Function, String)} whose features' weights are multiplied by the factors of the spec's
     * {@code weights} table, looked up in {@code tables} each time a text is fingerprinted (so a fingerprinter built before
     * the table is known, e.g. while a node restarts, works once it is; see {@link #weights}).
     */
    public static TextFingerprinter of(FingerprintSpec spec, Function<String, Analyzer> others, String where,
                                       FeatureWeights.Tables tables) {
        TextFingerprinter f = spec.version() == FingerprintSpec.Version.V2 ? TextFingerprinter.v2(spec.options().minFeatures())
            : new TextFingerprinter(analyzer(spec, others, where), spec.options());
        return spec.weights() == null ? f : f.withFactors(() -> weights(spec, tables));
    }

    /**
     * The spec's feature-weight table, looked up by name: null when the spec has none.
     *
     * @throws IllegalArgumentException naming {@code [weights]} when there is no such table, it holds another version's
     *                                  features, or it is not the table the spec's digest pins
     */
    public static FeatureWeights weights(FingerprintSpec spec, FeatureWeights.Tables tables) {
        String name = spec.weights();
        if (name == null) {
            return null;
        }
        FeatureWeights table = tables == null ? null : tables.get(name);
        if (table == null) {
            throw invalid("no feature-weight table [" + name + "]: create it with PUT _simhash/weights/" + name);
        }
        FingerprintSpec.Version version = spec.version();
        if (table.version() != version) {
            throw invalid("table [" + name + "] holds " + table.version().algorithm() + " features, this fingerprint is "
                + version.algorithm() + ": use a table computed for [" + version.optionName() + "]");
        }
        String digest = spec.weightsDigest();
        if (digest != null && !digest.equals(table.digest())) {
            throw invalid("table [" + name + "] is not the table this field was created with: the field recorded ["
                + FingerprintSpec.WEIGHTS_DIGEST + "] [" + digest + "], the table's digest is [" + table.digest() + "] (it was deleted "
                + "and made again with other weights); fingerprints made with it would not match the stored ones. Put the original "
                + "table back under this name, or copy the documents into a new field");
        }
        return table;
    }

    private static FingerprintSpec.InvalidOptionException invalid(String reason) {
        return new FingerprintSpec.InvalidOptionException(FingerprintSpec.WEIGHTS, reason);
    }
}
