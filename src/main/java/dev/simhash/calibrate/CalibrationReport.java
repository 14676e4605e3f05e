package dev.simhash.calibrate;

import dev.simhash.core.FingerprintSpec;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The calibration report as typed records, holding the values exactly as the response shows them (rounded; null where
 * nothing was measured). Each record writes itself, in one place, as the ordered map of plain values that the JSON
 * response and the wire carry: keys in the documented order, ints as ints, longs as longs, doubles as doubles, and keys
 * that a report leaves out absent.
 *
 * @param tookMs              the request's time
 * @param field               the fingerprint field
 * @param sourceField         the text fields, joined by ", "
 * @param indices             the target indices that map the field, in order
 * @param fingerprint         the field's fingerprint options (of the first index), null when no index maps it
 * @param sketch              the similarity sketch's name, null when the report covers radii only
 * @param seed                the sample's seed
 * @param sampleSize          the sample size asked for
 * @param sampleSizeLimitedBy the setting that lowered the sample size, null when none did (the key is absent)
 * @param maxEditedDocs       documents whose edited copies are measured at most
 * @param statistics          what the sample shows ({@link Calibration})
 */
public record CalibrationReport(long tookMs, String field, String sourceField, List<String> indices, FingerprintSpec fingerprint,
                                String sketch, long seed, int sampleSize, String sampleSizeLimitedBy, int maxEditedDocs,
                                Statistics statistics) {

    public CalibrationReport {
        indices = List.copyOf(indices);
    }

    /** The report as the response shows it. */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("took_ms", tookMs);
        m.put("field", field);
        m.put("source_field", sourceField);
        m.put("indices", indices);
        m.put("fingerprint", fingerprint == null ? null : fingerprint.toMap());
        m.put("sketch", sketch);
        m.put("seed", seed);
        m.put("sample_size", sampleSize);
        if (sampleSizeLimitedBy != null) {
            m.put("sample_size_limited_by", sampleSizeLimitedBy);
        }
        m.put("max_edited_docs", maxEditedDocs);
        m.putAll(statistics.toMap());
        return m;
    }

    /**
     * What a sample shows: its counts, the random pairs, the edited copies, one row per radius, the recommended radius,
     * on a field with a similarity sketch the verified rule's rows and recommendation, and the warnings.
     *
     * @param similarity the verified rule's part, null without a sketch (its keys are absent)
     */
    public record Statistics(Sample sample, RandomPairsSummary randomPairs, List<Edits> edits, List<ByK> byK,
                             Recommendation recommendation, Similarity similarity, List<String> warnings) {
        public Statistics {
            edits = List.copyOf(edits);
            byK = List.copyOf(byK);
            warnings = List.copyOf(warnings);
        }

        public Map<String, Object> toMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("sample", sample.toMap());
            m.put("random_pairs", randomPairs.toMap());
            m.put("edits", maps(edits, Edits::toMap));
            m.put("by_k", maps(byK, ByK::toMap));
            m.put("recommendation", recommendation.toMap());
            if (similarity != null) {
                m.put("by_similarity", maps(similarity.rows(), BySimilarity::toMap));
                m.put("similarity_recommendation", similarity.recommendation().toMap());
            }
            m.put("warnings", new ArrayList<>(warnings));
            return m;
        }
    }

    /** The sample's counts ({@link Calibration.Counts}) and the medians of the edited texts' sizes (null: none). */
    public record Sample(Calibration.Counts counts, Double medianTextChars, Double medianWords, Double medianFeatures) {
        public Map<String, Object> toMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("docs_total", counts.docsTotal());
            m.put("docs_with_fingerprint_total", counts.docsWithFingerprint());
            m.put("sampled", counts.sampled());
            m.put("sampled_without_fingerprint", counts.withoutFingerprint());
            m.put("sampled_with_text", counts.withText());
            m.put("texts_without_fingerprint", counts.textWithoutFingerprint());
            m.put("stored_fingerprint_differs", counts.storedMismatch());
            m.put("edited_docs", counts.edited());
            m.put("edited_words", counts.editedWords());
            m.put("texts_not_edited", counts.notEdited());
            m.put("texts_not_compared", counts.notCompared());
            m.put("median_text_chars", medianTextChars);
            m.put("median_words", medianWords);
            m.put("median_features", medianFeatures);
            return m;
        }
    }

    /**
     * The sample's random pairs.
     *
     * @param relatedWithinMaxK related pairs within {@code maxK} bits
     * @param pairsAtDistance   pairs at each distance 0..64
     */
    public record RandomPairsSummary(long pairs, Double meanDistance, Double sdDistance, double resolution, int maxK,
                                     long relatedWithinMaxK, List<Long> pairsAtDistance) {
        /** What the report calls related pairs. */
        public static final String RELATED = "texts whose token bigrams (the tokens the field fingerprints, read as the field reads "
            + "the text) have a Jaccard similarity of at least " + TextSimilarity.RELATED_JACCARD + ": near-duplicates already in "
            + "the data, not false matches";

        public RandomPairsSummary {
            pairsAtDistance = List.copyOf(pairsAtDistance);
        }

        public Map<String, Object> toMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("pairs", pairs);
            m.put("mean_distance", meanDistance);
            m.put("sd_distance", sdDistance);
            m.put("resolution", resolution);
            m.put("related_pairs_within_" + maxK, relatedWithinMaxK);
            m.put("related", RELATED);
            m.put("pairs_at_distance", new ArrayList<>(pairsAtDistance));
            return m;
        }
    }

    /**
     * The edited copies at one edit rate.
     *
     * @param medianDistance their median distance from the original, null when no copy has a fingerprint
     * @param similarity     on a field with a sketch, their similarities; else null (the keys are absent)
     */
    public record Edits(String rate, int copies, Double meanWordsChanged, Integer medianDistance, int copiesWithoutFingerprint,
                        EditSimilarities similarity) {
        public Map<String, Object> toMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("rate", rate);
            m.put("copies", copies);
            m.put("mean_words_changed", meanWordsChanged);
            m.put("median_distance", medianDistance);
            m.put("copies_without_fingerprint", copiesWithoutFingerprint);
            if (similarity != null) {
                m.put("median_similarity", similarity.median());
                m.put("p5_similarity", similarity.p5());
                m.put("copies_without_sketch", similarity.copiesWithoutSketch());
            }
            return m;
        }
    }

    /** The similarities of the edited copies at one rate to their originals: the median and the 5th percentile. */
    public record EditSimilarities(Double median, Double p5, int copiesWithoutSketch) {}

    /** The share of the edited copies found at one edit rate (null: no copy). */
    public record Recall(String rate, Double value) {
        static Map<String, Object> toMap(List<Recall> recalls) {
            Map<String, Object> m = new LinkedHashMap<>();
            for (Recall r : recalls) {
                m.put(r.rate(), r.value());
            }
            return m;
        }
    }

    /**
     * One radius: the random pairs within it, the false-match rate and the recall per edit rate.
     *
     * @param estimatedFalseMatchRate null when the distances have no normal approximation
     */
    public record ByK(int k, long randomPairsWithin, long relatedPairsWithin, double observedFalseMatchRate,
                      Double estimatedFalseMatchRate, double falseMatchRate, String falseMatchRateFrom, List<Recall> recall) {
        public ByK {
            recall = List.copyOf(recall);
        }

        public Map<String, Object> toMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("k", k);
            m.put("random_pairs_within", randomPairsWithin);
            m.put("related_pairs_within", relatedPairsWithin);
            putRates(m, observedFalseMatchRate, estimatedFalseMatchRate, falseMatchRate, falseMatchRateFrom, recall);
            return m;
        }
    }

    /** What a row of {@code by_k} and of {@code by_similarity} say alike: the false-match rates and the recall per edit rate. */
    private static void putRates(Map<String, Object> m, double observed, Double estimated, double rate, String from,
                                 List<Recall> recall) {
        m.put("observed_false_match_rate", observed);
        m.put("estimated_false_match_rate", estimated);
        m.put("false_match_rate", rate);
        m.put("false_match_rate_from", from);
        m.put("recall", Recall.toMap(recall));
    }

    /**
     * The recommended radius for the target false-match rate.
     *
     * @param radius the radius and what it gives; null when none is recommended (only {@code max_distance: null} shows)
     */
    public record Recommendation(double maxFalseMatchRate, Radius radius) {
        public Map<String, Object> toMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("max_false_match_rate", maxFalseMatchRate);
            m.put("max_distance", radius == null ? null : radius.maxDistance());
            if (radius != null) {
                m.put("false_match_rate", radius.falseMatchRate());
                m.put("false_match_rate_from", radius.falseMatchRateFrom());
                m.put("recall", Recall.toMap(radius.recall()));
            }
            return m;
        }
    }

    /** A recommended radius: its false-match rate, where that comes from, and its recall per edit rate. */
    public record Radius(int maxDistance, double falseMatchRate, String falseMatchRateFrom, List<Recall> recall) {
        public Radius {
            recall = List.copyOf(recall);
        }
    }

    /** The verified rule's part of the report: one row per threshold and the recommended threshold. */
    public record Similarity(List<BySimilarity> rows, SimilarityRecommendation recommendation) {
        public Similarity {
            rows = List.copyOf(rows);
        }
    }

    /**
     * One {@code min_similarity}: how its candidates are taken, the random pairs above it, the false-match rate of the
     * verified rule and the recall per edit rate.
     *
     * @param candidates {@code bands} or {@code radius}
     * @param radius     the fingerprint radius of the candidates below the bands' range
     */
    public record BySimilarity(double minSimilarity, String candidates, int radius, long randomPairsAbove, long relatedPairsAbove,
                               double observedFalseMatchRate, Double estimatedFalseMatchRate, double falseMatchRate,
                               String falseMatchRateFrom, List<Recall> recall) {
        public BySimilarity {
            recall = List.copyOf(recall);
        }

        public Map<String, Object> toMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("min_similarity", minSimilarity);
            m.put("candidates", candidates);
            m.put("radius", radius);
            m.put("random_pairs_above", randomPairsAbove);
            m.put("related_pairs_above", relatedPairsAbove);
            putRates(m, observedFalseMatchRate, estimatedFalseMatchRate, falseMatchRate, falseMatchRateFrom, recall);
            return m;
        }
    }

    /**
     * The recommended {@code min_similarity}.
     *
     * @param threshold the threshold and what it gives; null when the sample is too small to say ({@code min_similarity: null},
     *                  chosen by {@link #TOO_FEW_DOCUMENTS})
     */
    public record SimilarityRecommendation(double maxFalseMatchRate, Threshold threshold) {
        /** How a report too small for a recommendation names its choice. */
        public static final String TOO_FEW_DOCUMENTS = "too_few_documents";

        public Map<String, Object> toMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("max_false_match_rate", maxFalseMatchRate);
            if (threshold == null) {
                m.put("min_similarity", null);
                m.put("chosen_by", TOO_FEW_DOCUMENTS);
                return m;
            }
            m.put("min_similarity", threshold.minSimilarity());
            m.put("chosen_by", threshold.chosenBy());
            m.put("candidates", threshold.candidates());
            m.put("radius", threshold.radius());
            m.put("false_match_rate", threshold.falseMatchRate());
            m.put("false_match_rate_from", threshold.falseMatchRateFrom());
            m.put("recall", Recall.toMap(threshold.recall()));
            return m;
        }
    }

    /**
     * A recommended {@code min_similarity}.
     *
     * @param chosenBy {@code lowest_within_target}, or {@code default} when no threshold keeps to the target
     */
    public record Threshold(double minSimilarity, String chosenBy, String candidates, int radius, double falseMatchRate,
                            String falseMatchRateFrom, List<Recall> recall) {
        public Threshold {
            recall = List.copyOf(recall);
        }
    }

    private static <T> List<Object> maps(List<T> rows, java.util.function.Function<T, Map<String, Object>> toMap) {
        List<Object> out = new ArrayList<>(rows.size());
        for (T row : rows) {
            out.add(toMap.apply(row));
        }
        return out;
    }
}
