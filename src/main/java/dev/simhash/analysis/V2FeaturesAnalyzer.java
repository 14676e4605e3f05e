package dev.simhash.analysis;

import dev.simhash.core.SimHashV2;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.Tokenizer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.tokenattributes.OffsetAttribute;
import org.apache.lucene.analysis.tokenattributes.PositionIncrementAttribute;
import org.apache.lucene.analysis.tokenattributes.TypeAttribute;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The features simhash-v2 fingerprints, as tokens, so that {@code _analyze} with the analyzer {@value #NAME} shows them
 * (every simhash-v2 field has these features; its options only weight them): at each token position the folded token (type {@value #TOKEN}) and,
 * from the second on, the previous token, a space and the token (type {@value #BIGRAM}, same position). Each distinct
 * feature counts once in the fingerprint however often it occurs. Offsets span the whole text: folding (NFKC,
 * lowercase, traditional to simplified Chinese) does not keep character offsets.
 */
public final class V2FeaturesAnalyzer extends Analyzer {

    public static final String NAME = "simhash_v2";
    public static final String TOKEN = "token";
    public static final String BIGRAM = "bigram";

    @Override
    protected TokenStreamComponents createComponents(String fieldName) {
        return new TokenStreamComponents(new FeaturesTokenizer());
    }

    private static final class FeaturesTokenizer extends Tokenizer {
        private final CharTermAttribute term = addAttribute(CharTermAttribute.class);
        private final TypeAttribute type = addAttribute(TypeAttribute.class);
        private final PositionIncrementAttribute position = addAttribute(PositionIncrementAttribute.class);
        private final OffsetAttribute offset = addAttribute(OffsetAttribute.class);
        private final List<String> features = new ArrayList<>();
        private final List<Boolean> bigram = new ArrayList<>();
        private int next;
        private int length;

        @Override
        public void reset() throws IOException {
            super.reset();
            StringBuilder sb = new StringBuilder();
            char[] buf = new char[4096];
            for (int n; (n = input.read(buf)) != -1;) {
                sb.append(buf, 0, n);
            }
            length = sb.length();
            features.clear();
            bigram.clear();
            List<String> tokens = SimHashV2.tokens(sb.toString());
            for (int i = 0; i < tokens.size(); i++) {
                features.add(tokens.get(i));
                bigram.add(false);
                if (i > 0) {
                    features.add(tokens.get(i - 1) + SimHashV2.BIGRAM_SEPARATOR + tokens.get(i));
                    bigram.add(true);
                }
            }
            next = 0;
        }

        @Override
        public boolean incrementToken() {
            if (next == features.size()) {
                return false;
            }
            clearAttributes();
            term.append(features.get(next));
            boolean isBigram = bigram.get(next);
            type.setType(isBigram ? BIGRAM : TOKEN);
            position.setPositionIncrement(isBigram ? 0 : 1);
            offset.setOffset(correctOffset(0), correctOffset(length));
            next++;
            return true;
        }

        @Override
        public void end() throws IOException {
            super.end();
            offset.setOffset(correctOffset(length), correctOffset(length));
        }
    }
}
