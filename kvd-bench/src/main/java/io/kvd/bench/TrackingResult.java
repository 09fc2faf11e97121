package io.kvd.bench;

import org.HdrHistogram.Histogram;

import java.time.Instant;
import java.util.Locale;

/**
 * One {@code kvbench tracking} round's figures. The tracking table's size is used_memory's growth
 * while the clients read, and for kvd, whose used_memory counts the keyspace only, the live heap's
 * growth ({@code heapBefore}, {@code heapAfter}; null for redis-server).
 */
record TrackingResult(String server, TrackingSettings settings, long trackedKeys, long trackedItems,
                      double setsPerSecond, double invalidationsPerSecond, Histogram latencyNanos, long beforeReply,
                      long usedMemoryBefore, long usedMemoryAfter, Long heapBefore, Long heapAfter,
                      double serverCores, double clientCores, Double loadAverage) {

    /** The server's CPU time per SET, the invalidations it sent and the re-reads they caused included. */
    double serverMicrosPerSet() {
        return serverCores / setsPerSecond * 1e6;
    }

    /** The table's bytes per tracked item (a key and a client that may cache it): heap for kvd, used_memory else. */
    double bytesPerItem() {
        long growth = heapBefore != null ? heapAfter - heapBefore : usedMemoryAfter - usedMemoryBefore;
        return trackedItems == 0 ? Double.NaN : (double) growth / trackedItems;
    }

    /** Where {@link #bytesPerItem} comes from. */
    String memorySource() {
        return heapBefore != null ? "live heap" : "used_memory";
    }

    double latencyMillis(double percentile) {
        return latencyNanos.getValueAtPercentile(percentile) / 1e6;
    }

    double maxLatencyMillis() {
        return latencyNanos.getMaxValue() / 1e6;
    }

    String summary() {
        return String.format(Locale.ROOT, "tracking %s: %d clients tracking %d items over %d keys;"
                        + " SET %.0f ops/s (%d conns, P%d) with %.0f invalidations/s;"
                        + " invalidation after the SET's reply: p50 %.3f p99 %.3f max %.3f ms"
                        + " (%d samples, %d read before the reply); server CPU %.2f cores (%.1f µs per SET),"
                        + " kvbench %.2f; table %.1f B/item (%s; used_memory %+d B); load average %s",
                server, settings.clients(), trackedItems, trackedKeys, setsPerSecond, settings.writers(),
                settings.pipeline(), invalidationsPerSecond, latencyMillis(50), latencyMillis(99), maxLatencyMillis(),
                latencyNanos.getTotalCount(), beforeReply, serverCores, serverMicrosPerSet(), clientCores,
                bytesPerItem(), memorySource(),
                usedMemoryAfter - usedMemoryBefore, loadAverage);
    }

    ResultJson json() {
        return new ResultJson().field("time", Instant.now().toString()).field("server", server)
                .field("clients", settings.clients()).field("key_range", settings.keyRange())
                .field("min_reads", settings.minReads()).field("max_reads", settings.maxReads())
                .field("writers", settings.writers()).field("pipeline", settings.pipeline())
                .field("rate", settings.rate())
                .field("duration_s", settings.duration().toMillis() / 1e3)
                .field("tracking_total_keys", trackedKeys).field("tracking_total_items", trackedItems)
                .field("sets_per_sec", setsPerSecond).field("invalidations_per_sec", invalidationsPerSecond)
                .field("latency_samples", latencyNanos.getTotalCount()).field("before_reply", beforeReply)
                .field("latency_p50_ms", latencyMillis(50)).field("latency_p99_ms", latencyMillis(99))
                .field("latency_max_ms", maxLatencyMillis())
                .field("used_memory_before", usedMemoryBefore).field("used_memory_after", usedMemoryAfter)
                .field("heap_before", heapBefore).field("heap_after", heapAfter)
                .field("bytes_per_item", bytesPerItem()).field("memory_source", memorySource())
                .field("server_cpu_cores", serverCores).field("client_cpu_cores", clientCores)
                .field("load_average", loadAverage);
    }
}
