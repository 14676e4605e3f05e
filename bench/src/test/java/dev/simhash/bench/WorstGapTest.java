package dev.simhash.bench;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

class WorstGapTest {

    @Test
    void reportedPairsAreEveryPairWhoseSketchesReachTheLowestThresholdAndTallyMatchesTheTruth() {
        List<String> docs = TruthTest.texts(new Random(7), true);
        NaturalCorpora.Corpus c = TruthTest.corpus(NaturalCorpora.Lang.ZH, 2, docs);
        Truth truth = Truth.of(c);
        WorstGap.Design d = WorstGap.design("w2");
        long[] reported = WorstGap.reportedPairs(d, docs, new HashMap<>());
        dev.simhash.core.MinHashSketch sk = new dev.simhash.core.MinHashSketch(2, WorstGap.BINS, WorstGap.BITS);
        int[] minEqual = new int[WorstGap.THRESHOLDS.length];
        for (int t = 0; t < minEqual.length; t++) {
            minEqual[t] = sk.equalBinsFor(WorstGap.THRESHOLDS[t]);
        }
        // brute force: every pair, its sketch's equal bins, its truth's Jaccard
        List<Long> want = new ArrayList<>();
        long[] rep = new long[minEqual.length];
        long[] near = new long[minEqual.length];
        long[] grey = new long[minEqual.length];
        for (int i = 0; i < docs.size(); i++) {
            byte[] a = sk.sketchOfShingles(WorstGap.shingles(d, WorstGap.tokens(d.tokens(), docs.get(i))));
            for (int j = i + 1; j < docs.size(); j++) {
                byte[] b = sk.sketchOfShingles(WorstGap.shingles(d, WorstGap.tokens(d.tokens(), docs.get(j))));
                int equal = sk.equalBins(a, 0, b, 0);
                if (equal < minEqual[0]) {
                    continue;
                }
                want.add((((long) i << 20) | j) << 10 | equal);
                double jac = truth.jaccard(i, j);
                for (int t = 0; t < minEqual.length; t++) {
                    if (equal >= minEqual[t]) {
                        rep[t]++;
                        if (jac >= Truth.NEAR) {
                            near[t]++;
                        } else if (jac >= Truth.MIN_STORED - 1e-9) {
                            grey[t]++;
                        }
                    }
                }
            }
        }
        assertArrayEquals(want.stream().mapToLong(Long::longValue).toArray(), reported);
        Verified.Tally got = WorstGap.tally(reported, truth, minEqual);
        assertArrayEquals(rep, got.reported());
        assertArrayEquals(near, got.near());
        assertArrayEquals(grey, got.grey());
    }

    @Test
    void lettersInHanSplitsLatinWordsOnlyInTextsWithHanCharacters() {
        assertEquals(List.of("l", "i", "n", "u", "x", "内", "核"), WorstGap.tokens(WorstGap.Tokens.V2_LETTERS_IN_HAN, "Linux 内核"));
        assertEquals(List.of("linux", "kernel"), WorstGap.tokens(WorstGap.Tokens.V2_LETTERS_IN_HAN, "Linux kernel"));
        assertEquals(List.of("linux", "内", "核"), WorstGap.tokens(WorstGap.Tokens.V2, "Linux 内核"));
    }

    @Test
    void unigramsAndBigramsTogetherAreOneSet() {
        WorstGap.Design d = WorstGap.design("w1+2");
        assertEquals(3 + 2, WorstGap.shingles(d, List.of("a", "b", "c")).length);
        assertEquals(1, WorstGap.shingles(d, List.of("a")).length);
    }
}
