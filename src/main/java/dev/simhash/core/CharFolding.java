package dev.simhash.core;

import java.text.Normalizer;
import java.util.Arrays;
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
    /** Marks a char of {@link #STABLE_FOLDED_CHARS} that NFKC may change ({@link #nfkcStable} is false). */
    private static final char NOT_STABLE = '\uD801';
    /** Marks a char of {@link #STABLE_FOLDED_CHARS} whose NFKC is other chars, all stable: see {@link #EXPANSIONS}. */
    private static final char EXPANDS = '\uD802';
    /** The chars marked {@link #EXPANDS}, in ascending order. */
    private static final char[] EXPANDING;
    /** Per char of {@link #EXPANDING} (same index): the folded chars of its NFKC. */
    private static final char[][] EXPANSIONS;
    /**
     * {@link #FOLDED_CHARS} for text not yet normalised: {@link #EXPANDS} for a char whose NFKC is other {@link #nfkcStable}
     * chars (each folds to one BMP char), {@link #NOT_STABLE} for any other char that is not {@link #nfkcStable}.
     */
    private static final char[] STABLE_FOLDED_CHARS;

    static {
        char[] table = FOLDED_CHARS.clone();
        StringBuilder expanding = new StringBuilder();
        java.util.List<char[]> expansions = new java.util.ArrayList<>();
        for (int c = 0; c < table.length; c++) {
            if (nfkcStable((char) c)) {
                continue;
            }
            char[] e = Character.isSurrogate((char) c) ? null : stableExpansion(Normalizer.normalize(String.valueOf((char) c), Normalizer.Form.NFKC));
            if (e == null) {
                table[c] = NOT_STABLE;
            } else {
                table[c] = EXPANDS;
                expanding.append((char) c);
                expansions.add(e);
            }
        }
        STABLE_FOLDED_CHARS = table;
        EXPANDING = expanding.toString().toCharArray();
        EXPANSIONS = expansions.toArray(new char[0][]);
    }

    /** The folded chars of an NFKC form made only of stable chars that each fold to one BMP char, else null. */
    private static char[] stableExpansion(String nfkc) {
        char[] e = new char[nfkc.length()];
        for (int i = 0; i < e.length; i++) {
            char d = nfkc.charAt(i);
            if (!nfkcStable(d) || FOLDED_CHARS[d] == CODE_POINT_PATH) {
                return null;
            }
            e[i] = FOLDED_CHARS[d];
        }
        return e.length == 0 ? null : e;
    }

    private CharFolding() {}

    /** NFKC, then per code point: lowercase ({@link Character#toLowerCase(int)}), then the folding table. */
    public static String fold(CharSequence text) {
        Buffer b = new Buffer();
        fold(text, b);
        return b.toString();
    }

    /**
     * {@link #fold(CharSequence)} written into a reusable buffer instead of a new string: one table lookup per char for the
     * BMP (lowercase and table in one), the code point path for surrogates. Text made only of chars that NFKC leaves as
     * they are whatever their neighbours ({@link #nfkcStable}: nearly all text) is folded without the normaliser.
     */
    public static void fold(CharSequence text, Buffer out) {
        foldRead(text, read(text, out), out);
    }

    /** Reads {@code text} into {@code out}'s source chars (for {@link #foldAscii} and {@link #foldRead}); returns its length. */
    static int read(CharSequence text, Buffer out) {
        int n = text.length();
        text.toString().getChars(0, n, out.source(n), 0);
        return n;
    }

    /** {@link #fold(CharSequence, Buffer)} of {@code text}, whose {@code n} chars {@link #read} has put in {@code out}. */
    static void foldRead(CharSequence text, int n, Buffer out) {
        char[] src = out.source;
        // a BMP char folds to at most two chars (an image outside the BMP); a surrogate pair to at most two
        char[] c = out.capacity(2 * n);
        int p = foldChars(src, n, c, STABLE_FOLDED_CHARS);
        if (p < 0) {
            // a char NFKC may change, or that may combine with a neighbour: normalise the whole text, then fold
            String nfkc = Normalizer.normalize(text, Normalizer.Form.NFKC);
            n = nfkc.length();
            src = out.source(n);
            nfkc.getChars(0, n, src, 0);
            c = out.capacity(2 * n);
            p = foldChars(src, n, c, FOLDED_CHARS);
        }
        out.length = p;
    }

    /**
     * {@link #fold(CharSequence, Buffer)} of an ASCII text, as bytes: the {@code n} chars {@link #read} has put in {@code
     * buffer}, folded, one byte each, into {@code out[0 .. n)}; true, or false (out then holds anything) when a char is not
     * ASCII. Folding ASCII is lowercasing A-Z: NFKC leaves ASCII as it is, {@link Character#toLowerCase(int)} maps only A-Z
     * within ASCII, and the folding table has no ASCII char (checked when it is loaded).
     */
    static boolean foldAscii(Buffer buffer, int n, byte[] out) {
        if (out.length < n) {
            throw new IndexOutOfBoundsException("text of " + n + " chars for " + out.length + " bytes");
        }
        char[] src = buffer.source;
        // in blocks, so that a text that is not ASCII is told early (such texts are often long and rarely ASCII further on)
        for (int from = 0; from < n; from += ASCII_BLOCK) {
            int to = Math.min(n, from + ASCII_BLOCK);
            int any = 0;
            for (int i = from; i < to; i++) {
                int c = src[i];
                any |= c;
                // A-Z (c - 'A' and 'Z' - c both >= 0) gets bit 5: lowercase, without a branch
                out[i] = (byte) (c | (~((c - 'A') | ('Z' - c)) >>> 31) << 5);
            }
            if (any >= 0x80) {
                return false;
            }
        }
        return true;
    }

    private static final int ASCII_BLOCK = 256;

    /** Folds {@code src[0 .. n)} into {@code c} by {@code map}; returns the folded length, or -1 at a {@link #NOT_STABLE} char. */
    private static int foldChars(char[] src, int n, char[] c, char[] map) {
        int p = 0;
        int i = 0;
        while (true) {
            // one char to one char, in a loop with nothing else in it (the markers are the three chars from CODE_POINT_PATH)
            for (; i < n; i++) {
                char f = map[src[i]];
                if ((char) (f - CODE_POINT_PATH) <= EXPANDS - CODE_POINT_PATH) {
                    break;
                }
                c[p++] = f;
            }
            if (i == n) {
                return p;
            }
            char f = map[src[i]];
            if (f == NOT_STABLE) {
                return -1;
            }
            if (f == EXPANDS) {
                // a char whose NFKC is other stable chars (e.g. a full-width comma): their folded chars, if they fit
                char[] e = EXPANSIONS[Arrays.binarySearch(EXPANDING, src[i])];
                if (p + e.length + 2 * (n - i - 1) > c.length) {
                    return -1;
                }
                System.arraycopy(e, 0, c, p, e.length);
                p += e.length;
                i++;
                continue;
            }
            int cp = Character.codePointAt(src, i, n);
            i += Character.charCount(cp);
            p += Character.toChars(foldCodePoint(Character.toLowerCase(cp)), c, p);
        }
    }

    /**
     * Whether NFKC leaves this BMP char as it is in any text made of such chars: its own NFKC is itself (NFKC_QC=Yes
     * or Maybe), it is no mark (a combining class other than 0 or a composition with the char before it: general
     * categories Mn, Mc, Me) and no conjoining Hangul jamo (a vowel or final jamo composes with the syllable before
     * it). Such text is its own NFKC: the quick check of UAX #15 answers yes for chars of NFKC_QC=Yes and combining
     * class 0, and every NFKC_QC=Maybe char is a mark or a conjoining jamo. Surrogates are not stable (supplementary
     * chars take the normaliser).
     */
    static boolean nfkcStable(char c) {
        if (Character.isSurrogate(c) || c >= 0x1100 && c <= 0x11FF || c >= 0xA960 && c <= 0xA97F || c >= 0xD7B0 && c <= 0xD7FF) {
            return false;
        }
        int type = Character.getType(c);
        if (type == Character.NON_SPACING_MARK || type == Character.COMBINING_SPACING_MARK || type == Character.ENCLOSING_MARK) {
            return false;
        }
        return Normalizer.isNormalized(String.valueOf(c), Normalizer.Form.NFKC);
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
            if (e.getKey() < 0x80 || e.getValue() < 0x80) {
                throw new IllegalStateException("folding table maps ASCII (foldAscii relies on it) at U+" + Integer.toHexString(e.getKey()));
            }
        }
        return Map.copyOf(t);
    }
}
