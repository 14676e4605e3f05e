package dev.simhash.weights;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Counts in how many sampled documents each feature occurs (document frequency, df) and turns the counts into an IDF
 * table: factor = ln(1 + N / df) for N documents (the formula of the quality bench's {@code v2+idf}), keeping the features
 * with df >= {@code min_df}, at most {@code max_features} of them (the most frequent; ties by feature). Features the table
 * does not list are rarer than every listed one; they get {@link #defaultWeight}. Plain Java; not thread-safe.
 *
 * <p>Memory is bounded: when more than {@code maxTracked} distinct features have been seen, the features seen in only one
 * document so far are forgotten, and if more than half of {@code maxTracked} remain, also those seen in the fewest documents
 * until at most half remain (a feature first seen late may then have its df undercounted by that pruning; with
 * {@code min_df >= 2} the table is exact as long as no pruning happened, and {@link #pruned()} says whether it did).
 */
public final class DocumentFrequencies {

    /** Default bound of distinct features counted at once. */
    public static final int DEFAULT_MAX_TRACKED = 2_000_000;

    /**
     * Heap bytes one counted feature holds besides its characters: the string and its array, the count's array and the
     * map's entry and slot (an estimate for the request circuit breaker).
     */
    static final long ENTRY_BYTES = 112;

    private final int maxTracked;
    private final Map<String, int[]> df = new HashMap<>();
    private long ramBytes;
    private long documents;
    private long prunings;

    public DocumentFrequencies(int maxTracked) {
        if (maxTracked < 1) {
            throw new IllegalArgumentException("maxTracked must be at least 1");
        }
        this.maxTracked = maxTracked;
    }

    /** Counts one document given its distinct features. */
    public void addDocument(Collection<String> distinctFeatures) {
        documents++;
        for (String f : distinctFeatures) {
            int[] count = df.get(f);
            if (count == null) {
                df.put(f, new int[] { 1 });
                ramBytes += entryBytes(f);
            } else {
                count[0]++;
            }
        }
        if (df.size() > maxTracked) {
            prune();
        }
    }

    /**
     * Forgets the features seen in only one document and, when that leaves more than half the bound (the counted features
     * are mostly frequent ones), also those seen in the fewest documents until at most half remain: the next pruning is
     * then at least half the bound of new features away, so pruning costs a constant per feature added. Pruning only
     * what was seen once would let a stream of new features, once the bound is full of repeated ones, prune at every
     * document, each time scanning the whole map.
     */
    private void prune() {
        int keep = Math.max(1, maxTracked / 2);
        int threshold = 1;
        if (df.size() > keep) {
            int[] counts = new int[df.size()];
            int n = 0;
            for (int[] c : df.values()) {
                counts[n++] = c[0];
            }
            Arrays.sort(counts);
            // forgetting counts <= counts[n - keep - 1] leaves at most keep features (fewer when counts tie)
            threshold = Math.max(1, counts[n - keep - 1]);
        }
        int forget = threshold;
        df.values().removeIf(c -> c[0] <= forget);
        ramBytes = 0;
        for (String f : df.keySet()) {
            ramBytes += entryBytes(f);
        }
        prunings++;
    }

    private static long entryBytes(String feature) {
        return ENTRY_BYTES + 2L * feature.length();
    }

    /** The estimated heap the counts hold, for the request circuit breaker. */
    public long ramBytesUsed() {
        return ramBytes;
    }

    public long documents() {
        return documents;
    }

    /** Distinct features currently counted. */
    public int distinctFeatures() {
        return df.size();
    }

    /** How often features seen once were forgotten to bound memory. */
    public long pruned() {
        return prunings;
    }

    /** The document frequency of a feature as counted (0 if not seen or forgotten). */
    public int df(String feature) {
        int[] c = df.get(feature);
        return c == null ? 0 : c[0];
    }

    /** ln(1 + N / df). */
    public static double idf(long documents, long df) {
        return Math.log(1 + documents / (double) df);
    }

    /** The factor of features the table leaves out: the IDF of a feature just below {@code min_df} (at least df 1). */
    public double defaultWeight(int minDf) {
        return documents == 0 ? 1.0 : idf(documents, Math.max(1, minDf - 1));
    }

    /**
     * The IDF factors of the features with df >= minDf, the maxFeatures most frequent (ties: the smaller feature first), in
     * that order.
     */
    public LinkedHashMap<String, Double> idf(int minDf, int maxFeatures) {
        if (minDf < 1) {
            throw new IllegalArgumentException("[min_df] must be at least 1, got [" + minDf + "]");
        }
        if (maxFeatures < 0) {
            throw new IllegalArgumentException("[max_features] must be at least 0, got [" + maxFeatures + "]");
        }
        List<Map.Entry<String, int[]>> kept = new ArrayList<>();
        for (Map.Entry<String, int[]> e : df.entrySet()) {
            if (e.getValue()[0] >= minDf) {
                kept.add(e);
            }
        }
        kept.sort((a, b) -> a.getValue()[0] != b.getValue()[0] ? Integer.compare(b.getValue()[0], a.getValue()[0])
            : a.getKey().compareTo(b.getKey()));
        LinkedHashMap<String, Double> out = new LinkedHashMap<>();
        for (int i = 0; i < Math.min(maxFeatures, kept.size()); i++) {
            out.put(kept.get(i).getKey(), idf(documents, kept.get(i).getValue()[0]));
        }
        return out;
    }
}
