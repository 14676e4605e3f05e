package dev.simhash.calibrate;

import org.junit.jupiter.api.Test;

import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

class TextSimilarityTest {

    @Test
    void wordBigramsLowercased() {
        assertEquals(Set.of("the cat", "cat sat", "sat down"), TextSimilarity.shingles("The cat sat, down."));
        assertEquals(Set.of("国 家", "家 统", "统 计"), TextSimilarity.shingles("国家统计"));
        assertEquals(Set.of("hello"), TextSimilarity.shingles("Hello!"));
        assertEquals(Set.of(), TextSimilarity.shingles("..."));
    }

    @Test
    void jaccardOfHandCheckedSets() {
        // {a b, b c, c d} and {a b, b c, c e}: 2 common of 4 distinct
        assertEquals(0.5, TextSimilarity.jaccard(TextSimilarity.shingles("a b c d"), TextSimilarity.shingles("a b c e")), 0);
        assertEquals(1.0, TextSimilarity.jaccard(Set.of("x"), Set.of("x")), 0);
        assertEquals(0.0, TextSimilarity.jaccard(Set.of("x"), Set.of("y")), 0);
        assertEquals(0.0, TextSimilarity.jaccard(Set.of(), Set.of()), 0);
    }
}
