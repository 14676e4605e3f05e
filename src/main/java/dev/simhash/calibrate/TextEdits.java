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
            addText(text, NO_CHECKPOINT);
        }

        /** {@link #addText(String)}, calling {@code checkpoint} every {@link #CHECK_EVERY_WORDS} words. */
        public void addText(String text, Runnable checkpoint) {
            scan(text, (start, end, ideographicWord) -> (ideographicWord ? ideographic : other).add(text, start, end), checkpoint);
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

            /** Adds the word {@code text[start .. end)}; makes its string only if it is kept. */
            void add(String text, int start, int end) {
                seen++;
                if (words.size() < maxPerKind) {
                    String word = text.substring(start, end);
                    words.add(word);
                    bytes += cost(word);
                    return;
                }
                long slot = random.nextLong(seen);
                if (slot < maxPerKind) {
                    String word = text.substring(start, end);
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

    /** How often (in words) the long loops call their checkpoint, e.g. to stop a cancelled task. */
    static final int CHECK_EVERY_WORDS = 1 << 16;
    /** The first code point of the scripts written without spaces (CJK radicals, Han); nothing below it is one of them. */
    private static final int FIRST_IDEOGRAPHIC = 0x2E80;
    /** {@link #isIdeographic} of each BMP code point from {@link #FIRST_IDEOGRAPHIC} on, looked up instead of computed per word. */
    private static final java.util.BitSet BMP_IDEOGRAPHIC = new java.util.BitSet(0x10000);

    static {
        for (int cp = FIRST_IDEOGRAPHIC; cp < 0x10000; cp++) {
            if (scriptIsIdeographic(cp)) {
                BMP_IDEOGRAPHIC.set(cp);
            }
        }
    }

    private TextEdits() {}

    /** Whether the code point is written without spaces between words (Han, Hiragana, Katakana): one word per character. */
    static boolean isIdeographic(int cp) {
        if (cp < FIRST_IDEOGRAPHIC) {
            return false;
        }
        return cp < 0x10000 ? BMP_IDEOGRAPHIC.get(cp) : scriptIsIdeographic(cp);
    }

    private static boolean scriptIsIdeographic(int cp) {
        Character.UnicodeScript script = Character.UnicodeScript.of(cp);
        return script == Character.UnicodeScript.HAN || script == Character.UnicodeScript.HIRAGANA
            || script == Character.UnicodeScript.KATAKANA;
    }

    private static boolean isWordChar(int cp) {
        if (cp < 0x80) {
            return cp >= 'a' && cp <= 'z' || cp >= 'A' && cp <= 'Z' || cp >= '0' && cp <= '9';
        }
        int type = Character.getType(cp);
        return Character.isLetterOrDigit(cp) || type == Character.NON_SPACING_MARK || type == Character.COMBINING_SPACING_MARK;
    }

    /** The words of a text, in order, as {@link TextEdits} counts and edits them. */
    public static List<String> words(String text) {
        List<String> out = new ArrayList<>();
        scan(text, (start, end, ideographic) -> out.add(text.substring(start, end)));
        return out;
    }

    /** The number of words of a text, counted without collecting them. */
    public static int wordCount(String text) {
        return wordCount(text, NO_CHECKPOINT);
    }

    /** {@link #wordCount(String)}, calling {@code checkpoint} every {@link #CHECK_EVERY_WORDS} words. */
    public static int wordCount(CharSequence text, Runnable checkpoint) {
        int[] n = new int[1];
        scan(text, (start, end, ideographic) -> n[0]++, checkpoint);
        return n[0];
    }

    /** Finds the words of a text in order, holding nothing: the one place that decides what a word is. */
    public static void scan(CharSequence text, WordSink sink) {
        scan(text, sink, NO_CHECKPOINT);
    }

    private static final Runnable NO_CHECKPOINT = () -> {};

    /** {@link #scan(CharSequence, WordSink)}, calling {@code checkpoint} every {@link #CHECK_EVERY_WORDS} words. */
    static void scan(CharSequence text, WordSink sink, Runnable checkpoint) {
        int i = 0;
        int n = text.length();
        int words = 0;
        while (i < n) {
            int cp = Character.codePointAt(text, i);
            int len = Character.charCount(cp);
            if (isIdeographic(cp)) {
                sink.word(i, i + len, true);
                i += len;
            } else if (isWordChar(cp)) {
                int start = i;
                i += len;
                while (i < n) {
                    int next = Character.codePointAt(text, i);
                    if (!isWordChar(next) || isIdeographic(next)) {
                        break;
                    }
                    i += Character.charCount(next);
                }
                sink.word(start, i, false);
            } else {
                i += len;
                continue;
            }
            if (++words % CHECK_EVERY_WORDS == 0) {
                checkpoint.run();
            }
        }
    }

    /**
     * Which words one copy changes, in the original text's coordinates, each list in ascending order: the words deleted,
     * the words replaced (none both), and the gaps that get a new word (gap i is before word i, gap {@code words} after
     * the last; a gap may get several).
     */
    record Plan(int words, int[] deleted, int[] replaced, int[] insertions) {
        int edits() {
            return deleted.length + replaced.length + insertions.length;
        }
    }

    /**
     * Changes {@code rate} of the words of {@code text}: floor(rate x words) edits, plus one more with probability equal
     * to the fractional part (so the expected number of edits is exactly rate x words, also for short texts), each an
     * insertion, deletion or replacement (equally likely). Deletions and replacements take distinct words chosen
     * uniformly (when every word is taken, further edits are insertions); insertions go into gaps chosen uniformly and
     * independently. Time and memory linear in the text (two passes over it; nothing per edit but its place).
     *
     * @param rate       share of words to change, 0..1
     * @param vocabulary where inserted and replacing words come from; must not be empty when edits are made
     */
    public static Copy edit(String text, double rate, Vocabulary vocabulary, SplittableRandom random) {
        return edit(text, rate, vocabulary, random, NO_CHECKPOINT);
    }

    /** {@link #edit(String, double, Vocabulary, SplittableRandom)}, calling {@code checkpoint} now and then in its loops. */
    public static Copy edit(CharSequence text, double rate, Vocabulary vocabulary, SplittableRandom random, Runnable checkpoint) {
        if (!(rate >= 0 && rate <= 1)) {
            throw new IllegalArgumentException("[rate] must be between 0 and 1, got [" + rate + "]");
        }
        Plan plan = plan(wordCount(text, checkpoint), rate, random, checkpoint);
        if (plan.edits() > 0 && vocabulary.size() == 0) {
            throw new IllegalArgumentException("an empty vocabulary cannot supply words for edits");
        }
        return apply(text, plan, vocabulary, random, checkpoint);
    }

    /** Draws the plan of one copy of a text of {@code n} words: how many edits of each kind, and where. */
    static Plan plan(int n, double rate, SplittableRandom random, Runnable checkpoint) {
        double exact = rate * n;
        int edits = (int) Math.floor(exact);
        if (random.nextDouble() < exact - edits) {
            edits++;
        }
        int inserted = 0;
        int deleted = 0;
        int replaced = 0;
        for (int e = 0; e < edits; e++) {
            int kind = random.nextInt(3);
            if (kind != 0 && deleted + replaced == n) {
                kind = 0;
            }
            switch (kind) {
                case 0 -> inserted++;
                case 1 -> deleted++;
                default -> replaced++;
            }
        }
        // the words to delete or replace: a uniform sample of distinct words, in order (selection sampling, one pass)
        int[] taken = new int[deleted + replaced];
        int need = taken.length;
        for (int i = 0, t = 0; need > 0; i++) {
            if (random.nextInt(n - i) < need) {
                taken[t++] = i;
                need--;
            }
            if ((i + 1) % CHECK_EVERY_WORDS == 0) {
                checkpoint.run();
            }
        }
        // which of them are deleted: a uniform sample of the taken ones, the same way
        int[] del = new int[deleted];
        int[] rep = new int[replaced];
        int dNeed = deleted;
        for (int j = 0, d = 0, r = 0; j < taken.length; j++) {
            if (dNeed > 0 && random.nextInt(taken.length - j) < dNeed) {
                del[d++] = taken[j];
                dNeed--;
            } else {
                rep[r++] = taken[j];
            }
        }
        // the insertions' gaps: independent uniform gaps 0..n, drawn already sorted (the largest of m uniforms is U^(1/m),
        // the next the largest of m - 1 below it, ...): no sort, deterministic on every JVM (StrictMath)
        int[] gaps = new int[inserted];
        double below = 1;
        for (int m = inserted; m >= 1; m--) {
            below *= StrictMath.pow(random.nextDouble(), 1.0 / m);
            gaps[m - 1] = Math.min(n, (int) (below * (n + 1)));
        }
        return new Plan(n, del, rep, gaps);
    }

    /**
     * Writes the copy a plan describes in one pass over the text, drawing the new words in the text's order: a new word
     * is of the kind (ideographic or not) of the word at its gap (the last word at the end), a replacing one of the
     * kind of the word it replaces. Kept words keep the separator in front of them; a deleted word goes with its own; a
     * new word is preceded by nothing at the start of the copy and between two ideographic words, else by a space; two
     * words that would run together (neither ideographic, nothing between them) get a space.
     */
    static Copy apply(CharSequence text, Plan plan, Vocabulary vocabulary, SplittableRandom random, Runnable checkpoint) {
        Writer w = new Writer(text, plan, vocabulary, random);
        scan(text, w, checkpoint);
        w.finish();
        return new Copy(w.out.toString(), plan.insertions().length, plan.deleted().length, plan.replaced().length);
    }

    /** The output side of {@link #apply}: receives the original words in order. */
    private static final class Writer implements WordSink {
        private final CharSequence text;
        private final Plan plan;
        private final Vocabulary vocabulary;
        private final SplittableRandom random;
        final StringBuilder out;
        private int word;
        private int nextDeleted;
        private int nextReplaced;
        private int nextInsertion;
        private int previousEnd;
        /** Whether the copy has a word yet, and whether its last one is ideographic. */
        private boolean any;
        private boolean lastIdeographic;
        private boolean lastOriginalIdeographic;

        Writer(CharSequence text, Plan plan, Vocabulary vocabulary, SplittableRandom random) {
            this.text = text;
            this.plan = plan;
            this.vocabulary = vocabulary;
            this.random = random;
            this.out = new StringBuilder(text.length() + 16 * plan.insertions().length + 16);
        }

        @Override
        public void word(int start, int end, boolean ideographic) {
            insertAt(word, ideographic);
            if (nextDeleted < plan.deleted().length && plan.deleted()[nextDeleted] == word) {
                nextDeleted++;
            } else if (nextReplaced < plan.replaced().length && plan.replaced()[nextReplaced] == word) {
                nextReplaced++;
                String r = vocabulary.draw(random, ideographic);
                separate(previousEnd, start, isIdeographic(r.codePointAt(0)));
                out.append(r);
            } else {
                separate(previousEnd, start, ideographic);
                out.append(text, start, end);
            }
            previousEnd = end;
            lastOriginalIdeographic = ideographic;
            word++;
        }

        /** The planned new words of gap {@code gap}, of the kind {@code ideographicContext}. */
        private void insertAt(int gap, boolean ideographicContext) {
            int[] gaps = plan.insertions();
            while (nextInsertion < gaps.length && gaps[nextInsertion] == gap) {
                nextInsertion++;
                String w = vocabulary.draw(random, ideographicContext);
                boolean ideographic = isIdeographic(w.codePointAt(0));
                if (any && !(ideographic && lastIdeographic)) {
                    out.append(' ');
                }
                out.append(w);
                any = true;
                lastIdeographic = ideographic;
            }
        }

        /** Before a word of the original text: its original separator {@code text[gapStart .. gapEnd)}, or a space if needed. */
        private void separate(int gapStart, int gapEnd, boolean ideographic) {
            if (gapStart < gapEnd) {
                out.append(text, gapStart, gapEnd);
            } else if (any && !ideographic && !lastIdeographic) {
                out.append(' ');
            }
            any = true;
            lastIdeographic = ideographic;
        }

        void finish() {
            insertAt(plan.words(), plan.words() > 0 && lastOriginalIdeographic);
            out.append(text, previousEnd, text.length());
        }
    }

    /** The random source for one copy: fixed by the request's seed, the document's place in the sample and the edit rate. */
    public static SplittableRandom random(long seed, int doc, int rate) {
        long mixed = seed;
        mixed = mixed * 0x9E3779B97F4A7C15L + doc;
        mixed = mixed * 0xBF58476D1CE4E5B9L + rate;
        return new SplittableRandom(mixed);
    }
}
