package dev.simhash.core;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.IntFunction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One rule at every length: a text against its copy with one token appended, removed or replaced, at every length from 1
 * to 300 tokens and at every seventh length to 2,000, in English and in Chinese. The sketch's own units (its shingles,
 * {@link MinHashSketch#shingleHashes}) change by at most what one token can change: a token is in at most
 * {@value MinHashSketch#SHINGLE} shingles, so at most that many leave and that many come. A rule that switched its shingle
 * size at some length would change every unit there. The sketches' estimate follows the exact similarity of the units.
 */
class SketchSmoothnessTest {

    private static final int W = MinHashSketch.SHINGLE;

    @Test
    void oneTokenChangesTheUnitsByAtMostWhatOneTokenCanInEnglish() {
        Random r = new Random(21);
        check(r, i -> randomWord(r), " ");
    }

    @Test
    void oneTokenChangesTheUnitsByAtMostWhatOneTokenCanInChinese() {
        Random r = new Random(22);
        // common Han characters: one token each
        check(r, i -> String.valueOf((char) (0x4E00 + r.nextInt(0x51A5))), "");
    }

    private static void check(Random r, IntFunction<String> token, String separator) {
        List<String> words = new ArrayList<>();
        int checked = 0;
        double worst = 0;
        for (int n = 1; n <= 2000; n += n < 300 ? 1 : 7) {
            while (words.size() < n) {
                words.add(token.apply(words.size()));
            }
            List<String> text = words.subList(0, n);
            List<String> appended = new ArrayList<>(text);
            appended.add(token.apply(n));
            List<String> removed = new ArrayList<>(text);
            removed.remove(r.nextInt(n));
            List<String> replaced = new ArrayList<>(text);
            replaced.set(r.nextInt(n), token.apply(n));
            for (List<String> edited : List.of(appended, removed, replaced)) {
                if (edited.isEmpty()) {
                    continue;
                }
                List<String> a = SimHashV2.tokens(String.join(separator, text));
                List<String> b = SimHashV2.tokens(String.join(separator, edited));
                Set<Long> ua = units(a);
                Set<Long> ub = units(b);
                Set<Long> left = new HashSet<>(ua);
                left.removeAll(ub);
                Set<Long> came = new HashSet<>(ub);
                came.removeAll(ua);
                assertTrue(left.size() <= W && came.size() <= W, "n " + n + ": " + left.size() + " units left, " + came.size() + " came");
                double exact = jaccard(ua, ub);
                double estimate = MinHashSketch.V1.similarity(MinHashSketch.V1.sketchOfTokens(a), MinHashSketch.V1.sketchOfTokens(b));
                // the estimate's standard error at J: sqrt(P (1 - P) / 512) / (1/2), P = (1 + J) / 2; within five of them
                double p = (1 + exact) / 2;
                double error = Math.sqrt(p * (1 - p) / 512) * 2;
                assertEquals(exact, estimate, 5 * error + 1e-9, "n " + n + ", exact " + exact);
                worst = Math.max(worst, Math.abs(exact - estimate) / Math.max(error, 1e-9));
                checked++;
            }
        }
        assertTrue(checked > 3 * 500, "checked " + checked);
    }

    private static Set<Long> units(List<String> tokens) {
        Set<Long> s = new HashSet<>();
        for (long h : MinHashSketch.V1.shingleHashes(tokens)) {
            s.add(h);
        }
        return s;
    }

    private static double jaccard(Set<Long> a, Set<Long> b) {
        Set<Long> union = new HashSet<>(a);
        union.addAll(b);
        int common = a.size() + b.size() - union.size();
        return union.isEmpty() ? 1 : common / (double) union.size();
    }

    private static String randomWord(Random r) {
        StringBuilder b = new StringBuilder();
        for (int i = 2 + r.nextInt(6); i > 0; i--) {
            b.append((char) ('a' + r.nextInt(26)));
        }
        return b.toString();
    }
}
