package dev.simhash.core;

/**
 * A deterministic corpus of random texts that stresses what differs between Unicode and Lucene versions: many
 * scripts (Latin with precomposed and combining accents, Cyrillic, Greek, Arabic, Hebrew, Devanagari, Thai, Hangul
 * syllables and conjoining jamo, kana, Han in the BMP and beyond, including recent extensions), emoji with skin
 * tones, ZWJ sequences, flags, keycaps and tags, digits of several systems, punctuation and odd spaces, private-use,
 * unassigned and noncharacter code points, lone surrogates, and very long tokens. Text {@code i} depends only on
 * {@code i} and the seed, through a SplitMix64 generator written here (no JDK random number generator, whose
 * algorithm is not part of any contract), so every JDK and every Elasticsearch line sees the same texts.
 */
final class RandomUnicodeTexts {

    private static final String SEPARATORS = "      \t\n\u00A0\u3000\u200B,.;:!?\u3001\u3002\uFF0C-/()\"'";

    private final long seed;

    RandomUnicodeTexts(long seed) {
        this.seed = seed;
    }

    /** Text number {@code i}. */
    String text(int i) {
        Rng r = new Rng(seed ^ (0x9E3779B97F4A7C15L * (i + 1)));
        StringBuilder sb = new StringBuilder();
        // mostly short texts, some around the sketch's 64-token switch, a few long ones
        int roll = r.below(100);
        int pieces = roll < 75 ? 1 + r.below(12) : roll < 98 ? 20 + r.below(80) : 150 + r.below(200);
        int script = r.below(KINDS); // most texts lean towards one script, as real documents do
        for (int p = 0; p < pieces; p++) {
            if (p > 0 && r.below(10) != 0) {
                sb.append(SEPARATORS.charAt(r.below(SEPARATORS.length())));
            }
            // a very long token in one piece of 300: rare, as in real text, and costly to fingerprint
            piece(r, r.below(300) == 0 ? LONG_TOKEN : r.below(3) == 0 ? r.below(KINDS) : script, sb);
        }
        return sb.toString();
    }

    /** The kinds of piece a text leans towards or mixes in; {@link #LONG_TOKEN} is drawn apart. */
    private static final int KINDS = 19;
    private static final int LONG_TOKEN = 19;

    private static void piece(Rng r, int kind, StringBuilder sb) {
        int n = 1 + r.below(8);
        switch (kind) {
            case 0 -> { // ASCII words, mixed case
                for (int k = 0; k < n + 2; k++) {
                    char c = (char) ('a' + r.below(26));
                    sb.append(r.below(5) == 0 ? Character.toUpperCase(c) : c);
                }
            }
            case 1 -> run(r, sb, n + 2, 0x00C0, 0x024F); // Latin-1 letters and Latin Extended-A/B
            case 2 -> { // Latin letters with one to three combining marks
                for (int k = 0; k < n; k++) {
                    sb.append((char) ('a' + r.below(26)));
                    int marks = r.below(4);
                    for (int m = 0; m < marks; m++) {
                        sb.append((char) (0x0300 + r.below(0x70)));
                    }
                }
            }
            case 3 -> run(r, sb, n + 2, 0x0400, 0x04FF); // Cyrillic
            case 4 -> run(r, sb, n + 2, 0x0370, 0x03FF); // Greek and Coptic (with unassigned holes)
            case 5 -> { // Arabic letters with harakat, sometimes Arabic-Indic digits
                for (int k = 0; k < n + 2; k++) {
                    sb.append((char) (0x0621 + r.below(0x2A)));
                    if (r.below(3) == 0) {
                        sb.append((char) (0x064B + r.below(8)));
                    }
                }
                if (r.below(4) == 0) {
                    run(r, sb, 1 + r.below(4), 0x0660, 0x0669);
                }
            }
            case 6 -> run(r, sb, n + 2, 0x0590, 0x05FF); // Hebrew with points
            case 7 -> { // Devanagari: consonant, matra or virama
                for (int k = 0; k < n + 1; k++) {
                    sb.append((char) (0x0915 + r.below(0x25)));
                    int t = r.below(3);
                    if (t == 0) {
                        sb.append((char) (0x093E + r.below(0x0F)));
                    } else if (t == 1) {
                        sb.append('\u094D');
                    }
                }
            }
            case 8 -> run(r, sb, 4 + r.below(20), 0x0E01, 0x0E4E); // Thai, unspaced
            case 9 -> { // Hangul syllables, or conjoining jamo that compose under NFKC
                if (r.below(2) == 0) {
                    run(r, sb, n + 1, 0xAC00, 0xD7A3);
                } else {
                    for (int k = 0; k < n; k++) {
                        sb.append((char) (0x1100 + r.below(19))).append((char) (0x1161 + r.below(21)));
                        if (r.below(2) == 0) {
                            sb.append((char) (0x11A8 + r.below(27)));
                        }
                    }
                }
            }
            case 10 -> { // hiragana, katakana with the prolonged sound mark, half-width katakana
                int t = r.below(3);
                run(r, sb, n + 1, t == 0 ? 0x3041 : t == 1 ? 0x30A1 : 0xFF66, t == 0 ? 0x3096 : t == 1 ? 0x30FC : 0xFF9D);
            }
            case 11 -> run(r, sb, n + 3, 0x4E00, 0x9FFF); // Han, BMP (traditional and simplified mixed)
            case 12 -> { // Han beyond the common block: Ext A, compatibility ideographs, Ext B, and recent extensions
                int[][] ranges = {{0x3400, 0x4DBF}, {0xF900, 0xFAFF}, {0x20000, 0x2A6DF}, {0x2B740, 0x2B81D}, {0x30000, 0x3134A},
                    {0x31350, 0x323AF}, {0x2EBF0, 0x2EE5D}};
                int[] g = ranges[r.below(ranges.length)];
                run(r, sb, n + 1, g[0], g[1]);
            }
            case 13 -> emoji(r, sb, n);
            case 14 -> { // digits of several systems, with separators inside numbers
                int[] zeros = {'0', 0xFF10, 0x0660, 0x06F0, 0x0966, 0x0E50, 0x1D7CE};
                int zero = zeros[r.below(zeros.length)];
                for (int k = 0; k < n + 1; k++) {
                    sb.appendCodePoint(zero + r.below(10));
                    if (r.below(5) == 0) {
                        sb.append(",.'\u2019:".charAt(r.below(5)));
                    }
                }
            }
            case 15 -> { // full-width Latin and compatibility forms (ligatures, circled, superscripts)
                int[][] ranges = {{0xFF21, 0xFF5A}, {0xFB00, 0xFB06}, {0x2460, 0x24FF}, {0x2070, 0x209C}, {0x1D400, 0x1D7FF}, {0x3300, 0x33FF}};
                int[] g = ranges[r.below(ranges.length)];
                run(r, sb, n + 1, g[0], g[1]);
            }
            case 16 -> { // private use (BMP and plane 15), noncharacters, and code points anywhere (mostly unassigned)
                for (int k = 0; k < n; k++) {
                    int t = r.below(4);
                    int cp = t == 0 ? 0xE000 + r.below(0x1900) : t == 1 ? 0xF0000 + r.below(0xFFFE)
                        : t == 2 ? (r.below(2) == 0 ? 0xFDD0 + r.below(32) : 0xFFFE + r.below(2)) : r.below(0x110000);
                    if (cp >= 0xD800 && cp <= 0xDFFF) {
                        cp = 0x0378; // unassigned in every Unicode version so far
                    }
                    sb.appendCodePoint(cp);
                }
            }
            case 17 -> { // a lone surrogate inside a word, or a reversed pair
                sb.append((char) ('a' + r.below(26)));
                if (r.below(2) == 0) {
                    sb.append((char) (0xD800 + r.below(0x800)));
                } else {
                    sb.append((char) (0xDC00 + r.below(0x400))).append((char) (0xD800 + r.below(0x400)));
                }
                sb.append((char) ('a' + r.below(26)));
            }
            case LONG_TOKEN -> { // very long tokens: around Lucene's 255-char limit, and far beyond it
                int len = r.below(2) == 0 ? 250 + r.below(12) : 300 + r.below(1200);
                int base = r.below(3) == 0 ? 0x4E00 : 'a';
                for (int k = 0; k < len; k++) {
                    sb.append((char) (base + r.below(base == 'a' ? 26 : 0x5000)));
                }
            }
            case 18 -> { // format and joiner characters, soft hyphens and odd punctuation between letters
                String glue = "\u00AD\u200C\u200D\u2060\uFEFF\u034F\u2019\u00B7\u2027_.:'";
                for (int k = 0; k < n + 1; k++) {
                    sb.append((char) ('a' + r.below(26)));
                    if (r.below(2) == 0) {
                        sb.append(glue.charAt(r.below(glue.length())));
                    }
                }
            }
        }
    }

