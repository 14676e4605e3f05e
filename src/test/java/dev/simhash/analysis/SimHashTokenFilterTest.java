package dev.simhash.analysis;

import dev.simhash.core.FeatureAnalyzer;
import dev.simhash.core.FingerprintOptions;
import dev.simhash.core.GoldenVectors;
import dev.simhash.core.SimHash;
import dev.simhash.core.TextFingerprinter;
import dev.simhash.core.Weighting;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.LowerCaseFilter;
import org.apache.lucene.analysis.StopFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.Tokenizer;
import org.apache.lucene.analysis.cn.smart.HMMChineseTokenizer;
import org.apache.lucene.analysis.cn.smart.SmartChineseAnalyzer;
import org.apache.lucene.analysis.core.WhitespaceTokenizer;
import org.apache.lucene.analysis.standard.StandardTokenizer;
import org.apache.lucene.tests.analysis.BaseTokenStreamTestCase;
import org.apache.lucene.tests.analysis.MockTokenizer;
import org.apache.lucene.tests.util.TestUtil;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/** The filter follows the token-stream contract and emits exactly the core's fingerprint. */
public class SimHashTokenFilterTest extends BaseTokenStreamTestCase {

    /** The simhash-v1 feature chain of a built-in analyzer, followed by the filter. */
    private static Analyzer chain(String featureAnalyzer, FingerprintOptions options, SimHashTokenFilter.Output output) {
        return new Analyzer() {
            @Override
            protected TokenStreamComponents createComponents(String fieldName) {
                Tokenizer tokenizer;
                TokenStream stream;
                switch (featureAnalyzer) {
                    case "default" -> {
                        tokenizer = new HMMChineseTokenizer();
                        stream = new StopFilter(new LowerCaseFilter(tokenizer), SmartChineseAnalyzer.getDefaultStopSet());
                    }
                    case "standard" -> {
                        tokenizer = new StandardTokenizer();
                        stream = new LowerCaseFilter(tokenizer);
                    }
                    case "whitespace" -> {
                        tokenizer = new WhitespaceTokenizer();
                        stream = tokenizer;
                    }
                    default -> throw new IllegalArgumentException(featureAnalyzer);
                }
                return new TokenStreamComponents(tokenizer, new SimHashTokenFilter(stream, options, output));
            }
        };
    }

    public void testEveryGoldenTextVectorThroughTheFilter() throws Exception {
        int checked = 0;
        for (GoldenVectors.Case c : GoldenVectors.load()) {
            if (c.weighted()) {
                continue;
            }
            try (Analyzer a = chain(c.analyzer(), c.options(), SimHashTokenFilter.Output.HASH)) {
                String[] expected = c.expected() == null ? new String[0] : new String[] { c.expected() };
                assertAnalyzesTo(a, c.text(), expected);
                checked++;
            }
        }
        assertTrue("golden text cases checked: " + checked, checked >= 40);
    }

    public void testHashTokenAttributes() throws Exception {
        String text = "Near-duplicate pages waste crawl budget";
        try (Analyzer a = chain("standard", FingerprintOptions.DEFAULTS, SimHashTokenFilter.Output.HASH)) {
            long fp = new TextFingerprinter(FeatureAnalyzer.STANDARD, FingerprintOptions.DEFAULTS).fingerprint(text).getAsLong();
            assertAnalyzesTo(a, text, new String[] { SimHash.toHex(fp) }, new int[] { 0 }, new int[] { text.length() },
                new String[] { SimHashTokenFilter.HASH_TYPE }, new int[] { 1 });
        }
    }

    public void testBlocksAndBothOutputs() throws Exception {
        String text = "新闻 转载 时 各家 媒体 都会 修改 标题";
        long fp = new TextFingerprinter(FeatureAnalyzer.WHITESPACE, FingerprintOptions.DEFAULTS).fingerprint(text).getAsLong();
        String[] blocks = new String[4];
        for (int j = 0; j < 4; j++) {
            blocks[j] = "b" + j + "_" + SimHash.blockTerm(SimHash.block(fp, j));
        }
        try (Analyzer a = chain("whitespace", FingerprintOptions.DEFAULTS, SimHashTokenFilter.Output.BLOCKS)) {
            assertAnalyzesTo(a, text, blocks, new int[] { 0, 0, 0, 0 }, new int[] { text.length(), text.length(), text.length(),
                text.length() }, new String[] { "simhash_block", "simhash_block", "simhash_block", "simhash_block" }, new int[] { 1, 1, 1, 1 });
        }
        try (Analyzer a = chain("whitespace", FingerprintOptions.DEFAULTS, SimHashTokenFilter.Output.BOTH)) {
            assertAnalyzesTo(a, text, new String[] { SimHash.toHex(fp), blocks[0], blocks[1], blocks[2], blocks[3] });
        }
    }

