package dev.simhash.fold;

import dev.simhash.core.BlockProbes;
import dev.simhash.core.SimHash;

import java.util.Arrays;

/**
 * Greedy folding of a ranked hit list: walking the hits in rank order, a hit joins the first
 * better-ranked representative within {@code maxDistance} bits (and, with a {@link Verifier}, whose
 * pair with it the verifier accepts), otherwise it becomes a representative itself. Hits without a
 * fingerprint are always representatives and never absorb others. Plain Java, no Elasticsearch imports.
 */
public final class GreedyFolding {

    /** Marks a hit that is a representative in {@link #representativeOf}. */
    public static final int SELF = -1;

    private final int[] representativeOf;
    private final int[] distance;
    private final int[] folded;
    private final int[] representatives;
    private final double[] similarity;

    /** Checks a candidate pair of hits (within the radius) before one folds under the other. */
    @FunctionalInterface
    public interface Verifier {
        /** The estimated similarity of hits {@code hit} and {@code representative}, or NaN when they must not be linked. */
        double verify(int hit, int representative);
    }

    private GreedyFolding(int[] representativeOf, int[] distance, int[] folded, int[] representatives, double[] similarity) {
        this.representativeOf = representativeOf;
        this.distance = distance;
        this.folded = folded;
        this.representatives = representatives;
        this.similarity = similarity;
    }

    /**
     * Folds hits {@code 0 .. hashes.length-1} (rank order).
     *
     * @param hashes      fingerprint of each hit (ignored where {@code hasHash} is false)
     * @param hasHash     whether each hit has a fingerprint
     * @param maxDistance fold radius, 0..64
     */
    public static GreedyFolding fold(long[] hashes, boolean[] hasHash, int maxDistance) {
        return fold(hashes, hasHash, maxDistance, null);
    }

    /**
     * Folds hits {@code 0 .. hashes.length-1} (rank order), a hit under the first representative within the radius whose
     * pair with it {@code verifier} accepts (null: every pair within the radius).
     */
    public static GreedyFolding fold(long[] hashes, boolean[] hasHash, int maxDistance, Verifier verifier) {
        BlockProbes.checkMaxDistance(maxDistance);
        if (hashes.length != hasHash.length) {
            throw new IllegalArgumentException("hashes and hasHash differ in length: " + hashes.length + " vs " + hasHash.length);
        }
        int n = hashes.length;
        int[] repOf = new int[n];
        int[] dist = new int[n];
        int[] folded = new int[n];
        int[] reps = new int[n];
        double[] sim = verifier == null ? null : new double[n];
        // representatives that have a fingerprint, in rank order, with their hashes side by side for a tight scan;
        // a window is at most a few thousand hits, so a linear scan over representatives is cheaper than buckets
        int[] fpReps = new int[n];
        long[] fpRepHashes = new long[n];
        int repCount = 0;
        int fpRepCount = 0;
        for (int i = 0; i < n; i++) {
            int joined = SELF;
            if (hasHash[i]) {
                long h = hashes[i];
                for (int k = 0; k < fpRepCount; k++) {
                    int d = SimHash.distance(h, fpRepHashes[k]);
                    if (d <= maxDistance) {
                        double s = verifier == null ? 1 : verifier.verify(i, fpReps[k]);
                        if (Double.isNaN(s)) {
                            continue;
                        }
                        joined = fpReps[k];
                        dist[i] = d;
                        if (sim != null) {
                            sim[i] = s;
                        }
                        break;
                    }
                }
            }
            repOf[i] = joined;
            if (joined == SELF) {
                if (sim != null) {
                    sim[i] = 1;
                }
                reps[repCount++] = i;
                if (hasHash[i]) {
                    fpReps[fpRepCount] = i;
                    fpRepHashes[fpRepCount++] = hashes[i];
                }
            } else {
                folded[joined]++;
            }
        }
        return new GreedyFolding(repOf, dist, folded, Arrays.copyOf(reps, repCount), sim);
    }

