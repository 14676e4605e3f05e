package dev.simhash.script;

import org.apache.lucene.index.LeafReaderContext;
import org.elasticsearch.script.FieldScript;
import org.elasticsearch.search.lookup.SearchLookup;

import java.util.Map;

/** Field context ({@code script_fields}): the distance (an integer) or the similarity (a double) of each hit. */
final class HammingFieldScript extends FieldScript {

    private final ScriptMetric metric;
    private final FingerprintReader fingerprints;
    private int doc = -1;

    private HammingFieldScript(Map<String, Object> rawParams, SearchLookup lookup, LeafReaderContext leaf, ScriptMetric metric,
                               HammingScriptParams params) {
        super(rawParams, lookup, leaf);
        this.metric = metric;
        this.fingerprints = new FingerprintReader(leaf.reader(), params.hashField(), params.hash());
    }

    @Override
    public void setDocument(int docID) {
        super.setDocument(docID);
        doc = docID;
    }

    @Override
    public Object execute() {
        return metric.fieldValue(fingerprints.distance(doc));
    }

    /** Compiled form of a field script. */
    record Factory(ScriptMetric metric) implements FieldScript.Factory {
        @Override
        public FieldScript.LeafFactory newFactory(Map<String, Object> rawParams, SearchLookup lookup) {
            HammingScriptParams params = HammingScriptParams.parse(rawParams, lookup);
            return leaf -> new HammingFieldScript(rawParams, lookup, leaf, metric, params);
        }

        @Override
        public boolean isResultDeterministic() {
            return true;
        }
    }
}
