package io.kvd.server.latency;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Redis 7.0's latency monitor (latency.c): per event name ("command", "expire-cycle",
 * "aof-write", ...) the last {@link #SAMPLES} seconds in which the event took at least
 * latency-monitor-threshold milliseconds, one sample per second holding that second's worst, and
 * the worst of all time. Events are created at their first sample, as Redis creates them; kvd
 * keeps them in that order (Redis's dictionary order is its hash's). Event loop only.
 */
public final class LatencyMonitor {
    /** Redis's LATENCY_TS_LEN: samples kept per event. */
    public static final int SAMPLES = 160;

    /** One second of an event: its time (Unix seconds) and its worst latency in milliseconds. */
    public record Sample(long timeSeconds, long latencyMs) {
    }

    /** LATENCY LATEST's row: the event, its newest sample and its all-time worst. */
    public record Latest(String event, Sample sample, long maxMs) {
    }

    /** Redis's struct latencyStats, what DOCTOR reports of an event's samples. */
    record Stats(int samples, long averageMs, long meanDeviationMs, long periodSeconds, long allTimeHighMs) {
    }

    /** Redis's struct latencyTimeSeries: a ring of samples, the next to write at {@code next}. */
    static final class TimeSeries {
        final long[] times = new long[SAMPLES];
        final long[] latencies = new long[SAMPLES];
        int next;
        long max;

        /** The samples held, oldest first; a slot never written has time 0. */
        List<Sample> samples() {
            List<Sample> samples = new ArrayList<>();
            for (int j = 0; j < SAMPLES; j++) {
                int i = (next + j) % SAMPLES;
                if (times[i] != 0) {
                    samples.add(new Sample(times[i], latencies[i]));
                }
            }
            return samples;
        }
    }

    private final Map<String, TimeSeries> events = new LinkedHashMap<>();
    private final LongSupplier clockSeconds;
    private long thresholdMs;

    /** With the wall clock, as Redis's time(NULL). */
    public LatencyMonitor() {
        this(() -> System.currentTimeMillis() / 1000);
    }

    /** @param clockSeconds the time samples are stamped with, in Unix seconds */
    public LatencyMonitor(LongSupplier clockSeconds) {
        this.clockSeconds = clockSeconds;
    }

    /** latency-monitor-threshold in milliseconds; 0 turns sampling off. */
    public void setThreshold(long thresholdMs) {
        this.thresholdMs = thresholdMs;
    }

    public long threshold() {
        return thresholdMs;
    }

    /** Whether anything is sampled: where measuring would cost a clock read, it is skipped while off. */
    public boolean isOn() {
        return thresholdMs != 0;
    }

    /**
     * Redis's latencyAddSampleIfNeeded: with the monitor off this is one comparison, so the
     * places that measure anyway (the run step, the expiry cycle, the AOF) may call it always.
     */
    public boolean exceedsThreshold(long latencyMs) {
        return thresholdMs != 0 && latencyMs >= thresholdMs;
    }

    /** Redis's latencyAddSampleIfNeeded: samples {@code event} if it took at least the threshold. */
    public void addSampleIfNeeded(String event, long latencyMs) {
        if (exceedsThreshold(latencyMs)) {
            addSample(event, latencyMs);
        }
    }

    /**
     * Redis's latencyAddSample: a sample in the same second as the event's newest one only raises
     * that one; otherwise it takes the next slot of the ring, over the oldest once it is full.
     */
    public void addSample(String event, long latencyMs) {
        TimeSeries series = events.computeIfAbsent(event, e -> new TimeSeries());
        long now = clockSeconds.getAsLong();
        series.max = Math.max(series.max, latencyMs);
        int previous = (series.next + SAMPLES - 1) % SAMPLES;
        if (series.times[previous] == now) {
            series.latencies[previous] = Math.max(series.latencies[previous], latencyMs);
            return;
        }
        series.times[series.next] = now;
        series.latencies[series.next] = latencyMs;
        series.next = (series.next + 1) % SAMPLES;
    }

    /** LATENCY LATEST: each event's newest sample and all-time worst. */
    public List<Latest> latest() {
        List<Latest> latest = new ArrayList<>();
        events.forEach((event, series) -> {
            int last = (series.next + SAMPLES - 1) % SAMPLES;
            latest.add(new Latest(event, new Sample(series.times[last], series.latencies[last]), series.max));
        });
        return latest;
    }

    /** LATENCY HISTORY: the event's samples, oldest first; empty for an unknown event (names are case-sensitive). */
    public List<Sample> history(String event) {
        TimeSeries series = events.get(event);
        return series == null ? List.of() : series.samples();
    }

    /** Redis's latencyResetEvent: forgets the events named so, ignoring case, or every event for null; how many went. */
    public int reset(String event) {
        int before = events.size();
        events.keySet().removeIf(name -> event == null || name.equalsIgnoreCase(event));
        return before - events.size();
    }

    /**
     * LATENCY GRAPH: the event's samples as latency.c's latencyCommandGenSparkeline draws them, or
     * null for an unknown event.
     */
    public String graph(String event) {
        TimeSeries series = events.get(event);
        return series == null ? null : LatencyGraph.render(event, series, clockSeconds.getAsLong());
    }

    /**
     * LATENCY DOCTOR's report (latency.c's createLatencyReport) for a server with these settings.
     *
     * @param slowlogLogSlowerThan slowlog-log-slower-than, in microseconds (-1: off)
     */
    public String doctor(long slowlogLogSlowerThan, int hz, boolean fsyncAlways) {
        return LatencyDoctor.report(this, slowlogLogSlowerThan, hz, fsyncAlways);
    }

    Map<String, TimeSeries> events() {
        return events;
    }

    long now() {
        return clockSeconds.getAsLong();
    }

    /**
     * Redis's analyzeLatencyForEvent: the samples' count, mean, mean absolute deviation, and the
     * seconds since the oldest of them (1 rather than 0), in Redis's integer arithmetic.
     */
    Stats stats(TimeSeries series) {
        int samples = 0;
        long sum = 0;
        long oldest = 0;
        for (int j = 0; j < SAMPLES; j++) {
            if (series.times[j] == 0) {
                continue;
            }
            samples++;
            sum += series.latencies[j];
            if (oldest == 0 || series.times[j] < oldest) {
                oldest = series.times[j];
            }
        }
        if (samples == 0) {
            return new Stats(0, 0, 0, 0, series.max);
        }
        long average = sum / samples;
        long period = now() - oldest;
        long deviations = 0;
        for (int j = 0; j < SAMPLES; j++) {
            if (series.times[j] != 0) {
                deviations += Math.abs(average - series.latencies[j]);
            }
        }
        return new Stats(samples, average, deviations / samples, period == 0 ? 1 : period, series.max);
    }
}