    private static void emoji(Rng r, StringBuilder sb, int n) {
        for (int k = 0; k < n; k++) {
            switch (r.below(7)) {
                case 0 -> sb.appendCodePoint(0x1F300 + r.below(0x350)); // pictographs, emoticons, transport
                case 1 -> sb.appendCodePoint(0x1F466 + r.below(4)).appendCodePoint(0x1F3FB + r.below(5)); // skin tone
                case 2 -> { // ZWJ sequences, e.g. families
                    sb.appendCodePoint(0x1F468 + r.below(2));
                    int members = 1 + r.below(3);
                    for (int j = 0; j < members; j++) {
                        sb.append('\u200D').appendCodePoint(0x1F466 + r.below(4));
                    }
                }
                case 3 -> sb.appendCodePoint(0x1F1E6 + r.below(26)).appendCodePoint(0x1F1E6 + r.below(26)); // flags
                case 4 -> sb.append((char) ('0' + r.below(10))).append('\uFE0F').append('\u20E3'); // keycaps
                case 5 -> { // tag sequences (subdivision flags)
                    sb.appendCodePoint(0x1F3F4);
                    for (int j = 0; j < 5; j++) {
                        sb.appendCodePoint(0xE0061 + r.below(26));
                    }
                    sb.appendCodePoint(0xE007F);
                }
                default -> sb.append("\u2764\u263A\u00A9\u00AE\u2122".charAt(r.below(5))).append(r.below(2) == 0 ? "\uFE0F" : "\uFE0E");
            }
        }
    }

    private static void run(Rng r, StringBuilder sb, int count, int from, int to) {
        for (int k = 0; k < count; k++) {
            sb.appendCodePoint(from + r.below(to - from + 1));
        }
    }

    /** SplitMix64 (Steele, Lea and Flood 2014), spelled out so the texts never depend on a JDK's generators. */
    private static final class Rng {
        private long state;

        Rng(long seed) {
            state = seed;
        }

        long next() {
            long z = state += 0x9E3779B97F4A7C15L;
            z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
            z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
            return z ^ (z >>> 31);
        }

        /** Uniform in [0, bound) (the small modulo bias does not matter for a test corpus). */
        int below(int bound) {
            return (int) Long.remainderUnsigned(next(), bound);
        }
    }
}
