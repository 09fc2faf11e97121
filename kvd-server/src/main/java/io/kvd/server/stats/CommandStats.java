package io.kvd.server.stats;

import org.HdrHistogram.Histogram;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Each command's counters, as Redis 7.0 keeps them in its command table and INFO commandstats and
 * latencystats report them: calls, time, calls refused before running (rejected_calls) and calls
 * that ran and answered an error (failed_calls); with {@code latency-tracking} on, a histogram of
 * each call's latency. A container's subcommands count on their own ({@code client|list}), the
 * container never. Only commands used since the start or the last CONFIG RESETSTAT have an entry.
 */
public final class CommandStats {
    /** Redis's LATENCY_HISTOGRAM_MIN_VALUE and _MAX_VALUE (1 ns to 1 s) and _PRECISION (2 digits). */
    private static final long HISTOGRAM_LOWEST_NS = 1;
    private static final long HISTOGRAM_HIGHEST_NS = 1_000_000_000L;
    private static final int HISTOGRAM_DIGITS = 2;

    /** One command's counters. */
    public static final class Entry {
        private long calls;
        private long micros;
        private long rejectedCalls;
        private long failedCalls;
        /** Made at the first tracked call, as Redis allocates it lazily. */
        private Histogram latency;

        public long calls() {
            return calls;
        }

        public long micros() {
            return micros;
        }

        public long rejectedCalls() {
            return rejectedCalls;
        }

        public long failedCalls() {
            return failedCalls;
        }

        /** The latencies in nanoseconds; null until a call was tracked. */
        public Histogram latency() {
            return latency;
        }

        private void track(long nanos) {
            if (latency == null) {
                latency = new Histogram(HISTOGRAM_LOWEST_NS, HISTOGRAM_HIGHEST_NS, HISTOGRAM_DIGITS);
            }
            latency.recordValue(Math.max(HISTOGRAM_LOWEST_NS, Math.min(HISTOGRAM_HIGHEST_NS, nanos)));
        }
    }

    private final Map<String, Entry> entries = new HashMap<>();
    private final ErrorStats errors;
    /**
     * Redis's prev_err_count of call(): the error count when the last command started or ended.
     * A command nested in another (EXEC's, a script's) moves it on when it ends, so the outer
     * command fails only by errors after the nested one, never by the nested command's own.
     */
    private long failuresMark;

    public CommandStats(ErrorStats errors) {
        this.errors = errors;
    }

    /** The counters of the command Redis names {@code fullName} ({@code get}, {@code client|list}). */
    public Entry of(String fullName) {
        Entry entry = entries.get(fullName);
        if (entry == null) {
            entry = new Entry();
            entries.put(fullName, entry);
        }
        return entry;
    }

    /**
     * Redis's incrCommandStatsOnError(cmd, ERROR_COMMAND_REJECTED): the command was refused before
     * it ran; the refusal's error is its own, so a script whose command was refused does not fail
     * by it. {@code fullName} is null for a command that does not exist.
     */
    public void rejected(String fullName) {
        if (fullName != null) {
            of(fullName).rejectedCalls++;
        }
        failuresMark = errors.failures();
    }

    /** A command starts running (Redis's call()). */
    public void starting() {
        failuresMark = errors.failures();
    }

    /**
     * A command ran for {@code nanos}; it failed if an error was sent since it (or the last
     * command nested in it) started. {@code blocked}: it is waiting for data, so its latency is
     * tracked when it is unblocked ({@link #unblocked}). Returns whether it failed.
     */
    public boolean ran(Entry entry, long nanos, boolean blocked, boolean trackLatency) {
        boolean failed = errors.failures() > failuresMark;
        if (failed) {
            entry.failedCalls++;
        }
        entry.calls++;
        entry.micros += nanos / 1000;
        if (trackLatency && !blocked) {
            entry.track(nanos);
        }
        failuresMark = errors.failures();
        return failed;
    }

    /**
     * Redis's updateStatsOnUnblock: a blocked command was answered (data, timeout, CLIENT
     * UNBLOCK) {@code blockedNanos} after it blocked.
     */
    public void unblocked(String fullName, long blockedNanos, boolean failed, boolean trackLatency) {
        Entry entry = of(fullName);
        entry.micros += blockedNanos / 1000;
        if (failed) {
            entry.failedCalls++;
        }
        if (trackLatency) {
            entry.track(blockedNanos);
        }
    }

    /** Every entry by full name, in byte order of the names (Redis lists its table's hash order). */
    public Map<String, Entry> byName() {
        return new TreeMap<>(entries);
    }

    /** CONFIG RESETSTAT: counters and histograms go. */
    public void reset() {
        entries.clear();
    }
}
