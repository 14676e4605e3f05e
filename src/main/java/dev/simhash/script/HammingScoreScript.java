package dev.simhash.script;

import dev.simhash.core.SimHash;

import org.elasticsearch.script.DocReader;
import org.elasticsearch.script.ScoreScript;
import org.elasticsearch.search.lookup.SearchLookup;

import java.util.Locale;
import java.util.Map;

/** Score context ({@code script_score} query, script rescorer): Hamming distance or similarity as the score. */
final class HammingScoreScript extends ScoreScript {

    private final ScriptMetric metric;
    private final HammingScriptParams params;
    private final FingerprintReader fingerprints;

    private HammingScoreScript(Map<String, Object> rawParams, SearchLookup lookup, DocReader docReader, ScriptMetric metric,
                               HammingScriptParams params) {
        super(rawParams, lookup, docReader);
        this.metric = metric;
        this.params = params;
        this.fingerprints = new FingerprintReader(Leaves.of(docReader).reader(), params.hashField(), params.hash());
    }

    @Override
    public double execute(ExplanationHolder explanation) {
        int distance = fingerprints.distance(_getDocId());
        double value = metric.value(distance);
        if (explanation != null) {
            // only built for explain requests, never on the scoring path
            explanation.set(String.format(Locale.ROOT, "simhash %s = %s: Hamming distance %d from [%s]%s", metric.source(), value,
                distance, SimHash.toHex(params.hash()),
                distance == FingerprintReader.MISSING_DISTANCE ? " (or no fingerprint in [" + params.hashField() + "])" : ""));
        }
        return value;
    }

    /** Compiled form of a score script: the metric; params are checked per shard in {@link #newFactory}. */
    record Factory(ScriptMetric metric) implements ScoreScript.Factory {
        @Override
        public ScoreScript.LeafFactory newFactory(Map<String, Object> rawParams, SearchLookup lookup) {
            HammingScriptParams params = HammingScriptParams.parse(rawParams, lookup);
            return new ScoreScript.LeafFactory() {
                @Override
                public boolean needs_score() {
                    return false;
                }

                @Override
                public boolean needs_termStats() {
                    return false;
                }

                @Override
                public ScoreScript newInstance(DocReader reader) {
                    return new HammingScoreScript(rawParams, lookup, reader, metric, params);
                }
            };
        }

        @Override
        public boolean isResultDeterministic() {
            return true; // a function of the params and doc values only: results may be cached
        }
    }
}
