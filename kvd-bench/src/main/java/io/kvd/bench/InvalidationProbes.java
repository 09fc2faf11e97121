package io.kvd.bench;

import org.HdrHistogram.Histogram;

/**
 * The sampled writes of {@code kvbench tracking} and the latency of their invalidations: from the
 * moment a probe SET's reply reaches the writer to the moment each invalidation push for its key
 * reaches a tracking client, on one clock ({@link System#nanoTime}).
 *
 * <p>Probe keys are every {@link #EVERY}th key, which only probes write, one probe per key at a
 * time, taken in turn: an invalidation of a probe key is always its last probe's. A push may be
 * read before the writer reads the SET's reply (they travel on different sockets, read by
 * different threads); it counts as 0 and as {@link #beforeReply}. Writers and readers run on
 * different event loops, hence the lock.
 */
final class InvalidationProbes {
    /** One key in this many is a probe key. */
    static final int EVERY = 100;

    private final long[] repliedAt;
    /** Arrivals of pushes read before their probe's reply, per probe key; counted once it comes. */
    private final int[] earlyArrivals;
    private final Histogram latencyNanos = new Histogram(3);
    private int next;
    private boolean recording;
    private long beforeReply;

    InvalidationProbes(long keyRange) {
        int probes = (int) ((keyRange + EVERY - 1) / EVERY);
        repliedAt = new long[probes];
        earlyArrivals = new int[probes];
    }

    static boolean isProbeKey(long key) {
        return key % EVERY == 0;
    }

    /** The next probe key, in turn; its last probe's invalidations have long been read by then. */
    synchronized long nextKey() {
        int probe = next;
        next = (next + 1) % repliedAt.length;
        repliedAt[probe] = 0;
        earlyArrivals[probe] = 0;
        return (long) probe * EVERY;
    }

    synchronized void replied(long key, long now) {
        int probe = (int) (key / EVERY);
        repliedAt[probe] = now;
        if (recording) {
            for (int i = 0; i < earlyArrivals[probe]; i++) {
                latencyNanos.recordValue(0);
            }
            beforeReply += earlyArrivals[probe];
        }
        earlyArrivals[probe] = 0;
    }

    /** An invalidation push for probe key {@code key} was read at {@code now}. */
    synchronized void invalidated(long key, long now) {
        int probe = (int) (key / EVERY);
        if (repliedAt[probe] == 0) {
            earlyArrivals[probe]++;
        } else if (recording) {
            // Read before the reply, though the writer took the lock first.
            long latency = now - repliedAt[probe];
            if (latency < 0) {
                beforeReply++;
                latency = 0;
            }
            latencyNanos.recordValue(latency);
        }
    }

    /** Starts or stops recording: only the measured window's arrivals count. */
    synchronized void recording(boolean recording) {
        this.recording = recording;
    }

    synchronized Histogram latencyNanos() {
        return latencyNanos.copy();
    }

    synchronized long beforeReply() {
        return beforeReply;
    }
}
