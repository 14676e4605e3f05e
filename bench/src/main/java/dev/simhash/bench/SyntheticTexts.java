package dev.simhash.bench;

import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Real-like synthetic texts with planted near-duplicate clusters, generated deterministically from a seed
 * and read by document number, so a corpus of millions is never held in memory.
 *
 * <p>Words are drawn from a Zipf-distributed vocabulary of pronounceable made-up words (as natural word
 * frequencies are), grouped into capitalised sentences; lengths are log-normal (median about 60 words,
 * 12 to 400). About {@link #CLUSTERED_SHARE} of the documents belong to clusters of 2 to 10: an original and
 * copies of it with 1% to 10% of their words edited (inserted, deleted or replaced). Cluster members are
 * spread over the document numbers by a seeded permutation.
 */
public final class SyntheticTexts {

    /** Share of the documents that belong to a planted cluster (original or copy). */
    public static final double CLUSTERED_SHARE = 0.4;
    /** Largest cluster: an original and up to 9 copies. */
    public static final int MAX_CLUSTER = 10;
    /** Edit rates of the copies (share of the words edited). */
    static final double[] EDIT_RATES = { 0.01, 0.02, 0.05, 0.1 };
    static final int VOCABULARY = 30_000;
    static final double ZIPF_EXPONENT = 1.05;
    static final int MIN_WORDS = 12;
    static final int MAX_WORDS = 400;
    private static final String[] ONSETS = { "b", "c", "d", "f", "g", "h", "j", "k", "l", "m", "n", "p", "r", "s", "t", "v", "w",
        "br", "ch", "cl", "dr", "fl", "gr", "pl", "pr", "sh", "st", "th", "tr" };
    private static final String[] VOWELS = { "a", "e", "i", "o", "u", "ai", "ea", "ou", "io" };
    private static final String[] CODAS = { "", "", "", "n", "r", "s", "t", "l", "nd", "st", "ng" };

    private final long seed;
    private final int size;
    private final String[] words;
    private final double[] cumulative;
    /** Per document: the original it is generated from (originals are numbered apart from documents). */
    private final int[] origin;
    /** Per document: index into {@link #EDIT_RATES} of its edits, or -1 for an unedited original. */
    private final byte[] rate;
    private final int clustered;

    public SyntheticTexts(int size, long seed) {
        this(size, seed, CLUSTERED_SHARE);
    }

    /** As above with {@code clusteredShare} of the documents in planted clusters instead of {@link #CLUSTERED_SHARE}. */
    public SyntheticTexts(int size, long seed, double clusteredShare) {
        this(size, seed, clusteredShare, size);
    }

    /**
     * As above, the clusters spread within blocks of {@code spread} documents only (the whole corpus above): then the first
     * {@code k * spread} documents hold whole clusters, the same share of near-duplicates at every such size (a corpus
     * spread over its whole length gives its first documents only fragments of their clusters).
     */
    public SyntheticTexts(int size, long seed, double clusteredShare, int spread) {
        if (size < 1) {
            throw new IllegalArgumentException("size must be positive, got [" + size + "]");
        }
        if (!(clusteredShare >= 0 && clusteredShare < 1)) {
            throw new IllegalArgumentException("the clustered share must be in [0, 1), got [" + clusteredShare + "]");
        }
        if (spread < 1) {
            throw new IllegalArgumentException("spread must be positive, got [" + spread + "]");
        }
        this.seed = seed;
        this.size = size;
        SplittableRandom rnd = new SplittableRandom(seed);
        this.words = vocabulary(rnd.split());
        this.cumulative = zipf(VOCABULARY, ZIPF_EXPONENT);
        int[] org = new int[size];
        byte[] rt = new byte[size];
        // lay clusters and singletons out in order, then spread them with a permutation (within blocks of spread)
        SplittableRandom layout = rnd.split();
        int pos = 0;
        int originals = 0;
        int inClusters = 0;
        // a cluster starts where a singleton would with the probability that gives the share in clusters
        double meanCluster = (2 + MAX_CLUSTER) / 2.0;
        double pCluster = clusteredShare / meanCluster / (clusteredShare / meanCluster + (1 - clusteredShare));
        while (pos < size) {
            int m = layout.nextDouble() < pCluster ? 2 + layout.nextInt(MAX_CLUSTER - 1) : 1;
            m = Math.min(m, size - pos);
            for (int j = 0; j < m; j++) {
                org[pos + j] = originals;
                rt[pos + j] = (byte) (j == 0 ? -1 : layout.nextInt(EDIT_RATES.length));
            }
            if (m > 1) {
                inClusters += m;
            }
            originals++;
            pos += m;
        }
        int[] perm = permutation(size, spread, rnd.split());
        this.origin = new int[size];
        this.rate = new byte[size];
        for (int i = 0; i < size; i++) {
            origin[perm[i]] = org[i];
            rate[perm[i]] = rt[i];
        }
        this.clustered = inClusters;
    }

    public int size() {
        return size;
    }

    /** Documents that belong to a planted cluster. */
    public int clustered() {
        return clustered;
    }

    /** The original document {@code i} is generated from; documents with the same origin form a planted cluster. */
    public int origin(int i) {
        return origin[i];
    }

    /** Share of words edited in document {@code i} relative to its original; 0 for an original. */
    public double editRate(int i) {
        return rate[i] < 0 ? 0 : EDIT_RATES[rate[i]];
    }

    /** The text of document {@code i}, the same for the same seed, size and {@code i}. */
    public String text(int i) {
        String[] base = original(origin[i]);
        if (rate[i] < 0) {
            return render(base);
        }
        SplittableRandom r = new SplittableRandom(mix(seed ^ 0x5bd1e995L, i));
        return render(edit(base, EDIT_RATES[rate[i]], r));
    }

    /** The word sequence of original {@code o}. */
    String[] original(int o) {
        SplittableRandom r = new SplittableRandom(mix(seed, o));
        double g = r.nextGaussian() * 0.7 + Math.log(60);
        int n = (int) Math.max(MIN_WORDS, Math.min(MAX_WORDS, Math.round(Math.exp(g))));
        String[] out = new String[n];
        for (int k = 0; k < n; k++) {
            out[k] = word(r);
        }
        return out;
    }

    private String word(SplittableRandom r) {
        int idx = Arrays.binarySearch(cumulative, r.nextDouble());
        return words[Math.min(VOCABULARY - 1, idx >= 0 ? idx : -idx - 1)];
    }

    /** A copy with about {@code rate} of the words edited: each edit inserts, deletes or replaces one word. */
    String[] edit(String[] base, double rate, SplittableRandom r) {
        int edits = Math.max(1, (int) Math.round(base.length * rate));
        java.util.ArrayList<String> w = new java.util.ArrayList<>(Arrays.asList(base));
        for (int e = 0; e < edits; e++) {
            int at = r.nextInt(w.size());
            switch (r.nextInt(3)) {
                case 0 -> w.add(at, word(r));
                case 1 -> {
                    if (w.size() > MIN_WORDS) {
                        w.remove(at);
                    } else {
                        w.set(at, word(r));
                    }
                }
                default -> w.set(at, word(r));
            }
        }
        return w.toArray(String[]::new);
    }

    /** Sentences of 6 to 20 words, the first capitalised, ending in a full stop; the sentence lengths follow the words. */
    static String render(String[] w) {
        StringBuilder sb = new StringBuilder(w.length * 7);
        int sentence = 0;
        for (int k = 0; k < w.length; k++) {
            boolean first = sentence == 0;
            if (k > 0) {
                sb.append(' ');
            }
            String s = w[k];
            sb.append(first ? Character.toUpperCase(s.charAt(0)) + s.substring(1) : s);
            sentence++;
            // a deterministic sentence end taken from the words themselves, so an edit only moves nearby ends
            if (k == w.length - 1 || (sentence >= 6 && (s.hashCode() & 7) == 0) || sentence >= 20) {
                sb.append('.');
                sentence = 0;
            }
        }
        return sb.toString();
    }

    private static String[] vocabulary(SplittableRandom r) {
        java.util.LinkedHashSet<String> set = new java.util.LinkedHashSet<>();
        while (set.size() < VOCABULARY) {
            // frequent words are short, as in natural language: rank decides the number of syllables
            int syllables = set.size() < 200 ? 1 : set.size() < 5000 ? 1 + r.nextInt(2) : 2 + r.nextInt(3);
            StringBuilder sb = new StringBuilder();
            for (int s = 0; s < syllables; s++) {
                sb.append(ONSETS[r.nextInt(ONSETS.length)]).append(VOWELS[r.nextInt(VOWELS.length)]);
            }
            sb.append(CODAS[r.nextInt(CODAS.length)]);
            set.add(sb.toString().toLowerCase(Locale.ROOT));
        }
        return set.toArray(String[]::new);
    }

    private static double[] zipf(int n, double exponent) {
        double[] c = new double[n];
        double sum = 0;
        for (int k = 0; k < n; k++) {
            sum += 1 / Math.pow(k + 1, exponent);
            c[k] = sum;
        }
        for (int k = 0; k < n; k++) {
            c[k] /= sum;
        }
        return c;
    }

    /** A random permutation of {@code 0 .. n-1} that moves each number within its block of {@code block}. */
    private static int[] permutation(int n, int block, SplittableRandom r) {
        int[] p = new int[n];
        for (int i = 0; i < n; i++) {
            p[i] = i;
        }
        for (int start = 0; start < n; start += block) {
            for (int i = (int) Math.min(n, (long) start + block) - 1; i > start; i--) {
                int j = start + r.nextInt(i - start + 1);
                int t = p[i];
                p[i] = p[j];
                p[j] = t;
            }
        }
        return p;
    }

    private static long mix(long seed, long i) {
        long z = seed + 0x9e3779b97f4a7c15L * (i + 1);
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
