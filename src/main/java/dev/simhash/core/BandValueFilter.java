package dev.simhash.core;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;

/**
 * The band values a shard holds, as a set that answers "perhaps" or "certainly not": a blocked Bloom filter (each value
 * sets {@value #HASHES} bits within one 512-bit block, one cache line) that grows by generations, each twice the capacity of
 * the one before, so that it never has to be rebuilt. A value that was added is always found: adds are atomic per word, and
 * a full filter (its memory refused) keeps taking values, only answering "perhaps" more often. Thread-safe.
 */
public final class BandValueFilter {

    /** Bits per value a generation is sized for: about one value in a hundred absent ones is answered "perhaps". */
    static final int BITS_PER_VALUE = 10;
    static final int HASHES = 6;
    private static final int BLOCK_WORDS = 8;
    private static final VarHandle WORDS = MethodHandles.arrayElementVarHandle(long[].class);

    /** Most blocks of one generation: its words fit a Java array. */
    private static final long MAX_BLOCKS = (Integer.MAX_VALUE - 64) / BLOCK_WORDS;

    private static final class Generation {
        final long[] words;
        final long blocks;
        final long capacity;
        final AtomicLong count = new AtomicLong();

        Generation(long capacity) {
            this.blocks = blocks(capacity);
            this.words = new long[(int) blocks * BLOCK_WORDS];
            this.capacity = capacity;
        }

        static long blocks(long capacity) {
            return Math.min(MAX_BLOCKS, Math.max(1, (capacity * BITS_PER_VALUE + 64 * BLOCK_WORDS - 1) / (64 * BLOCK_WORDS)));
        }

        static long bytes(long capacity) {
            return 16 + 8 * blocks(capacity) * BLOCK_WORDS;
        }

        /** The first word of the block of a value's hash: its high 32 bits scaled to the blocks (no power of two needed). */
        int base(long h) {
            return (int) (((h >>> 32) * blocks) >>> 32) * BLOCK_WORDS;
        }
    }

    private final LongConsumer charge;
    private volatile Generation[] generations;
    /** Set when a generation's memory was refused: the last one then takes every value. */
    private volatile boolean full;
    private final AtomicLong bytes = new AtomicLong();

    /**
     * An empty filter sized for {@code expectedValues}; {@code charge} is told the bytes of each generation before it is
     * allocated and may refuse them by throwing (the first generation's refusal is thrown to the caller).
     */
    public BandValueFilter(long expectedValues, LongConsumer charge) {
        this.charge = charge;
        long capacity = Math.max(1 << 12, expectedValues);
        charge.accept(Generation.bytes(capacity));
        bytes.set(Generation.bytes(capacity));
        this.generations = new Generation[] {new Generation(capacity)};
    }

    /** Adds a value: {@link #mightContain} answers true for it from now on. */
    public void add(long value) {
        long h = MinHashSketch.mix(value);
        Generation[] gens = generations;
        Generation g = gens[gens.length - 1];
        set(g, h);
        if (g.count.incrementAndGet() > g.capacity && full == false) {
            grow(g);
        }
    }

    /** False when {@code value} was certainly never added; true when it was, or by chance (about 1% at capacity). */
    public boolean mightContain(long value) {
        long h = MinHashSketch.mix(value);
        for (Generation g : generations) {
            if (has(g, h)) {
                return true;
            }
        }
        return false;
    }

    /** The heap of all generations. */
    public long bytes() {
        return bytes.get();
    }

    private static void set(Generation g, long h) {
        long[] w = g.words;
        int base = g.base(h);
        long positions = MinHashSketch.mix(h);
        for (int i = 0; i < HASHES; i++, positions >>>= 9) {
            int p = (int) (positions & 511);
            long bit = 1L << (p & 63);
            int at = base + (p >>> 6);
            if (((long) WORDS.getOpaque(w, at) & bit) == 0) {
                WORDS.getAndBitwiseOr(w, at, bit);
            }
        }
    }

    private static boolean has(Generation g, long h) {
        long[] w = g.words;
        int base = g.base(h);
        long positions = MinHashSketch.mix(h);
        for (int i = 0; i < HASHES; i++, positions >>>= 9) {
            int p = (int) (positions & 511);
            if (((long) WORDS.getOpaque(w, base + (p >>> 6)) & (1L << (p & 63))) == 0) {
                return false;
            }
        }
        return true;
    }

    private synchronized void grow(Generation last) {
        Generation[] gens = generations;
        if (gens[gens.length - 1] != last || full) {
            return;
        }
        long capacity = 2 * last.capacity;
        long size = Generation.bytes(capacity);
        try {
            charge.accept(size);
        } catch (RuntimeException refused) {
            // no more memory: the last generation takes every further value (more "perhaps", never a missed value)
            full = true;
            return;
        }
        bytes.addAndGet(size);
        Generation[] more = Arrays.copyOf(gens, gens.length + 1);
        more[gens.length] = new Generation(capacity);
        generations = more;
    }
}
