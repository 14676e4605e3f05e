package dev.simhash.core;

import org.apache.lucene.analysis.standard.StandardTokenizer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@link FastWordTokenizer} against the real {@link StandardTokenizer}: every expected token list here
 * comes from Lucene (or is written out by hand), never from the class under test.
 */
class FastWordTokenizerTest {

    // ---- the reference: Lucene's StandardTokenizer, one instance per maximum token length ----

    private final Map<Integer, StandardTokenizer> lucene = new HashMap<>();

    private List<String> lucene(String s, int maxTokenLength) {
        StandardTokenizer t = lucene.computeIfAbsent(maxTokenLength, n -> {
            StandardTokenizer st = new StandardTokenizer();
            if (n != 255) {
                st.setMaxTokenLength(n);
            }
            return st;
        });
        assertEquals(maxTokenLength, t.getMaxTokenLength());
        List<String> out = new ArrayList<>();
        try {
            t.setReader(new StringReader(s));
            CharTermAttribute term = t.addAttribute(CharTermAttribute.class);
            t.reset();
            while (t.incrementToken()) {
                out.add(term.toString());
            }
            t.end();
            t.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    // ---- the class under test, seen through a String API ----

    /** A tokenizer implementation: the tokens, or null when it declines the text. */
    private interface Impl {
        List<String> tokens(String s, int maxTokenLength);
    }

    /**
     * Runs the fast tokenizer on a buffer longer than the text whose tail holds a letter and an
     * unsupported character: reading past {@code length} would change the tokens or the answer.
     */
    private static List<String> fast(String s, int maxTokenLength) {
        char[] buf = new char[s.length() + 3];
        s.getChars(0, s.length(), buf, 0);
        buf[s.length()] = 'x';
        buf[s.length() + 1] = '\u0301';
        buf[s.length() + 2] = 'x';
        List<String> out = new ArrayList<>();
        boolean ok = FastWordTokenizer.tokenize(buf, s.length(), maxTokenLength, (text, start, length) -> {
            assertSame(buf, text);
            assertTrue(start >= 0 && length > 0 && start + length <= s.length(), "token range");
            out.add(new String(text, start, length));
        });
        if (!ok) {
            assertTrue(out.isEmpty(), "tokens emitted before returning false");
            return null;
        }
        return out;
    }

    private static final Impl FAST = FastWordTokenizerTest::fast;

    // ---- the supported set, written out independently of the class under test ----

    /** BMP characters the fast path must accept wherever they are (and no others, but for U+FE0E). */
    static boolean supported(char c) {
        if (c <= 0x00FF) {
            return c != 0x00AD;
        }
        return (c >= 0x2000 && c <= 0x200B)
            || (c >= 0x2010 && c <= 0x2029)
            || (c >= 0x202F && c <= 0x203B)
            || (c >= 0x203D && c <= 0x2048)
            || (c >= 0x204A && c <= 0x205F)
            || (c >= 0x3000 && c <= 0x3020)
            || (c >= 0x3400 && c <= 0x4DB5)
            || (c >= 0x4E00 && c <= 0x9FD5);
    }

    /** Supplementary code points the fast path must accept (emoji, one token each). */
    static boolean supportedSupplementary(int cp) {
        return (cp >= 0x1F300 && cp <= 0x1F3FA)
            || (cp >= 0x1F400 && cp <= 0x1F53D)
            || (cp >= 0x1F546 && cp <= 0x1F64F)
            || (cp >= 0x1F680 && cp <= 0x1F6FF);
    }

    /**
     * Whether the fast path must accept the text: every code point supported, where U+FE0E (text
     * presentation selector) counts only right after an emoji (or after such selectors after one), and
     * emoji need a scanner buffer that holds a surrogate pair.
     */
    static boolean allSupported(String s, int maxTokenLength) {
        int previous = -1; // the last code point other than U+FE0E
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            i += Character.charCount(cp);
            if (cp == 0xFE0E) {
                if (!(previous == 0x00A9 || previous == 0x00AE || supportedSupplementary(previous))) {
                    return false;
                }
                continue;
            }
            if (cp > 0xFFFF ? !supportedSupplementary(cp) || maxTokenLength < 2 : !supported((char) cp)) {
                return false;
            }
            previous = cp;
        }
        return true;
    }

    /**
     * Compares an implementation with Lucene on the inputs: null when they agree on all (and the
     * implementation declines exactly the texts with an unsupported character), else the first difference.
     */
    private String firstMismatch(Impl impl, Iterable<String> inputs, int maxTokenLength) {
        for (String s : inputs) {
            String m = mismatch(impl, s, maxTokenLength);
            if (m != null) {
                return m;
            }
        }
        return null;
    }

    private String mismatch(Impl impl, String s, int maxTokenLength) {
        List<String> got = impl.tokens(s, maxTokenLength);
        boolean shouldAccept = allSupported(s, maxTokenLength);
        if (got == null) {
            return shouldAccept ? "declined a supported text " + show(s) : null;
        }
        if (!shouldAccept) {
            return "accepted a text with an unsupported character " + show(s);
        }
        List<String> want = lucene(s, maxTokenLength);
        if (!want.equals(got)) {
            return "max " + maxTokenLength + " text " + show(s) + "\n lucene " + showAll(want) + "\n fast   " + showAll(got);
        }
        return null;
    }

    private static String show(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= 0x20 && c < 0x7F) {
                sb.append(c);
            } else {
                sb.append(String.format("\\u%04X", (int) c));
            }
        }
        return sb.append("\" (").append(s.length()).append(" chars)").toString();
    }

    private static String showAll(List<String> tokens) {
        List<String> out = new ArrayList<>();
        for (String t : tokens) {
            out.add(t.length() > 40 ? show(t) : show(t).replaceAll(" \\(\\d+ chars\\)$", ""));
        }
        return out.toString();
    }

    private void assertAgrees(String s) {
        assertAgrees(s, 255);
    }

    private void assertAgrees(String s, int maxTokenLength) {
        String m = mismatch(FAST, s, maxTokenLength);
        if (m != null) {
            fail(m);
        }
    }

    // ---- hand-written cases: what Lucene does, written out ----

    @Test
    void handWrittenCasesMatchLuceneAndTheFastPath() {
        Object[][] cases = {
            {"", List.of()},
            {" \t\n\r  ", List.of()},
            {"hello world", List.of("hello", "world")},
            {"abc123", List.of("abc123")},
            {"123abc", List.of("123abc")},
            {"1.5", List.of("1.5")},
            {"1,000.5", List.of("1,000.5")},
            {"1,,000", List.of("1", "000")},
            {"a,b", List.of("a", "b")},
            {"1;2", List.of("1;2")},
            {"a.b", List.of("a.b")},
            {"a..b", List.of("a", "b")},
            {"e.g.", List.of("e.g")},
            {"don't", List.of("don't")},
            {"don\u2019t", List.of("don\u2019t")},
            {"don\u2018t", List.of("don\u2018t")},
            {"'quoted'", List.of("quoted")},
            {"x_y", List.of("x_y")},
            {"_x", List.of("_x")},
            {"x_", List.of("x_")},
            {"___", List.of()},
            {"'", List.of()},
            {"_._", List.of()},
            {"a_.b", List.of("a_", "b")},
            {"1_a", List.of("1_a")},
            {"3:30", List.of("3", "30")},
            {"a:b", List.of("a:b")},
            {"a\u00B7b", List.of("a\u00B7b")},
            {"a1.b", List.of("a1", "b")},
            {"a1.2", List.of("a1.2")},
            {"1a.b", List.of("1a.b")},
            {"a.1", List.of("a", "1")},
            {"中文abc", List.of("中", "文", "abc")},
            {"中1中", List.of("中", "1", "中")},
            {"它是“你好”。", List.of("它", "是", "你", "好")},
            {"《三国》、【注】——好…", List.of("三", "国", "注", "好")},
            {"二〇二三年", List.of("二", "〇", "二", "三", "年")},
            {"café naïve straße", List.of("café", "naïve", "straße")},
            {"2×3", List.of("2", "3")},
            {"a\u202Fb", List.of("a\u202Fb")},
            {"a\u00A9b \u00AE", List.of("a", "\u00A9", "b", "\u00AE")},
            {"索引  \uD83D\uDD0E\uFE0E ", List.of("索", "引", "\uD83D\uDD0E")},
            {"\uD83D\uDE00\uD83D\uDE00x", List.of("\uD83D\uDE00", "\uD83D\uDE00", "x")},
        };
        for (Object[] c : cases) {
            String s = (String) c[0];
            assertEquals(c[1], lucene(s, 255), "lucene on " + show(s));
            assertEquals(c[1], fast(s, 255), "fast on " + show(s));
        }
    }

    @Test
    void longTokensAreCutAt255LikeLucene() {
        String a300 = "a".repeat(300);
        // Lucene's scanner sees 255 characters from a token's start: a 300-letter word is cut, not dropped
        assertEquals(List.of("a".repeat(255), "a".repeat(45)), lucene(a300, 255));
        assertEquals(List.of("a".repeat(255), "a".repeat(45)), fast(a300, 255));
        // a run of 300 connectors before a letter keeps only its last 254
        String u = "_".repeat(300) + "a";
        assertEquals(List.of("_".repeat(254) + "a"), lucene(u, 255));
        assertEquals(List.of("_".repeat(254) + "a"), fast(u, 255));
        // a MidLetter character just past the window is not joined, and starts no token
        String m = "a".repeat(254) + ".b";
        assertEquals(List.of("a".repeat(254), "b"), lucene(m, 255));
        assertEquals(List.of("a".repeat(254), "b"), fast(m, 255));
        for (int n = 250; n <= 260; n++) {
            for (String tail : new String[] {"", ".b", ".1", "1.2", "_", "__b", "'s", " x", "中", ",5"}) {
                for (String unit : new String[] {"a", "1", "ab_", "1.", "a.", "_", "é"}) {
                    String s = unit.repeat(n / unit.length() + 1).substring(0, n) + tail;
                    assertAgrees(s);
                    assertAgrees("x " + s + tail + s);
                }
            }
        }
        assertAgrees("a".repeat(100_000));
        assertAgrees("1,".repeat(1_000));
        assertAgrees("_".repeat(1_000) + "1");
    }

    // ---- every supported character, and a sample of unsupported ones, in contexts ----

    private static final String[] CONTEXTS = {
        "#", "##", "###", "a#b", "1#2", "a#", "#a", "1#", "#1", "_#_", "a#1", "1#a", "a##b", "1##2",
        "a_#b", "a#_b", "1_#2", "中#中", "#中", "中#", " # ", "a#b#c", "1#2#3", "é#é", "'#'", ".#.", "a.#", "#.a",
        "#\uFE0E", "#\uFE0Ea", "a#\uFE0E", "#\uFE0E\uFE0E#", "\uD83D\uDD0E#", "#\uD83D\uDD0E", "\u00A9#\u00A9",
    };

    @Test
    void everyBmpCharacterInContexts() {
        int accepted = 0;
        for (int cp = 0; cp < 0x10000; cp++) {
            char c = (char) cp;
            List<String> alone = fast(String.valueOf(c), 255);
            assertEquals(allSupported(String.valueOf(c), 255), alone != null, "acceptance of " + show(String.valueOf(c)));
            if (alone == null) {
                continue;
            }
            accepted++;
            for (String ctx : CONTEXTS) {
                assertAgrees(ctx.replace("#", String.valueOf(c)));
            }
        }
        // ASCII and Latin-1 less three, punctuation, and the Han ranges
        assertTrue(accepted > 27_000, "accepted " + accepted);
    }

    @Test
    void everySupplementaryEmojiNearbyInContexts() {
        int accepted = 0;
        for (int cp = 0x1F200; cp < 0x1FA00; cp++) {
            String e = Character.toString(cp);
            List<String> alone = fast(e, 255);
            assertEquals(supportedSupplementary(cp), alone != null, "acceptance of " + show(e));
            if (alone == null) {
                continue;
            }
            accepted++;
            for (String ctx : CONTEXTS) {
                assertAgrees(ctx.replace("#", e));
            }
            for (int max = 1; max <= 3; max++) {
                assertAgrees("a" + e + "\uFE0E" + e + "1", max);
            }
        }
        assertEquals(0x1F3FA - 0x1F300 + 1 + 0x1F53D - 0x1F400 + 1 + 0x1F64F - 0x1F546 + 1 + 0x1F6FF - 0x1F680 + 1, accepted);
    }

    @Test
    void unsupportedCharactersAreDeclinedAnywhere() {
        String[] unsupported = {
            "\u00AD", "\uFE0E", "\uFE0F", "\uD83C\uDFFB", "\uD83D\uDD3E", "\u0301", "\u200D", "\u200C", "\uFEFF", "\u3041", "\u30A2", "\uAC00",
            "\u0E01", "\u05D0", "\u0430", "\u2122", "\uFF0C", "\uD83E\uDD14", "\uD83D", "\uDE00", "\u3005\u3099", "\u303D",
        };
        for (String u : unsupported) {
            for (String s : new String[] {u, "a" + u, u + "a", "hello world " + u, u + " 中文", "1" + u + "2"}) {
                assertNull(fast(s, 255), "accepted " + show(s));
            }
        }
    }

    // ---- exhaustive short strings over one representative per class ----

    /** One character per class the fast path distinguishes, and per Lucene class behind it. */
    private static final char[] REPRESENTATIVES = {'a', '1', '_', ':', ',', '.', '\'', ' ', '中', '\u3002', '\u00A9', '\uFE0E'};

    static List<String> allStrings(char[] alphabet, int maxLength) {
        List<String> out = new ArrayList<>();
        out.add("");
        List<String> level = List.of("");
        for (int len = 1; len <= maxLength; len++) {
            List<String> next = new ArrayList<>();
            for (String p : level) {
                for (char c : alphabet) {
                    next.add(p + c);
                }
            }
            out.addAll(next);
            level = next;
        }
        return out;
    }

    @Test
    void exhaustiveShortStrings() {
        List<String> inputs = allStrings(REPRESENTATIVES, 5);
        assertEquals(271_453, inputs.size());
        for (int max : new int[] {255, 1, 2, 3, 4}) {
            String m = firstMismatch(FAST, inputs, max);
            assertNull(m, m);
        }
        // with unsupported characters mixed in: declined, never a partial answer
        char[] withUnsupported = {'a', '1', '.', ' ', '_', '\u0301', '\u00AD', '\u3041'};
        String m = firstMismatch(FAST, allStrings(withUnsupported, 4), 255);
        assertNull(m, m);
    }

    // ---- randomized differential test ----

    private static final String[] LETTERS = units("abcxyzAZéßàÿªµº\u3005");
    private static final String[] DIGITS = units("0123456789");
    private static final String[] CONNECTORS = units("_\u202F\u203F\u2040\u2054");
    private static final String MID_CHARS = ":\u00B7\u2027,;\u2044.'\u2018\u2019\u2024";
    private static final String[] MIDS = units(MID_CHARS);
    private static final String[] BREAKS = units(" \t\n\r!\"#$%&()*+-/<=>?@[\\]^`{|}~\u00A0\u00D7\u00F7\u00BF\u2014\u2026\u201C\u201D"
        + "\u3000\u3001\u3002\u300A\u300B\u300C\u300D\u3010\u3011\u200B\u2028\u2030\u203B");
    private static final String[] HAN = units("中文字国\u4E00\u9FD5\u3400\u4DB5\u3007");
    private static final String[] EMOJI = {"\u00A9", "\u00AE", "\uD83D\uDD0E", "\uD83D\uDD0E\uFE0E", "\u00A9\uFE0E", "\uD83D\uDE00",
        "\uD83C\uDF00", "\uD83D\uDE80\uFE0E\uFE0E", "\uFE0E"};
    private static final String[] UNSUPPORTED = {"\u00AD", "\u0301", "\u200D", "\u3041", "\u30A2", "\uAC00", "\u0430", "\u05D0",
        "\u2122", "\uFF0C", "\u9FD6", "\uFE0F", "\uD83C\uDFFB", "\uD83D", "\uDE00", "\uD83D\uDD3E", "\uD83E\uDD14"};

    private static String[] units(String chars) {
        return chars.codePoints().mapToObj(Character::toString).toArray(String[]::new);
    }

    private static String pick(Random r, String[] units) {
        return units[r.nextInt(units.length)];
    }

    /** A random text biased to the edges: joins, runs of connectors, words near the token length limit. */
    static String randomText(Random r, int maxTokenLength) {
        int shape = r.nextInt(4);
        int length = switch (shape) {
            case 0 -> r.nextInt(12);
            case 1 -> r.nextInt(60);
            case 2 -> Math.max(0, maxTokenLength - 8 + r.nextInt(20));
            default -> r.nextInt(3 * maxTokenLength + 10);
        };
        StringBuilder sb = new StringBuilder(length);
        // a run keeps to one kind for a while, so long words and long digit groups happen
        String[][] kinds = {LETTERS, DIGITS, CONNECTORS, MIDS, BREAKS, HAN, EMOJI};
        int[] weights = {30, 20, 8, 14, 12, 6, 3};
        int total = 93;
        boolean unsupported = r.nextInt(20) == 0;
        while (sb.length() < length) {
            int w = r.nextInt(total);
            int k = 0;
            while (w >= weights[k]) {
                w -= weights[k];
                k++;
            }
            int run = r.nextInt(4) == 0 ? 1 + r.nextInt(2 * maxTokenLength + 2) : 1 + r.nextInt(4);
            if (k >= 3) {
                run = 1 + r.nextInt(2);
            }
            for (int i = 0; i < run && sb.length() < length; i++) {
                // within a letter or digit run, sprinkle single joins so long joined tokens occur
                if (k < 2 && i > 0 && r.nextInt(8) == 0) {
                    sb.append(pick(r, MIDS));
                }
                sb.append(pick(r, kinds[k]));
            }
        }
        if (unsupported) {
            int at = sb.length() == 0 ? 0 : r.nextInt(sb.length() + 1);
            sb.insert(at, pick(r, UNSUPPORTED));
        }
        return sb.toString();
    }

    private static final long[] SEEDS = {1L, 0x5151_4a5bL, 20261123L, 0xDEADBEEFL};

    /** The fixed seeds and one more, from -Dfastwordtokenizer.seed or the clock. */
    private static long[] seeds() {
        long[] seeds = java.util.Arrays.copyOf(SEEDS, SEEDS.length + 1);
        seeds[SEEDS.length] = Long.getLong("fastwordtokenizer.seed", System.nanoTime());
        return seeds;
    }

    @Test
    void randomizedDifferential() {
        long[] seeds = seeds();
        int cases = 0;
        int declined = 0;
        int cut = 0;
        int joined = 0;
        for (long seed : seeds) {
            Random r = new Random(seed);
            for (int i = 0; i < 5_000; i++) {
                int max = r.nextInt(5) == 0 ? 1 + r.nextInt(12) : 255;
                String s = randomText(r, max);
                String m = mismatch(FAST, s, max);
                if (m != null) {
                    fail("seed " + seed + " (rerun with -Dfastwordtokenizer.seed=" + seed + "), case " + i + ": " + m);
                }
                cases++;
                if (!allSupported(s, max)) {
                    declined++;
                    continue;
                }
                // how often the edges were exercised (counted on Lucene's tokens)
                List<String> want = lucene(s, max);
                if (want.stream().anyMatch(t -> t.length() == max)) {
                    cut++;
                }
                if (want.stream().anyMatch(t -> t.chars().anyMatch(c -> MID_CHARS.indexOf(c) >= 0))) {
                    joined++;
                }
            }
        }
        assertEquals(25_000, cases);
        assertTrue(declined > 500 && declined < 2_500, "declined " + declined);
        assertTrue(cut > 2_000, "texts with a token cut at the maximum length: " + cut);
        assertTrue(joined > 5_000, "texts with a token joined by a Mid character: " + joined);
    }

    // ---- the ASCII fast path: the same tokens as the char path (and Lucene) on every ASCII text ----

    /**
     * Runs the ASCII tokenizer on a byte buffer longer than the text whose tail holds letters and a byte
     * that is no ASCII: reading past {@code length} would change the tokens or throw.
     */
    private static List<String> ascii(String s, int maxTokenLength) {
        byte[] buf = new byte[s.length() + 10];
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            assertTrue(c < 0x80, "not ASCII");
            buf[i] = (byte) c;
        }
        java.util.Arrays.fill(buf, s.length(), buf.length, (byte) 'x');
        buf[s.length() + 1] = (byte) 0xC3;
        buf[buf.length - 1] = (byte) 0xFF;
        List<String> out = new ArrayList<>();
        AsciiWordTokenizer.tokenizeAscii(buf, s.length(), maxTokenLength, (start, length) -> {
            assertTrue(start >= 0 && length > 0 && start + length <= s.length(), "token range");
            out.add(s.substring(start, start + length));
        });
        return out;
    }

    private static final Impl ASCII = FastWordTokenizerTest::ascii;

    /** Null when the ASCII path and the char path agree on the text, else the difference. */
    private static String asciiMismatch(String s, int maxTokenLength) {
        List<String> want = fast(s, maxTokenLength);
        assertNotNull(want, "the char path declined an ASCII text");
        List<String> got = ascii(s, maxTokenLength);
        if (!want.equals(got)) {
            return "max " + maxTokenLength + " text " + show(s) + "\n char  " + showAll(want) + "\n ascii " + showAll(got);
        }
        return null;
    }

    private static void assertAsciiAgrees(String s, int maxTokenLength) {
        String m = asciiMismatch(s, maxTokenLength);
        if (m != null) {
            fail(m);
        }
    }

    /** One ASCII character per class, an upper-case letter, and a break of each kind nearby. */
    private static final char[] ASCII_REPRESENTATIVES = {'a', 'Z', '1', '_', ':', ',', ';', '.', '\'', ' ', '-'};

    @Test
    void asciiExhaustiveShortStrings() {
        List<String> inputs = allStrings(ASCII_REPRESENTATIVES, 5);
        assertEquals(177_156, inputs.size());
        for (int max : new int[] {255, 1, 2, 3, 4, 5}) {
            for (String s : inputs) {
                assertAsciiAgrees(s, max);
            }
        }
        // and against Lucene itself
        for (int max : new int[] {255, 2}) {
            String m = firstMismatch(ASCII, allStrings(ASCII_REPRESENTATIVES, 4), max);
            assertNull(m, m);
        }
    }

    @Test
    void asciiShortStringsAcrossWordAndBlockBoundaries() {
        // every short string placed so that it straddles an 8-byte word or a 64-byte block boundary,
        // after fillers that end in each class
        List<String> inputs = allStrings(ASCII_REPRESENTATIVES, 4);
        String[] fillers = {" ", "a", "1", "_", "a.", "1,"};
        int[] offsets = {5, 6, 7, 8, 9, 61, 62, 63, 64, 65, 66, 125, 126, 127, 128, 129};
        for (String filler : fillers) {
            for (int offset : offsets) {
                String prefix = (" ".repeat(offset - filler.length() - 3) + "x. " + filler);
                assertEquals(offset, prefix.length());
                for (String s : inputs) {
                    assertAsciiAgrees(prefix + s, 255);
                    assertAsciiAgrees(prefix + s + "a1", 255);
                }
            }
        }
    }

    /** A random ASCII text biased to the edges: joins, connector runs, long words, runs ending at block edges. */
    static String randomAscii(Random r, int maxTokenLength) {
        int length = switch (r.nextInt(5)) {
            case 0 -> r.nextInt(20);
            case 1 -> r.nextInt(130);
            case 2 -> Math.max(0, maxTokenLength - 8 + r.nextInt(20));
            case 3 -> 2 * maxTokenLength + r.nextInt(80);
            default -> r.nextInt(3 * maxTokenLength + 140);
        };
        String letters = "abcdefghijklmnopqrstuvwxyzAQZ";
        String digits = "0123456789";
        String mids = ":,;.'";
        StringBuilder sb = new StringBuilder(length);
        while (sb.length() < length) {
            int kind = r.nextInt(100);
            int run = r.nextInt(6) == 0 ? 1 + r.nextInt(2 * maxTokenLength + 2) : 1 + r.nextInt(6);
            if (r.nextInt(8) == 0) {
                // end a run right at a 64-byte block (or 8-byte word) boundary, or one off it
                int unit = r.nextBoolean() ? 64 : 8;
                run = Math.max(1, unit - sb.length() % unit + r.nextInt(3) - 1);
            }
            for (int i = 0; i < run; i++) {
                char c;
                if (kind < 40) {
                    c = r.nextInt(10) == 0 ? mids.charAt(r.nextInt(mids.length())) : letters.charAt(r.nextInt(letters.length()));
                } else if (kind < 60) {
                    c = r.nextInt(6) == 0 ? mids.charAt(r.nextInt(mids.length())) : digits.charAt(r.nextInt(digits.length()));
                } else if (kind < 70) {
                    c = '_';
                } else if (kind < 80) {
                    c = mids.charAt(r.nextInt(mids.length()));
                } else if (kind < 90) {
                    c = " -\n/".charAt(r.nextInt(4));
                } else {
                    c = (char) r.nextInt(0x80); // any ASCII character, controls and NUL included
                }
                sb.append(c);
            }
        }
        return sb.toString();
    }

    @Test
    void asciiRandomizedDifferential() {
        long[] seeds = seeds();
        int cut = 0;
        int longTexts = 0;
        for (long seed : seeds) {
            Random r = new Random(seed);
            for (int i = 0; i < 6_000; i++) {
                int max = r.nextInt(5) == 0 ? 1 + r.nextInt(70) : 255;
                String s = randomAscii(r, max);
                String m = asciiMismatch(s, max);
                if (m == null && i % 10 == 0) {
                    m = mismatch(ASCII, s, max); // against Lucene itself, now and then
                }
                if (m != null) {
                    fail("seed " + seed + " (rerun with -Dfastwordtokenizer.seed=" + seed + "), case " + i + ": " + m);
                }
                if (s.length() > 2 * max + 64) {
                    longTexts++;
                }
                if (fast(s, max).stream().anyMatch(t -> t.length() == max)) {
                    cut++;
                }
            }
        }
        assertTrue(cut > 3_000, "texts with a token cut at the maximum length: " + cut);
        assertTrue(longTexts > 5_000, "texts longer than two maximum tokens and a block: " + longTexts);
    }

    @Test
    void asciiLongRunsAndCuts() {
        for (int n = 1; n <= 600; n++) {
            for (String unit : new String[] {"a", "1", "_", "a_", "1.", "a.", "a:", "1,", "_a", "__a1"}) {
                String w = unit.repeat(n / unit.length() + 1).substring(0, n);
                for (String tail : new String[] {"", " ", ".", ".b", ".1", ",5", "_", "__b", "'s", " x"}) {
                    assertAsciiAgrees(w + tail, 255);
                    assertAsciiAgrees("ab " + w + tail + " " + w, 255);
                }
            }
        }
        for (int max : new int[] {1, 2, 3, 7, 8, 63, 64, 65, 254, 256}) {
            for (String s : new String[] {"a".repeat(700), "_".repeat(700) + "1", "1,".repeat(400), "a_".repeat(350),
                "a.".repeat(300) + "_".repeat(200) + "b", "x " + "9".repeat(max) + ".5 " + "_".repeat(max) + "q"}) {
                assertAsciiAgrees(s, max);
            }
        }
        assertEquals(List.of("a".repeat(255), "a".repeat(45)), ascii("a".repeat(300), 255));
        assertEquals(List.of("_".repeat(254) + "a"), ascii("_".repeat(300) + "a", 255));
        assertEquals(List.of("a".repeat(254), "b"), ascii("a".repeat(254) + ".b", 255));
        assertAsciiAgrees("a".repeat(100_000), 255);
    }

    @Test
    void asciiPublicEntryPointAndBadArguments() {
        byte[] text = "Don't stop: 1,000.5 e.g. x_y __ _z".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        List<String> out = new ArrayList<>();
        AsciiWordTokenizer.tokenizeAscii(text, text.length, (start, length) -> out.add(new String(text, start, length,
            java.nio.charset.StandardCharsets.US_ASCII)));
        assertEquals(List.of("Don't", "stop", "1,000.5", "e.g", "x_y", "_z"), out);
        assertEquals(lucene(new String(text, java.nio.charset.StandardCharsets.US_ASCII), 255), out);
        AsciiWordTokenizer.AsciiSink none = (start, length) -> fail("token");
        AsciiWordTokenizer.tokenizeAscii(new byte[0], 0, none);
        try {
            AsciiWordTokenizer.tokenizeAscii(new byte[3], 4, none);
            fail("length past the buffer");
        } catch (IndexOutOfBoundsException expected) {
            // expected
        }
        for (int at = 0; at < 200; at++) {
            // three full 64-byte blocks read eight bytes at a time, then eight bytes read one at a time; tokens
            // of the blocks before the bad byte may come first
            byte[] b = "ab ".repeat(67).substring(0, 200).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            b[at] = (byte) (at % 2 == 0 ? 0xE9 : 0x80);
            try {
                AsciiWordTokenizer.tokenizeAscii(b, b.length, (start, length) -> { });
                fail("accepted a byte of 0x80 or more at " + at);
            } catch (IllegalArgumentException expected) {
                // expected
            }
        }
    }

    // ---- the harness catches broken variants ----

    /** Inputs the mutant checks run over: the exhaustive set and a random sample. */
    private static List<String> mutantInputs(int maxTokenLength) {
        List<String> inputs = new ArrayList<>(allStrings(REPRESENTATIVES, 4));
        Random r = new Random(42);
        for (int i = 0; i < 2_000; i++) {
            inputs.add(randomText(r, maxTokenLength));
        }
        return inputs;
    }

    @Test
    void brokenVariantsAreCaught() {
        List<String> inputs = mutantInputs(255);
        assertNull(firstMismatch(FAST, inputs, 255));

        // ignores WB11/12's MidNum joins: "1,000" would be two tokens
        Impl noMidNum = (s, max) -> {
            List<String> t = fast(s, max);
            if (t == null) {
                return null;
            }
            List<String> out = new ArrayList<>();
            for (String tok : t) {
                for (String part : tok.split("[,;\u2044]")) {
                    if (!part.isEmpty()) {
                        out.add(part);
                    }
                }
            }
            return out;
        };
        assertNotNull(firstMismatch(noMidNum, inputs, 255));

        // a scanner window one character too long
        Impl offByOne = (s, max) -> fast(s, max + 1);
        assertNotNull(firstMismatch(offByOne, inputs, 255));
        assertNotNull(firstMismatch(offByOne, allStrings(REPRESENTATIVES, 4), 2));

        // cuts long tokens into pieces without starting afresh: drops leading connectors of every piece
        Impl noLeadingConnectors = (s, max) -> {
            List<String> t = fast(s, max);
            if (t == null) {
                return null;
            }
            List<String> out = new ArrayList<>();
            for (String tok : t) {
                String stripped = tok.replaceFirst("^_+", "");
                if (!stripped.isEmpty()) {
                    out.add(stripped);
                }
            }
            return out;
        };
        assertNotNull(firstMismatch(noLeadingConnectors, inputs, 255));

        // declines a supported character, or accepts an unsupported one
        Impl declinesEmDash = (s, max) -> s.indexOf('\u2014') >= 0 ? null : fast(s, max);
        assertNotNull(firstMismatch(declinesEmDash, List.of("a\u2014b"), 255));
        Impl acceptsSoftHyphen = (s, max) -> fast(s.replace("\u00AD", ""), max);
        assertNotNull(firstMismatch(acceptsSoftHyphen, List.of("ab\u00ADc"), 255));
    }

    @Test
    void rejectsBadArguments() {
        char[] buf = "abc".toCharArray();
        List<String> out = new ArrayList<>();
        FastWordTokenizer.Sink sink = (t, s, l) -> out.add(new String(t, s, l));
        try {
            FastWordTokenizer.tokenize(buf, 4, sink);
            fail("length past the buffer");
        } catch (IndexOutOfBoundsException expected) {
            // expected
        }
        assertTrue(FastWordTokenizer.tokenize(buf, 0, sink));
        assertTrue(out.isEmpty());
        assertTrue(FastWordTokenizer.tokenize(buf, 2, sink));
        assertEquals(List.of("ab"), out);
        assertFalse(FastWordTokenizer.tokenize("a\u0301".toCharArray(), 2, sink));
        assertEquals(List.of("ab"), out);
    }
}
