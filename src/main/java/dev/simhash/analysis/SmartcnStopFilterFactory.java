package dev.simhash.analysis;

import dev.simhash.compat.CompatAnalysis;
import org.apache.lucene.analysis.StopFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.cn.smart.SmartChineseAnalyzer;
import org.elasticsearch.common.settings.Settings;
import org.elasticsearch.env.Environment;
import org.elasticsearch.index.IndexSettings;

import java.util.Set;

/**
 * Token filter {@code simhash_smartcn_stop}: removes the punctuation tokens smartcn emits, using
 * smartcn's default stop set (punctuation only), as the simhash-v1 {@code default} analyzer does.
 */
public final class SmartcnStopFilterFactory extends CompatAnalysis.FilterFactoryBase {

    public static final String NAME = "simhash_smartcn_stop";

    public SmartcnStopFilterFactory(IndexSettings indexSettings, Environment environment, String name, Settings settings) {
        super(indexSettings, name, settings);
        new StrictSettings(settings, "token filter", name, Set.of());
    }

    @Override
    public TokenStream create(TokenStream tokenStream) {
        return new StopFilter(tokenStream, SmartChineseAnalyzer.getDefaultStopSet());
    }
}
