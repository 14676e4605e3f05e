package dev.simhash.demo;

import dev.simhash.core.FeatureAnalyzer;

import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.tokenattributes.OffsetAttribute;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A one-line summary of how a near-duplicate differs from the text it was found for, so the demo's
 * reader sees what a distance of a few bits stands for. It diffs the words the fingerprint is made
 * of (the plugin's default analyzer: smartcn words, lowercase, no punctuation) and shows them as
 * they appear in the texts.
 */
final class TextDiff {

    private static final int MAX_CHANGES = 3;
    private static final int MAX_CHANGE_COLUMNS = 40;

    /** A token as the fingerprint sees it, and where it sits in its text. */
    private record Token(String term, int start, int end) {}

    /** One change: the original text of the removed and of the added tokens (either may be empty). */
    private record Change(String removed, String added) {}

    private TextDiff() {}

    /** E.g. {@code 今天 → 今日  |  + 来源：新华财经}. */
    static String summarize(String from, String to) {
        List<Change> pending = changes(tokens(from), from, tokens(to), to);
        if (pending.isEmpty()) {
            return from.equals(to) ? "identical text" : "same words (only case, punctuation or spacing differ)";
        }
        List<String> shown = new ArrayList<>();
        while (!pending.isEmpty() && shown.size() < MAX_CHANGES) {
            Change c = pending.remove(0);
            Change twin = pending.stream().filter(o -> isMove(c, o)).findFirst().orElse(null);
            if (twin != null) {
                pending.remove(twin);
                shown.add("moved: " + cut(c.removed().isEmpty() ? c.added() : c.removed()));
            } else if (c.removed().isEmpty()) {
                shown.add("+ " + cut(c.added()));
            } else if (c.added().isEmpty()) {
                shown.add("- " + cut(c.removed()));
            } else {
                shown.add(cut(c.removed()) + " → " + cut(c.added()));
            }
        }
        String line = String.join("  |  ", shown);
        return pending.isEmpty() ? line : line + "  (+" + pending.size() + " more)";
    }

    /** A reordered sentence shows up as a removal plus an identical addition elsewhere (or the other way round). */
    private static boolean isMove(Change c, Change o) {
        boolean removal = c.added().isEmpty() && o.removed().isEmpty() && c.removed().equals(o.added());
        boolean addition = c.removed().isEmpty() && o.added().isEmpty() && c.added().equals(o.removed());
        return removal || addition;
    }

    private static String cut(String s) {
        return Columns.truncate(s, MAX_CHANGE_COLUMNS);
    }

    private static List<Token> tokens(String text) {
        List<Token> out = new ArrayList<>();
        try (TokenStream ts = FeatureAnalyzer.DEFAULT.analyzer().tokenStream("body", text)) {
            CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
            OffsetAttribute offset = ts.addAttribute(OffsetAttribute.class);
            ts.reset();
            while (ts.incrementToken()) {
                out.add(new Token(term.toString(), offset.startOffset(), offset.endOffset()));
            }
            ts.end();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    /** Longest-common-subsequence diff; the texts are a few hundred tokens, so the quadratic table is fine. */
    private static List<Change> changes(List<Token> a, String aText, List<Token> b, String bText) {
        int[][] lcs = new int[a.size() + 1][b.size() + 1];
        for (int i = a.size() - 1; i >= 0; i--) {
            for (int j = b.size() - 1; j >= 0; j--) {
                lcs[i][j] = same(a, i, b, j) ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
            }
        }
        List<Change> out = new ArrayList<>();
        int i = 0;
        int j = 0;
        while (i < a.size() || j < b.size()) {
            if (same(a, i, b, j)) {
                i++;
                j++;
                continue;
            }
            int i0 = i;
            int j0 = j;
            while ((i < a.size() || j < b.size()) && !same(a, i, b, j)) {
                if (j >= b.size() || (i < a.size() && lcs[i + 1][j] >= lcs[i][j + 1])) {
                    i++;
                } else {
                    j++;
                }
            }
            out.add(new Change(span(a, i0, i, aText), span(b, j0, j, bText)));
        }
        return out;
    }

    private static boolean same(List<Token> a, int i, List<Token> b, int j) {
        return i < a.size() && j < b.size() && a.get(i).term().equals(b.get(j).term());
    }

    /** The original text of tokens [from, to), with its own case, spacing and punctuation. */
    private static String span(List<Token> tokens, int from, int to, String text) {
        return from == to ? "" : text.substring(tokens.get(from).start(), tokens.get(to - 1).end());
    }
}
