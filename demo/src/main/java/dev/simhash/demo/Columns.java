package dev.simhash.demo;

/** Terminal widths of mixed Chinese/English text: East Asian wide characters take two columns. */
final class Columns {

    private Columns() {}

    /** The number of terminal columns {@code text} takes. */
    static int width(String text) {
        return text.codePoints().map(Columns::width).sum();
    }

    /** {@code text} on one line (whitespace runs collapsed), cut to at most {@code columns} with an ellipsis. */
    static String truncate(String text, int columns) {
        String line = text.strip().replaceAll("\\s+", " ");
        if (width(line) <= columns) {
            return line;
        }
        StringBuilder sb = new StringBuilder();
        int used = 0;
        for (int cp : line.codePoints().toArray()) {
            if (used + width(cp) > columns - 1) {
                break;
            }
            sb.appendCodePoint(cp);
            used += width(cp);
        }
        return sb.toString().stripTrailing() + "…";
    }

    private static int width(int cp) {
        // the wide ranges of Unicode's East Asian Width that occur in Chinese text: CJK, fullwidth forms
        boolean wide = (cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0xA4CF) || (cp >= 0xAC00 && cp <= 0xD7A3)
            || (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0xFE30 && cp <= 0xFE4F) || (cp >= 0xFF00 && cp <= 0xFF60)
            || (cp >= 0xFFE0 && cp <= 0xFFE6) || (cp >= 0x20000 && cp <= 0x3FFFD);
        return wide ? 2 : 1;
    }
}
