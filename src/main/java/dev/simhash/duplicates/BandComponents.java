package dev.simhash.duplicates;

import dev.simhash.core.SketchBands;

import java.util.Arrays;
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
final class BandComponents {

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
     * Heap held at the peak for {@code n} documents, besides their fingerprints and sketches: an upper bound, charged to a
     * circuit breaker before grouping. Throughout: the union-find with its group count (12 bytes per document) and the
     * documents that have a sketch (4); while joining, one band's sort array (8) and its counts; while numbering, the sorted
     * copy of the fingerprints, the order and their radix buffers (24), the order buffer by sketch (4), and the component
     * arrays (at most 24).
     */
    static long estimateBytes(int n) {
        return 16L * n + Math.max(8L * n, 52L * n) + 2 * ((1L << TOP_BITS) + 1) * Integer.BYTES;
    }

    /**
     * Groups documents {@code 0 .. hashes.length-1}: document d's sketch is in {@code sketches} when it has one (documents
     * without one are groups of their own).
     *
     * @param cancellationCheck called between bands and every {@link NearDuplicateComponents#CHECK_EVERY} checks; throws to abort
     * @param groupsProgress    told the number of groups (components of two or more documents) found so far
     */
    static NearDuplicateComponents find(long[] hashes, NearDuplicateComponents.Sketches sketches, Runnable cancellationCheck,
                                        LongConsumer groupsProgress) {
        return find(hashes, sketches, cancellationCheck, groupsProgress, NearDuplicateComponents.CHECK_EVERY);
    }

    static NearDuplicateComponents find(long[] hashes, NearDuplicateComponents.Sketches sketches, Runnable cancellationCheck,
                                        LongConsumer groupsProgress, long checkEvery) {
        int n = hashes.length;
        byte[] bytes = sketches.bytes();
        int size = sketches.size();
        int[] withSketch = sketches.present().stream().toArray();
        int m = withSketch.length;
        NearDuplicateComponents.UnionFind uf = new NearDuplicateComponents.UnionFind(n);
        int[] docsOfNode = new int[n];
        Arrays.fill(docsOfNode, 1);
        uf.trackGroups(docsOfNode);
        long[] entries = new long[m];
        int[] start = new int[(1 << TOP_BITS) + 1];
        long comparisons = 0;
        long hot = 0;
        long nextCheck = checkEvery;
        for (int band = 0; band < SketchBands.BANDS; band++) {
            cancellationCheck.run();
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
                            cancellationCheck.run();
                            groupsProgress.accept(uf.groups);
                            nextCheck = comparisons + checkEvery;
                        }
                    }
                    run = end;
                }
            }
            groupsProgress.accept(uf.groups);
        }
        entries = null;
        cancellationCheck.run();
        return number(hashes, sketches, uf, comparisons, hot);
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
