package io.kvd.bench;

import java.util.concurrent.TimeUnit;

/**
 * Spaces requests so that the threads sharing it send at most a rate together. Each call reserves
 * the next free slots and sleeps until the first of them; time no thread used is not saved up, so
 * an idle spell is never followed by a burst above the rate.
 */
final class RequestPacer {
    private final long nanosPerRequest;
    private long nextFreeNanos = System.nanoTime();

    RequestPacer(int requestsPerSecond) {
        this.nanosPerRequest = TimeUnit.SECONDS.toNanos(1) / requestsPerSecond;
    }

    /** Waits until {@code requests} more may be sent. */
    void await(int requests) throws InterruptedException {
        long start;
        synchronized (this) {
            start = Math.max(nextFreeNanos, System.nanoTime());
            nextFreeNanos = start + requests * nanosPerRequest;
        }
        long waitNanos = start - System.nanoTime();
        if (waitNanos > 0) {
            TimeUnit.NANOSECONDS.sleep(waitNanos);
        }
    }
}
