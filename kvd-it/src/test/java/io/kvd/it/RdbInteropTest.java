package io.kvd.it;

import io.kvd.it.support.KvdProcess;
import io.kvd.it.support.Poll;
import io.kvd.it.support.RedisServerProcess;
import io.kvd.it.support.RespConnection;
import io.kvd.it.support.ServerLogsOnFailure;
import io.kvd.it.support.Tools;
import io.kvd.it.support.WorkDir;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static io.kvd.it.AofInteropTest.call;
import static io.kvd.it.AofInteropTest.contents;
import static io.kvd.it.AofInteropTest.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * RDB files and DUMP payloads are Redis 7.0's: redis-check-rdb accepts kvd's dump.rdb and
 * redis-server loads it with the same contents, kvd loads redis-server's, and DUMP payloads
 * RESTORE across both, byte for byte where the encoding has a fixed order.
 */
@ExtendWith(ServerLogsOnFailure.class)
class RdbInteropTest {
    /** Keys whose DUMP is the same bytes from both servers: their encodings keep one order. */
    private static final List<String> SAME_PAYLOAD = List.of("plain", "counter", "float", "hash", "ints", "list",
            "zset", "bigzset", "txhash");

    @Test
    void kvdsSaveIsAcceptedByRedisCheckRdbAndLoadsInRedisServer() throws Exception {
        Tools.require("redis-check-rdb");
        Path kvdDir = WorkDir.create("kvd-rdb");
        Map<String, String> expected;
        try (KvdProcess kvd = KvdProcess.startIn(kvdDir, "--appendonly", "no");
             RespConnection c = RespConnection.open(kvd.port())) {
            write(kvd.port());
            assertThat(c.call("SAVE")).isEqualTo("+OK\r\n");
            expected = contents(kvd.port());
        }
        assertRedisLoads(kvdDir.resolve("dump.rdb"), expected);
    }

    @Test
    void kvdsBgsaveIsAcceptedByRedisCheckRdbAndLoadsInRedisServer() throws Exception {
        Tools.require("redis-check-rdb");
        Path kvdDir = WorkDir.create("kvd-rdb");
        Map<String, String> expected;
        try (KvdProcess kvd = KvdProcess.startIn(kvdDir, "--appendonly", "no");
             RespConnection c = RespConnection.open(kvd.port())) {
            write(kvd.port());
            expected = contents(kvd.port());
            assertThat(c.call("BGSAVE")).isEqualTo("+Background saving started\r\n");
            // Writes while it runs are not in the file: it holds the data as BGSAVE found it.
            c.call("SET", "plain", "changed");
            c.call("DEL", "hash");
            Poll.until(Duration.ofSeconds(60), "the background save",
                    () -> call(c, "INFO", "persistence").contains("rdb_bgsave_in_progress:0\r\n") ? true : null);
            assertThat(c.call("INFO", "persistence")).contains("rdb_last_bgsave_status:ok\r\n");
        }
        assertRedisLoads(kvdDir.resolve("dump.rdb"), expected);
    }

    @Test
    void aFailedBgsaveWithSavePointsRefusesWritesUntilASaveSucceeds() throws Exception {
        Path dir = WorkDir.create("kvd-rdb");
        try (KvdProcess kvd = KvdProcess.startIn(dir, "--appendonly", "no");
             RespConnection c = RespConnection.open(kvd.port())) {
            c.call("SET", "k", "v");
            // The temporary file's name taken by a directory: the save cannot create it.
            Path blocker = Files.createDirectory(dir.resolve("temp-" + kvd.pid() + ".rdb"));
            assertThat(c.call("BGSAVE")).isEqualTo("+Background saving started\r\n");
            Poll.until(Duration.ofSeconds(30), "the failed save",
                    () -> call(c, "INFO", "persistence").contains("rdb_last_bgsave_status:err\r\n") ? true : null);
            // Without save points a failed BGSAVE refuses nothing, as in Redis.
            assertThat(c.call("SET", "k", "w")).isEqualTo("+OK\r\n");
            c.call("CONFIG", "SET", "save", "3600 1");
            String misconf = "-MISCONF Redis is configured to save RDB snapshots, but it's currently unable to persist "
                    + "to disk. Commands that may modify the data set are disabled, because this instance is configured "
                    + "to report errors during writes if RDB snapshotting fails (stop-writes-on-bgsave-error option). "
                    + "Please check the Redis logs for details about the RDB error.\r\n";
            assertThat(c.call("SET", "k", "x")).isEqualTo(misconf);
            assertThat(c.call("PING")).isEqualTo(misconf);
            assertThat(c.call("GET", "k")).isEqualTo("$1\r\nw\r\n");
            Files.delete(blocker);
            assertThat(c.call("SAVE")).isEqualTo("+OK\r\n");
            assertThat(c.call("SET", "k", "y")).isEqualTo("+OK\r\n");
        }
    }

