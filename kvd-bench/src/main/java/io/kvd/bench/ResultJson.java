package io.kvd.bench;

import io.kvd.bench.BenchResult.Percentile;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * A run as one flat JSON object on one line, for {@code --json} files that collect a line per run, and
 * for the suite, which puts its own fields first. Latencies are in microseconds; readings that could
 * not be taken, and {@code n} and {@code duration_s} when not given, are null.
 */
final class ResultJson {
    private final StringBuilder json = new StringBuilder("{");

    static ResultJson line(BenchResult result) {
        return new ResultJson().field("time", Instant.now().toString()).result(result);
    }

    /** Every parameter and measurement of the run. */
    ResultJson result(BenchResult result) {
        BenchSettings s = result.settings();
        ResourceUse use = result.resources();
        field("workload", s.workload().label())
                .field("servers", LoadGenerator.servers(s))
                .field("connections", s.connections())
                .field("pipeline", s.pipeline())
                .field("threads", s.threads())
                .field("transport", result.transport())
                .field("data_size", s.dataSize())
                .field("key_range", s.keyRange())
                .field("verify", s.verify())
                .field("n", s.requests() == BenchSettings.UNLIMITED ? null : s.requests())
                .field("duration_s", s.duration() == null ? null : s.duration().toMillis() / 1e3)
                .field("warmup_s", s.warmup() == null ? null : s.warmup().toMillis() / 1e3)
                .field("requests", result.requests())
                .field("errors", result.errors())
                .field("first_error", result.firstError())
                .field("verified", result.verified())
                .field("misses", result.misses())
                .field("elapsed_s", result.elapsedSeconds())
                .field("ops_per_sec", result.opsPerSecond())
                .field("mean_us", result.meanLatencyMicros());
        for (Percentile p : Percentile.values()) {
            field(p.name().toLowerCase(Locale.ROOT) + "_us", result.latencyMicros(p));
        }
        return field("max_us", result.maxLatencyMicros())
                .field("in_flight_limit", s.inFlightLimit())
                .field("littles_law_in_flight", result.littlesLawInFlight())
                .field("load_before", use.loadBefore())
                .field("load_after", use.loadAfter())
                .field("client_cpu_s", use.clientCpuSeconds())
                .field("client_busy", result.clientBusy())
                .field("server_pids", use.serverPids().isEmpty() ? null
                        : String.join(",", use.serverPids().stream().map(String::valueOf).toList()))
                .field("server_cpu_s", use.serverCpuSeconds())
                .field("server_busy", result.serverBusy())
                .field("ops_per_server_cpu_s", result.opsPerServerCpuSecond())
                .field("client_bound", result.clientBound());
    }

    /** A string, a boolean, a whole number, a fraction, a list of whole numbers, or null. */
    ResultJson field(String name, Object value) {
        if (json.length() > 1) {
            json.append(',');
        }
        quote(name);
        json.append(':');
        if (value instanceof String text) {
            quote(text);
        } else if (value instanceof Double fraction) {
            json.append(String.format(Locale.ROOT, "%.3f", fraction));
        } else if (value instanceof List<?> numbers) {
            json.append('[').append(String.join(",", numbers.stream().map(String::valueOf).toList())).append(']');
        } else {
            json.append(value);
        }
        return this;
    }

    /** Appends this object to {@code file} as one line, creating the file if need be. */
    void appendTo(Path file) throws IOException {
        Files.writeString(file, this + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    @Override
    public String toString() {
        return json + "}";
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
