package dev.simhash.bench;

import dev.simhash.core.CharFolding;
import dev.simhash.core.SimHash;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The truth of a natural-near-duplicate corpus: exact Jaccard similarity of shingle sets. English:
 * word n-grams of the lower-cased letter/digit runs; Chinese: character n-grams of the letters and
 * digits of the text after NFKC, lowercase and traditional/variant-to-simplified folling (so that a
 * zh_TW page and its zh_CN original are compared as the same text, as a reader would). Every pair
 * with J >= {@value #MIN_STORED} is found exactly with the prefix filter of All-Pairs (Bayardo et
 * al. 2007: ordering shingles by rarity, a pair with J >= t must share one of the first
 * |x| - ceil(t|x|) + 1 shingles of each set); any other pair can be measured on demand.
 */
public final class Truth {

    static final double MIN_STORED = 0.5;
    static final double NEAR = 0.8;
    static final double UNRELATED = 0.2;

    /** Sorted distinct shingle hashes per document. */
    final long[][] shingles;
    /** Pairs with J >= {@value #MIN_STORED}, packed (i << 20 | j) << 23 | round(J * 2^23 - 1), sorted. */
    final long[] pairs;
    final int nearPairs;
    final int greyPairs;

    private Truth(long[][] shingles, long[] pairs) {
        this.shingles = shingles;
        this.pairs = pairs;
        int near = 0;
        for (long p : pairs) {
            if (jaccardOf(p) >= NEAR) {
                near++;
            }
        }
        this.nearPairs = near;
        this.greyPairs = pairs.length - near;
    }

    static int first(long packed) {
        return (int) (packed >>> 43);
    }

    static int second(long packed) {
        return (int) ((packed >>> 23) & 0xFFFFF);
    }

    static double jaccardOf(long packed) {
        return (packed & 0x7FFFFF) / (double) 0x7FFFFF;
    }

    /** Exact Jaccard of documents i and j. */
    double jaccard(int i, int j) {
        return jaccard(shingles[i], shingles[j]);
    }

    static double jaccard(long[] a, long[] b) {
        int x = 0;
        int y = 0;
        int common = 0;
        while (x < a.length && y < b.length) {
            if (a[x] == b[y]) {
                common++;
                x++;
                y++;
            } else if (a[x] < b[y]) {
                x++;
            } else {
                y++;
            }
        }
        int union = a.length + b.length - common;
        return union == 0 ? 0 : common / (double) union;
    }

    /** The units a truth's shingles are made of. */
    enum Unit {
        /** Words: English, lower-cased letter/digit runs; Chinese, the plugin's tokens (one per Han character, other runs whole). */
        WORD,
        /** Characters: every letter or digit after folding, Latin letters included. */
        CHAR,
        /** Han characters one by one, any other run of letters and digits (Latin words, numbers) as one unit. */
        CHAR_LATIN_WORDS
    }

    /**
     * A truth: its name, its unit and its shingle size, one at every length; {@code n} = 0 is today's truth
     * ({@code adaptive}): the corpus's own shingle size (5 for long texts, 2 for short), words for English and
     * characters (or, with {@code --zh-truth-latin-words}, characters and Latin words) for Chinese.
     */
    record Spec(String name, Unit unit, int n, String description) {
        boolean adaptive() {
            return n == 0;
        }

        /** The unit and shingle size this truth gives a corpus. */
        Unit unitFor(NaturalCorpora.Corpus c, boolean zhLatinWords) {
            if (!adaptive()) {
                return unit;
            }
            return c.lang() == NaturalCorpora.Lang.EN ? Unit.WORD : zhLatinWords ? Unit.CHAR_LATIN_WORDS : Unit.CHAR;
        }

        int nFor(NaturalCorpora.Corpus c) {
            return adaptive() ? c.shingle() : n;
        }
    }

    static final Spec ADAPTIVE = new Spec("adaptive", null, 0,
        "today's truth: word 5-shingles (en) / char 5-grams (zh) for the long-text corpora, 2-shingles / 2-grams for the short ones");

