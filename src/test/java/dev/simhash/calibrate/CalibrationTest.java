package dev.simhash.calibrate;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
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

    @Test
    @SuppressWarnings("unchecked")
    void reportOfAHandCheckedExample() {
        // the four fingerprints of RandomPairsTest: false-match rate 0.0592 at k = 0, 1/3 at k = 1, 2/3 at k = 2
        Calibration c = new Calibration(0.4, RandomPairs.of(new long[] { 0x0L, 0x1L, 0x3L, 0xfL }), recalls(), COUNTS,
            new Calibration.TextSizes(120, 30, 25), "body");
        assertEquals(1, c.recommendedK());
        Map<String, Object> m = c.toMap();
        Map<String, Object> rec = (Map<String, Object>) m.get("recommendation");
        assertEquals(1, rec.get("max_distance"));
        assertEquals(0.4, rec.get("max_false_match_rate"));
        assertEquals("observed", rec.get("false_match_rate_from"));
        Map<String, Object> recall = (Map<String, Object>) rec.get("recall");
        assertEquals(List.of("1%", "2%", "5%", "10%"), List.copyOf(recall.keySet()));
        assertEquals(0.75, recall.get("1%"));
        assertEquals(0.25, recall.get("2%"));
        assertEquals(0.0, recall.get("5%"));
        assertEquals(0.0, recall.get("10%"));

        List<Map<String, Object>> byK = (List<Map<String, Object>>) m.get("by_k");
        assertEquals(Calibration.MAX_K + 1, byK.size());
        Map<String, Object> k4 = byK.get(4);
        assertEquals(4, k4.get("k"));
        assertEquals(6L, k4.get("random_pairs_within"));
        assertEquals(1.0, k4.get("observed_false_match_rate"));
        assertEquals(Map.of("1%", 1.0, "2%", 1.0, "5%", 0.5, "10%", 0.0), k4.get("recall"));
        Map<String, Object> k0 = byK.get(0);
        assertEquals("estimate", k0.get("false_match_rate_from"));

        List<Map<String, Object>> edits = (List<Map<String, Object>>) m.get("edits");
        assertEquals("5%", edits.get(2).get("rate"));
        assertEquals(4, edits.get(2).get("median_distance"));
        assertEquals(1, edits.get(2).get("copies_without_fingerprint"));
        // 5, 8, none, none: the lower median (2nd) is 8
        assertEquals(8, edits.get(3).get("median_distance"));
        Map<String, Object> sample = (Map<String, Object>) m.get("sample");
        assertEquals(5, sample.get("sampled"));
        assertEquals(25.0, sample.get("median_features"));
        assertEquals(List.of(), m.get("warnings"));
    }

    @Test
    @SuppressWarnings("unchecked")
    void warningsForShortTextsEstimatesAndDuplicates() {
        Calibration shortTexts = new Calibration(0.1, RandomPairs.of(new long[] { 0x0L, 0x1L, 0x3L, 0xfL }), recalls(), COUNTS,
            new Calibration.TextSizes(20, 4, 7), "title");
        List<String> w = (List<String>) shortTexts.toMap().get("warnings");
        assertEquals(0, shortTexts.recommendedK());
        assertTrue(w.stream().anyMatch(s -> s.startsWith("short texts: the median text has 7")), w.toString());
        assertTrue(w.stream().anyMatch(s -> s.contains("is an estimate (normal approximation")), w.toString());

        Calibration dups = new Calibration(0.1, RandomPairs.of(new long[] { 5, 5, 5, 6 }), recalls(), COUNTS,
            new Calibration.TextSizes(200, 40, 60), "body");
        assertEquals(-1, dups.recommendedK());
        Map<String, Object> m = dups.toMap();
        assertNull(((Map<String, Object>) m.get("recommendation")).get("max_distance"));
        assertTrue(((List<String>) m.get("warnings")).get(0).startsWith("even identical fingerprints (k = 0) are shared by 0.500 of the random pairs whose texts are not"));
    }

    @Test
    @SuppressWarnings("unchecked")
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
        String warning = ((List<String>) c.toMap().get("warnings")).get(0);
        assertTrue(warning.startsWith("even identical fingerprints (k = 0) are shared by "
            + String.format(java.util.Locale.ROOT, "%.3g", expected) + " of the random pairs"), warning);
        assertTrue(warning.contains("estimated by the normal approximation"), warning);
        assertTrue(warning.contains("above the target 0.0100"), warning);
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
}
