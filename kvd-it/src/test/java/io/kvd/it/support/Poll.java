package io.kvd.it.support;

import java.time.Duration;
import java.util.function.Supplier;

/** Waiting for another process: probe again and again until it answers or a deadline passes. */
public final class Poll {
    private static final long INTERVAL_MS = 20;

    private Poll() {
    }

    /**
     * Returns the first non-null result of {@code probe}; fails naming {@code what} once
     * {@code timeout} has passed. A probe may throw to give up early (e.g. the process died).
     */
    public static <T> T until(Duration timeout, String what, Supplier<T> probe) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            T result = probe.get();
            if (result != null) {
                return result;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("timed out after " + timeout.toMillis() + " ms waiting for " + what);
            }
            try {
                Thread.sleep(INTERVAL_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting for " + what, e);
            }
        }
    }
}
