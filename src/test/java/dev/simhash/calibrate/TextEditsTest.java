package dev.simhash.calibrate;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
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
}
