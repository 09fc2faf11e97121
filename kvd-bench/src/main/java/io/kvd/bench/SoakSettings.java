package io.kvd.bench;

import java.time.Duration;

/**
 * What {@code kvbench soak} runs: against {@code server} for {@code duration}, its random choices drawn
 * from {@code seed}; {@code clients} load connections and the checker send at most {@code rate}
 * requests per second together; the churn holds up to {@code maxConnections} open.
 */
record SoakSettings(ServerAddress server, Duration duration, long seed, int rate, int clients, int maxConnections,
                    int keyRange, Duration progressInterval) {
}
