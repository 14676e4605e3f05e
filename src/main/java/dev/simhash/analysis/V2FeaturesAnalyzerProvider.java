package dev.simhash.analysis;

import dev.simhash.compat.CompatAnalysis;

import org.apache.lucene.analysis.Analyzer;
import org.elasticsearch.common.settings.Settings;
import org.elasticsearch.env.Environment;
import org.elasticsearch.index.IndexSettings;

import java.util.Set;

/** Analyzer {@value V2FeaturesAnalyzer#NAME}: the features simhash-v2 fingerprints ({@link V2FeaturesAnalyzer}). */
public final class V2FeaturesAnalyzerProvider extends CompatAnalysis.AnalyzerProviderBase<Analyzer> {

    private final Analyzer analyzer;

    public V2FeaturesAnalyzerProvider(IndexSettings indexSettings, Environment environment, String name, Settings settings) {
        super(indexSettings, name, settings);
        new StrictSettings(settings, "analyzer", name, Set.of());
        // a fresh instance: Elasticsearch closes index analyzers with the index
        this.analyzer = new V2FeaturesAnalyzer();
    }

    @Override
    public Analyzer get() {
        return analyzer;
    }
}
