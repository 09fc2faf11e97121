package io.kvd.bench;

import org.HdrHistogram.Histogram;

/**
 * What a run measured.
 *
 * @param transport    the socket layer used: epoll or nio
 * @param errors       replies that were RESP errors, and GET values the verify mode found wrong
 * @param firstError   the first error's message, null when there was none
 * @param verified     GET values checked against what SET writes for the key (verify mode)
 * @param misses       GETs of keys that held nothing (verify mode)
 * @param elapsedNanos from the first batch's start to the last reply
 * @param latencyNanos every reply's latency, flush of its batch to its parse
 * @param resources    load, client and server CPU around the run
 */
record BenchResult(BenchSettings settings, String transport, long errors, String firstError, long verified,
                   long misses, long elapsedNanos, Histogram latencyNanos, ResourceUse resources) {
    /** A client using this share of its threads' time is taken to be saturated; so is a server. */
    static final double SATURATED = 0.9;

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

    double meanLatencyMicros() {
        return latencyNanos.getMean() / 1e3;
    }

    double maxLatencyMicros() {
        return latencyNanos.getMaxValue() / 1e3;
    }

    /**
     * Little's law: the requests in flight on average are throughput times mean latency. Against the
     * window's limit it shows how much of the time the windows were really full; well below it, the
     * client spent time between a reply and the next request that the latencies do not contain.
     */
    double littlesLawInFlight() {
        return opsPerSecond() * latencyNanos.getMean() / 1e9;
    }

    /** Requests per second of server CPU time, or null when that time is unknown or zero. */
    Double opsPerServerCpuSecond() {
        Double cpu = resources.serverCpuSeconds();
        return cpu == null || cpu == 0 ? null : requests() / cpu;
    }

    /** The share of its threads' time kvbench used, 1.0 meaning every thread busy throughout; null if unknown. */
    Double clientBusy() {
        Double cpu = resources.clientCpuSeconds();
        return cpu == null ? null : cpu / (elapsedSeconds() * settings.threads());
    }

    /** The share of the run's time the servers were on CPU, per server; null if unknown. */
    Double serverBusy() {
        Double cpu = resources.serverCpuSeconds();
        return cpu == null ? null : cpu / (elapsedSeconds() * resources.serverPids().size());
    }

    /** The client, not the server, limited the run: kvbench's threads were saturated, the servers were not. */
    boolean clientBound() {
        Double client = clientBusy();
        Double server = serverBusy();
        return client != null && server != null && client >= SATURATED && server < SATURATED;
    }
}
