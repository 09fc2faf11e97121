package io.kvd.it;

import io.kvd.it.support.AcknowledgedWriters;
import io.kvd.it.support.KvdProcess;
import io.kvd.it.support.RespConnection;
import io.kvd.it.support.ServerLogsOnFailure;
import io.kvd.it.support.WorkDir;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** kvd killed with SIGKILL and started again on its AOF: what was acknowledged is there. */
@ExtendWith(ServerLogsOnFailure.class)
class AofCrashTest {
    private static final int WRITERS = 20;

    @Test
    void everyAcknowledgedWriteSurvivesSigkillUnderAppendfsyncAlways() throws Exception {
        long seed = Long.getLong("kvd.test.seed", 20240601L);
        int rounds = Integer.getInteger("kvd.it.crashRounds", 20);
        System.out.println("AofCrashTest seed " + seed + " (rerun with -Dkvd.test.seed=" + seed + "), " + rounds + " rounds");
        SplittableRandom random = new SplittableRandom(seed);
        for (int round = 0; round < rounds; round++) {
            crashRound(random.nextInt(0, 300));
        }
    }

    /**
     * 20 writers SET sequential keys until a SIGKILL {@code killAfterMs} after the first
     * acknowledgement; a restart has every acknowledged key.
     */
    private static void crashRound(int killAfterMs) throws Exception {
        Path dir = WorkDir.create("kvd-crash");
        KvdProcess kvd = KvdProcess.startIn(dir, "--appendfsync", "always");
        try (AcknowledgedWriters writers = new AcknowledgedWriters(kvd.port(), WRITERS)) {
            writers.awaitFirstAcknowledgement();
            Thread.sleep(killAfterMs);
            kvd.kill();
            try (KvdProcess restarted = KvdProcess.startIn(dir, "--appendfsync", "always");
                 RespConnection c = RespConnection.open(restarted.port())) {
                writers.assertEveryAcknowledgedWriteIn(c, "kill after " + killAfterMs + " ms");
            }
        }
    }

    @Test
    void twoHundredKeysWrittenWithAlwaysAreAllThereAfterSigkill() throws Exception {
        Path dir = WorkDir.create("kvd-crash");
        KvdProcess kvd = KvdProcess.startIn(dir, "--appendfsync", "always");
        try (RespConnection c = RespConnection.open(kvd.port())) {
            for (int i = 0; i < 200; i++) {
                assertThat(c.call("SET", "key:" + i, "value:" + i)).isEqualTo("+OK\r\n");
            }
        }
        kvd.kill();
        try (KvdProcess restarted = KvdProcess.startIn(dir); RespConnection c = RespConnection.open(restarted.port())) {
            assertThat(c.call("DBSIZE")).isEqualTo(":200\r\n");
            for (int i = 0; i < 200; i++) {
                assertThat(c.call("GET", "key:" + i)).isEqualTo(bulk("value:" + i));
            }
        }
    }

    /**
     * A client runs MULTI, INCR a, INCR b, EXEC, pipelined, until a SIGKILL: after the restart
     * a and b are equal (no transaction half applied) and at least the acknowledged count.
     */
    @Test
    void transactionsAreWholeOrAbsentAfterSigkill() throws Exception {
        for (int killAfterMs : new int[] {0, 50, 150}) {
            Path dir = WorkDir.create("kvd-crash-tx");
            KvdProcess kvd = KvdProcess.startIn(dir, "--appendfsync", "always");
            AtomicLong acknowledged = new AtomicLong();
            CountDownLatch first = new CountDownLatch(1);
            Thread writer = new Thread(() -> {
                try (RespConnection c = RespConnection.open(kvd.port())) {
                    byte[][] multi = {bytes("MULTI")};
                    byte[][] incrA = {bytes("INCR"), bytes("a")};
                    byte[][] incrB = {bytes("INCR"), bytes("b")};
                    byte[][] exec = {bytes("EXEC")};
                    while (true) {
                        c.send(multi);
                        c.send(incrA);
                        c.send(incrB);
                        c.send(exec);
                        for (int i = 0; i < 3; i++) {
                            c.readReply();
                        }
                        c.readReply();
                        acknowledged.incrementAndGet();
                        first.countDown();
                    }
                } catch (Exception killed) {
                    // The server was killed.
                }
            });
            writer.start();
            first.await();
            Thread.sleep(killAfterMs);
            kvd.kill();
            writer.join();
            try (KvdProcess restarted = KvdProcess.startIn(dir); RespConnection c = RespConnection.open(restarted.port())) {
                String a = c.call("GET", "a");
                assertThat(c.call("GET", "b")).as("kill after %d ms", killAfterMs).isEqualTo(a);
                long count = Long.parseLong(a.substring(a.indexOf('\n') + 1, a.length() - 2));
                assertThat(count).as("kill after %d ms", killAfterMs).isGreaterThanOrEqualTo(acknowledged.get());
            }
        }
    }

