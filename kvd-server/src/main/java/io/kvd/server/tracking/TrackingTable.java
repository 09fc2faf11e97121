package io.kvd.server.tracking;

import java.util.Arrays;

/**
 * Redis's TrackingTable: each key clients read, with the ids of the clients that may cache it,
 * held in a few primitive arrays and no object per key. A write invalidates a key and its readers
 * read it again at once, so the table's entries churn at the rate of invalidations; as Java
 * objects (a map entry, the key's bytes, an id array) each one lived past a young collection and
 * was copied by it, the collector's whole pause under this load. Here a key is a slot of six ints
 * in {@link #slots}, chained from {@link #buckets} by its hash; its bytes and its ids are blocks
 * of two more arrays ({@link Blocks}), which a removed key gives back for the next one to reuse.
 *
 * <p>A key's ids are sorted in Redis's order (its rax orders them by their bytes in memory,
 * little-endian: low byte first): each is stored byte-reversed with its sign bit flipped, so that
 * the block's signed order is Redis's order. Event loop only.
 */
final class TrackingTable {
    private static final int NONE = -1;
    private static final int INITIAL_SLOTS = 16;
    /** A slot's ints: its key's hash, the next slot in its bucket (or on the free list), ... */
    private static final int HASH = 0;
    private static final int NEXT = 1;
    /** ... its key's offset and length in {@link #keys}, ... */
    private static final int KEY_AT = 2;
    private static final int KEY_LENGTH = 3;
    /** ... its ids' offset in {@link #ids} and their count, 0 for a free slot. */
    private static final int IDS_AT = 4;
    private static final int ID_COUNT = 5;
    private static final int SLOT_INTS = 6;

    private int[] buckets;
    private int[] slots;
    /** Slots ever used: the free list holds the removed ones below it. */
    private int slotsUsed;
    private int freeSlot;
    private int size;
    /** tracking-table-max-keys's sweep over the slots ({@link #nextToEvict}). */
    private int sweep;
    private byte[] keys;
    private Blocks keyBlocks;
    private long[] ids;
    private Blocks idBlocks;

    TrackingTable() {
        clear();
    }

    /** Empties the table, its arrays back to their first size. */
    void clear() {
        buckets = new int[INITIAL_SLOTS];
        Arrays.fill(buckets, NONE);
        slots = new int[INITIAL_SLOTS * SLOT_INTS];
        slotsUsed = 0;
        freeSlot = NONE;
        size = 0;
        sweep = 0;
        keys = new byte[INITIAL_SLOTS * 16];
        keyBlocks = new Blocks();
        ids = new long[INITIAL_SLOTS * 2];
        idBlocks = new Blocks();
    }

    /** Keys in the table. */
    int size() {
        return size;
    }

    /** Adds the id to the key's readers; false if it was there. */
    boolean add(byte[] key, long id) {
        int hash = hash(key);
        int slot = find(key, hash);
        long value = encode(id);
        if (slot == NONE) {
            slot = insert(key, hash);
            ids[slots[slot + IDS_AT]] = value;
            slots[slot + ID_COUNT] = 1;
            return true;
        }
        int at = slots[slot + IDS_AT];
        int count = slots[slot + ID_COUNT];
        int found = Arrays.binarySearch(ids, at, at + count, value);
        if (found >= 0) {
            return false;
        }
        int before = -found - 1 - at;
        if (count == Blocks.blockLength(count)) {
            int moved = idBlocks.allocate(count + 1);
            ids = reach(ids, idBlocks.end());
            System.arraycopy(ids, at, ids, moved, before);
            System.arraycopy(ids, at + before, ids, moved + before + 1, count - before);
            idBlocks.release(at, count);
            slots[slot + IDS_AT] = moved;
            at = moved;
        } else {
            System.arraycopy(ids, at + before, ids, at + before + 1, count - before);
        }
        ids[at + before] = value;
        slots[slot + ID_COUNT] = count + 1;
        return true;
    }

    /** The key's slot, or -1 if the table does not hold it. */
    int find(byte[] key) {
        return find(key, hash(key));
    }

    /** How many ids the slot's key has. */
    int idCount(int slot) {
        return slots[slot + ID_COUNT];
    }

    /** The slot's {@code index}th id in Redis's order. */
    long id(int slot, int index) {
        return decode(ids[slots[slot + IDS_AT] + index]);
    }

