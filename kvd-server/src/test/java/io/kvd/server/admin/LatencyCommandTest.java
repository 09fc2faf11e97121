package io.kvd.server.admin;

import io.kvd.server.client.Command;
import io.kvd.server.client.Dispatcher;
import io.kvd.server.command.CommandFixture;
import io.kvd.server.config.Config;
import io.kvd.server.config.ConfigException;
import io.kvd.server.latency.LatencyMonitor;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static io.kvd.server.command.CommandFixture.bulk;
import static org.assertj.core.api.Assertions.assertThat;

/** LATENCY and the samples the run step gives the latency monitor, as Redis 7.0's latency.c and call(). */
class LatencyCommandTest {
    private final CommandFixture kvd;

    LatencyCommandTest() throws ConfigException {
        kvd = new CommandFixture(Config.load(null, List.of("--enable-debug-command", "yes")));
    }

    private LatencyMonitor monitor() {
        return kvd.server.latencyMonitor();
    }

    @Test
    void theThresholdIsAMutableDirectiveOffByDefault() {
        assertThat(kvd.call("CONFIG", "GET", "latency-monitor-threshold"))
                .isEqualTo("*2\r\n" + bulk("latency-monitor-threshold") + bulk("0"));
        assertThat(kvd.call("CONFIG", "SET", "latency-monitor-threshold", "-1")).isEqualTo("-ERR CONFIG SET failed "
                + "(possibly related to argument 'latency-monitor-threshold') - argument must be between 0 and "
                + "9223372036854775807 inclusive\r\n");
        assertThat(kvd.call("CONFIG", "SET", "latency-monitor-threshold", "7")).isEqualTo("+OK\r\n");
        assertThat(monitor().threshold()).isEqualTo(7);
    }

    @Test
    void aCommandPastTheThresholdIsSampledInWholeMilliseconds() {
        kvd.call("DEBUG", "SLEEP", "0.003");
        assertThat(kvd.call("LATENCY", "LATEST")).isEqualTo("*0\r\n");
        kvd.call("CONFIG", "SET", "latency-monitor-threshold", "2");
        // CONFIG SET itself may have been that slow on a loaded machine.
        monitor().reset(null);
        kvd.call("DEBUG", "SLEEP", "0.003");
        List<LatencyMonitor.Latest> latest = monitor().latest();
        assertThat(latest).hasSize(1);
        LatencyMonitor.Latest command = latest.get(0);
        assertThat(command.event()).isEqualTo("command");
        assertThat(command.sample().latencyMs()).isGreaterThanOrEqualTo(3);
        assertThat(kvd.call("LATENCY", "LATEST")).isEqualTo("*1\r\n*4\r\n" + bulk("command")
                + ":" + command.sample().timeSeconds() + "\r\n:" + command.sample().latencyMs() + "\r\n:"
                + command.maxMs() + "\r\n");
        assertThat(kvd.call("LATENCY", "HISTORY", "command")).isEqualTo("*1\r\n*2\r\n:"
                + command.sample().timeSeconds() + "\r\n:" + command.sample().latencyMs() + "\r\n");
    }

    @Test
    void aFastCommandIsSampledAsFastCommand() {
        kvd.call("CONFIG", "SET", "latency-monitor-threshold", "2");
        monitor().reset(null);
        Command slowFast = new Command("slowfast", 1, Set.of(Command.Flag.FAST), 0, 0, 0, (client, argv) -> sleep(3));
        Dispatcher.run(kvd.client, slowFast, new byte[][] {"slowfast".getBytes()});
        assertThat(monitor().latest()).extracting(LatencyMonitor.Latest::event).containsExactly("fast-command");
    }

