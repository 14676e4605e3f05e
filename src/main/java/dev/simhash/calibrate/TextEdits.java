package dev.simhash.calibrate;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Synthetic near-duplicates for calibration: splits a text into words (a Han, Hiragana or Katakana character is a word
 * of its own, any other run of letters and digits is one word) and changes a given share of them by a seeded mix of
 * insertions, deletions and replacements with words drawn from a {@link Vocabulary}. Deterministic: the same text, rate,
 * vocabulary and random seed give the same copy.
 */
public final class TextEdits {

    /** What one copy went through: the edited text and how many words were inserted, deleted and replaced. */
    public record Copy(String text, int inserted, int deleted, int replaced) {
        public int edits() {
            return inserted + deleted + replaced;
        }
    }

    /** A word and the separator text in front of it. */
    private record Word(String gap, String text, boolean ideographic) {}

    /**
     * Words to insert and to replace with, by script: the words of the sampled texts, with repeats (so common words are
     * drawn more often). Holds at most {@link #MAX_WORDS_PER_KIND} words of each kind: beyond that a seeded reservoir
     * sample of the occurrences, which keeps each word's share, so the memory does not grow with the texts.
     */
    public static final class Vocabulary {
        /** Words kept per kind (ideographic or not): a few megabytes at most. */
        public static final int MAX_WORDS_PER_KIND = 50_000;
        /** Heap bytes a kept word costs besides its characters: the string, its array and the list's slot. */
        static final long WORD_OVERHEAD_BYTES = 64;

        private final Reservoir ideographic;
        private final Reservoir other;
        private final int maxPerKind;

        public Vocabulary() {
            this(MAX_WORDS_PER_KIND, 0);
        }

        /** A vocabulary keeping at most {@code maxPerKind} words of each kind, sampled beyond that with the given seed. */
        public Vocabulary(int maxPerKind, long seed) {
            if (maxPerKind < 1) {
                throw new IllegalArgumentException("[maxPerKind] must be at least 1, got [" + maxPerKind + "]");
            }
            this.maxPerKind = maxPerKind;
            this.ideographic = new Reservoir(new SplittableRandom(seed));
            this.other = new Reservoir(new SplittableRandom(~seed));
        }

        /** Adds every word of {@code text} (repeats included), without holding more than the text and the kept words. */
        public void addText(String text) {
            scan(text, (start, end, ideographicWord) -> (ideographicWord ? ideographic : other).add(text.substring(start, end)));
        }

        public int size() {
            return ideographic.words.size() + other.words.size();
        }

        /** An estimate of the heap bytes the kept words take. */
        public long bytes() {
            return ideographic.bytes + other.bytes;
        }

        /** A random word of the same kind (ideographic or not) if there is one, else of the other kind. */
        String draw(SplittableRandom random, boolean ideographicWord) {
            List<String> pool = ideographicWord ? ideographic.words : other.words;
            if (pool.isEmpty()) {
                pool = ideographicWord ? other.words : ideographic.words;
            }
            return pool.get(random.nextInt(pool.size()));
        }

        /** A uniform sample of the occurrences of one kind of word (all of them while they fit). */
        private final class Reservoir {
            private final List<String> words = new ArrayList<>();
            private final SplittableRandom random;
            private long seen;
            private long bytes;

            Reservoir(SplittableRandom random) {
                this.random = random;
            }

            void add(String word) {
                seen++;
                if (words.size() < maxPerKind) {
                    words.add(word);
                    bytes += cost(word);
                    return;
                }
                long slot = random.nextLong(seen);
                if (slot < maxPerKind) {
                    bytes += cost(word) - cost(words.set((int) slot, word));
                }
            }

            private static long cost(String word) {
                return WORD_OVERHEAD_BYTES + 2L * word.length();
            }
        }
    }

    /** Receives the words of a text as {@link #scan} finds them: the word is {@code text.substring(start, end)}. */
    @FunctionalInterface
    public interface WordSink {
        void word(int start, int end, boolean ideographic);
    }

    private record Split(List<Word> words, String tail) {}

    private TextEdits() {}

    /** Whether the code point is written without spaces between words (Han, Hiragana, Katakana): one word per character. */
    static boolean isIdeographic(int cp) {
        Character.UnicodeScript script = Character.UnicodeScript.of(cp);
        return script == Character.UnicodeScript.HAN || script == Character.UnicodeScript.HIRAGANA
            || script == Character.UnicodeScript.KATAKANA;
    }

    private static boolean isWordChar(int cp) {
        int type = Character.getType(cp);
        return Character.isLetterOrDigit(cp) || type == Character.NON_SPACING_MARK || type == Character.COMBINING_SPACING_MARK;
    }

    /** The words of a text, in order, as {@link TextEdits} counts and edits them. */
    public static List<String> words(String text) {
        return split(text).words.stream().map(Word::text).toList();
    }

