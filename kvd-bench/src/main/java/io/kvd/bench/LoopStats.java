package io.kvd.bench;

import org.HdrHistogram.Histogram;

/**
 * What the clients of one event loop measured in one phase. Only that loop's thread writes it, so it
 * needs no synchronization; the run reads it after every client has finished the phase. The reply
 * count alone is also read while the phase runs, for the progress line.
 */
final class LoopStats {
    /** Three significant digits: 1 µs resolution up to 1 ms, 1 ms up to 1 s. */
    static final int SIGNIFICANT_DIGITS = 3;

    private final Histogram latencyNanos = new Histogram(SIGNIFICANT_DIGITS);
    private volatile long replies;
    private long errors;
    private String firstError;
    private long verified;
    private long misses;

    void recordReply(long latencyNanos) {
        this.latencyNanos.recordValue(latencyNanos);
        // Only this loop's thread writes: a plain increment of the volatile is safe, and cheap enough.
        replies = replies + 1;
    }

    void recordError(String message) {
        if (errors++ == 0) {
            firstError = message;
        }
    }

    /** A GET whose value was checked against what SET writes for its key. */
    void recordVerified() {
        verified++;
    }

    /** A GET of a key that held nothing. */
    void recordMiss() {
        misses++;
    }

    Histogram latencyNanos() {
        return latencyNanos;
    }

    /** Replies so far; readable from any thread. */
    long replies() {
        return replies;
    }

    long errors() {
        return errors;
    }

    /** The first error reply's message, or null when there was none. */
    String firstError() {
        return firstError;
    }

    long verified() {
        return verified;
    }

    long misses() {
        return misses;
    }
}
