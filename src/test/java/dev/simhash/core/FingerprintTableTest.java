package dev.simhash.core;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FingerprintTableTest {

    @Test
    void keepsEveryColumnAcrossPages() {
        Random r = new Random(1);
        int n = FingerprintTable.PAGE_DOCS * 3 + 17;
        FingerprintTable t = new FingerprintTable();
        String[] ids = new String[n];
        long[] hashes = new long[n];
        for (int i = 0; i < n; i++) {
            ids[i] = i % 7 == 0 ? "文档-" + i : i % 11 == 0 ? "" : "doc-" + Long.toString(r.nextLong(), 36);
            hashes[i] = r.nextLong();
            t.add(i % 3 == 0 ? "news-a" : "news-b", ids[i], hashes[i], i % 5 == 0 ? "route" + i : null);
        }
        assertEquals(n, t.size());
        assertArrayEquals(hashes, t.hashes());
        for (int i = 0; i < n; i++) {
            assertEquals(ids[i], t.id(i));
            assertEquals(hashes[i], t.hash(i));
            assertEquals(i % 3 == 0 ? "news-a" : "news-b", t.index(i));
            if (i % 5 == 0) {
                assertEquals("route" + i, t.routing(i));
            } else {
                assertNull(t.routing(i));
            }
        }
        assertTrue(t.ramBytesUsed() < 64L * n, "compact: " + t.ramBytesUsed() / n + " bytes per document");
        assertThrows(IndexOutOfBoundsException.class, () -> t.id(n));
    }
}
