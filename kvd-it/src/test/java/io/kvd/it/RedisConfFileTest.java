package io.kvd.it;

import io.kvd.it.support.KvdProcess;
import io.kvd.it.support.RedisServerProcess;
import io.kvd.it.support.RespConnection;
import io.kvd.it.support.ServerLogsOnFailure;
import io.kvd.it.support.Tools;
import io.kvd.it.support.WorkDir;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * kvd starts on the redis.conf an operator starts from (Debian's redis-server 7.0.15 package
 * installs it as /etc/redis/redis.conf; a copy is in the test resources) and shows every
 * directive as redis-server started on the same file does.
 */
@ExtendWith(ServerLogsOnFailure.class)
class RedisConfFileTest {
    /** What the two servers are told beside the file: their own port, dir and files, in the foreground. */
    private static final String[] OVERRIDES = {"--daemonize", "no", "--supervised", "no", "--logfile", ""};
    /**
     * Directives whose values differ by design: the port and files of each server, snapshots kvd
     * does not write yet (its save is empty), and kvd's cluster-config-file, a static slot map
     * only read with cluster-enabled (docs/configuration.md).
     */
    private static final Set<String> DIFFERENT = Set.of("port", "dir", "pidfile", "save", "cluster-config-file");
    /** kvd's own directives, which Redis does not have. */
    private static final Set<String> KVD_ONLY = Set.of("transport", "client-output-soft-limit", "client-query-slice");

    @Test
    void everyDirectiveOfDebiansRedisConfIsAcceptedAndShownAsRedisShowsIt() throws IOException {
        Tools.require("redis-server");
        Path redisDir = WorkDir.create("redis");
        Path kvdDir = WorkDir.create("kvd");
        Path file = copyOfDebiansRedisConf(kvdDir);
        Map<String, String> expected;
        try (RedisServerProcess redis = RedisServerProcess.startWithConfigFile(redisDir, file,
                with("--dir", redisDir.toString(), "--pidfile", redisDir.resolve("redis.pid").toString()))) {
            expected = configGetAll(redis.port());
        }
        try (KvdProcess kvd = KvdProcess.startWithConfigFile(kvdDir, file,
                with("--pidfile", kvdDir.resolve("kvd.pid").toString()))) {
            Map<String, String> actual = configGetAll(kvd.port());
            assertThat(expected).hasSizeGreaterThan(180);
            assertThat(actual.keySet()).containsAll(expected.keySet());
            assertThat(actual.keySet()).hasSize(expected.size() + KVD_ONLY.size());
            expected.keySet().removeAll(DIFFERENT);
            actual.keySet().retainAll(expected.keySet());
            assertThat(actual).containsExactlyInAnyOrderEntriesOf(expected);
        }
    }

    @Test
    void kvdLogsItsPidAndReadyAsRedisDoesForToolsThatWaitForThem() {
        try (KvdProcess kvd = KvdProcess.start()) {
            assertThat(kvd.log()).contains(" PID: " + kvd.pid()).contains("Ready to accept connections");
        }
    }

    private static String[] with(String... more) {
        String[] all = new String[OVERRIDES.length + more.length];
        System.arraycopy(OVERRIDES, 0, all, 0, OVERRIDES.length);
        System.arraycopy(more, 0, all, OVERRIDES.length, more.length);
        return all;
    }

    private static Path copyOfDebiansRedisConf(Path dir) throws IOException {
        Path file = dir.resolve("redis.conf");
        try (InputStream in = RedisConfFileTest.class.getResourceAsStream("/redis-conf/debian-7.0.15-redis.conf")) {
            assertThat(in).as("redis-conf/debian-7.0.15-redis.conf in the test resources").isNotNull();
            Files.copy(in, file);
        }
        return file;
    }

    /** CONFIG GET *, name to value. */
    private static Map<String, String> configGetAll(int port) throws IOException {
        try (RespConnection connection = RespConnection.open(port)) {
            connection.send("CONFIG".getBytes(), "GET".getBytes(), "*".getBytes());
            String reply = new String(connection.readReply(), java.nio.charset.StandardCharsets.UTF_8);
            String[] lines = reply.split("\r\n", -1);
            Map<String, String> values = new TreeMap<>();
            // *N, then $len name, $len value pairs: names and values are lines 2, 4, 6, ...
            for (int i = 1; i + 3 < lines.length; i += 4) {
                values.put(lines[i + 1], lines[i + 3]);
            }
            return values;
        }
    }
}
