package io.kvd.server.tracking;

import java.util.Arrays;

/**
 * Blocks of power-of-two lengths cut from one array's index space, each freed block kept on a
 * list of its length for the next block of that length. The tracking table takes its keys' bytes
 * and its id lists from two such arrays, so that a key tracked again after its invalidation
 * reuses the block its invalidation freed and allocates nothing.
 */
final class Blocks {
    /** Freed blocks' offsets by the log2 of their length. */
    private final int[][] free = new int[Integer.SIZE][];
    private final int[] freeCount = new int[Integer.SIZE];
    private int end;

    /** The length of the block that holds {@code length} elements: the next power of two, at least 1. */
    static int blockLength(int length) {
        return length <= 1 ? 1 : Integer.highestOneBit(length - 1) << 1;
    }

    /** The offset of a block for {@code length} elements; the array must then reach {@link #end}. */
    int allocate(int length) {
        int size = Integer.numberOfTrailingZeros(blockLength(length));
        if (freeCount[size] > 0) {
            return free[size][--freeCount[size]];
        }
        int offset = end;
        end = Math.addExact(end, 1 << size);
        return offset;
    }

    /** Frees the block at {@code offset}, allocated for {@code length} elements (or fewer of the same block length). */
    void release(int offset, int length) {
        int size = Integer.numberOfTrailingZeros(blockLength(length));
        int[] offsets = free[size];
        if (offsets == null) {
            offsets = free[size] = new int[8];
        } else if (freeCount[size] == offsets.length) {
            offsets = free[size] = Arrays.copyOf(offsets, offsets.length * 2);
        }
        offsets[freeCount[size]++] = offset;
    }

    /** The length the array must have: past the last block ever allocated. */
    int end() {
        return end;
    }
}
