package dev.simhash.core;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.function.Consumer;

/** Runs an analyzer over an in-memory text and hands each token's term to a consumer: the one token loop of core. */
public final class AnalyzerTokens {

    private static final String FIELD = "simhash";

    private AnalyzerTokens() {}

    /** Receives a token's chars without a string per token: valid only during the call. */
    public interface TermSink {
        void term(char[] buffer, int start, int length);
    }

    /** Every token the analyzer emits for {@code text}, in order, as the term attribute's buffer (no string per token). */
    public static void forEachTerm(Analyzer analyzer, String text, TermSink sink) {
        try (TokenStream ts = analyzer.tokenStream(FIELD, text)) {
            CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
            ts.reset();
            while (ts.incrementToken()) {
                sink.term(term.buffer(), 0, term.length());
            }
            ts.end();
        } catch (IOException e) {
            // analyzing an in-memory string does no I/O
            throw new UncheckedIOException(e);
        }
    }

    /** Every token the analyzer emits for {@code text}, in order. */
    public static void forEach(Analyzer analyzer, String text, Consumer<String> token) {
        forEachTerm(analyzer, text, (buffer, start, length) -> token.accept(new String(buffer, start, length)));
    }
}