    @Test
    void savePointsSaveInTheBackgroundAndShutdownSavesTheRest() throws Exception {
        Path dir = WorkDir.create("kvd-rdb");
        try (KvdProcess kvd = KvdProcess.startIn(dir, "--appendonly", "no", "--save", "1 2");
             RespConnection c = RespConnection.open(kvd.port())) {
            c.call("SET", "a", "1");
            c.call("SET", "b", "2");
            Poll.until(Duration.ofSeconds(30), "the save point's BGSAVE",
                    () -> call(c, "INFO", "persistence").contains("rdb_saves:1\r\n") ? true : null);
            Poll.until(Duration.ofSeconds(30), "its end",
                    () -> call(c, "INFO", "persistence").contains("rdb_bgsave_in_progress:0\r\n") ? true : null);
            c.call("SET", "c", "3");
            c.send("SHUTDOWN".getBytes(StandardCharsets.US_ASCII));
            Poll.until(Duration.ofSeconds(30), "the shutdown", () -> isClosed(c) ? true : null);
        }
        try (KvdProcess kvd = KvdProcess.startIn(dir, "--appendonly", "no");
             RespConnection c = RespConnection.open(kvd.port())) {
            assertThat(c.call("MGET", "a", "b", "c")).isEqualTo("*3\r\n$1\r\n1\r\n$1\r\n2\r\n$1\r\n3\r\n");
        }
    }

    private static boolean isClosed(RespConnection c) {
        try {
            return c.isClosedByServer();
        } catch (java.io.IOException e) {
            return true;
        }
    }

    private static void assertRedisLoads(Path file, Map<String, String> expected) throws Exception {
        Tools.Result check = Tools.run(Duration.ofSeconds(30), null, "redis-check-rdb", file.toString());
        assertThat(check.exitCode()).as(check.toString()).isZero();
        assertThat(check.stdout()).contains("RDB looks OK");
        Path redisDir = WorkDir.create("redis-rdb");
        Files.copy(file, redisDir.resolve("dump.rdb"));
        try (RedisServerProcess redis = RedisServerProcess.startIn(redisDir)) {
            assertThat(contents(redis.port())).isEqualTo(expected);
        }
    }

    @Test
    void kvdLoadsRedisServersDumpWithTheSameContents() throws Exception {
        Path redisDir = WorkDir.create("redis-rdb");
        Map<String, String> expected;
        try (RedisServerProcess redis = RedisServerProcess.startIn(redisDir);
             RespConnection c = RespConnection.open(redis.port())) {
            write(redis.port());
            c.call("FUNCTION", "LOAD", "#!lua name=lib\nredis.register_function('f', function() return 7 end)");
            assertThat(c.call("SAVE")).isEqualTo("+OK\r\n");
            expected = contents(redis.port());
        }
        Path kvdDir = WorkDir.create("kvd-rdb");
        Files.copy(redisDir.resolve("dump.rdb"), kvdDir.resolve("dump.rdb"));
        try (KvdProcess kvd = KvdProcess.startIn(kvdDir, "--appendonly", "no");
             RespConnection c = RespConnection.open(kvd.port())) {
            assertThat(contents(kvd.port())).isEqualTo(expected);
            assertThat(c.call("FCALL", "f", "0")).isEqualTo(":7\r\n");
            assertThat(c.call("INFO", "persistence")).contains("rdb_last_load_keys_loaded:");
        }
    }

