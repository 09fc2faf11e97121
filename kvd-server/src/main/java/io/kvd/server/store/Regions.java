package io.kvd.server.store;

import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * The store's long-lived memory comes in arrays that each fill one G1 heap region exactly: 1 MB
 * regions ({@code -XX:G1HeapRegionSize=1m} in config/jvm.options), less the 16-byte array header.
 * G1 puts an array that large straight into the old generation as a humongous object and never
 * copies it, so a young collection has next to nothing to move however fast keys arrive, and no
 * region is left part-empty. (With other region sizes the arrays still work; G1 just copies them.)
 *
 * <p>The arrays are also touched before the loop gets them. The first write to a fresh 4 KB page of
 * memory costs ~15 µs on the VMs this runs on, so allocating (zeroing) a 1 MB array on the loop
 * would stall every client for ~4 ms, and promoting young objects into fresh regions was most of
 * G1's pause. A daemon thread keeps one array of each kind allocated ahead; taking it wakes the
 * thread to allocate the next. If the thread falls behind, the caller allocates its own, so the
 * loop never waits for it. Arrays handed out are always fresh, hence zeroed.
 */
final class Regions {
    static final int BYTES = 1 << 20;
    /** HotSpot's array header with compressed class pointers (heaps under 32 GB). */
    private static final int ARRAY_HEADER = 16;
    static final int BYTE_LENGTH = BYTES - ARRAY_HEADER;
    static final int INT_LENGTH = BYTE_LENGTH / Integer.BYTES;
    static final int LONG_LENGTH = BYTE_LENGTH / Long.BYTES;

    private static final AtomicReference<byte[]> READY_BYTES = new AtomicReference<>();
    private static final AtomicReference<int[]> READY_INTS = new AtomicReference<>();
    private static final AtomicReference<long[]> READY_LONGS = new AtomicReference<>();
    private static final Thread ALLOCATOR = startAllocator();

    private Regions() {
    }

    static byte[] bytes() {
        byte[] ready = READY_BYTES.getAndSet(null);
        LockSupport.unpark(ALLOCATOR);
        return ready != null ? ready : new byte[BYTE_LENGTH];
    }

    static int[] ints() {
        int[] ready = READY_INTS.getAndSet(null);
        LockSupport.unpark(ALLOCATOR);
        return ready != null ? ready : new int[INT_LENGTH];
    }

    static long[] longs() {
        long[] ready = READY_LONGS.getAndSet(null);
        LockSupport.unpark(ALLOCATOR);
        return ready != null ? ready : new long[LONG_LENGTH];
    }

    /** Length of a directory of arrays grown to hold array number {@code index}: doubled, so appends are amortized O(1). */
    static int grownDirectory(int length, int index) {
        return Math.max(length * 2, index + 1);
    }

    private static Thread startAllocator() {
        Thread thread = new Thread(() -> {
            while (true) {
                // The JVM zeroes a new array in the allocating thread: that write faults its memory in here.
                // Only this thread fills the slots, so one seen empty stays empty until filled.
                if (READY_BYTES.get() == null) {
                    READY_BYTES.set(new byte[BYTE_LENGTH]);
                }
                if (READY_INTS.get() == null) {
                    READY_INTS.set(new int[INT_LENGTH]);
                }
                if (READY_LONGS.get() == null) {
                    READY_LONGS.set(new long[LONG_LENGTH]);
                }
                LockSupport.park();
            }
        }, "kvd-region-allocator");
        thread.setDaemon(true);
        thread.start();
        return thread;
    }
}
