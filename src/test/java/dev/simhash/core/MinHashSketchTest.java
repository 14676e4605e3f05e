package dev.simhash.core;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Pins minhash-v1 (golden vectors from the naive reference) and checks what its estimate promises. */
class MinHashSketchTest {

    /** A fixed seed: these checks are statistical, and a seed that passes once passes always. */
    private static final long SEED = 0x5EEDF00DL;

    private static final String[] WORDS = { "the", "river", "a", "news", "report", "said", "on", "Monday", "新闻", "报道", "數據",
        "東京", "Ωmega", "naïve", "ﬁle", "e\u0301", "👩‍💻", "2026", "x".repeat(300), "καλη", "мир", "한국어", "テスト", "\uD800" };

    @TestFactory
    Stream<DynamicTest> everyGoldenVectorIsReproduced() {
        return GoldenVectorsMinHash.load().stream().map(c -> DynamicTest.dynamicTest(c.id(), () -> {
            byte[] s = MinHashSketch.V1.sketch(c.texts());
            assertEquals(c.expected(), s == null ? null : HexFormat.of().formatHex(s), c.id());
        }));
    }

    @Test
    void theGoldenFileCoversTheKinds() {
        List<GoldenVectorsMinHash.Case> cases = GoldenVectorsMinHash.load();
        assertTrue(cases.size() >= 40, "cases: " + cases.size());
        Set<String> ids = cases.stream().map(GoldenVectorsMinHash.Case::id).collect(Collectors.toSet());
        for (String prefix : List.of("en-", "zh-", "mixed-", "short-", "repeated-", "array-", "emoji", "empty")) {
            assertTrue(ids.stream().anyMatch(id -> id.startsWith(prefix)), "no case of kind " + prefix);
        }
        assertTrue(cases.stream().anyMatch(c -> c.expected() == null), "no case without a sketch");
    }

    @Test
    void theReleasedSketchIs64Bytes() {
        assertEquals(MinHashSketch.BYTES, MinHashSketch.V1.bytes());
        assertEquals(MinHashSketch.BYTES, MinHashSketch.V1.sketch("one two three").length);
    }

    @Test
    void randomTextsGiveTheReferenceSketch() {
        Random r = new Random(SEED);
        for (int i = 0; i < 300; i++) {
            List<String> texts = new ArrayList<>();
            int values = 1 + r.nextInt(3);
            for (int v = 0; v < values; v++) {
                texts.add(randomText(r, r.nextInt(i % 3 == 0 ? 8 : i % 3 == 1 ? 60 : 200)));
            }
            byte[] s = MinHashSketch.V1.sketch(texts);
            assertEquals(ReferenceMinHashV1.sketchHex(texts), s == null ? null : HexFormat.of().formatHex(s), "texts " + texts);
        }
    }

    /**
     * The field computes the sketch from the tokens the simhash-v2 fingerprinter reads (one reading of the text): on every
     * path of the fingerprinter (ASCII bytes, full-width folded to ASCII, the fast scanner, StandardTokenizer for other
     * scripts, string mode after an unpaired surrogate) and for several texts, the same sketch as from the texts.
     */
    @Test
    void theTokensOfTheV2FingerprinterGiveTheSketchOfTheText() {
        Random r = new Random(SEED + 4);
        TextFingerprinter v2 = TextFingerprinter.v2(1);
        String[] kinds = { "plain ascii words and 42 numbers", "ＦＵＬＬ－ＷＩＤＴＨ text", "新闻报道 mixed 東京 text", "ελληνικά и русский",
            "ᚠᛇᚻ runes ᛒᛦ", "odd \uD800 surrogate", "emoji 👩‍💻 here" };
        for (int i = 0; i < 300; i++) {
            List<String> texts = new ArrayList<>();
            int values = 1 + r.nextInt(3);
            for (int v = 0; v < values; v++) {
                StringBuilder sb = new StringBuilder(kinds[r.nextInt(kinds.length)]).append(' ');
                sb.append(randomText(r, r.nextInt(i % 2 == 0 ? 20 : 120)));
                texts.add(sb.toString());
            }
            MinHashSketch.Accumulator a = MinHashSketch.V1.accumulator();
            v2.fingerprint(texts.get(0), a);
            if (texts.size() > 1) {
                FeatureBag bag = v2.newBag();
                v2.addText(texts.get(0), bag);
                bag.tokenHashes(a);
                for (String t : texts.subList(1, texts.size())) {
                    v2.addText(t, bag);
                }
            }
            assertArrayEquals(MinHashSketch.V1.sketch(texts), a.sketch(), "texts " + texts);
        }
    }

