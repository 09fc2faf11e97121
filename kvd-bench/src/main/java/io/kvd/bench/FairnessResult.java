package io.kvd.bench;

import org.HdrHistogram.Histogram;

import java.time.Duration;
import java.time.Instant;
import java.util.Locale;

/**
 * What the fairness experiment measured.
 *
 * @param keys           SETs the loader sent, every one answered {@code +OK}
 * @param interval       the probes' interval
 * @param loadNanos      from the load's first byte sent to its last reply read
 * @param roundTripNanos every probe's round trip, PING sent to +PONG read
 */
record FairnessResult(ServerAddress address, long keys, Duration interval, long loadNanos, Histogram roundTripNanos) {

    double loadSeconds() {
        return loadNanos / 1e9;
    }

    double loadOpsPerSecond() {
        return keys / loadSeconds();
    }

    long probes() {
        return roundTripNanos.getTotalCount();
    }

    double probeMillis(double percentile) {
        return roundTripNanos.getValueAtPercentile(percentile) / 1e6;
    }

    double probeMaxMillis() {
        return roundTripNanos.getMaxValue() / 1e6;
    }

    /** One line: the server as {@code server} names it, the load, the probes' round trips. */
    String summary(String server) {
        return String.format(Locale.ROOT, "fairness %s at %s: %d SETs loaded in %.3f s (%.0f ops/s); %d PINGs every"
                        + " %d ms beside them: p50 %.3f p99 %.3f p99.9 %.3f max %.3f ms",
                server, address, keys, loadSeconds(), loadOpsPerSecond(), probes(), interval.toMillis(),
                probeMillis(50), probeMillis(99), probeMillis(99.9), probeMaxMillis());
    }

    /** The run as one flat JSON object, times of the probes in milliseconds. */
    ResultJson json(String server) {
        return new ResultJson().field("time", Instant.now().toString())
                .field("server", server)
                .field("address", address.toString())
                .field("keys", keys)
                .field("interval_ms", interval.toMillis())
                .field("load_seconds", loadSeconds())
                .field("load_ops_per_sec", loadOpsPerSecond())
                .field("probes", probes())
                .field("probe_p50_ms", probeMillis(50))
                .field("probe_p99_ms", probeMillis(99))
                .field("probe_p999_ms", probeMillis(99.9))
                .field("probe_max_ms", probeMaxMillis());
    }
}
