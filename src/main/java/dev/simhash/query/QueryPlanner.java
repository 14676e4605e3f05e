package dev.simhash.query;

import dev.simhash.core.Fingerprinters;
import dev.simhash.core.FingerprintSpec;
import dev.simhash.core.MinHashSketch;
import dev.simhash.core.SimHash;
import dev.simhash.core.TextFingerprinter;
import dev.simhash.mapper.FingerprintField;
import dev.simhash.mapper.SimHashFieldMapper;
import dev.simhash.mapper.SimHashFieldType;
import dev.simhash.threshold.Thresholds;
import dev.simhash.threshold.Verification;

import org.elasticsearch.index.query.SearchExecutionContext;

import java.util.Map;
import java.util.OptionalLong;

/**
 * Chooses what a {@code simhash} query does on a shard, once its field is resolved: {@link #plan} picks the
 * {@link QueryPlan} (a threshold verified with the sketches, the k nearest, or a radius) from the query's parameters, the
 * thresholds' rules ({@link Thresholds}) and the field's mapping; {@link #fingerprint} fingerprints a {@code text} as the
 * field does.
 */
final class QueryPlanner {

    private QueryPlanner() {}

    /**
     * The plan of {@code q} on {@code fp}: verified with the sketches when a threshold applies
     * ({@link Thresholds#queryThreshold}: {@code min_similarity}, or the default where the field stores sketches and the
     * query has one), the k nearest with {@code k}, else the radius.
     *
     * @throws IllegalArgumentException when {@code min_similarity} meets a field or query without a sketch
     */
    static QueryPlan plan(SimHashQueryBuilder q, FingerprintField fp) {
        Double s = Thresholds.queryThreshold(q.minSimilarity(), q.usesDefaults(), q.text() != null || q.sketch() != null,
            fp.isFieldType() && fp.fieldType().sketch() != null);
        if (s != null) {
            return new QueryPlan.Similar(Verification.of(s), querySketch(q, fp), q.k());
        }
        int radius = radius(q, fp);
        return q.k() != null ? new QueryPlan.Nearest(q.k(), radius) : new QueryPlan.Radius(radius);
    }

    /**
     * The radius on a field when no threshold applies: {@code max_distance}; with {@code k} and no radius 64
     * (no limit); else the field's version default
     * (3 for simhash-v1 and the processor's object form, 6 for simhash-v2) or, for a {@code text} on the object form, the
     * default of the version the text is fingerprinted with.
     */
    private static int radius(SimHashQueryBuilder q, FingerprintField fp) {
        if (q.maxDistance() != null) {
            return q.maxDistance();
        }
        if (q.k() != null) {
            return SimHash.BITS;
        }
        return !fp.isFieldType() && q.text() != null ? q.textSpec().version().defaultMaxDistance() : fp.defaultMaxDistance();
    }

    /**
     * The sketch the candidates are verified against: the one given with {@code hash} (a rewritten {@code like}), or the
     * sketch of {@code text} by the field's own sketch (its fingerprint was computed first, so it has tokens).
     *
     * @throws IllegalArgumentException when the field stores no sketch, or a bare hash has none
     */
    private static byte[] querySketch(SimHashQueryBuilder q, FingerprintField fp) {
        MinHashSketch fieldSketch = fp.isFieldType() ? fp.fieldType().sketch() : null;
        if (fieldSketch == null) {
            IllegalArgumentException e = Thresholds.noSketches(q.field(), null, noSketchReason(fp));
            throw new IllegalArgumentException("[" + SimHashQueryBuilder.NAME + "] " + e.getMessage(), e);
        }
        if (q.text() != null) {
            byte[] own = fieldSketch.sketch(q.text());
            if (own == null) {
                // unreachable while a fingerprint needs a token; kept as the same 400 as a text without fingerprint
                throw new IllegalArgumentException("[text] has no token, so no similarity sketch");
            }
            return own;
        }
        if (q.sketch() == null) {
            throw new IllegalArgumentException("[" + SimHashQueryBuilder.NAME + "] " + Thresholds.bareHash().getMessage());
        }
        return q.sketch();
    }

