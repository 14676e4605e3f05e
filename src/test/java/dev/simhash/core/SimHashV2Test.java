package dev.simhash.core;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.OptionalLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SimHashV2Test {

    private static final String[] PIECES = {
        "the", "bank", "rate", "unchanged", "Elasticsearch", "LUCENE", "9.5", "2026", "don't", "e-mail", "国", "國", "家", "统计局",
        "統計局", "爲", "為", "为", "裡", "裏", "发布", "發佈", "ＡＢＣ", "１２３", "，", "。", "!", " ", "  ", "\n", "\t", "東京の", "서울",
        "Привет", "Café", "Cafe\u0301", "ﬁ", "👍", "𠀀", "-", "'", "\u3000" };

    static String randomText(Random r) {
        StringBuilder sb = new StringBuilder();
        int n = r.nextInt(40);
        for (int i = 0; i < n; i++) {
            sb.append(PIECES[r.nextInt(PIECES.length)]);
            if (r.nextInt(3) == 0) {
                sb.append(' ');
            }
        }
        return sb.toString();
    }

    @Test
    void productionEqualsNaiveReferenceOnRandomText() {
        Random r = new Random(11);
        for (int i = 0; i < 3000; i++) {
            String t = randomText(r);
            int minFeatures = 1 + r.nextInt(4);
            assertEquals(ReferenceSimHashV2.fingerprint(List.of(t), minFeatures, null), SimHashV2.fingerprint(t, minFeatures), t);
            List<String> parts = List.of(randomText(r), randomText(r));
            assertEquals(ReferenceSimHashV2.fingerprint(parts, 1, null), SimHashV2.fingerprint(parts, 1), parts.toString());
        }
    }

    /** Pieces of text FastWordTokenizer reads itself (no fallback to StandardTokenizer), with the joins it must get right. */
    private static final String[] FAST_PIECES = {
        "the", "bank", "rate", "unchanged", "Elasticsearch", "LUCENE", "9.5", "2026", "don't", "don’t", "e-mail", "国", "國", "家",
        "统计局", "統計局", "爲", "為", "裡", "发布", "發佈", "ＡＢＣ", "１２３", "，", "。", "、", "《", "》", "“", "”", "!", " ", "\n", "\t",
        "Café", "ﬁ", "-", "'", ".", ",", ":", ";", "_", "1,000.5", "a.b", "3:30", "a:b", "x_y", "e.g.", "\u3000", "©", "(", ")", "…" };

    /** The fast tokenizer's texts fingerprint exactly as the naive reference (which always runs StandardTokenizer). */
    @Test
    void fastTokenizerTextsEqualTheReference() {
        Random r = new Random(13);
        CharFolding.Buffer folded = new CharFolding.Buffer();
        int fast = 0;
        for (int i = 0; i < 3000; i++) {
            StringBuilder sb = new StringBuilder();
            for (int n = r.nextInt(60); n > 0; n--) {
                sb.append(FAST_PIECES[r.nextInt(FAST_PIECES.length)]);
                if (r.nextInt(3) == 0) {
                    sb.append(' ');
                }
            }
            String t = sb.toString();
            CharFolding.fold(t, folded);
            if (FastWordTokenizer.tokenize(folded.chars(), folded.length(), (b, s, l) -> { })) {
                fast++;
            }
            assertEquals(ReferenceSimHashV2.fingerprint(List.of(t), 1, null), SimHashV2.fingerprint(t, 1), t);
        }
        assertEquals(3000, fast, "every text of these pieces takes the fast tokenizer");
    }

    /**
     * ASCII texts are read by the bag from their bytes (pairs in place when one space apart, else assembled), other texts
     * token by token: arrays mixing both, with every kind of separator, fingerprint as the reference, whole and value by value.
     */
    @Test
    void asciiAndOtherTextsInOneDocumentEqualTheReference() {
        String[] ascii = { "the", "bank", "Rate", "2026", "9.5", "don't", "e-mail", "a.b", " ", "  ", "\n", ", ", "-", "x_y", "...", "(", ")", "'" };
        String[] other = { "Café", "国", "家", "，", "ＡＢＣ", "don’t", "…", "ﬁ", "\u3000" };
        TextFingerprinter fp = TextFingerprinter.v2(1);
        Random r = new Random(14);
        int asciiTexts = 0;
        for (int i = 0; i < 3000; i++) {
            List<String> parts = new ArrayList<>();
            for (int v = 1 + r.nextInt(4); v > 0; v--) {
                boolean plain = r.nextInt(3) != 0;
                StringBuilder sb = new StringBuilder();
                for (int n = r.nextInt(30); n > 0; n--) {
                    sb.append(plain || r.nextInt(4) != 0 ? ascii[r.nextInt(ascii.length)] : other[r.nextInt(other.length)]);
                    if (r.nextInt(3) != 0) {
                        sb.append(' ');
                    }
                }
                // long ASCII texts too (beyond the bag's initial buffers)
                if (r.nextInt(20) == 0) {
                    sb.append("word ".repeat(1000 + r.nextInt(1000)));
                }
                String t = sb.toString();
                if (t.chars().allMatch(c -> c < 0x80)) {
                    asciiTexts++;
                }
                parts.add(t);
            }
            OptionalLong expected = ReferenceSimHashV2.fingerprint(parts, 1, null);
            assertEquals(expected, fp.fingerprint(parts), parts.toString());
            FeatureBag bag = fp.newBag();
            parts.forEach(p -> fp.addText(p, bag));
            assertEquals(expected, bag.fingerprint(), parts.toString());
            assertEquals(ReferenceSimHashV2.fingerprint(parts.subList(0, 1), 1, null), fp.fingerprint(parts.get(0)), parts.get(0));
        }
        assertTrue(asciiTexts > 3000, "ASCII texts: " + asciiTexts);
    }

    @Test
    void specFingerprinterAndValueByValueBagsEqualTheReference() {
        // the path the field type (value by value, per document) and the processor (whole texts) take
        TextFingerprinter fp = Fingerprinters.of(FingerprintSpec.parse(Map.of("version", "v2", "min_features", 2)), name -> null);
        assertEquals(FingerprintSpec.Version.V2, fp.version());
        Random r = new Random(12);
        for (int i = 0; i < 2000; i++) {
            List<String> parts = List.of(randomText(r), randomText(r), randomText(r));
            OptionalLong expected = ReferenceSimHashV2.fingerprint(parts, 2, null);
            assertEquals(expected, fp.fingerprint(parts), parts.toString());
            FeatureBag bag = fp.newBag();
            parts.forEach(p -> fp.addText(p, bag));
            assertEquals(expected, bag.fingerprint(), parts.toString());
        }
    }

    @Test
    void featuresAreUnigramsAndAdjacentPairsInOrderOfFirstOccurrence() {
        assertEquals(List.of("a", "b", "a b", "b a", "c", "a c"), new ArrayList<>(SimHashV2.features(List.of("A b a c")).keySet()));
        assertEquals(Map.of("a", 2, "b", 1, "a b", 1, "b a", 1, "c", 1, "a c", 1), SimHashV2.features(List.of("A b a c")));
        assertEquals(List.of("国", "家", "国 家"), new ArrayList<>(SimHashV2.features(List.of("國家")).keySet()));
        // array values are one token sequence: the pair across the boundary is a feature
        assertTrue(SimHashV2.features(Arrays.asList("bank", null, "rate")).containsKey("bank rate"));
    }

    @Test
    void noFeaturesNoFingerprint() {
        assertTrue(SimHashV2.fingerprint("", 1).isEmpty());
        assertTrue(SimHashV2.fingerprint("，。！", 1).isEmpty());
        assertTrue(SimHashV2.fingerprint("hello world", 4).isEmpty());
        assertTrue(SimHashV2.fingerprint("hello world", 3).isPresent());
        assertTrue(SimHashV2.fingerprint(List.of("hello"), 1, f -> 0).isEmpty());
    }

    @Test
    void invalidArguments() {
        assertThrows(IllegalArgumentException.class, () -> SimHashV2.fingerprint("x", 0));
        assertThrows(IllegalArgumentException.class, () -> SimHashV2.fingerprint(List.of("x y"), 1, f -> -1));
        assertThrows(IllegalArgumentException.class, () -> SimHashV2.fingerprint(List.of("x y"), 1, f -> Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> SimHashV2.fingerprint(List.of("x y"), 1, f -> Double.POSITIVE_INFINITY));
    }

    @Test
    void traditionalAndSimplifiedGiveTheSameFingerprint() {
        assertEquals(SimHashV2.fingerprint("为人民服务，我们在这里", 1), SimHashV2.fingerprint("爲人民服務，我們在這裡", 1));
    }

    @Test
    void factorOfOneChangesNothing() {
        String t = "The central bank left its benchmark interest rate unchanged";
        assertEquals(SimHashV2.fingerprint(t, 1), SimHashV2.fingerprint(List.of(t), 1, f -> 1.0));
    }
}
