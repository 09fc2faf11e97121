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

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The AOF is Redis's format: redis-check-aof accepts kvd's file, redis-server 7 loads it as an
 * old-style appendonly.aof, and kvd loads what redis-server wrote. Skipped where redis-server is absent.
 */
@ExtendWith(ServerLogsOnFailure.class)
class AofInteropTest {
    /** Writes of every kind whose record is rewritten or kept, transactions too, with deadlines far ahead. */
    private static final List<List<String>> WRITES = List.of(
            List.of("SET", "plain", "v"),
            List.of("SET", "ex", "v", "EX", "100000"),
            List.of("SET", "nx", "v", "NX"),
            List.of("SETEX", "setex", "100000", "v"),
            List.of("INCR", "counter"),
            List.of("INCRBY", "counter", "41"),
            List.of("INCRBYFLOAT", "float", "10.5"),
            List.of("APPEND", "plain", "w"),
            List.of("SET", "expiring", "v"),
            List.of("EXPIRE", "expiring", "200000"),
            List.of("SET", "gone", "v"),
            List.of("DEL", "gone"),
            List.of("SET", "past", "v"),
            List.of("EXPIRE", "past", "-1"),
            List.of("MSET", "m1", "1", "m2", "2"),
            List.of("RENAME", "m2", "renamed"),
            List.of("HSET", "hash", "f1", "a", "f2", "b"),
            List.of("HINCRBYFLOAT", "hash", "f3", "1.5"),
            List.of("HDEL", "hash", "f2"),
            List.of("EXPIRE", "hash", "300000"),
            List.of("HSET", "bighash", "f", "x".repeat(100)),
            List.of("SADD", "set", "a", "b", "c"),
            List.of("SREM", "set", "b"),
            List.of("SADD", "ints", "3", "1", "2"),
            List.of("SADD", "popped", "x", "y"),
            List.of("SPOP", "popped", "5"),
            bigSadd(),
            List.of("RPUSH", "list", "a", "b", "c", "d", "e"),
            List.of("LPUSH", "list", "z"),
            List.of("LSET", "list", "1", "A"),
            List.of("LINSERT", "list", "BEFORE", "c", "bc"),
            List.of("LREM", "list", "1", "d"),
            List.of("LPOP", "list"),
            List.of("BRPOP", "list", "0"),
            List.of("LMPOP", "1", "list", "RIGHT", "COUNT", "1"),
            List.of("BLMOVE", "list", "moved", "LEFT", "RIGHT", "0"),
            List.of("BRPOPLPUSH", "moved", "list", "0"),
            bigPush(),
            List.of("LTRIM", "biglist", "1", "-2"),
            List.of("ZADD", "zset", "1", "a", "2.5", "b", "-inf", "c", "3", "d"),
            List.of("ZINCRBY", "zset", "10", "a"),
            List.of("ZREM", "zset", "b"),
            List.of("BZPOPMIN", "zset", "0"),
            List.of("BZMPOP", "0", "1", "zset", "MAX", "COUNT", "1"),
            bigZadd(),
            List.of("ZPOPMAX", "bigzset", "2"),
            List.of("ZREMRANGEBYSCORE", "bigzset", "0", "10"),
            List.of("MULTI"),
            List.of("SET", "tx1", "v"),
            List.of("HSET", "txhash", "f", "v"),
            List.of("SELECT", "4"),
            List.of("SET", "in4", "v"),
            List.of("SELECT", "0"),
            List.of("EXEC"),
            List.of("MULTI"),
            List.of("SET", "tx2", "v"),
            List.of("EXEC"),
            List.of("XADD", "stream", "1-1", "a", "1", "b", "2"),
            List.of("XADD", "stream", "2-*", "a", "3"),
            List.of("XADD", "stream", "MAXLEN", "~", "1", "3-1", "c", "4"),
            List.of("XADD", "stream", "*", "x", "y"),
            List.of("XDEL", "stream", "1-1"),
            List.of("XTRIM", "stream", "MAXLEN", "=", "3"),
            List.of("XSETID", "stream", "99999999999999-1", "ENTRIESADDED", "10", "MAXDELETEDID", "1-1"),
            List.of("XGROUP", "CREATE", "stream", "g", "0"),
            List.of("XREADGROUP", "GROUP", "g", "c1", "COUNT", "1", "STREAMS", "stream", ">"),
            List.of("XREADGROUP", "GROUP", "g", "c2", "NOACK", "STREAMS", "stream", ">"),
            List.of("XGROUP", "CREATECONSUMER", "stream", "g", "idle"),
            List.of("XAUTOCLAIM", "stream", "g", "c3", "0", "0"),
            List.of("XGROUP", "CREATE", "stream", "late", "$", "ENTRIESREAD", "10"),
            List.of("XGROUP", "CREATE", "stream", "gone", "0"),
            List.of("XGROUP", "DESTROY", "stream", "gone"),
            List.of("XADD", "emptied", "5-5", "f", "v"),
            List.of("XDEL", "emptied", "5-5"),
            List.of("SELECT", "3"),
            List.of("SET", "in3", "v"),
            List.of("SADD", "moving", "m"),
            List.of("MOVE", "moving", "5"),
            List.of("SWAPDB", "5", "6"),
            List.of("SELECT", "0"));
    /** The keys each database may hold after {@link #WRITES}. */
    static final Map<Integer, List<String>> KEYS = Map.of(
            0, List.of("plain", "ex", "nx", "setex", "counter", "float", "expiring", "gone", "past", "m1", "m2",
                    "renamed", "hash", "bighash", "set", "ints", "popped", "bigset", "list", "moved", "biglist",
                    "zset", "bigzset", "tx1", "txhash", "tx2", "stream", "emptied", "bigstream"),
            3, List.of("in3", "moving"),
            4, List.of("in4"),
            5, List.of("moving"),
            6, List.of("moving"));

