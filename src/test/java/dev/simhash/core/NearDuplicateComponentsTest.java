package dev.simhash.core;

import dev.simhash.core.FingerprintSets;
import dev.simhash.core.SimHash;

import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NearDuplicateComponentsTest {

    private static final Runnable NEVER = () -> {};

    /** Brute force: BFS over all pairs; each document labelled with the smallest document index of its component. */
    static int[] bruteForce(long[] hashes, int r) {
        return components(hashes.length, (a, b) -> SimHash.distance(hashes[a], hashes[b]) <= r);
    }

    /**
     * The components of the graph whose edges are the pairs {@code linked} accepts, found by a breadth-first search over all
     * pairs; each document labelled with the smallest document index of its component.
     */
    static int[] components(int n, java.util.function.BiPredicate<Integer, Integer> linked) {
        int[] label = new int[n];
        Arrays.fill(label, -1);
        ArrayDeque<Integer> queue = new ArrayDeque<>();
        for (int s = 0; s < n; s++) {
            if (label[s] >= 0) {
                continue;
            }
            label[s] = s;
            queue.add(s);
            while (!queue.isEmpty()) {
                int a = queue.poll();
                for (int b = 0; b < n; b++) {
                    if (label[b] < 0 && linked.test(a, b)) {
                        label[b] = s;
                        queue.add(b);
                    }
                }
            }
        }
        return label;
    }

    /** The same canonical labelling from the result: smallest document index per component. */
    static int[] canonical(NearDuplicateComponents c) {
        int[] first = new int[c.componentCount()];
        Arrays.fill(first, -1);
        int[] label = new int[c.size()];
        for (int i = 0; i < c.size(); i++) {
            int comp = c.componentOf(i);
            if (first[comp] < 0) {
                first[comp] = i;
            }
            label[i] = first[comp];
        }
        return label;
    }

    @Test
    void equalsBruteForceOnRandomDataWithPlantedGroups() {
        Random random = new Random(42);
        int[] radii = { 0, 1, 2, 3, 4, 5, 7, 8, 11, 12, 16 };
        int multiMemberComponents = 0;
        for (int round = 0; round < 3; round++) {
            for (int r : radii) {
                long[] hashes = FingerprintSets.planted(random, 1500, 40, Math.max(1, r + 2));
                long[] lastProgress = { -1 };
                NearDuplicateComponents c = NearDuplicateComponents.find(hashes, r, NEVER, g -> lastProgress[0] = g);
                int[] expected = bruteForce(hashes, r);
                assertArrayEquals(expected, canonical(c), "r=" + r + " round=" + round);
                int groups = 0;
                for (int k = 0; k < c.componentCount(); k++) {
                    if (c.componentSize(k) > 1) {
                        multiMemberComponents++;
                        groups++;
                    }
                }
                // the running count of groups for the task status ends at the number of groups
                assertEquals(groups, lastProgress[0], "r=" + r);
                checkSizesAndMinHash(hashes, c);
            }
        }
        assertTrue(multiMemberComponents > 300, "planted groups must form many components, got " + multiMemberComponents);
    }

    @Test
    void parallelGroupingEqualsSequential() throws Exception {
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(3);
        try {
            Random random = new Random(4242);
            for (int r : new int[] { 0, 2, 3, 5, 7, 11, 16 }) {
                long[] hashes = FingerprintSets.planted(random, 3000, 60, Math.max(1, r + 2));
                int[] expected = canonical(NearDuplicateComponents.find(hashes, r, NEVER));
                for (int p : new int[] { 2, 3, 4, 8 }) {
                    long[] last = { -1 };
                    NearDuplicateComponents c = NearDuplicateComponents.find(hashes, r, NEVER, g -> last[0] = g, pool, p);
                    assertArrayEquals(expected, canonical(c), "r=" + r + " parallelism=" + p);
                    checkSizesAndMinHash(hashes, c);
                    long groups = java.util.stream.IntStream.range(0, c.componentCount()).filter(k -> c.componentSize(k) > 1).count();
                    assertEquals(groups, last[0], "final group count, r=" + r + " parallelism=" + p);
                }
            }
            // cancellation in a helper thread aborts the whole run (the caller waits until a helper took its part: otherwise
            // the caller may run that part itself)
            long[] hashes = FingerprintSets.planted(random, 3000, 60, 5);
            CountDownLatch helperStarted = new CountDownLatch(1);
            AtomicInteger callerChecks = new AtomicInteger();
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> NearDuplicateComponents.find(hashes, 7, () -> {
                if (Thread.currentThread().getName().contains("pool")) {
                    helperStarted.countDown();
                    throw new IllegalStateException("cancelled");
                }
                // the first check is before the linking starts (and the helpers are started)
                if (callerChecks.incrementAndGet() > 1) {
                    await(helperStarted);
                }
            }, g -> {}, pool, 2, 10));
            assertEquals("cancelled", e.getMessage());
        } finally {
            pool.shutdownNow();
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            assertTrue(latch.await(30, TimeUnit.SECONDS), "timed out");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    @Test
    void aSaturatedExecutorThatIsAlsoTheCallersPoolDoesNotDeadlock() throws Exception {
        // the caller runs on the executor's only thread: parts it waited for there would never start
        ExecutorService single = Executors.newSingleThreadExecutor(r -> {
            // a daemon: if grouping deadlocks, the stuck thread must not keep the test JVM alive
            Thread t = new Thread(r, "single");
            t.setDaemon(true);
            return t;
        });
        try {
            long[] hashes = FingerprintSets.planted(new Random(11), 3000, 60, 6);
            int[] expected = bruteForce(hashes, 5);
            for (int p : new int[] { 2, 4 }) {
                Future<NearDuplicateComponents> grouping = single.submit(() -> NearDuplicateComponents.find(hashes, 5, NEVER, g -> {},
                    single, p));
                NearDuplicateComponents c = grouping.get(60, TimeUnit.SECONDS);
                assertArrayEquals(expected, canonical(c), "parallelism=" + p);
            }
        } finally {
            single.shutdownNow();
        }
    }

    @Test
    void aCancellationSurfacesAsTheCancellationWhateverFailsAfterIt() {
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            long[] hashes = FingerprintSets.planted(new Random(12), 3000, 60, 5);
            Thread caller = Thread.currentThread();
            AtomicInteger callerChecks = new AtomicInteger();
            CountDownLatch cancelled = new CountDownLatch(1);
            RuntimeException e = assertThrows(RuntimeException.class, () -> NearDuplicateComponents.find(hashes, 7, () -> {
                if (Thread.currentThread() == caller) {
                    // the first check is before the linking starts; the second is in the caller's own part
                    if (callerChecks.incrementAndGet() == 2) {
                        cancelled.countDown();
                        throw new CancellationException("task cancelled");
                    }
                } else {
                    // a helper part fails after the cancellation (e.g. of it): that failure must not replace the cancellation
                    await(cancelled);
                    throw new IllegalStateException("a helper failed after the cancellation");
                }
            }, g -> {}, pool, 4, 10));
            assertInstanceOf(CancellationException.class, e, String.valueOf(e));
            assertEquals("task cancelled", e.getMessage());
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void theChargedEstimateLiesBetweenTheLiveHeapWhileLinkingAndEverythingAGroupingAllocates() {
        int n = 1_000_000;
        Random random = new Random(13);
        long[] hashes = new long[n];
        for (int i = 0; i < n; i++) {
            hashes[i] = random.nextLong();
        }
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        MemoryMXBean heap = ManagementFactory.getMemoryMXBean();
        NearDuplicateComponents.find(hashes, 3, NEVER);
        System.gc();
        long baseline = heap.getHeapMemoryUsage().getUsed();
        long[] whileLinking = { -1 };
        AtomicInteger checks = new AtomicInteger();
        long allocatedBefore = threads.getCurrentThreadAllocatedBytes();
        NearDuplicateComponents c = NearDuplicateComponents.find(hashes, 3, () -> {
            // the first check is after sorting; the next ones are in the linking, the phase with the largest live arrays
            if (checks.incrementAndGet() == 3) {
                System.gc();
                whileLinking[0] = heap.getHeapMemoryUsage().getUsed() - baseline;
            }
        }, 1 << 16);
        long allocated = threads.getCurrentThreadAllocatedBytes() - allocatedBefore;
        assertEquals(n, c.componentCount(), "random fingerprints are distinct: the worst case of the estimate");
        long estimate = NearDuplicateComponents.estimateBytes(n, 1);
        assertTrue(whileLinking[0] > 30L * n, "measured " + whileLinking[0] + " bytes while linking");
        assertTrue(estimate >= whileLinking[0], "estimate " + estimate + " < measured live heap " + whileLinking[0]);
        assertTrue(estimate <= allocated, "estimate " + estimate + " > all bytes allocated " + allocated);
        assertTrue(c.ramBytesUsed() >= 16L * n, "the result keeps a component per document and a size and fingerprint per component");
    }

    static void checkSizesAndMinHash(long[] hashes, NearDuplicateComponents c) {
        int[] size = new int[c.componentCount()];
        long[] min = new long[c.componentCount()];
        Arrays.fill(min, -1L); // all ones: the largest unsigned value
        for (int i = 0; i < hashes.length; i++) {
            int k = c.componentOf(i);
            size[k]++;
            if (Long.compareUnsigned(hashes[i], min[k]) < 0) {
                min[k] = hashes[i];
            }
        }
        for (int k = 0; k < c.componentCount(); k++) {
            assertEquals(size[k], c.componentSize(k));
            assertEquals(min[k], c.componentMinHash(k));
        }
    }

    @Test
    void identicalFingerprintsAlwaysShareAComponentAndMinHashesAreUnique() {
        long[] hashes = { 5, 9, 5, 5, -1, 9, 0x8000_0000_0000_0000L };
        NearDuplicateComponents c = NearDuplicateComponents.find(hashes, 0, NEVER);
        assertEquals(4, c.componentCount());
        assertEquals(c.componentOf(0), c.componentOf(2));
        assertEquals(c.componentOf(0), c.componentOf(3));
        assertEquals(c.componentOf(1), c.componentOf(5));
        assertNotEquals(c.componentOf(0), c.componentOf(1));
        assertEquals(3, c.componentSize(c.componentOf(0)));
        long[] mins = new long[c.componentCount()];
        for (int k = 0; k < mins.length; k++) {
            mins[k] = c.componentMinHash(k);
        }
        assertEquals(mins.length, Arrays.stream(mins).distinct().count());
    }

    @Test
    void singleLinkageChainsAcrossTheRadius() {
        long a = 0L;
        long b = 0b111L;      // 3 bits from a
        long c = 0b111111L;   // 3 bits from b, 6 from a
        long far = ~0L;
        NearDuplicateComponents comps = NearDuplicateComponents.find(new long[] { c, far, a, b }, 3, NEVER);
        assertEquals(2, comps.componentCount());
        assertEquals(comps.componentOf(0), comps.componentOf(2));
        assertEquals(comps.componentOf(0), comps.componentOf(3));
        assertEquals(3, comps.componentSize(comps.componentOf(0)));
        assertEquals(0L, comps.componentMinHash(comps.componentOf(0)));
        assertEquals(-1L, comps.componentMinHash(comps.componentOf(1)));
    }

    @Test
    void emptyAndSingleInputs() {
        assertEquals(0, NearDuplicateComponents.find(new long[0], 3, NEVER).componentCount());
        NearDuplicateComponents one = NearDuplicateComponents.find(new long[] { 42 }, 64, NEVER);
        assertEquals(1, one.componentCount());
        assertEquals(1, one.componentSize(0));
    }

    @Test
    void radius64LinksEverything() {
        long[] hashes = FingerprintSets.planted(new Random(3), 300, 5, 3);
        NearDuplicateComponents c = NearDuplicateComponents.find(hashes, 64, NEVER);
        assertEquals(1, c.componentCount());
    }

    @Test
    void neverComparesAllPairsForSmallRadii() {
        Random random = new Random(9);
        long[] hashes = new long[200_000];
        for (int i = 0; i < hashes.length; i++) {
            hashes[i] = random.nextLong();
        }
        NearDuplicateComponents c = NearDuplicateComponents.find(hashes, 3, NEVER);
        // uniform random: each node meets about 4 * n / 65536 others per table pass; all pairs would be 2e10
        assertTrue(c.comparisons() < 5L * hashes.length * 4 * hashes.length / 65536, "comparisons " + c.comparisons());
        assertEquals(hashes.length, c.componentCount(), "random 64-bit fingerprints are 3 bits apart with negligible probability");
    }

    @Test
    void cancellationCheckIsCalledAndAborts() {
        long[] hashes = FingerprintSets.planted(new Random(5), 20_000, 50, 3);
        AtomicInteger calls = new AtomicInteger();
        NearDuplicateComponents all = NearDuplicateComponents.find(hashes, 7, calls::incrementAndGet, 1000);
        assertTrue(calls.get() >= all.comparisons() / 2000, "calls " + calls.get() + " for " + all.comparisons() + " comparisons");
        assertTrue(calls.get() >= 10, "calls " + calls.get());
        AtomicInteger countdown = new AtomicInteger(3);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> NearDuplicateComponents.find(hashes, 7, () -> {
            if (countdown.decrementAndGet() == 0) {
                throw new IllegalStateException("cancelled");
            }
        }, 1000));
        assertEquals("cancelled", e.getMessage());
    }

    @Test
    void radixSortOrdersUnsignedAndCarriesThePermutation() {
        Random random = new Random(8);
        long[] keys = new long[5000];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = i % 10 == 0 ? keys[random.nextInt(i + 1)] : random.nextLong();
        }
        long[] original = keys.clone();
        int[] order = new int[keys.length];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        NearDuplicateComponents.radixSortUnsigned(keys, order);
        for (int i = 0; i < keys.length; i++) {
            assertEquals(original[order[i]], keys[i]);
            if (i > 0) {
                assertTrue(Long.compareUnsigned(keys[i - 1], keys[i]) <= 0);
            }
        }
    }

    @Test
    void rejectsRadiusOutOfRange() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> NearDuplicateComponents.find(new long[] { 1 }, 65, NEVER));
        assertEquals("[max_distance] must be between 0 and 64, got [65]", e.getMessage());
    }
}
