package io.kvd.bench;

import java.time.Duration;
import java.util.List;

/**
 * How big the suite's experiments are: the full suite (about 30 minutes on 2 cores) or {@code --quick}
 * (under 2 minutes; {@code SuiteQuickTest} runs it).
 *
 * @param runTime      each measured throughput run
 * @param runWarmup    the untimed load before each measured run
 * @param serverWarmup load sent once after each server start, so that kvd's JIT has compiled the request path
 * @param reps         runs per point and server, unless {@code --reps} says otherwise
 * @param keys         key range of the throughput runs, and keys loaded before GET runs
 */
record SuiteScale(String name, Duration runTime, Duration runWarmup, Duration serverWarmup, int reps,
                  List<Integer> depths, List<Integer> connections, int keys, List<Integer> aofDepths,
                  long aofLatencyRequests, Duration aofLatencyCap, int expiryKeys, Duration expiryWatch,
                  List<Integer> replaySizes, List<Integer> transportDepths, int memoryKeys) {

    static final SuiteScale FULL = new SuiteScale("full", Duration.ofSeconds(3), Duration.ofMillis(500),
            Duration.ofSeconds(3), 3, List.of(1, 2, 4, 8, 16, 32, 64, 128), List.of(1, 8, 16, 50, 128, 256),
            100_000, List.of(1, 16), 100_000, Duration.ofSeconds(20), 200_000, Duration.ofSeconds(10),
            List.of(0, 100_000, 400_000, 1_600_000), List.of(1, 16), 1_000_000);

    static final SuiteScale QUICK = new SuiteScale("quick", Duration.ofMillis(600), Duration.ofMillis(200),
            Duration.ofSeconds(1), 1, List.of(1, 16), List.of(1, 50), 100_000, List.of(1, 16), 5_000,
            Duration.ofSeconds(2), 50_000, Duration.ofSeconds(3), List.of(0, 100_000), List.of(1, 16), 200_000);
}
