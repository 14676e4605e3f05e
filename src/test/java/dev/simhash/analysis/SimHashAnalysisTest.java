package dev.simhash.analysis;

import dev.simhash.compat.CompatAnalysis;
import dev.simhash.SimHashPlugin;
import dev.simhash.core.FeatureAnalyzer;
import dev.simhash.core.FingerprintOptions;
import dev.simhash.core.SimHash;
import dev.simhash.core.TextFingerprinter;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.Tokenizer;
import org.apache.lucene.analysis.core.WhitespaceTokenizer;
import org.elasticsearch.common.settings.Settings;
import org.elasticsearch.env.Environment;
import org.elasticsearch.index.IndexSettings;
import org.elasticsearch.index.analysis.AnalyzerProvider;
import org.elasticsearch.index.analysis.TokenFilterFactory;
import org.elasticsearch.index.analysis.TokenizerFactory;
import org.elasticsearch.index.analysis.AnalysisTestsHelper;
import org.elasticsearch.indices.analysis.AnalysisModule;
import org.elasticsearch.indices.analysis.AnalysisModule.AnalysisProvider;
import org.elasticsearch.plugins.AnalysisPlugin;
import org.elasticsearch.plugins.scanners.StablePluginsRegistry;
import org.elasticsearch.test.ESTestCase;
import org.elasticsearch.env.TestEnvironment;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.standard.StandardAnalyzer;

import java.io.IOException;
import java.util.List;
import java.util.Map;

import static org.apache.lucene.tests.analysis.BaseTokenStreamTestCase.assertAnalyzesTo;

/** The filter, tokenizer and analyzer as Elasticsearch builds them from index settings. */
public class SimHashAnalysisTest extends ESTestCase {

    private ESTestCase.TestAnalysis analysis(Settings.Builder analysisSettings) throws IOException {
        Settings settings = analysisSettings.put(Environment.PATH_HOME_SETTING.getKey(), createTempDir().toString()).build();
        return AnalysisTestsHelper.createTestAnalysisFromSettings(settings, new SimHashPlugin());
    }

    public void testCustomAnalyzerChainEqualsTheProcessorDefault() throws IOException {
        ESTestCase.TestAnalysis a = analysis(Settings.builder()
            .put("index.analysis.analyzer.fp.type", "custom")
            .put("index.analysis.analyzer.fp.tokenizer", "simhash_smartcn")
            .putList("index.analysis.analyzer.fp.filter", "lowercase", "simhash_smartcn_stop", "simhash"));
        String text = "Elasticsearch 是一个分布式搜索引擎, It's fast! 北京时间今天上午，国家统计局发布了数据。";
        long expected = new TextFingerprinter(FeatureAnalyzer.DEFAULT, FingerprintOptions.DEFAULTS).fingerprint(text).getAsLong();
        assertAnalyzesTo(a.indexAnalyzers.get("fp"), text, new String[] { SimHash.toHex(expected) });
        // the simhash_text analyzer shows the features the default fingerprint is built from
        assertAnalyzesTo(a.indexAnalyzers.get("simhash_text"), "Elasticsearch 是一个分布式搜索引擎, It's fast!",
            new String[] { "elasticsearch", "是", "一个", "分布式", "搜索引擎", "it", "s", "fast" });
    }

    public void testFilterOptions() throws IOException {
        ESTestCase.TestAnalysis a = analysis(Settings.builder()
            .put("index.analysis.filter.fp.type", "simhash")
            .put("index.analysis.filter.fp.output", "both")
            .put("index.analysis.filter.fp.shingle_size", 2)
            .put("index.analysis.filter.fp.weighting", "binary")
            .put("index.analysis.filter.fp.min_features", 2));
        TokenFilterFactory f = a.tokenFilter.get("fp");
        Tokenizer t = new WhitespaceTokenizer();
        t.setReader(new java.io.StringReader("a b c a b"));
        TokenStream ts = f.create(t);
        String hex = SimHash.toHex(new TextFingerprinter(FeatureAnalyzer.WHITESPACE,
            new FingerprintOptions(2, dev.simhash.core.Weighting.BINARY, 2)).fingerprint("a b c a b").getAsLong());
        org.apache.lucene.tests.analysis.BaseTokenStreamTestCase.assertTokenStreamContents(ts,
            new String[] { hex, "b0_" + hex.substring(12), "b1_" + hex.substring(8, 12), "b2_" + hex.substring(4, 8), "b3_" + hex.substring(0, 4) });
    }

