package io.kvd.bench;

import java.time.Duration;

/**
 * One run's parameters, validated.
 *
 * @param requests how many requests in all, {@link #UNLIMITED} when only the duration bounds the run
 * @param duration how long to keep issuing requests, null when only the count bounds the run
 * @param dataSize the bytes of each SET value
 * @param keyRange keys are drawn uniformly from {@code [0, keyRange)}
 */
record BenchSettings(String host, int port, int connections, int pipeline, long requests, Duration duration,
                     int threads, Workload workload, int dataSize, long keyRange) {
    static final long UNLIMITED = Long.MAX_VALUE;
}
