package dev.simhash.core;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CharFoldingTest {

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
