package dev.simhash.core;


import java.util.Arrays;
import java.util.BitSet;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.IntConsumer;
import java.util.function.LongConsumer;

/**
 * Connected components of the "within {@code maxDistance} bits" graph over a set of fingerprints
 * (single linkage: a and c share a component if a~b and b~c), found without comparing all pairs:
 * identical fingerprints are merged into one node, nodes are bucketed by each 16-bit block, and
 * each node is compared only with the nodes in buckets within floor(r/4) bits of its own block
 * (Manku et al.'s batch mode with the pigeonhole argument of the {@code simhash} query).
 *
 * <p>With {@link Sketches}, the graph is the verified one: a pair within the radius is an edge only if
 * the two documents' similarity sketches pass the test, and a node is a set of documents with the
 * same fingerprint and the same sketch (documents without a sketch are nodes of their own and link
 * to none). Components are then those of the verified graph: two documents share one only through a
 * path of verified pairs. Plain Java, no Elasticsearch imports.
 */
public final class NearDuplicateComponents {

    /** How many distance computations run between two calls of the cancellation check. */
    static final long CHECK_EVERY = 1 << 20;

    private static final int BUCKETS = 1 << SimHash.BLOCK_BITS;

    private final int[] componentOf;
    private final int[] componentSize;
    private final long[] componentMinHash;
    private final int[] representative;
    private final long comparisons;
    private final long hotBuckets;

    /** Tells whether two sketches are similar enough to link their documents. */
    @FunctionalInterface
    public interface SketchTest {
        boolean linked(byte[] a, int aOffset, byte[] b, int bOffset);
    }

    /**
     * The documents' similarity sketches: document d's at {@code bytes[d * size ..]} when {@code present.get(d)}, and the
     * test a candidate pair must pass to be linked.
     */
    public record Sketches(byte[] bytes, BitSet present, int size, SketchTest test) {}

    public NearDuplicateComponents(int[] componentOf, int[] componentSize, long[] componentMinHash, int[] representative,
                            long comparisons, long hotBuckets) {
        this.componentOf = componentOf;
        this.componentSize = componentSize;
        this.componentMinHash = componentMinHash;
        this.representative = representative;
        this.comparisons = comparisons;
        this.hotBuckets = hotBuckets;
    }

    /**
     * Groups documents {@code 0 .. hashes.length-1} by their fingerprints.
     *
     * @param hashes            the fingerprint of each document
     * @param maxDistance       link documents whose fingerprints differ in at most this many bits (0..64)
     * @param cancellationCheck called regularly; throws to abort (e.g. when the task was cancelled)
     */
    public static NearDuplicateComponents find(long[] hashes, int maxDistance, Runnable cancellationCheck) {
        return find(hashes, maxDistance, cancellationCheck, g -> {}, null, 1, CHECK_EVERY);
    }

    /**
     * Like {@link #find(long[], int, Runnable)}, and reports the number of groups (components of two or more documents)
     * found so far to {@code groupsProgress} at every cancellation check, for a task's status.
     */
    public static NearDuplicateComponents find(long[] hashes, int maxDistance, Runnable cancellationCheck, LongConsumer groupsProgress) {
        return find(hashes, maxDistance, cancellationCheck, groupsProgress, null, 1, CHECK_EVERY);
    }

    /**
     * Like {@link #find(long[], int, Runnable, LongConsumer)}, comparing the four block tables in up to
     * {@code parallelism} threads (the caller's and {@code parallelism - 1} tasks on {@code executor}); each extra thread
     * costs 20 bytes per distinct fingerprint. The result is the same for every parallelism.
     */
    public static NearDuplicateComponents find(long[] hashes, int maxDistance, Runnable cancellationCheck, LongConsumer groupsProgress,
                                               Executor executor, int parallelism) {
        return find(hashes, maxDistance, cancellationCheck, groupsProgress, executor, parallelism, CHECK_EVERY);
    }

