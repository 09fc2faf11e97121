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
        assertThat(lines).hasSize(3);
        assertThat(lines[0]).matches("kvbench incr 127\\.0\\.0\\.1:" + port()
                + ": 2 connections, pipeline 4, 1 threads \\((epoll|nio)\\), 16-byte values, 100000 keys");
        assertThat(lines[1]).matches("  1000 requests in \\d+\\.\\d{3} s: \\d+ ops/s, 0 errors");
        assertThat(lines[2]).matches("  latency µs: p50 [\\d.]+ p90 [\\d.]+ p99 [\\d.]+ p99\\.9 [\\d.]+ max [\\d.]+");
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
                .contains(",\"workload\":\"get\",\"host\":\"127.0.0.1\",\"port\":" + port()
                        + ",\"connections\":2,\"pipeline\":4,\"threads\":1,")
                .contains(",\"data_size\":3,\"key_range\":100000,\"n\":500,\"duration_s\":null,\"requests\":500,"
                        + "\"errors\":0,\"first_error\":null,\"elapsed_s\":")
                .containsPattern(",\"ops_per_sec\":[\\d.]+,\"p50_us\":[\\d.]+,\"p90_us\":[\\d.]+,\"p99_us\":[\\d.]+,"
                        + "\"p999_us\":[\\d.]+,\"max_us\":[\\d.]+}$");
        assertThat(lines.get(1)).contains("\"workload\":\"set\"", "\"n\":null,\"duration_s\":0.100,");
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
