package dev.simhash.calibrate;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TextEditsTest {

    private static final String EN = "The central bank left its benchmark interest rate unchanged at 4.25 percent on Thursday, citing "
        + "cooling inflation and a slower labour market.";
    private static final String ZH = "国家统计局今天发布数据显示，10月份全国居民消费价格同比上涨0.4%。";

    private static TextEdits.Vocabulary vocabulary(String... texts) {
        TextEdits.Vocabulary v = new TextEdits.Vocabulary();
        for (String t : texts) {
            v.addText(t);
        }
        return v;
    }

    /** A text of n distinct words w0 .. w(n-1). */
    private static String words(int n) {
        List<String> w = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            w.add("w" + i);
        }
        return String.join(" ", w);
    }

    @Test
    void wordsOfEnglishChineseAndMixedText() {
        assertEquals(List.of("Hello", "world", "国", "家", "统", "计", "局", "2024", "年", "it", "s"),
            TextEdits.words("Hello, world! 国家统计局 2024年 (it's)"));
        assertEquals(List.of(), TextEdits.words(" ,.!? "));
        assertEquals(List.of("4", "25", "percent"), TextEdits.words("4.25 percent"));
    }

    @Test
    void rateZeroKeepsTheTextExactly() {
        TextEdits.Copy c = TextEdits.edit(EN, 0, vocabulary(EN), new SplittableRandom(1));
        assertEquals(EN, c.text());
        assertEquals(0, c.edits());
    }

    @Test
    void sameSeedSameCopyOtherSeedOtherCopy() {
        TextEdits.Vocabulary v = vocabulary(EN, ZH);
        String a = TextEdits.edit(EN, 0.2, v, TextEdits.random(7, 3, 2)).text();
        String b = TextEdits.edit(EN, 0.2, v, TextEdits.random(7, 3, 2)).text();
        assertEquals(a, b);
        assertNotEquals(EN, a);
        List<String> others = new ArrayList<>();
        for (long seed = 8; seed < 13; seed++) {
            others.add(TextEdits.edit(EN, 0.2, v, TextEdits.random(seed, 3, 2)).text());
        }
        assertTrue(others.stream().anyMatch(o -> !o.equals(a)), others.toString());
    }

    @Test
    void theShareOfWordsChangedIsTheRate() {
        String text = words(200);
        TextEdits.Vocabulary v = vocabulary("alpha beta gamma delta");
        for (long seed = 0; seed < 50; seed++) {
            TextEdits.Copy c = TextEdits.edit(text, 0.05, v, new SplittableRandom(seed));
            // 5% of 200 words: 10 edits, and the word count moves by exactly the insertions minus the deletions
            assertEquals(10, c.edits());
            List<String> after = TextEdits.words(c.text());
            assertEquals(200 + c.inserted() - c.deleted(), after.size(), c.text());
            assertTrue(levenshtein(TextEdits.words(text), after) <= c.edits());
            assertTrue(levenshtein(TextEdits.words(text), after) > 0);
        }
    }

    @Test
    void aMixOfInsertionsDeletionsAndReplacements() {
        int inserted = 0;
        int deleted = 0;
        int replaced = 0;
        TextEdits.Vocabulary v = vocabulary(EN);
        for (long seed = 0; seed < 100; seed++) {
            TextEdits.Copy c = TextEdits.edit(words(100), 0.1, v, new SplittableRandom(seed));
            inserted += c.inserted();
            deleted += c.deleted();
            replaced += c.replaced();
        }
        // 1000 edits, each kind with probability 1/3: 333 +- 15 (sd); 4.5 sd margin
        for (int n : new int[] { inserted, deleted, replaced }) {
            assertTrue(n > 265 && n < 400, inserted + " " + deleted + " " + replaced);
        }
    }

    @Test
    void fractionalEditsAreRoundedAtRandomToTheExpectedCount() {
        // 1% of 50 words: half an edit, i.e. no edit or one, one in half of the copies
        String text = words(50);
        TextEdits.Vocabulary v = vocabulary(EN);
        int edits = 0;
        for (long seed = 0; seed < 2000; seed++) {
            int e = TextEdits.edit(text, 0.01, v, new SplittableRandom(seed)).edits();
            assertTrue(e == 0 || e == 1);
            edits += e;
        }
        // mean 0.5, sd of the sum sqrt(2000 / 4) = 22: within 5 sd
        assertTrue(Math.abs(edits - 1000) < 112, "edits: " + edits);
    }

    @Test
    void chineseWordsAreReplacedByChineseWords() {
        TextEdits.Vocabulary v = vocabulary(EN, ZH, "台风预警");
        for (long seed = 0; seed < 20; seed++) {
            TextEdits.Copy c = TextEdits.edit("受台风影响浙江沿海地区今晚起将出现狂风暴雨", 0.3, v, new SplittableRandom(seed));
            for (String w : TextEdits.words(c.text())) {
                assertTrue(TextEdits.isIdeographic(w.codePointAt(0)), w + " in " + c.text());
            }
            // no spaces between Chinese characters
            assertTrue(!c.text().contains(" "), c.text());
        }
    }

    @Test
    void refusesBadRatesAndAnEmptyVocabulary() {
        assertThrows(IllegalArgumentException.class, () -> TextEdits.edit(EN, 1.5, vocabulary(EN), new SplittableRandom(1)));
        assertThrows(IllegalArgumentException.class, () -> TextEdits.edit(EN, Double.NaN, vocabulary(EN), new SplittableRandom(1)));
        assertThrows(IllegalArgumentException.class, () -> TextEdits.edit(EN, 0.5, new TextEdits.Vocabulary(), new SplittableRandom(1)));
    }

    /** Word-level edit distance, the test's own reference. */
    static int levenshtein(List<String> a, List<String> b) {
        int[] prev = new int[b.size() + 1];
        int[] cur = new int[b.size() + 1];
        for (int j = 0; j <= b.size(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.size(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.size(); j++) {
                int sub = prev[j - 1] + (a.get(i - 1).equals(b.get(j - 1)) ? 0 : 1);
                cur[j] = Math.min(sub, Math.min(prev[j] + 1, cur[j - 1] + 1));
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.size()];
    }

    @Test
    void theVocabularyIsBoundedAndKeepsTheShareOfCommonWords() {
        // 20,000 occurrences: "common" is a quarter of them, each other word appears once
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 20_000; i++) {
            text.append(i % 4 == 0 ? "common" : "w" + i).append(' ');
        }
        TextEdits.Vocabulary v = new TextEdits.Vocabulary(1_000, 3);
        v.addText(text.toString());
        v.addText("国家统计局");
        assertEquals(1_000 + 5, v.size(), "at most 1,000 words of a kind, all 5 ideographic ones");
        assertTrue(v.bytes() <= 1_005 * (TextEdits.Vocabulary.WORD_OVERHEAD_BYTES + 2 * 6), "bytes " + v.bytes());
        SplittableRandom r = new SplittableRandom(9);
        int common = 0;
        for (int i = 0; i < 4_000; i++) {
            if (v.draw(r, false).equals("common")) {
                common++;
            }
        }
        // a uniform sample of the occurrences: about a quarter of the kept words are "common" (binomial sd 0.014 of 1,000)
        assertEquals(0.25, common / 4_000.0, 0.07);

        // below the bound every occurrence is kept, in order: the same edits as an unbounded list would give
        TextEdits.Vocabulary small = new TextEdits.Vocabulary(1_000, 3);
        small.addText(EN);
        assertEquals(TextEdits.words(EN).size(), small.size());
        assertEquals(TextEdits.edit(EN, 0.2, small, new SplittableRandom(4)), TextEdits.edit(EN, 0.2, vocabulary(EN), new SplittableRandom(4)));
        assertEquals(TextEdits.words(EN).size(), TextEdits.wordCount(EN));
    }

    private static final Runnable NONE = () -> {};

    /** A random text of {@code n} pieces: English and made-up words, Han and kana characters, digits, punctuation. */
    private static String randomText(Random r, int n) {
        String[] pieces = { "the", "Cat", "sat", "2024", "4.25", "it's", "国", "家", "统", "计", "ひら", "カタ", "naïve", "e\u0301t" };
        String[] gaps = { " ", " ", " ", "", ", ", ". ", "\n", "—", " (", ") " };
        StringBuilder b = new StringBuilder(r.nextBoolean() ? "" : gaps[r.nextInt(gaps.length)]);
        for (int i = 0; i < n; i++) {
            b.append(pieces[r.nextInt(pieces.length)]).append(gaps[r.nextInt(gaps.length)]);
        }
        return b.toString();
    }

    /** The words of a text with the separator text in front of each, and the text after the last: the test's own split. */
    private record Split(List<String> words, List<String> gaps, String tail) {}

    private static Split split(String text) {
        List<String> words = new ArrayList<>();
        List<String> gaps = new ArrayList<>();
        int[] previous = new int[1];
        TextEdits.scan(text, (start, end, ideographic) -> {
            gaps.add(text.substring(previous[0], start));
            words.add(text.substring(start, end));
            previous[0] = end;
        });
        return new Split(words, gaps, text.substring(previous[0]));
    }

    private static boolean ideographic(String word) {
        return TextEdits.isIdeographic(word.codePointAt(0));
    }

    /**
     * The copy a plan makes, the naive way (a list of words edited in place, back to front so that the plan's places
     * stay valid), with the new words taken from the copy itself at the places the plan gives them: it must be the copy.
     */
    @Test
    void aCopyIsItsPlanAppliedByANaiveReference() {
        Random r = new Random(77);
        TextEdits.Vocabulary v = vocabulary(EN, ZH, "ひらがな カタカナ");
        for (int t = 0; t < 2_000; t++) {
            String text = randomText(r, r.nextInt(40));
            double rate = r.nextInt(5) == 0 ? 1.0 : r.nextDouble() * 0.5;
            long seed = r.nextLong();
            Split original = split(text);
            int n = original.words().size();
            TextEdits.Plan plan = TextEdits.plan(n, rate, new SplittableRandom(seed), NONE);
            TextEdits.Copy copy = TextEdits.edit(text, rate, v, new SplittableRandom(seed));
            String where = "text [" + text + "] rate " + rate + " seed " + seed + " copy [" + copy.text() + "]";

            // the plan: as many edits as the rate says, distinct words deleted or replaced, gaps in range, all in order
            int edits = copy.edits();
            assertTrue(edits == (int) Math.floor(rate * n) || edits == (int) Math.floor(rate * n) + 1, where);
            assertEquals(plan.deleted().length, copy.deleted(), where);
            assertEquals(plan.replaced().length, copy.replaced(), where);
            assertEquals(plan.insertions().length, copy.inserted(), where);
            List<Integer> taken = new ArrayList<>();
            for (int i : plan.deleted()) {
                taken.add(i);
            }
            for (int i : plan.replaced()) {
                assertTrue(!taken.contains(i), "deleted and replaced: " + i + " " + where);
                taken.add(i);
            }
            assertTrue(taken.stream().allMatch(i -> i >= 0 && i < n), where);
            assertEquals(taken.size(), taken.stream().distinct().count(), where);
            for (int[] sorted : new int[][] { plan.deleted(), plan.replaced(), plan.insertions() }) {
                for (int i = 1; i < sorted.length; i++) {
                    assertTrue(sorted[i - 1] <= sorted[i] && (sorted == plan.insertions() || sorted[i - 1] < sorted[i]), where);
                }
            }
            for (int g : plan.insertions()) {
                assertTrue(g >= 0 && g <= n, where);
            }

            // the naive reference: slots for the new words, the kept words with their own separators
            List<String> words = new ArrayList<>(original.words());
            List<String> gaps = new ArrayList<>(original.gaps());
            List<Boolean> isNew = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                isNew.add(false);
            }
            for (int i : plan.replaced()) {
                words.set(i, null);
                isNew.set(i, true);
            }
            for (int k = plan.deleted().length - 1; k >= 0; k--) {
                int i = plan.deleted()[k];
                words.remove(i);
                gaps.remove(i);
                isNew.remove(i);
                // later insertions at gaps after i move one place down
            }
            // insertions, from the last gap to the first, each before the original word at its gap (counted in the text
            // before the deletions): the place in the list is the gap minus the deleted words before it
            for (int k = plan.insertions().length - 1; k >= 0; k--) {
                int gap = plan.insertions()[k];
                int place = gap;
                for (int d : plan.deleted()) {
                    if (d < gap) {
                        place--;
                    }
                }
                words.add(place, null);
                gaps.add(place, null);
                isNew.add(place, true);
            }
            List<String> copyWords = TextEdits.words(copy.text());
            assertEquals(words.size(), copyWords.size(), where);
            for (int i = 0; i < words.size(); i++) {
                if (words.get(i) != null) {
                    assertEquals(words.get(i), copyWords.get(i), "word " + i + " " + where);
                } else {
                    words.set(i, copyWords.get(i));
                }
            }
            // the separators: a kept or replacing word keeps its own, a new word gets "" at the start and between two
            // ideographic words, else a space; nothing between two words that would run together becomes a space
            StringBuilder expected = new StringBuilder();
            for (int i = 0; i < words.size(); i++) {
                String w = words.get(i);
                String gap = gaps.get(i);
                boolean previousIdeographic = i > 0 && ideographic(words.get(i - 1));
                if (gap == null) {
                    gap = i == 0 || ideographic(w) && previousIdeographic ? "" : " ";
                } else if (gap.isEmpty() && i > 0 && !ideographic(w) && !previousIdeographic) {
                    gap = " ";
                }
                expected.append(gap).append(w);
            }
            expected.append(original.tail());
            assertEquals(expected.toString(), copy.text(), where);
        }
    }

    /** A text that counts how often its characters are read. */
    private static final class CountingText implements CharSequence {
        private final String text;
        long reads;

        CountingText(String text) {
            this.text = text;
        }

        @Override
        public int length() {
            return text.length();
        }

        @Override
        public char charAt(int index) {
            reads++;
            return text.charAt(index);
        }

        @Override
        public CharSequence subSequence(int start, int end) {
            reads += end - start;
            return text.subSequence(start, end);
        }

        @Override
        public String toString() {
            reads += text.length();
            return text;
        }
    }

    /** A text of {@code n} words, one in four a Han character, the rest made-up words of 1 to 6 letters. */
    private static String longText(Random r, int n) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n; i++) {
            if (r.nextInt(4) == 0) {
                b.append((char) (0x4E00 + r.nextInt(2000)));
            } else {
                int len = 1 + r.nextInt(6);
                for (int c = 0; c < len; c++) {
                    b.append((char) ('a' + r.nextInt(26)));
                }
                b.append(r.nextInt(10) == 0 ? ". " : " ");
            }
        }
        return b.toString();
    }

    @Test
    void theTextIsReadAFixedNumberOfTimesWhateverItsLengthAndRate() {
        Random r = new Random(78);
        TextEdits.Vocabulary v = vocabulary(EN, ZH);
        for (double rate : new double[] { 0.01, 0.1, 1.0 }) {
            for (int n : new int[] { 1_000, 8_000, 64_000 }) {
                String text = longText(r, n);
                CountingText counting = new CountingText(text);
                TextEdits.Copy copy = TextEdits.edit(counting, rate, v, new SplittableRandom(n), NONE);
                assertTrue(copy.edits() >= (int) (rate * n), copy.edits() + " edits");
                // two scans (count, then write) read each char at most twice each, and the copy reads a kept word once
                // more: at most 5 reads per char, independent of the number of edits, not a read per edit
                assertTrue(counting.reads <= 5L * text.length(), "rate " + rate + ", " + n + " words: " + counting.reads
                    + " reads of " + text.length() + " chars");
                assertEquals(copy, TextEdits.edit(text, rate, v, new SplittableRandom(n)), "a String reads the same");
            }
        }
    }

    @Test
    void theLongLoopsCallTheirCheckpoint() {
        String text = longText(new Random(79), 300_000);
        int[] calls = new int[1];
        TextEdits.edit(text, 0.1, vocabulary(EN), new SplittableRandom(1), () -> calls[0]++);
        // two scans of 300,000 words and the selection over them, every 65,536 words
        assertTrue(calls[0] >= 3 * (300_000 / TextEdits.CHECK_EVERY_WORDS) - 3, "checkpoints: " + calls[0]);
        RuntimeException stop = new RuntimeException("cancelled");
        assertThrows(RuntimeException.class, () -> TextEdits.edit(text, 0.1, vocabulary(EN), new SplittableRandom(1), () -> {
            throw stop;
        }));
    }

    /**
     * A guard with a wide margin, not a benchmark: 10% of the words of a 2-million-word text (the size at which editing
     * one word at a time in a list took minutes) are edited in well under the limit (about a second on a busy 2-core
     * machine) when the work is linear in the text.
     */
    @Test
    void aLongTextIsEditedInLinearTime() {
        String text = longText(new Random(80), 2_000_000);
        TextEdits.Vocabulary v = vocabulary(EN, ZH);
        TextEdits.Copy copy = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> TextEdits.edit(text, 0.1, v, new SplittableRandom(2)));
        assertEquals(200_000, copy.edits());
        assertEquals(2_000_000 + copy.inserted() - copy.deleted(), TextEdits.wordCount(copy.text()));
    }
}
