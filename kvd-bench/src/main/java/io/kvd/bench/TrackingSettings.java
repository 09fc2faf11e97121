package io.kvd.bench;

import java.time.Duration;

/**
 * One {@code kvbench tracking} round's load: {@code clients} tracking clients each reading between
 * {@code minReads} and {@code maxReads} of the {@code keyRange} keys, {@code writers} connections
 * SETting random keys {@code pipeline} deep (at most {@code rate} a second together, unless 0) for
 * {@code warmup} then the measured {@code duration},
 * a probe write every {@code probeInterval}, and {@code settle} of quiet before each memory reading.
 */
record TrackingSettings(int clients, long keyRange, int minReads, int maxReads, int writers, int pipeline,
                        int rate, int dataSize, Duration warmup, Duration duration, Duration probeInterval, Duration settle,
                        long seed) {
}
