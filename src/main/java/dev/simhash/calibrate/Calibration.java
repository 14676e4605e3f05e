package dev.simhash.calibrate;

import dev.simhash.core.MinHashSketch;
import dev.simhash.threshold.Verification;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The calibration report of a sample: for each radius k, the chance that two random documents match (false-match
 * rate) and the share of edited copies found (expected recall per edit rate), and the recommended radius: the largest
 * k whose false-match rate stays within the target. Its {@link #statistics} are the report's typed rows.
 */
public final class Calibration {

    /** Radii reported: 0..MAX_K. */
    public static final int MAX_K = 16;
    /** Shares of words changed in the edited copies. */
    public static final List<Double> EDIT_RATES = List.of(0.01, 0.02, 0.05, 0.10);
    /**
     * Below this median number of distinct features a single changed word moves a fingerprint by several bits (each
     * feature carries 1/20 or more of the weight), so near-duplicates are found only at radii where unrelated texts
     * match too.
     */
    public static final int SHORT_TEXT_FEATURES = 20;

    /** Documents whose edited copies are fingerprinted at most (4 copies each); random pairs use the whole sample. */
    public static final int MAX_EDITED_DOCS = 1_000;
    /**
     * Words of text edited at most in one request, over all edited documents (each is read 5 times: its fingerprint and 4
     * copies): the documents are taken in the sample's order while their words fit, so that the time a request takes is
     * bounded whatever the texts' sizes (about 10 s of one core for 2 million words; 1,000 texts of 2,000 words fit).
     */
    public static final long MAX_EDITED_WORDS = 2_000_000;
    /**
     * Words of text read at most in one request to decide which pairs are related (texts of documents with a neighbour
     * within {@link #MAX_K} bits): beyond that, such documents are not compared by their texts.
     */
    public static final long MAX_COMPARED_WORDS = 16_000_000;

    /**
     * What was sampled.
     *
     * @param docsTotal              documents in the target indices
     * @param docsWithFingerprint    of those, documents with a fingerprint in the field
     * @param sampled                documents in the sample
     * @param withoutFingerprint     sampled documents without a stored fingerprint
     * @param withText               sampled documents with text in the source field
     * @param textWithoutFingerprint sampled texts that give no fingerprint (fewer than min_features features)
     * @param storedMismatch         sampled documents whose stored fingerprint differs from that of their source text
     * @param edited                 documents whose edited copies were measured
     * @param editedWords            the words of their texts
     * @param notEdited              texts that were not edited because the request's word budget for edits was spent
     * @param notCompared            documents with a fingerprint within {@link #MAX_K} bits of another one whose texts
     *                               were not compared (the request's word budget for comparing texts was spent)
     */
    public record Counts(long docsTotal, long docsWithFingerprint, int sampled, int withoutFingerprint, int withText,
                         int textWithoutFingerprint, int storedMismatch, int edited, long editedWords, int notEdited,
                         int notCompared) {
        /** Counts of a sample that stayed within the word budgets. */
        public Counts(long docsTotal, long docsWithFingerprint, int sampled, int withoutFingerprint, int withText,
                      int textWithoutFingerprint, int storedMismatch, int edited) {
            this(docsTotal, docsWithFingerprint, sampled, withoutFingerprint, withText, textWithoutFingerprint, storedMismatch, edited,
                0, 0, 0);
        }
    }

    /** Medians over the edited documents' texts; NaN when there are none. */
    public record TextSizes(double chars, double words, double features) {}

    private final double target;
    private final RandomPairs pairs;
    private final List<EditRecall> edits;
    private final Counts counts;
    private final TextSizes sizes;
    private final String sourceField;
    private final Verified verified;

    /**
     * The verified rule's part of the report, on a field with a similarity sketch.
     *
     * @param pairs the sample's random pairs under the rule
     * @param edits the edited copies under the rule, one per edit rate in the order of the {@link EditRecall}s
     */
    public record Verified(VerifiedPairs pairs, List<EditSimilarity> edits) {
        public Verified {
            edits = List.copyOf(edits);
        }
    }

    public Calibration(double target, RandomPairs pairs, List<EditRecall> edits, Counts counts, TextSizes sizes, String sourceField) {
        this(target, pairs, edits, counts, sizes, sourceField, null);
    }

    /** A report that also covers {@code min_similarity} when {@code verified} is not null. */
    public Calibration(double target, RandomPairs pairs, List<EditRecall> edits, Counts counts, TextSizes sizes, String sourceField,
                       Verified verified) {
        if (verified != null && verified.edits().size() != edits.size()) {
            throw new IllegalArgumentException("one edit similarity per edit rate: " + verified.edits().size() + " != " + edits.size());
        }
        this.verified = verified;
        this.target = target;
        this.pairs = pairs;
        this.edits = List.copyOf(edits);
        this.counts = counts;
        this.sizes = sizes;
        this.sourceField = sourceField;
    }

    /**
     * The recommended radius, or -1 when even identical fingerprints (k = 0) match more random pairs than the target, or
     * when the sample is {@link #tooFewPairs() too small} to say.
     */
    public int recommendedK() {
        return tooFewPairs() ? -1 : pairs.largestKWithin(target, MAX_K);
    }

    /**
     * Whether the sample cannot show the target rate: it has no normal approximation (fewer than 3 documents with a
     * fingerprint, or all pairs at one distance) and too few pairs to observe the target (fewer than 1 / target). An
     * observed rate of 0 on so few pairs says nothing: no recommendation is made from it.
     */
    public boolean tooFewPairs() {
        return Double.isNaN(pairs.estimatedRate(0)) && pairs.resolution() > target;
    }

    /**
     * The recommended {@code min_similarity}: the lowest threshold of {@link VerifiedPairs#GRID} whose false-match rate
     * under the verified rule is within the target, else {@link MinHashSketch#DEFAULT_MIN_SIMILARITY}; NaN without a
     * sketch.
     */
    public double recommendedMinSimilarity() {
        if (verified == null || tooFewPairs()) {
            return Double.NaN;
        }
        double s = verified.pairs().lowestWithin(target);
        return Double.isNaN(s) ? MinHashSketch.DEFAULT_MIN_SIMILARITY : s;
    }

    /** The median of the values; NaN for none. */
    public static double median(List<? extends Number> values) {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        double[] v = values.stream().mapToDouble(Number::doubleValue).sorted().toArray();
        int n = v.length;
        return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    }

    /** The edit rate as the response names it, e.g. {@code 5%}. */
    static String rateName(double rate) {
        double percent = rate * 100;
        return (percent == Math.rint(percent) ? String.valueOf((long) percent) : String.valueOf(percent)) + "%";
    }

    private List<CalibrationReport.Recall> recallByRate(int k) {
        List<CalibrationReport.Recall> out = new ArrayList<>(edits.size());
        for (EditRecall e : edits) {
            out.add(new CalibrationReport.Recall(rateName(e.rate()), round(e.recall(k))));
        }
        return out;
    }

    private List<CalibrationReport.Recall> recallAt(double s) {
        Verification rule = Verification.of(s);
        List<CalibrationReport.Recall> out = new ArrayList<>(verified.edits().size());
        for (EditSimilarity e : verified.edits()) {
            out.add(new CalibrationReport.Recall(rateName(e.rate()), round(e.recall(rule))));
        }
        return out;
    }

    /**
     * The report's statistics: {@code sample}, {@code random_pairs}, {@code edits}, {@code by_k},
     * {@code recommendation}, with a sketch {@code by_similarity} and {@code similarity_recommendation}, and
     * {@code warnings}.
     */
    public CalibrationReport.Statistics statistics() {
        return statistics(List.of());
    }

    /** {@link #statistics()} with {@code moreWarnings} (about the target indices, which the sample does not know) after its own. */
    public CalibrationReport.Statistics statistics(List<String> moreWarnings) {
        CalibrationReport.Sample sample = new CalibrationReport.Sample(counts, round(sizes.chars()), round(sizes.words()),
            round(sizes.features()));
        List<Long> histogram = new ArrayList<>();
        for (int d = 0; d <= 64; d++) {
            histogram.add(pairs.atDistance(d));
        }
        CalibrationReport.RandomPairsSummary random = new CalibrationReport.RandomPairsSummary(pairs.pairs(),
            round(pairs.meanDistance()), round(pairs.sdDistance()), pairs.resolution(), MAX_K, pairs.relatedWithin(MAX_K), histogram);

        List<CalibrationReport.Edits> editRows = new ArrayList<>();
        for (int r = 0; r < edits.size(); r++) {
            EditRecall e = edits.get(r);
            CalibrationReport.EditSimilarities similarity = null;
            if (verified != null) {
                EditSimilarity es = verified.edits().get(r);
                similarity = new CalibrationReport.EditSimilarities(round(es.similarityQuantile(0.5)), round(es.similarityQuantile(0.05)),
                    es.withoutSketch());
            }
            editRows.add(new CalibrationReport.Edits(rateName(e.rate()), e.copies(), round(e.meanEdits()),
                e.medianDistance() < 0 ? null : e.medianDistance(), e.withoutFingerprint(), similarity));
        }

        List<CalibrationReport.ByK> byK = new ArrayList<>();
        for (int k = 0; k <= MAX_K; k++) {
            byK.add(new CalibrationReport.ByK(k, pairs.within(k), pairs.relatedWithin(k), pairs.observedRate(k),
                orNull(pairs.estimatedRate(k)), pairs.falseMatchRate(k), from(k), recallByRate(k)));
        }

        int k = recommendedK();
        CalibrationReport.Recommendation recommendation = new CalibrationReport.Recommendation(target, k < 0 ? null
            : new CalibrationReport.Radius(k, pairs.falseMatchRate(k), from(k), recallByRate(k)));
        return new CalibrationReport.Statistics(sample, random, editRows, byK, recommendation, similarity(),
            warnings(k, moreWarnings));
    }

    /** The verified rule's rows and recommendation; null without a sketch. */
    private CalibrationReport.Similarity similarity() {
        if (verified == null) {
            return null;
        }
        VerifiedPairs v = verified.pairs();
        List<CalibrationReport.BySimilarity> rows = new ArrayList<>();
        for (double s : VerifiedPairs.GRID) {
            rows.add(new CalibrationReport.BySimilarity(s, Verification.candidateRule(s), VerifiedPairs.radius(s), v.matched(s),
                v.relatedMatched(s), v.observedRate(s), orNull(v.estimatedRate(s)), v.falseMatchRate(s), v.falseMatchRateFrom(s),
                recallAt(s)));
        }
        CalibrationReport.Threshold threshold = null;
        if (!tooFewPairs()) {
            double s = recommendedMinSimilarity();
            threshold = new CalibrationReport.Threshold(s, Double.isNaN(v.lowestWithin(target)) ? "default" : "lowest_within_target",
                Verification.candidateRule(s), VerifiedPairs.radius(s), v.falseMatchRate(s), v.falseMatchRateFrom(s), recallAt(s));
        }
        return new CalibrationReport.Similarity(rows, new CalibrationReport.SimilarityRecommendation(target, threshold));
    }

    private static Double orNull(double v) {
        return Double.isNaN(v) ? null : v;
    }

    /** Where {@link RandomPairs#falseMatchRate} comes from at k: the sample's pairs, or the normal approximation. */
    private String from(int k) {
        double estimated = pairs.estimatedRate(k);
        return Double.isNaN(estimated) || pairs.observedRate(k) >= estimated ? "observed" : "estimate";
    }

    private List<String> warnings(int k, List<String> moreWarnings) {
        List<String> w = warnings(k);
        w.addAll(moreWarnings);
        return w;
    }

    private List<String> warnings(int k) {
        List<String> w = new ArrayList<>();
        if (pairs.pairs() == 0) {
            w.add("fewer than 2 sampled documents have a fingerprint: no pair to compare");
        }
        if (tooFewPairs()) {
            w.add(String.format(Locale.ROOT, "too few documents: %d sampled documents have a fingerprint, %d pairs, which can show "
                + "a false-match rate of %s at best (the target is %s), and the distance distribution cannot be approximated "
                + "(that needs pairs at more than one distance); no radius or threshold is recommended: sample more documents "
                + "([sample_size]) or index more", counts.sampled() - counts.withoutFingerprint(), pairs.pairs(),
                num(pairs.resolution()), num(target)));
        }
        if (k < 0 && pairs.pairs() > 0 && !tooFewPairs()) {
            // the rate that decided: the larger of the observed and the estimated one, as the recommendation uses it
            String source = "observed".equals(from(0)) ? "observed in the sample"
                : "estimated by the normal approximation of the distance distribution; the sample shows " + num(pairs.observedRate(0));
            w.add(String.format(Locale.ROOT, "even identical fingerprints (k = 0) are shared by %s of the random pairs whose "
                + "texts are not near-duplicates (%s), above the target %s; raise [max_false_match_rate] or [sample_size]",
                num(pairs.falseMatchRate(0)), source, num(target)));
        }
        if (counts.notEdited() > 0) {
            w.add(String.format(Locale.ROOT, "%d sampled texts were not edited: a request edits texts of at most %d words in all "
                + "(the documents in the sample's order while their words fit), so recall is measured on %d documents (%d words)",
                counts.notEdited(), MAX_EDITED_WORDS, counts.edited(), counts.editedWords()));
        }
        if (counts.notCompared() > 0) {
            w.add(String.format(Locale.ROOT, "%d sampled documents within %d bits of another one were not compared by their texts "
                + "(a request reads at most %d words for that): their pairs count as unrelated, so the false-match rates may be "
                + "too high, never too low; lower [sample_size] for long texts", counts.notCompared(), MAX_K,
                MAX_COMPARED_WORDS));
        }
        if (k >= 0 && "estimate".equals(from(k))) {
            w.add(String.format(Locale.ROOT, "no unrelated pair of the sample is within %d bits; its %d pairs can show rates down to %s "
                + "only, so the false-match rate at the recommended radius is an estimate (normal approximation of the distance "
                + "distribution, mean %.1f, sd %.2f): real tails are often heavier; raise [sample_size] to observe more pairs",
                k, pairs.pairs(), num(pairs.resolution()), pairs.meanDistance(), pairs.sdDistance()));
        }
        if (verified != null && Double.isNaN(verified.pairs().lowestWithin(target)) && verified.pairs().pairs() > 0) {
            w.add(String.format(Locale.ROOT, "no [min_similarity] from %s to %s keeps the false-match rate of the verified rule "
                + "within the target %s (at %s it is %s): the recommendation is the default %s; raise [max_false_match_rate] or "
                + "[sample_size]", VerifiedPairs.GRID.get(0), VerifiedPairs.GRID.get(VerifiedPairs.GRID.size() - 1), num(target),
                VerifiedPairs.GRID.get(VerifiedPairs.GRID.size() - 1),
                num(verified.pairs().falseMatchRate(VerifiedPairs.GRID.get(VerifiedPairs.GRID.size() - 1))),
                MinHashSketch.DEFAULT_MIN_SIMILARITY));
        }
        if (counts.withText() == 0 && counts.sampled() > 0) {
            w.add("no sampled document has text in [" + sourceField + "] in its _source: expected recall cannot be measured; "
                + "name the text with [source_field]");
        } else if (counts.edited() == 0 && counts.sampled() > 0) {
            w.add("no sampled text of [" + sourceField + "] gives a fingerprint: expected recall cannot be measured");
        }
        if (counts.storedMismatch() > 0) {
            w.add(String.format(Locale.ROOT, "%d of %d sampled documents have a stored fingerprint that differs from the fingerprint of "
                + "[%s] alone (e.g. a copy_to target of several fields, or a document updated without its text): recall is measured "
                + "between the text of [%s] and its edited copies", counts.storedMismatch(), counts.withText(), sourceField,
                sourceField));
        }
        if (sizes.features() < SHORT_TEXT_FEATURES) {
            w.add(String.format(Locale.ROOT, "short texts: the median text has %s distinct features (fewer than %d): one changed "
                + "word moves its fingerprint by several bits, so near-duplicates are found only at radii where unrelated texts "
                + "match too (compare recall and false-match rate above). For short texts such as titles or subject lines, exact "
                + "matching on a normalised keyword (lowercased, whitespace and punctuation folded; a [term] query) or a "
                + "set similarity over word shingles (e.g. MinHash, outside this plugin) is more reliable",
                num(sizes.features()), SHORT_TEXT_FEATURES));
        }
        return w;
    }

    private static String num(double v) {
        return String.format(Locale.ROOT, "%.3g", v);
    }

    /** Four decimals are plenty for shares and means; NaN (nothing measured) becomes null. */
    static Double round(double v) {
        if (Double.isNaN(v)) {
            return null;
        }
        return Math.round(v * 10_000) / 10_000.0;
    }
}