    private static String noSketchReason(FingerprintField fp) {
        if (!fp.isFieldType()) {
            return Thresholds.PROCESSOR_OBJECT_HAS_NO_SKETCH;
        }
        if (fp.fieldType().input() == SimHashFieldMapper.Input.FINGERPRINT) {
            return "it takes ready-made fingerprints ([input] = [fingerprint])";
        }
        if (fp.fieldType().version() != FingerprintSpec.Version.V2) {
            return "it fingerprints with " + fp.fieldType().version().algorithm() + ", which has no sketch";
        }
        return "its [" + SimHashFieldMapper.SKETCH + "] is [" + SimHashFieldMapper.NO_SKETCH + "]";
    }

    /**
     * The fingerprint of the query's {@code text}: with the {@code simhash} field's own spec (options given in the query may only
     * repeat it), or on the processor's object form with the options given and defaults, the analyzer resolved as the
     * processor resolves it.
     */
    static long fingerprint(SimHashQueryBuilder q, FingerprintField fp, SearchExecutionContext context) {
        TextFingerprinter fingerprinter;
        String analyzer;
        if (fp.isFieldType()) {
            SimHashFieldType type = fp.fieldType();
            if (type.spec() == null) {
                throw new IllegalArgumentException("[" + SimHashQueryBuilder.NAME + "] [text] cannot be used on [" + q.field() + "]: it is a [simhash] field with "
                    + "[input] = [fingerprint], which takes ready-made fingerprints; query it with [hash] or [like]");
            }
            for (Map.Entry<String, Object> given : q.textOptions().entrySet()) {
                if (!type.spec().applies(given.getKey())) {
                    throw new IllegalArgumentException("[" + SimHashQueryBuilder.NAME + "] [" + given.getKey() + "] does not apply to the [simhash] field ["
                        + q.field() + "], which fingerprints text with " + type.spec().version().algorithm() + "; leave the option out: "
                        + "the field's own options are used");
                }
                Object own = type.spec().optionValue(given.getKey());
                if (!given.getValue().equals(own)) {
                    throw new IllegalArgumentException("[" + SimHashQueryBuilder.NAME + "] [" + given.getKey() + "] [" + given.getValue() + "] contradicts the "
                        + "[simhash] field [" + q.field() + "], which fingerprints text with [" + given.getKey() + "] = [" + own
                        + "]; leave the option out: the field's own options are used");
                }
            }
            fingerprinter = type.fingerprinter();
            analyzer = type.spec().analyzer();
        } else {
            FingerprintSpec spec = q.textSpec();
            analyzer = spec.analyzer();
            if (!spec.hasBuiltInAnalyzer()
                && context.getIndexSettings().getSettings().getAsSettings("index.analysis.analyzer").names().contains(analyzer)) {
                // the processor resolves names among the node's analyzers: an index's own analyzer would fingerprint differently
                throw new IllegalArgumentException("[" + SimHashQueryBuilder.NAME + "] [analyzer] [" + analyzer + "] is defined in the settings of index ["
                    + context.index().getName() + "], which the simhash processor cannot use, so the fingerprints would not match; "
                    + "fingerprint with a [simhash] field to use an index's analyzer");
            }
            try {
                fingerprinter = Fingerprinters.of(spec, name -> context.getIndexAnalyzers().get(name), "the node", q.weightTables());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("[" + SimHashQueryBuilder.NAME + "] " + e.getMessage(), e);
            }
        }
        OptionalLong fp1 = fingerprinter.fingerprint(q.text());
        if (fp1.isEmpty()) {
            throw new IllegalArgumentException("[text] has no fingerprint: fewer than [min_features] = "
                + fingerprinter.options().minFeatures() + " distinct features after analysis with [" + analyzer + "]");
        }
        return fp1.getAsLong();
    }

    /**
     * Whether {@code exclude}'s {@code index} ({@code excludeIndex}) names this shard's index: an index expression resolved as a search resolves
     * it (a name, an alias, a wildcard pattern, {@code _all}, a comma-separated list whose {@code -}-prefixed items after
     * the first leave indices out), so the document {@code id} is left out of every index the expression names; as the
     * {@code _index} field's queries match index names.
     */
    static boolean excludesFrom(String excludeIndex, SearchExecutionContext context) {
        if (context.index().getName().equals(excludeIndex)) {
            return true;
        }
        boolean named = false;
        String[] parts = excludeIndex.split(",");
        for (int i = 0; i < parts.length; i++) {
            String part = parts[i].trim();
            if (part.isEmpty()) {
                continue;
            }
            if (i > 0 && part.startsWith("-")) {
                if (named && context.indexMatches(part.substring(1))) {
                    named = false;
                }
            } else if (!named && context.indexMatches(part)) {
                named = true;
            }
        }
        return named;
    }

}
