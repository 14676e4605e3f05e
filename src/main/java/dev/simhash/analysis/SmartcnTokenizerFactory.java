package dev.simhash.analysis;

import dev.simhash.compat.CompatAnalysis;
import org.apache.lucene.analysis.Tokenizer;
import org.apache.lucene.analysis.cn.smart.HMMChineseTokenizer;
import org.elasticsearch.common.settings.Settings;
import org.elasticsearch.env.Environment;
import org.elasticsearch.index.IndexSettings;

import java.util.Set;

/**
 * The bundled smartcn (HMM) Chinese word segmenter as tokenizer {@code simhash_smartcn}: named so it
 * never clashes with the official analysis-smartcn plugin's {@code smartcn_tokenizer}.
 */
public final class SmartcnTokenizerFactory extends CompatAnalysis.TokenizerFactoryBase {

    public static final String NAME = "simhash_smartcn";

    public SmartcnTokenizerFactory(IndexSettings indexSettings, Environment environment, String name, Settings settings) {
        super(indexSettings, name, settings);
        new StrictSettings(settings, "tokenizer", name, Set.of());
    }

    @Override
    public Tokenizer create() {
        return new HMMChineseTokenizer();
    }
}
