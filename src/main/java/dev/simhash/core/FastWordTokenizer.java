package dev.simhash.core;

import org.apache.lucene.analysis.standard.StandardTokenizer;


/**
 * A fast path for simhash-v2's step 2: splits (folded) text into exactly the terms Lucene's
 * {@link StandardTokenizer} with its default settings emits, for texts made only of a small set of
 * characters whose Unicode word-break behaviour (UAX #29 as compiled into Lucene's scanner, Unicode 9)
 * is known here and pinned by {@code FastWordTokenizerTest} against the real tokenizer. For any other
 * text it emits nothing and says so, and the caller uses {@link StandardTokenizer}.
 *
 * <p>The supported characters and how they behave:
 * <ul>
 *   <li>letters (WB ALetter): ASCII letters, U+00AA, U+00B5, U+00BA, U+00C0-U+00FF except U+00D7 and
 *       U+00F7, U+3005;</li>
 *   <li>digits (WB Numeric): {@code 0-9};</li>
 *   <li>connectors (WB ExtendNumLet): {@code _}, U+202F, U+203F, U+2040, U+2054;</li>
 *   <li>between letters only (WB MidLetter): {@code :}, U+00B7, U+2027;</li>
 *   <li>between digits only (WB MidNum): {@code ,} {@code ;} U+2044;</li>
 *   <li>between letters or between digits (WB MidNumLet and Single_Quote): {@code .} {@code '} U+2018,
 *       U+2019, U+2024;</li>
 *   <li>one token per character (Han script): U+3007, U+3400-U+4DB5, U+4E00-U+9FD5;</li>
 *   <li>one token per character (emoji): U+00A9, U+00AE, and the supplementary pictographs
 *       U+1F300-U+1F3FA, U+1F400-U+1F53D, U+1F546-U+1F64F, U+1F680-U+1F6FF (as surrogate pairs);
 *       U+FE0E (text presentation selector) right after one of these (or after such selectors after one)
 *       is dropped, as Lucene does; anywhere else it is unsupported, as are the emoji modifiers, joiners,
 *       tags and U+FE0F that would join emoji into longer tokens;</li>
 *   <li>breaks, never part of a token: every other character of U+0000-U+00FF except U+00AD (format,
 *       unsupported); U+2000-U+200B, U+2010-U+2017, U+201A-U+2023, U+2025, U+2026,
 *       U+2028, U+2029, U+2030-U+203B, U+203D, U+203E,
 *       U+2041-U+2043, U+2045-U+2048, U+204A-U+2053, U+2055-U+205F; U+3000-U+3004, U+3006,
 *       U+3008-U+3020.</li>
 * </ul>
 *
 * <p>A token is a maximal run of letters, digits and connectors that holds at least one letter or
 * digit, where a MidLetter (MidNum) character also joins when it sits between two letters (digits), and
 * MidNumLet either way (UAX #29 rules WB5-WB13b). Connector runs with no letter or digit are no token.
 * Like Lucene's scanner, which looks at no more than 255 characters from where a token starts, a token
 * is the longest one within the 255 characters starting at its first character: longer words are cut
 * into pieces of at most 255 characters, and each piece after a cut starts afresh (so a Mid character right
 * at a cut is not joined and is dropped, and a run of more than 254 connectors before a letter keeps
 * only its last 254). The same holds for other maximum token lengths (Lucene sizes its scanner buffer
 * to it), except that a one-character buffer cannot hold an emoji's surrogate pair: such texts are
 * declined. Stateless and thread-safe.
 */
public final class FastWordTokenizer {

    /** Receives each token as a range of the tokenized buffer (valid only during the call). */
    public interface Sink {
        void token(char[] text, int start, int length);
    }

    /** StandardTokenizer's default maximum token length (its scanner's buffer size). */
    static final int DEFAULT_MAX_TOKEN_LENGTH = 255;

    // character classes; 0 marks characters the fast path does not know
    static final byte UNSUPPORTED = 0;
    static final byte BREAK = 1;
    static final byte LETTER = 2;
    static final byte DIGIT = 3;
    static final byte CONNECTOR = 4;
    static final byte MID_LETTER = 5;
    static final byte MID_NUM = 6;
    static final byte MID_NUM_LET = 7;
    /** A token of its own: Han ideographs. */
    static final byte HAN = 8;
    /** A token of its own, and a text presentation selector after it is dropped: emoji. */
    static final byte EMOJI = 9;
    /** High surrogate of a supported emoji (checked with its low surrogate). */
    static final byte EMOJI_HIGH = 10;
    /** U+FE0E text presentation selector: supported only after an emoji (or another such selector after one). */
    static final byte TEXT_PRESENTATION = 11;

    /** The word-break class of each char (one of the constants above). */
    static final byte[] CLASSES = classes();

