package dev.simhash.core;

/**
 * The pair index of a byte-mode bag: open addressing from a pair's key (the ids of its two tokens, first << 32 | second)
 * to the pair's feature id, at most half full, cleared slot by slot.
 */
final class PairIndex {

    private static final int INITIAL_SLOTS = 32;

    private long[] keys = new long[INITIAL_SLOTS];
    /** Per slot the pair's id + 1 (0 = empty). */
    private int[] ids = new int[INITIAL_SLOTS];
    private int count;

    /** The slot holding {@code key}, or {@code ~slot} of the free slot where it would go. */
    int find(long key) {
        int mask = ids.length - 1;
        int i = slot(key) & mask;
        for (; ids[i] != 0; i = (i + 1) & mask) {
            if (keys[i] == key) {
                return i;
            }
        }
        return ~i;
    }

    /** The pair id in a slot {@link #find} returned. */
    int id(int slot) {
        return ids[slot] - 1;
    }

    /** Puts a new pair into the free slot {@link #find} gave, and records each pair's slot as {@code ~slot} in slotOfId. */
    void put(int freeSlot, long key, int id, int[] slotOfId) {
        keys[freeSlot] = key;
        ids[freeSlot] = id + 1;
        slotOfId[id] = ~freeSlot;
        if (2 * ++count > ids.length) {
            rehash(2 * ids.length, slotOfId);
        }
    }

    /** Empties one slot (the caller clears every slot it filled, then calls {@link #emptied}). */
    void clear(int slot) {
        ids[slot] = 0;
    }

    /** All slots are empty again: arrays beyond {@code maxKept} slots are given back. */
    void emptied(int maxKept) {
        count = 0;
        if (ids.length > maxKept) {
            keys = new long[INITIAL_SLOTS];
            ids = new int[INITIAL_SLOTS];
        }
    }

    private void rehash(int capacity, int[] slotOfId) {
        int mask = capacity - 1;
        long[] k = new long[capacity];
        int[] v = new int[capacity];
        for (int j = 0; j < ids.length; j++) {
            int id = ids[j];
            if (id == 0) {
                continue;
            }
            long key = keys[j];
            int i = slot(key) & mask;
            while (v[i] != 0) {
                i = (i + 1) & mask;
            }
            k[i] = key;
            v[i] = id;
            slotOfId[id - 1] = ~i;
        }
        keys = k;
        ids = v;
    }

    private static int slot(long key) {
        long m = key * 0x9E3779B97F4A7C15L;
        return (int) (m ^ m >>> 32);
    }
}
