package io.kvd.bench;

import org.junit.jupiter.api.Test;
import picocli.CommandLine.ParameterException;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class KvBenchArgumentsTest {

    @Test
    void everyOptionOfTheDocumentedCommandLineIsRead() {
        BenchSettings s = Cli.settings("-h", "10.0.0.7", "-p", "7000", "-c", "50", "-P", "16", "-n", "1000000",
                "--threads", "2", "-w", "get", "-d", "16", "-r", "5000");
        assertThat(s).isEqualTo(new BenchSettings(List.of(new ServerAddress("10.0.0.7", 7000)), 50, 16, 1_000_000, null,
                2, Workload.GET, 16, 5000, false, null, List.of()));
    }

    @Test
    void defaultsFollowRedisBenchmark() {
        assertThat(Cli.settings()).isEqualTo(new BenchSettings(List.of(new ServerAddress("127.0.0.1", 6379)), 50, 1,
                100_000, null, 1, Workload.SET, 3, 100_000, false, null, List.of()));
    }

    @Test
    void serversListHostPortPairsInOrderAndReplaceHostAndPort() {
        BenchSettings s = Cli.settings("-h", "10.0.0.7", "--servers", "127.0.0.1:7001,localhost:7002,::1:7003");
        assertThat(s.servers()).containsExactly(new ServerAddress("127.0.0.1", 7001),
                new ServerAddress("localhost", 7002), new ServerAddress("::1", 7003));
    }

    @Test
    void clusterNamesTheNodeToAskForTheSlotMap() {
        BenchSettings s = Cli.settings("--cluster", "127.0.0.1:30001");
        assertThat(s.cluster()).isEqualTo(new ServerAddress("127.0.0.1", 30001));
        assertThat(s.servers()).containsExactly(new ServerAddress("127.0.0.1", 30001));
    }

    @Test
    void clusterAndServersExcludeEachOther() {
        assertThatThrownBy(() -> Cli.settings("--cluster", "127.0.0.1:30001", "--servers", "127.0.0.1:7001"))
                .isInstanceOf(ParameterException.class)
                .hasMessage("--cluster and --servers exclude each other");
    }

    @Test
    void aServerWithoutAPortIsRejected() {
        assertThatThrownBy(() -> Cli.settings("--servers", "127.0.0.1:7001,127.0.0.1"))
                .isInstanceOf(ParameterException.class)
                .hasMessageContaining("'127.0.0.1' is not host:port");
    }

    @Test
    void serverPidsAreOnePerServer() {
        assertThat(Cli.settings("--servers", "a:1,b:2", "--server-pid", "10,20").serverPids()).containsExactly(10L, 20L);
        assertThatThrownBy(() -> Cli.settings("--servers", "a:1,b:2", "--server-pid", "10"))
                .isInstanceOf(ParameterException.class)
                .hasMessage("--server-pid needs one process id per server");
    }

    @Test
    void warmupAndVerifyAreRead() {
        BenchSettings s = Cli.settings("--warmup", "2s", "--verify");
        assertThat(s.warmup()).isEqualTo(Duration.ofSeconds(2));
        assertThat(s.verify()).isTrue();
    }

    @Test
    void verifyNeedsRoomInTheValueForTheKeysDigits() {
        assertThatThrownBy(() -> Cli.settings("--verify", "-d", "0"))
                .isInstanceOf(ParameterException.class)
                .hasMessage("--verify needs values of at least 1 byte (-d)");
    }

    @Test
    void durationAloneRunsWithoutARequestCount() {
        BenchSettings s = Cli.settings("--duration", "10s");
        assertThat(s.duration()).isEqualTo(Duration.ofSeconds(10));
        assertThat(s.requests()).isEqualTo(BenchSettings.UNLIMITED);
    }

    @Test
    void durationWithACountKeepsBothLimits() {
        BenchSettings s = Cli.settings("--duration", "500ms", "-n", "1000");
        assertThat(s.duration()).isEqualTo(Duration.ofMillis(500));
        assertThat(s.requests()).isEqualTo(1000);
    }

    @Test
    void workloadIsNamedInAnyCase() {
        assertThat(Cli.settings("-w", "mix").workload()).isEqualTo(Workload.MIX);
        assertThat(Cli.settings("-w", "MIX").workload()).isEqualTo(Workload.MIX);
    }

    @Test
    void unknownWorkloadIsRejected() {
        assertThatThrownBy(() -> Cli.settings("-w", "del")).isInstanceOf(ParameterException.class);
    }

    @Test
    void durationWithoutAUnitWeKnowIsRejected() {
        assertThatThrownBy(() -> Cli.settings("--duration", "10 seconds"))
                .isInstanceOf(ParameterException.class)
                .hasMessageContaining("'10 seconds' is not a duration");
    }

    @Test
    void zeroDurationIsRejected() {
        assertThatThrownBy(() -> Cli.settings("--duration", "0s"))
                .isInstanceOf(ParameterException.class)
                .hasMessage("--duration must be longer than 0");
    }

    @Test
    void pipelineBelowOneIsRejected() {
        assertThatThrownBy(() -> Cli.settings("-P", "0"))
                .isInstanceOf(ParameterException.class)
                .hasMessage("-P must be at least 1, not 0");
    }

    @Test
    void keyRangeBeyondTwelveDigitsIsRejected() {
        assertThat(Cli.settings("-r", "1000000000000").keyRange()).isEqualTo(1_000_000_000_000L);
        assertThatThrownBy(() -> Cli.settings("-r", "1000000000001"))
                .isInstanceOf(ParameterException.class)
                .hasMessage("-r must be at most 1000000000000: keys have 12 digits");
    }

    @Test
    void badArgumentsExitWithTwoAndSayWhy() {
        Cli cli = new Cli();
        assertThat(cli.run("-c", "0")).isEqualTo(2);
        assertThat(cli.err.toString()).startsWith("-c must be at least 1, not 0");
    }
}
