package dev.simhash.core;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A bag's features as UTF-8 bytes (byte mode: single tokens or adjacent pairs, no feature-weight table): the distinct
 * features in order of first occurrence with their XXH3 hashes and term frequencies, never made into strings.
 *
 * <p>Two features are the same iff their bytes are, exactly as their strings are equal, because UTF-8 is one-to-one on text
 * without unpaired surrogates (the bag keeps such text as strings). A token is found in the token index by a cheap hash of
 * its bytes ({@link #lookupHash}) and the bytes decide; XXH3 is computed once per distinct feature. A pair is found by the
 * ids of its two tokens ({@link PairIndex}): tokens hold no space, so "t1 t2" is the same string as "u1 u2" iff t1 = u1 and
 * t2 = u2; its bytes are made only when it is new, and not kept.
 */
final class ByteFeatures {

    private static final int INITIAL_CAPACITY = 16;
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    /** The token index keeps the high half of the lookup hash beside the id, so a probe reads one entry. */
    private static final long TAG = 0xFFFFFFFF00000000L;
    /** Tokens up to this many bytes get the cheap lookup hash; longer ones their XXH3. */
    private static final int CHEAP_HASH_MAX = 16;

    private byte[] arena = new byte[4096];
    private int arenaSize;
    /** Per id: a token's bytes in the arena (start, length); a pair's token ids (first, second). */
    private int[] starts = new int[INITIAL_CAPACITY];
    private int[] lengths = new int[INITIAL_CAPACITY];
    private long[] hashes = new long[INITIAL_CAPACITY];
    private int[] frequencies = new int[INITIAL_CAPACITY];
    /** Where the index entry of feature id is: its slot in entries (a token), or ~slot in the pair index (a pair). */
    private int[] slotOfId = new int[INITIAL_CAPACITY];
    private int size;
    /** The token index: per slot the high 32 bits of the lookup hash and id + 1 (0 = empty), at most half full. */
    private long[] entries = new long[2 * INITIAL_CAPACITY];
    private int tokenFeatures;
    private final PairIndex pairs = new PairIndex();
    /** A new pair's bytes, when they are not one run of the text being read. */
    private byte[] pairBytes = new byte[256];

    int size() {
        return size;
    }

    /** The XXH3 hashes of the features, in id order (valid up to {@link #size()}). */
    long[] hashes() {
        return hashes;
    }

    long hash(int id) {
        return hashes[id];
    }

    int frequency(int id) {
        return frequencies[id];
    }

    /** The byte length of token feature {@code id}. */
    int tokenLength(int id) {
        return lengths[id];
    }

    /** Counts the token whose UTF-8 bytes are {@code b[off .. off+len)}; returns its feature's id. */
    int countToken(byte[] b, int off, int len) {
        long h = lookupHash(b, off, len);
        long[] e = entries;
        int mask = e.length - 1;
        int i = slot(h) & mask;
        long tag = h & TAG;
        for (long entry; (entry = e[i]) != 0; i = (i + 1) & mask) {
            // same high half of the lookup hash, same length, same bytes: the same feature (the bytes decide, exactly)
            int id = (int) entry - 1;
            if ((entry & TAG) == tag && lengths[id] == len && sameBytes(arena, starts[id], b, off, len)) {
                frequencies[id]++;
                return id;
            }
        }
        if (arena.length - arenaSize < len) {
            arena = Arrays.copyOf(arena, Math.max(2 * arena.length, arenaSize + len));
        }
        int id = newId();
        starts[id] = arenaSize;
        lengths[id] = len;
        arenaSize += len;
        System.arraycopy(b, off, arena, starts[id], len);
        // XXH3 once per distinct feature (the lookup hash of a long token is its XXH3 already)
        hashes[id] = len > CHEAP_HASH_MAX ? h : SimHash.featureHash(arena, starts[id], len);
        e[i] = tag | (id + 1);
        slotOfId[id] = i;
        if (2 * ++tokenFeatures > e.length) {
            rehashTokens(2 * e.length);
        }
        return id;
    }

    /**
     * Counts the pair of the token features {@code first} and {@code second}: their bytes with a space between, found at
     * {@code text[inText ..]}, or (inText -1) made from the tokens' bytes when the pair is new.
     */
    void countPair(int first, int second, byte[] text, int inText) {
        long key = (long) first << 32 | second;
        int slot = pairs.find(key);
        if (slot >= 0) {
            frequencies[pairs.id(slot)]++;
            return;
        }
        int firstLength = lengths[first];
        int length = firstLength + 1 + lengths[second];
        long hash;
        if (inText >= 0) {
            hash = SimHash.featureHash(text, inText, length);
        } else {
            byte[] b = pairBytes;
            if (b.length < length) {
                b = pairBytes = new byte[Math.max(2 * b.length, length)];
            }
            System.arraycopy(arena, starts[first], b, 0, firstLength);
            b[firstLength] = ' ';
            System.arraycopy(arena, starts[second], b, firstLength + 1, length - firstLength - 1);
            hash = SimHash.featureHash(b, 0, length);
        }
        int id = newId();
        hashes[id] = hash;
        starts[id] = first;
        lengths[id] = second;
        pairs.put(~slot, key, id, slotOfId);
    }

    /** A new feature, counted once (the caller fills its hash, starts and lengths entries). */
    private int newId() {
        if (size == hashes.length) {
            int c = 2 * size;
            hashes = Arrays.copyOf(hashes, c);
            starts = Arrays.copyOf(starts, c);
            lengths = Arrays.copyOf(lengths, c);
            frequencies = Arrays.copyOf(frequencies, c);
            slotOfId = Arrays.copyOf(slotOfId, c);
        }
        int id = size++;
        frequencies[id] = 1;
        return id;
    }

    /** The feature {@code id} as a string: its bytes are well-formed UTF-8, so this is the string they came from. */
    String string(int id) {
        if (slotOfId[id] < 0) {
            return string(starts[id]) + FeatureBag.SHINGLE_SEPARATOR + string(lengths[id]);
        }
        return new String(arena, starts[id], lengths[id], StandardCharsets.UTF_8);
    }

    /**
     * Forgets all features (the indexes cleared where the features were, not whole); arrays beyond {@code maxKeptSlots}
     * entries or {@code maxKeptBytes} bytes are given back, so one huge document does not pin them.
     */
    void clear(int maxKeptSlots, int maxKeptBytes) {
        long[] e = entries;
        int[] at = slotOfId;
        for (int id = 0; id < size; id++) {
            int slot = at[id];
            if (slot >= 0) {
                e[slot] = 0;
            } else {
                pairs.clear(~slot);
            }
        }
        tokenFeatures = 0;
        pairs.emptied(maxKeptSlots);
        if (hashes.length > maxKeptSlots) {
            hashes = new long[INITIAL_CAPACITY];
            starts = new int[INITIAL_CAPACITY];
            lengths = new int[INITIAL_CAPACITY];
            frequencies = new int[INITIAL_CAPACITY];
            slotOfId = new int[INITIAL_CAPACITY];
        }
        if (entries.length > maxKeptSlots) {
            entries = new long[2 * INITIAL_CAPACITY];
        }
        if (arena.length > maxKeptBytes) {
            arena = new byte[4096];
        }
        if (pairBytes.length > maxKeptBytes) {
            pairBytes = new byte[256];
        }
        arenaSize = 0;
        size = 0;
    }

    /** The token index with {@code capacity} slots. */
    private void rehashTokens(int capacity) {
        int mask = capacity - 1;
        long[] e = new long[capacity];
        for (int id = 0; id < size; id++) {
            if (slotOfId[id] < 0) {
                continue; // a pair
            }
            long h = lookupHash(arena, starts[id], lengths[id]);
            int i = slot(h) & mask;
            while (e[i] != 0) {
                i = (i + 1) & mask;
            }
            e[i] = (h & TAG) | (id + 1);
            slotOfId[id] = i;
        }
        entries = e;
    }

    private static int slot(long hash) {
        return (int) (hash ^ (hash >>> 32));
    }

    /**
     * The index's hash of a token's bytes: for up to 16 bytes a multiply-mix of (at most) two words covering them and the
     * length (equal bytes give equal hashes; the bytes are compared anyway), beyond that XXH3, which the feature needs.
     */
    static long lookupHash(byte[] b, int off, int len) {
        long x;
        if (len >= 8) {
            if (len > CHEAP_HASH_MAX) {
                return SimHash.featureHash(b, off, len);
            }
            x = (long) LONGS.get(b, off) * 0xC2B2AE3D27D4EB4FL ^ (long) LONGS.get(b, off + len - 8);
        } else if (len >= 4) {
            x = (long) (int) INTS.get(b, off) << 32 | (int) INTS.get(b, off + len - 4) & 0xFFFFFFFFL;
        } else if (len > 0) {
            x = b[off] & 0xFF | (b[off + (len >> 1)] & 0xFF) << 8 | (b[off + len - 1] & 0xFF) << 16;
        } else {
            x = 0;
        }
        long m = (x ^ (long) len << 58) * 0x9E3779B97F4A7C15L;
        return m ^ m >>> 29;
    }

    /**
     * Whether {@code a[aOff ..]} and {@code b[bOff ..]} hold the same {@code len} bytes: up to 16 bytes as two (overlapping)
     * words per side, first and last (together they cover every byte), longer runs by Arrays.equals.
     */
    static boolean sameBytes(byte[] a, int aOff, byte[] b, int bOff, int len) {
        if (len >= 8) {
            if (len > 16) {
                return Arrays.equals(a, aOff, aOff + len, b, bOff, bOff + len);
            }
            int last = len - 8;
            return (long) LONGS.get(a, aOff) == (long) LONGS.get(b, bOff)
                && (long) LONGS.get(a, aOff + last) == (long) LONGS.get(b, bOff + last);
        }
        if (len >= 4) {
            int last = len - 4;
            return (int) INTS.get(a, aOff) == (int) INTS.get(b, bOff) && (int) INTS.get(a, aOff + last) == (int) INTS.get(b, bOff + last);
        }
        for (int i = 0; i < len; i++) {
            if (a[aOff + i] != b[bOff + i]) {
                return false;
            }
        }
        return true;
    }
}
