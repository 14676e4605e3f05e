package dev.simhash.calibrate;

import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Whether two texts are near-duplicates by their words, independently of any fingerprint: the Jaccard similarity of
 * their sets of word bigrams (of single words for texts of one word), words as {@link TextEdits#words} splits them,
 * lowercased.
 */
public final class TextSimilarity {

    /** Pairs at or above this bigram Jaccard similarity are related: they share most of their word sequences. */
    public static final double RELATED_JACCARD = 0.5;

    private TextSimilarity() {}

    /** The word bigrams of a text (its words, if it has one word; empty for none). */
    public static Set<String> shingles(String text) {
        List<String> words = TextEdits.words(text.toLowerCase(Locale.ROOT));
        Set<String> out = new HashSet<>();
        if (words.size() == 1) {
            out.add(words.get(0));
        }
        for (int i = 1; i < words.size(); i++) {
            out.add(words.get(i - 1) + " " + words.get(i));
        }
        return out;
    }

    /** |a ∩ b| / |a ∪ b|; 0 when both are empty. */
    public static double jaccard(Set<String> a, Set<String> b) {
        if (a.isEmpty() && b.isEmpty()) {
            return 0;
        }
        Set<String> small = a.size() <= b.size() ? a : b;
        Set<String> large = small == a ? b : a;
        int common = 0;
        for (String s : small) {
            if (large.contains(s)) {
                common++;
            }
        }
        return (double) common / (a.size() + b.size() - common);
    }
}
