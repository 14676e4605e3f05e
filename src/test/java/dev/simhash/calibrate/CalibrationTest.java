package dev.simhash.calibrate;

import dev.simhash.core.MinHashSketch;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CalibrationTest {

    private static final Calibration.Counts COUNTS = new Calibration.Counts(10, 9, 5, 1, 4, 0, 0, 4);

    private static List<EditRecall> recalls() {
        List<EditRecall> out = new ArrayList<>();
        for (double rate : Calibration.EDIT_RATES) {
            out.add(new EditRecall(rate));
        }
        // 1%: distances 0, 0, 1, 3; 2%: 1, 2, 2, 4; 5%: 2, 4, 6, none; 10%: 5, 8, none, none
        int[][] d = { { 0, 0, 1, 3 }, { 1, 2, 2, 4 }, { 2, 4, 6, -1 }, { 5, 8, -1, -1 } };
        for (int r = 0; r < d.length; r++) {
            for (int x : d[r]) {
                out.get(r).add(x, 1);
            }
        }
        return out;
    }

    @Test
    void medians() {
        assertEquals(2, Calibration.median(List.of(3, 1, 2)), 0);
        assertEquals(2.5, Calibration.median(List.of(4, 1, 3, 2)), 0);
        assertTrue(Double.isNaN(Calibration.median(List.of())));
    }

    @Test
    void rateNames() {
        assertEquals("1%", Calibration.rateName(0.01));
        assertEquals("10%", Calibration.rateName(0.10));
        assertEquals("2.5%", Calibration.rateName(0.025));
    }

    /** The recall per edit rate as rate name to value, in order. */
    private static Map<String, Double> recall(List<CalibrationReport.Recall> recall) {
        Map<String, Double> m = new LinkedHashMap<>();
        recall.forEach(r -> m.put(r.rate(), r.value()));
        return m;
    }

    @Test
    void reportOfAHandCheckedExample() {
        // the four fingerprints of RandomPairsTest: false-match rate 0.0592 at k = 0, 1/3 at k = 1, 2/3 at k = 2
        Calibration c = new Calibration(0.4, RandomPairs.of(new long[] { 0x0L, 0x1L, 0x3L, 0xfL }), recalls(), COUNTS,
            new Calibration.TextSizes(120, 30, 25), "body");
        assertEquals(1, c.recommendedK());
        CalibrationReport.Statistics m = c.statistics();
        CalibrationReport.Recommendation rec = m.recommendation();
        assertEquals(1, rec.radius().maxDistance());
        assertEquals(0.4, rec.maxFalseMatchRate());
        assertEquals("observed", rec.radius().falseMatchRateFrom());
        Map<String, Double> recall = recall(rec.radius().recall());
        assertEquals(List.of("1%", "2%", "5%", "10%"), List.copyOf(recall.keySet()));
        assertEquals(0.75, recall.get("1%"));
        assertEquals(0.25, recall.get("2%"));
        assertEquals(0.0, recall.get("5%"));
        assertEquals(0.0, recall.get("10%"));

        List<CalibrationReport.ByK> byK = m.byK();
        assertEquals(Calibration.MAX_K + 1, byK.size());
        CalibrationReport.ByK k4 = byK.get(4);
        assertEquals(4, k4.k());
        assertEquals(6L, k4.randomPairsWithin());
        assertEquals(1.0, k4.observedFalseMatchRate());
        assertEquals(Map.of("1%", 1.0, "2%", 1.0, "5%", 0.5, "10%", 0.0), recall(k4.recall()));
        CalibrationReport.ByK k0 = byK.get(0);
        assertEquals("estimate", k0.falseMatchRateFrom());

        List<CalibrationReport.Edits> edits = m.edits();
        assertEquals("5%", edits.get(2).rate());
        assertEquals(4, edits.get(2).medianDistance());
        assertEquals(1, edits.get(2).copiesWithoutFingerprint());
        // 5, 8, none, none: the lower median (2nd) is 8
        assertEquals(8, edits.get(3).medianDistance());
        CalibrationReport.Sample sample = m.sample();
        assertEquals(5, sample.counts().sampled());
        assertEquals(25.0, sample.medianFeatures());
        assertEquals(List.of(), m.warnings());
    }

    @Test
    void warningsForShortTextsEstimatesAndDuplicates() {
        Calibration shortTexts = new Calibration(0.1, RandomPairs.of(new long[] { 0x0L, 0x1L, 0x3L, 0xfL }), recalls(), COUNTS,
            new Calibration.TextSizes(20, 4, 7), "title");
        List<String> w = shortTexts.statistics().warnings();
        assertEquals(0, shortTexts.recommendedK());
        assertTrue(w.stream().anyMatch(s -> s.startsWith("short texts: the median text has 7")), w.toString());
        assertTrue(w.stream().anyMatch(s -> s.contains("is an estimate (normal approximation")), w.toString());

        Calibration dups = new Calibration(0.1, RandomPairs.of(new long[] { 5, 5, 5, 6 }), recalls(), COUNTS,
            new Calibration.TextSizes(200, 40, 60), "body");
        assertEquals(-1, dups.recommendedK());
        CalibrationReport.Statistics m = dups.statistics();
        assertNull(m.recommendation().radius());
        assertTrue(m.warnings().get(0).startsWith("even identical fingerprints (k = 0) are shared by 0.500 of the random pairs whose texts are not"));
    }

    @Test
    void theWarningAtKZeroCarriesTheRateThatDecided() {
        // {0, 1, 3, f}: no pair at distance 0, so the observed rate is 0, but the normal approximation of the distances
        // 1, 2, 4, 1, 3, 2 puts 0.0592 of the pairs at k = 0: above a target of 0.01, and that is the figure to show
        Calibration c = new Calibration(0.01, RandomPairs.of(new long[] { 0x0L, 0x1L, 0x3L, 0xfL }), recalls(), COUNTS,
            new Calibration.TextSizes(120, 30, 25), "body");
        assertEquals(-1, c.recommendedK());
        double[] d = { 1, 2, 4, 1, 3, 2 };
        double mean = 0;
        for (double x : d) {
            mean += x / d.length;
        }
        double var = 0;
        for (double x : d) {
            var += (x - mean) * (x - mean) / d.length;
        }
        double expected = normalBelow((0.5 - mean) / Math.sqrt(var));
        assertEquals(0.0592, expected, 1e-4, "the hand-checked figure");
        String warning = c.statistics().warnings().get(0);
        assertTrue(warning.startsWith("even identical fingerprints (k = 0) are shared by "
            + String.format(java.util.Locale.ROOT, "%.3g", expected) + " of the random pairs"), warning);
        assertTrue(warning.contains("estimated by the normal approximation"), warning);
        assertTrue(warning.contains("above the target 0.0100"), warning);
    }

    /** Similarities of the copies per rate (1%, 2%, 5%, 10%), over the distances of {@link #recalls()}. */
    private static List<EditSimilarity> similarities() {
        int[][] d = { { 0, 0, 1, 3 }, { 1, 2, 2, 4 }, { 2, 4, 6, -1 }, { 5, 8, -1, -1 } };
        double[][] s = { { 1.0, 1.0, 0.9, 0.8 }, { 0.9, 0.85, 0.8, 0.7 }, { 0.8, 0.6, 0.5, 0.3 }, { 0.6, 0.5, Double.NaN, 0.2 } };
        List<EditSimilarity> out = new ArrayList<>();
        for (int r = 0; r < d.length; r++) {
            EditSimilarity e = new EditSimilarity(Calibration.EDIT_RATES.get(r));
            for (int i = 0; i < d[r].length; i++) {
                // the copies similar enough for the bands' thresholds share a band with their original, as near copies do
                e.add(d[r][i], Double.isNaN(s[r][i]) ? -1 : MinHashSketch.V1.equalBinsFor(s[r][i]), s[r][i] >= 0.8);
            }
            out.add(e);
        }
        return out;
    }

    @Test
    void withoutASketchTheReportHasNoSimilaritySection() {
        Calibration c = new Calibration(0.4, RandomPairs.of(new long[] { 0x0L, 0x1L, 0x3L, 0xfL }), recalls(), COUNTS,
            new Calibration.TextSizes(120, 30, 25), "body");
        CalibrationReport.Statistics m = c.statistics();
        assertTrue(Double.isNaN(c.recommendedMinSimilarity()));
        assertNull(m.similarity());
        assertNull(m.edits().get(0).similarity());
        // and so neither do its maps: the keys are absent, not null
        Map<String, Object> map = m.toMap();
        assertFalse(map.containsKey("by_similarity"));
        assertFalse(map.containsKey("similarity_recommendation"));
        assertFalse(m.edits().get(0).toMap().containsKey("median_similarity"));
    }

    @Test
    void theVerifiedRuleOfAHandCheckedExample() {
        // four documents with one fingerprint (every pair within every radius); sketches A = none set, B = 64 bits set,
        // C = bits 64..191 set, D = B: A-B 0.75, A-C 0.5, A-D 0.75, B-C 0.25, B-D 1.0, C-D 0.25 (1 - differing bits / 256)
        long[] fps = { 9L, 9L, 9L, 9L };
        byte[][] sketches = { VerifiedPairsTest.bits(0, 0), VerifiedPairsTest.bits(0, 64), VerifiedPairsTest.bits(64, 192),
            VerifiedPairsTest.bits(0, 64) };
        RandomPairs pairs = RandomPairs.of(fps);
        // B-D are near-duplicates by their texts
        VerifiedPairs v = new VerifiedPairs(fps, sketches, dev.simhash.core.MinHashSketch.V1, (i, j) -> i == 1 && j == 3, pairs);
        Calibration c = new Calibration(0.2, pairs, recalls(), COUNTS, new Calibration.TextSizes(120, 30, 25), "body",
            new Calibration.Verified(v, similarities()));
        CalibrationReport.Statistics m = c.statistics();
        List<CalibrationReport.BySimilarity> rows = m.similarity().rows();
        assertEquals(10, rows.size());
        // 0.5: A-B, A-C, A-D, B-D match; B-D is related: 3 false matches of 6 pairs
        CalibrationReport.BySimilarity half = rows.get(0);
        assertEquals(0.5, half.minSimilarity());
        assertEquals("radius", half.candidates());
        assertEquals(16, half.radius());
        assertEquals(4L, half.randomPairsAbove());
        assertEquals(1L, half.relatedPairsAbove());
        assertEquals(0.5, half.observedFalseMatchRate());
        // the estimate is larger here: the simhash rate (1: all pairs share the fingerprint) times the chance, a little over
        // one half, that a pair at the related boundary (0.5) passes the sketch at 0.5
        assertTrue(half.estimatedFalseMatchRate() > 0.5, half.toString());
        assertEquals(half.estimatedFalseMatchRate(), half.falseMatchRate());
        assertEquals("estimate", half.falseMatchRateFrom());
        // 0.55..0.75: A-B, A-D, B-D: 2 of 6 false; 0.8..0.95: B-D only, related
        CalibrationReport.BySimilarity r75 = rows.get(5);
        assertEquals(0.75, r75.minSimilarity());
        assertEquals(14, r75.radius());
        assertEquals(3L, r75.randomPairsAbove());
        assertEquals(1.0 / 3, r75.observedFalseMatchRate(), 1e-12);
        CalibrationReport.BySimilarity r80 = rows.get(6);
        assertEquals("bands", r80.candidates());
        assertEquals(1L, r80.randomPairsAbove());
        assertEquals(1L, r80.relatedPairsAbove());
        assertEquals(0.0, r80.observedFalseMatchRate());
        assertEquals("estimate", r80.falseMatchRateFrom());
        // recall at 0.8 (candidates by the bands): 1%: all four copies (distances <= 3, similarities >= 0.8); 2%: 3 (0.7 is below);
        // 5%: 1 (0.8 at 2 bits); 10%: none (0.6, 0.5, no fingerprint, no fingerprint)
        assertEquals(Map.of("1%", 1.0, "2%", 0.75, "5%", 0.25, "10%", 0.0), recall(r80.recall()));
        // recall at 0.5 (radius 16): 10%: 0.6 at 5 bits and 0.5 at 8 bits; the copies without a fingerprint are never found
        assertEquals(0.5, recall(rows.get(0).recall()).get("10%"));

        // target 0.2: 0.5 (0.5) and 0.55..0.75 (1/3) are above it, 0.8 observes none and its estimate is tiny
        assertEquals(0.8, c.recommendedMinSimilarity(), 0);
        CalibrationReport.SimilarityRecommendation rec = m.similarity().recommendation();
        assertEquals(0.2, rec.maxFalseMatchRate());
        assertEquals(0.8, rec.threshold().minSimilarity());
        assertEquals("lowest_within_target", rec.threshold().chosenBy());
        assertEquals(13, rec.threshold().radius());
        assertEquals(r80.recall(), rec.threshold().recall());

        // similarity quantiles per rate: 10% has 0.6, 0.5, none (0), 0.2: sorted 0, 0.2, 0.5, 0.6; lower median 0.2, p5 0,
        // as a sketch estimates it (308 of 512 bins equal: 0.203125, rounded)
        List<CalibrationReport.Edits> edits = m.edits();
        assertEquals(0.2031, edits.get(3).similarity().median());
        assertEquals(0.0, edits.get(3).similarity().p5());
        assertEquals(1, edits.get(3).similarity().copiesWithoutSketch());
        // 1%: 0.8, 0.9, 1, 1: lower median 0.9 (487 bins: 0.90234375, rounded)
        assertEquals(0.9023, edits.get(0).similarity().median());

        // a target 0.4 admits 0.55 (1/3 observed, its estimate, about 0.1, is below that)
        Calibration looser = new Calibration(0.4, pairs, recalls(), COUNTS, new Calibration.TextSizes(120, 30, 25), "body",
            new Calibration.Verified(v, similarities()));
        assertEquals(0.55, looser.recommendedMinSimilarity(), 0);
        List<String> w = looser.statistics().warnings();
        assertTrue(w.stream().noneMatch(x -> x.startsWith("no [min_similarity]")), w.toString());
    }

    /** Three documents identical in fingerprint and sketch, none related, at target 0.5: every threshold matches all pairs. */
    private static Calibration identicalTriple() {
        long[] fps = { 1L, 1L, 1L };
        byte[][] sketches = { VerifiedPairsTest.bits(0, 5), VerifiedPairsTest.bits(0, 5), VerifiedPairsTest.bits(0, 5) };
        RandomPairs pairs = RandomPairs.of(fps);
        VerifiedPairs v = new VerifiedPairs(fps, sketches, dev.simhash.core.MinHashSketch.V1, RandomPairs.Related.NONE, pairs);
        return new Calibration(0.5, pairs, recalls(), COUNTS, new Calibration.TextSizes(120, 30, 25), "body",
            new Calibration.Verified(v, similarities()));
    }

    @Test
    void warningsAboutTheTargetIndicesFollowTheSamplesOwn() {
        Calibration c = identicalTriple();
        List<String> own = c.statistics().warnings();
        assertFalse(own.isEmpty(), "this sample warns of its own");
        List<String> all = c.statistics(List.of("about the indices", "and their options")).warnings();
        List<String> expected = new ArrayList<>(own);
        expected.add("about the indices");
        expected.add("and their options");
        assertEquals(expected, all);
    }

    @Test
    void whenNoThresholdKeepsToTheTargetTheDefaultIsRecommended() {
        // all pairs identical in fingerprint and sketch, and none related: every threshold matches all of them
        Calibration c = identicalTriple();
        assertEquals(0.8, c.recommendedMinSimilarity(), 0);
        CalibrationReport.Statistics m = c.statistics();
        CalibrationReport.Threshold rec = m.similarity().recommendation().threshold();
        assertEquals("default", rec.chosenBy());
        assertEquals(1.0, rec.falseMatchRate());
        List<String> w = m.warnings();
        assertTrue(w.stream().anyMatch(s -> s.startsWith("no [min_similarity] from 0.5 to 0.95 keeps the false-match rate")), w.toString());
    }

    /** P(Z <= z) for a standard normal Z, by Simpson's rule from -12 (the test's own, not {@link Normal}). */
    private static double normalBelow(double z) {
        int n = 20_000;
        double a = -12;
        double h = (z - a) / n;
        double sum = 0;
        for (int i = 0; i <= n; i++) {
            double x = a + i * h;
            double f = Math.exp(-x * x / 2) / Math.sqrt(2 * Math.PI);
            sum += (i == 0 || i == n ? 1 : i % 2 == 1 ? 4 : 2) * f;
        }
        return sum * h / 3;
    }

    @Test
    void twoDocumentsOrFewerGiveNoRecommendationAndSaySo() {
        // one pair 40 bits apart: observed 0 at every k, and no distribution to approximate (a single distance)
        for (long[] fps : new long[][] { {}, { 0x0L }, { 0x0L, 0xFFFFFFFFFFL } }) {
            Calibration c = new Calibration(1e-6, RandomPairs.of(fps), recalls(), COUNTS, new Calibration.TextSizes(120, 30, 25), "body");
            assertTrue(c.tooFewPairs(), fps.length + " fingerprints");
            assertEquals(-1, c.recommendedK());
            CalibrationReport.Statistics m = c.statistics();
            assertNull(m.recommendation().radius(), m.toString());
            List<String> w = m.warnings();
            assertTrue(w.stream().anyMatch(s -> s.startsWith("too few documents: ")), w.toString());
            assertTrue(w.stream().noneMatch(s -> s.startsWith("even identical fingerprints")), w.toString());
        }
        // three documents at three distances: the approximation exists, and the recommendation is made from it
        Calibration three = new Calibration(1e-6, RandomPairs.of(new long[] { 0x0L, 0xFFL, 0xFFFFFFFFFFL }), recalls(), COUNTS,
            new Calibration.TextSizes(120, 30, 25), "body");
        assertTrue(!three.tooFewPairs());
    }

    @Test
    void textsLeftOutByTheWordBudgetsAreCountedAndExplained() {
        Calibration.Counts counts = new Calibration.Counts(50, 50, 50, 0, 50, 0, 0, 3, 1_900_000, 47, 12);
        Calibration c = new Calibration(1e-6, RandomPairs.of(new long[] { 0x0L, 0xFFL, 0xFFFFFFFFFFL }), recalls(), counts,
            new Calibration.TextSizes(120, 30, 25), "body");
        CalibrationReport.Statistics m = c.statistics();
        Calibration.Counts sample = m.sample().counts();
        assertEquals(1_900_000L, sample.editedWords());
        assertEquals(47, sample.notEdited());
        assertEquals(12, sample.notCompared());
        List<String> w = m.warnings();
        assertTrue(w.stream().anyMatch(s -> s.startsWith("47 sampled texts were not edited")), w.toString());
        assertTrue(w.stream().anyMatch(s -> s.startsWith("12 sampled documents within 16 bits of another one were not compared")),
            w.toString());
    }
}