    /** A single-file AOF (kvd's before the AOF directory, Redis 6's) the start moves into appendonlydir as its base. */
    private static Path upgraded(Path dir) {
        return dir.resolve("appendonlydir").resolve("appendonly.aof");
    }

    @Test
    void transactionWithoutItsExecAtTheEndIsRevertedWithAWarning() throws Exception {
        Path dir = WorkDir.create("kvd-torn-tx");
        Files.writeString(dir.resolve("appendonly.aof"), "*3\r\n$3\r\nSET\r\n$1\r\na\r\n$1\r\n1\r\n*1\r\n$5\r\nMULTI\r\n"
                + "*3\r\n$3\r\nSET\r\n$1\r\nb\r\n$1\r\n2\r\n*1\r\n$4\r\nEX");
        try (KvdProcess kvd = KvdProcess.startIn(dir); RespConnection c = RespConnection.open(kvd.port())) {
            assertThat(c.call("GET", "a")).isEqualTo(bulk("1"));
            assertThat(c.call("EXISTS", "b")).isEqualTo(":0\r\n");
            assertThat(kvd.log()).contains("Revert incomplete MULTI/EXEC transaction in AOF file appendonly.aof")
                    .contains("!!! Truncating the AOF appendonly.aof at offset 27 !!!");
        }
        assertThat(Files.size(upgraded(dir))).isEqualTo(27);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void tornLastRecordIsCutWithAWarningAndTheRestLoads() throws Exception {
        Path dir = WorkDir.create("kvd-torn");
        Files.writeString(dir.resolve("appendonly.aof"), "*3\r\n$3\r\nSET\r\n$1\r\na\r\n$1\r\n1\r\n*3\r\n$3\r\nSET\r\n$1\r\nb");
        try (KvdProcess kvd = KvdProcess.startIn(dir); RespConnection c = RespConnection.open(kvd.port())) {
            assertThat(c.call("GET", "a")).isEqualTo(bulk("1"));
            assertThat(c.call("EXISTS", "b")).isEqualTo(":0\r\n");
            assertThat(kvd.log()).contains("!!! Warning: short read while loading the AOF file appendonly.aof!!!")
                    .contains("!!! Truncating the AOF appendonly.aof at offset 27 !!!")
                    .contains("AOF appendonly.aof loaded anyway because aof-load-truncated is enabled");
        }
        assertThat(Files.size(upgraded(dir))).isEqualTo(27);
    }

    @Test
    void garbageInTheMiddleStopsTheStartNamingTheOffsetAndTheRepair() throws Exception {
        Path dir = WorkDir.create("kvd-garbage");
        Files.writeString(dir.resolve("appendonly.aof"),
                "*3\r\n$3\r\nSET\r\n$1\r\na\r\n$1\r\n1\r\nGARBAGE*3\r\n$3\r\nSET\r\n$1\r\nb\r\n$1\r\n2\r\n");
        assertThatThrownBy(() -> KvdProcess.startIn(dir))
                .hasMessageContaining("kvd exited before it was ready")
                .hasMessageContaining("expected '*' at offset 27")
                .hasMessageContaining("--check-aof --fix " + upgraded(dir));
        assertThat(Files.readString(upgraded(dir), StandardCharsets.UTF_8)).contains("GARBAGE");
    }

    private static String bulk(String value) {
        return "$" + value.length() + "\r\n" + value + "\r\n";
    }
}
