package dev.simhash.core;


import java.util.Arrays;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongConsumer;

/**
 * Connected components of the verified graph whose candidates come from the sketches' bands, as the {@code simhash} query
 * takes them at a threshold the bands cover: a pair of documents is a candidate when their sketches share at least one band
 * key, and an edge when the sketches' test accepts it. Found by a join on the band keys, band by band, never by probing or
 * comparing all pairs: the documents are sorted by the band's key (a counting sort on its top 16 bits, then each bucket
 * sorted), and each run of equal keys is a bucket of candidates. The work grows with the documents times the bands, plus the
 * pairs within buckets.
 *
 * <p>A bucket of more than {@value #HOT} documents (a band value shared by many texts that are not all near-duplicates,
 * such as boilerplate) is hot: its members are checked against its first {@value #ANCHORS} members only (the anchors),
 * which keeps a hot bucket linear. That can leave two members of a hot bucket apart that a check of every pair would link,
 * when no other band and no anchor connects them; every bucket of at most {@value #HOT} documents is checked whole, so
 * without hot buckets the components are exactly those of all verified candidate pairs. Pairs already in one component are
 * not checked again (they cannot change the components).
 *
 * <p>Components are numbered like {@link NearDuplicateComponents}' (in order of their smallest fingerprint, then sketch),
 * with the same ids and representatives, so the report pages, lists and writes them alike. Plain Java, no Elasticsearch
 * imports.
 */
public final class BandComponents {

    /** The most documents of a bucket whose pairs are all checked. */
    static final int HOT = 256;
    /** The members of a hot bucket every other member is checked against. */
    static final int ANCHORS = 16;

    private static final int TOP_BITS = 16;
    private static final int LOW_BITS = 8 * SketchBands.KEY_BYTES - TOP_BITS;
    private static final int DOC_BITS = 31;
    private static final long DOC_MASK = (1L << DOC_BITS) - 1;

    private BandComponents() {}

    /**
     * Heap held at the peak for {@code n} documents joined in {@code parallelism} threads, besides their fingerprints and
     * sketches: an upper bound, charged to a circuit breaker before grouping. Throughout: the documents that have a sketch (4
     * bytes per document) and the first thread's union-find with its group count (12); while joining, per thread a band's
     * sort array (8), and per extra thread a union-find (8); while numbering, the sorted copy of the fingerprints, the order
     * and their radix buffers (24), the order buffer by sketch (4), and the component arrays (at most 24).
     */
    public static long estimateBytes(int n, int parallelism) {
        int threads = Math.max(1, Math.min(parallelism, SketchBands.BANDS));
        return 16L * n + Math.max(16L * threads * n - 8L * n, 52L * n) + (threads + 1L) * ((1L << TOP_BITS) + 1) * Integer.BYTES;
    }

    /**
     * Groups documents {@code 0 .. hashes.length-1}: document d's sketch is in {@code sketches} when it has one (documents
     * without one are groups of their own). The bands are joined in up to {@code parallelism} threads (the caller's and
     * tasks on {@code executor}), each with its own union-find, merged at the end; the result is the same for every
     * parallelism.
     *
     * @param cancellationCheck called between bands and every {@link NearDuplicateComponents#CHECK_EVERY} checks; throws to abort
     * @param groupsProgress    told the number of groups (components of two or more documents) found so far (by the first
     *                          thread: a lower bound while several run)
     */
    public static NearDuplicateComponents find(long[] hashes, NearDuplicateComponents.Sketches sketches, Runnable cancellationCheck,
                                               LongConsumer groupsProgress, Executor executor, int parallelism) {
        return find(hashes, sketches, cancellationCheck, groupsProgress, executor, parallelism, NearDuplicateComponents.CHECK_EVERY);
    }

    static NearDuplicateComponents find(long[] hashes, NearDuplicateComponents.Sketches sketches, Runnable cancellationCheck,
                                        LongConsumer groupsProgress, Executor executor, int parallelism, long checkEvery) {
        int n = hashes.length;
        int[] withSketch = sketches.present().stream().toArray();
        int threads = executor == null ? 1 : Math.max(1, Math.min(parallelism, SketchBands.BANDS));
        AtomicBoolean aborted = new AtomicBoolean();
        Joiner[] joiners = new Joiner[threads];
        for (int t = 0; t < threads; t++) {
            joiners[t] = new Joiner(n, withSketch, sketches, cancellationCheck, checkEvery, aborted);
        }
        Joiner first = joiners[0];
        int[] docsOfNode = new int[n];
        Arrays.fill(docsOfNode, 1);
        first.uf.trackGroups(docsOfNode);
        first.progress = () -> groupsProgress.accept(first.uf.groups);
        new NearDuplicateComponents.Parts(threads, part -> {
            for (int band = part; band < SketchBands.BANDS; band += threads) {
                joiners[part].join(band);
            }
        }, aborted).run(executor);
        NearDuplicateComponents.UnionFind uf = first.uf;
        long comparisons = 0;
        long hot = 0;
        for (Joiner j : joiners) {
            if (j != first) {
                uf.absorb(j.uf);
            }
            comparisons += j.comparisons;
            hot += j.hot;
        }
        Arrays.fill(joiners, null);
        cancellationCheck.run();
        groupsProgress.accept(uf.groups);
        return number(hashes, sketches, uf, comparisons, hot);
    }

