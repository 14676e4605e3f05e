package dev.simhash.core;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The filter of a shard's band values: never misses a value it was given, rarely claims one it was not, grows in memory it is granted. */
class BandValueFilterTest {

    /** Band values as the sketch gives them: band j's value is j << 40 | a 40-bit key. */
    private static long bandValue(Random r) {
        return ((long) r.nextInt(SketchBands.BANDS) << 40) | (r.nextLong() & ((1L << 40) - 1));
    }

    @Test
    void everyValueAddedIsFoundAndFewOthersAre() {
        for (long seed = 1; seed <= 4; seed++) {
            Random r = new Random(seed);
            AtomicLong charged = new AtomicLong();
            // sized for far fewer values than it gets: it grows through several generations
            BandValueFilter filter = new BandValueFilter(5_000, charged::addAndGet);
            Set<Long> added = new HashSet<>();
            for (int i = 0; i < 200_000; i++) {
                long v = bandValue(r);
                filter.add(v);
                added.add(v);
            }
            for (long v : added) {
                assertTrue(filter.mightContain(v), "added value " + v + " (seed " + seed + ")");
            }
            int claimed = 0;
            int absent = 0;
            while (absent < 100_000) {
                long v = bandValue(r);
                if (added.contains(v) == false) {
                    absent++;
                    claimed += filter.mightContain(v) ? 1 : 0;
                }
            }
            // each generation answers "perhaps" for about 1% of absent values at capacity; the generations add up
            assertTrue(claimed < absent * 0.05, claimed + " of " + absent + " absent values claimed (seed " + seed + ")");
            assertEquals(charged.get(), filter.bytes());
            // 10 bits per value of each generation, and the last is at most twice what it holds
            assertTrue(filter.bytes() < 200_000 * 10 / 8 * 3, "bytes " + filter.bytes());
        }
    }

    @Test
    void valuesAddedByThreadsAtOnceAreAllFound() throws InterruptedException {
        BandValueFilter filter = new BandValueFilter(1_000, bytes -> {});
        int threads = 4;
        long[][] values = new long[threads][50_000];
        List<Thread> running = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Random r = new Random(100 + t);
            long[] mine = values[t];
            for (int i = 0; i < mine.length; i++) {
                mine[i] = bandValue(r);
            }
            Thread thread = new Thread(() -> {
                for (long v : mine) {
                    filter.add(v);
                }
            });
            running.add(thread);
            thread.start();
        }
        for (Thread thread : running) {
            thread.join();
        }
        for (long[] mine : values) {
            for (long v : mine) {
                assertTrue(filter.mightContain(v), "value " + v);
            }
        }
    }

    @Test
    void aFilterRefusedMoreMemoryKeepsEveryValue() {
        AtomicLong granted = new AtomicLong(20_000);
        BandValueFilter filter = new BandValueFilter(4_096, bytes -> {
            if (granted.addAndGet(-bytes) < 0) {
                throw new IllegalStateException("no memory");
            }
        });
        long first = filter.bytes();
        Random r = new Random(7);
        long[] values = new long[100_000];
        for (int i = 0; i < values.length; i++) {
            values[i] = bandValue(r);
            filter.add(values[i]);
        }
        assertTrue(filter.bytes() < 20_000 && filter.bytes() > first, "grew within what was granted: " + filter.bytes());
        for (long v : values) {
            assertTrue(filter.mightContain(v));
        }
        assertThrows(IllegalStateException.class, () -> new BandValueFilter(1_000_000, bytes -> {
            throw new IllegalStateException("no memory");
        }));
    }
}