    public void testInvalidFilterSettingsNameTheSetting() {
        assertInvalid("output", "hashes", "[output] must be one of [hash, blocks, both], got [hashes]");
        assertInvalid("weighting", "idf", "[weighting] unknown weighting [idf]");
        assertInvalid("shingle_size", "0", "[shingle_size] must be between 1 and 8, got [0]");
        assertInvalid("shingle_size", "two", "[shingle_size] must be an integer, got [two] (in token filter [fp])");
        assertInvalid("min_features", "-1", "[min_features] must be at least 1, got [-1]");
        assertInvalid("bits", "32", "unknown setting [bits] for token filter [fp]");
    }

    private void assertInvalid(String key, String value, String message) {
        IllegalArgumentException e = expectThrows(IllegalArgumentException.class, () -> analysis(Settings.builder()
            .put("index.analysis.filter.fp.type", "simhash")
            .put("index.analysis.filter.fp." + key, value)));
        assertTrue(e.getMessage(), e.getMessage().contains(message));
        assertTrue(e.getMessage(), e.getMessage().contains("[fp]"));
    }

    public void testUnknownTokenizerSettingIsRejected() {
        IllegalArgumentException e = expectThrows(IllegalArgumentException.class, () -> analysis(Settings.builder()
            .put("index.analysis.tokenizer.t.type", "simhash_smartcn")
            .put("index.analysis.tokenizer.t.mode", "search")));
        assertTrue(e.getMessage(), e.getMessage().contains("unknown setting [mode] for tokenizer [t]"));
    }

    /** Stand-in registering the names the official analysis-smartcn plugin registers. */
    public static final class OfficialSmartcnNames implements AnalysisPlugin {
        static final List<String> TOKENIZERS = List.of("smartcn_tokenizer", "smartcn_sentence");
        static final List<String> FILTERS = List.of("smartcn_stop", "smartcn_word");
        static final List<String> ANALYZERS = List.of("smartcn");

        @Override
        public Map<String, AnalysisProvider<TokenizerFactory>> getTokenizers() {
            Map<String, AnalysisProvider<TokenizerFactory>> m = new java.util.HashMap<>();
            for (String n : TOKENIZERS) {
                m.put(n, (is, env, name, s) -> new CompatAnalysis.TokenizerFactoryBase(is, name, s) {
                    @Override
                    public Tokenizer create() {
                        return new WhitespaceTokenizer();
                    }
                });
            }
            return m;
        }

        @Override
        public Map<String, AnalysisProvider<TokenFilterFactory>> getTokenFilters() {
            Map<String, AnalysisProvider<TokenFilterFactory>> m = new java.util.HashMap<>();
            for (String n : FILTERS) {
                m.put(n, (is, env, name, s) -> new CompatAnalysis.FilterFactoryBase(is, name, s) {
                    @Override
                    public TokenStream create(TokenStream ts) {
                        return ts;
                    }
                });
            }
            return m;
        }

        @Override
        public Map<String, AnalysisProvider<AnalyzerProvider<? extends Analyzer>>> getAnalyzers() {
            return Map.of("smartcn", (is, env, name, s) -> new CompatAnalysis.AnalyzerProviderBase<Analyzer>(is, name, s) {
                @Override
                public Analyzer get() {
                    return new StandardAnalyzer();
                }
            });
        }
    }

    private static AnalysisModule module(AnalysisPlugin... plugins) throws IOException {
        Settings settings = Settings.builder().put(Environment.PATH_HOME_SETTING.getKey(), createTempDir().toString()).build();
        return new AnalysisModule(TestEnvironment.newEnvironment(settings), List.of(plugins), new StablePluginsRegistry());
    }

    public void testNoNameClashWithTheOfficialSmartcnPlugin() throws IOException {
        // Elasticsearch refuses to start when two plugins register one name: this is what a node with both does at startup
        AnalysisModule both = module(new SimHashPlugin(), new OfficialSmartcnNames());
        assertNotNull(both.getAnalysisRegistry());
        // and the check is real: registering the official names twice fails
        IllegalArgumentException e = expectThrows(IllegalArgumentException.class,
            () -> module(new OfficialSmartcnNames(), new OfficialSmartcnNames()));
        assertTrue(e.getMessage(), e.getMessage().contains("already registered"));
        SimHashPlugin ours = new SimHashPlugin();
        assertEquals(java.util.Set.of("simhash_smartcn"), ours.getTokenizers().keySet());
        assertEquals(java.util.Set.of("simhash", "simhash_smartcn_stop"), ours.getTokenFilters().keySet());
        assertEquals(java.util.Set.of("simhash_text", "simhash_v2"), ours.getAnalyzers().keySet());
    }
}
