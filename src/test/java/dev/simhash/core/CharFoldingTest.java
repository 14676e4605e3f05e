package dev.simhash.core;

import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith(TestSeeds.class)
class CharFoldingTest {

    private static final AtomicLong SEEDS = TestSeeds.sequence();
    /** Reused by every repetition, as a thread's buffer is. */
    private static final CharFolding.Buffer SHARED = new CharFolding.Buffer();

    @Test
    void traditionalAndVariantsFoldToSimplified() {
        assertEquals("为了这个国家", CharFolding.fold("爲了這個國家"));
        assertEquals("为了这个国家", CharFolding.fold("為了這個國家"));
        assertEquals("里面", CharFolding.fold("裡面"));
        assertEquals("里面", CharFolding.fold("裏面"));
        assertEquals("我们", CharFolding.fold("我們"));
        // simplified text is unchanged, except the few characters the table folds on purpose (著 -> 着)
        assertEquals("国家统计局今天发布数据", CharFolding.fold("国家统计局今天发布数据"));
        assertEquals("显着", CharFolding.fold("顯著"));
    }

    @Test
    void nfkcAndLowercase() {
        assertEquals("abc123", CharFolding.fold("ＡＢＣ１２３"));
        assertEquals("elasticsearch", CharFolding.fold("ElasticSearch"));
        assertEquals("fi", CharFolding.fold("ﬁ"));
        assertEquals("ä", CharFolding.fold("A\u0308"));
        assertEquals("", CharFolding.fold(""));
        // characters outside the BMP pass through
        assertEquals("𠀀😀", CharFolding.fold("𠀀😀"));
    }

    @Test
    void foldingIsIdempotent() {
        String s = "爲了這個國家，ＡＢＣ　我們著手處理裡面的問題。Straße ΣΑΣ";
        String once = CharFolding.fold(s);
        assertEquals(once, CharFolding.fold(once));
    }

    /** Folding (string and buffer) is exactly the naive definition (ReferenceSimHashV2.fold), on random text of every kind. */
    @RepeatedTest(200)
    void foldingEqualsTheNaiveDefinition() {
        long seed = SEEDS.getAndIncrement();
        Random r = SimHashAccumulatorIdentityTest.random(seed);
        CharFolding.Buffer buffer = SHARED;
        for (int k = 0; k < 20; k++) {
            StringBuilder sb = new StringBuilder(Utf8FeatureHasherTest.randomString(r));
            // and characters the table folds, upper case letters, compatibility forms and combining marks
            for (int i = r.nextInt(30); i > 0; i--) {
                switch (r.nextInt(5)) {
                    case 0 -> sb.insert(r.nextInt(sb.length() + 1), "爲這個國家裡著們");
                    case 1 -> sb.insert(r.nextInt(sb.length() + 1), "ÀÉÎÕÜ ΣΑΣ İI Straße ＡＢＣ１２３");
                    case 2 -> sb.insert(r.nextInt(sb.length() + 1), "ﬁ\u2163\u00BD A\u0308 \u1E9E \uD801\uDC00 \u1100\u1161\u11A8 가\u11A8 \u0B47\u0B3E");
                    case 3 -> sb.appendCodePoint(0x10400 + r.nextInt(0x50));
                    default -> sb.append((char) (0x4E00 + r.nextInt(0x5200)));
                }
            }
            String text = sb.toString();
            String expected = ReferenceSimHashV2.fold(text);
            CharFolding.fold(text, buffer);
            assertEquals(expected, buffer.toString(), "seed " + seed);
            assertEquals(expected, CharFolding.fold(text), "seed " + seed);
        }
    }

    @Test
    void bufferFoldingOfEveryBmpChar() {
        CharFolding.Buffer buffer = new CharFolding.Buffer();
        for (int c = 0; c <= 0xFFFF; c++) {
            String text = "a" + (char) c + "Z";
            CharFolding.fold(text, buffer);
            assertEquals(ReferenceSimHashV2.fold(text), buffer.toString(), "U+" + Integer.toHexString(c));
        }
    }