    /** SADD of 200 members: past Redis's intset and kvd's packed set, a hash table in both. */
    private static List<String> bigSadd() {
        List<String> command = new ArrayList<>(List.of("SADD", "bigset"));
        for (int i = 0; i < 200; i++) {
            command.add("member:" + i);
        }
        return command;
    }

    /** RPUSH of 1,000 elements: past one 8 KB node, a quicklist of several in both. */
    private static List<String> bigPush() {
        List<String> command = new ArrayList<>(List.of("RPUSH", "biglist"));
        for (int i = 0; i < 1000; i++) {
            command.add("element:" + i);
        }
        return command;
    }

    /** ZADD of 200 members: past the listpack's 128, a skip list in both. */
    private static List<String> bigZadd() {
        List<String> command = new ArrayList<>(List.of("ZADD", "bigzset"));
        for (int i = 0; i < 200; i++) {
            command.add(Double.toString(i * 0.5));
            command.add("member:" + i);
        }
        return command;
    }

    /** Runs every write of {@link #WRITES} and the big stream's (the RDB interop test's too). */
    static void write(int port) throws Exception {
        try (RespConnection c = RespConnection.open(port)) {
            for (List<String> command : WRITES) {
                c.call(command.toArray(String[]::new));
            }
            writeBigStream(c);
        }
    }

    /** 250 entries in three nodes of both servers, a whole node trimmed with ~, then entries with MINID. */
    private static void writeBigStream(RespConnection c) throws Exception {
        for (int i = 1; i <= 250; i++) {
            c.call("XADD", "bigstream", i + "-1", i % 7 == 0 ? "other" : "field", "value:" + i);
        }
        c.call("XTRIM", "bigstream", "MAXLEN", "~", "100");
        c.call("XTRIM", "bigstream", "MINID", "120");
        c.call("XDEL", "bigstream", "130-1", "250-1");
        c.call("PEXPIRE", "bigstream", "300000");
    }

