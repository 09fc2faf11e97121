package io.kvd.it;

import io.kvd.it.support.KvdProcess;
import io.kvd.it.support.RespConnection;
import io.kvd.it.support.ServerLogsOnFailure;
import io.kvd.it.support.WorkDir;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** pidfile, logfile and loglevel act as in Redis: the process's files, and what it logs, at start and at run time. */
@ExtendWith(ServerLogsOnFailure.class)
class ProcessFilesTest {
    @Test
    void pidfileHoldsThePidWhileKvdRunsAndIsRemovedAtACleanStop() throws IOException {
        Path dir = WorkDir.create("kvd");
        Path pidfile = dir.resolve("kvd.pid");
        KvdProcess kvd = KvdProcess.startIn(dir, "--pidfile", pidfile.toString());
        try (kvd) {
            assertThat(Files.readString(pidfile)).isEqualTo(kvd.pid() + "\n");
        }
        assertThat(pidfile).doesNotExist();
        assertThat(kvd.log()).contains("Removing the pid file.");
    }

    @Test
    void aRelativePidfileIsInDirAsRedisFindsItAfterItsChdir() throws IOException {
        Path dir = WorkDir.create("kvd");
        try (KvdProcess kvd = KvdProcess.startIn(dir, "--pidfile", "relative.pid")) {
            assertThat(Files.readString(dir.resolve("relative.pid"))).isEqualTo(kvd.pid() + "\n");
        }
    }

    @Test
    void logfileIsAppendedToAndStandardOutputStaysQuiet() throws IOException {
        Path dir = WorkDir.create("kvd");
        Path logfile = dir.resolve("server.log");
        Files.writeString(logfile, "an earlier run\n");
        try (KvdProcess kvd = KvdProcess.startIn(dir, "--logfile", logfile.toString())) {
            assertThat(Files.readString(logfile)).startsWith("an earlier run\n").contains(" PID: " + kvd.pid())
                    .contains("Ready to accept connections");
            assertThat(Files.readString(dir.resolve("kvd.log"))).doesNotContain("Ready to accept connections");
        }
    }

    @Test
    void loglevelSetAtRunTimeChangesWhatIsLogged() throws IOException {
        Path dir = WorkDir.create("kvd");
        Path file = dir.resolve("kvd.conf");
        Files.writeString(file, "appendonly no\n");
        try (KvdProcess kvd = KvdProcess.startWithConfigFile(dir, file, "--logfile", "server.log");
             RespConnection connection = RespConnection.open(kvd.port())) {
            assertThat(connection.call("CONFIG", "REWRITE")).isEqualTo("+OK\r\n");
            assertThat(connection.call("CONFIG", "SET", "loglevel", "warning")).isEqualTo("+OK\r\n");
            assertThat(connection.call("CONFIG", "REWRITE")).isEqualTo("+OK\r\n");
            assertThat(connection.call("CONFIG", "SET", "loglevel", "notice")).isEqualTo("+OK\r\n");
            assertThat(connection.call("CONFIG", "REWRITE")).isEqualTo("+OK\r\n");
            assertThat(kvd.log().split("CONFIG REWRITE executed with success.", -1)).hasSize(3);
        }
    }
}
