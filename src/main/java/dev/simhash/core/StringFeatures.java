package dev.simhash.core;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * A bag's features as strings (shingles, feature-weight tables, and any token a byte-mode bag cannot keep as bytes): made
 * from the tokens (single tokens, word shingles, or tokens and adjacent pairs), the distinct features in order of first
 * occurrence with their term frequencies, and an open-addressing index over them.
 */
final class StringFeatures {

    private static final int INITIAL_CAPACITY = 16;

    private boolean adjacentPairs;
    private int shingleSize = 1;
    /** Per-feature factors (a feature-weight table), null for none: only to count the features they keep. */
    private ToDoubleFunction<String> factors;
    /** With factors: the distinct features whose factor is not 0 (those a fingerprint weighs). */
    private int kept;
    /** The previous token (adjacent pairs), across texts added to the same document. */
    private String previous;
    private final ArrayDeque<String> window = new ArrayDeque<>();
    private final StringBuilder shingle = new StringBuilder();

    // The order of first occurrence fixes the summation order of non-integer weights. Reused across documents: no
    // per-feature entry or counter objects; the index maps slot -> id + 1 (0 = empty) and is at most half full.
    private String[] features = new String[INITIAL_CAPACITY];
    private int[] frequencies = new int[INITIAL_CAPACITY];
    private int[] slots = new int[2 * INITIAL_CAPACITY];
    private int size;

    /** Sets the features to make: simhash-v2's ({@code adjacentPairs}) or word shingles of {@code shingleSize} tokens. */
    void configure(boolean adjacentPairs, int shingleSize, ToDoubleFunction<String> factors) {
        this.adjacentPairs = adjacentPairs;
        this.shingleSize = shingleSize;
        this.factors = factors;
    }

    /** Adds the next token of the document. */
    void addToken(String token) {
        if (adjacentPairs) {
            count(token);
            if (previous != null) {
                StringBuilder sb = shingle;
                sb.setLength(0);
                count(sb.append(previous).append(FeatureBag.SHINGLE_SEPARATOR).append(token).toString());
            }
            previous = token;
            return;
        }
        int n = shingleSize;
        if (n == 1) {
            count(token);
            return;
        }
        window.addLast(token);
        if (window.size() > n) {
            window.removeFirst();
        }
        if (window.size() == n) {
            count(joinWindow());
        }
    }

    /** The previous token of the document (a bag leaving byte mode hands it over), null for none. */
    void previous(String token) {
        this.previous = token;
    }

    /** The tokens in the shingle window joined: the single feature of a document shorter than one shingle. */
    String joinWindow() {
        StringBuilder sb = shingle;
        sb.setLength(0);
        Iterator<String> it = window.iterator();
        sb.append(it.next());
        while (it.hasNext()) {
            sb.append(FeatureBag.SHINGLE_SEPARATOR).append(it.next());
        }
        return sb.toString();
    }

    /** With factors: the distinct features whose factor is not 0. */
    int kept() {
        return kept;
    }

    /** Counts one occurrence of the feature. */
    void count(String feature) {
        if (countNew(feature) && factors != null && factors.applyAsDouble(feature) != 0) {
            kept++;
        }
    }

    /** Counts one occurrence of the feature; true when it is new. */
    private boolean countNew(String feature) {
        int h = feature.hashCode();
        int mask = slots.length - 1;
        int i = (h ^ (h >>> 16)) & mask;
        for (int id; (id = slots[i] - 1) >= 0; i = (i + 1) & mask) {
            if (features[id].equals(feature)) {
                frequencies[id]++;
                return false;
            }
        }
        insert(i, feature, 1);
        return true;
    }

    /** Adds a feature that is not in the bag yet, with its term frequency (a bag leaving byte mode hands its features over). */
    void add(String feature, int frequency) {
        int h = feature.hashCode();
        int mask = slots.length - 1;
        int i = (h ^ (h >>> 16)) & mask;
        while (slots[i] != 0) {
            i = (i + 1) & mask;
        }
        insert(i, feature, frequency);
    }

    private void insert(int slot, String feature, int frequency) {
        if (size == features.length) {
            int c = Math.max(2 * size, INITIAL_CAPACITY);
            features = Arrays.copyOf(features, c);
            frequencies = Arrays.copyOf(frequencies, c);
        }
        features[size] = feature;
        frequencies[size] = frequency;
        slots[slot] = ++size;
        if (2 * size > slots.length) {
            rehash(2 * slots.length);
        }
    }

    private void rehash(int capacity) {
        int mask = capacity - 1;
        int[] s = new int[capacity];
        for (int id = 0; id < size; id++) {
            int h = features[id].hashCode();
            int i = (h ^ (h >>> 16)) & mask;
            while (s[i] != 0) {
                i = (i + 1) & mask;
            }
            s[i] = id + 1;
        }
        slots = s;
    }

    int size() {
        return size;
    }

    String feature(int id) {
        return features[id];
    }

    int frequency(int id) {
        return frequencies[id];
    }

    /** The distinct features in order of first occurrence. */
    List<String> list() {
        return List.of(Arrays.copyOf(features, size));
    }

    /** Forgets all tokens and features; arrays that grew beyond {@code maxKept} are given back, so one huge document does not pin them. */
    void clear(int maxKept) {
        Arrays.fill(features, 0, size, null);
        if (features.length > maxKept) {
            features = new String[INITIAL_CAPACITY];
            frequencies = new int[INITIAL_CAPACITY];
        }
        if (slots.length > maxKept) {
            slots = new int[2 * INITIAL_CAPACITY];
        } else if (size > 0) {
            Arrays.fill(slots, 0);
        }
        size = 0;
        kept = 0;
        previous = null;
        window.clear();
    }
}
