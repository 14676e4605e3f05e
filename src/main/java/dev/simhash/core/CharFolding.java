package dev.simhash.core;

import java.text.Normalizer;
import java.util.HashMap;
import java.util.Map;

/**
 * Step 1 of simhash-v2: normalises text before tokenizing so that spellings that mean the same text
 * give the same features: Unicode NFKC (full-width letters and digits, compatibility forms), simple
 * lowercase mapping per code point, then traditional and variant Chinese characters folded to
 * simplified ones with a fixed table derived from OpenCC ({@code char-folding-v2.tsv}). Thread-safe.
 */
public final class CharFolding {

    /** The table resource, part of the simhash-v2 contract. */
    public static final String TABLE_RESOURCE = "/dev/simhash/core/char-folding-v2.tsv";

    private static final Map<Integer, Integer> TABLE = load();
    // most folded characters are in the BMP: a direct array for those, the map for the rest
    private static final int[] BMP = bmp(TABLE);
    /** Marks a char of {@link #FOLDED_CHARS} that needs the code point path (a surrogate, or an image outside the BMP). */
    private static final char CODE_POINT_PATH = '\uD800';
    /** Per BMP char that is not a surrogate: lowercase, then the table, as one char; {@link #CODE_POINT_PATH} otherwise. */
    private static final char[] FOLDED_CHARS = foldedChars();

    private CharFolding() {}

    /** NFKC, then per code point: lowercase ({@link Character#toLowerCase(int)}), then the folding table. */
    public static String fold(CharSequence text) {
        Buffer b = new Buffer();
        fold(text, b);
        return b.toString();
    }

    /**
     * {@link #fold(CharSequence)} written into a reusable buffer instead of a new string: one table lookup per char for the
     * BMP (lowercase and table in one), the code point path for surrogates.
     */
    public static void fold(CharSequence text, Buffer out) {
        String nfkc = Normalizer.isNormalized(text, Normalizer.Form.NFKC) ? text.toString() : Normalizer.normalize(text, Normalizer.Form.NFKC);
        int n = nfkc.length();
        char[] src = out.source(n);
        nfkc.getChars(0, n, src, 0);
        // a BMP char folds to at most two chars (an image outside the BMP); a surrogate pair to at most two
        char[] c = out.capacity(2 * n);
        char[] map = FOLDED_CHARS;
        int p = 0;
        for (int i = 0; i < n; i++) {
            char f = map[src[i]];
            if (f != CODE_POINT_PATH) {
                c[p++] = f;
                continue;
            }
            int cp = Character.codePointAt(src, i, n);
            i += Character.charCount(cp) - 1;
            p += Character.toChars(foldCodePoint(Character.toLowerCase(cp)), c, p);
        }
        out.length = p;
    }

    /** A reusable char buffer for {@link #fold(CharSequence, Buffer)}: the folded text is {@code chars()[0 .. length())}. Not thread-safe. */
    public static final class Buffer {
        /** Buffers larger than this many chars are not kept for the next text. */
        private static final int MAX_KEPT = 1 << 16;
        private char[] chars = new char[1024];
        private char[] source = new char[512];
        private int length;

        /** The text before folding, read into an array once (cheaper than a char at a time through CharSequence). */
        char[] source(int n) {
            if (source.length < n || source.length > MAX_KEPT) {
                source = new char[Math.max(n, 512)];
            }
            return source;
        }

        char[] capacity(int n) {
            if (chars.length < n || chars.length > MAX_KEPT) {
                chars = new char[Math.max(n, 1024)];
            }
            return chars;
        }

        public char[] chars() {
            return chars;
        }

        public int length() {
            return length;
        }

        @Override
        public String toString() {
            return new String(chars, 0, length);
        }
    }

    /** The table's image of one code point (itself when it has no entry); no NFKC, no lowercasing. */
    public static int foldCodePoint(int cp) {
        if (cp < BMP.length) {
            int c = BMP[cp];
            return c == 0 ? cp : c;
        }
        Integer f = TABLE.get(cp);
        return f == null ? cp : f;
    }

    /** Number of entries of the folding table. */
    public static int tableSize() {
        return TABLE.size();
    }

    private static char[] foldedChars() {
        char[] out = new char[0x10000];
        for (int c = 0; c < out.length; c++) {
            int f = Character.isSurrogate((char) c) ? -1 : foldCodePoint(Character.toLowerCase(c));
            out[c] = f < 0 || f > 0xFFFF || Character.isSurrogate((char) f) ? CODE_POINT_PATH : (char) f;
        }
        return out;
    }

    private static int[] bmp(Map<Integer, Integer> table) {
        int[] out = new int[0x10000];
        table.forEach((k, v) -> {
            if (k < 0x10000) {
                out[k] = v;
            }
        });
        return out;
    }

    private static Map<Integer, Integer> load() {
        Map<Integer, Integer> t = new HashMap<>();
        TsvResource.read(CharFolding.class, TABLE_RESOURCE, (from, to) -> {
            if (from.codePointCount(0, from.length()) != 1 || to.codePointCount(0, to.length()) != 1) {
                throw new IllegalStateException("bad line in " + TABLE_RESOURCE + ": " + from + "\t" + to);
            }
            t.put(from.codePointAt(0), to.codePointAt(0));
        });
        // keys mapped from a lower-cased code point: a key that is itself an upper-case letter would
        // never be reached, and a value that is a key again would make folding depend on repetition
        for (Map.Entry<Integer, Integer> e : t.entrySet()) {
            if (t.containsKey(e.getValue())) {
                throw new IllegalStateException("folding table is not idempotent at U+" + Integer.toHexString(e.getKey()));
            }
        }
        return Map.copyOf(t);
    }
}
