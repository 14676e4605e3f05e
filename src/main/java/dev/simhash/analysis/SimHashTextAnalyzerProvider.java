package dev.simhash.analysis;

import dev.simhash.compat.CompatAnalysis;
import dev.simhash.core.FeatureAnalyzer;

import org.apache.lucene.analysis.Analyzer;
import org.elasticsearch.common.settings.Settings;
import org.elasticsearch.env.Environment;
import org.elasticsearch.index.IndexSettings;

import java.util.Set;

/**
 * Analyzer {@code simhash_text}: exactly the simhash-v1 {@code default} feature analyzer, so users
 * can see the features of a text with {@code _analyze} or reuse the chain in a mapping.
 */
public final class SimHashTextAnalyzerProvider extends CompatAnalysis.AnalyzerProviderBase<Analyzer> {

    public static final String NAME = "simhash_text";

    private final Analyzer analyzer;

    public SimHashTextAnalyzerProvider(IndexSettings indexSettings, Environment environment, String name, Settings settings) {
        super(indexSettings, name, settings);
        new StrictSettings(settings, "analyzer", name, Set.of());
        // a fresh instance: Elasticsearch closes index analyzers with the index
        this.analyzer = FeatureAnalyzer.DEFAULT.newAnalyzer();
    }

    @Override
    public Analyzer get() {
        return analyzer;
    }
}