    /** Every truth with one unit at every length, after today's. */
    static final List<Spec> SPECS = List.of(
        ADAPTIVE,
        new Spec("char3", Unit.CHAR, 3, "character 3-grams after folding, Latin letters counted as characters"),
        new Spec("char5", Unit.CHAR, 5, "character 5-grams after folding, Latin letters counted as characters"),
        new Spec("char3-latinwords", Unit.CHAR_LATIN_WORDS, 3, "3-grams of Han characters and whole Latin words (English: words, folded)"),
        new Spec("char5-latinwords", Unit.CHAR_LATIN_WORDS, 5, "5-grams of Han characters and whole Latin words (English: words, folded)"),
        new Spec("word3", Unit.WORD, 3, "word 3-shingles (Chinese: the plugin's tokens, one per Han character)"),
        new Spec("word5", Unit.WORD, 5, "word 5-shingles (Chinese: the plugin's tokens, one per Han character)"));

    static Spec spec(String name) {
        return SPECS.stream().filter(s -> s.name().equals(name)).findFirst()
            .orElseThrow(() -> new IllegalArgumentException("unknown truth [" + name + "], expected some of "
                + SPECS.stream().map(Spec::name).toList()));
    }

    /** Shingle hashes of one text, sorted and distinct. */
    static long[] shingles(String text, NaturalCorpora.Lang lang, int n) {
        return shingles(text, lang, n, false);
    }

    /**
     * Shingle hashes of one text, sorted and distinct; {@code latinWords}: Chinese texts take runs of non-Han letters
     * and digits as one unit (a word), as the English truth and simhash-v2's tokens do, instead of one unit per letter.
     */
    static long[] shingles(String text, NaturalCorpora.Lang lang, int n, boolean latinWords) {
        Unit unit = lang == NaturalCorpora.Lang.EN ? Unit.WORD : latinWords ? Unit.CHAR_LATIN_WORDS : Unit.CHAR;
        return shingles(text, lang, unit, n);
    }

    /** The units of one text, in order. */
    static List<String> units(String text, NaturalCorpora.Lang lang, Unit unit) {
        List<String> units = new ArrayList<>();
        if (unit == Unit.WORD && lang == NaturalCorpora.Lang.EN) {
            String lower = text.toLowerCase(Locale.ROOT);
            int i = 0;
            while (i < lower.length()) {
                int cp = lower.codePointAt(i);
                if (Character.isLetterOrDigit(cp)) {
                    int s = i;
                    while (i < lower.length() && Character.isLetterOrDigit(lower.codePointAt(i))) {
                        i += Character.charCount(lower.codePointAt(i));
                    }
                    units.add(lower.substring(s, i));
                } else {
                    i += Character.charCount(cp);
                }
            }
        } else if (unit != Unit.CHAR) {
            // Han characters one by one, any other run of letters and digits (Latin, Cyrillic, numbers) as one word
            String f = CharFolding.fold(text);
            int i = 0;
            while (i < f.length()) {
                int cp = f.codePointAt(i);
                if (!Character.isLetterOrDigit(cp)) {
                    i += Character.charCount(cp);
                } else if (Character.UnicodeScript.of(cp) == Character.UnicodeScript.HAN) {
                    units.add(new String(Character.toChars(cp)));
                    i += Character.charCount(cp);
                } else {
                    int s = i;
                    while (i < f.length() && Character.isLetterOrDigit(f.codePointAt(i))
                        && Character.UnicodeScript.of(f.codePointAt(i)) != Character.UnicodeScript.HAN) {
                        i += Character.charCount(f.codePointAt(i));
                    }
                    units.add(f.substring(s, i));
                }
            }
        } else {
            String f = CharFolding.fold(text);
            f.codePoints().filter(Character::isLetterOrDigit).forEach(cp -> units.add(new String(Character.toChars(cp))));
        }
        return units;
    }

