package io.kvd.server.aof;

import io.kvd.server.client.ServerState;
import io.kvd.server.command.CommandTable;
import io.kvd.server.config.IoErrors;
import io.kvd.server.latency.LatencyMonitor;
import io.kvd.server.propagate.CommandLog;
import io.kvd.server.rdb.RdbSave;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Redis 7's AOF directory, {@code dir/appenddirname}: the files a manifest lists and the manifest
 * itself, {@code <appendfilename>.manifest}, replaced atomically (a temporary file, fsync,
 * rename, fsync of the directory). Also the single-file AOF of kvd before, and of Redis 6,
 * {@code dir/appendfilename}, which the first start moves into the directory as its base
 * (aofUpgradePrepare). Log lines and errors are aof.c's.
 */
public final class AofDirectory {
    private static final Logger log = LoggerFactory.getLogger(AofDirectory.class);

    private final Path dir;
    private final String fileName;
    private final Path aofDir;
    /** Deletes history files off the loop, as Redis's bg_unlink (a large file's unlink takes a while). */
    private ExecutorService unlinker;
    /** The manifest as on disk (Redis's server.aof_manifest); replaced only by one persisted. */
    private AofManifest manifest;
    /** aof-disable-auto-gc: history files stay, listed in the manifest, until it is set back to no. */
    private BooleanSupplier keepHistory = () -> false;

    /**
     * @param dir the server's {@code dir}
     * @param fileName {@code appendfilename}
     * @param dirName {@code appenddirname}
     */
    public AofDirectory(Path dir, String fileName, String dirName) {
        this.dir = dir;
        this.fileName = fileName;
        this.aofDir = dir.resolve(dirName);
        this.manifest = new AofManifest(fileName);
    }

    /** Where aof-disable-auto-gc is read from. */
    public void keepHistoryWhile(BooleanSupplier keepHistory) {
        this.keepHistory = keepHistory;
    }

    AofManifest manifest() {
        return manifest;
    }

    /** A file of the directory by its manifest name. */
    Path file(String name) {
        return aofDir.resolve(name);
    }

    /** appendfilename: the prefix of every file name, the old single file's name. */
    String fileName() {
        return fileName;
    }

    Path manifestFile() {
        return aofDir.resolve(fileName + ".manifest");
    }

    /** Where a rewrite writes its base before it is renamed into the directory (Redis's, in dir). */
    Path rewriteTempFile() {
        return dir.resolve("temp-rewriteaof-bg-" + ProcessHandle.current().pid() + ".aof");
    }

    /**
     * The manifest on disk (aofLoadManifestFromDisk): an empty one when the directory or the
     * manifest is missing, so an old single file can be upgraded.
     *
     * @throws IllegalStateException a manifest Redis refuses; the reason is logged as Redis logs it
     */
    public void loadManifest() throws IOException {
        manifest = readManifest();
    }

    private AofManifest readManifest() throws IOException {
        Path manifest = manifestFile();
        if (!Files.isDirectory(aofDir) || !Files.exists(manifest)) {
            return new AofManifest(fileName);
        }
        byte[] text;
        try {
            text = Files.readAllBytes(manifest);
        } catch (IOException e) {
            log.warn("Fatal error: can't open the AOF manifest file {} for reading: {}", manifest, IoErrors.strerror(e));
            throw new IllegalStateException("can't read the AOF manifest " + manifest, e);
        }
        try {
            return AofManifest.parse(text, fileName);
        } catch (AofManifestException e) {
            log.warn("*** FATAL AOF MANIFEST FILE ERROR ***");
            if (e.line() != null) {
                log.warn("Reading the manifest file, at line {}", e.lineNumber());
                log.warn(">>> '{}'", e.line());
            }
            log.warn(e.getMessage());
            throw new IllegalStateException("the AOF manifest " + manifest + " does not load (see above)", e);
        }
    }

