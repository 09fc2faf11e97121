package io.kvd.server.aof;

import io.kvd.server.rdb.RdbSave;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import static io.kvd.server.aof.AofFixture.cmd;
import static io.kvd.server.aof.AofFixture.records;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The AOF directory as Redis 7.0's aof.c keeps it: the upgrade of a single file, the files a
 * start creates, a rewrite's switch to a new incr file and its new base, and what a crash
 * between those steps leaves (always a directory that loads every write).
 */
class AofDirectoryTest {
    private static final String ONE = "appendonly.aof.1.incr.aof";

    @TempDir
    Path dir;
    private final AofFixture kvd = new AofFixture();

    private AofDirectory directory() {
        return new AofDirectory(dir, "appendonly.aof", "appendonlydir");
    }

    private Path aofDir() {
        return dir.resolve("appendonlydir");
    }

    private String manifest() throws Exception {
        return Files.readString(aofDir().resolve("appendonly.aof.manifest"));
    }

    /** A fresh server loading the directory as a start does; returns it for its keys. */
    private AofFixture restart() throws Exception {
        AofFixture fresh = new AofFixture();
        AofDirectory directory = directory();
        directory.loadManifest();
        directory.load(fresh.server, fresh.commands);
        return fresh;
    }

    private void write(String name, String text) throws Exception {
        Files.createDirectories(aofDir());
        Files.writeString(aofDir().resolve(name), text);
    }

    @Test
    void aSingleFileIsMovedIntoTheDirectoryAsTheBaseAndLoaded() throws Exception {
        Files.writeString(dir.resolve("appendonly.aof"), records(cmd("SET", "a", "1"), cmd("INCR", "a")));
        AofDirectory directory = directory();
        directory.loadManifest();
        AofLoader.Loaded loaded = directory.load(kvd.server, kvd.commands);
        assertThat(kvd.get("a")).isEqualTo("2");
        assertThat(dir.resolve("appendonly.aof")).doesNotExist();
        assertThat(aofDir().resolve("appendonly.aof")).exists();
        assertThat(manifest()).isEqualTo("file appendonly.aof seq 1 type b\n");
        assertThat(loaded.baseSize()).isEqualTo(loaded.totalSize()).isPositive();
        AppendOnlyFile aof = directory.openOnStart(kvd.server, true, loaded.totalSize(), FsyncPolicy.ALWAYS);
        aof.close();
        assertThat(manifest()).isEqualTo("file appendonly.aof seq 1 type b\nfile " + ONE + " seq 1 type i\n");
    }

    @Test
    void anUpgradeInterruptedAfterItsManifestIsTakenUpAgain() throws Exception {
        Files.writeString(dir.resolve("appendonly.aof"), records(cmd("SET", "a", "1")));
        write("appendonly.aof.manifest", "file appendonly.aof seq 1 type b\n");
        assertThat(restart().get("a")).isEqualTo("1");
        assertThat(aofDir().resolve("appendonly.aof")).exists();
        assertThat(dir.resolve("appendonly.aof")).doesNotExist();
    }

    @Test
    void aStartFromNothingWritesAnEmptyRdbBaseAndAnIncrFile() throws Exception {
        AofDirectory directory = directory();
        directory.loadManifest();
        AofLoader.Loaded loaded = directory.load(kvd.server, kvd.commands);
        assertThat(loaded.totalSize()).isZero();
        directory.openOnStart(kvd.server, true, 0, FsyncPolicy.ALWAYS).close();
        assertThat(manifest()).isEqualTo("file appendonly.aof.1.base.rdb seq 1 type b\nfile " + ONE + " seq 1 type i\n");
        assertThat(Files.readString(aofDir().resolve("appendonly.aof.1.base.rdb"), StandardCharsets.ISO_8859_1))
                .startsWith("REDIS0010").contains("aof-base");
        assertThat(aofDir().resolve(ONE)).isEmptyFile();
    }

    @Test
    void withoutThePreambleTheBaseOfAStartIsAnEmptyAofFile() throws Exception {
        AofDirectory directory = directory();
        directory.loadManifest();
        directory.openOnStart(kvd.server, false, 0, FsyncPolicy.ALWAYS).close();
        assertThat(aofDir().resolve("appendonly.aof.1.base.aof")).isEmptyFile();
    }

    @Test
    void anRdbBaseThenIncrFilesLoadInTheManifestsOrder() throws Exception {
        kvd.call("SET", "a", "from-base");
        kvd.call("SET", "b", "from-base");
        Files.createDirectories(aofDir());
        RdbSave.foreground(kvd.server.rdb().aofBaseOptions(aofDir().resolve("appendonly.aof.3.base.rdb")),
                kvd.databases);
        write("appendonly.aof.3.incr.aof", records(cmd("SET", "a", "incr3")));
        write("appendonly.aof.5.incr.aof", records(cmd("APPEND", "a", "+incr5")));
        write("appendonly.aof.manifest", "file appendonly.aof.3.base.rdb seq 3 type b\n"
                + "file appendonly.aof.3.incr.aof seq 3 type i\nfile appendonly.aof.5.incr.aof seq 5 type i\n");
        AofFixture loaded = restart();
        assertThat(loaded.get("a")).isEqualTo("incr3+incr5");
        assertThat(loaded.get("b")).isEqualTo("from-base");
    }

