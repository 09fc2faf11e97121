package io.kvd.bench;

import io.kvd.bench.BenchResult.Percentile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** Short runs against {@link TinyRespServer}; they check counts and consistency, never timings. */
class KvBenchRunTest {
    private TinyRespServer server;

    @BeforeEach
    void startServer() throws InterruptedException {
        server = TinyRespServer.answeringLikeRedis();
    }

    @AfterEach
    void stopServer() {
        server.close();
    }

    @ParameterizedTest
    @EnumSource(Workload.class)
    void everyRequestIsAnsweredAndMeasuredOnce(Workload workload) throws Exception {
        BenchResult result = run("-n", "20000", "-c", "4", "-P", "8", "--threads", "2",
                "-w", workload.label(), "-d", "16", "-r", "1000");

        assertThat(result.requests()).isEqualTo(20_000);
        assertThat(result.errors()).isZero();
        assertThat(result.firstError()).isNull();
        assertThat(server.receivedInAll()).isEqualTo(20_000);
        assertThat(result.latencyMicros(Percentile.P50)).isPositive()
                .isLessThanOrEqualTo(result.latencyMicros(Percentile.P99));
        assertThat(result.latencyMicros(Percentile.P99)).isLessThanOrEqualTo(result.maxLatencyMicros());
        assertThat(result.opsPerSecond()).isPositive();
    }

    @Test
    void mixSendsBothSetAndGet() throws Exception {
        run("-n", "2000", "-c", "2", "-P", "4", "-w", "mix");

        assertThat(server.received("SET")).isPositive();
        assertThat(server.received("GET")).isPositive();
        assertThat(server.received("SET") + server.received("GET")).isEqualTo(2000);
    }

    @Test
    void moreConnectionsThanRequestsSendExactlyTheRequests() throws Exception {
        BenchResult result = run("-n", "3", "-c", "8", "-P", "16", "-w", "ping");

        assertThat(result.requests()).isEqualTo(3);
        assertThat(server.received("PING")).isEqualTo(3);
    }

    @Test
    void aDurationAloneEndsTheRun() throws Exception {
        BenchResult result = run("--duration", "200ms", "-c", "2", "-P", "4", "-w", "ping");

        assertThat(result.requests()).isPositive().isEqualTo(server.received("PING"));
    }

    @Test
    void theSummaryNamesTheRunAndItsPercentiles() {
        Cli cli = new Cli();
        assertThat(cli.run("-p", port(), "-n", "1000", "-c", "2", "-P", "4", "-w", "incr", "-d", "16")).isZero();

        String[] lines = cli.out.toString().split(System.lineSeparator());
        assertThat(lines[0]).matches("kvbench incr 127\\.0\\.0\\.1:" + port()
                + ": 2 connections, pipeline 4, 1 threads \\((epoll|nio)\\), 16-byte values, 100000 keys");
        assertThat(lines[1]).matches("  1000 requests in \\d+\\.\\d{3} s: \\d+ ops/s, 0 errors");
        assertThat(lines[2]).matches("  latency µs: p50 [\\d.]+ p90 [\\d.]+ p99 [\\d.]+ p99\\.9 [\\d.]+ max [\\d.]+");
        assertThat(lines[3]).matches("  in flight: [\\d.]+ by Little's law, of at most 8");
        assertThat(lines[4]).matches("  CPU: kvbench [\\d.]+ s \\(\\d+% of its threads\\), server [\\d.]+ s \\(\\d+% busy\\), "
                + "(\\d+|unknown) ops per server CPU second; load average [\\d.]+ -> [\\d.]+");
    }

    @Test
    void jsonAppendsOneFlatLinePerRun(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("runs.jsonl");
        Cli cli = new Cli();
        assertThat(cli.run("-p", port(), "-n", "500", "-c", "2", "-P", "4", "-w", "get", "--json", json.toString())).isZero();
        assertThat(cli.run("-p", port(), "--duration", "100ms", "-c", "2", "-w", "set", "--json", json.toString())).isZero();

        List<String> lines = Files.readAllLines(json);
        assertThat(lines).hasSize(2);
        assertThat(lines.get(0))
                .startsWith("{\"time\":\"")
                .contains(",\"workload\":\"get\",\"servers\":\"127.0.0.1:" + port()
                        + "\",\"connections\":2,\"pipeline\":4,\"threads\":1,")
                .contains(",\"data_size\":3,\"key_range\":100000,\"verify\":false,\"n\":500,\"duration_s\":null,"
                        + "\"warmup_s\":null,\"requests\":500,\"errors\":0,\"first_error\":null,")
                .contains(",\"in_flight_limit\":8,", ",\"server_pids\":\"" + ProcessHandle.current().pid() + "\",");
        assertThat(lines.get(1)).contains("\"workload\":\"set\"", "\"n\":null,\"duration_s\":0.100,");
    }

