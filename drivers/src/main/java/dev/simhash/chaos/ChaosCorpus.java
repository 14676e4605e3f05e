package dev.simhash.chaos;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Near-duplicate texts for the chaos test, deterministic from a seed: a fixed set of base texts (mixed English-like words
 * and Chinese characters) and variants of them with a few words replaced, inserted or deleted.
 */
public final class ChaosCorpus {

    private static final int VOCABULARY = 3000;
    private static final int MIN_TOKENS = 50;
    private static final int EXTRA_TOKENS = 70;
    private static final int MAX_EDITS = 3;
    private static final String[] SYLLABLES = { "ka", "lo", "mi", "ne", "ru", "sa", "to", "vi", "be", "do", "fu", "ga", "hi", "jo",
        "pe", "qui", "ro", "st", "tra", "un", "wel", "xo", "yan", "zer", "ar", "en", "il", "or" };

    private final List<String> words = new ArrayList<>();
    private final List<List<String>> bases = new ArrayList<>();

    public ChaosCorpus(long seed, int baseCount) {
        Random r = new Random(seed);
        for (int i = 0; i < VOCABULARY; i++) {
            words.add(r.nextInt(10) < 7 ? englishLike(r) : chinese(r));
        }
        for (int b = 0; b < baseCount; b++) {
            List<String> tokens = new ArrayList<>();
            for (int i = 0, n = MIN_TOKENS + r.nextInt(EXTRA_TOKENS); i < n; i++) {
                tokens.add(word(r));
            }
            bases.add(tokens);
        }
    }

    public int baseCount() {
        return bases.size();
    }

    /** A variant of base {@code base}: 0 to 3 single-word edits, drawn from {@code r}. */
    public String variant(int base, Random r) {
        List<String> tokens = new ArrayList<>(bases.get(base));
        for (int e = 0, edits = r.nextInt(MAX_EDITS + 1); e < edits; e++) {
            int at = r.nextInt(tokens.size());
            switch (r.nextInt(3)) {
                case 0 -> tokens.set(at, word(r));
                case 1 -> tokens.add(at, word(r));
                default -> tokens.remove(at);
            }
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < tokens.size(); i++) {
            sb.append(tokens.get(i)).append(i % 11 == 10 ? "， " : " ");
        }
        return sb.toString().trim();
    }

    private String word(Random r) {
        return words.get(r.nextInt(words.size()));
    }

    private static String englishLike(Random r) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0, n = 2 + r.nextInt(2); i < n; i++) {
            sb.append(SYLLABLES[r.nextInt(SYLLABLES.length)]);
        }
        return sb.toString();
    }

    private static String chinese(Random r) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0, n = 2 + r.nextInt(2); i < n; i++) {
            // common CJK unified ideographs: v2 reads Chinese by characters
            sb.appendCodePoint(0x4E00 + r.nextInt(3000));
        }
        return sb.toString();
    }
}
