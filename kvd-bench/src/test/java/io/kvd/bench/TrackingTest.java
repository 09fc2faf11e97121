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
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** {@code kvbench tracking}, briefly, against kvd.jar (built before this module in the reactor); no timing is asserted. */
class TrackingTest {
    private static final Pattern ROUND = Pattern.compile("round 1: tracking kvd: 20 clients tracking (\\d+) items over"
            + " (\\d+) keys; SET \\d+ ops/s \\(2 conns, P4\\) with \\d+ invalidations/s; .*; load average .*");

    @Test
    void aRoundAgainstKvdTracksEveryKeyItsClientsRead(@TempDir Path dir) throws Exception {
        Path jar = Path.of(System.getProperty("kvd.jar", "../kvd-server/target/kvd.jar"));
        assumeTrue(Files.isRegularFile(jar), "no kvd.jar at " + jar.toAbsolutePath() + ": build kvd-server first");
        Path json = dir.resolve("tracking.jsonl");
        Cli cli = new Cli();

        int exitCode = cli.run("tracking", "--rounds", "1", "-c", "20", "-r", "1000", "--min-reads", "10",
                "--max-reads", "50", "-w", "2", "-P", "4", "--warmup", "200ms", "--duration", "1s",
                "--probe-interval", "20ms", "--settle", "0s", "--kvd-jar", jar.toString(),
                "--kvd-jvm-options", "none", "--redis-server", "none", "--json", json.toString());

        assertThat(exitCode).as(cli.err.toString()).isZero();
        Matcher round = ROUND.matcher(cli.out.toString().lines().findFirst().orElseThrow());
        assertThat(round.matches()).as(cli.out.toString()).isTrue();
        // Each client reads 10 to 50 distinct keys: one item each.
        assertThat(Long.parseLong(round.group(1))).isBetween(20L * 10, 20L * 50);
        assertThat(Long.parseLong(round.group(2))).isBetween(50L, 1000L);
        assertThat(cli.out.toString()).contains("| SET ops/s | ", "| table B/item | ");
        List<String> lines = Files.readAllLines(json);
        assertThat(lines).hasSize(1);
        Map<String, Object> fields = JsonLine.parse(lines.get(0));
        assertThat(fields).containsEntry("server", "kvd").containsEntry("memory_source", "live heap");
        assertThat((Double) fields.get("invalidations_per_sec")).isPositive();
    }

    @Test
    void aPacedRoundRunsToItsEnd() {
        Path jar = Path.of(System.getProperty("kvd.jar", "../kvd-server/target/kvd.jar"));
        assumeTrue(Files.isRegularFile(jar), "no kvd.jar at " + jar.toAbsolutePath() + ": build kvd-server first");
        Cli cli = new Cli();

        int exitCode = cli.run("tracking", "--rounds", "1", "-c", "20", "-r", "1000", "--min-reads", "10",
                "--max-reads", "50", "-w", "2", "-P", "4", "--rate", "500", "--warmup", "200ms", "--duration", "1s",
                "--probe-interval", "20ms", "--settle", "0s", "--kvd-jar", jar.toString(),
                "--kvd-jvm-options", "none", "--redis-server", "none");

        assertThat(exitCode).as(cli.err.toString()).isZero();
        assertThat(cli.out.toString()).startsWith("round 1: tracking kvd: 20 clients tracking ");
    }

    @Test
    void anInvalidationReadBeforeItsWritesReplyCountsAsZero() {
        InvalidationProbes probes = new InvalidationProbes(1000);
        probes.recording(true);
        long key = probes.nextKey();
        probes.invalidated(key, 100);
        probes.replied(key, 150);
        probes.invalidated(key, 400);

        assertThat(probes.beforeReply()).isOne();
        assertThat(probes.latencyNanos().getTotalCount()).isEqualTo(2);
        assertThat(probes.latencyNanos().getMinValue()).isZero();
        assertThat(probes.latencyNanos().getMaxValue()).isEqualTo(250);
        assertThat(probes.nextKey()).isEqualTo(InvalidationProbes.EVERY);
    }

    @Test
    void anInvalidationReadBeforeAReplyRecordedFirstCountsAsZero() {
        InvalidationProbes probes = new InvalidationProbes(1000);
        probes.recording(true);
        long key = probes.nextKey();
        probes.replied(key, 150);
        probes.invalidated(key, 120);

        assertThat(probes.beforeReply()).isOne();
        assertThat(probes.latencyNanos().getMaxValue()).isZero();
    }

    @Test
    void nothingIsRecordedOutsideTheMeasuredWindow() {
        InvalidationProbes probes = new InvalidationProbes(1000);
        long key = probes.nextKey();
        probes.replied(key, 100);
        probes.invalidated(key, 200);

        assertThat(probes.latencyNanos().getTotalCount()).isZero();
    }
}
