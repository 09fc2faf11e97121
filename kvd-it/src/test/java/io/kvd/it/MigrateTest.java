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
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import java.util.function.Supplier;

import static io.kvd.it.AofInteropTest.KEYS;
import static io.kvd.it.AofInteropTest.contents;
import static io.kvd.it.AofInteropTest.write;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * MIGRATE between kvd and redis-server in every direction: every type with its TTL, and the
 * replies of COPY, REPLACE, KEYS, AUTH, AUTH2, NOKEY, the target's errors and a timeout, the same
 * as redis-server's for the same sequence.
 */
@ExtendWith(ServerLogsOnFailure.class)
class MigrateTest {
    /** How far a moved key's deadline may be from its source's: the ms between the two servers' clocks reading it. */
    private static final long DEADLINE_SLACK_MS = 2_000;

    /** A started server: its port, and how to stop it. */
    private record Server(int port, AutoCloseable process) implements AutoCloseable {
        static Server kvd(String... options) {
            KvdProcess kvd = KvdProcess.start(options);
            return new Server(kvd.port(), kvd);
        }

        static Server redis(String... options) {
            RedisServerProcess redis = RedisServerProcess.startIn(WorkDir.create("redis"), options);
            return new Server(redis.port(), redis);
        }

        @Override
        public void close() throws Exception {
            process.close();
        }
    }

    @Test
    void everyTypeMovesFromKvdToRedisServerWithItsTtl() throws Exception {
        Tools.require("redis-server");
        try (Server source = Server.kvd(); Server target = Server.redis()) {
            moveEverything(source, target, new String[0]);
        }
    }

    @Test
    void everyTypeMovesFromRedisServerToKvdWithItsTtl() throws Exception {
        Tools.require("redis-server");
        try (Server source = Server.redis(); Server target = Server.kvd()) {
            moveEverything(source, target, new String[0]);
        }
    }

    @Test
    void everyTypeMovesFromKvdToAPasswordProtectedKvd() throws Exception {
        try (Server source = Server.kvd(); Server target = Server.kvd("--requirepass", "foobar")) {
            moveEverything(source, target, new String[] {"AUTH", "foobar"});
        }
    }

    /**
     * Writes every type into {@code source}, moves each database's keys with one MIGRATE ... KEYS,
     * and checks that {@code target} holds what the source held, deadlines within the slack, and
     * the source nothing.
     */
    private static void moveEverything(Server source, Server target, String[] auth) throws Exception {
        write(source.port());
        Map<String, String> expected = contents(source.port());
        try (RespConnection c = RespConnection.open(source.port())) {
            for (Map.Entry<Integer, List<String>> db : KEYS.entrySet()) {
                c.call("SELECT", db.getKey().toString());
                List<String> migrate = new ArrayList<>(List.of("MIGRATE", "127.0.0.1", Integer.toString(target.port()), "",
                        db.getKey().toString(), "5000", "REPLACE"));
                migrate.addAll(List.of(auth));
                migrate.add("KEYS");
                migrate.addAll(db.getValue());
                assertThat(c.call(migrate.toArray(String[]::new))).isIn("+OK\r\n", "+NOKEY\r\n");
                assertThat(c.call("DBSIZE")).isEqualTo(":0\r\n");
            }
        }
        Map<String, String> moved = contentsAuthenticated(target.port(), auth);
        assertThat(withoutDeadlines(moved)).isEqualTo(withoutDeadlines(expected));
        for (String key : expected.keySet()) {
            assertThat(Math.abs(deadline(moved.get(key)) - deadline(expected.get(key)))).as(key)
                    .isLessThanOrEqualTo(DEADLINE_SLACK_MS);
        }
    }

    /** {@link AofInteropTest#contents} of {@code port}; a target with a password has it lifted first, as contents() does not AUTH. */
    private static Map<String, String> contentsAuthenticated(int port, String[] auth) throws Exception {
        if (auth.length == 0) {
            return contents(port);
        }
        try (RespConnection c = RespConnection.open(port)) {
            c.call("AUTH", auth[1]);
            c.call("CONFIG", "SET", "requirepass", "");
        }
        return contents(port);
    }

    private static Map<String, String> withoutDeadlines(Map<String, String> contents) {
        Map<String, String> values = new LinkedHashMap<>();
        contents.forEach((key, value) -> values.put(key, value.substring(0, value.lastIndexOf(' '))));
        return values;
    }

    /** The PEXPIRETIME at the end of a {@link AofInteropTest#contents} value: -1, -2 or the deadline. */
    private static long deadline(String value) {
        String reply = value.substring(value.lastIndexOf(' ') + 1);
        return Long.parseLong(reply.substring(1, reply.length() - 2));
    }

