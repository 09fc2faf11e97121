package io.kvd.server.admin;

import io.kvd.server.command.CommandFixture;
import io.kvd.server.config.Config;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ServerCommandsTest {
    private final CommandFixture kvd = new CommandFixture();
    @TempDir
    Path dir;

    @Test
    void timeIsSecondsAndMicrosecondsAsTwoBulkStrings() {
        assertThat(kvd.call("TIME")).matches("\\*2\r\n\\$10\r\n\\d{10}\r\n\\$\\d\r\n\\d{1,6}\r\n");
    }

    @Test
    void dbsizeCountsKeys() {
        kvd.call("SET", "a", "1");
        kvd.call("SET", "b", "2");
        assertThat(kvd.call("DBSIZE")).isEqualTo(":2\r\n");
    }

    @Test
    void flushdbEmptiesTheKeyspace() {
        kvd.call("SET", "a", "1");
        assertThat(kvd.call("FLUSHDB")).isEqualTo("+OK\r\n");
        assertThat(kvd.call("DBSIZE")).isEqualTo(":0\r\n");
    }

    @Test
    void flushallTakesAsyncOrSyncInAnyCase() {
        kvd.call("SET", "a", "1");
        assertThat(kvd.call("FLUSHALL", "async")).isEqualTo("+OK\r\n");
        assertThat(kvd.call("FLUSHALL", "SYNC")).isEqualTo("+OK\r\n");
        assertThat(kvd.call("DBSIZE")).isEqualTo(":0\r\n");
    }

    @Test
    void flushWithAnUnknownModeOrTooManyArgumentsIsASyntaxErrorAndKeepsKeys() {
        kvd.call("SET", "a", "1");
        assertThat(kvd.call("FLUSHDB", "now")).isEqualTo("-ERR syntax error\r\n");
        assertThat(kvd.call("FLUSHALL", "async", "sync")).isEqualTo("-ERR syntax error\r\n");
        assertThat(kvd.call("DBSIZE")).isEqualTo(":1\r\n");
    }

    @Test
    void shutdownStopsTheServerWithoutAReply() {
        assertThat(kvd.call("SHUTDOWN", "NOSAVE")).isEmpty();
        assertThat(kvd.shutdownRequested).isTrue();
    }

    /** A fixture whose dir is the test's temporary directory, where SHUTDOWN's snapshot goes. */
    private CommandFixture inTempDir() throws Exception {
        return new CommandFixture(Config.load(null, List.of("--dir", dir.toString())));
    }

    @Test
    void shutdownSaveWritesTheSnapshotThenStops() throws Exception {
        CommandFixture saving = inTempDir();
        saving.call("SET", "k", "v");
        assertThat(saving.call("SHUTDOWN", "SAVE")).isEmpty();
        assertThat(saving.shutdownRequested).isTrue();
        assertThat(Files.exists(dir.resolve("dump.rdb"))).isTrue();
    }

    @Test
    void shutdownWhoseSaveFailsIsRefusedUnlessForced() throws Exception {
        CommandFixture saving = inTempDir();
        Files.createDirectory(dir.resolve("temp-" + ProcessHandle.current().pid() + ".rdb"));
        assertThat(saving.call("SHUTDOWN", "SAVE")).isEqualTo("-ERR Errors trying to SHUTDOWN. Check logs.\r\n");
        assertThat(saving.call("CONFIG", "SET", "save", "900 1")).isEqualTo("+OK\r\n");
        assertThat(saving.call("SHUTDOWN", "NOW")).isEqualTo("-ERR Errors trying to SHUTDOWN. Check logs.\r\n");
        assertThat(saving.shutdownRequested).isFalse();
        assertThat(saving.call("SHUTDOWN", "SAVE", "NOW", "FORCE")).isEmpty();
        assertThat(saving.shutdownRequested).isTrue();
    }

    @Test
    void savePointsMakeAPlainShutdownSaveAndNosaveSkipsIt() throws Exception {
        CommandFixture saving = inTempDir();
        assertThat(saving.call("CONFIG", "SET", "save", "900 1")).isEqualTo("+OK\r\n");
        assertThat(saving.call("SHUTDOWN", "NOSAVE")).isEmpty();
        assertThat(Files.exists(dir.resolve("dump.rdb"))).isFalse();
        CommandFixture again = inTempDir();
        assertThat(again.call("CONFIG", "SET", "save", "900 1")).isEqualTo("+OK\r\n");
        assertThat(again.call("SHUTDOWN")).isEmpty();
        assertThat(Files.exists(dir.resolve("dump.rdb"))).isTrue();
    }

    @Test
    void shutdownWithConflictingOrUnknownOptionsIsASyntaxError() {
        assertThat(kvd.call("SHUTDOWN", "SAVE", "NOSAVE")).isEqualTo("-ERR syntax error\r\n");
        assertThat(kvd.call("SHUTDOWN", "later")).isEqualTo("-ERR syntax error\r\n");
        assertThat(kvd.call("SHUTDOWN", "ABORT", "NOW")).isEqualTo("-ERR syntax error\r\n");
        assertThat(kvd.call("SHUTDOWN", "FORCE", "ABORT")).isEqualTo("-ERR syntax error\r\n");
        assertThat(kvd.shutdownRequested).isFalse();
    }

    @Test
    void shutdownAbortHasNothingToAbort() {
        assertThat(kvd.call("SHUTDOWN", "ABORT")).isEqualTo("-ERR No shutdown in progress.\r\n");
        assertThat(kvd.call("SHUTDOWN", "abort", "ABORT")).isEqualTo("-ERR No shutdown in progress.\r\n");
        assertThat(kvd.shutdownRequested).isFalse();
    }
}
