package io.kvd.bench;

import io.kvd.bench.BenchResult.Percentile;

import java.util.Locale;

/** The human-readable summary of a run: what was run, throughput, errors, latency, then where the time went. */
final class ResultText {
    private ResultText() {
    }

    static String render(BenchResult result) {
        BenchSettings s = result.settings();
        ResourceUse use = result.resources();
        StringBuilder text = new StringBuilder();
        text.append(format("kvbench %s %s: %d connections, pipeline %d, %d threads (%s), %d-byte values, %d keys%n",
                s.workload().label(), LoadGenerator.servers(s), s.connections(), s.pipeline(), s.threads(),
                result.transport(), s.dataSize(), s.keyRange()));
        text.append(format("  %d requests in %.3f s: %.0f ops/s, %d errors%n",
                result.requests(), result.elapsedSeconds(), result.opsPerSecond(), result.errors()));
        if (result.firstError() != null) {
            text.append("  first error: -").append(result.firstError()).append(System.lineSeparator());
        }
        text.append("  latency µs:");
        for (Percentile p : Percentile.values()) {
            text.append(format(" %s %.1f", p.label, result.latencyMicros(p)));
        }
        text.append(format(" max %.1f%n", result.maxLatencyMicros()));
        if (s.verify()) {
            text.append(format("  verify: %d GET values as SET wrote them, %d GETs of unset keys%n",
                    result.verified(), result.misses()));
        }
        text.append(format("  in flight: %.1f by Little's law, of at most %d%n",
                result.littlesLawInFlight(), s.inFlightLimit()));
        text.append(format("  CPU: kvbench %s, server %s, %s ops per server CPU second; load average %s -> %s%n",
                cpu(use.clientCpuSeconds(), result.clientBusy(), "of its threads"),
                cpu(use.serverCpuSeconds(), result.serverBusy(), "busy"),
                orUnknown(result.opsPerServerCpuSecond(), "%.0f"),
                orUnknown(use.loadBefore(), "%.2f"), orUnknown(use.loadAfter(), "%.2f")));
        if (result.clientBound()) {
            text.append(format("  note: the client was the bottleneck: kvbench kept its %d threads %.0f%% busy"
                            + " while the server was busy %.0f%% of the time; try more --threads%n",
                    s.threads(), 100 * result.clientBusy(), 100 * result.serverBusy()));
        }
        return text.toString();
    }

    private static String cpu(Double seconds, Double busy, String busyWhat) {
        return seconds == null ? "unknown" : format("%.2f s (%.0f%% %s)", seconds, 100 * busy, busyWhat);
    }

    private static String orUnknown(Double value, String format) {
        return value == null ? "unknown" : format(format, value);
    }

    private static String format(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}