    /**
     * Each key's type, value and absolute deadline (PEXPIRETIME) as a server reports them, by
     * database: a hash and a set through replies whose order does not depend on the encoding, a
     * list and a sorted set whole, in their order.
     */
    static Map<String, String> contents(int port) throws Exception {
        Map<String, String> contents = new LinkedHashMap<>();
        try (RespConnection c = RespConnection.open(port)) {
            for (int db : new TreeSet<>(KEYS.keySet())) {
                c.call("SELECT", Integer.toString(db));
                for (String key : KEYS.get(db)) {
                    String type = c.call("TYPE", key);
                    String value = switch (type) {
                        case "+hash\r\n" -> c.call("HLEN", key) + c.call("HMGET", key, "f", "f1", "f2", "f3");
                        case "+set\r\n" -> c.call("SCARD", key)
                                + c.call("SMISMEMBER", key, "a", "b", "c", "1", "2", "3", "x", "m", "member:0", "member:199");
                        case "+list\r\n" -> c.call("LRANGE", key, "0", "-1");
                        case "+zset\r\n" -> c.call("ZRANGE", key, "0", "-1", "WITHSCORES");
                        // The node counts depend on the history the rewrite does not keep; idle times on the clock.
                        case "+stream\r\n" -> c.call("XRANGE", key, "-", "+") + c.call("XINFO", "STREAM", key)
                                .replaceAll("\\$15\r\nradix-tree-keys\r\n:\\d+\r\n\\$16\r\nradix-tree-nodes\r\n:\\d+\r\n", "")
                                + c.call("XINFO", "GROUPS", key) + c.call("XPENDING", key, "g")
                                + c.call("XPENDING", key, "g", "IDLE", "0", "-", "+", "10")
                                        .replaceAll(":\\d+\r\n(:\\d+\r\n)", "$1");
                        default -> c.call("GET", key);
                    };
                    contents.put(db + ":" + key, type + value + " " + c.call("PEXPIRETIME", key));
                }
            }
        }
        return contents;
    }

    @Test
    void kvdsAofPassesRedisCheckAof() throws Exception {
        Tools.require("redis-check-aof");
        Path dir = WorkDir.create("kvd-aof");
        try (KvdProcess kvd = KvdProcess.startIn(dir)) {
            write(kvd.port());
        }
        Tools.Result check = Tools.run(Duration.ofSeconds(30), null, "redis-check-aof", dir.resolve("appendonly.aof").toString());
        assertThat(check.exitCode()).as(check.toString()).isZero();
        assertThat(check.stdout()).contains("is valid");
    }

    @Test
    void redisServerLoadsKvdsAofWithTheSameKeysValuesAndDeadlines() throws Exception {
        Tools.require("redis-server");
        Path kvdDir = WorkDir.create("kvd-aof");
        Map<String, String> expected;
        try (KvdProcess kvd = KvdProcess.startIn(kvdDir)) {
            write(kvd.port());
            expected = contents(kvd.port());
        }
        Path redisDir = WorkDir.create("redis-aof");
        Files.copy(kvdDir.resolve("appendonly.aof"), redisDir.resolve("appendonly.aof"));
        try (RedisServerProcess redis = RedisServerProcess.startIn(redisDir, "--appendonly", "yes",
                "--aof-use-rdb-preamble", "no")) {
            assertThat(contents(redis.port())).isEqualTo(expected);
        }
    }

    @Test
    void rewrittenAofPassesRedisCheckAofAndLoadsInRedisServer() throws Exception {
        Tools.require("redis-check-aof");
        Tools.require("redis-server");
        Path kvdDir = WorkDir.create("kvd-aof");
        Map<String, String> expected;
        try (KvdProcess kvd = KvdProcess.startIn(kvdDir); RespConnection c = RespConnection.open(kvd.port())) {
            write(kvd.port());
            assertThat(c.call("BGREWRITEAOF")).isEqualTo("+Background append only file rewriting started\r\n");
            Poll.until(Duration.ofSeconds(60), "the rewrite", () -> call(c, "INFO", "persistence").contains("aof_rewrites:1\r\n") ? true : null);
            c.call("INCR", "counter");
            expected = contents(kvd.port());
        }
        Path file = kvdDir.resolve("appendonly.aof");
        assertThat(Files.readString(file)).startsWith("*2\r\n$6\r\nSELECT\r\n$1\r\n0\r\n*3\r\n$3\r\nSET\r\n")
                .doesNotContain("INCRBY");
        Tools.Result check = Tools.run(Duration.ofSeconds(30), null, "redis-check-aof", file.toString());
        assertThat(check.exitCode()).as(check.toString()).isZero();
        Path redisDir = WorkDir.create("redis-aof");
        Files.copy(file, redisDir.resolve("appendonly.aof"));
        try (RedisServerProcess redis = RedisServerProcess.startIn(redisDir, "--appendonly", "yes",
                "--aof-use-rdb-preamble", "no")) {
            assertThat(contents(redis.port())).isEqualTo(expected);
        }
    }

