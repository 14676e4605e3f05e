package dev.simhash.core;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.Tokenizer;
import org.apache.lucene.analysis.cn.smart.HMMChineseTokenizer;
import org.apache.lucene.analysis.standard.StandardTokenizer;

import java.util.ArrayList;
import java.util.List;

/**
 * Step 2 of simhash-v2: splits (already folded) text into tokens. Everything is split at Unicode
 * word boundaries (UAX #29, Lucene's {@link StandardTokenizer}), which makes every Han character a
 * token of its own ({@link Mode#HAN_CHARACTERS}); alternatively ({@link Mode#HAN_WORDS}) runs of Han
 * characters are segmented into words by smartcn and the rest split at word boundaries. Thread-safe.
 */
public final class ScriptAwareTokenizer {

    /** How runs of Han characters become tokens. */
    public enum Mode {
        /** One token per Han character (then word bigrams are character bigrams): the simhash-v2 choice. */
        HAN_CHARACTERS,
        /** smartcn word segmentation of each maximal run of Han characters. */
        HAN_WORDS
    }

    /** Unicode word boundaries, no filters: simhash-v2's tokenizer (step 2). */
    static final Analyzer STANDARD = analyzer(false);
    private static final Analyzer SMARTCN = analyzer(true);

    private final Mode mode;

    public ScriptAwareTokenizer(Mode mode) {
        this.mode = mode;
    }

    public Mode mode() {
        return mode;
    }

    /** The tokens of the text, in order (the text is used as given: fold it first). */
    public List<String> tokens(String text) {
        List<String> out = new ArrayList<>();
        tokens(text, out);
        return out;
    }

    /** Appends the tokens of the text to {@code out}. */
    public void tokens(String text, List<String> out) {
        if (mode == Mode.HAN_CHARACTERS) {
            run(STANDARD, text, out);
            return;
        }
        int start = 0;
        boolean han = false;
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            boolean h = isHan(cp);
            if (i == 0) {
                han = h;
            } else if (h != han) {
                run(han ? SMARTCN : STANDARD, text.substring(start, i), out);
                start = i;
                han = h;
            }
            i += Character.charCount(cp);
        }
        if (start < text.length()) {
            run(han ? SMARTCN : STANDARD, text.substring(start), out);
        }
    }

    /** True for code points of the Han script (ideographs, including 〇 and 々). */
    static boolean isHan(int cp) {
        return Character.UnicodeScript.of(cp) == Character.UnicodeScript.HAN;
    }

    private static void run(Analyzer analyzer, String text, List<String> out) {
        AnalyzerTokens.forEach(analyzer, text, out::add);
    }

    private static Analyzer analyzer(boolean smartcn) {
        return new Analyzer() {
            @Override
            protected TokenStreamComponents createComponents(String fieldName) {
                Tokenizer t = smartcn ? new HMMChineseTokenizer() : new StandardTokenizer();
                return new TokenStreamComponents(t);
            }
        };
    }
}
