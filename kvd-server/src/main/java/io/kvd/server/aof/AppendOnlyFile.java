package io.kvd.server.aof;

import io.kvd.server.latency.LatencyMonitor;
import io.kvd.server.propagate.CommandLog;
import io.netty.buffer.ByteBuf;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The open AOF, the incr file of the AOF directory appended to: takes the records the commands of an event-loop iteration logged and writes them
 * with one write, then syncs as {@code appendfsync} says ({@link #commit}). The caller flushes
 * the iteration's replies only when that returned true, so no reply leaves before its record.
 *
 * <p>A failed write or fsync keeps the records, refuses writes with MISCONF (through
 * {@link CommandLog#failure}) and is retried by the next commit, which the cron makes every tick.
 * Writes are positional at the end of the last good write: a retry overwrites whatever a failed
 * partial write left behind.
 *
 * <p>Under {@code everysec} the fsync runs on its own thread. If one runs longer than
 * {@link #FSYNC_STALL_NANOS}, writes wait for it (Redis's postponed write, counted as a delayed
 * fsync) rather than pile up ever more unsynced data. Event loop only, except the fsync thread.
 *
 * <p>Writes and {@code always} fsyncs are sampled by the latency monitor as Redis's
 * flushAppendOnlyFile samples them: "aof-write", and "aof-write-pending-fsync" (a background fsync
 * runs), "aof-write-active-child" (a rewrite runs) or "aof-write-alone"; "aof-fsync-always".
 */
public final class AppendOnlyFile implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(AppendOnlyFile.class);
    private static final long SECOND_NANOS = 1_000_000_000L;
    private static final long FSYNC_STALL_NANOS = 2 * SECOND_NANOS;

    /** The last incr file; replaced by {@link #switchTo} when a rewrite starts. */
    private FileChannel channel;
    private final CommandLog commandLog;
    private final LatencyMonitor latency;
    private FsyncPolicy policy;
    private ExecutorService fsyncThread;
    /** Bytes of the file written and known good: the next write starts here. */
    private long size;
    /** Bytes of the base and the earlier incr files, which aof_current_size counts too. */
    private long otherFilesSize;
    private boolean unsynced;
    private Future<?> fsync;
    private long fsyncStartNanos = System.nanoTime() - SECOND_NANOS;
    private boolean fsyncStalled;
    private boolean fsyncFailed;
    private long delayedFsyncs;
    /** A rewrite runs: writes are sampled as "aof-write-active-child". */
    private boolean rewriting;
    /**
     * Bytes at the start of the command log's records already written, to the incr file a
     * rewrite's start replaced ({@link #writeNow}); they stay in the log for the
     * replicas until the next commit.
     */
    private int writtenEarly;

    AppendOnlyFile(FileChannel channel, long otherFilesSize, CommandLog commandLog, FsyncPolicy policy,
                   LatencyMonitor latency) throws IOException {
        this.channel = channel;
        this.otherFilesSize = otherFilesSize;
        this.commandLog = commandLog;
        this.latency = latency;
        this.policy = policy;
        this.size = channel.size();
    }

    /**
     * Opens (creating if need be) an incr file for appending at its end.
     *
     * @param otherFilesSize bytes of the base and the earlier incr files
     */
    static AppendOnlyFile open(Path file, long otherFilesSize, CommandLog commandLog, FsyncPolicy policy,
                               LatencyMonitor latency) throws IOException {
        FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        return new AppendOnlyFile(channel, otherFilesSize, commandLog, policy, latency);
    }

    /**
     * Creates an empty incr file, appended to from the records logged after now: those logged
     * before are in the snapshot the file follows.
     */
    static AppendOnlyFile create(Path file, CommandLog commandLog, FsyncPolicy policy, LatencyMonitor latency)
            throws IOException {
        FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING);
        AppendOnlyFile aof = new AppendOnlyFile(channel, 0, commandLog, policy, latency);
        aof.writtenEarly = commandLog.records().readableBytes();
        return aof;
    }

    /** CONFIG SET appendfsync */
    public void setPolicy(FsyncPolicy policy) {
        this.policy = policy;
    }

    /**
     * Writes the records logged since the last commit in one write and, under {@code always},
     * forces them to disk. True when every record logged so far is written (and synced, under
     * {@code always}): the replies of the commands that logged them may leave.
     */
    public boolean commit() {
        try {
            return commitRecords();
        } finally {
            report();
        }
    }

    private boolean commitRecords() {
        if (policy == FsyncPolicy.EVERYSEC) {
            collectBackgroundFsync();
        }
        ByteBuf records = commandLog.records();
        if (records.readableBytes() > writtenEarly) {
            if (policy == FsyncPolicy.EVERYSEC && fsyncRunsTooLong()) {
                return false;
            }
            if (!write(records)) {
                return false;
            }
        } else if (writtenEarly > 0) {
            recordsTaken();
        }
        if (unsynced && policy == FsyncPolicy.ALWAYS && !sync()) {
            return false;
        }
        if (policy == FsyncPolicy.EVERYSEC) {
            startBackgroundFsyncIfDue();
        }
        if (!fsyncFailed) {
            healthy();
        }
        return true;
    }

    private boolean fsyncInProgress() {
        return fsync != null && !fsync.isDone();
    }

    /** Writes what is left and forces it to disk (SHUTDOWN, SIGTERM); the file is closed after. */
    @Override
    public void close() {
        if (commandLog.records().readableBytes() > writtenEarly) {
            write(commandLog.records());
        }
        closeWithoutWriting();
    }

    /**
     * Forces what was written and closes the file (appendonly no after {@link #writeNow}, or a
     * failed first rewrite); the records stay in the log for the replicas.
     */
    void closeWithoutWriting() {
        try {
            if (fsyncThread != null) {
                fsyncThread.shutdown();
                fsyncThread.awaitTermination(10, TimeUnit.SECONDS);
            }
            channel.force(false);
            channel.close();
        } catch (IOException e) {
            log.warn("Fail to fsync the AOF file: {}", e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Writes the records not written yet, at the end of the last good write; true if all were. */
    private boolean write(ByteBuf records) {
        if (!append(records)) {
            return false;
        }
        recordsTaken();
        return true;
    }

    private void recordsTaken() {
        commandLog.recordsTaken();
        writtenEarly = 0;
    }

    private boolean append(ByteBuf records) {
        long sleep = commandLog.flushSleepMicros();
        if (sleep > 0) {
            LockSupport.parkNanos(sleep * 1000);
        }
        long position = size;
        long started = latency.isOn() ? System.nanoTime() : 0;
        try {
            for (ByteBuffer bytes : commandLog.forAof(records.readerIndex() + writtenEarly)) {
                while (bytes.hasRemaining()) {
                    position += channel.write(bytes, position);
                }
            }
        } catch (IOException e) {
            sampleWrite(started);
            failed("write", e);
            return false;
        }
        sampleWrite(started);
        size = position;
        unsynced = true;
        return true;
    }

    /** Bytes of the base and every incr file (aof_current_size). */
    long totalSize() {
        return otherFilesSize + size;
    }

    private void report() {
        commandLog.reportFile(totalSize(), delayedFsyncs, fsyncInProgress());
    }

    void rewriting(boolean running) {
        rewriting = running;
    }

    /**
     * Writes what the command log holds now, whatever a background fsync is doing, and forces it
     * under {@code always} (Redis's flushAppendOnlyFile(1)): before a rewrite opens a new incr
     * file, the records logged before its snapshot, which holds their effect, belong to the old
     * file; DEBUG LOADAOF reads the files. The records stay in the log for the replicas until
     * the next commit. False if the write or the fsync failed.
     */
    boolean writeNow() {
        ByteBuf records = commandLog.records();
        if (records.readableBytes() > writtenEarly) {
            if (!append(records)) {
                return false;
            }
            writtenEarly = records.readableBytes();
        }
        boolean synced = !unsynced || policy != FsyncPolicy.ALWAYS || sync();
        report();
        return synced;
    }

    /**
     * A rewrite started: appends go to its new, empty incr file from now on (openNewIncrAofForAppend).
     * The old file is forced and closed on the fsync thread, after any fsync in flight on it: under
     * {@code everysec} and {@code no} its last records may not be synced yet.
     */
    void switchTo(FileChannel incr) {
        FileChannel old = channel;
        boolean oldUnsynced = unsynced;
        otherFilesSize += size;
        channel = incr;
        size = 0;
        unsynced = false;
        fsyncThread().execute(() -> forceAndClose(old, oldUnsynced));
        report();
    }

    /** The rewrite's base replaced the base and every incr file but this one, {@code baseSize} bytes. */
    void rebase(long baseSize) {
        otherFilesSize = baseSize;
        report();
    }

    private static void forceAndClose(FileChannel old, boolean unsynced) {
        try (old) {
            if (unsynced) {
                old.force(false);
            }
        } catch (IOException e) {
            log.warn("Could not sync and close the AOF incr file a rewrite replaced: {}", e.toString());
        }
    }

    /** Redis's flushAppendOnlyFile: a write is sampled whether or not it failed, under its circumstance and as "aof-write". */
    private void sampleWrite(long startedNanos) {
        if (!latency.isOn()) {
            return;
        }
        long ms = (System.nanoTime() - startedNanos) / 1_000_000;
        if (policy == FsyncPolicy.EVERYSEC && fsyncInProgress()) {
            latency.addSampleIfNeeded("aof-write-pending-fsync", ms);
        } else if (rewriting) {
            // kvd's rewrite, running beside the loop, stands for Redis's rewriting child.
            latency.addSampleIfNeeded("aof-write-active-child", ms);
        } else {
            latency.addSampleIfNeeded("aof-write-alone", ms);
        }
        latency.addSampleIfNeeded("aof-write", ms);
    }

    private boolean sync() {
        long started = latency.isOn() ? System.nanoTime() : 0;
        try {
            channel.force(false);
        } catch (IOException e) {
            failed("fsync", e);
            return false;
        }
        if (latency.isOn()) {
            latency.addSampleIfNeeded("aof-fsync-always", (System.nanoTime() - started) / 1_000_000);
        }
        unsynced = false;
        fsyncFailed = false;
        return true;
    }

    /** Redis's postponed write: true while a background fsync has run for more than 2 s. */
    private boolean fsyncRunsTooLong() {
        boolean tooLong = fsyncInProgress() && System.nanoTime() - fsyncStartNanos > FSYNC_STALL_NANOS;
        if (tooLong && !fsyncStalled) {
            delayedFsyncs++;
            log.warn("Asynchronous AOF fsync is taking too long (disk is busy?): writes wait for it.");
        }
        fsyncStalled = tooLong;
        return tooLong;
    }

    /** Takes the result of a finished background fsync: a failure refuses writes until one succeeds. */
    private void collectBackgroundFsync() {
        if (fsync == null || !fsync.isDone()) {
            return;
        }
        Future<?> done = fsync;
        fsync = null;
        try {
            done.get();
            fsyncFailed = false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
            fsyncFailed = true;
            unsynced = true;
            failed("fsync", e.getCause() instanceof IOException io ? io : new IOException(e.getCause()));
        }
    }

    /** Starts a background fsync when written bytes are unsynced and the last one started a second ago. */
    private void startBackgroundFsyncIfDue() {
        long now = System.nanoTime();
        if (!unsynced || fsyncInProgress() || now - fsyncStartNanos < SECOND_NANOS) {
            return;
        }
        fsyncStartNanos = now;
        unsynced = false;
        FileChannel channel = this.channel;
        fsync = fsyncThread().submit(() -> {
            channel.force(false);
            return null;
        });
    }

    private ExecutorService fsyncThread() {
        if (fsyncThread == null) {
            fsyncThread = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "kvd-aof-fsync");
                t.setDaemon(true);
                return t;
            });
        }
        return fsyncThread;
    }

    private void failed(String operation, IOException e) {
        String reason = e.getMessage() != null ? e.getMessage() : e.toString();
        if (commandLog.failure() == null) {
            log.warn("Error {} the AOF: {}; refusing writes until it works again", operation.equals("write")
                    ? "writing" : "syncing", reason);
        }
        commandLog.setFailure(reason);
    }

    private void healthy() {
        if (commandLog.failure() != null) {
            commandLog.setFailure(null);
            log.warn("AOF write error looks solved, kvd can write again.");
        }
    }
}