    @Test
    void textsAddedInPartsGiveTheSketchOfTheWholeSequence() {
        Random r = new Random(SEED + 1);
        for (int i = 0; i < 200; i++) {
            List<String> tokens = new ArrayList<>();
            int n = r.nextInt(i % 2 == 0 ? 40 : 150);
            for (int t = 0; t < n; t++) {
                tokens.add("t" + r.nextInt(30));
            }
            MinHashSketch.Accumulator a = MinHashSketch.V1.accumulator();
            int from = 0;
            while (from < n) {
                int to = from + 1 + r.nextInt(n - from);
                a.add(tokens.subList(from, to));
                from = to;
            }
            byte[] whole = MinHashSketch.V1.sketchOfTokens(tokens);
            assertArrayEquals(whole, a.sketch(), "tokens " + tokens);
            // reading the sketch changes nothing: more tokens after it give the sketch of the longer sequence
            a.add(List.of("more", "tokens"));
            List<String> longer = new ArrayList<>(tokens);
            longer.addAll(List.of("more", "tokens"));
            assertArrayEquals(MinHashSketch.V1.sketchOfTokens(longer), a.sketch());
        }
        assertNull(MinHashSketch.V1.accumulator().sketch());
        assertNull(MinHashSketch.V1.sketch("  ,.;  "));
    }

    /**
     * Long sequences, whose shingles the accumulator folds chunk by chunk into bins of its own, give the naive reference's
     * sketch: lengths on both sides of one, two and three chunks, values of random sizes, and the sketch read part-way.
     */
    @Test
    void sequencesLongerThanAChunkGiveTheReferenceSketch() {
        Random r = new Random(SEED + 2);
        HexFormat hex = HexFormat.of();
        int chunk = MinHashSketch.CHUNK;
        for (int i = 0; i < 60; i++) {
            int around = chunk * (1 + i % 3);
            int n = Math.max(1, around - 4 + r.nextInt(9));
            List<String> values = new ArrayList<>();
            MinHashSketch.Accumulator a = MinHashSketch.V1.accumulator();
            int from = 0;
            while (from < n) {
                int to = Math.min(n, from + 1 + r.nextInt(i % 2 == 0 ? 40 : chunk + 10));
                StringBuilder value = new StringBuilder();
                for (int t = from; t < to; t++) {
                    value.append(" w").append(r.nextInt(400));
                }
                values.add(value.toString());
                a.addText(value.toString());
                from = to;
                if (r.nextInt(4) == 0) {
                    assertEquals(ReferenceMinHashV1.sketchHex(values), hex.formatHex(a.sketch()), "after " + to + " of " + n + " tokens");
                }
            }
            assertEquals(ReferenceMinHashV1.sketchHex(values), hex.formatHex(a.sketch()), n + " tokens in " + values.size() + " values");
        }
    }

    /**
     * The estimate of sets with a known Jaccard similarity (shingle hash sets built with a chosen overlap): unbiased
     * within 0.01 on average, and 95% of the estimates within 2.5 standard errors of b-bit minwise hashing (Li &amp; König
     * 2010: with k bins of b bits, P = C + (1 - C) J, C = 2^-b, the error of the estimate is sqrt(P (1 - P) / k) / (1 - C);
     * 0.03-0.045 for k = 512, b = 1), on sets large enough that few bins are densified (small sets: see below).
     */
    @Test
    void theEstimateIsCloseToTheJaccardSimilarity() {
        Random r = new Random(SEED + 2);
        for (double j : new double[] { 0.0, 0.3, 0.5, 0.7, 0.8, 0.9, 1.0 }) {
            int trials = 300;
            double sumError = 0;
            int within = 0;
            for (int t = 0; t < trials; t++) {
                long[][] ab = setsWithJaccard(r, 1000 + r.nextInt(2000), j);
                double truth = jaccard(ab);
                double est = MinHashSketch.V1.similarity(MinHashSketch.V1.sketchOfShingles(ab[0]), MinHashSketch.V1.sketchOfShingles(ab[1]));
                sumError += est - truth;
                if (Math.abs(est - truth) <= 2.5 * standardError(truth)) {
                    within++;
                }
            }
            assertTrue(Math.abs(sumError / trials) <= 0.01 || j == 0.0, "bias at J=" + j + ": " + sumError / trials);
            assertTrue(within >= 0.95 * trials, "J=" + j + ": only " + within + " of " + trials + " within 2.5 standard errors");
        }
    }

