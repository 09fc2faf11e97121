package io.kvd.server;

import io.kvd.codec.RespReply.Array;
import io.kvd.codec.RespReply.BulkString;
import io.kvd.codec.RespReply.Error;
import io.kvd.codec.RespReply.SimpleString;
import io.kvd.server.config.ConfigBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * CONFIG SET appendonly on a running server, as Redis 7.0's startAppendOnly and stopAppendOnly:
 * on through a first rewrite whose writes go to a temporary incr file, off at once.
 */
class AppendonlyConfigTest {
    private static final SimpleString OK = new SimpleString("OK");

    @TempDir
    Path dir;
    private KvdServer server;

    private int start(String appendonly, String... options) throws InterruptedException {
        ConfigBuilder config = ConfigBuilder.forTests().dir(dir).option("appendonly", appendonly);
        for (int i = 0; i < options.length; i += 2) {
            config.option(options[i], options[i + 1]);
        }
        server = KvdServer.start(config.build());
        return server.port();
    }

    private int restartWithAof() throws InterruptedException {
        server.close();
        return start("yes");
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private List<String> manifest() throws IOException {
        return Files.readAllLines(dir.resolve("appendonlydir/appendonly.aof.manifest"));
    }

    private Path tempIncr() {
        return dir.resolve("appendonlydir/temp-appendonly.aof.incr");
    }

    /** Polls INFO persistence until {@code field} is {@code value}, for at most a generous minute. */
    private static void await(RespConnection c, String field, long value) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (c.infoField("persistence", field) != value) {
            assertThat(System.nanoTime()).as("%s:%d within 60 s", field, value).isLessThan(deadline);
            Thread.sleep(10);
        }
    }

    @Test
    void appendonlyYesWritesABaseAndAnIncrFileThatHoldEveryWriteAcrossARestart() throws Exception {
        try (RespConnection c = new RespConnection(start("no"))) {
            c.call("SET", "before", "1");
            assertThat(c.call("CONFIG", "SET", "appendonly", "yes")).isEqualTo(OK);
            assertThat(c.infoField("persistence", "aof_enabled")).isEqualTo(1);
            c.call("SET", "during", "2");
            await(c, "aof_rewrite_in_progress", 0);
            c.call("SET", "after", "3");
        }
        assertThat(manifest()).containsExactly("file appendonly.aof.1.base.rdb seq 1 type b",
                "file appendonly.aof.1.incr.aof seq 1 type i");
        assertThat(tempIncr()).doesNotExist();
        try (RespConnection c = new RespConnection(restartWithAof())) {
            assertThat(c.call("MGET", "before", "during", "after"))
                    .isEqualTo(Array.of(BulkString.of("1"), BulkString.of("2"), BulkString.of("3")));
        }
    }

    @Test
    void appendonlyNoStopsAppendingAndLeavesTheDirectoryAsItWas() throws Exception {
        try (RespConnection c = new RespConnection(start("yes"))) {
            c.call("SET", "kept", "1");
            assertThat(c.call("CONFIG", "SET", "appendonly", "no")).isEqualTo(OK);
            assertThat(c.infoField("persistence", "aof_enabled")).isEqualTo(0);
            c.call("SET", "unlogged", "2");
        }
        assertThat(manifest()).containsExactly("file appendonly.aof.1.base.rdb seq 1 type b",
                "file appendonly.aof.1.incr.aof seq 1 type i");
        try (RespConnection c = new RespConnection(restartWithAof())) {
            assertThat(c.call("MGET", "kept", "unlogged")).isEqualTo(Array.of(BulkString.of("1"), new BulkString(null)));
        }
    }

    @Test
    void appendonlyYesDuringABgsaveIsScheduledAndWritesNothingUntilItsRewriteRuns() throws Exception {
        try (RespConnection c = new RespConnection(start("no", "rdb-key-save-delay", "1000000"))) {
            c.call("SET", "k1", "v1");
            assertThat(c.call("BGSAVE")).isEqualTo(new SimpleString("Background saving started"));
            assertThat(c.call("CONFIG", "SET", "appendonly", "yes")).isEqualTo(OK);
            assertThat(c.infoField("persistence", "aof_rewrite_scheduled")).isEqualTo(1);
            assertThat(c.infoField("persistence", "aof_rewrite_in_progress")).isEqualTo(0);
            assertThat(tempIncr()).doesNotExist();
            c.call("CONFIG", "SET", "rdb-key-save-delay", "0");
            await(c, "rdb_bgsave_in_progress", 0);
            await(c, "aof_rewrites", 1);
            assertThat(c.infoField("persistence", "aof_rewrite_scheduled")).isEqualTo(0);
            c.call("SET", "k2", "v2");
        }
        try (RespConnection c = new RespConnection(restartWithAof())) {
            assertThat(c.call("MGET", "k1", "k2")).isEqualTo(Array.of(BulkString.of("v1"), BulkString.of("v2")));
        }
    }

    @Test
    void appendonlyNoDuringTheFirstRewriteStopsItAndDeletesTheTemporaryIncrFile() throws Exception {
        try (RespConnection c = new RespConnection(start("no", "rdb-key-save-delay", "1000000"))) {
            c.call("SET", "k", "v");
            c.call("CONFIG", "SET", "appendonly", "yes");
            assertThat(c.infoField("persistence", "aof_rewrite_in_progress")).isEqualTo(1);
            assertThat(tempIncr()).exists();
            assertThat(c.call("CONFIG", "SET", "appendonly", "no")).isEqualTo(OK);
            assertThat(c.infoField("persistence", "aof_rewrite_in_progress")).isEqualTo(0);
            assertThat(c.infoField("persistence", "aof_enabled")).isEqualTo(0);
            assertThat(tempIncr()).doesNotExist();
            assertThat(dir.resolve("appendonlydir/appendonly.aof.manifest")).doesNotExist();
        }
    }

    @Test
    void shutdownWaitsForNoFirstRewriteButRefusesToLeaveTheAofIncompleteUnlessForced() throws Exception {
        try (RespConnection c = new RespConnection(start("no", "rdb-key-save-delay", "1000000"))) {
            c.call("SET", "k", "v");
            c.call("CONFIG", "SET", "appendonly", "yes");
            assertThat(c.call("SHUTDOWN")).isEqualTo(new Error("ERR Errors trying to SHUTDOWN. Check logs."));
            assertThat(c.call("PING")).isEqualTo(new SimpleString("PONG"));
            c.send(RespConnection.encode("SHUTDOWN", "NOSAVE", "FORCE"));
        }
        server.closed().join();
        assertThat(tempIncr()).doesNotExist();
    }
}
