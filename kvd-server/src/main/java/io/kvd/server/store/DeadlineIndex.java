package io.kvd.server.store;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The deadlines of the entries that have one, dense in slots 1..count: a uniformly random slot
 * is a uniformly random key with a TTL, in O(1), for active expiry. Entries refer to their slot by
 * number and a removal moves the last slot into the hole, so nothing depends on where an entry
 * lives. Chunked like the slab; chunks past the end are dropped as the index empties.
 */
final class DeadlineIndex {
    private static final int DEADLINE = 0;
    private static final int ID = 1;
    private static final int FIELDS = 2;
    private static final int PER_CHUNK = Regions.LONG_LENGTH / FIELDS;
    private static final long INSTANCE = HeapSize.ofInstance(DeadlineIndex.class);
    /** Heap bytes of one slot: its deadline and its id. */
    static final int SLOT_BYTES = FIELDS * Long.BYTES;

    /** Per slot, its deadline and its entry's id, side by side in {@link Regions} arrays. */
    private long[][] chunks = new long[1][];
    private int count;

    /** Heap bytes of the chunks and their directory. */
    long memoryUsage() {
        long bytes = INSTANCE + HeapSize.of(chunks);
        for (long[] chunk : chunks) {
            bytes += HeapSize.of(chunk);
        }
        return bytes;
    }

    int count() {
        return count;
    }

    int id(int slot) {
        return (int) chunks[slot / PER_CHUNK][FIELDS * (slot % PER_CHUNK) + ID];
    }

    long deadline(int slot) {
        return chunks[slot / PER_CHUNK][FIELDS * (slot % PER_CHUNK) + DEADLINE];
    }

    void setDeadline(int slot, long deadline) {
        chunks[slot / PER_CHUNK][FIELDS * (slot % PER_CHUNK) + DEADLINE] = deadline;
    }

    /** Appends an entry's deadline; returns its slot. */
    int add(int id, long deadline) {
        int slot = ++count;
        int c = slot / PER_CHUNK;
        if (c == chunks.length) {
            chunks = Arrays.copyOf(chunks, Regions.grownDirectory(chunks.length, c));
        }
        if (chunks[c] == null) {
            chunks[c] = Regions.longs();
        }
        set(slot, id, deadline);
        return slot;
    }

    /**
     * Empties {@code slot} by moving the last slot into it. Returns the id that now holds
     * {@code slot}, whose entry must be told, or 0 if {@code slot} was the last.
     */
    int remove(int slot) {
        int last = count--;
        int moved = 0;
        if (slot != last) {
            moved = id(last);
            set(slot, moved, deadline(last));
        }
        set(last, 0, 0);
        // Keep one empty chunk past the end, so a key added and removed at a boundary does not churn.
        int spare = last / PER_CHUNK + 1;
        if (last % PER_CHUNK == 0 && spare < chunks.length) {
            chunks[spare] = null;
        }
        return moved;
    }

    private void set(int slot, int id, long deadline) {
        long[] chunk = chunks[slot / PER_CHUNK];
        int at = FIELDS * (slot % PER_CHUNK);
        chunk[at + DEADLINE] = deadline;
        chunk[at + ID] = id;
    }

    int randomSlot(SplittableRandom random) {
        return 1 + random.nextInt(count);
    }
}