    static NearDuplicateComponents find(long[] hashes, int maxDistance, Runnable cancellationCheck, long checkEvery) {
        return find(hashes, maxDistance, cancellationCheck, g -> {}, null, 1, checkEvery);
    }

    static NearDuplicateComponents find(long[] hashes, int maxDistance, Runnable cancellationCheck, LongConsumer groupsProgress,
                                        Executor executor, int parallelism, long checkEvery) {
        return find(hashes, null, maxDistance, cancellationCheck, groupsProgress, executor, parallelism, checkEvery);
    }

    /**
     * The components of the verified graph: pairs within {@code maxDistance} bits whose sketches pass {@code sketches}'
     * test (null: every pair within the radius). Otherwise as {@link #find(long[], int, Runnable, LongConsumer, Executor, int)}.
     */
    public static NearDuplicateComponents find(long[] hashes, Sketches sketches, int maxDistance, Runnable cancellationCheck,
                                               LongConsumer groupsProgress, Executor executor, int parallelism) {
        return find(hashes, sketches, maxDistance, cancellationCheck, groupsProgress, executor, parallelism, CHECK_EVERY);
    }

    static NearDuplicateComponents find(long[] hashes, Sketches sketches, int maxDistance, Runnable cancellationCheck,
                                        LongConsumer groupsProgress, Executor executor, int parallelism, long checkEvery) {
        BlockProbes.checkMaxDistance(maxDistance);
        int n = hashes.length;

        // 1. identical fingerprints are one node: they are always in the same component. Nodes are numbered in
        // ascending unsigned order, so the first node of a component is its smallest fingerprint.
        long[] sorted = hashes.clone();
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        radixSortUnsigned(sorted, order);
        if (sketches != null) {
            sortRunsBySketch(sorted, order, sketches);
        }
        int[] nodeOfDoc = new int[n];
        // with sketches, the first document of each node: where its sketch is
        int[] nodeDoc = sketches == null ? null : new int[n];
        int m = 0;
        for (int i = 0; i < n; i++) {
            if (m == 0 || sorted[m - 1] != sorted[i] || (sketches != null && !sameSketch(sketches, nodeDoc[m - 1], order[i]))) {
                if (nodeDoc != null) {
                    nodeDoc[m] = order[i];
                }
                sorted[m++] = sorted[i];
            }
            nodeOfDoc[order[i]] = m - 1;
        }
        long[] nodes = Arrays.copyOf(sorted, m);
        // not needed any more: let a large report's peak heap shrink before the union-find arrays are allocated
        sorted = null;
        order = null;
        cancellationCheck.run();

        // 2. union-find over the nodes, edges from block buckets. With parallelism p > 1 the four block tables are split
        // among p threads, each with its own union-find, merged at the end: the components do not depend on the split
        int threads = executor == null ? 1 : Math.max(1, Math.min(parallelism, SimHash.BLOCKS));
        Linker[] linkers = new Linker[threads];
        AtomicBoolean aborted = new AtomicBoolean();
        for (int t = 0; t < threads; t++) {
            linkers[t] = new Linker(m, maxDistance, cancellationCheck, checkEvery, aborted, sketches, nodeDoc);
        }
        Linker linker = linkers[0];
        // documents per node, for the running count of groups (a node of identical fingerprints is already a group)
        int[] docsOfNode = new int[m];
        for (int i = 0; i < n; i++) {
            docsOfNode[nodeOfDoc[i]]++;
        }
        linker.uf.trackGroups(docsOfNode);
        // while threads run, the count is that of the first thread's union-find: a lower bound
        linker.progress = () -> groupsProgress.accept(linker.uf.groups);
        groupsProgress.accept(linker.uf.groups);
        int[] masks = BlockProbes.within(0, BlockProbes.perBlockRadius(maxDistance));
        new Parts(threads, part -> linkBlocks(linkers[part], part, threads, nodes, masks), aborted).run(executor);
        UnionFind uf = linker.uf;
        long comparisons = linker.comparisons;
        for (int t = 1; t < threads; t++) {
            uf.absorb(linkers[t].uf);
            comparisons += linkers[t].comparisons;
        }
        // the bucket arrays and the other union-finds are done with: the peak that estimateBytes charges assumes so
        for (Linker l : linkers) {
            l.releaseBuckets();
        }
        Arrays.fill(linkers, null);
        cancellationCheck.run();
        groupsProgress.accept(uf.groups);

        // 3. dense component ids (in order of their smallest fingerprint), sizes in documents
        int[] componentOfNode = new int[m];
        int[] idOfRoot = new int[m];
        Arrays.fill(idOfRoot, -1);
        long[] minHash = new long[m];
        int[] firstDoc = nodeDoc == null ? null : new int[m];
        int count = 0;
        for (int u = 0; u < m; u++) {
            int root = uf.find(u);
            if (idOfRoot[root] < 0) {
                minHash[count] = nodes[u];
                if (firstDoc != null) {
                    firstDoc[count] = nodeDoc[u];
                }
                idOfRoot[root] = count++;
            }
            componentOfNode[u] = idOfRoot[root];
        }
        minHash = Arrays.copyOf(minHash, count);
        if (sketches != null) {
            firstDoc = Arrays.copyOf(firstDoc, count);
            uniqueIds(minHash);
        }
        int[] size = new int[count];
        int[] componentOf = nodeOfDoc; // reused in place: the node numbers are no longer needed
        for (int i = 0; i < n; i++) {
            int c = componentOfNode[nodeOfDoc[i]];
            componentOf[i] = c;
            size[c]++;
        }
        return new NearDuplicateComponents(componentOf, size, minHash, firstDoc, comparisons, 0);
    }

