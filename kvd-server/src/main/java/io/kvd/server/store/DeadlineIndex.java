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
    private int[][] ids = new int[1][];
    private long[][] deadlines = new long[1][];
    private int count;

    int count() {
        return count;
    }

    int id(int slot) {
        return ids[Chunks.chunk(slot)][Chunks.offset(slot)];
    }

    long deadline(int slot) {
        return deadlines[Chunks.chunk(slot)][Chunks.offset(slot)];
    }

    void setDeadline(int slot, long deadline) {
        deadlines[Chunks.chunk(slot)][Chunks.offset(slot)] = deadline;
    }

    /** Appends an entry's deadline; returns its slot. */
    int add(int id, long deadline) {
        int slot = ++count;
        int c = Chunks.chunk(slot);
        if (c == ids.length) {
            int length = Chunks.grownLength(ids.length, c);
            ids = Arrays.copyOf(ids, length);
            deadlines = Arrays.copyOf(deadlines, length);
        }
        if (ids[c] == null) {
            ids[c] = new int[Chunks.SIZE];
            deadlines[c] = new long[Chunks.SIZE];
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
        int spare = Chunks.chunk(last) + 1;
        if (Chunks.offset(last) == 0 && spare < ids.length) {
            ids[spare] = null;
            deadlines[spare] = null;
        }
        return moved;
    }

    private void set(int slot, int id, long deadline) {
        ids[Chunks.chunk(slot)][Chunks.offset(slot)] = id;
        deadlines[Chunks.chunk(slot)][Chunks.offset(slot)] = deadline;
    }

    int randomSlot(SplittableRandom random) {
        return 1 + random.nextInt(count);
    }
}
