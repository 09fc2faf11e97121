package io.kvd.bench;

import org.HdrHistogram.Histogram;

/**
 * What a run measured.
 *
 * @param transport    the socket layer used: epoll or nio
 * @param errors       replies that were RESP errors
 * @param firstError   the first error reply's message, null when there was none
 * @param elapsedNanos from the first batch's start to the last reply
 * @param latencyNanos every reply's latency, flush of its batch to its parse
 */
record BenchResult(BenchSettings settings, String transport, long errors, String firstError, long elapsedNanos,
                   Histogram latencyNanos) {

    /** The latency percentiles every report shows, besides the maximum. */
    enum Percentile {
        P50(50, "p50"), P90(90, "p90"), P99(99, "p99"), P999(99.9, "p99.9");

        final double value;
        final String label;

        Percentile(double value, String label) {
            this.value = value;
            this.label = label;
        }
    }

    long requests() {
        return latencyNanos.getTotalCount();
    }

    double elapsedSeconds() {
        return elapsedNanos / 1e9;
    }

    double opsPerSecond() {
        return requests() / elapsedSeconds();
    }

    double latencyMicros(Percentile percentile) {
        return latencyNanos.getValueAtPercentile(percentile.value) / 1e3;
    }

    double maxLatencyMicros() {
        return latencyNanos.getMaxValue() / 1e3;
    }
}
