package io.kvd.server;

import io.kvd.codec.RespReply;
import io.kvd.codec.RespReply.BulkString;
import io.kvd.codec.RespReply.SimpleString;
import io.kvd.server.aof.AofCheck;
import io.kvd.server.config.ConfigBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * BGREWRITEAOF and automatic rewrites against an in-process kvd writing its AOF directory to a
 * temporary dir, with the base as commands (aof-use-rdb-preamble no) so the tests can read it.
 */
class AofRewriteTest {
    private static final SimpleString STARTED = new SimpleString("Background append only file rewriting started");
    private static final long FAR_FUTURE_MS = 4_000_000_000_000L;

    @TempDir
    Path dir;
    private KvdServer server;

    private int start(String... options) throws InterruptedException {
        ConfigBuilder config = ConfigBuilder.forTests().dir(dir).option("appendonly", "yes")
                .option("aof-use-rdb-preamble", "no");
        for (int i = 0; i < options.length; i += 2) {
            config.option(options[i], options[i + 1]);
        }
        server = KvdServer.start(config.build());
        return server.port();
    }

    private int restart() throws InterruptedException {
        server.close();
        return start();
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    /** The base file the manifest names: the last rewrite's. */
    private Path aof() throws IOException {
        Path aofDir = dir.resolve("appendonlydir");
        String first = Files.readAllLines(aofDir.resolve("appendonly.aof.manifest")).get(0);
        assertThat(first).endsWith(" type b");
        return aofDir.resolve(first.split(" ")[1]);
    }

    /** Where the rewrite writes the base before renaming it into the directory: Redis's name, in dir. */
    private Path rewriteTemp() {
        return dir.resolve("temp-rewriteaof-bg-" + ProcessHandle.current().pid() + ".aof");
    }

    /** Waits (generously: the machine may be busy) until INFO persistence shows {@code rewrites} rewrites done. */
    private static void awaitRewrites(RespConnection c, long rewrites) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + 120_000_000_000L;
        while (c.infoField("persistence", "aof_rewrites") < rewrites) {
            assertThat(System.nanoTime()).as("rewrite %d not done in 120 s", rewrites).isLessThan(deadline);
            Thread.sleep(10);
        }
    }