    /**
     * Folds hits {@code 0 .. hashes.length-1} (rank order) by shared keys instead of a radius: a hit's candidates are the
     * better-ranked representatives that share one of its keys ({@code keys[i]}; null: the hit has none and is always a
     * representative that absorbs none), such as a sketch's band values; it joins the first of them, in rank order, whose
     * pair with it {@code verifier} accepts. The representatives are found through a map from key to representatives, so a
     * hit costs its keys' lookups and its candidates' checks, not a pass over every representative. The distance shown is
     * that of the fingerprints (0 where a hit has none).
     */
    public static GreedyFolding foldByKeys(long[] hashes, boolean[] hasHash, long[][] keys, Verifier verifier) {
        int n = hashes.length;
        if (hasHash.length != n || keys.length != n) {
            throw new IllegalArgumentException("hashes, hasHash and keys differ in length: " + n + ", " + hasHash.length + ", " + keys.length);
        }
        int[] repOf = new int[n];
        int[] dist = new int[n];
        int[] folded = new int[n];
        int[] reps = new int[n];
        double[] sim = new double[n];
        int repCount = 0;
        int totalKeys = 0;
        for (long[] k : keys) {
            totalKeys += k == null ? 0 : k.length;
        }
        RepresentativesByKey byKey = new RepresentativesByKey(totalKeys);
        int[] candidates = new int[16];
        for (int i = 0; i < n; i++) {
            int joined = SELF;
            long[] mine = keys[i];
            if (mine != null) {
                int found = 0;
                for (long key : mine) {
                    for (int e = byKey.first(key); e >= 0; e = byKey.next[e]) {
                        if (found == candidates.length) {
                            candidates = Arrays.copyOf(candidates, 2 * found);
                        }
                        candidates[found++] = byKey.rep[e];
                    }
                }
                if (found > 1) {
                    Arrays.sort(candidates, 0, found);
                }
                for (int k = 0; k < found && joined == SELF; k++) {
                    int rep = candidates[k];
                    if (k > 0 && rep == candidates[k - 1]) {
                        continue;
                    }
                    double s = verifier.verify(i, rep);
                    if (!Double.isNaN(s)) {
                        joined = rep;
                        sim[i] = s;
                        dist[i] = hasHash[i] && hasHash[rep] ? SimHash.distance(hashes[i], hashes[rep]) : 0;
                    }
                }
            }
            repOf[i] = joined;
            if (joined == SELF) {
                sim[i] = 1;
                reps[repCount++] = i;
                if (mine != null) {
                    for (long key : mine) {
                        byKey.add(key, i);
                    }
                }
            } else {
                folded[joined]++;
            }
        }
        return new GreedyFolding(repOf, dist, folded, Arrays.copyOf(reps, repCount), sim);
    }

    /**
     * The representatives of each key: an open-addressing table of keys, each slot the head of a linked list of entries
     * (no boxing, one allocation per array: a window's fold allocates a few arrays, not an object per key).
     */
    private static final class RepresentativesByKey {
        // slot s is table[2s] (its key) and table[2s + 1] (its first entry + 1; 0: empty): one cache line holds both
        private final long[] table;
        private final int mask;
        final int[] rep;
        final int[] next;
        private int entries;

        RepresentativesByKey(int maxEntries) {
            int slots = Integer.highestOneBit(Math.max(16, maxEntries) * 2);
            table = new long[2 * slots];
            mask = slots - 1;
            rep = new int[Math.max(1, maxEntries)];
            next = new int[Math.max(1, maxEntries)];
        }

        private int slot(long key) {
            int s = (int) ((key * 0x9E3779B97F4A7C15L) >>> 40) & mask;
            while (table[2 * s + 1] != 0 && table[2 * s] != key) {
                s = (s + 1) & mask;
            }
            return s;
        }

        /** The first entry of {@code key}'s list, or -1. */
        int first(long key) {
            return (int) table[2 * slot(key) + 1] - 1;
        }

        void add(long key, int representative) {
            int s = slot(key);
            int e = entries++;
            rep[e] = representative;
            next[e] = (int) table[2 * s + 1] - 1;
            table[2 * s] = key;
            table[2 * s + 1] = e + 1;
        }
    }

    /** Number of hits folded. */
    public int size() {
        return representativeOf.length;
    }

    /** The representative hit {@code i} was folded into, or {@link #SELF} if it is a representative. */
    public int representativeOf(int i) {
        return representativeOf[i];
    }

    /** Hamming distance of hit {@code i} to its representative (0 for a representative). */
    public int distance(int i) {
        return distance[i];
    }

    /**
     * The estimated similarity of hit {@code i} to its representative (1 for a representative), as the verifier gave it;
     * NaN when the folding had no verifier.
     */
    public double similarity(int i) {
        return similarity == null ? Double.NaN : similarity[i];
    }

    /** Number of hits folded into representative {@code i} (0 for hits that are not representatives). */
    public int foldedInto(int i) {
        return folded[i];
    }

    /** Representatives in rank order: the folded result list. */
    public int[] representatives() {
        return representatives.clone();
    }

    /** Number of groups (representatives), including groups of one. */
    public int groupCount() {
        return representatives.length;
    }
}
