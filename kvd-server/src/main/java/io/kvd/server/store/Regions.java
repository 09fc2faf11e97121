package io.kvd.server.store;

import com.sun.management.HotSpotDiagnosticMXBean;

import java.lang.management.ManagementFactory;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * The store's long-lived memory comes in arrays that each fill one G1 heap region exactly, less
 * the 16-byte array header: the running JVM's region size, whatever chose it (the JVM's ergonomics
 * pick 1 to 32 MB from the maximum heap; config/jvm.options sets 1 MB). G1 puts an array that large
 * straight into the old generation as a humongous object and never copies it, so a young
 * collection has next to nothing to move however fast keys arrive, and no region is left
 * part-empty. An array sized for another region size would waste most of a region (larger) or be
 * copied as an ordinary object (half a region or less). Under another collector the arrays are
 * 1 MB and work the same; the collector may just copy them.
 *
 * <p>The arrays are also touched before the loop gets them. The first write to a fresh 4 KB page of
 * memory costs ~15 µs on the VMs this runs on, so allocating (zeroing) a 1 MB array on the loop
 * would stall every client for ~4 ms, and promoting young objects into fresh regions was most of
 * G1's pause. A daemon thread keeps arrays of each kind allocated ahead; taking one wakes the
 * thread to allocate the next. If the thread falls behind, the caller allocates its own, so the
 * loop never waits for it. Arrays handed out are always fresh, hence zeroed.
 */
final class Regions {
    static final int BYTES = regionBytes();
    /** HotSpot's array header with compressed class pointers (heaps under 32 GB). */
    private static final int ARRAY_HEADER = 16;
    static final int BYTE_LENGTH = BYTES - ARRAY_HEADER;
    static final int INT_LENGTH = BYTE_LENGTH / Integer.BYTES;
    static final int LONG_LENGTH = BYTE_LENGTH / Long.BYTES;

    private static final AtomicReference<byte[]> READY_BYTES = new AtomicReference<>();
    /**
     * Two ints arrays ready: a rehash moving into a new table's chunk starts two chunks at once
     * (old bucket b moves to b and b + old length), and with one ready the second was zeroed on
     * the loop at every chunk boundary of a growing table (23 times in a 5 M-key load).
     */
    private static final AtomicReference<int[]> READY_INTS = new AtomicReference<>();
    private static final AtomicReference<int[]> SECOND_READY_INTS = new AtomicReference<>();
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
        if (ready == null) {
            ready = SECOND_READY_INTS.getAndSet(null);
        }
        LockSupport.unpark(ALLOCATOR);
        return ready != null ? ready : new int[INT_LENGTH];
    }

    /**
     * An array of at least {@code length} ints for a structure that starts small: just that long
     * while under half a region (an ordinary object), else a region array ({@code length} at most
     * {@link #INT_LENGTH}), since G1 gives an array of half a region or more whole regions of its own.
     */
    static int[] ints(int length) {
        return isOrdinary((long) length * Integer.BYTES) ? new int[length] : ints();
    }

    /** As {@link #ints(int)}, of bytes. */
    static byte[] bytes(int length) {
        return isOrdinary(length) ? new byte[length] : bytes();
    }

    private static boolean isOrdinary(long payloadBytes) {
        return payloadBytes + ARRAY_HEADER < BYTES / 2;
    }

    static long[] longs() {
        long[] ready = READY_LONGS.getAndSet(null);
        LockSupport.unpark(ALLOCATOR);
        return ready != null ? ready : new long[LONG_LENGTH];
    }

    /** G1's region size (HotSpot reports 0 under other collectors), else 1 MB (also on a JVM other than HotSpot). */
    private static int regionBytes() {
        HotSpotDiagnosticMXBean hotspot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        long g1Region = hotspot == null ? 0 : Long.parseLong(hotspot.getVMOption("G1HeapRegionSize").getValue());
        return g1Region > 0 ? Math.toIntExact(g1Region) : 1 << 20;
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
                if (SECOND_READY_INTS.get() == null) {
                    SECOND_READY_INTS.set(new int[INT_LENGTH]);
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