    @Test
    void theJsonLineIsFlatJsonWithEveryField(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("runs.jsonl");
        assertThat(new Cli().run("-p", port(), "-n", "500", "-c", "2", "--json", json.toString())).isZero();

        String line = Files.readString(json).strip();
        String value = "(null|true|false|-?\\d+(\\.\\d+)?|\"([^\"\\\\]|\\\\.)*\")";
        assertThat(line).matches("\\{\"[a-z0-9_]+\":" + value + "(,\"[a-z0-9_]+\":" + value + ")*}");
        assertThat(Pattern.compile("\"([a-z0-9_]+)\":").matcher(line).results().map(m -> m.group(1)))
                .containsExactly("time", "workload", "servers", "connections", "pipeline", "threads", "transport",
                        "data_size", "key_range", "verify", "n", "duration_s", "warmup_s", "requests", "errors",
                        "first_error", "verified", "misses", "elapsed_s", "ops_per_sec", "mean_us", "p50_us", "p90_us",
                        "p99_us", "p999_us", "max_us", "in_flight_limit", "littles_law_in_flight", "load_before",
                        "load_after", "client_cpu_s", "client_busy", "server_pids", "server_cpu_s", "server_busy",
                        "ops_per_server_cpu_s", "client_bound");
    }

    @Test
    void serverCpuIsReadForTheProcessInfoNames() throws Exception {
        BenchResult result = run("-n", "2000", "-c", "2", "-P", "4");

        ResourceUse use = result.resources();
        assertThat(use.serverPids()).containsExactly(ProcessHandle.current().pid());
        assertThat(use.serverCpuSeconds()).isNotNull().isNotNegative();
        assertThat(use.clientCpuSeconds()).isNotNull().isNotNegative();
        assertThat(use.loadBefore()).isNotNull().isNotNegative();
        assertThat(use.loadAfter()).isNotNull().isNotNegative();
    }

    @Test
    void littlesLawNeverCountsMoreInFlightThanTheWindowsHold() throws Exception {
        BenchResult result = run("-n", "5000", "-c", "3", "-P", "4");

        assertThat(result.littlesLawInFlight()).isPositive().isLessThanOrEqualTo(12.0);
    }

    @Test
    void serversShardKeysEvenlyByKeyNumber() throws Exception {
        try (TinyRespServer second = TinyRespServer.answeringLikeRedis();
             TinyRespServer third = TinyRespServer.answeringLikeRedis()) {
            BenchResult result = LoadGenerator.run(Cli.settings("--servers", "127.0.0.1:" + port() + ",127.0.0.1:"
                    + second.port() + ",127.0.0.1:" + third.port(), "-n", "30000", "-c", "4", "-P", "8", "-r", "100000"));

            assertThat(result.requests()).isEqualTo(30_000);
            for (TinyRespServer s : List.of(server, second, third)) {
                assertThat(s.received("SET")).isBetween(9_500L, 10_500L);
            }
            assertThat(server.received("SET") + second.received("SET") + third.received("SET")).isEqualTo(30_000);
        }
    }

    @Test
    void verifyChecksEveryGetAgainstWhatSetWrote() throws Exception {
        BenchResult result = run("--verify", "-w", "mix", "-n", "20000", "-r", "100", "-d", "16", "-c", "4", "-P", "8");

        assertThat(result.errors()).isZero();
        assertThat(result.verified()).isPositive();
        assertThat(result.verified() + result.misses()).isEqualTo(server.received("GET"));
    }

    @Test
    void verifyFailsTheRunWhenAGetReturnsSomethingElse() throws Exception {
        server.close();
        server = TinyRespServer.answeringEveryGetWith("something else");
        Cli cli = new Cli();

        assertThat(cli.run("-p", port(), "--verify", "-w", "get", "-n", "100", "-c", "2", "-d", "16")).isEqualTo(1);
        assertThat(cli.out.toString()).contains(" 100 errors", "  first error: -verify: GET key ",
                " returned $\"something else\", not what SET wrote");
    }

    @Test
    void theWarmupIsSentButNotMeasured() throws Exception {
        BenchResult result = run("--warmup", "100ms", "-n", "1000", "-c", "2", "-P", "4", "-w", "ping");

        assertThat(result.requests()).isEqualTo(1000);
        assertThat(server.received("PING")).isGreaterThan(1000);
    }

    @Test
    void errorRepliesAreCountedAndFailTheRun() throws Exception {
        server.close();
        server = TinyRespServer.answeringEveryRequestWith("ERR no such luck");
        Cli cli = new Cli();

        assertThat(cli.run("-p", port(), "-n", "100", "-c", "2", "-P", "4")).isEqualTo(1);
        assertThat(cli.out.toString()).contains("  100 requests in ", " 100 errors", "  first error: -ERR no such luck");
        assertThat(cli.err.toString()).isEqualTo(
                "kvbench: 100 error replies (pass --allow-errors to accept them)" + System.lineSeparator());
    }

    @Test
    void allowErrorsLetsARunWithErrorRepliesSucceed() throws Exception {
        server.close();
        server = TinyRespServer.answeringEveryRequestWith("ERR no such luck");

        assertThat(new Cli().run("-p", port(), "-n", "100", "-c", "2", "--allow-errors")).isZero();
    }

    @Test
    void aServerThatIsNotListeningFailsTheRunWithTheReason() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        Cli cli = new Cli();

        assertThat(cli.run("-p", String.valueOf(closedPort), "-n", "10")).isEqualTo(1);
        assertThat(cli.err.toString().toLowerCase(Locale.ROOT))
                .startsWith("kvbench: cannot connect to 127.0.0.1:" + closedPort + ": ")
                .contains("refused");
    }

    private BenchResult run(String... args) throws Exception {
        String[] withPort = new String[args.length + 2];
        withPort[0] = "-p";
        withPort[1] = port();
        System.arraycopy(args, 0, withPort, 2, args.length);
        return LoadGenerator.run(Cli.settings(withPort));
    }

    private String port() {
        return String.valueOf(server.port());
    }
}
