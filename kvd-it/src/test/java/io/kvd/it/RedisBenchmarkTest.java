package io.kvd.it;

import io.kvd.it.support.KvdProcess;
import io.kvd.it.support.ServerLogsOnFailure;
import io.kvd.it.support.Tools;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.uring.IoUring;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * redis-benchmark, 50 connections with pipelines of 16, runs to the end against kvd on every
 * transport without a single error reply. A correctness test: the throughput is not asserted.
 */
@ExtendWith(ServerLogsOnFailure.class)
class RedisBenchmarkTest {
    private static final List<String> TESTS = List.of("ping_inline", "ping_mbulk", "set", "get", "incr", "mset");
    private static final Duration TIMEOUT = Duration.ofMinutes(2);

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"nio", "epoll", "io_uring"})
    void runsEveryTestWithoutErrors(String transport) {
        Tools.require("redis-benchmark");
        assumeAvailable(transport);
        try (KvdProcess kvd = KvdProcess.startWithTransport(transport)) {
            assertThat(kvd.transport()).isEqualTo(transport);

            Tools.Result result = Tools.run(TIMEOUT, null, "redis-benchmark", "-p", String.valueOf(kvd.port()),
                    "-t", String.join(",", TESTS), "-c", "50", "-P", "16", "-n", "100000", "-q");

            assertThat(result.exitCode()).as("%s", result).isZero();
            List<String> lines = Arrays.asList(result.stdout().split("[\r\n]+"));
            assertThat(lines).as("%s", result).noneMatch(line -> line.toLowerCase(Locale.ROOT).contains("error"));
            for (String test : TESTS) {
                assertThat(lines).as("the summary line of %s in %s", test, result)
                        .anyMatch(line -> line.startsWith(test.toUpperCase(Locale.ROOT))
                                && line.contains(" requests per second"));
            }
        }
    }

    /** Whether the host can run the transport; kvd would refuse to start otherwise. */
    private static void assumeAvailable(String transport) {
        Throwable cause = switch (transport) {
            case "epoll" -> Epoll.isAvailable() ? null : Epoll.unavailabilityCause();
            case "io_uring" -> IoUring.isAvailable() ? null : IoUring.unavailabilityCause();
            default -> null;
        };
        assumeTrue(cause == null, () -> "transport " + transport + " is not available here: " + cause);
    }
}