    /**
     * The chars folding takes without the normaliser (CharFolding.nfkcStable) are NFKC next to any char of many scripts
     * (letters that compose with marks or jamo: Latin, Greek, Cyrillic, Hangul syllables, Indic and Southeast Asian
     * consonants, kana); and the check has teeth: without the exclusion of marks and jamo, it fails.
     */
    @Test
    void nfkcStableCharsAreNormalisedInAnyContext() {
        java.util.List<Character> contexts = new java.util.ArrayList<>();
        for (char c : "aeoAEOué\u00E9α\u03B1и가각한\u0915\u0995\u0B15\u0B95\u0C15\u0C95\u0D15\u0D9A\u1000\u1B05かカ\u3046\u05D0\u0627 1.".toCharArray()) {
            assertTrue(CharFolding.nfkcStable(c), "context U+" + Integer.toHexString(c));
            contexts.add(c);
        }
        CharFolding.Buffer buffer = new CharFolding.Buffer();
        int stable = 0;
        int admittedWithoutExclusions = 0;
        for (int c = 0; c <= 0xFFFF; c++) {
            char ch = (char) c;
            boolean alone = !Character.isSurrogate(ch) && java.text.Normalizer.isNormalized(String.valueOf(ch), java.text.Normalizer.Form.NFKC);
            if (!CharFolding.nfkcStable(ch)) {
                if (alone && !inContextNormalised(ch, contexts)) {
                    admittedWithoutExclusions++;
                }
                // folded without the normaliser when its NFKC is stable chars (e.g. U+FF0C): the same as with it, in context
                for (char p : contexts) {
                    for (String text : new String[] {"" + p + ch + p, "" + ch + ch + p, "\uFF0C" + ch + "\u2026"}) {
                        CharFolding.fold(text, buffer);
                        assertEquals(ReferenceSimHashV2.fold(text), buffer.toString(), "U+" + Integer.toHexString(c) + " after U+" + Integer.toHexString(p));
                    }
                }
                continue;
            }
            stable++;
            assertTrue(alone, "U+" + Integer.toHexString(c));
            assertTrue(inContextNormalised(ch, contexts), "U+" + Integer.toHexString(c) + " is not NFKC next to some context char");
        }
        assertTrue(stable > 50_000, "nearly all BMP chars are stable, got " + stable);
        // marks and jamo are NFKC alone but not next to a letter: the exclusions are needed, and this test sees it
        assertTrue(admittedWithoutExclusions > 40, "chars NFKC alone but not in context: " + admittedWithoutExclusions);
    }

    private static boolean inContextNormalised(char c, java.util.List<Character> contexts) {
        for (char p : contexts) {
            if (!java.text.Normalizer.isNormalized("" + p + c + p, java.text.Normalizer.Form.NFKC)) {
                return false;
            }
        }
        return true;
    }

    @Test
    void tableMatchesItsResourceFile() throws IOException {
        Map<Integer, Integer> file = new HashMap<>();
        try (InputStream in = CharFolding.class.getResourceAsStream(CharFolding.TABLE_RESOURCE)) {
            assertNotNull(in);
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!line.isEmpty() && !line.startsWith("#")) {
                    String[] p = line.split("\t");
                    file.put(p[0].codePointAt(0), p[1].codePointAt(0));
                }
            }
        }
        assertEquals(file.size(), CharFolding.tableSize());
        assertTrue(file.size() > 4000, "OpenCC TSCharacters has about 4,000 entries");
        file.forEach((k, v) -> assertEquals((int) v, CharFolding.foldCodePoint(k)));
    }
    /**
     * The ASCII path is the reference fold for every ASCII text (each of the 128 chars, in random texts of every length
     * across its 256-char blocks), and refuses every text with any other char, wherever it is (also chars whose low byte is
     * ASCII, such as U+0141 or U+4E41).
     */
    @Test
    void foldAsciiIsTheReferenceFoldOfAsciiTextsAndRefusesOthers() {
        Random r = new Random(SEEDS.incrementAndGet());
        CharFolding.Buffer buffer = new CharFolding.Buffer();
        byte[] out = new byte[2000];
        StringBuilder all = new StringBuilder();
        for (char c = 0; c < 0x80; c++) {
            all.append(c);
        }
        String[] others = { "\u0080", "\u00C9", "\u0141", "\u4E41", "\uFF21", "\uD83D\uDC4D", "\u00A0" };
        for (int round = 0; round < 2000; round++) {
            int n = round == 0 ? 128 : r.nextInt(r.nextBoolean() ? 20 : 1200);
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < n; i++) {
                sb.append(round == 0 ? all.charAt(i) : (char) r.nextInt(0x80));
            }
            String ascii = sb.toString();
            assertTrue(CharFolding.foldAscii(buffer, CharFolding.read(ascii, buffer), out), ascii);
            assertEquals(ReferenceSimHashV2.fold(ascii), new String(out, 0, n, StandardCharsets.ISO_8859_1), ascii);
            sb.insert(r.nextInt(n + 1), others[r.nextInt(others.length)]);
            assertFalse(CharFolding.foldAscii(buffer, CharFolding.read(sb, buffer), out), sb.toString());
        }
    }
}
