package dev.simhash.compat;

import org.elasticsearch.common.settings.Settings;
import org.elasticsearch.index.IndexSettings;
import org.elasticsearch.index.analysis.AbstractIndexAnalyzerProvider;
import org.elasticsearch.index.analysis.AbstractTokenFilterFactory;
import org.elasticsearch.index.analysis.AbstractTokenizerFactory;

/**
 * Bases of the analysis components (token filter, tokenizer, analyzer provider), all constructed from the index
 * settings, the component's name and its settings: 8.19 passes the settings (checked for deprecated versions) and, for tokenizers, the index settings.
 */
public final class CompatAnalysis {

    private CompatAnalysis() {}

    /** Base of a token filter factory. */
    public abstract static class FilterFactoryBase extends AbstractTokenFilterFactory {
        protected FilterFactoryBase(IndexSettings indexSettings, String name, Settings settings) {
            super(name, settings);
        }
    }

    /** Base of a tokenizer factory. */
    public abstract static class TokenizerFactoryBase extends AbstractTokenizerFactory {
        protected TokenizerFactoryBase(IndexSettings indexSettings, String name, Settings settings) {
            super(indexSettings, settings, name);
        }
    }

    /** Base of an analyzer provider. */
    public abstract static class AnalyzerProviderBase<T extends org.apache.lucene.analysis.Analyzer>
        extends AbstractIndexAnalyzerProvider<T> {
        protected AnalyzerProviderBase(IndexSettings indexSettings, String name, Settings settings) {
            super(name, settings);
        }
    }
}
