package io.kvd.server.store;

import java.util.Arrays;

/**
 * The large collections of one keyspace generation, by handle: a table-encoded entry's bytes are
 * its handle (4 bytes, little-endian). A hash's or set's is a {@link MemberTable}, a list's a
 * {@link QuickList}, a stream's a {@link Stream}: held alike, got by the type the entry's encoding says. A snapshot keeps the generation it started on, so it can
 * still read a collection after FLUSHALL replaced the keyspace's.
 */
final class MemberTables {
    private static final long INSTANCE = HeapSize.ofInstance(MemberTables.class);
    private Object[] tables = new Object[4];
    private int[] freeHandles = new int[4];
    private int freeCount;
    private int nextHandle;
    /**
     * Each held collection's size when last measured, and their sum: the keyspace's used memory
     * reads the sum, so it costs a measure per collection changed since the last read, not a walk
     * over every collection. A change marks its collection; {@link #accountedBytes} measures the
     * marked ones again.
     */
    private long[] measured = new long[4];
    private long measuredTotal;
    private int[] changed = new int[16];
    private int changedCount;
    private boolean[] isChanged = new boolean[4];

    /** Keeps {@code table}; returns the bytes that name it. */
    byte[] register(Object table) {
        int handle;
        if (freeCount > 0) {
            handle = freeHandles[--freeCount];
        } else {
            handle = nextHandle++;
            if (handle == tables.length) {
                tables = Arrays.copyOf(tables, handle * 2);
                measured = Arrays.copyOf(measured, handle * 2);
                isChanged = Arrays.copyOf(isChanged, handle * 2);
            }
        }
        tables[handle] = table;
        measured[handle] = HeapSize.REFERENCE + memoryUsage(table, Keyspace.DEFAULT_MEMORY_SAMPLES);
        measuredTotal += measured[handle];
        return new byte[] {(byte) handle, (byte) (handle >>> 8), (byte) (handle >>> 16), (byte) (handle >>> 24)};
    }

    MemberTable get(byte[] handleBytes) {
        return (MemberTable) tables[handle(handleBytes)];
    }

    /** Whatever {@code handleBytes} names, to hand to another keyspace's tables (MOVE). */
    Object held(byte[] handleBytes) {
        return tables[handle(handleBytes)];
    }

    QuickList list(byte[] handleBytes) {
        return (QuickList) tables[handle(handleBytes)];
    }

    Stream stream(byte[] handleBytes) {
        return (Stream) tables[handle(handleBytes)];
    }

    /**
     * Lets go of the table {@code handleBytes} names: one reference, whatever the table's size, so
     * deleting a million-member set costs the loop nothing (Redis frees large values on a
     * background thread for the same reason; here the collector does it, concurrently).
     */
    void release(byte[] handleBytes) {
        int handle = handle(handleBytes);
        tables[handle] = null;
        measuredTotal -= measured[handle];
        measured[handle] = 0;
        if (freeCount == freeHandles.length) {
            freeHandles = Arrays.copyOf(freeHandles, freeCount * 2);
        }
        freeHandles[freeCount++] = handle;
    }

    /**
     * Heap bytes of the collection {@code handleBytes} names; a list's and a stream's nodes are
     * sampled up to {@code samples} ({@link QuickList#memoryUsage}, {@link Stream#memoryUsage}).
     */
    long memoryUsage(byte[] handleBytes, long samples) {
        return memoryUsage(tables[handle(handleBytes)], samples);
    }

    /** Heap bytes of every collection held and of this registry's own arrays. */
    long memoryUsage(long samples) {
        long bytes = INSTANCE + HeapSize.of(tables) + HeapSize.of(freeHandles);
        for (int handle = 0; handle < nextHandle; handle++) {
            if (tables[handle] != null) {
                bytes += memoryUsage(tables[handle], samples);
            }
        }
        return bytes;
    }

    private static long memoryUsage(Object table, long samples) {
        if (table instanceof MemberTable members) {
            return members.memoryUsage();
        }
        return table instanceof QuickList list ? list.memoryUsage(samples) : ((Stream) table).memoryUsage(samples);
    }

    /** The collection {@code handleBytes} names is changing: measured again at the next {@link #accountedBytes}. */
    void changed(byte[] handleBytes) {
        int handle = handle(handleBytes);
        if (isChanged[handle]) {
            return;
        }
        if (changedCount == changed.length) {
            // Nobody read the sum for a while (no maxmemory, no INFO): settle rather than grow.
            measureChanged();
        }
        isChanged[handle] = true;
        changed[changedCount++] = handle;
    }

    /**
     * Heap bytes of the collections held, each as {@link #memoryUsage(byte[], long)} measures it
     * with the default samples, plus the entry's reference to it; O(collections changed since the
     * last call).
     */
    long accountedBytes() {
        measureChanged();
        return measuredTotal;
    }

    private void measureChanged() {
        for (int i = 0; i < changedCount; i++) {
            int handle = changed[i];
            isChanged[handle] = false;
            Object table = tables[handle];
            // A collection released since its change was taken off the sum then.
            if (table != null) {
                long now = HeapSize.REFERENCE + memoryUsage(table, Keyspace.DEFAULT_MEMORY_SAMPLES);
                measuredTotal += now - measured[handle];
                measured[handle] = now;
            }
        }
        changedCount = 0;
    }

    /** Tables held (for invariant checks). */
    int count() {
        return nextHandle - freeCount;
    }

    private static int handle(byte[] bytes) {
        return (bytes[0] & 0xff) | (bytes[1] & 0xff) << 8 | (bytes[2] & 0xff) << 16 | (bytes[3] & 0xff) << 24;
    }
}
