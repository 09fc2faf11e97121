package io.kvd.bench;

import io.kvd.bench.BenchResult.Percentile;

import java.time.Instant;
import java.util.Locale;

/**
 * A run as one flat JSON object on one line, for {@code --json} files that collect a line per run.
 * Latencies are in microseconds; {@code n} and {@code duration_s} are null when not given.
 */
final class ResultJson {
    private final StringBuilder json = new StringBuilder("{");

    private ResultJson() {
    }

    static String line(BenchResult result) {
        BenchSettings s = result.settings();
        ResultJson json = new ResultJson()
                .field("time", Instant.now().toString())
                .field("workload", s.workload().label())
                .field("host", s.host())
                .field("port", s.port())
                .field("connections", s.connections())
                .field("pipeline", s.pipeline())
                .field("threads", s.threads())
                .field("transport", result.transport())
                .field("data_size", s.dataSize())
                .field("key_range", s.keyRange())
                .field("n", s.requests() == BenchSettings.UNLIMITED ? null : s.requests())
                .field("duration_s", s.duration() == null ? null : s.duration().toMillis() / 1e3)
                .field("requests", result.requests())
                .field("errors", result.errors())
                .field("first_error", result.firstError())
                .field("elapsed_s", result.elapsedSeconds())
                .field("ops_per_sec", result.opsPerSecond());
        for (Percentile p : Percentile.values()) {
            json.field(p.name().toLowerCase(Locale.ROOT) + "_us", result.latencyMicros(p));
        }
        return json.field("max_us", result.maxLatencyMicros()).json.append('}').toString();
    }

    /** A string, a whole number, a fraction, or null. */
    private ResultJson field(String name, Object value) {
        if (json.length() > 1) {
            json.append(',');
        }
        quote(name);
        json.append(':');
        if (value instanceof String text) {
            quote(text);
        } else if (value instanceof Double fraction) {
            json.append(String.format(Locale.ROOT, "%.3f", fraction));
        } else {
            json.append(value);
        }
        return this;
    }

    private void quote(String text) {
        json.append('"');
        for (char c : text.toCharArray()) {
            if (c == '"' || c == '\\') {
                json.append('\\').append(c);
            } else if (c < 0x20) {
                json.append(String.format("\\u%04x", (int) c));
            } else {
                json.append(c);
            }
        }
        json.append('"');
    }
}