    private static void fill(RespConnection c, int keys) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < keys; i++) {
            out.writeBytes(RespConnection.encode("SET", "key:" + i, "value:" + i));
        }
        c.send(out.toByteArray());
        for (int i = 0; i < keys; i++) {
            c.read();
        }
    }

    @Test
    void bgrewriteaofWritesTheLiveKeysAsSetRecords() throws Exception {
        try (RespConnection c = new RespConnection(start())) {
            c.call("SET", "a", "1");
            c.call("SET", "b", "2", "PXAT", String.valueOf(FAR_FUTURE_MS));
            c.call("INCR", "a");
            c.call("SET", "gone", "x");
            c.call("DEL", "gone");
            assertThat(c.call("BGREWRITEAOF")).isEqualTo(STARTED);
            awaitRewrites(c, 1);
        }
        assertThat(Files.readString(aof())).isEqualTo("*2\r\n$6\r\nSELECT\r\n$1\r\n0\r\n"
                + "*3\r\n$3\r\nSET\r\n$1\r\na\r\n$1\r\n2\r\n"
                + "*5\r\n$3\r\nSET\r\n$1\r\nb\r\n$1\r\n2\r\n$4\r\nPXAT\r\n$13\r\n" + FAR_FUTURE_MS + "\r\n");
    }

    @Test
    void streamsAreRewrittenAsXaddPerEntryThenXsetidAndReloadTheSame() throws Exception {
        RespReply[] before = new RespReply[2];
        try (RespConnection c = new RespConnection(start())) {
            c.call("XADD", "s", "1-1", "a", "1");
            c.call("XADD", "s", "2-1", "a", "2", "b", "3");
            c.call("XDEL", "s", "1-1");
            c.call("XADD", "e", "5-5", "f", "v");
            c.call("XDEL", "e", "5-5");
            before[0] = c.call("XINFO", "STREAM", "s");
            before[1] = c.call("XINFO", "STREAM", "e");
            assertThat(c.call("BGREWRITEAOF")).isEqualTo(STARTED);
            awaitRewrites(c, 1);
        }
        assertThat(Files.readString(aof())).isEqualTo("*2\r\n$6\r\nSELECT\r\n$1\r\n0\r\n"
                + "*7\r\n$4\r\nXADD\r\n$1\r\ns\r\n$3\r\n2-1\r\n$1\r\na\r\n$1\r\n2\r\n$1\r\nb\r\n$1\r\n3\r\n"
                + "*7\r\n$6\r\nXSETID\r\n$1\r\ns\r\n$3\r\n2-1\r\n$12\r\nENTRIESADDED\r\n$1\r\n2\r\n"
                + "$12\r\nMAXDELETEDID\r\n$3\r\n1-1\r\n"
                + "*7\r\n$4\r\nXADD\r\n$1\r\ne\r\n$6\r\nMAXLEN\r\n$1\r\n0\r\n$3\r\n0-1\r\n$1\r\nx\r\n$1\r\ny\r\n"
                + "*7\r\n$6\r\nXSETID\r\n$1\r\ne\r\n$3\r\n5-5\r\n$12\r\nENTRIESADDED\r\n$1\r\n1\r\n"
                + "$12\r\nMAXDELETEDID\r\n$3\r\n5-5\r\n");
        try (RespConnection c = new RespConnection(restart())) {
            assertThat(c.call("XINFO", "STREAM", "s")).isEqualTo(before[0]);
            assertThat(c.call("XINFO", "STREAM", "e")).isEqualTo(before[1]);
        }
    }

    @Test
    void streamGroupsAreRewrittenAfterXsetidAndReloadTheSame() throws Exception {
        RespReply[] before = new RespReply[3];
        try (RespConnection c = new RespConnection(start())) {
            c.call("XADD", "s", "1-1", "a", "1");
            c.call("XADD", "s", "2-1", "a", "2");
            c.call("XGROUP", "CREATE", "s", "g", "0");
            c.call("XREADGROUP", "GROUP", "g", "reader", "COUNT", "1", "STREAMS", "s", ">");
            c.call("XGROUP", "CREATECONSUMER", "s", "g", "idle");
            c.call("XCLAIM", "s", "g", "reader", "0", "1-1", "TIME", "1000", "RETRYCOUNT", "4");
            before[0] = c.call("XINFO", "GROUPS", "s");
            before[1] = c.call("XPENDING", "s", "g", "-", "+", "10");
            assertThat(c.call("BGREWRITEAOF")).isEqualTo(STARTED);
            awaitRewrites(c, 1);
        }
        assertThat(Files.readString(aof())).endsWith(
                "*7\r\n$6\r\nXGROUP\r\n$6\r\nCREATE\r\n$1\r\ns\r\n$1\r\ng\r\n$3\r\n1-1\r\n"
                + "$11\r\nENTRIESREAD\r\n$1\r\n1\r\n"
                + "*5\r\n$6\r\nXGROUP\r\n$14\r\nCREATECONSUMER\r\n$1\r\ns\r\n$1\r\ng\r\n$4\r\nidle\r\n"
                + "*12\r\n$6\r\nXCLAIM\r\n$1\r\ns\r\n$1\r\ng\r\n$6\r\nreader\r\n$1\r\n0\r\n$3\r\n1-1\r\n"
                + "$4\r\nTIME\r\n$4\r\n1000\r\n$10\r\nRETRYCOUNT\r\n$1\r\n4\r\n$6\r\nJUSTID\r\n$5\r\nFORCE\r\n");
        try (RespConnection c = new RespConnection(restart())) {
            assertThat(c.call("XINFO", "GROUPS", "s")).isEqualTo(before[0]);
            assertThat(c.call("XPENDING", "s", "g", "-", "+", "10").toString().replaceAll("\\d{4,}", "idle"))
                    .isEqualTo(before[1].toString().replaceAll("\\d{4,}", "idle"));
        }
    }

    @Test
    void rewrittenFilePassesTheCheckAndLoadsAfterRestart() throws Exception {
        try (RespConnection c = new RespConnection(start())) {
            fill(c, 1000);
            c.call("BGREWRITEAOF");
            awaitRewrites(c, 1);
            c.call("SET", "after", "rewrite");
        }
        ByteArrayOutputStream report = new ByteArrayOutputStream();
        assertThat(AofCheck.run(aof(), false, new PrintStream(report))).as(report.toString()).isZero();
        try (RespConnection c = new RespConnection(restart())) {
            assertThat(c.call("DBSIZE")).isEqualTo(new RespReply.Integer(1001));
            assertThat(c.call("GET", "key:999")).isEqualTo(BulkString.of("value:999"));
            assertThat(c.call("GET", "after")).isEqualTo(BulkString.of("rewrite"));
        }
    }

    @Test
    void functionLibrariesSurviveARestartAndARewrite() throws Exception {
        String library = "#!lua name=lib\nredis.register_function('bump', function(keys) return redis.call('incr', keys[1]) end)";
        try (RespConnection c = new RespConnection(start())) {
            assertThat(c.call("FUNCTION", "LOAD", library)).isEqualTo(BulkString.of("lib"));
            assertThat(c.call("FCALL", "bump", "1", "n")).isEqualTo(new RespReply.Integer(1));
        }
        try (RespConnection c = new RespConnection(restart())) {
            assertThat(c.call("FCALL", "bump", "1", "n")).isEqualTo(new RespReply.Integer(2));
            c.call("BGREWRITEAOF");
            awaitRewrites(c, 1);
        }
        assertThat(Files.readString(aof()))
                .startsWith(new String(RespConnection.encode("FUNCTION", "LOAD", library), StandardCharsets.UTF_8));
        try (RespConnection c = new RespConnection(restart())) {
            assertThat(c.call("FCALL", "bump", "1", "n")).isEqualTo(new RespReply.Integer(3));
        }
    }

    /** The snapshot must not cut a transaction in two: the INCR before BGREWRITEAOF would be applied twice. */
    @Test
    void bgrewriteaofInsideATransactionStartsOnceItEnded() throws Exception {
        try (RespConnection c = new RespConnection(start())) {
            c.call("SET", "a", "1");
            c.call("MULTI");
            c.call("INCR", "a");
            c.call("BGREWRITEAOF");
            c.call("INCR", "a");
            c.call("EXEC");
            awaitRewrites(c, 1);
            c.call("INCR", "a");
        }
        try (RespConnection c = new RespConnection(restart())) {
            assertThat(c.call("GET", "a")).isEqualTo(BulkString.of("4"));
        }
    }

    @Test
    void bgrewriteaofWhileOneRunsIsRefused() throws Exception {
        try (RespConnection c = new RespConnection(start())) {
            fill(c, 20_000);
            // One write: both run in the same batch, before the first step of the rewrite.
            c.send(RespConnection.encode("BGREWRITEAOF"));
            c.send(RespConnection.encode("BGREWRITEAOF"));
            assertThat(c.read()).isEqualTo(STARTED);
            RespReply second = c.read();
            if (second.equals(STARTED)) {
                // The two writes arrived in two reads and the first rewrite finished in between.
                assertThat(c.infoField("persistence", "aof_rewrites")).isPositive();
            } else {
                assertThat(second).isEqualTo(
                        new RespReply.Error("ERR Background append only file rewriting already in progress"));
            }
        }
    }

    @Test
    void infoPersistenceReportsTheRewrite() throws Exception {
        try (RespConnection c = new RespConnection(start())) {
            c.call("SET", "a", "1");
            assertThat(c.infoField("persistence", "aof_rewrites")).isZero();
            assertThat(c.infoField("persistence", "aof_last_rewrite_time_sec")).isEqualTo(-1);
            c.call("BGREWRITEAOF");
            awaitRewrites(c, 1);
            String info = ((BulkString) c.call("INFO", "persistence")).utf8();
            // Redis's names and order; the rewrite's duration in whole seconds is 0 unless the machine crawls.
            assertThat(info).containsPattern("aof_rewrite_in_progress:0\r\naof_rewrite_scheduled:0\r\n"
                    + "aof_last_rewrite_time_sec:\\d+\r\naof_current_rewrite_time_sec:-1\r\n"
                    + "aof_last_bgrewrite_status:ok\r\naof_rewrites:1\r\naof_rewrites_consecutive_failures:0\r\n"
                    + "aof_last_write_status:ok\r\naof_current_size:50\r\naof_base_size:50\r\n");
        }
    }

    @Test
    void bgrewriteaofThatCannotCreateItsFileIsAnError() throws Exception {
        try (RespConnection c = new RespConnection(start())) {
            Files.createDirectories(rewriteTemp().resolve("blocked"));
            assertThat(c.call("BGREWRITEAOF")).isEqualTo(new RespReply.Error(
                    "ERR Can't execute an AOF background rewriting. Please check the server logs for more information."));
            assertThat(((BulkString) c.call("INFO", "persistence")).utf8()).contains("aof_last_bgrewrite_status:err");
        }
    }

    @Test
    void leftoverTemporaryFileIsDeletedAtStart() throws Exception {
        Path leftover = Files.writeString(dir.resolve("temp-rewriteaof-appendonly.aof"), "*1\r\n$3\r\nSET");
        start();
        assertThat(leftover).doesNotExist();
    }

    @Test
    void shutdownDuringARewriteDeletesItsFileAndKeepsTheLog() throws Exception {
        try (RespConnection c = new RespConnection(start())) {
            fill(c, 20_000);
            c.call("BGREWRITEAOF");
        }
        server.close();
        assertThat(rewriteTemp()).doesNotExist();
        try (RespConnection c = new RespConnection(start())) {
            assertThat(c.call("DBSIZE")).isEqualTo(new RespReply.Integer(20_000));
        }
    }

    @Test
    void automaticRewriteStartsWhenTheFileDoubledPastTheMinimumSize() throws Exception {
        try (RespConnection c = new RespConnection(start("hz", "100", "auto-aof-rewrite-min-size", "4096"))) {
            for (int i = 0; i < 200; i++) {
                c.call("SET", "same", "value:" + i);
            }
            awaitRewrites(c, 1);
            // The rewrite kept one record of the key, plus the writes made while it ran.
            assertThat(c.infoField("persistence", "aof_base_size")).isLessThan(4096);
        }
    }

    @Test
    void automaticRewriteWaitsWhileThePercentageIsZeroAndFollowsConfigSet() throws Exception {
        try (RespConnection c = new RespConnection(start("hz", "100", "auto-aof-rewrite-min-size", "1kb",
                "auto-aof-rewrite-percentage", "0"))) {
            for (int i = 0; i < 100; i++) {
                c.call("SET", "same", "value:" + i);
            }
            assertThat(c.infoField("persistence", "aof_rewrites")).isZero();
            assertThat(c.call("CONFIG", "SET", "auto-aof-rewrite-percentage", "100")).isEqualTo(new SimpleString("OK"));
            awaitRewrites(c, 1);
        }
    }

    /**
     * Clients INCR counters while rewrites run back to back; after a restart every counter holds
     * exactly the number of acknowledged increments: none lost, none applied twice.
     */
    @Test
    void incrementsDuringRewritesAreCountedExactlyOnceAfterRestart() throws Exception {
        int port = start("appendfsync", "always");
        int clients = 4;
        int increments = 3000;
        try (RespConnection control = new RespConnection(port)) {
            fill(control, 5000);
            ExecutorService pool = Executors.newFixedThreadPool(clients);
            List<Future<?>> writers = new ArrayList<>();
            for (int w = 0; w < clients; w++) {
                String counter = "counter:" + (w % 2);
                writers.add(pool.submit(() -> {
                    try (RespConnection c = new RespConnection(port)) {
                        for (int i = 0; i < increments; i++) {
                            c.call("INCR", counter);
                        }
                    }
                    return null;
                }));
            }
            long rewrites = 0;
            while (writers.stream().anyMatch(f -> !f.isDone())) {
                if (control.call("BGREWRITEAOF").equals(STARTED)) {
                    awaitRewrites(control, ++rewrites);
                }
            }
            for (Future<?> f : writers) {
                f.get();
            }
            pool.shutdown();
            assertThat(rewrites).isPositive();
        }
        try (RespConnection c = new RespConnection(restart())) {
            assertThat(c.call("GET", "counter:0")).isEqualTo(BulkString.of(String.valueOf(2 * increments)));
            assertThat(c.call("GET", "counter:1")).isEqualTo(BulkString.of(String.valueOf(2 * increments)));
        }
    }

    /**
     * A seeded random mix of writes (overwrites, deletes, renames, deadlines set and removed,
     * appends, increments, an occasional FLUSHALL) while rewrites run: after a restart from the
     * rewritten file the keyspace is exactly what it was.
     */
    @Test
    void randomWritesDuringRewritesSurviveARestart() throws Exception {
        long seed = Long.getLong("kvd.test.seed", 20_250_202L);
        System.out.println("AofRewriteTest seed " + seed + " (override with -Dkvd.test.seed=N)");
        SplittableRandom random = new SplittableRandom(seed);
        Map<String, String> before;
        try (RespConnection c = new RespConnection(start())) {
            for (int round = 0; round < 5; round++) {
                fill(c, 3000);
                c.call("BGREWRITEAOF");
                for (int i = 0; i < 2000; i++) {
                    c.call(randomWrite(random));
                }
                awaitRewrites(c, round + 1);
            }
            before = dump(c);
        }
        try (RespConnection c = new RespConnection(restart())) {
            assertThat(dump(c)).isEqualTo(before);
        }
    }

    /**
     * A set of 100,000 members and a hash of 20,000 fields with a deadline, changed member by
     * member while the rewrite copies them a few at a time (SADD, SREM, HINCRBY, HDEL, the hash
     * renamed, a second set deleted): after a restart from the rewritten file every collection
     * holds exactly what it held before.
     */
    @Test
    void largeCollectionsChangedDuringTheRewriteReloadExactly() throws Exception {
        long seed = Long.getLong("kvd.test.seed", 20_250_602L);
        System.out.println("AofRewriteTest seed " + seed + " (override with -Dkvd.test.seed=N)");
        SplittableRandom random = new SplittableRandom(seed);
        List<String> keys = List.of("set", "hash", "renamed", "twin");
        Map<String, String> before;
        try (RespConnection c = new RespConnection(start())) {
            fillCollection(c, "SADD", "set", 100_000);
            fillCollection(c, "SADD", "twin", 20_000);
            fillCollection(c, "HSET", "hash", 20_000);
            c.call("PEXPIREAT", "hash", String.valueOf(FAR_FUTURE_MS));
            assertThat(c.call("BGREWRITEAOF")).isEqualTo(STARTED);
            int batchesDuring = 0;
            while (c.infoField("persistence", "aof_rewrite_in_progress") == 1) {
                ByteArrayOutputStream batch = new ByteArrayOutputStream();
                for (int i = 0; i < 100; i++) {
                    batch.writeBytes(RespConnection.encode(randomMemberWrite(random)));
                }
                if (batchesDuring == 0) {
                    batch.writeBytes(RespConnection.encode("RENAME", "hash", "renamed"));
                    batch.writeBytes(RespConnection.encode("DEL", "twin"));
                }
                c.send(batch.toByteArray());
                for (int i = batchesDuring == 0 ? 102 : 100; i > 0; i--) {
                    assertThat(c.read()).isNotInstanceOf(RespReply.Error.class);
                }
                batchesDuring++;
            }
            awaitRewrites(c, 1);
            assertThat(batchesDuring).isPositive();
            before = collections(c, keys);
        }
        assertRewrittenFileReloads(keys, before);
    }

    /**
     * A list of 200,000 elements with a deadline, changed at both ends, in the middle and as a
     * whole while the rewrite copies it (pushes onto the nodes pops freed, LSET, LINSERT, LREM,
     * LTRIM, RPOPLPUSH into a second list, the list renamed): after a restart from the rewritten
     * file both lists hold exactly what they held before, in order.
     */
    @Test
    void aLongListChangedDuringTheRewriteReloadsExactly() throws Exception {
        long seed = Long.getLong("kvd.test.seed", 20_261_203L);
        System.out.println("AofRewriteTest seed " + seed + " (override with -Dkvd.test.seed=N)");
        SplittableRandom random = new SplittableRandom(seed);
        List<String> keys = List.of("list", "renamed", "other");
        Map<String, String> before;
        try (RespConnection c = new RespConnection(start())) {
            fillCollection(c, "RPUSH", "list", 200_000);
            c.call("PEXPIREAT", "list", String.valueOf(FAR_FUTURE_MS));
            assertThat(c.call("BGREWRITEAOF")).isEqualTo(STARTED);
            int batchesDuring = 0;
            while (c.infoField("persistence", "aof_rewrite_in_progress") == 1) {
                String key = batchesDuring < 3 ? "list" : "renamed";
                ByteArrayOutputStream batch = new ByteArrayOutputStream();
                for (int i = 0; i < 100; i++) {
                    batch.writeBytes(RespConnection.encode(randomListWrite(random, key)));
                }
                if (batchesDuring == 2) {
                    batch.writeBytes(RespConnection.encode("RENAME", "list", "renamed"));
                }
                c.send(batch.toByteArray());
                for (int i = batchesDuring == 2 ? 101 : 100; i > 0; i--) {
                    assertThat(c.read()).isNotInstanceOf(RespReply.Error.class);
                }
                batchesDuring++;
            }
            awaitRewrites(c, 1);
            assertThat(batchesDuring).isPositive();
            before = collections(c, keys);
        }
        assertRewrittenFileReloads(keys, before);
    }

    private static String[] randomListWrite(SplittableRandom random, String key) {
        String element = "n:" + random.nextInt(1000);
        String index = Integer.toString(random.nextInt(-1000, 1000));
        return switch (random.nextInt(8)) {
            case 0 -> new String[]{"LPOP", key};
            case 1 -> new String[]{"LPUSH", key, element};
            case 2 -> new String[]{"RPUSH", key, element};
            case 3 -> new String[]{"RPOP", key, "2"};
            case 4 -> new String[]{"LSET", key, index, element};
            case 5 -> new String[]{"LINSERT", key, "AFTER", "m:" + random.nextInt(200_000), element};
            case 6 -> random.nextInt(50) == 0 ? new String[]{"LTRIM", key, "5", "-5"}
                    : new String[]{"LREM", key, "1", "m:" + random.nextInt(200_000)};
            default -> new String[]{"RPOPLPUSH", key, "other"};
        };
    }

    /** {@code members} members m:0.. (fields with values 0.., a list's in order), pipelined in commands of 1000. */
    /**
     * A 4 MB bitmap, the last key the rewrite reaches, edited in place while the rewrite runs by
     * increments that would count twice on replay if the rewrite copied a value already edited:
     * the rewritten file holds the bitmap as it was when the rewrite started, then the edits, so
     * a restart from it gives back exactly the bitmap before the restart.
     */
    @Test
    void aLargeBitmapEditedInPlaceDuringTheRewriteReloadsExactly() throws Exception {
        long seed = Long.getLong("kvd.test.seed", 20_261_204L);
        System.out.println("AofRewriteTest seed " + seed + " (override with -Dkvd.test.seed=N)");
        SplittableRandom random = new SplittableRandom(seed);
        int bytes = 4 << 20;
        String before;
        try (RespConnection c = new RespConnection(start())) {
            fill(c, 100_000);
            c.call("SETBIT", "bitmap", String.valueOf(bytes * 8L - 1), "1");
            c.call("BITFIELD", "bitmap", "SET", "u8", "#0", "200");
            // The first edits arrive with BGREWRITEAOF itself, before the rewrite can reach the bitmap.
            c.send(RespConnection.encode("BGREWRITEAOF"));
            for (boolean first = true; first || c.infoField("persistence", "aof_rewrite_in_progress") == 1; first = false) {
                ByteArrayOutputStream batch = new ByteArrayOutputStream();
                for (int i = 0; i < 100; i++) {
                    batch.writeBytes(RespConnection.encode("BITFIELD", "bitmap",
                            "INCRBY", "u8", "#" + random.nextInt(64), "1",
                            "INCRBY", "u16", "#" + random.nextInt(bytes / 2), "7"));
                }
                c.send(batch.toByteArray());
                if (first) {
                    assertThat(c.read()).isEqualTo(STARTED);
                }
                for (int i = 0; i < 100; i++) {
                    assertThat(c.read()).isInstanceOf(RespReply.Array.class);
                }
            }
            awaitRewrites(c, 1);
            before = digest(c.call("GET", "bitmap"));
        }
        ByteArrayOutputStream report = new ByteArrayOutputStream();
        assertThat(AofCheck.run(aof(), false, new PrintStream(report))).as(report.toString()).isZero();
        try (RespConnection c = new RespConnection(restart())) {
            assertThat(digest(c.call("GET", "bitmap"))).isEqualTo(before);
            assertThat(c.call("DBSIZE")).isEqualTo(new RespReply.Integer(100_001));
        }
    }

    /** A string's length and SHA-256, short enough to show when two differ. */
    private static String digest(RespReply value) throws Exception {
        byte[] bytes = ((BulkString) value).value();
        return bytes.length + " " + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }

    private static void fillCollection(RespConnection c, String command, String key, int members) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int from = 0; from < members; from += 1000) {
            List<String> argv = new ArrayList<>(List.of(command, key));
            for (int i = from; i < from + 1000; i++) {
                argv.add("m:" + i);
                if (command.equals("HSET")) {
                    argv.add(Integer.toString(i));
                }
            }
            out.writeBytes(RespConnection.encode(argv.toArray(String[]::new)));
        }
        c.send(out.toByteArray());
        for (int from = 0; from < members; from += 1000) {
            // RPUSH answers the length, SADD and HSET what they added.
            assertThat(c.read()).isEqualTo(new RespReply.Integer(command.equals("RPUSH") ? from + 1000 : 1000));
        }
    }

    private static String[] randomMemberWrite(SplittableRandom random) {
        String member = "m:" + random.nextInt(200_000);
        return switch (random.nextInt(5)) {
            case 0 -> new String[]{"SADD", "set", member};
            case 1 -> new String[]{"SREM", "set", member};
            // Not idempotent: a value handed out after its change would be incremented twice on replay.
            case 2 -> new String[]{"HINCRBY", "renamed", "m:" + random.nextInt(40_000), "1"};
            case 3 -> new String[]{"HDEL", "renamed", "m:" + random.nextInt(40_000)};
            default -> new String[]{"SADD", "twin", member};
        };
    }

    /** Each key's type, deadline and members (with their values, for a hash), sorted. */
    private static Map<String, String> collections(RespConnection c, List<String> keys) throws IOException {
        Map<String, String> contents = new TreeMap<>();
        for (String key : keys) {
            String type = ((SimpleString) c.call("TYPE", key)).value();
            List<RespReply> elements = switch (type) {
                case "set" -> ((RespReply.Array) c.call("SMEMBERS", key)).elements();
                case "hash" -> ((RespReply.Array) c.call("HGETALL", key)).elements();
                case "list" -> ((RespReply.Array) c.call("LRANGE", key, "0", "-1")).elements();
                default -> List.of();
            };
            if (type.equals("list")) {
                // In order, repeats kept.
                contents.put(key, type + "@" + c.call("PEXPIRETIME", key) + " " + elements);
                continue;
            }
            Map<String, String> members = new TreeMap<>();
            int step = type.equals("hash") ? 2 : 1;
            for (int i = 0; i < elements.size(); i += step) {
                String value = step == 2 ? ((BulkString) elements.get(i + 1)).utf8() : "";
                members.put(((BulkString) elements.get(i)).utf8(), value);
            }
            contents.put(key, type + "@" + c.call("PEXPIRETIME", key) + " " + members.size() + " " + members);
        }
        return contents;
    }

    private static String[] randomWrite(SplittableRandom random) {
        String key = "key:" + random.nextInt(4000);
        String other = "key:" + random.nextInt(4000);
        String value = "v" + random.nextInt(100_000);
        return switch (random.nextInt(10)) {
            case 0, 1 -> new String[]{"SET", key, value};
            case 2 -> new String[]{"SET", key, value, "PXAT", String.valueOf(FAR_FUTURE_MS + random.nextInt(1000))};
            case 3 -> new String[]{"DEL", key};
            case 4 -> new String[]{"RENAME", key, other};
            case 5 -> new String[]{"PEXPIREAT", key, String.valueOf(FAR_FUTURE_MS + random.nextInt(1000))};
            case 6 -> new String[]{"PERSIST", key};
            case 7 -> new String[]{"APPEND", key, "+"};
            case 8 -> new String[]{"INCR", "counter:" + random.nextInt(10)};
            default -> random.nextInt(500) == 0 ? new String[]{"FLUSHALL"} : new String[]{"SETRANGE", key, "1", "xy"};
        };
    }

    /** Every key with its value and absolute deadline. */
    private static Map<String, String> dump(RespConnection c) throws IOException {
        Map<String, String> keys = new TreeMap<>();
        for (RespReply key : ((RespReply.Array) c.call("KEYS", "*")).elements()) {
            String name = ((BulkString) key).utf8();
            keys.put(name, ((BulkString) c.call("GET", name)).utf8() + "@" + c.call("PEXPIRETIME", name));
        }
        return keys;
    }

    /** The rewritten file passes --check-aof, and a restart from it holds {@code before} in {@code keys}. */
    private void assertRewrittenFileReloads(List<String> keys, Map<String, String> before) throws Exception {
        ByteArrayOutputStream report = new ByteArrayOutputStream();
        assertThat(AofCheck.run(aof(), false, new PrintStream(report))).as(report.toString()).isZero();
        try (RespConnection c = new RespConnection(restart())) {
            assertThat(collections(c, keys)).isEqualTo(before);
        }
    }
}