    /**
     * loadAppendOnlyFiles' upgrade: when {@code dir/appendfilename} exists and the directory, its
     * manifest, or the file already named as the base in it is missing, the file becomes the
     * base and is moved in. A crash at any step leaves a state this repeats from.
     */
    void upgradeIfNeeded(AofManifest manifest) throws IOException {
        Path old = dir.resolve(fileName);
        if (!Files.exists(old)) {
            return;
        }
        AofInfo base = manifest.base();
        boolean interrupted = base != null && manifest.incrs().isEmpty() && base.name().equals(fileName)
                && !Files.exists(file(fileName));
        if (Files.isDirectory(aofDir) && !manifest.isEmpty() && !interrupted) {
            return;
        }
        createIfMissing();
        manifest.upgradeFrom(fileName);
        persist(manifest);
        try {
            Files.move(old, file(fileName), StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            log.warn("Error trying to move the old AOF file {} into dir {}: {}", fileName, aofDir.getFileName(),
                    IoErrors.strerror(e));
            throw e;
        }
        log.info("Successfully migrated an old-style AOF file ({}) into the AOF directory ({}).", fileName,
                aofDir.getFileName());
    }

    /** Replays the files of the manifest (see {@link AofLoader#loadAll}). */
    public AofLoader.Loaded load(ServerState server, CommandTable commands) throws IOException {
        return AofLoader.loadAll(this, manifest, server, commands);
    }

    /**
     * aofOpenIfNeededOnServerStart: with neither a base nor an incr file (a start from nothing)
     * an empty base is written first, so the directory is complete from the start; then the last
     * incr file (a new one if there is none) is opened for appending, and the manifest written.
     *
     * @param totalSize bytes of the base and incr files loaded
     */
    public AppendOnlyFile openOnStart(ServerState server, boolean rdbBase, long totalSize, FsyncPolicy policy)
            throws IOException {
        createIfMissing();
        boolean hadIncr = !manifest.incrs().isEmpty();
        if (manifest.isEmpty()) {
            String base = manifest.newBase(rdbBase);
            Path temp = rewriteTempFile();
            if (rdbBase) {
                RdbSave.foreground(server.rdb().aofBaseOptions(temp), server.databases());
            } else {
                Files.write(temp, new byte[0]);
            }
            try (FileChannel written = FileChannel.open(temp, StandardOpenOption.WRITE)) {
                written.force(true);
            }
            Files.move(temp, file(base), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            totalSize = Files.size(file(base));
            log.info("Creating AOF base file {} on server start", base);
        }
        String incr = manifest.lastIncr();
        Path incrFile = file(incr);
        long incrSize = Files.exists(incrFile) ? Files.size(incrFile) : 0;
        AppendOnlyFile aof;
        try {
            aof = AppendOnlyFile.open(incrFile, totalSize - incrSize, server.commandLog(), policy,
                    server.latencyMonitor());
        } catch (IOException e) {
            log.warn("Can't open the append-only file {}: {}", incr, IoErrors.strerror(e));
            throw e;
        }
        persist(manifest);
        log.info(hadIncr ? "Opening AOF incr file {} on server start" : "Creating AOF incr file {} on server start",
                incr);
        return aof;
    }

    /**
     * openNewIncrAofForAppend with the AOF on: a new, empty incr file, and the manifest listing it
     * written, both or neither. The caller appends to it from now on.
     */
    FileChannel openNewIncr() throws IOException {
        AofManifest next = manifest.copy();
        String name = next.newIncr();
        FileChannel incr;
        try {
            incr = FileChannel.open(file(name), StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING);
        } catch (IOException e) {
            log.warn("Can't open the append-only file {}: {}", name, IoErrors.strerror(e));
            throw e;
        }
        try {
            persist(next);
        } catch (IOException e) {
            incr.close();
            throw e;
        }
        log.info("Creating AOF incr file {} on background rewrite", name);
        manifest = next;
        return incr;
    }

    /** Where the AOF switched on at run time appends until its first rewrite ends (Redis's getTempIncrAofName). */
    Path tempIncrFile() {
        return file("temp-" + fileName + ".incr");
    }

    /**
     * openNewIncrAofForAppend in AOF_WAIT_REWRITE: a new, empty temporary incr file outside the
     * manifest, appended to from the records logged after now.
     */
    AppendOnlyFile openTempIncr(CommandLog commandLog, FsyncPolicy policy, LatencyMonitor latency) throws IOException {
        Path temp = tempIncrFile();
        AppendOnlyFile aof;
        try {
            aof = AppendOnlyFile.create(temp, commandLog, policy, latency);
        } catch (IOException e) {
            log.warn("Can't open the append-only file {}: {}", temp.getFileName(), IoErrors.strerror(e));
            throw e;
        }
        log.info("Creating AOF incr file {} on background rewrite", temp.getFileName());
        return aof;
    }

    /**
     * backgroundRewriteDoneHandler in AOF_WAIT_REWRITE: the rewrite's {@code temp} becomes the new
     * base and the temporary incr file the next incr file, every file before them history, in one
     * manifest. Until it is renamed in, the old manifest stands and the AOF is not on.
     *
     * @return the new base's size
     */
    long installBaseAndTempIncr(Path temp, boolean rdb, LatencyMonitor latency) throws IOException {
        AofManifest next = manifest.copy();
        Path baseFile = renameIn(temp, next.newBase(rdb), latency);
        String incr = next.newIncr();
        try {
            Files.move(tempIncrFile(), file(incr), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            log.warn("Error trying to rename the temporary AOF incr file {} into {}: {}", tempIncrFile().getFileName(),
                    incr, IoErrors.strerror(e));
            Files.deleteIfExists(baseFile);
            throw e;
        }
        log.info("Successfully renamed the temporary AOF incr file {} into {}", tempIncrFile().getFileName(), incr);
        next.markRewrittenIncrsAsHistory(true);
        try {
            persist(next);
        } catch (IOException e) {
            Files.deleteIfExists(baseFile);
            Files.move(file(incr), tempIncrFile(), StandardCopyOption.ATOMIC_MOVE);
            throw e;
        }
        manifest = next;
        return Files.size(baseFile);
    }

    /**
     * backgroundRewriteDoneHandler: the rewrite's complete {@code temp} becomes the new base, the
     * old base and the incr files it covers (all but the one appended to, when {@code appending})
     * become history, and the manifest saying so is written; then the history is deleted. Until
     * that manifest is renamed in, the old one, with every file it names, is the AOF.
     *
     * @return the new base's size
     */
    long installBase(Path temp, boolean rdb, boolean appending, LatencyMonitor latency) throws IOException {
        AofManifest next = manifest.copy();
        Path baseFile = renameIn(temp, next.newBase(rdb), latency);
        next.markRewrittenIncrsAsHistory(appending);
        try {
            persist(next);
        } catch (IOException e) {
            Files.deleteIfExists(baseFile);
            throw e;
        }
        manifest = next;
        return Files.size(baseFile);
    }

    /** A rewrite's complete base renamed into the directory as {@code base}. */
    private Path renameIn(Path temp, String base, LatencyMonitor latency) throws IOException {
        Path baseFile = file(base);
        long renameStarted = System.nanoTime();
        try {
            Files.move(temp, baseFile, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            log.warn("Error trying to rename the temporary AOF base file {} into {}: {}", temp.getFileName(), baseFile,
                    IoErrors.strerror(e));
            throw e;
        }
        latency.addSampleIfNeeded("aof-rename", (System.nanoTime() - renameStarted) / 1_000_000);
        log.info("Successfully renamed the temporary AOF base file {} into {}", temp.getFileName(), base);
        return baseFile;
    }

    void createIfMissing() throws IOException {
        try {
            Files.createDirectories(aofDir);
        } catch (IOException e) {
            log.warn("Can't open or create append-only dir {}: {}", aofDir.getFileName(), IoErrors.strerror(e));
            throw e;
        }
    }

    /**
     * A file's size (getAppendOnlyFileSize), -1 when it cannot be read, logged as Redis logs it:
     * a manifest naming a missing file is a fatal error at load.
     */
    long size(String name) {
        try {
            return Files.size(file(name));
        } catch (IOException e) {
            log.warn("Unable to obtain the AOF file {} length. stat: {}", name, IoErrors.strerror(e));
            return -1;
        }
    }

    /** Bytes of the base and the incr files (getBaseAndIncrAppendOnlyFilesSize); -1 if one is missing. */
    long sizeOfAll(AofManifest manifest) {
        long total = 0;
        if (manifest.base() != null) {
            long size = size(manifest.base().name());
            if (size < 0) {
                return -1;
            }
            total += size;
        }
        for (AofInfo incr : manifest.incrs()) {
            long size = size(incr.name());
            if (size < 0) {
                return -1;
            }
            total += size;
        }
        return total;
    }

    /** writeAofManifestFile: a temporary manifest, fsynced, renamed over the manifest, then the directory fsynced. */
    void persist(AofManifest manifest) throws IOException {
        String tempName = "temp-" + fileName + ".manifest";
        Path temp = aofDir.resolve(tempName);
        try (FileChannel out = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer text = ByteBuffer.wrap(manifest.format().getBytes(StandardCharsets.UTF_8));
            while (text.hasRemaining()) {
                out.write(text);
            }
            try {
                out.force(true);
            } catch (IOException e) {
                log.warn("Fail to fsync the temp AOF file {}: {}.", tempName, IoErrors.strerror(e));
                throw e;
            }
        } catch (NoSuchFileException e) {
            log.warn("Can't open the AOF manifest file {}: {}", tempName, IoErrors.strerror(e));
            throw e;
        }
        try {
            Files.move(temp, manifestFile(), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            log.warn("Error trying to rename the temporary AOF manifest file {} into {}: {}", tempName,
                    manifestFile().getFileName(), IoErrors.strerror(e));
            throw e;
        }
        try (FileChannel directory = FileChannel.open(aofDir, StandardOpenOption.READ)) {
            directory.force(true);
        } catch (IOException e) {
            log.warn("Fail to fsync AOF directory {}: {}.", manifestFile(), IoErrors.strerror(e));
            throw e;
        }
    }

    /**
     * aofDelHistoryFiles: unless aof-disable-auto-gc keeps them, each history file deleted in the
     * background, then the manifest written without them. A failure only leaves files the next rewrite deletes.
     */
    public void deleteHistory() {
        if (manifest.history().isEmpty() || keepHistory.getAsBoolean()) {
            return;
        }
        for (AofInfo info : manifest.history()) {
            log.info("Removing the history file {} in the background", info.name());
            Path file = file(info.name());
            unlinker().execute(() -> {
                try {
                    Files.deleteIfExists(file);
                } catch (IOException e) {
                    log.warn("Could not delete the AOF history file {}: {}", file, IoErrors.strerror(e));
                }
            });
        }
        manifest.clearHistory();
        try {
            persist(manifest);
        } catch (IOException e) {
            // Logged by persist; the history lines stay on disk until the next manifest is written.
        }
    }

    private ExecutorService unlinker() {
        if (unlinker == null) {
            unlinker = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "kvd-aof-unlink");
                t.setDaemon(true);
                return t;
            });
        }
        return unlinker;
    }

    /** Waits for the deletions queued (shutdown); later ones start a new thread. */
    void awaitDeletions() throws InterruptedException {
        if (unlinker != null) {
            unlinker.shutdown();
            unlinker.awaitTermination(10, TimeUnit.SECONDS);
            unlinker = null;
        }
    }
}
