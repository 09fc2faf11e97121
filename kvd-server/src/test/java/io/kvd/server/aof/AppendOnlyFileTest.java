package io.kvd.server.aof;

import io.kvd.server.latency.LatencyMonitor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import static io.kvd.server.aof.AofFixture.cmd;
import static io.kvd.server.aof.AofFixture.records;
import static org.assertj.core.api.Assertions.assertThat;

/** The group commit and what a failing disk does to it, with a channel whose writes and fsyncs fail on demand. */
class AppendOnlyFileTest {
    private static final String NO_SPACE = "No space left on device";
    private static final String MISCONF = "-MISCONF Errors writing to the AOF file: " + NO_SPACE + "\r\n";

    @TempDir
    Path dir;
    private Path file;
    private FailingFileChannel channel;
    private final AofFixture kvd = new AofFixture();

    @BeforeEach
    void open() throws Exception {
        file = dir.resolve("appendonly.aof");
        channel = new FailingFileChannel(FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.READ));
        kvd.server.commandLog().setEnabled(true);
    }

    @AfterEach
    void close() throws Exception {
        channel.close();
    }

    private AppendOnlyFile aof(FsyncPolicy policy) throws Exception {
        return new AppendOnlyFile(channel, 0, kvd.server.commandLog(), policy, kvd.server.latencyMonitor());
    }

    private String fileText() throws Exception {
        return Files.readString(file, StandardCharsets.UTF_8);
    }

    @Test
    void oneCommitWritesEveryRecordOfTheIterationInOneWriteAndOneFsync() throws Exception {
        AppendOnlyFile aof = aof(FsyncPolicy.ALWAYS);
        kvd.call("SET", "a", "1");
        kvd.call("SET", "b", "2");
        kvd.call("INCR", "a");
        assertThat(aof.commit()).isTrue();
        assertThat(channel.writes).isEqualTo(1);
        assertThat(channel.forces).isEqualTo(1);
        assertThat(fileText()).isEqualTo(records(cmd("SELECT", "0"), cmd("SET", "a", "1"), cmd("SET", "b", "2"), cmd("INCR", "a")));
    }

    @Test
    void aSlowWriteAndFsyncAreLatencySamplesAsRedisNamesThem() throws Exception {
        AppendOnlyFile aof = aof(FsyncPolicy.ALWAYS);
        kvd.server.latencyMonitor().setThreshold(2);
        channel.delayMs = 2;
        kvd.call("SET", "a", "1");
        assertThat(aof.commit()).isTrue();
        // The SET itself may be a "command" sample too on a busy machine (over 2 ms cold): only the AOF's are checked.
        assertThat(kvd.server.latencyMonitor().latest()).extracting(LatencyMonitor.Latest::event)
                .filteredOn(event -> event.startsWith("aof-"))
                .containsExactly("aof-write-alone", "aof-write", "aof-fsync-always");
    }

    @Test
    void commitWithNothingLoggedNeitherWritesNorSyncs() throws Exception {
        AppendOnlyFile aof = aof(FsyncPolicy.ALWAYS);
        kvd.call("GET", "a");
        assertThat(aof.commit()).isTrue();
        assertThat(channel.writes).isZero();
        assertThat(channel.forces).isZero();
    }

    @Test
    void policyNoNeverSyncs() throws Exception {
        AppendOnlyFile aof = aof(FsyncPolicy.NO);
        kvd.call("SET", "a", "1");
        assertThat(aof.commit()).isTrue();
        assertThat(channel.writes).isEqualTo(1);
        assertThat(channel.forces).isZero();
    }

    @Test
    void failedWriteHoldsTheCommitAndRefusesFurtherWritesWithMisconf() throws Exception {
        AppendOnlyFile aof = aof(FsyncPolicy.EVERYSEC);
        channel.writeFailure = NO_SPACE;
        kvd.call("SET", "a", "1");
        assertThat(aof.commit()).isFalse();
        assertThat(kvd.server.commandLog().failure()).isEqualTo(NO_SPACE);
        assertThat(kvd.call("SET", "b", "2")).isEqualTo(MISCONF);
        assertThat(kvd.call("INCR", "a")).isEqualTo(MISCONF);
    }

    @Test
    void failingLogKeepsServingReads() throws Exception {
        AppendOnlyFile aof = aof(FsyncPolicy.EVERYSEC);
        kvd.call("SET", "a", "1");
        aof.commit();
        channel.writeFailure = NO_SPACE;
        kvd.call("SET", "b", "2");
        aof.commit();
        assertThat(kvd.call("GET", "a")).isEqualTo("$1\r\n1\r\n");
        assertThat(kvd.call("GET", "b")).isEqualTo("$1\r\n2\r\n");
    }

    @Test
    void retryAfterTheDiskRecoversWritesEveryHeldRecordAndAcceptsWritesAgain() throws Exception {
        AppendOnlyFile aof = aof(FsyncPolicy.EVERYSEC);
        channel.writeFailure = NO_SPACE;
        channel.partialBytes = 7;
        kvd.call("SET", "a", "1");
        assertThat(aof.commit()).isFalse();
        assertThat(aof.commit()).isFalse();
        channel.writeFailure = null;
        assertThat(aof.commit()).isTrue();
        assertThat(kvd.server.commandLog().failure()).isNull();
        assertThat(kvd.call("SET", "b", "2")).isEqualTo("+OK\r\n");
        assertThat(aof.commit()).isTrue();
        assertThat(fileText()).isEqualTo(records(cmd("SELECT", "0"), cmd("SET", "a", "1"), cmd("SET", "b", "2")));
    }

    @Test
    void failedFsyncUnderAlwaysHoldsTheCommitUntilAnFsyncSucceeds() throws Exception {
        AppendOnlyFile aof = aof(FsyncPolicy.ALWAYS);
        channel.forceFailure = "Input/output error";
        kvd.call("SET", "a", "1");
        assertThat(aof.commit()).isFalse();
        assertThat(kvd.call("SET", "b", "2")).isEqualTo("-MISCONF Errors writing to the AOF file: Input/output error\r\n");
        channel.forceFailure = null;
        assertThat(aof.commit()).isTrue();
        assertThat(kvd.server.commandLog().failure()).isNull();
        assertThat(channel.writes).isEqualTo(1);
    }

    @Test
    void closeWritesWhatIsLeftAndSyncs() throws Exception {
        AppendOnlyFile aof = aof(FsyncPolicy.NO);
        kvd.call("SET", "a", "1");
        aof.close();
        assertThat(channel.forces).isEqualTo(1);
        assertThat(fileText()).isEqualTo(records(cmd("SELECT", "0"), cmd("SET", "a", "1")));
    }
}
