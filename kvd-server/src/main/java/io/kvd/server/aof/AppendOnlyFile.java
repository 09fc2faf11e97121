package io.kvd.server.aof;

import io.kvd.server.command.CommandLog;
import io.netty.buffer.ByteBuf;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * The open AOF: takes the records the commands of an event-loop iteration logged and writes them
 * with one write, then syncs as {@code appendfsync} says ({@link #commit}). The caller holds each
 * iteration's replies until {@link #durableSize} reaches the {@link #loggedSize} it had after
 * that iteration, so no reply leaves before its record (and under {@code always}, before the
 * fsync that covers it).
 *
 * <p>Under {@code always} the fsync runs on its own thread while the loop goes on serving (fsync
 * pipelining, as databases commit): one fsync at a time covers everything written before it
 * started; when it ends, the loop is told ({@link #onDurable}) and the next one starts at once if
 * more was written meanwhile. So the loop never blocks on the disk, and one fsync covers every
 * iteration that ran while the previous one was in progress.
 *
 * <p>A failed write or fsync keeps the records, refuses writes with MISCONF (through
 * {@link CommandLog#failure}) and is retried by the next commit, which the cron makes every tick.
 * Writes are positional at the end of the last good write: a retry overwrites whatever a failed
 * partial write left behind.
 *
 * <p>Under {@code everysec} the fsync runs on its own thread. If one runs longer than
 * {@link #FSYNC_STALL_NANOS}, writes wait for it (Redis's postponed write, counted as a delayed
 * fsync) rather than pile up ever more unsynced data. Event loop only, except the fsync thread,
 * which hands its results back through the loop's executor.
 */
public final class AppendOnlyFile implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(AppendOnlyFile.class);
    private static final long SECOND_NANOS = 1_000_000_000L;
    private static final long FSYNC_STALL_NANOS = 2 * SECOND_NANOS;

    /** Replaced by {@link #switchTo} when a rewrite finishes. */
    private FileChannel channel;
    private final CommandLog commandLog;
    /** The event loop: where the end of a background fsync under {@code always} is handled. */
    private final Executor loop;
    private Runnable durableListener = () -> { };
    private FsyncPolicy policy;
    private ExecutorService fsyncThread;
    /**
     * Where the current file starts in the log's whole history: positions handed out by
     * {@link #loggedSize} keep counting across a rewrite's switch to a shorter file.
     */
    private long origin;
    /** Bytes of the file written and known good: the next write starts here. */
    private long size;
    /** Under {@code always}: bytes of the file known to be on disk. */
    private long syncedSize;
    /** Under {@code always}: an fsync is running on the fsync thread. */
    private boolean syncing;
    private boolean unsynced;
    private Future<?> fsync;
    private long fsyncStartNanos = System.nanoTime() - SECOND_NANOS;
    private boolean fsyncStalled;
    private boolean fsyncFailed;
    private long delayedFsyncs;
    /** The rewrite running, which gets a copy of every record written; null when none runs. */
    private AofRewrite rewrite;

    AppendOnlyFile(FileChannel channel, CommandLog commandLog, FsyncPolicy policy, Executor loop) throws IOException {
        this.channel = channel;
        this.commandLog = commandLog;
        this.policy = policy;
        this.loop = loop;
        this.size = channel.size();
        this.syncedSize = size;
    }

    /** Opens (creating if need be) the file for appending at its end; {@code loop} is the event loop. */
    public static AppendOnlyFile open(Path file, CommandLog commandLog, FsyncPolicy policy, Executor loop)
            throws IOException {
        FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        return new AppendOnlyFile(channel, commandLog, policy, loop);
    }

    /** Runs {@code listener} on the loop each time a background fsync under {@code always} made more durable. */
    public void onDurable(Runnable listener) {
        this.durableListener = listener;
    }

    /** The end of the log, counting records logged and not yet written: what a reply given now waits for. */
    public long loggedSize() {
        return origin + size + commandLog.records().readableBytes();
    }

    /** How far the log may be acknowledged: synced under {@code always}, written under the other policies. */
    public long durableSize() {
        return origin + (policy == FsyncPolicy.ALWAYS ? syncedSize : size);
    }

    /** CONFIG SET appendfsync */
    public void setPolicy(FsyncPolicy policy) {
        this.policy = policy;
    }

    /**
     * Writes the records logged since the last commit in one write and, under {@code always},
     * starts forcing them to disk unless an fsync is running (its end starts the next). True when
     * every record logged so far is durable ({@link #durableSize}): every reply may leave.
     */
    public boolean commit() {
        try {
            return commitRecords();
        } finally {
            commandLog.reportFile(size, delayedFsyncs, fsyncInProgress());
        }
    }

    private boolean commitRecords() {
        if (policy == FsyncPolicy.EVERYSEC) {
            collectBackgroundFsync();
        }
        ByteBuf records = commandLog.records();
        if (records.isReadable()) {
            if (policy == FsyncPolicy.EVERYSEC && fsyncRunsTooLong()) {
                return false;
            }
            if (!write(records)) {
                return false;
            }
        }
        if (policy == FsyncPolicy.ALWAYS) {
            startSyncIfBehind();
        } else if (policy == FsyncPolicy.EVERYSEC) {
            startBackgroundFsyncIfDue();
        }
        if (!fsyncFailed) {
            healthy();
        }
        return durableSize() == loggedSize();
    }

    private boolean fsyncInProgress() {
        return syncing || fsync != null && !fsync.isDone();
    }

    /** Writes what is left and forces it to disk (SHUTDOWN, SIGTERM); the file is closed after. */
    @Override
    public void close() {
        try {
            if (commandLog.records().isReadable()) {
                write(commandLog.records());
            }
            if (fsyncThread != null) {
                fsyncThread.shutdown();
                fsyncThread.awaitTermination(10, TimeUnit.SECONDS);
            }
            channel.force(false);
            channel.close();
        } catch (IOException e) {
            log.warn("AOF not synced at shutdown: {}", e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private boolean write(ByteBuf records) {
        ByteBuffer bytes = records.nioBuffer();
        long position = size;
        try {
            while (bytes.hasRemaining()) {
                position += channel.write(bytes, position);
            }
        } catch (IOException e) {
            failed("write", e);
            return false;
        }
        size = position;
        if (rewrite != null) {
            rewrite.written(records);
        }
        records.clear();
        unsynced = true;
        return true;
    }

    /** Under {@code always}: forces what is written and not yet synced, on the fsync thread. */
    private void startSyncIfBehind() {
        if (syncing || syncedSize == size) {
            return;
        }
        syncing = true;
        long upTo = size;
        FileChannel file = channel;
        fsyncThread().execute(() -> {
            IOException failure = null;
            try {
                file.force(false);
            } catch (IOException e) {
                failure = e;
            }
            IOException result = failure;
            try {
                loop.execute(() -> synced(file, upTo, result));
            } catch (RejectedExecutionException e) {
                // The loop is shutting down; close() forces the file itself.
            }
        });
    }

    /**
     * On the loop, after a background fsync under {@code always}: a success makes its bytes durable
     * and starts the next fsync if more was written meanwhile; a failure refuses writes (MISCONF)
     * until a later commit's fsync succeeds.
     */
    private void synced(FileChannel file, long upTo, IOException failure) {
        syncing = false;
        if (file != channel) {
            // A rewrite switched files meanwhile and forced everything written into the new one.
            startSyncIfBehind();
            return;
        }
        fsyncFailed = failure != null;
        if (fsyncFailed) {
            failed("fsync", failure);
        } else {
            syncedSize = upTo;
            if (policy == FsyncPolicy.ALWAYS) {
                startSyncIfBehind();
            }
        }
        commandLog.reportFile(size, delayedFsyncs, fsyncInProgress());
        durableListener.run();
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
        FileChannel file = channel;
        fsync = fsyncThread().submit(() -> {
            file.force(false);
            return null;
        });
    }

    /** Bytes written and known good. */
    long size() {
        return size;
    }

    /** From now on every record written is also handed to {@code rewrite}, until it ends. */
    void copyWritesTo(AofRewrite rewrite) {
        this.rewrite = rewrite;
    }

    void stopCopyingWrites() {
        rewrite = null;
    }

    /** True under {@code appendfsync always}: every commit forces the file. */
    boolean syncsEveryWrite() {
        return policy == FsyncPolicy.ALWAYS;
    }

    /**
     * A rewrite renamed its file, {@code size} bytes long, holding every record written so far,
     * and forced if {@code synced}, over this one: appends go there from now on. Replies waiting
     * for records the rewrite forced are released. The old channel is closed after any
     * background fsync in flight on it.
     */
    void switchTo(FileChannel rewritten, long rewrittenSize, boolean synced) {
        FileChannel old = channel;
        origin += size - rewrittenSize;
        channel = rewritten;
        size = rewrittenSize;
        syncedSize = synced ? rewrittenSize : 0;
        unsynced = !synced;
        rewrite = null;
        if (fsyncThread != null) {
            fsyncThread.execute(() -> closeOld(old));
        } else {
            closeOld(old);
        }
        commandLog.reportFile(size, delayedFsyncs, fsyncInProgress());
        durableListener.run();
    }

    private static void closeOld(FileChannel old) {
        try {
            old.close();
        } catch (IOException e) {
            log.warn("Could not close the AOF replaced by a rewrite: {}", e.toString());
        }
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