    /** Joins bands in one thread: its own sort array and union-find. */
    private static final class Joiner {
        final NearDuplicateComponents.UnionFind uf;
        private final int[] withSketch;
        private final NearDuplicateComponents.Sketches sketches;
        private final Runnable cancellationCheck;
        private final long checkEvery;
        private final AtomicBoolean aborted;
        private final long[] entries;
        private final int[] start = new int[(1 << TOP_BITS) + 1];
        Runnable progress = () -> {};
        long comparisons;
        long hot;
        private long nextCheck;

        Joiner(int n, int[] withSketch, NearDuplicateComponents.Sketches sketches, Runnable cancellationCheck, long checkEvery,
               AtomicBoolean aborted) {
            this.uf = new NearDuplicateComponents.UnionFind(n);
            this.withSketch = withSketch;
            this.sketches = sketches;
            this.cancellationCheck = cancellationCheck;
            this.checkEvery = checkEvery;
            this.aborted = aborted;
            this.entries = new long[withSketch.length];
            this.nextCheck = checkEvery;
        }

        void join(int band) {
            NearDuplicateComponents.check(cancellationCheck, aborted);
            byte[] bytes = sketches.bytes();
            int size = sketches.size();
            // counting sort by the key's top bits, each entry the rest of the key and the document; then each bucket sorted
            Arrays.fill(start, 0);
            for (int doc : withSketch) {
                start[(int) (SketchBands.key(bytes, doc * size, band) >>> LOW_BITS) + 1]++;
            }
            for (int b = 0; b < 1 << TOP_BITS; b++) {
                start[b + 1] += start[b];
            }
            int[] fill = Arrays.copyOf(start, 1 << TOP_BITS);
            for (int doc : withSketch) {
                long key = SketchBands.key(bytes, doc * size, band);
                entries[fill[(int) (key >>> LOW_BITS)]++] = ((key & ((1L << LOW_BITS) - 1)) << DOC_BITS) | doc;
            }
            for (int b = 0; b < 1 << TOP_BITS; b++) {
                int from = start[b];
                int to = start[b + 1];
                if (to - from < 2) {
                    continue;
                }
                Arrays.sort(entries, from, to);
                for (int run = from; run < to;) {
                    int end = run + 1;
                    while (end < to && entries[end] >>> DOC_BITS == entries[run] >>> DOC_BITS) {
                        end++;
                    }
                    if (end - run > 1) {
                        boolean isHot = end - run > HOT;
                        if (isHot) {
                            hot++;
                        }
                        comparisons += link(entries, run, end, isHot ? run + ANCHORS : end, uf, sketches);
                        if (comparisons >= nextCheck) {
                            NearDuplicateComponents.check(cancellationCheck, aborted);
                            progress.run();
                            nextCheck = comparisons + checkEvery;
                        }
                    }
                    run = end;
                }
            }
            progress.run();
        }
    }

    /**
     * Checks the pairs of bucket {@code entries[from..to)} whose first document is among {@code entries[from..anchorsEnd)}
     * (all pairs when {@code anchorsEnd == to}) and are not in one component yet; returns how many it checked.
     */
    private static long link(long[] entries, int from, int to, int anchorsEnd, NearDuplicateComponents.UnionFind uf,
                             NearDuplicateComponents.Sketches sketches) {
        byte[] bytes = sketches.bytes();
        int size = sketches.size();
        long checked = 0;
        int anchors = Math.min(anchorsEnd, to);
        for (int i = from; i < anchors; i++) {
            int a = (int) (entries[i] & DOC_MASK);
            for (int j = i + 1; j < to; j++) {
                int b = (int) (entries[j] & DOC_MASK);
                if (uf.find(a) == uf.find(b)) {
                    continue;
                }
                checked++;
                if (sketches.test().linked(bytes, a * size, bytes, b * size)) {
                    uf.union(a, b);
                }
            }
        }
        return checked;
    }

    /**
     * Numbers the components in order of their smallest fingerprint (unsigned), then their smallest sketch: the documents
     * sorted so, the first document of each component is its representative and the order of first documents is the order
     * of the components. Ids made unique as {@link NearDuplicateComponents#uniqueIds} does.
     */
    private static NearDuplicateComponents number(long[] hashes, NearDuplicateComponents.Sketches sketches,
                                                  NearDuplicateComponents.UnionFind uf, long comparisons,
                                                  long hotBuckets) {
        int n = hashes.length;
        long[] sorted = hashes.clone();
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        NearDuplicateComponents.radixSortUnsigned(sorted, order);
        NearDuplicateComponents.sortRunsBySketch(sorted, order, sketches);
        int[] idOfRoot = new int[n];
        Arrays.fill(idOfRoot, -1);
        long[] minHash = new long[n];
        int[] representative = new int[n];
        int count = 0;
        for (int i = 0; i < n; i++) {
            int doc = order[i];
            int root = uf.find(doc);
            if (idOfRoot[root] < 0) {
                idOfRoot[root] = count;
                minHash[count] = sorted[i];
                representative[count] = doc;
                count++;
            }
        }
        sorted = null;
        order = null;
        minHash = Arrays.copyOf(minHash, count);
        representative = Arrays.copyOf(representative, count);
        NearDuplicateComponents.uniqueIds(minHash);
        int[] componentSize = new int[count];
        int[] componentOf = new int[n];
        for (int doc = 0; doc < n; doc++) {
            int c = idOfRoot[uf.find(doc)];
            componentOf[doc] = c;
            componentSize[c]++;
        }
        return new NearDuplicateComponents(componentOf, componentSize, minHash, representative, comparisons, hotBuckets);
    }
}