    @Test
    void execIsSampledAsTheCommandsItRuns() {
        kvd.call("CONFIG", "SET", "latency-monitor-threshold", "2");
        kvd.call("MULTI");
        kvd.call("DEBUG", "SLEEP", "0.002");
        kvd.call("DEBUG", "SLEEP", "0.002");
        monitor().reset(null);
        kvd.call("EXEC");
        // Redis keeps EXEC out of the slow log only: both sleeps and EXEC's 4 ms or more are sampled.
        assertThat(monitor().latest().get(0).maxMs()).isGreaterThanOrEqualTo(4);
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void historyAndGraphOfAnUnknownEvent() {
        assertThat(kvd.call("LATENCY", "HISTORY", "nosuch")).isEqualTo("*0\r\n");
        assertThat(kvd.call("LATENCY", "GRAPH", "nosuch")).isEqualTo("-ERR No samples available for event 'nosuch'\r\n");
    }

    @Test
    void graphAndDoctorAreBulkStrings() {
        monitor().addSample("command", 250);
        String graph = monitor().graph("command");
        assertThat(kvd.call("LATENCY", "GRAPH", "command")).isEqualTo(bulk(graph));
        assertThat(graph).startsWith("command - high 250 ms, low 250 ms (all time high 250 ms)\n");
        assertThat(kvd.call("LATENCY", "DOCTOR")).startsWith("$").contains("1. command: 1 latency spikes (average "
                + "250ms, mean deviation 0ms, period 1.00 sec). Worst all time event 250ms.\n");
    }

    @Test
    void resetCountsTheEventsItForgot() {
        monitor().addSample("command", 250);
        monitor().addSample("expire-cycle", 250);
        assertThat(kvd.call("LATENCY", "RESET", "nosuch", "EXPIRE-CYCLE")).isEqualTo(":1\r\n");
        assertThat(kvd.call("LATENCY", "RESET")).isEqualTo(":1\r\n");
        assertThat(kvd.call("LATENCY", "LATEST")).isEqualTo("*0\r\n");
    }

    @Test
    void configResetstatKeepsTheSamples() {
        monitor().addSample("command", 250);
        kvd.call("CONFIG", "RESETSTAT");
        assertThat(monitor().latest()).hasSize(1);
    }

    @Test
    void subcommandArityAndHelpAsRedis() {
        assertThat(kvd.call("LATENCY", "HELP", "x")).isEqualTo(
                "-ERR wrong number of arguments for 'latency|help' command\r\n");
        assertThat(kvd.call("LATENCY", "LATEST", "x")).isEqualTo(
                "-ERR wrong number of arguments for 'latency|latest' command\r\n");
        assertThat(kvd.call("LATENCY", "HISTORY")).isEqualTo(
                "-ERR wrong number of arguments for 'latency|history' command\r\n");
        assertThat(kvd.call("LATENCY", "FOO")).isEqualTo("-ERR unknown subcommand 'FOO'. Try LATENCY HELP.\r\n");
        assertThat(kvd.call("LATENCY", "HELP")).startsWith("*17\r\n+LATENCY <subcommand> [<arg> [value] [opt] ...]. "
                + "Subcommands are:\r\n+DOCTOR\r\n+    Return a human readable latency analysis report.\r\n");
    }

    @Test
    void histogramAnswersEachNamedCommandsCallsAndCumulativeBuckets() {
        kvd.call("SET", "a", "b");
        kvd.call("SET", "a", "c");
        kvd.call("CLIENT", "ID");
        // The buckets' bounds in microseconds and counts vary with the machine: the reply's shape is Redis's.
        assertThat(kvd.call("LATENCY", "HISTOGRAM", "SET", "nosuch", "client")).matches(
                "\\*4\r\n\\$3\r\nset\r\n\\*4\r\n\\$5\r\ncalls\r\n:2\r\n\\$14\r\nhistogram_usec\r\n\\*\\d+\r\n(:\\d+\r\n)+"
                        + "\\$9\r\nclient\\|id\r\n\\*4\r\n\\$5\r\ncalls\r\n:1\r\n\\$14\r\nhistogram_usec\r\n\\*2\r\n:\\d+\r\n:1\r\n");
        assertThat(kvd.call("LATENCY", "HISTOGRAM")).contains("$3\r\nset\r\n", "$9\r\nclient|id\r\n");
        kvd.call("CONFIG", "RESETSTAT");
        assertThat(kvd.call("LATENCY", "HISTOGRAM", "set")).isEqualTo("*0\r\n");
    }
}