    /** Shingle hashes of one text under a unit and a shingle size, sorted and distinct. */
    static long[] shingles(String text, NaturalCorpora.Lang lang, Unit unit, int n) {
        List<String> units = units(text, lang, unit);
        // a separator keeps "ab" + "c" and "a" + "bc" apart once words are units
        String sep = unit == Unit.CHAR ? "" : " ";
        if (units.isEmpty()) {
            return new long[0];
        }
        if (units.size() < n) {
            return new long[] { SimHash.featureHash(String.join(sep, units)) };
        }
        long[] out = new long[units.size() - n + 1];
        for (int i = 0; i + n <= units.size(); i++) {
            out[i] = SimHash.featureHash(String.join(sep, units.subList(i, i + n)));
        }
        return Arrays.stream(out).sorted().distinct().toArray();
    }

    /** The shingle sets of a corpus's documents under a truth. */
    static long[][] shingles(NaturalCorpora.Corpus c, Spec spec, boolean zhLatinWords) {
        Unit unit = spec.unitFor(c, zhLatinWords);
        int n = spec.nFor(c);
        long[][] sh = new long[c.docs().size()][];
        for (int i = 0; i < sh.length; i++) {
            sh[i] = shingles(c.docs().get(i), c.lang(), unit, n);
        }
        return sh;
    }

    /** The same pairs without the shingle sets (what a truth needs once its MinHash baseline is measured). */
    Truth withoutShingles() {
        return new Truth(null, pairs);
    }

    static Truth of(NaturalCorpora.Corpus c) {
        return of(c, false);
    }

    /** The truth of a corpus; {@code latinWords}: see {@link #shingles(String, NaturalCorpora.Lang, int, boolean)}. */
    static Truth of(NaturalCorpora.Corpus c, boolean latinWords) {
        return of(shingles(c, ADAPTIVE, latinWords));
    }

    /** All pairs with J >= {@value #MIN_STORED} of documents with these shingle sets (sorted, distinct). */
    static Truth of(long[][] sh) {
        int n = sh.length;
        if (n >= 1 << 20) {
            throw new IllegalArgumentException("at most 2^20 documents");
        }
        Map<Long, int[]> df = new HashMap<>();
        for (long[] s : sh) {
            for (long x : s) {
                df.computeIfAbsent(x, k -> new int[1])[0]++;
            }
        }
        // each document's prefix: its rarest shingles (ties by hash)
        Map<Long, List<Integer>> index = new HashMap<>();
        int[] seen = new int[n];
        Arrays.fill(seen, -1);
        long[] out = new long[1024];
        int count = 0;
        // process documents by increasing size so that the length filter |y| >= t|x| holds for earlier ones
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Integer.compare(sh[a].length, sh[b].length));
        for (int oi = 0; oi < n; oi++) {
            int i = order[oi];
            long[] s = sh[i];
            if (s.length == 0) {
                continue;
            }
            Long[] byRarity = Arrays.stream(s).boxed().toArray(Long[]::new);
            Arrays.sort(byRarity, (a, b) -> {
                int c1 = Integer.compare(df.get(a)[0], df.get(b)[0]);
                return c1 != 0 ? c1 : Long.compare(a, b);
            });
            int prefix = s.length - (int) Math.ceil(MIN_STORED * s.length) + 1;
            for (int p = 0; p < prefix; p++) {
                List<Integer> post = index.get(byRarity[p]);
                if (post != null) {
                    for (int j : post) {
                        if (seen[j] == i) {
                            continue;
                        }
                        seen[j] = i;
                        if (sh[j].length < MIN_STORED * s.length) {
                            continue;
                        }
                        double jac = jaccard(s, sh[j]);
                        if (jac >= MIN_STORED) {
                            int a = Math.min(i, j);
                            int b = Math.max(i, j);
                            if (count == out.length) {
                                out = Arrays.copyOf(out, out.length * 2);
                            }
                            out[count++] = ((((long) a << 20) | b) << 23) | Math.round(jac * 0x7FFFFF);
                        }
                    }
                }
                index.computeIfAbsent(byRarity[p], k -> new ArrayList<>(2)).add(i);
            }
        }
        long[] pairs = Arrays.copyOf(out, count);
        Arrays.sort(pairs);
        return new Truth(sh, pairs);
    }
}
