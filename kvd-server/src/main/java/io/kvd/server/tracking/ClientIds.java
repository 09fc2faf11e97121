package io.kvd.server.tracking;

import java.util.Arrays;

/**
 * The ids of the clients that may cache one tracked key, in Redis's order (its rax orders the ids
 * by their bytes in memory, little-endian: low byte first). A sorted array of longs, 8 bytes an id,
 * where a {@code TreeSet<Long>} took 56 and a write's fan-out walked a tree: most keys have a few
 * readers, and the table holds one set per key. An id is stored byte-reversed with its sign bit
 * flipped, so that the array's signed order is Redis's order.
 */
final class ClientIds {
    private long[] sorted = new long[1];
    private int size;

    /** Adds the id; false if it was there. */
    boolean add(long id) {
        long value = encode(id);
        int at = Arrays.binarySearch(sorted, 0, size, value);
        if (at >= 0) {
            return false;
        }
        int insertion = -at - 1;
        if (size == sorted.length) {
            // Grows by half: the arrays of a table of many keys stay close to full.
            sorted = Arrays.copyOf(sorted, size + (size >> 1) + 1);
        }
        System.arraycopy(sorted, insertion, sorted, insertion + 1, size - insertion);
        sorted[insertion] = value;
        size++;
        return true;
    }

    int size() {
        return size;
    }

    /** The {@code index}th id in Redis's order. */
    long get(int index) {
        return decode(sorted[index]);
    }

    private static long encode(long id) {
        return Long.reverseBytes(id) ^ Long.MIN_VALUE;
    }

    private static long decode(long value) {
        return Long.reverseBytes(value ^ Long.MIN_VALUE);
    }
}
