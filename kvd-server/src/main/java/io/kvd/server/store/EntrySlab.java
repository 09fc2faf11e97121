package io.kvd.server.store;

import java.util.Arrays;

/**
 * Entries by id (from 1; 0 means none): each entry's packed key and value, the id of the next
 * entry in its bucket's chain, and its slot in the {@link DeadlineIndex} (0 for none). Parallel
 * chunked arrays instead of an entry object: 12 bytes per entry beside its packed array, and
 * nothing for the collector to trace but the packed arrays. Freed ids are reused (a free list
 * threaded through the chain links), so the arrays keep the size of the largest keyspace seen.
 */
final class EntrySlab {
    private byte[][][] packed = new byte[1][][];
    /** Per entry two ints: next id in the chain, deadline slot. */
    private int[][] links = new int[1][];
    private int freeHead;
    private int nextFresh = 1;

    int allocate(byte[] entry) {
        int id;
        if (freeHead != 0) {
            id = freeHead;
            freeHead = next(id);
        } else {
            id = nextFresh++;
            addChunkFor(id);
        }
        packed[Chunks.chunk(id)][Chunks.offset(id)] = entry;
        setNext(id, 0);
        return id;
    }

    private void addChunkFor(int id) {
        int c = Chunks.chunk(id);
        if (c == packed.length) {
            int length = Chunks.grownLength(packed.length, c);
            packed = Arrays.copyOf(packed, length);
            links = Arrays.copyOf(links, length);
        }
        if (packed[c] == null) {
            packed[c] = new byte[Chunks.SIZE][];
            links[c] = new int[2 * Chunks.SIZE];
        }
    }

    /** One past the highest id handed out so far. */
    int idLimit() {
        return nextFresh;
    }

    void free(int id) {
        packed[Chunks.chunk(id)][Chunks.offset(id)] = null;
        setDeadlineSlot(id, 0);
        setNext(id, freeHead);
        freeHead = id;
    }

    byte[] packed(int id) {
        return packed[Chunks.chunk(id)][Chunks.offset(id)];
    }

    void setPacked(int id, byte[] entry) {
        packed[Chunks.chunk(id)][Chunks.offset(id)] = entry;
    }

    int next(int id) {
        return links[Chunks.chunk(id)][2 * Chunks.offset(id)];
    }

    void setNext(int id, int next) {
        links[Chunks.chunk(id)][2 * Chunks.offset(id)] = next;
    }

    int deadlineSlot(int id) {
        return links[Chunks.chunk(id)][2 * Chunks.offset(id) + 1];
    }

    void setDeadlineSlot(int id, int slot) {
        links[Chunks.chunk(id)][2 * Chunks.offset(id) + 1] = slot;
    }

    /** Every id ever handed out is either live (has a packed entry) or on the free list, once. */
    void checkInvariants(int liveCount) {
        int live = 0;
        for (int id = 1; id < nextFresh; id++) {
            if (packed(id) != null) {
                live++;
            }
        }
        Invariants.check(live == liveCount, "slab holds " + live + " entries, table " + liveCount);
        int free = 0;
        for (int id = freeHead; id != 0; id = next(id)) {
            Invariants.check(packed(id) == null && deadlineSlot(id) == 0, "free id " + id + " still holds an entry");
            Invariants.check(++free <= nextFresh, "free list has a cycle");
        }
        Invariants.check(live + free == nextFresh - 1, "ids neither live nor free");
    }
}