    /** Supplementary code points from this one on, in {@link #EMOJI_SUPPLEMENTARY}. */
    private static final int EMOJI_SUPPLEMENTARY_BASE = 0x1F300;
    private static final boolean[] EMOJI_SUPPLEMENTARY = emojiSupplementary();

    private FastWordTokenizer() {}

    /**
     * Emits exactly the terms {@link StandardTokenizer} (default maximum token length) emits for
     * {@code text[0..length)}, in order, and returns true; or emits nothing and returns false when the text
     * holds a character this class does not support.
     */
    public static boolean tokenize(char[] text, int length, Sink sink) {
        return tokenize(text, length, DEFAULT_MAX_TOKEN_LENGTH, sink);
    }

    /** As {@link #tokenize(char[], int, Sink)} for a StandardTokenizer with the given maximum token length. */
    static boolean tokenize(char[] text, int length, int maxTokenLength, Sink sink) {
        if (length < 0 || length > text.length) {
            throw new IndexOutOfBoundsException("length " + length + " for a buffer of " + text.length);
        }
        if (maxTokenLength < 1) {
            throw new IllegalArgumentException("maxTokenLength must be greater than zero");
        }
        if (!supported(text, length, maxTokenLength)) {
            return false;
        }
        emit(text, length, maxTokenLength, sink);
        return true;
    }

    /** The tokens of a supported text (the scalar rules, one character at a time). */
    static void emit(char[] text, int length, int maxTokenLength, Sink sink) {
        final byte[] classes = CLASSES;
        int s = 0;
        while (s < length) {
            byte c = classes[text[s]];
            if (c < LETTER || c > CONNECTOR) {
                if (c == HAN || c == EMOJI) {
                    sink.token(text, s, 1);
                    s++;
                } else if (c == EMOJI_HIGH) {
                    sink.token(text, s, 2);
                    s += 2;
                } else {
                    s++; // breaks, Mid* characters outside a token, text presentation selectors after emoji
                }
                continue;
            }
            int i = s;
            if (c == CONNECTOR) {
                // connectors only make a token together with a letter or digit that follows them
                do {
                    i++;
                } while (i < length && classes[text[i]] == CONNECTOR);
                byte next = i < length ? classes[text[i]] : BREAK;
                if (next != LETTER && next != DIGIT) {
                    s = i; // no token starts anywhere in this run
                    continue;
                }
                // the scanner sees at most maxTokenLength characters from the start: the earliest start
                // whose window still reaches the letter or digit
                s = Math.max(s, i - (maxTokenLength - 1));
            }
            final int limit = (int) Math.min(length, (long) s + maxTokenLength);
            i++;
            while (i < limit) {
                byte k = classes[text[i]];
                if (k >= LETTER && k <= CONNECTOR) {
                    i++;
                    continue;
                }
                if (k >= MID_LETTER && k <= MID_NUM_LET && i + 1 < limit) {
                    // a Mid character joins two letters (MidLetter, MidNumLet) or two digits (MidNum, MidNumLet)
                    if (joins(k, classes[text[i - 1]], classes[text[i + 1]])) {
                        i += 2;
                        continue;
                    }
                }
                break;
            }
            sink.token(text, s, i - s);
            s = i;
        }
    }

    /**
     * Whether a character of class {@code k} joins the characters of classes {@code before} and {@code after}
     * around it into one token: a MidLetter or MidNumLet between two letters, a MidNum or MidNumLet between
     * two digits (UAX #29 WB6/7, WB11/12).
     */
    static boolean joins(byte k, byte before, byte after) {
        return k >= MID_LETTER && k <= MID_NUM_LET && before == after
            && (before == LETTER ? k != MID_NUM : before == DIGIT && k != MID_LETTER);
    }

    /** Whether every character of the text is in the supported set (in its context, for the few that need one). */
    private static boolean supported(char[] text, int length, int maxTokenLength) {
        final byte[] classes = CLASSES;
        for (int i = 0; i < length; i++) {
            byte c = classes[text[i]];
            if (c >= EMOJI_HIGH) {
                if (c == EMOJI_HIGH) {
                    // Lucene's scanner cannot hold a surrogate pair in a one-character buffer
                    if (i + 1 == length || maxTokenLength < 2 || !Character.isLowSurrogate(text[i + 1])) {
                        return false;
                    }
                    int cp = Character.toCodePoint(text[i], text[i + 1]) - EMOJI_SUPPLEMENTARY_BASE;
                    if (cp < 0 || cp >= EMOJI_SUPPLEMENTARY.length || !EMOJI_SUPPLEMENTARY[cp]) {
                        return false;
                    }
                    i++;
                } else {
                    // only where Lucene drops it: after an emoji, possibly after more such selectors
                    int j = i - 1;
                    while (j >= 0 && text[j] == '\uFE0E') {
                        j--;
                    }
                    // a low surrogate before it was checked above as the end of a supported emoji
                    if (j < 0 || (classes[text[j]] != EMOJI && !Character.isLowSurrogate(text[j]))) {
                        return false;
                    }
                }
            } else if (c == UNSUPPORTED) {
                return false;
            }
        }
        return true;
    }