    @Test
    void aDamagedDumpStopsTheStart() throws Exception {
        Path redisDir = WorkDir.create("redis-rdb");
        try (RedisServerProcess redis = RedisServerProcess.startIn(redisDir);
             RespConnection c = RespConnection.open(redis.port())) {
            write(redis.port());
            c.call("SAVE");
        }
        byte[] file = Files.readAllBytes(redisDir.resolve("dump.rdb"));
        Path kvdDir = WorkDir.create("kvd-rdb");
        Files.write(kvdDir.resolve("dump.rdb"), Arrays.copyOf(file, file.length / 2));
        assertThatThrownBy(() -> KvdProcess.startIn(kvdDir, "--appendonly", "no"))
                .hasMessageContaining("kvd exited before it was ready")
                .hasMessageContaining("Fatal error loading the DB")
                .hasMessageContaining("unexpected end of the RDB data");
        assertThat(Files.size(kvdDir.resolve("dump.rdb"))).isEqualTo(file.length / 2);
    }

    @Test
    void dumpPayloadsRestoreAcrossBothServers() throws Exception {
        try (RedisServerProcess redis = RedisServerProcess.start(); KvdProcess kvd = KvdProcess.start();
             RespConnection r = RespConnection.open(redis.port()); RespConnection k = RespConnection.open(kvd.port())) {
            write(redis.port());
            write(kvd.port());
            // Each ends with the other's data (XADD * ids and deadlines differ between the two runs).
            Map<String, String> redisContents = contents(redis.port());
            Map<String, String> kvdContents = contents(kvd.port());
            for (String key : AofInteropTest.KEYS.get(0)) {
                byte[] fromRedis = dump(r, key);
                byte[] fromKvd = dump(k, key);
                if (fromRedis == null) {
                    assertThat(fromKvd).as(key).isNull();
                    continue;
                }
                if (SAME_PAYLOAD.contains(key)) {
                    assertThat(fromKvd).as("DUMP %s", key).isEqualTo(fromRedis);
                }
                String redisDeadline = deadline(r, key);
                String kvdDeadline = deadline(k, key);
                assertThat(restore(k, key, redisDeadline, fromRedis)).as("RESTORE %s into kvd", key)
                        .isEqualTo("+OK\r\n");
                assertThat(restore(r, key, kvdDeadline, fromKvd)).as("RESTORE %s into redis-server", key)
                        .isEqualTo("+OK\r\n");
            }
            assertSameContents(contents(kvd.port()), redisContents, "kvd");
            assertSameContents(contents(redis.port()), kvdContents, "redis-server");
        }
    }

    /** RESTORE's TTL for a copy of the key: its absolute deadline, or 0 when it has none. */
    private static String deadline(RespConnection c, String key) {
        String ms = call(c, "PEXPIRETIME", key).replaceAll("[^0-9-]", "");
        return ms.startsWith("-") ? "0" : ms;
    }

    /** Key by key, so a difference names its key. */
    private static void assertSameContents(Map<String, String> actual, Map<String, String> expected, String server) {
        assertThat(actual.keySet()).isEqualTo(expected.keySet());
        expected.forEach((key, value) -> assertThat(actual.get(key)).as("%s in %s", key, server).isEqualTo(value));
    }

    private static byte[] dump(RespConnection c, String key) throws Exception {
        c.send(bytes("DUMP"), bytes(key));
        byte[] reply = c.readReply();
        if (reply[0] == '-') {
            return null;
        }
        int header = indexOfCrLf(reply);
        int length = Integer.parseInt(new String(reply, 1, header - 1, StandardCharsets.US_ASCII));
        return length < 0 ? null : Arrays.copyOfRange(reply, header + 2, header + 2 + length);
    }

    private static String restore(RespConnection c, String key, String absoluteTtl, byte[] payload) throws Exception {
        c.send(bytes("RESTORE"), bytes(key), bytes(absoluteTtl), payload, bytes("REPLACE"), bytes("ABSTTL"));
        return new String(c.readReply(), StandardCharsets.UTF_8);
    }

    private static int indexOfCrLf(byte[] reply) {
        for (int i = 0; i + 1 < reply.length; i++) {
            if (reply[i] == '\r' && reply[i + 1] == '\n') {
                return i;
            }
        }
        throw new IllegalStateException("no line in the reply");
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
