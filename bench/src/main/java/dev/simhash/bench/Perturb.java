package dev.simhash.bench;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.OffsetAttribute;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Word-level edits at a known rate, to build labelled near-duplicate pairs from real documents. A
 * text is split into units (a word as the analyzer segments it, plus the spaces or punctuation that
 * follow it); {@code round(rate * units)} edits are applied, each an insertion, deletion or
 * replacement (equally likely) at a random position, with inserted words drawn from a vocabulary of
 * other documents' words. Works for Chinese (smartcn words) as for English.
 */
public final class Perturb {

    private final Analyzer analyzer;

    public Perturb(Analyzer analyzer) {
        this.analyzer = analyzer;
    }

    /** The units of a text: word + following separator; the text before the first word is unit 0 if non-empty. */
    public List<String> units(String text) {
        List<Integer> starts = new ArrayList<>();
        try (TokenStream ts = analyzer.tokenStream("f", text)) {
            OffsetAttribute off = ts.addAttribute(OffsetAttribute.class);
            ts.reset();
            while (ts.incrementToken()) {
                starts.add(off.startOffset());
            }
            ts.end();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> units = new ArrayList<>(starts.size() + 1);
        if (starts.isEmpty() || starts.get(0) > 0) {
            units.add(text.substring(0, starts.isEmpty() ? text.length() : starts.get(0)));
        }
        for (int i = 0; i < starts.size(); i++) {
            int end = i + 1 < starts.size() ? starts.get(i + 1) : text.length();
            units.add(text.substring(starts.get(i), end));
        }
        if (units.isEmpty()) {
            units.add(text);
        }
        return units;
    }

    /** Number of edits for a text of {@code units} units at {@code rate}. */
    public static int edits(int units, double rate) {
        return (int) Math.round(rate * units);
    }

    /** The text with {@code round(rate * units)} random edits, words drawn from {@code vocabulary}. */
    public String perturb(String text, double rate, List<String> vocabulary, Random random) {
        List<String> units = new ArrayList<>(units(text));
        int n = edits(units.size(), rate);
        for (int e = 0; e < n; e++) {
            int op = random.nextInt(3);
            if (op == 1 && units.size() > 1) {
                units.remove(random.nextInt(units.size()));
            } else if (op == 2) {
                units.set(random.nextInt(units.size()), vocabulary.get(random.nextInt(vocabulary.size())));
            } else {
                units.add(random.nextInt(units.size() + 1), vocabulary.get(random.nextInt(vocabulary.size())));
            }
        }
        return String.join("", units);
    }
}