    /** A copy of the slot's key. */
    byte[] key(int slot) {
        int at = slots[slot + KEY_AT];
        return Arrays.copyOfRange(keys, at, at + slots[slot + KEY_LENGTH]);
    }

    /** Removes the slot's key and its ids. */
    void remove(int slot) {
        int bucket = slots[slot + HASH] & (buckets.length - 1);
        if (buckets[bucket] == slot) {
            buckets[bucket] = slots[slot + NEXT];
        } else {
            int previous = buckets[bucket];
            while (slots[previous + NEXT] != slot) {
                previous = slots[previous + NEXT];
            }
            slots[previous + NEXT] = slots[slot + NEXT];
        }
        keyBlocks.release(slots[slot + KEY_AT], slots[slot + KEY_LENGTH]);
        idBlocks.release(slots[slot + IDS_AT], slots[slot + ID_COUNT]);
        slots[slot + ID_COUNT] = 0;
        slots[slot + NEXT] = freeSlot;
        freeSlot = slot;
        size--;
        if (size == 0 && slots.length > INITIAL_SLOTS * SLOT_INTS) {
            // The arrays keep their largest size while keys remain; an empty table lets it go.
            clear();
        }
    }

    /**
     * The next key tracking-table-max-keys evicts: a sweep over the slots, where Redis picks keys
     * at random. The table must not be empty.
     */
    int nextToEvict() {
        while (true) {
            if (sweep >= slotsUsed) {
                sweep = 0;
            }
            int slot = sweep;
            sweep += SLOT_INTS;
            if (slots[slot + ID_COUNT] > 0) {
                return slot;
            }
        }
    }

    private int find(byte[] key, int hash) {
        for (int slot = buckets[hash & (buckets.length - 1)]; slot != NONE; slot = slots[slot + NEXT]) {
            int at = slots[slot + KEY_AT];
            if (slots[slot + HASH] == hash && slots[slot + KEY_LENGTH] == key.length
                    && Arrays.equals(keys, at, at + key.length, key, 0, key.length)) {
                return slot;
            }
        }
        return NONE;
    }

    /** A new slot for the key, with a block for one id. */
    private int insert(byte[] key, int hash) {
        if (size == buckets.length) {
            rehash(buckets.length * 2);
        }
        int slot = freeSlot;
        if (slot != NONE) {
            freeSlot = slots[slot + NEXT];
        } else {
            slot = slotsUsed;
            slotsUsed += SLOT_INTS;
            slots = reach(slots, slotsUsed);
        }
        int keyAt = keyBlocks.allocate(key.length);
        keys = reach(keys, keyBlocks.end());
        System.arraycopy(key, 0, keys, keyAt, key.length);
        int idsAt = idBlocks.allocate(1);
        ids = reach(ids, idBlocks.end());
        int bucket = hash & (buckets.length - 1);
        slots[slot + HASH] = hash;
        slots[slot + NEXT] = buckets[bucket];
        slots[slot + KEY_AT] = keyAt;
        slots[slot + KEY_LENGTH] = key.length;
        slots[slot + IDS_AT] = idsAt;
        buckets[bucket] = slot;
        size++;
        return slot;
    }

    private void rehash(int length) {
        buckets = new int[length];
        Arrays.fill(buckets, NONE);
        for (int slot = 0; slot < slotsUsed; slot += SLOT_INTS) {
            if (slots[slot + ID_COUNT] > 0) {
                int bucket = slots[slot + HASH] & (length - 1);
                slots[slot + NEXT] = buckets[bucket];
                buckets[bucket] = slot;
            }
        }
    }

    private static int[] reach(int[] array, int length) {
        return length <= array.length ? array : Arrays.copyOf(array, Math.max(length, array.length * 2));
    }

    private static byte[] reach(byte[] array, int length) {
        return length <= array.length ? array : Arrays.copyOf(array, Math.max(length, array.length * 2));
    }

    private static long[] reach(long[] array, int length) {
        return length <= array.length ? array : Arrays.copyOf(array, Math.max(length, array.length * 2));
    }

    /** The key's hash, its bits mixed (murmur3's finalizer) so that the low ones pick the bucket. */
    private static int hash(byte[] key) {
        int h = Arrays.hashCode(key);
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        h *= 0xc2b2ae35;
        return h ^ h >>> 16;
    }

    private static long encode(long id) {
        return Long.reverseBytes(id) ^ Long.MIN_VALUE;
    }

    private static long decode(long value) {
        return Long.reverseBytes(value ^ Long.MIN_VALUE);
    }
}
