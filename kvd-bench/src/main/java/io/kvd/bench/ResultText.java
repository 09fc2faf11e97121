package io.kvd.bench;

import io.kvd.bench.BenchResult.Percentile;

import java.util.Locale;

/** The human-readable summary of a run: what was run, throughput, errors, latency. */
final class ResultText {
    private ResultText() {
    }

    static String render(BenchResult result) {
        BenchSettings s = result.settings();
        StringBuilder text = new StringBuilder();
        text.append(format("kvbench %s %s:%d: %d connections, pipeline %d, %d threads (%s), %d-byte values, %d keys%n",
                s.workload().label(), s.host(), s.port(), s.connections(), s.pipeline(), s.threads(),
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
        return text.toString();
    }

    private static String format(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}