    @Test
    void popsServedToBlockedClientsReplayInKvdAndRedisServerAsTheyHappened() throws Exception {
        Tools.require("redis-server");
        Path kvdDir = WorkDir.create("kvd-aof");
        String expected;
        try (KvdProcess kvd = KvdProcess.startIn(kvdDir);
             RespConnection list = RespConnection.open(kvd.port());
             RespConnection zset = RespConnection.open(kvd.port());
             RespConnection pusher = RespConnection.open(kvd.port())) {
            list.send("BLMOVE".getBytes(), "q".getBytes(), "moved".getBytes(), "LEFT".getBytes(), "RIGHT".getBytes(),
                    "0".getBytes());
            zset.send("BZPOPMAX".getBytes(), "z".getBytes(), "0".getBytes());
            Poll.until(Duration.ofSeconds(10), "both clients blocked",
                    () -> call(pusher, "INFO", "clients").contains("blocked_clients:2\r\n") ? true : null);
            pusher.call("RPUSH", "q", "a", "b");
            pusher.call("ZADD", "z", "1", "low", "2", "high");
            assertThat(new String(list.readReply(), StandardCharsets.UTF_8)).isEqualTo("$1\r\na\r\n");
            assertThat(new String(zset.readReply(), StandardCharsets.UTF_8)).isEqualTo("*3\r\n$1\r\nz\r\n$4\r\nhigh\r\n$1\r\n2\r\n");
            expected = servedContents(pusher);
        }
        try (KvdProcess kvd = KvdProcess.startIn(kvdDir); RespConnection c = RespConnection.open(kvd.port())) {
            assertThat(servedContents(c)).isEqualTo(expected);
        }
        Path redisDir = WorkDir.create("redis-aof");
        Files.copy(kvdDir.resolve("appendonly.aof"), redisDir.resolve("appendonly.aof"));
        try (RedisServerProcess redis = RedisServerProcess.startIn(redisDir, "--appendonly", "yes",
                "--aof-use-rdb-preamble", "no"); RespConnection c = RespConnection.open(redis.port())) {
            assertThat(servedContents(c)).isEqualTo(expected);
        }
    }

    /** Two libraries of one function each (Redis lists a library's functions in hash-table order). */
    private static final String COUNTER = "#!lua name=counter\nredis.register_function('bump', function(keys, args)"
            + " redis.call('set', keys[1] .. ':last', args[1]) return redis.call('incrby', keys[1], args[1]) end)";
    private static final String READER = "#!lua name=reader\nredis.register_function{function_name='peek',"
            + " callback=function(keys) return redis.call('get', keys[1]) end, flags={'no-writes'}}";

    @Test
    void functionsSurviveARestartAndARewriteAndLoadInRedisServer() throws Exception {
        Tools.require("redis-server");
        Path kvdDir = WorkDir.create("kvd-aof");
        String expected;
        try (KvdProcess kvd = KvdProcess.startIn(kvdDir); RespConnection c = RespConnection.open(kvd.port())) {
            c.call("FUNCTION", "LOAD", "#!lua name=gone\nredis.register_function('gone', function() return 1 end)");
            c.call("FUNCTION", "LOAD", COUNTER.replace("'bump'", "'old'"));
            c.call("FUNCTION", "LOAD", "REPLACE", COUNTER);
            c.call("FUNCTION", "LOAD", READER);
            c.call("FUNCTION", "DELETE", "gone");
            assertThat(c.call("FCALL", "bump", "1", "n", "5")).isEqualTo(":5\r\n");
            expected = functionsAndData(c);
        }
        try (KvdProcess kvd = KvdProcess.startIn(kvdDir); RespConnection c = RespConnection.open(kvd.port())) {
            assertThat(functionsAndData(c)).isEqualTo(expected);
            assertThat(c.call("BGREWRITEAOF")).isEqualTo("+Background append only file rewriting started\r\n");
            Poll.until(Duration.ofSeconds(60), "the rewrite", () -> call(c, "INFO", "persistence").contains("aof_rewrites:1\r\n") ? true : null);
        }
        assertThat(Files.readString(kvdDir.resolve("appendonly.aof")))
                .startsWith("*3\r\n$8\r\nFUNCTION\r\n$4\r\nLOAD\r\n$" + COUNTER.length() + "\r\n" + COUNTER + "\r\n")
                .doesNotContain("gone");
        try (KvdProcess kvd = KvdProcess.startIn(kvdDir); RespConnection c = RespConnection.open(kvd.port())) {
            assertThat(functionsAndData(c)).isEqualTo(expected);
        }
        Path redisDir = WorkDir.create("redis-aof");
        Files.copy(kvdDir.resolve("appendonly.aof"), redisDir.resolve("appendonly.aof"));
        try (RedisServerProcess redis = RedisServerProcess.startIn(redisDir, "--appendonly", "yes",
                "--aof-use-rdb-preamble", "no"); RespConnection c = RespConnection.open(redis.port())) {
            assertThat(functionsAndData(c)).isEqualTo(expected);
        }
    }

