package dev.simhash.bench;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TruthTest {

    static NaturalCorpora.Corpus corpus(NaturalCorpora.Lang lang, int shingle, List<String> docs) {
        return new NaturalCorpora.Corpus("t", "", lang, false, shingle, "", "", docs, null);
    }

    /** Random texts with planted near-copies, so that all Jaccard ranges occur. */
    static List<String> texts(Random r, boolean chinese) {
        String[] words = chinese ? "国 家 统 计 局 發 佈 数 据 价 格 上 涨 的 是 一".split(" ")
            : "the bank rate left unchanged markets data price rose fell said on in of a".split(" ");
        List<String> out = new ArrayList<>();
        for (int i = 0; i < 150; i++) {
            if (!out.isEmpty() && r.nextInt(3) == 0) {
                String[] base = out.get(r.nextInt(out.size())).split(" ");
                for (int e = r.nextInt(4); e > 0; e--) {
                    base[r.nextInt(base.length)] = words[r.nextInt(words.length)];
                }
                out.add(String.join(" ", base));
            } else {
                StringBuilder sb = new StringBuilder();
                for (int w = 5 + r.nextInt(30); w > 0; w--) {
                    sb.append(words[r.nextInt(words.length)]).append(' ');
                }
                out.add(sb.toString().strip());
            }
        }
        return out;
    }

    @Test
    void prefixFilterFindsExactlyThePairsBruteForceFinds() {
        for (boolean zh : new boolean[] { false, true }) {
            for (int seed = 0; seed < 5; seed++) {
                List<String> docs = texts(new Random(seed), zh);
                NaturalCorpora.Corpus c = corpus(zh ? NaturalCorpora.Lang.ZH : NaturalCorpora.Lang.EN, 2 + seed % 4, docs);
                Truth t = Truth.of(c);
                List<Long> brute = new ArrayList<>();
                for (int i = 0; i < docs.size(); i++) {
                    for (int j = i + 1; j < docs.size(); j++) {
                        double jac = t.jaccard(i, j);
                        if (jac >= Truth.MIN_STORED) {
                            brute.add(((long) i << 20 | j));
                        }
                    }
                }
                long[] found = Arrays.stream(t.pairs).map(p -> p >>> 23).toArray();
                assertArrayEquals(brute.stream().mapToLong(Long::longValue).toArray(), found, "seed " + seed + " zh " + zh);
                for (long p : t.pairs) {
                    assertEquals(t.jaccard(Truth.first(p), Truth.second(p)), Truth.jaccardOf(p), 1e-6);
                }
            }
        }
    }

    @Test
    void shinglesFoldChineseAndIgnorePunctuationAndCase() {
        assertArrayEquals(Truth.shingles("國家統計局，發佈", NaturalCorpora.Lang.ZH, 2), Truth.shingles("国家统计局发布", NaturalCorpora.Lang.ZH, 2));
        assertArrayEquals(Truth.shingles("The Bank, rate!", NaturalCorpora.Lang.EN, 2), Truth.shingles("the bank rate", NaturalCorpora.Lang.EN, 2));
        assertEquals(1, Truth.shingles("two words", NaturalCorpora.Lang.EN, 5).length);
        assertEquals(0, Truth.shingles("，。", NaturalCorpora.Lang.ZH, 5).length);
    }

    @Test
    void minHashEstimatesJaccard() {
        long[] a = new long[1000];
        long[] b = new long[1000];
        for (int i = 0; i < 1000; i++) {
            a[i] = i;
            b[i] = i + 250; // J = 750 / 1250 = 0.6
        }
        double est = MinHash.estimate(MinHash.signature(a), MinHash.signature(b));
        assertTrue(Math.abs(est - 0.6) < 0.15, "estimate " + est);
        assertEquals(1.0, MinHash.estimate(MinHash.signature(a), MinHash.signature(a.clone())));
    }

    @Test
    void chineseTruthWithLatinWordsTakesALatinRunAsOneUnit() {
        long[] got = Truth.shingles("abc, 国家 def1!", NaturalCorpora.Lang.ZH, 2, true);
        long[] want = Arrays.stream(new long[] { dev.simhash.core.SimHash.featureHash("abc 国"), dev.simhash.core.SimHash.featureHash("国 家"),
            dev.simhash.core.SimHash.featureHash("家 def1") }).sorted().toArray();
        assertArrayEquals(want, got);
        // the default Chinese truth: one unit per letter, no separator
        long[] perLetter = Truth.shingles("ab国", NaturalCorpora.Lang.ZH, 2, false);
        assertArrayEquals(Arrays.stream(new long[] { dev.simhash.core.SimHash.featureHash("ab"), dev.simhash.core.SimHash.featureHash("b国") })
            .sorted().toArray(), perLetter);
    }

    @Test
    void eachTruthHasOneUnitAtEveryLength() {
        String mixed = "Linux 內核 v2";
        assertEquals(List.of("l", "i", "n", "u", "x", "内", "核", "v", "2"), Truth.units(mixed, NaturalCorpora.Lang.ZH, Truth.Unit.CHAR));
        assertEquals(List.of("linux", "内", "核", "v2"), Truth.units(mixed, NaturalCorpora.Lang.ZH, Truth.Unit.CHAR_LATIN_WORDS));
        // Chinese words are the plugin's tokens: the same units as characters with Latin words
        assertEquals(Truth.units(mixed, NaturalCorpora.Lang.ZH, Truth.Unit.CHAR_LATIN_WORDS), Truth.units(mixed, NaturalCorpora.Lang.ZH, Truth.Unit.WORD));
        assertEquals(List.of("the", "bank", "rate"), Truth.units("The Bank, rate!", NaturalCorpora.Lang.EN, Truth.Unit.WORD));
        assertEquals(List.of("t", "h", "e", "b", "a", "n", "k"), Truth.units("The Bank", NaturalCorpora.Lang.EN, Truth.Unit.CHAR));
        // today's truth is unchanged: the long-text corpus's word 5-shingles, the short one's char 2-grams
        NaturalCorpora.Corpus en = corpus(NaturalCorpora.Lang.EN, 5, List.of("one two three four five six seven"));
        NaturalCorpora.Corpus zh = corpus(NaturalCorpora.Lang.ZH, 2, List.of("国家统计局发布 Linux"));
        assertArrayEquals(Truth.shingles(en.docs().get(0), NaturalCorpora.Lang.EN, 5), Truth.shingles(en, Truth.ADAPTIVE, false)[0]);
        assertArrayEquals(Truth.shingles(zh.docs().get(0), NaturalCorpora.Lang.ZH, 2), Truth.shingles(zh, Truth.ADAPTIVE, false)[0]);
        assertArrayEquals(Truth.shingles(zh.docs().get(0), NaturalCorpora.Lang.ZH, 2, true), Truth.shingles(zh, Truth.ADAPTIVE, true)[0]);
        // a fixed truth ignores the corpus's shingle size
        assertEquals(3, Truth.shingles(en, Truth.spec("word5"), false)[0].length);
        assertEquals(5, Truth.shingles(en, Truth.spec("word3"), false)[0].length);
    }
}