    @Test
    void anOldStyleFileWithAnRdbPreambleLoadsItsAofTailToo() throws Exception {
        kvd.call("SET", "a", "preamble");
        Path old = dir.resolve("appendonly.aof");
        RdbSave.foreground(kvd.server.rdb().aofBaseOptions(old), kvd.databases);
        Files.writeString(old, records(cmd("SET", "b", "tail")), StandardOpenOption.APPEND);
        AofFixture loaded = restart();
        assertThat(loaded.get("a")).isEqualTo("preamble");
        assertThat(loaded.get("b")).isEqualTo("tail");
    }

    @Test
    void aFileTheManifestListsButTheDirectoryLacksStopsTheLoad() throws Exception {
        write("appendonly.aof.1.base.aof", records(cmd("SET", "a", "1")));
        write("appendonly.aof.manifest", "file appendonly.aof.1.base.aof seq 1 type b\nfile " + ONE + " seq 1 type i\n");
        assertThatThrownBy(this::restart).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aTornFileThatIsNotTheLastStopsTheLoad() throws Exception {
        write("appendonly.aof.1.base.aof", records(cmd("SET", "a", "1")) + "*2\r\n$3\r\nDEL");
        write(ONE, records(cmd("SET", "b", "1")));
        write("appendonly.aof.manifest", "file appendonly.aof.1.base.aof seq 1 type b\nfile " + ONE + " seq 1 type i\n");
        assertThatThrownBy(this::restart).hasMessageContaining("not the last file");
    }

    @Test
    void aBadManifestStopsTheLoadEvenWithNothingElse() throws Exception {
        write("appendonly.aof.manifest", "file appendonly.aof.1.base.aof seq 1 type z\n");
        assertThatThrownBy(() -> directory().loadManifest()).isInstanceOf(IllegalStateException.class)
                .hasCauseInstanceOf(AofManifestException.class);
    }

    /** Step 1 of a rewrite: a new incr file, listed before anything is appended to it. */
    private AofDirectory startedRewrite() throws Exception {
        write("appendonly.aof.1.base.aof", records(cmd("SET", "a", "1")));
        write(ONE, records(cmd("INCR", "a")));
        write("appendonly.aof.manifest", "file appendonly.aof.1.base.aof seq 1 type b\nfile " + ONE + " seq 1 type i\n");
        AofDirectory directory = directory();
        directory.loadManifest();
        try (FileChannel incr = directory.openNewIncr()) {
            incr.write(ByteBuffer.wrap(records(cmd("INCR", "a")).getBytes(StandardCharsets.UTF_8)));
        }
        return directory;
    }

    @Test
    void aRewriteStartListsItsNewIncrFileAfterTheOldOnes() throws Exception {
        startedRewrite();
        assertThat(manifest()).isEqualTo("file appendonly.aof.1.base.aof seq 1 type b\nfile " + ONE
                + " seq 1 type i\nfile appendonly.aof.2.incr.aof seq 2 type i\n");
    }

    @Test
    void aCrashWhileTheBaseIsWrittenLeavesEveryWriteInTheOldFilesAndTheNewIncr() throws Exception {
        startedRewrite();
        Files.writeString(directory().rewriteTempFile(), "*3\r\n$3\r\nSET\r\n$1\r\na\r\n$1\r\n2\r\n*1\r\n$3\r\nIN");
        assertThat(restart().get("a")).isEqualTo("3");
    }

    @Test
    void aCrashAfterTheBaseIsRenamedButBeforeTheManifestLeavesTheOldManifestValid() throws Exception {
        startedRewrite();
        write("appendonly.aof.2.base.aof", records(cmd("SET", "a", "2")));
        assertThat(restart().get("a")).isEqualTo("3");
    }

    @Test
    void theNewBaseReplacesTheOldFilesWhichAreDeletedAsHistory() throws Exception {
        AofDirectory directory = startedRewrite();
        Path temp = directory.rewriteTempFile();
        Files.writeString(temp, records(cmd("SELECT", "0"), cmd("SET", "a", "2")));
        long size = directory.installBase(temp, false, true, kvd.server.latencyMonitor());
        assertThat(size).isEqualTo(Files.size(aofDir().resolve("appendonly.aof.2.base.aof")));
        assertThat(manifest()).isEqualTo("file appendonly.aof.2.base.aof seq 2 type b\n"
                + "file appendonly.aof.1.incr.aof seq 1 type h\nfile appendonly.aof.1.base.aof seq 1 type h\n"
                + "file appendonly.aof.2.incr.aof seq 2 type i\n");
        // A crash here, before the history is deleted: the history is not loaded.
        assertThat(restart().get("a")).isEqualTo("3");
        directory.deleteHistory();
        directory.awaitDeletions();
        assertThat(manifest()).isEqualTo("file appendonly.aof.2.base.aof seq 2 type b\n"
                + "file appendonly.aof.2.incr.aof seq 2 type i\n");
        assertThat(aofDir().resolve("appendonly.aof.1.base.aof")).doesNotExist();
        assertThat(aofDir().resolve(ONE)).doesNotExist();
        assertThat(temp).doesNotExist();
        assertThat(restart().get("a")).isEqualTo("3");
    }

    @Test
    void manifestsAreReplacedWholeNeverLeftAsTemporaryFiles() throws Exception {
        startedRewrite();
        try (var files = Files.list(aofDir())) {
            assertThat(files.map(f -> f.getFileName().toString())).noneMatch(name -> name.startsWith("temp-"));
        }
    }
}
