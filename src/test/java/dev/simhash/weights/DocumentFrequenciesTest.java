package dev.simhash.weights;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Document frequencies to IDF factors: counts per document, min_df, max_features, the default, bounded memory. */
class DocumentFrequenciesTest {

    @Test
    void idfOfCountedDocuments() {
        DocumentFrequencies df = new DocumentFrequencies(1000);
        df.addDocument(List.of("a", "b"));
        df.addDocument(List.of("a", "c"));
        df.addDocument(List.of("a", "b"));
        df.addDocument(List.of("d"));
        assertEquals(4, df.documents());
        assertEquals(3, df.df("a"));
        assertEquals(2, df.df("b"));
        // ln(1 + N/df), N = 4: a: ln(1 + 4/3), b: ln(3); c and d have df 1 < min_df 2
        Map<String, Double> idf = df.idf(2, 10);
        assertEquals(List.of("a", "b"), List.copyOf(idf.keySet()), "most frequent first");
        assertEquals(Math.log(7.0 / 3.0), idf.get("a"), 1e-15);
        assertEquals(Math.log(3.0), idf.get("b"), 1e-15);
        assertEquals(Math.log(5.0), df.defaultWeight(2), 1e-15, "absent features: df just below min_df, i.e. 1");
        assertEquals(Math.log(3.0), df.defaultWeight(3), 1e-15, "min_df 3: absent features have df <= 2");
        // min_df 1 keeps all; max_features keeps the most frequent, ties by feature
        assertEquals(List.of("a", "b", "c", "d"), List.copyOf(df.idf(1, 10).keySet()));
        assertEquals(List.of("a", "b", "c"), List.copyOf(df.idf(1, 3).keySet()));
        assertThrows(IllegalArgumentException.class, () -> df.idf(0, 3));
    }

    @Test
    void memoryIsBoundedByForgettingFeaturesSeenOnce() {
        DocumentFrequencies df = new DocumentFrequencies(3);
        df.addDocument(List.of("a", "b"));
        df.addDocument(List.of("a"));
        df.addDocument(List.of("c", "d"));
        // 4 distinct > 3: those seen once (b, c, d) are forgotten, a (2) stays
        assertEquals(1, df.distinctFeatures());
        assertEquals(2, df.df("a"));
        assertEquals(1, df.pruned());
    }

    /**
     * The bound full of features seen twice, then a stream of features never seen before: pruning what was seen once frees
     * nothing lasting, so a pruning at every document (a scan of the whole map each time) would follow; the prunings must
     * stay a constant share of the features added (at least half the bound of new features between two).
     */
    @Test
    void pruningIsAmortizedOnAStreamOfNewFeatures() {
        int cap = 1_000;
        DocumentFrequencies df = new DocumentFrequencies(cap);
        for (int round = 0; round < 2; round++) {
            for (int i = 0; i < cap; i += 2) {
                df.addDocument(List.of("r" + i, "r" + (i + 1)));
            }
        }
        assertEquals(0, df.pruned());
        assertEquals(cap, df.distinctFeatures());
        int docs = 50_000;
        int perDoc = 3;
        for (int d = 0; d < docs; d++) {
            df.addDocument(List.of("n" + d + "a", "n" + d + "b", "n" + d + "c"));
            assertTrue(df.distinctFeatures() <= cap + perDoc, "memory stays bounded");
        }
        long added = (long) docs * perDoc;
        assertTrue(df.pruned() <= 2 * added / cap + 1, "prunings " + df.pruned() + " for " + added + " new features, bound " + cap);
        assertTrue(df.pruned() > 0);
    }

    /**
     * A usual stream (fifty words of decreasing frequency and five words of each document's own) prunes what was seen once
     * and keeps the frequent words' exact counts: the table is the one exact counting gives.
     */
    @Test
    void pruningKeepsTheFrequentFeaturesOfAUsualStream() {
        int words = 50;
        int docs = 3_000;
        DocumentFrequencies df = new DocumentFrequencies(1_000);
        Map<String, Integer> exact = new HashMap<>();
        for (int d = 0; d < docs; d++) {
            List<String> features = new ArrayList<>();
            for (int j = 0; j < words; j++) {
                if (d % (j + 1) == 0) {
                    features.add("w" + j);
                }
            }
            for (int u = 0; u < 5; u++) {
                features.add("own" + d + "-" + u);
            }
            df.addDocument(features);
            for (String f : features) {
                exact.merge(f, 1, Integer::sum);
            }
        }
        assertTrue(df.pruned() > 10, "the stream prunes: " + df.pruned());
        Map<String, Double> expected = new LinkedHashMap<>();
        exact.entrySet().stream().filter(e -> e.getValue() >= 2)
            .sorted((a, b) -> a.getValue().equals(b.getValue()) ? a.getKey().compareTo(b.getKey()) : b.getValue() - a.getValue())
            .forEach(e -> expected.put(e.getKey(), Math.log(1 + docs / (double) e.getValue())));
        assertEquals(words, expected.size());
        assertEquals(expected, df.idf(2, 100));
        assertEquals(List.copyOf(expected.keySet()), List.copyOf(df.idf(2, 100).keySet()));
    }

    @Test
    void noDocumentsDefaultOne() {
        assertEquals(1.0, new DocumentFrequencies(10).defaultWeight(2));
    }

    /** The estimate grows by one entry per new feature (its characters at two bytes), not per repeat, and shrinks on pruning. */
    @Test
    void theHeapEstimateFollowsTheDistinctFeatures() {
        DocumentFrequencies df = new DocumentFrequencies(4);
        assertEquals(0, df.ramBytesUsed());
        df.addDocument(List.of("ab", "cde"));
        assertEquals(2 * 112 + 2 * 5, df.ramBytesUsed());
        df.addDocument(List.of("ab", "cde"));
        assertEquals(2 * 112 + 2 * 5, df.ramBytesUsed());
        df.addDocument(List.of("f"));
        assertEquals(3 * 112 + 2 * 6, df.ramBytesUsed());
        // a fifth distinct feature prunes those seen once (f, g, hi): ab and cde remain
        df.addDocument(List.of("g", "hi"));
        assertEquals(2, df.distinctFeatures());
        assertEquals(2 * 112 + 2 * 5, df.ramBytesUsed());
    }
}
