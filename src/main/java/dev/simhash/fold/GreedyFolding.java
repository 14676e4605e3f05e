package dev.simhash.fold;

import dev.simhash.core.BlockProbes;
import dev.simhash.core.SimHash;
import dev.simhash.core.SketchBands;

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
        Outcome outcome = new Outcome(hashes, hasHash);
        foldByKeys(outcome, 0, keys, new RepresentativesByKey(keys), verifier);
        return outcome.folding();
    }

    /**
     * As {@link #foldByKeys} with each hit's keys the band values of its minhash-v1 sketch ({@link SketchBands}; a hit without a
     * fingerprint or a sketch has none). While there are few representatives, a hit's candidates are found by a pass over
     * them that compares one byte of each band key, eight bands to a word ({@link SketchBands#mayShare}), confirmed by the
     * keys; that is cheaper than computing the hit's band values and looking each up. From {@value #SCAN_UP_TO}
     * representatives on, the fold goes on by the map. The result is that of {@link #foldByKeys} either way.
     */
    public static GreedyFolding foldBySketchBands(long[] hashes, boolean[] hasHash, byte[][] sketches, Verifier verifier) {
        int n = hashes.length;
        if (hasHash.length != n || sketches.length != n) {
            throw new IllegalArgumentException("hashes, hasHash and sketches differ in length: " + n + ", " + hasHash.length + ", "
                + sketches.length);
        }
        Outcome outcome = new Outcome(hashes, hasHash);
        int room = Math.min(n, SCAN_UP_TO);
        int[] scanned = new int[room];
        long[] lows = new long[room];
        long[] highs = new long[room];
        int count = 0;
        int i = 0;
        for (; i < n && count < SCAN_UP_TO; i++) {
            byte[] mine = hasHash[i] ? sketches[i] : null;
            int joined = SELF;
            double similarity = Double.NaN;
            long low = 0;
            long high = 0;
            if (mine != null) {
                low = SketchBands.lastKeyBytes(mine, 0, 0);
                high = SketchBands.lastKeyBytes(mine, 0, 8);
                for (int k = nextMayShare(low, high, lows, highs, 0, count); k >= 0; k = nextMayShare(low, high, lows, highs, k + 1, count)) {
                    byte[] theirs = sketches[scanned[k]];
                    if (SketchBands.shareABand(mine, 0, theirs, 0, SketchBands.equalLastBytes(low ^ lows[k], 0), 0)
                        || SketchBands.shareABand(mine, 0, theirs, 0, SketchBands.equalLastBytes(high ^ highs[k], 8), 8)) {
                        similarity = verifier.verify(i, scanned[k]);
                        if (!Double.isNaN(similarity)) {
                            joined = scanned[k];
                            break;
                        }
                    }
                }
            }
            outcome.settle(i, joined, similarity);
            if (joined == SELF && mine != null) {
                scanned[count] = i;
                lows[count] = low;
                highs[count++] = high;
            }
        }
        if (i < n) {
            long[][] keys = new long[n][];
            for (int k = 0; k < count; k++) {
                keys[scanned[k]] = SketchBands.longValues(sketches[scanned[k]], 0);
            }
            for (int h = i; h < n; h++) {
                keys[h] = hasHash[h] && sketches[h] != null ? SketchBands.longValues(sketches[h], 0) : null;
            }
            RepresentativesByKey byKey = new RepresentativesByKey(keys);
            for (int k = 0; k < count; k++) {
                byKey.add(scanned[k]);
            }
            foldByKeys(outcome, i, keys, byKey, verifier);
        }
        return outcome.folding();
    }

    /** The first of representatives {@code from .. to - 1} whose key bytes say it may share a band with the hit's, or -1. */
    private static int nextMayShare(long low, long high, long[] lows, long[] highs, int from, int to) {
        for (int k = from; k < to; k++) {
            if (SketchBands.mayShare(low ^ lows[k], high ^ highs[k])) {
                return k;
            }
        }
        return -1;
    }

    /** Representatives a fold by sketch bands passes over before it looks them up by band value instead. */
    static final int SCAN_UP_TO = 96;

    /** Folds hits {@code from ..} by their keys into {@code outcome}, with the representatives so far already in {@code byKey}. */
    private static void foldByKeys(Outcome outcome, int from, long[][] keys, RepresentativesByKey byKey, Verifier verifier) {
        int[] candidates = new int[16];
        for (int i = from; i < keys.length; i++) {
            int joined = SELF;
            double similarity = Double.NaN;
            long[] mine = keys[i];
            if (mine != null) {
                int found = 0;
                for (long key : mine) {
                    for (int e = byKey.first(key); e >= 0; e = byKey.next(e)) {
                        if (byKey.keyOf(e) == key) {
                            if (found == candidates.length) {
                                candidates = Arrays.copyOf(candidates, 2 * found);
                            }
                            candidates[found++] = byKey.representativeOf(e);
                        }
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
                    similarity = verifier.verify(i, rep);
                    if (!Double.isNaN(similarity)) {
                        joined = rep;
                    }
                }
            }
            outcome.settle(i, joined, similarity);
            if (joined == SELF && mine != null) {
                byKey.add(i);
            }
        }
    }

    /** What a fold by keys has decided so far, hit by hit in rank order. */
    private static final class Outcome {
        private final long[] hashes;
        private final boolean[] hasHash;
        private final int[] repOf;
        private final int[] dist;
        private final int[] folded;
        private final int[] reps;
        private final double[] sim;
        private int repCount;

        Outcome(long[] hashes, boolean[] hasHash) {
            int n = hashes.length;
            this.hashes = hashes;
            this.hasHash = hasHash;
            repOf = new int[n];
            dist = new int[n];
            folded = new int[n];
            reps = new int[n];
            sim = new double[n];
        }

        /** Hit {@code i} joins {@code joined} with that similarity, or ({@link #SELF}) is a representative. */
        void settle(int i, int joined, double similarity) {
            repOf[i] = joined;
            if (joined == SELF) {
                sim[i] = 1;
                reps[repCount++] = i;
            } else {
                sim[i] = similarity;
                dist[i] = hasHash[i] && hasHash[joined] ? SimHash.distance(hashes[i], hashes[joined]) : 0;
                folded[joined]++;
            }
        }

        GreedyFolding folding() {
            return new GreedyFolding(repOf, dist, folded, Arrays.copyOf(reps, repCount), sim);
        }
    }

    /**
     * The representatives of each key: a chained hash table. Entry {@code hit << shift | q} is key {@code q} of representative
     * {@code hit}; a bucket holds its first entry + 1 (0: empty), each entry the next of its bucket and a copy of its key, so
     * a lookup that finds nothing reads one int.
     */
    private static final class RepresentativesByKey {
        private final long[][] keys;
        private final int[] heads;
        private final int[] next;
        private final long[] entryKeys;
        private final int mask;
        private final int shift;

        RepresentativesByKey(long[][] keys) {
            this.keys = keys;
            long total = 0;
            int most = 1;
            for (long[] k : keys) {
                if (k != null) {
                    total += k.length;
                    most = Math.max(most, k.length);
                }
            }
            shift = 32 - Integer.numberOfLeadingZeros(most - 1);
            if (((long) keys.length << shift) > Integer.MAX_VALUE - 1) {
                throw new IllegalArgumentException("too many hits and keys to fold: " + keys.length + " hits of up to " + most + " keys");
            }
            // about one bucket per key: a key that no representative has finds an empty bucket most of the time
            int buckets = Integer.highestOneBit((int) Math.max(16, Math.min(total, 1 << 30)) * 2 - 1);
            heads = new int[buckets];
            mask = buckets - 1;
            next = new int[Math.max(1, keys.length << shift)];
            entryKeys = new long[next.length];
        }

        private int bucket(long key) {
            return (int) (key ^ (key >>> 29)) * 0x9E3779B9 >>> 1 & mask;
        }

        /** The first entry of {@code key}'s bucket, or -1: its entries may hold other keys ({@link #keyOf}). */
        int first(long key) {
            return heads[bucket(key)] - 1;
        }

        /** The entry after {@code entry} in its bucket, or -1. */
        int next(int entry) {
            return next[entry] - 1;
        }

        long keyOf(int entry) {
            return entryKeys[entry];
        }

        int representativeOf(int entry) {
            return entry >>> shift;
        }

        /** Adds every key of hit {@code representative}. */
        void add(int representative) {
            long[] mine = keys[representative];
            for (int q = 0; q < mine.length; q++) {
                int b = bucket(mine[q]);
                int e = (representative << shift) | q;
                next[e] = heads[b];
                entryKeys[e] = mine[q];
                heads[b] = e + 1;
            }
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
