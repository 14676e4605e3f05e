package dev.simhash.script;

import org.elasticsearch.script.DocReader;
import org.elasticsearch.script.NumberSortScript;
import org.elasticsearch.search.lookup.SearchLookup;

import java.util.Map;

/** Number-sort context ({@code _script} sort of type {@code number}): Hamming distance or similarity as the sort key. */
final class HammingSortScript extends NumberSortScript {

    private final ScriptMetric metric;
    private final FingerprintReader fingerprints;
    private int doc = -1;

    private HammingSortScript(Map<String, Object> rawParams, SearchLookup lookup, DocReader docReader, ScriptMetric metric,
                              HammingScriptParams params) {
        super(rawParams, lookup, docReader);
        this.metric = metric;
        this.fingerprints = new FingerprintReader(Leaves.of(docReader).reader(), params.hashField(), params.hash());
    }

    @Override
    public void setDocument(int docID) {
        super.setDocument(docID);
        doc = docID;
    }

    @Override
    public double execute() {
        return metric.value(fingerprints.distance(doc));
    }

    /** Compiled form of a sort script. */
    record Factory(ScriptMetric metric) implements NumberSortScript.Factory {
        @Override
        public NumberSortScript.LeafFactory newFactory(Map<String, Object> rawParams, SearchLookup lookup) {
            HammingScriptParams params = HammingScriptParams.parse(rawParams, lookup);
            return new NumberSortScript.LeafFactory() {
                @Override
                public NumberSortScript newInstance(DocReader reader) {
                    return new HammingSortScript(rawParams, lookup, reader, metric, params);
                }

                @Override
                public boolean needs_score() {
                    return false;
                }
            };
        }

        @Override
        public boolean isResultDeterministic() {
            return true;
        }
    }
}