    @Test
    void kvdLoadsTheFunctionsRedisServerLogged() throws Exception {
        Tools.require("redis-server");
        Path redisDir = WorkDir.create("redis-aof");
        String expected;
        try (RedisServerProcess redis = RedisServerProcess.startIn(redisDir, "--appendonly", "yes",
                "--aof-use-rdb-preamble", "no", "--appendfsync", "always");
             RespConnection c = RespConnection.open(redis.port())) {
            c.call("FUNCTION", "LOAD", "#!lua name=gone\nredis.register_function('gone', function() return 1 end)");
            c.call("FUNCTION", "LOAD", COUNTER);
            c.call("FUNCTION", "LOAD", "REPLACE", READER);
            c.call("FUNCTION", "DELETE", "gone");
            c.call("FCALL", "bump", "1", "n", "5");
            expected = functionsAndData(c);
        }
        Path kvdDir = WorkDir.create("kvd-aof");
        Files.write(kvdDir.resolve("appendonly.aof"), concatenatedAof(redisDir.resolve("appendonlydir")));
        try (KvdProcess kvd = KvdProcess.startIn(kvdDir); RespConnection c = RespConnection.open(kvd.port())) {
            assertThat(functionsAndData(c)).isEqualTo(expected);
        }
    }

    private static String functionsAndData(RespConnection c) throws IOException {
        return c.call("FUNCTION", "LIST", "LIBRARYNAME", "counter", "WITHCODE")
                + c.call("FUNCTION", "LIST", "LIBRARYNAME", "reader", "WITHCODE")
                + c.call("FUNCTION", "LIST", "LIBRARYNAME", "gone") + c.call("FCALL_RO", "peek", "1", "n")
                + c.call("GET", "n:last");
    }

    private static String servedContents(RespConnection c) throws IOException {
        return c.call("LRANGE", "q", "0", "-1") + c.call("LRANGE", "moved", "0", "-1")
                + c.call("ZRANGE", "z", "0", "-1", "WITHSCORES");
    }

    static String call(RespConnection c, String... args) {
        try {
            return c.call(args);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void kvdLoadsTheAofRedisServerWrote() throws Exception {
        Tools.require("redis-server");
        Path redisDir = WorkDir.create("redis-aof");
        Map<String, String> expected;
        try (RedisServerProcess redis = RedisServerProcess.startIn(redisDir, "--appendonly", "yes",
                "--aof-use-rdb-preamble", "no", "--appendfsync", "always")) {
            write(redis.port());
            expected = contents(redis.port());
        }
        Path kvdDir = WorkDir.create("kvd-aof");
        Files.write(kvdDir.resolve("appendonly.aof"), concatenatedAof(redisDir.resolve("appendonlydir")));
        try (KvdProcess kvd = KvdProcess.startIn(kvdDir)) {
            assertThat(contents(kvd.port())).isEqualTo(expected);
        }
    }

    /**
     * Redis 7 keeps its AOF as a base file and increments listed in a manifest; with
     * aof-use-rdb-preamble no, all of them in the manifest's order are one plain AOF.
     */
    private static byte[] concatenatedAof(Path appendonlydir) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (String line : Files.readAllLines(appendonlydir.resolve("appendonly.aof.manifest"))) {
            String[] fields = line.split(" ");
            out.write(Files.readAllBytes(appendonlydir.resolve(fields[1])));
        }
        return out.toByteArray();
    }
}
