package dev.simhash.core;

import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CharFoldingTest {

    private static final AtomicLong SEEDS = new AtomicLong(Long.getLong("tests.seed", System.nanoTime()));
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
                    case 2 -> sb.insert(r.nextInt(sb.length() + 1), "ﬁ\u2163\u00BD A\u0308 \u1E9E \uD801\uDC00");
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
}
