package io.kvd.bench;

import org.HdrHistogram.Histogram;

/**
 * What the connections of one event loop measured. Only that loop's thread writes it, so it needs no
 * synchronization; the run reads it after every connection has finished.
 */
final class LoopStats {
    /** Three significant digits: 1 µs resolution up to 1 ms, 1 ms up to 1 s. */
    static final int SIGNIFICANT_DIGITS = 3;

    private final Histogram latencyNanos = new Histogram(SIGNIFICANT_DIGITS);
    private long errors;
    private String firstError;

    void recordReply(long latencyNanos) {
        this.latencyNanos.recordValue(latencyNanos);
    }

    void recordError(String message) {
        if (errors++ == 0) {
            firstError = message;
        }
    }

    Histogram latencyNanos() {
        return latencyNanos;
    }

    long errors() {
        return errors;
    }

    /** The first error reply's message, or null when there was none. */
    String firstError() {
        return firstError;
    }
}