    @Test
    void repliesAreRedisServersForTheSameSequence() throws Exception {
        Tools.require("redis-server");
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            int closed;
            try (ServerSocket gone = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
                closed = gone.getLocalPort();
            }
            List<String> fromKvd;
            try (Server source = Server.kvd()) {
                fromKvd = sequence(source, silent.getLocalPort(), closed);
            }
            List<String> fromRedis;
            try (Server source = Server.redis()) {
                fromRedis = sequence(source, silent.getLocalPort(), closed);
            }
            assertThat(fromKvd).isEqualTo(fromRedis);
            assertThat(fromKvd).contains("-ERR Target instance replied with error: BUSYKEY Target key name already exists.\r\n",
                    "-IOERR error or timeout reading to target instance\r\n",
                    "-IOERR error or timeout writing to target instance\r\n",
                    "-IOERR error or timeout connecting to the client\r\n", "+NOKEY\r\n");
        }
    }

    /**
     * The MIGRATE sequence, from {@code source} to two fresh redis-servers (one plain, one with a
     * password and an ACL user), to {@code silent} (accepts, never answers) and to {@code closed}
     * (nothing listens) and to port -1 (no connect at all); each reply, and INFO's migrate_cached_sockets after it.
     */
    private static List<String> sequence(Server source, int silent, int closed) throws Exception {
        try (Server plain = Server.redis(); Server locked = Server.redis();
             RespConnection c = RespConnection.open(source.port())) {
            // The password set once started: the start waits for a PING answered without one.
            try (RespConnection l = RespConnection.open(locked.port())) {
                assertThat(l.call("ACL", "SETUSER", "mover", "on", ">pw", "~*", "+@all")).isEqualTo("+OK\r\n");
                assertThat(l.call("CONFIG", "SET", "requirepass", "foobar")).isEqualTo("+OK\r\n");
            }
            String to = Integer.toString(plain.port());
            String toLocked = Integer.toString(locked.port());
            List<String> replies = new ArrayList<>();
            IntFunction<String> port = Integer::toString;
            Supplier<String> cached = () -> call(c, "INFO", "stats").lines()
                    .filter(line -> line.startsWith("migrate_cached_sockets:")).findFirst().orElse("none");
            List<List<String>> commands = List.of(
                    List.of("SET", "k", "v"),
                    List.of("PEXPIRE", "k", "100000"),
                    List.of("MIGRATE", "127.0.0.1", to, "k", "0", "5000", "COPY"),
                    List.of("MIGRATE", "127.0.0.1", to, "k", "0", "5000"),
                    List.of("MIGRATE", "127.0.0.1", to, "k", "0", "5000", "REPLACE"),
                    List.of("EXISTS", "k"),
                    List.of("MIGRATE", "127.0.0.1", to, "k", "0", "5000"),
                    List.of("MSET", "a", "1", "b", "2", "c", "3"),
                    List.of("MIGRATE", "127.0.0.1", to, "", "3", "5000", "KEYS", "a", "nokey", "b"),
                    List.of("MIGRATE", "127.0.0.1", to, "", "3", "5000", "KEYS", "nokey"),
                    List.of("MIGRATE", "127.0.0.1", to, "c", "3", "5000", "KEYS", "c"),
                    List.of("MIGRATE", "127.0.0.1", to, "c", "99", "5000"),
                    List.of("MIGRATE", "127.0.0.1", to, "c", "0", "5000", "AUTH"),
                    List.of("MIGRATE", "127.0.0.1", to, "c", "0", "nope"),
                    List.of("MIGRATE", "127.0.0.1", toLocked, "c", "0", "5000"),
                    List.of("MIGRATE", "127.0.0.1", toLocked, "c", "0", "5000", "AUTH", "wrong"),
                    List.of("MIGRATE", "127.0.0.1", toLocked, "c", "0", "5000", "COPY", "AUTH", "foobar"),
                    List.of("MIGRATE", "127.0.0.1", toLocked, "c", "1", "5000", "AUTH2", "mover", "pw"),
                    List.of("EXISTS", "c"),
                    List.of("SET", "t", "v"),
                    List.of("MIGRATE", "127.0.0.1", port.apply(silent), "t", "0", "300"),
                    List.of("MIGRATE", "127.0.0.1", port.apply(closed), "t", "0", "300"),
                    List.of("MIGRATE", "127.0.0.1", "-1", "t", "0", "300"),
                    List.of("EXISTS", "t"));
            for (List<String> command : commands) {
                replies.add(c.call(command.toArray(String[]::new)));
                replies.add(cached.get());
            }
            try (RespConnection p = RespConnection.open(plain.port()); RespConnection l = RespConnection.open(locked.port())) {
                l.call("AUTH", "foobar");
                replies.add(p.call("GET", "k") + ttlKept(p.call("PTTL", "k")));
                p.call("SELECT", "3");
                replies.add(p.call("MGET", "a", "b", "c"));
                l.call("SELECT", "1");
                replies.add(l.call("GET", "c"));
            }
            return replies;
        }
    }

    /** Whether a PTTL reply is a TTL a little under the 100 s the key was given. */
    private static String ttlKept(String pttl) {
        long ttl = Long.parseLong(pttl.substring(1, pttl.length() - 2));
        return ttl > 100_000 - DEADLINE_SLACK_MS * 10 && ttl <= 100_000 ? " ttl kept" : " ttl " + ttl;
    }

    private static String call(RespConnection c, String... args) {
        try {
            return c.call(args);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
