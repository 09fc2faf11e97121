package io.kvd.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code kvbench fairness} against {@link TinyRespServer}; runs end on counts, and no timing is asserted. */
class FairnessTest {
    private static final Pattern SUMMARY = Pattern.compile("fairness tiny at 127\\.0\\.0\\.1:\\d+: 20000 SETs loaded in"
            + " \\d+\\.\\d{3} s \\(\\d+ ops/s\\); (\\d+) PINGs every 1 ms beside them:"
            + " p50 [\\d.]+ p99 [\\d.]+ p99\\.9 [\\d.]+ max [\\d.]+ ms\\R");

    @Test
    void everyKeyIsLoadedAndEveryPingSentIsAProbe() throws Exception {
        try (TinyRespServer server = TinyRespServer.answeringLikeRedis()) {
            Cli cli = new Cli();
            int exitCode = cli.run("fairness", "-p", port(server), "-n", "20000", "--label", "tiny");

            assertThat(exitCode).isZero();
            Matcher summary = SUMMARY.matcher(cli.out.toString());
            assertThat(summary.matches()).as(cli.out.toString()).isTrue();
            assertThat(server.received("FLUSHALL")).isOne();
            assertThat(server.received("SET")).isEqualTo(20_000);
            assertThat(Long.parseLong(summary.group(1))).isPositive().isEqualTo(server.received("PING"));
        }
    }

    @Test
    void theKeysAndValuesAreWhatTheVerifyModeExpects() throws Exception {
        try (TinyRespServer server = TinyRespServer.answeringLikeRedis()) {
            assertThat(new Cli().run("fairness", "-p", port(server), "-n", "100", "--label", "tiny")).isZero();

            try (RespClient client = RespClient.connect(new ServerAddress("127.0.0.1", server.port()))) {
                assertThat(client.callForText("GET", "key:000000000000")).isEqualTo("xxxx000000000000");
                assertThat(client.callForText("GET", "key:000000000099"))
                        .isEqualTo(new String(RequestTemplate.stampedValue(BulkLoader.VALUE_SIZE, 99)));
            }
        }
    }

    @Test
    void flushSendsFlushallAndNoFlushDoesNot() throws Exception {
        try (TinyRespServer server = TinyRespServer.answeringLikeRedis()) {
            assertThat(new Cli().run("fairness", "-p", port(server), "-n", "100", "--flush")).isZero();
            assertThat(new Cli().run("fairness", "-p", port(server), "-n", "100", "--no-flush")).isZero();

            assertThat(server.received("FLUSHALL")).isOne();
            assertThat(server.received("SET")).isEqualTo(200);
        }
    }

    @Test
    void jsonAppendsOneLineWithTheLoadAndTheProbes(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("fairness.jsonl");
        try (TinyRespServer server = TinyRespServer.answeringLikeRedis()) {
            assertThat(new Cli().run("fairness", "-p", port(server), "-n", "1000", "--json", json.toString())).isZero();

            List<String> lines = Files.readAllLines(json);
            assertThat(lines).hasSize(1);
            Map<String, Object> fields = JsonLine.parse(lines.get(0));
            assertThat(fields.keySet()).containsExactly("time", "server", "address", "keys", "interval_ms",
                    "load_seconds", "load_ops_per_sec", "probes", "probe_p50_ms", "probe_p99_ms", "probe_p999_ms",
                    "probe_max_ms");
            // TinyRespServer's INFO names no version, so the server is not recognized.
            assertThat(fields).containsEntry("server", "unknown").containsEntry("keys", 1000.0)
                    .containsEntry("interval_ms", 1.0).containsEntry("probes", (double) server.received("PING"));
        }
    }

    @Test
    void infoNamesKvdOrRedisAndItsVersion() {
        assertThat(FairnessCommand.serverName(Map.of("redis_version", "7.2.4", "kvd_version", "0.1.0")))
                .isEqualTo("kvd 0.1.0");
        assertThat(FairnessCommand.serverName(Map.of("redis_version", "7.0.15"))).isEqualTo("redis 7.0.15");
        assertThat(FairnessCommand.serverName(Map.of("process_id", "42"))).isEqualTo("unknown");
    }

    @Test
    void aSetAnsweredWithAnErrorFailsTheRun() throws Exception {
        try (TinyRespServer server = TinyRespServer.answeringLikeRedisButTheSetOf("key:000000000123",
                "OOM command not allowed when used memory > 'maxmemory'.")) {
            Cli cli = new Cli();

            assertThat(cli.run("fairness", "-p", port(server), "-n", "20000")).isEqualTo(1);
            assertThat(cli.err.toString()).isEqualTo("kvbench fairness: reply 124 is -OOM command not allowed when"
                    + " used memory > 'maxmemory'., not +OK" + System.lineSeparator());
            assertThat(cli.out.toString()).isEmpty();
        }
    }

    @Test
    void aPingAnsweredWithAnErrorFailsTheRunBeforeTheLoad() throws Exception {
        try (TinyRespServer server = TinyRespServer.answeringEveryRequestWith("ERR no thanks")) {
            Cli cli = new Cli();

            assertThat(cli.run("fairness", "-p", port(server), "-n", "100", "--no-flush", "--label", "x")).isEqualTo(1);
            assertThat(cli.err.toString())
                    .isEqualTo("kvbench fairness: PING answered -ERR no thanks, not +PONG" + System.lineSeparator());
            assertThat(server.received("SET")).isZero();
        }
    }

    @Test
    void badArgumentsExitWithTwo() {
        assertThat(new Cli().run("fairness", "-n", "0")).isEqualTo(2);
        assertThat(new Cli().run("fairness", "--interval", "0ms")).isEqualTo(2);
    }

    private static String port(TinyRespServer server) {
        return String.valueOf(server.port());
    }
}