    /**
     * Makes the components' ids unique: verified components can share their smallest fingerprint (documents with equal
     * fingerprints whose sketches differ). {@code ids} is in ascending unsigned order, so sharing ones are adjacent; the first
     * keeps the fingerprint, each later one takes the next value that is neither another component's smallest fingerprint
     * nor taken already. Rare, so the taken values are kept in a set.
     */
    static void uniqueIds(long[] ids) {
        long[] original = ids.clone();
        Set<Long> taken = null;
        for (int c = 1; c < ids.length; c++) {
            if (original[c] != original[c - 1]) {
                continue;
            }
            if (taken == null) {
                taken = new HashSet<>();
            }
            long v = original[c];
            do {
                v++;
            } while (containsUnsigned(original, v) || taken.contains(v));
            taken.add(v);
            ids[c] = v;
        }
    }

    private static boolean containsUnsigned(long[] ascendingUnsigned, long v) {
        int lo = 0;
        int hi = ascendingUnsigned.length - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int cmp = Long.compareUnsigned(ascendingUnsigned[mid], v);
            if (cmp == 0) {
                return true;
            }
            if (cmp < 0) {
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return false;
    }

    /** Within each run of equal fingerprints, orders the documents by sketch (those without one last, by document). */
    static void sortRunsBySketch(long[] sorted, int[] order, Sketches sketches) {
        int n = sorted.length;
        int[] buffer = null;
        for (int start = 0; start < n;) {
            int end = start + 1;
            while (end < n && sorted[end] == sorted[start]) {
                end++;
            }
            if (end - start > 1) {
                if (buffer == null) {
                    buffer = new int[n];
                }
                mergeSort(order, buffer, start, end, sketches);
            }
            start = end;
        }
    }

    private static void mergeSort(int[] a, int[] buffer, int from, int to, Sketches sketches) {
        if (to - from < 2) {
            return;
        }
        int mid = (from + to) >>> 1;
        mergeSort(a, buffer, from, mid, sketches);
        mergeSort(a, buffer, mid, to, sketches);
        System.arraycopy(a, from, buffer, from, to - from);
        int i = from;
        int j = mid;
        for (int k = from; k < to; k++) {
            if (j >= to || (i < mid && compareSketches(sketches, buffer[i], buffer[j]) <= 0)) {
                a[k] = buffer[i++];
            } else {
                a[k] = buffer[j++];
            }
        }
    }

    private static int compareSketches(Sketches s, int docA, int docB) {
        boolean a = s.present().get(docA);
        boolean b = s.present().get(docB);
        if (a != b) {
            return a ? -1 : 1;
        }
        if (!a) {
            return Integer.compare(docA, docB);
        }
        return Arrays.compareUnsigned(s.bytes(), docA * s.size(), docA * s.size() + s.size(), s.bytes(), docB * s.size(),
            docB * s.size() + s.size());
    }

    /** Whether two documents have the same sketch (documents without one never do). */
    private static boolean sameSketch(Sketches s, int docA, int docB) {
        if (!s.present().get(docA) || !s.present().get(docB)) {
            return false;
        }
        return Arrays.equals(s.bytes(), docA * s.size(), docA * s.size() + s.size(), s.bytes(), docB * s.size(), docB * s.size() + s.size());
    }

    /**
     * Heap that {@link #find} holds at its peak for {@code n} fingerprints grouped in {@code parallelism} threads, on top of
     * the fingerprints themselves: an upper bound (every fingerprint distinct), charged to a circuit breaker before
     * grouping. The phases: sorting (the sorted copy, the order and their radix buffers: 24 bytes per document); linking
     * (node numbers 4, distinct fingerprints 8, documents per node 4, and per thread the bucket arrays and a union-find,
     * 20); numbering the components (node numbers, fingerprints, one union-find, documents per node, and the component
     * arrays: 52).
     */
    public static long estimateBytes(int n, int parallelism) {
        return estimateBytes(n, parallelism, false);
    }

    /**
     * Like {@link #estimateBytes(int, int)}; with sketches ({@code verified}) also the first document of each node (4 bytes
     * per document) and the buffer that orders equal fingerprints by sketch (4), besides the sketches themselves, which the
     * caller holds and charges.
     */
    public static long estimateBytes(int n, int parallelism, boolean verified) {
        int threads = Math.max(1, Math.min(parallelism, SimHash.BLOCKS));
        long extra = verified ? 8L * n : 0;
        long sorting = 24L * n + extra;
        long linking = 16L * n + 20L * threads * n + (long) threads * (BUCKETS + 1) * Integer.BYTES * 2 + extra;
        long numbering = 52L * n + extra;
        return Math.max(sorting, Math.max(linking, numbering)) + RADIX_COUNTS_BYTES;
    }

    private static final long RADIX_COUNTS_BYTES = (BUCKETS + 1L) * Integer.BYTES;

    /** Heap the result keeps: a component number per document, a size and a smallest fingerprint per component. */
    public long ramBytesUsed() {
        return (long) componentOf.length * Integer.BYTES + (long) componentSize.length * (Integer.BYTES + Long.BYTES)
            + (representative == null ? 0 : (long) representative.length * Integer.BYTES) + 64;
    }

    /** Links the nodes of block tables {@code first, first + step, ...} with {@code linker}. */
    private static void linkBlocks(Linker linker, int first, int step, long[] nodes, int[] masks) {
        int m = nodes.length;
        int[] bucketStart = new int[BUCKETS + 1];
        for (int j = first; j < SimHash.BLOCKS; j += step) {
            // counting sort of the nodes by block j; within a bucket nodes stay in ascending order
            Arrays.fill(bucketStart, 0);
            for (int u = 0; u < m; u++) {
                bucketStart[SimHash.block(nodes[u], j) + 1]++;
            }
            for (int b = 0; b < BUCKETS; b++) {
                bucketStart[b + 1] += bucketStart[b];
            }
            int[] fill = Arrays.copyOf(bucketStart, BUCKETS);
            for (int u = 0; u < m; u++) {
                int k = fill[SimHash.block(nodes[u], j)]++;
                linker.bucketNodes[k] = u;
                // hashes in bucket order: the verification scans read memory sequentially
                linker.bucketHashes[k] = nodes[u];
            }
            // walk bucket by bucket: every pair of nodes whose block j differs in at most floor(r/4) bits is compared
            // exactly once in this table, and both buckets' hashes are contiguous, so the scan stays in cache
            for (int b = 0; b < BUCKETS; b++) {
                int start = bucketStart[b];
                int end = bucketStart[b + 1];
                if (start == end) {
                    continue;
                }
                linker.withinBucket(start, end);
                for (int mask : masks) {
                    int p = b ^ mask;
                    // mask 0 is the bucket itself (done above); p < b was done when the walk was at p
                    if (p > b && bucketStart[p] < bucketStart[p + 1]) {
                        linker.betweenBuckets(start, end, bucketStart[p], bucketStart[p + 1]);
                    }
                }
            }
        }
    }

    /** Sorts {@code keys} as unsigned values, permuting {@code order} alongside: LSD radix sort on 16-bit digits. */
    static void radixSortUnsigned(long[] keys, int[] order) {
        int n = keys.length;
        long[] keysTmp = new long[n];
        int[] orderTmp = new int[n];
        int[] count = new int[BUCKETS + 1];
        for (int shift = 0; shift < Long.SIZE; shift += SimHash.BLOCK_BITS) {
            Arrays.fill(count, 0);
            for (int i = 0; i < n; i++) {
                count[(int) ((keys[i] >>> shift) & 0xFFFF) + 1]++;
            }
            for (int b = 0; b < BUCKETS; b++) {
                count[b + 1] += count[b];
            }
            for (int i = 0; i < n; i++) {
                int k = count[(int) ((keys[i] >>> shift) & 0xFFFF)]++;
                keysTmp[k] = keys[i];
                orderTmp[k] = order[i];
            }
            // swap roles: after an even number of passes (four) the result is back in the caller's arrays
            long[] kt = keys;
            keys = keysTmp;
            keysTmp = kt;
            int[] ot = order;
            order = orderTmp;
            orderTmp = ot;
        }
    }

    /** Number of documents. */
    public int size() {
        return componentOf.length;
    }

    /** Number of components, including components of one document. */
    public int componentCount() {
        return componentSize.length;
    }

    /** Component id (0 .. componentCount-1) of document {@code doc}. */
    public int componentOf(int doc) {
        return componentOf[doc];
    }

    /** Number of documents in component {@code c}. */
    public int componentSize(int c) {
        return componentSize[c];
    }

    /**
     * The id of component {@code c}: its smallest fingerprint (compared unsigned, i.e. as its hex form), unique per
     * component because identical fingerprints always share a component. With sketches, components can share their
     * smallest fingerprint: all but the first (in sketch order) take the next unused value instead (see {@link #uniqueIds}).
     */
    public long componentMinHash(int c) {
        return componentMinHash[c];
    }

    /**
     * With sketches, the representative document of component {@code c}: the first of its node with the smallest fingerprint
     * and, among equal fingerprints, the smallest sketch; -1 without sketches.
     */
    public int representative(int c) {
        return representative == null ? -1 : representative[c];
    }

    /** Candidate pairs whose full distance (or, by bands, whose sketches) were compared: the work done, for cost reports and tests. */
    public long comparisons() {
        return comparisons;
    }

    /** Grouped by bands: the buckets found hot, whose members were checked against anchors only ({@link BandComponents}); else 0. */
    public long hotBuckets() {
        return hotBuckets;
    }

    /**
     * Runs parts {@code 0 .. n-1} of the linking: part 0 in the caller's thread, the others offered to the executor. A
     * part is run by whichever thread claims it first, and once the caller is done with its own part it claims and runs
     * every part no pool thread has started, so it only ever waits for parts that are already running: no deadlock when
     * the executor is saturated or is the caller's own pool. The first failure stops the other parts; a cancellation
     * (thrown by the cancellation check) is what the caller sees, whichever part saw it and whatever failed besides.
     */
    public static final class Parts {
        private final int n;
        private final IntConsumer work;
        // shared by all parts of one grouping: set when a part fails, so the others stop at their next check
        private final AtomicBoolean aborted;
        private final AtomicBoolean[] claimed;
        private final AtomicReferenceArray<Throwable> failures;
        private final CountDownLatch done;

        public Parts(int n, IntConsumer work, AtomicBoolean aborted) {
            this.n = n;
            this.work = work;
            this.aborted = aborted;
            this.claimed = new AtomicBoolean[n];
            for (int i = 0; i < n; i++) {
                claimed[i] = new AtomicBoolean();
            }
            this.failures = new AtomicReferenceArray<>(n);
            this.done = new CountDownLatch(n);
        }

        public void run(Executor executor) {
            for (int part = 1; part < n; part++) {
                int p = part;
                try {
                    executor.execute(() -> runIfUnclaimed(p));
                } catch (RejectedExecutionException e) {
                    // the caller runs it below
                }
            }
            for (int part = 0; part < n; part++) {
                runIfUnclaimed(part);
            }
            boolean interrupted = false;
            while (true) {
                try {
                    // only parts that pool threads are running are left: they end soon, at once after an abort
                    done.await();
                    break;
                } catch (InterruptedException e) {
                    // not a reason to return a result of missing parts: finish waiting, keep the interrupt for the caller
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
            rethrow();
        }

        private void runIfUnclaimed(int part) {
            if (!claimed[part].compareAndSet(false, true)) {
                return;
            }
            try {
                if (!aborted.get()) {
                    work.accept(part);
                }
            } catch (Throwable t) {
                failures.set(part, t);
                abort();
            } finally {
                done.countDown();
            }
        }

        private void abort() {
            aborted.set(true);
        }

        private void rethrow() {
            Throwable first = null;
            for (int i = 0; i < n; i++) {
                Throwable t = failures.get(i);
                if (t instanceof Cancelled) {
                    first = t;
                    break;
                }
                if (first == null && t != null && !(t instanceof Aborted)) {
                    first = t;
                }
            }
            if (first == null) {
                return;
            }
            Throwable primary = first instanceof Cancelled c ? c.getCause() : first;
            for (int i = 0; i < n; i++) {
                Throwable t = failures.get(i);
                if (t != null && t != first && !(t instanceof Aborted)) {
                    primary.addSuppressed(t instanceof Cancelled c ? c.getCause() : t);
                }
            }
            if (primary instanceof RuntimeException re) {
                throw re;
            }
            if (primary instanceof Error e) {
                throw e;
            }
            throw new IllegalStateException(primary);
        }
    }

    /**
     * The check a part runs every so often: the cancellation check (what it throws is carried as {@link Cancelled}, so that it
     * wins over every other failure), then whether another part failed ({@link Aborted}).
     */
    static void check(Runnable cancellationCheck, AtomicBoolean aborted) {
        try {
            cancellationCheck.run();
        } catch (RuntimeException e) {
            throw new Cancelled(e);
        }
        if (aborted.get()) {
            throw new Aborted();
        }
    }

    /** What the cancellation check threw, in a part: carried so that it wins over every other failure. */
    private static final class Cancelled extends RuntimeException {
        Cancelled(RuntimeException cause) {
            super(cause.getMessage(), cause, false, false);
        }
    }

    /** A part stopped because another one failed: never reported itself. */
    private static final class Aborted extends RuntimeException {
        Aborted() {
            super("aborted", null, false, false);
        }
    }

    /** Compares the nodes of one block table's buckets and links those within the radius. */
    private static final class Linker {
        int[] bucketNodes;
        long[] bucketHashes;
        final UnionFind uf;
        final int maxDistance;
        final Runnable cancellationCheck;
        long comparisons;
        final long checkEvery;
        long nextCheck;
        Runnable progress = () -> {};
        // shared by all linkers of one grouping: set when a part fails, so the others stop at their next check
        final AtomicBoolean aborted;

        // with sketches: a pair within the radius is linked only if its sketches pass the test
        final Sketches sketches;
        final int[] nodeDoc;

        Linker(int nodes, int maxDistance, Runnable cancellationCheck, long checkEvery, AtomicBoolean aborted, Sketches sketches,
               int[] nodeDoc) {
            this.sketches = sketches;
            this.nodeDoc = nodeDoc;
            this.aborted = aborted;
            this.checkEvery = checkEvery;
            this.nextCheck = checkEvery;
            this.bucketNodes = new int[nodes];
            this.bucketHashes = new long[nodes];
            this.uf = new UnionFind(nodes);
            this.maxDistance = maxDistance;
            this.cancellationCheck = cancellationCheck;
        }

        void releaseBuckets() {
            bucketNodes = null;
            bucketHashes = null;
        }

        void withinBucket(int start, int end) {
            long[] hashes = bucketHashes;
            int[] nodes = bucketNodes;
            for (int k1 = start; k1 < end; k1++) {
                long h = hashes[k1];
                for (int k2 = k1 + 1; k2 < end; k2++) {
                    if (Long.bitCount(h ^ hashes[k2]) <= maxDistance && verified(nodes[k1], nodes[k2])) {
                        uf.union(nodes[k1], nodes[k2]);
                    }
                }
                counted(end - k1 - 1);
            }
        }

        void betweenBuckets(int start, int end, int otherStart, int otherEnd) {
            long[] hashes = bucketHashes;
            int[] nodes = bucketNodes;
            for (int k1 = start; k1 < end; k1++) {
                long h = hashes[k1];
                for (int k2 = otherStart; k2 < otherEnd; k2++) {
                    if (Long.bitCount(h ^ hashes[k2]) <= maxDistance && verified(nodes[k1], nodes[k2])) {
                        uf.union(nodes[k1], nodes[k2]);
                    }
                }
                counted(otherEnd - otherStart);
            }
        }

        /** Whether nodes u and v, within the radius, are linked: always without sketches, else when their sketches pass. */
        private boolean verified(int u, int v) {
            if (sketches == null) {
                return true;
            }
            int a = nodeDoc[u];
            int b = nodeDoc[v];
            if (!sketches.present().get(a) || !sketches.present().get(b)) {
                return false;
            }
            int size = sketches.size();
            return sketches.test().linked(sketches.bytes(), a * size, sketches.bytes(), b * size);
        }

        private void counted(int pairs) {
            comparisons += pairs;
            // by work done, not by bucket: one crowded bucket (e.g. many fingerprints sharing a block) can be most of the work
            if (comparisons >= nextCheck) {
                check(cancellationCheck, aborted);
                progress.run();
                nextCheck = comparisons + checkEvery;
            }
        }
    }

    /** Disjoint sets with union by size and path halving. */
    static final class UnionFind {
        private final int[] parent;
        private final int[] size;
        // documents under each root and the number of roots with two or more documents; null: not tracked
        private int[] docs;
        long groups;

        void trackGroups(int[] docsOfNode) {
            docs = docsOfNode;
            groups = 0;
            for (int d : docsOfNode) {
                if (d > 1) {
                    groups++;
                }
            }
        }

        UnionFind(int n) {
            parent = new int[n];
            size = new int[n];
            for (int i = 0; i < n; i++) {
                parent[i] = i;
                size[i] = 1;
            }
        }

        int find(int x) {
            while (parent[x] != x) {
                parent[x] = parent[parent[x]];
                x = parent[x];
            }
            return x;
        }

        /** Links everything {@code other} (over the same elements) links. */
        void absorb(UnionFind other) {
            for (int u = 0; u < parent.length; u++) {
                int root = other.find(u);
                if (root != u) {
                    union(u, root);
                }
            }
        }

        void union(int a, int b) {
            int ra = find(a);
            int rb = find(b);
            if (ra == rb) {
                return;
            }
            if (size[ra] < size[rb]) {
                int t = ra;
                ra = rb;
                rb = t;
            }
            parent[rb] = ra;
            size[ra] += size[rb];
            if (docs != null) {
                groups += 1 - (docs[ra] > 1 ? 1 : 0) - (docs[rb] > 1 ? 1 : 0);
                docs[ra] += docs[rb];
            }
        }
    }
}
