package dev.simhash.core;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.LowerCaseFilter;
import org.apache.lucene.analysis.StopFilter;
import org.apache.lucene.analysis.Tokenizer;
import org.apache.lucene.analysis.cn.smart.HMMChineseTokenizer;
import org.apache.lucene.analysis.cn.smart.SmartChineseAnalyzer;
import org.apache.lucene.analysis.core.WhitespaceTokenizer;
import org.apache.lucene.analysis.standard.StandardTokenizer;

import java.util.Locale;

/**
 * The built-in feature analyzers of simhash-v1 (step 1: text to tokens). Part of the contract:
 * changing what one of them emits is a new algorithm version.
 */
public enum FeatureAnalyzer {
    /**
     * Mixed Chinese/English text: smartcn (HMM) segmentation, lowercase, punctuation removed with
     * smartcn's default stop set. No stemming and no word stopwords.
     */
    DEFAULT {
        @Override
        Analyzer create() {
            return new Analyzer() {
                @Override
                protected TokenStreamComponents createComponents(String fieldName) {
                    Tokenizer tokenizer = new HMMChineseTokenizer();
                    return new TokenStreamComponents(
                        tokenizer, new StopFilter(new LowerCaseFilter(tokenizer), SmartChineseAnalyzer.getDefaultStopSet()));
                }
            };
        }
    },
    /** Lucene's StandardTokenizer (Unicode word breaks, one token per CJK character) and lowercase. */
    STANDARD {
        @Override
        Analyzer create() {
            return new Analyzer() {
                @Override
                protected TokenStreamComponents createComponents(String fieldName) {
                    Tokenizer tokenizer = new StandardTokenizer();
                    return new TokenStreamComponents(tokenizer, new LowerCaseFilter(tokenizer));
                }
            };
        }
    },
    /** Splits on whitespace only, keeping case and punctuation: for pre-tokenized text. */
    WHITESPACE {
        @Override
        Analyzer create() {
            return new Analyzer() {
                @Override
                protected TokenStreamComponents createComponents(String fieldName) {
                    return new TokenStreamComponents(new WhitespaceTokenizer());
                }
            };
        }
    };

    private volatile Analyzer analyzer;

    abstract Analyzer create();

    /** A new analyzer instance for callers that manage (close) it themselves. */
    public Analyzer newAnalyzer() {
        return create();
    }

    /** The shared, thread-safe Lucene analyzer. */
    public Analyzer analyzer() {
        Analyzer a = analyzer;
        if (a == null) {
            synchronized (this) {
                a = analyzer;
                if (a == null) {
                    a = analyzer = create();
                }
            }
        }
        return a;
    }

    /** The option value users write, e.g. {@code default}. */
    public String optionName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** @throws IllegalArgumentException listing the accepted names */
    public static FeatureAnalyzer fromOption(String value) {
        for (FeatureAnalyzer a : values()) {
            if (a.optionName().equals(value)) {
                return a;
            }
        }
        throw new IllegalArgumentException("unknown analyzer [" + value + "], expected one of [default, standard, whitespace]");
    }
}