    private static double standardError(double j) {
        int k = MinHashSketch.V1.bins();
        double c = Math.pow(2, -MinHashSketch.V1.bitsPerBin());
        double p = c + (1 - c) * j;
        return Math.sqrt(p * (1 - p) / k) / (1 - c);
    }

    /** Small sets (most bins filled by densification) are estimated without bias too, if less precisely. */
    @Test
    void smallSetsAreEstimatedWithoutBias() {
        Random r = new Random(SEED + 3);
        for (double j : new double[] { 0.5, 0.8 }) {
            double sumError = 0;
            int trials = 400;
            for (int t = 0; t < trials; t++) {
                long[][] ab = setsWithJaccard(r, 20 + r.nextInt(100), j);
                sumError += MinHashSketch.V1.similarity(MinHashSketch.V1.sketchOfShingles(ab[0]), MinHashSketch.V1.sketchOfShingles(ab[1]))
                    - jaccard(ab);
            }
            assertTrue(Math.abs(sumError / trials) <= 0.02, "bias at J=" + j + ": " + sumError / trials);
        }
    }

    @Test
    void identicalTextsAreSimilarOneAndTheIntegerCutMatchesTheEstimate() {
        byte[] a = MinHashSketch.V1.sketch("a text that is the same in both documents, word for word");
        assertEquals(1.0, MinHashSketch.V1.similarity(a, a.clone()));
        for (double s : new double[] { 0.01, 0.5, 0.8, 0.95, 1.0 }) {
            int e = MinHashSketch.V1.equalBinsFor(s);
            byte[] b = a.clone();
            // flip bins until exactly e bins are equal, then one more
            int bins = MinHashSketch.V1.bins();
            for (int i = 0; i < bins - e; i++) {
                b[i / 8] ^= (byte) (1 << (i % 8));
            }
            assertTrue(MinHashSketch.V1.similarity(a, b) >= s, "at " + e + " equal bins");
            if (e > 0) {
                b[(bins - e) / 8] ^= (byte) (1 << ((bins - e) % 8));
                assertTrue(MinHashSketch.V1.similarity(a, b) < s, "at " + (e - 1) + " equal bins");
            }
        }
    }

    @Test
    void otherParametersAreCheckedAndSized() {
        assertEquals(64, new MinHashSketch(3, 256, 2).bytes());
        assertEquals(64, new MinHashSketch(3, 128, 4).bytes());
        assertThrows(IllegalArgumentException.class, () -> new MinHashSketch(0, 512, 1));
        assertThrows(IllegalArgumentException.class, () -> new MinHashSketch(5, 500, 1));
        assertThrows(IllegalArgumentException.class, () -> new MinHashSketch(5, 512, 3));
        MinHashSketch four = new MinHashSketch(2, 128, 4);
        byte[] x = four.sketch("alpha beta gamma delta epsilon zeta eta theta");
        assertEquals(1.0, four.similarity(x, x.clone()));
    }

    /** Two sets of {@code size} distinct hashes sharing {@code c} of them: J = c / (2 size - c), so c = 2 J size / (1 + J). */
    private static long[][] setsWithJaccard(Random r, int size, double j) {
        int common = (int) Math.round(2 * j * size / (1 + j));
        long[] a = new long[size];
        long[] b = new long[size];
        Set<Long> used = new HashSet<>();
        for (int i = 0; i < size; i++) {
            a[i] = fresh(r, used);
            b[i] = i < common ? a[i] : fresh(r, used);
        }
        return new long[][] { a, b };
    }

    /** The exact Jaccard similarity of two sets of distinct hashes. */
    private static double jaccard(long[][] ab) {
        Set<Long> a = new HashSet<>();
        for (long x : ab[0]) {
            a.add(x);
        }
        int common = 0;
        for (long x : ab[1]) {
            if (a.contains(x)) {
                common++;
            }
        }
        return common / (double) (ab[0].length + ab[1].length - common);
    }

    private static long fresh(Random r, Set<Long> used) {
        long v;
        do {
            v = r.nextLong();
        } while (!used.add(v));
        return v;
    }

    private static String randomText(Random r, int words) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < words; i++) {
            sb.append(WORDS[r.nextInt(WORDS.length)]).append(r.nextInt(5) == 0 ? ", " : " ");
            if (r.nextInt(7) == 0) {
                sb.append("w").append(r.nextInt(100)).append(' ');
            }
        }
        return sb.toString();
    }
}