    /** The class of one character: {@link #UNSUPPORTED} for characters outside the supported set. */
    static byte classOf(char c) {
        return CLASSES[c];
    }

    private static byte[] classes() {
        byte[] t = new byte[0x10000];
        // Latin-1: breaks except the characters set below
        fill(t, 0x0000, 0x00FF, BREAK);
        t[0x00A9] = EMOJI; // (c)
        t[0x00AE] = EMOJI; // (r)
        t[0x00AD] = UNSUPPORTED; // soft hyphen: Format, attaches to what precedes it
        fill(t, 'a', 'z', LETTER);
        fill(t, 'A', 'Z', LETTER);
        t[0x00AA] = LETTER;
        t[0x00B5] = LETTER;
        t[0x00BA] = LETTER;
        fill(t, 0x00C0, 0x00FF, LETTER);
        t[0x00D7] = BREAK; // multiplication sign
        t[0x00F7] = BREAK; // division sign
        fill(t, '0', '9', DIGIT);
        t['_'] = CONNECTOR;
        t[':'] = MID_LETTER;
        t[0x00B7] = MID_LETTER; // middle dot
        t[','] = MID_NUM;
        t[';'] = MID_NUM;
        t['.'] = MID_NUM_LET;
        t['\''] = MID_NUM_LET; // Single_Quote behaves as MidNumLet outside Hebrew

        // General Punctuation
        fill(t, 0x2000, 0x200B, BREAK); // spaces, zero width space
        fill(t, 0x2010, 0x2017, BREAK); // dashes, double vertical line
        t[0x2018] = MID_NUM_LET; // left single quotation mark
        t[0x2019] = MID_NUM_LET; // right single quotation mark
        fill(t, 0x201A, 0x2023, BREAK); // quotation marks, daggers, bullets
        t[0x2024] = MID_NUM_LET; // one dot leader
        t[0x2025] = BREAK;
        t[0x2026] = BREAK; // horizontal ellipsis
        t[0x2027] = MID_LETTER; // hyphenation point
        t[0x2028] = BREAK; // line separator
        t[0x2029] = BREAK; // paragraph separator
        t[0x202F] = CONNECTOR; // narrow no-break space
        fill(t, 0x2030, 0x203B, BREAK);
        t[0x203D] = BREAK;
        t[0x203E] = BREAK;
        t[0x203F] = CONNECTOR;
        t[0x2040] = CONNECTOR;
        fill(t, 0x2041, 0x2043, BREAK);
        t[0x2044] = MID_NUM; // fraction slash
        fill(t, 0x2045, 0x2048, BREAK);
        fill(t, 0x204A, 0x2053, BREAK);
        t[0x2054] = CONNECTOR;
        fill(t, 0x2055, 0x205F, BREAK);

        // CJK Symbols and Punctuation
        fill(t, 0x3000, 0x3004, BREAK); // ideographic space, 、 。 〃 〄
        t[0x3005] = LETTER; // 々
        t[0x3006] = BREAK; // 〆
        t[0x3007] = HAN; // 〇
        fill(t, 0x3008, 0x3020, BREAK); // brackets 〈〉《》「」『』【】〔〕..., 〜, quotation marks

        // Han ideographs (Unicode 9 ranges of the blocks)
        fill(t, 0x3400, 0x4DB5, HAN);
        fill(t, 0x4E00, 0x9FD5, HAN);

        // emoji in the supplementary planes: their high surrogates (the pair is checked in EMOJI_SUPPLEMENTARY)
        t[0xD83C] = EMOJI_HIGH;
        t[0xD83D] = EMOJI_HIGH;
        t[0xFE0E] = TEXT_PRESENTATION;
        return t;
    }

    /**
     * Pictographs that are one token each (Lucene's emoji rule) as long as no modifier, joiner, tag or
     * emoji presentation selector follows, which are all unsupported: U+1F300-U+1F3FA, U+1F400-U+1F53D,
     * U+1F546-U+1F64F, U+1F680-U+1F6FF.
     */
    private static boolean[] emojiSupplementary() {
        boolean[] t = new boolean[0x1F700 - EMOJI_SUPPLEMENTARY_BASE];
        int[][] ranges = {{0x1F300, 0x1F3FA}, {0x1F400, 0x1F53D}, {0x1F546, 0x1F64F}, {0x1F680, 0x1F6FF}};
        for (int[] r : ranges) {
            for (int cp = r[0]; cp <= r[1]; cp++) {
                t[cp - EMOJI_SUPPLEMENTARY_BASE] = true;
            }
        }
        return t;
    }

    private static void fill(byte[] t, int from, int to, byte c) {
        for (int i = from; i <= to; i++) {
            t[i] = c;
        }
    }
}
