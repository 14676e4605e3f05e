package dev.simhash.weights;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

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

    @Test
    void noDocumentsDefaultOne() {
        assertEquals(1.0, new DocumentFrequencies(10).defaultWeight(2));
    }
}