    /** The number of words of a text, counted without collecting them. */
    public static int wordCount(String text) {
        int[] n = new int[1];
        scan(text, (start, end, ideographic) -> n[0]++);
        return n[0];
    }

    /** Finds the words of a text in order, holding nothing: the one place that decides what a word is. */
    public static void scan(String text, WordSink sink) {
        int i = 0;
        while (i < text.length()) {
            int cp = text.codePointAt(i);
            int len = Character.charCount(cp);
            if (isIdeographic(cp)) {
                sink.word(i, i + len, true);
                i += len;
            } else if (isWordChar(cp)) {
                int start = i;
                i += len;
                while (i < text.length()) {
                    int next = text.codePointAt(i);
                    if (!isWordChar(next) || isIdeographic(next)) {
                        break;
                    }
                    i += Character.charCount(next);
                }
                sink.word(start, i, false);
            } else {
                i += len;
            }
        }
    }

    private static Split split(String text) {
        List<Word> words = new ArrayList<>();
        int[] gapStart = new int[1];
        scan(text, (start, end, ideographic) -> {
            words.add(new Word(text.substring(gapStart[0], start), text.substring(start, end), ideographic));
            gapStart[0] = end;
        });
        return new Split(words, text.substring(gapStart[0]));
    }

    /**
     * Changes {@code rate} of the words of {@code text}: floor(rate x words) edits, plus one more with probability equal
     * to the fractional part (so the expected number of edits is exactly rate x words, also for short texts), each an
     * insertion, deletion or replacement (equally likely) at a random position.
     *
     * @param rate       share of words to change, 0..1
     * @param vocabulary where inserted and replacing words come from; must not be empty when edits are made
     */
    public static Copy edit(String text, double rate, Vocabulary vocabulary, SplittableRandom random) {
        if (!(rate >= 0 && rate <= 1)) {
            throw new IllegalArgumentException("[rate] must be between 0 and 1, got [" + rate + "]");
        }
        Split split = split(text);
        List<Word> words = new ArrayList<>(split.words);
        double exact = rate * words.size();
        int edits = (int) Math.floor(exact);
        if (random.nextDouble() < exact - edits) {
            edits++;
        }
        if (edits > 0 && vocabulary.size() == 0) {
            throw new IllegalArgumentException("an empty vocabulary cannot supply words for edits");
        }
        int inserted = 0;
        int deleted = 0;
        int replaced = 0;
        for (int e = 0; e < edits; e++) {
            int kind = random.nextInt(3);
            if (words.isEmpty()) {
                kind = 0;
            }
            switch (kind) {
                case 0 -> {
                    int at = random.nextInt(words.size() + 1);
                    boolean ideographicContext = at < words.size() ? words.get(at).ideographic
                        : !words.isEmpty() && words.get(words.size() - 1).ideographic;
                    String w = vocabulary.draw(random, ideographicContext);
                    boolean ideographic = isIdeographic(w.codePointAt(0));
                    boolean afterIdeographic = at > 0 && words.get(at - 1).ideographic;
                    String gap = at == 0 ? "" : ideographic && afterIdeographic ? "" : " ";
                    words.add(at, new Word(gap, w, ideographic));
                    // keep a following word apart from a new non-ideographic one: "ab" + "cd" must not become "abcd"
                    if (at + 1 < words.size() && words.get(at + 1).gap.isEmpty() && !(ideographic && words.get(at + 1).ideographic)) {
                        Word next = words.get(at + 1);
                        words.set(at + 1, new Word(" ", next.text, next.ideographic));
                    }
                    inserted++;
                }
                case 1 -> {
                    int at = random.nextInt(words.size());
                    words.remove(at);
                    // the words on both sides of a deleted one must not run together
                    if (at > 0 && at < words.size() && words.get(at).gap.isEmpty()
                        && !(words.get(at - 1).ideographic && words.get(at).ideographic)) {
                        Word next = words.get(at);
                        words.set(at, new Word(" ", next.text, next.ideographic));
                    }
                    deleted++;
                }
                default -> {
                    int at = random.nextInt(words.size());
                    Word old = words.get(at);
                    String w = vocabulary.draw(random, old.ideographic);
                    words.set(at, new Word(old.gap, w, isIdeographic(w.codePointAt(0))));
                    replaced++;
                }
            }
        }
        StringBuilder out = new StringBuilder(text.length() + 16);
        for (Word w : words) {
            out.append(w.gap).append(w.text);
        }
        out.append(split.tail);
        return new Copy(out.toString(), inserted, deleted, replaced);
    }

    /** The random source for one copy: fixed by the request's seed, the document's place in the sample and the edit rate. */
    public static SplittableRandom random(long seed, int doc, int rate) {
        long mixed = seed;
        mixed = mixed * 0x9E3779B97F4A7C15L + doc;
        mixed = mixed * 0xBF58476D1CE4E5B9L + rate;
        return new SplittableRandom(mixed);
    }
}
