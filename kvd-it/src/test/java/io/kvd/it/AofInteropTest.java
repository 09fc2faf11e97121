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
 * The AOF is Redis 7's: redis-check-aof accepts kvd's directory (its manifest, an RDB or AOF base,
 * the incr files), redis-server 7 starts on kvd's directory with the same contents and kvd on
 * redis-server's, and a single appendonly.aof (Redis 6's, kvd's before) is upgraded by either.
 * Skipped where redis-server is absent.
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

    private static Path aofDir(Path dir) {
        return dir.resolve("appendonlydir");
    }

    private static Path manifest(Path dir) {
        return aofDir(dir).resolve("appendonly.aof.manifest");
    }

    /** A copy of {@code from}'s AOF directory in a new work dir, for the other server to start on. */
    private static Path copyAofDir(Path from, String name) throws IOException {
        Path to = WorkDir.create(name);
        Files.createDirectories(aofDir(to));
        try (var files = Files.list(aofDir(from))) {
            for (Path file : files.toList()) {
                Files.copy(file, aofDir(to).resolve(file.getFileName()));
            }
        }
        return to;
    }

    /** The base file the manifest names. */
    private static Path base(Path dir) throws IOException {
        String first = Files.readAllLines(manifest(dir)).get(0);
        assertThat(first).endsWith(" type b");
        return aofDir(dir).resolve(first.split(" ")[1]);
    }

    private static void assertRedisCheckAofAccepts(Path dir) {
        Tools.Result check = Tools.run(Duration.ofSeconds(30), null, "redis-check-aof", manifest(dir).toString());
        assertThat(check.exitCode()).as(check.toString()).isZero();
        assertThat(check.stdout()).contains("All AOF files and manifest are valid");
    }

    /** Runs BGREWRITEAOF and waits until it ended, on either server. */
    private static void rewrite(RespConnection c) throws Exception {
        long before = Long.parseLong(infoField(c, "aof_rewrites"));
        assertThat(c.call("BGREWRITEAOF")).isEqualTo("+Background append only file rewriting started\r\n");
        Poll.until(Duration.ofSeconds(60), "the rewrite", () -> Long.parseLong(infoField(c, "aof_rewrites")) > before
                && infoField(c, "aof_rewrite_in_progress").equals("0") ? true : null);
    }

    private static String infoField(RespConnection c, String name) {
        String info = call(c, "INFO", "persistence");
        int at = info.indexOf(name + ":");
        return info.substring(at + name.length() + 1, info.indexOf('\r', at));
    }

    @Test
    void kvdsAofPassesRedisCheckAof() throws Exception {
        Tools.require("redis-check-aof");
        Path dir = WorkDir.create("kvd-aof");
        try (KvdProcess kvd = KvdProcess.startIn(dir)) {
            write(kvd.port());
        }
        assertThat(Files.readString(manifest(dir))).isEqualTo("file appendonly.aof.1.base.rdb seq 1 type b\n"
                + "file appendonly.aof.1.incr.aof seq 1 type i\n");
        assertRedisCheckAofAccepts(dir);
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
        try (RedisServerProcess redis = RedisServerProcess.startIn(copyAofDir(kvdDir, "redis-aof"), "--appendonly", "yes")) {
            assertThat(contents(redis.port())).isEqualTo(expected);
        }
    }

    @Test
    void aRewriteWithAnRdbBasePassesRedisCheckAofAndLoadsInRedisServer() throws Exception {
        Tools.require("redis-check-aof");
        Path kvdDir = WorkDir.create("kvd-aof");
        Map<String, String> expected = writeRewriteAndWriteAgain(kvdDir, "yes");
        assertThat(Files.readString(manifest(kvdDir))).isEqualTo("file appendonly.aof.2.base.rdb seq 2 type b\n"
                + "file appendonly.aof.2.incr.aof seq 2 type i\n");
        assertThat(Files.readString(base(kvdDir), StandardCharsets.ISO_8859_1)).startsWith("REDIS0010");
        assertThat(aofDir(kvdDir).resolve("appendonly.aof.1.incr.aof")).doesNotExist();
        assertRedisCheckAofAccepts(kvdDir);
        try (RedisServerProcess redis = RedisServerProcess.startIn(copyAofDir(kvdDir, "redis-aof"), "--appendonly", "yes")) {
            assertThat(contents(redis.port())).isEqualTo(expected);
        }
    }

    @Test
    void aRewriteWithAnAofBasePassesRedisCheckAofAndLoadsInRedisServer() throws Exception {
        Tools.require("redis-check-aof");
        Path kvdDir = WorkDir.create("kvd-aof");
        Map<String, String> expected = writeRewriteAndWriteAgain(kvdDir, "no");
        assertThat(base(kvdDir).getFileName()).hasToString("appendonly.aof.2.base.aof");
        assertThat(Files.readString(base(kvdDir))).startsWith("*2\r\n$6\r\nSELECT\r\n$1\r\n0\r\n*3\r\n$3\r\nSET\r\n")
                .doesNotContain("INCRBY");
        assertRedisCheckAofAccepts(kvdDir);
        try (RedisServerProcess redis = RedisServerProcess.startIn(copyAofDir(kvdDir, "redis-aof"), "--appendonly", "yes")) {
            assertThat(contents(redis.port())).isEqualTo(expected);
        }
    }

    /** {@link #WRITES}, a rewrite, one more write; a restart of kvd holds the same; the contents. */
    private static Map<String, String> writeRewriteAndWriteAgain(Path kvdDir, String rdbPreamble) throws Exception {
        Tools.require("redis-server");
        Map<String, String> expected;
        try (KvdProcess kvd = KvdProcess.startIn(kvdDir, "--aof-use-rdb-preamble", rdbPreamble);
             RespConnection c = RespConnection.open(kvd.port())) {
            write(kvd.port());
            rewrite(c);
            c.call("INCR", "counter");
            expected = contents(kvd.port());
        }
        try (KvdProcess kvd = KvdProcess.startIn(kvdDir)) {
            assertThat(contents(kvd.port())).isEqualTo(expected);
        }
        return expected;
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
        try (RedisServerProcess redis = RedisServerProcess.startIn(copyAofDir(kvdDir, "redis-aof"), "--appendonly", "yes");
             RespConnection c = RespConnection.open(redis.port())) {
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
        try (KvdProcess kvd = KvdProcess.startIn(kvdDir, "--aof-use-rdb-preamble", "no");
             RespConnection c = RespConnection.open(kvd.port())) {
            assertThat(functionsAndData(c)).isEqualTo(expected);
            rewrite(c);
        }
        assertThat(Files.readString(base(kvdDir)))
                .startsWith("*3\r\n$8\r\nFUNCTION\r\n$4\r\nLOAD\r\n$" + COUNTER.length() + "\r\n" + COUNTER + "\r\n")
                .doesNotContain("gone");
        try (KvdProcess kvd = KvdProcess.startIn(kvdDir); RespConnection c = RespConnection.open(kvd.port())) {
            assertThat(functionsAndData(c)).isEqualTo(expected);
            rewrite(c);
        }
        try (KvdProcess kvd = KvdProcess.startIn(kvdDir); RespConnection c = RespConnection.open(kvd.port())) {
            assertThat(functionsAndData(c)).as("after a rewrite to an RDB base").isEqualTo(expected);
        }
        try (RedisServerProcess redis = RedisServerProcess.startIn(copyAofDir(kvdDir, "redis-aof"), "--appendonly", "yes");
             RespConnection c = RespConnection.open(redis.port())) {
            assertThat(functionsAndData(c)).isEqualTo(expected);
        }
    }

    @Test
    void kvdLoadsTheFunctionsRedisServerLogged() throws Exception {
        Tools.require("redis-server");
        Path redisDir = WorkDir.create("redis-aof");
        String expected;
        try (RedisServerProcess redis = RedisServerProcess.startIn(redisDir, "--appendonly", "yes", "--appendfsync", "always");
             RespConnection c = RespConnection.open(redis.port())) {
            c.call("FUNCTION", "LOAD", "#!lua name=gone\nredis.register_function('gone', function() return 1 end)");
            c.call("FUNCTION", "LOAD", COUNTER);
            rewrite(c);
            c.call("FUNCTION", "LOAD", "REPLACE", READER);
            c.call("FUNCTION", "DELETE", "gone");
            c.call("FCALL", "bump", "1", "n", "5");
            expected = functionsAndData(c);
        }
        Path kvdDir = copyAofDir(redisDir, "kvd-aof");
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
    void kvdStartsOnTheDirectoryRedisServerWroteWithTheSameContents() throws Exception {
        Tools.require("redis-server");
        Path redisDir = WorkDir.create("redis-aof");
        Map<String, String> expected;
        try (RedisServerProcess redis = RedisServerProcess.startIn(redisDir, "--appendonly", "yes", "--appendfsync", "always");
             RespConnection c = RespConnection.open(redis.port())) {
            write(redis.port());
            rewrite(c);
            c.call("INCR", "counter");
            c.call("SET", "after", "the rewrite");
            expected = contents(redis.port());
        }
        Path kvdDir = copyAofDir(redisDir, "kvd-aof");
        try (KvdProcess kvd = KvdProcess.startIn(kvdDir); RespConnection c = RespConnection.open(kvd.port())) {
            assertThat(contents(kvd.port())).isEqualTo(expected);
            assertThat(c.call("GET", "after")).isEqualTo("$11\r\nthe rewrite\r\n");
            // kvd's own rewrite continues Redis's sequence numbers.
            rewrite(c);
        }
        assertThat(Files.readString(manifest(kvdDir))).isEqualTo("file appendonly.aof.3.base.rdb seq 3 type b\n"
                + "file appendonly.aof.3.incr.aof seq 3 type i\n");
    }

    @Test
    void kvdUpgradesTheSingleFileOfAnOlderServerAsRedisServerDoes() throws Exception {
        Tools.require("redis-server");
        Path redisDir = WorkDir.create("redis-aof");
        Map<String, String> expected;
        try (RedisServerProcess redis = RedisServerProcess.startIn(redisDir, "--appendonly", "yes",
                "--aof-use-rdb-preamble", "no", "--appendfsync", "always")) {
            write(redis.port());
            expected = contents(redis.port());
        }
        byte[] single = concatenatedAof(aofDir(redisDir));
        Path kvdDir = WorkDir.create("kvd-aof");
        Files.write(kvdDir.resolve("appendonly.aof"), single);
        Path upgradedByRedis = WorkDir.create("redis-aof");
        Files.write(upgradedByRedis.resolve("appendonly.aof"), single);
        try (KvdProcess kvd = KvdProcess.startIn(kvdDir);
             RedisServerProcess redis = RedisServerProcess.startIn(upgradedByRedis, "--appendonly", "yes")) {
            assertThat(contents(kvd.port())).isEqualTo(expected);
            assertThat(contents(redis.port())).isEqualTo(expected);
        }
        assertThat(kvdDir.resolve("appendonly.aof")).doesNotExist();
        assertThat(Files.readString(manifest(kvdDir))).isEqualTo(Files.readString(manifest(upgradedByRedis)))
                .isEqualTo("file appendonly.aof seq 1 type b\nfile appendonly.aof.1.incr.aof seq 1 type i\n");
    }

    /**
     * Redis 7 keeps its AOF as a base file and increments listed in a manifest; with
     * aof-use-rdb-preamble no, all of them in the manifest's order are one plain AOF, as Redis 6 wrote it.
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