    public void testNoFeaturesEmitsNothingAndFinalOffsetIsKept() throws Exception {
        try (Analyzer a = chain("default", FingerprintOptions.DEFAULTS, SimHashTokenFilter.Output.BOTH)) {
            assertAnalyzesTo(a, "", new String[0]);
            assertTokenStreamContents(a.tokenStream("f", "，。！"), new String[0], new int[0], new int[0], 3);
        }
        FingerprintOptions min5 = new FingerprintOptions(1, Weighting.TF, 5);
        try (Analyzer a = chain("whitespace", min5, SimHashTokenFilter.Output.HASH)) {
            assertAnalyzesTo(a, "one two three four", new String[0]);
            assertEquals(1, countTokens(a, "one two three four five"));
        }
    }

    public void testShinglesAndWeightingMatchTheCore() throws Exception {
        for (int i = 0; i < 50; i++) {
            FingerprintOptions options = new FingerprintOptions(1 + random().nextInt(4),
                Weighting.values()[random().nextInt(3)], 1 + random().nextInt(3));
            String text = TestUtil.randomAnalysisString(random(), 200, false);
            OptionalLong expected = new TextFingerprinter(FeatureAnalyzer.WHITESPACE, options).fingerprint(text);
            try (Analyzer a = chain("whitespace", options, SimHashTokenFilter.Output.HASH)) {
                assertAnalyzesTo(a, text, expected.isPresent() ? new String[] { SimHash.toHex(expected.getAsLong()) } : new String[0]);
            }
        }
    }

    public void testRandomData() throws Exception {
        for (SimHashTokenFilter.Output output : SimHashTokenFilter.Output.values()) {
            Analyzer a = new Analyzer() {
                @Override
                protected TokenStreamComponents createComponents(String fieldName) {
                    Tokenizer t = new MockTokenizer(MockTokenizer.WHITESPACE, false);
                    return new TokenStreamComponents(t, new SimHashTokenFilter(t, FingerprintOptions.DEFAULTS, output));
                }
            };
            checkRandomData(random(), a, 200 * RANDOM_MULTIPLIER);
            a.close();
        }
    }

    public void testRandomDataThroughSmartcn() throws Exception {
        try (Analyzer a = chain("default", new FingerprintOptions(2, Weighting.TF, 1), SimHashTokenFilter.Output.BOTH)) {
            checkRandomData(random(), a, 50 * RANDOM_MULTIPLIER);
        }
    }

    public void testReuseAcrossDocumentsGivesIndependentFingerprints() throws Exception {
        List<String> texts = List.of("alpha beta gamma", "delta epsilon", "alpha beta gamma");
        List<String> out = new ArrayList<>();
        try (Analyzer a = chain("whitespace", FingerprintOptions.DEFAULTS, SimHashTokenFilter.Output.HASH)) {
            for (String t : texts) {
                try (TokenStream ts = a.tokenStream("f", t)) {
                    var term = ts.addAttribute(org.apache.lucene.analysis.tokenattributes.CharTermAttribute.class);
                    ts.reset();
                    assertTrue(ts.incrementToken());
                    out.add(term.toString());
                    assertFalse(ts.incrementToken());
                    ts.end();
                }
            }
        }
        assertEquals(out.get(0), out.get(2));
        assertNotEquals(out.get(0), out.get(1));
    }

    private static int countTokens(Analyzer a, String text) throws Exception {
        int n = 0;
        try (TokenStream ts = a.tokenStream("f", text)) {
            ts.reset();
            while (ts.incrementToken()) {
                n++;
            }
            ts.end();
        }
        return n;
    }
}
