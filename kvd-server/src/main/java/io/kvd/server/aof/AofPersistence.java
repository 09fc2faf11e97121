package io.kvd.server.aof;

import io.kvd.server.client.AofRewriteStatus;
import io.kvd.server.client.AofRewriteStatus.AofState;
import io.kvd.server.client.ServerState;
import io.kvd.server.command.CommandTable;
import io.kvd.server.config.Config;
import io.kvd.server.config.IoErrors;
import io.kvd.server.rdb.RdbSave;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ScheduledExecutorService;

/**
 * The AOF as Redis's aof.c runs it: on, off, or switched on and waiting for its first rewrite
 * (Redis's aof_state), the incr file appended to, and the rewrites, by BGREWRITEAOF or
 * automatically from the cron ({@code auto-aof-rewrite-percentage} and
 * {@code auto-aof-rewrite-min-size}), one at a time, reported in {@link AofRewriteStatus}. Event
 * loop only.
 *
 * <p>As Redis 7's rewriteAppendOnlyFileBackground and backgroundRewriteDoneHandler: at the start
 * the AOF moves to a new incr file, listed in the manifest before anything is appended to it,
 * and the snapshot of the databases is taken in the same loop step, so the snapshot holds exactly
 * what the files before the new incr file hold. The snapshot is written as the new base (RDB with
 * aof-use-rdb-preamble yes, else commands) to a temporary file and forced; then it is renamed
 * into the directory and a new manifest makes it the base, the files it replaces history, which
 * are deleted. A crash at any point leaves a manifest whose files hold every acknowledged write.
 *
 * <p>CONFIG SET appendonly yes (startAppendOnly) starts a rewrite whose writes go to a temporary
 * incr file outside the manifest; when the base is complete both are renamed in and one manifest
 * lists them, and only then is the AOF on. A failed first rewrite deletes the temporary incr file
 * and is retried from the cron. CONFIG SET appendonly no (stopAppendOnly) writes and syncs what is
 * logged, closes the file and stops a running rewrite; the directory stays as it is.
 */
public final class AofPersistence {
    private static final Logger log = LoggerFactory.getLogger(AofPersistence.class);
    /** After a failed automatic rewrite the next automatic one waits this long (not BGREWRITEAOF). */
    private static final long AUTO_RETRY_DELAY_MS = 60_000;

    private final Config config;
    private final ServerState state;
    private final AofRewriteStatus status;
    private final AofDirectory directory;
    private final ScheduledExecutorService loop;
    /** The incr file appended to; null while the AOF is off, or waiting without a rewrite running. */
    private AppendOnlyFile aof;
    /** Stops the base being written (shutdown, appendonly no); null when no rewrite runs. */
    private Runnable running;
    /** A rewrite is being stopped on purpose: its end is no failure. */
    private boolean stopping;
    private long lastFailureMs = Long.MIN_VALUE / 2;

    /** @param aof the incr file opened at start, null when appendonly is off */
    public AofPersistence(Config config, ServerState state, CommandTable commands, AofDirectory directory,
                          AppendOnlyFile aof, ScheduledExecutorService loop) {
        this.config = config;
        this.state = state;
        this.status = state.aofRewrite();
        this.directory = directory;
        this.aof = aof;
        this.loop = loop;
        status.setAofState(aof == null ? AofState.OFF : AofState.ON);
        status.onStart(this::start);
        status.onLoad(() -> AofLoader.reload(directory, this.aof, state, commands));
    }

    /** Deletes the temporary file kvd's single-file rewrites left when the server stopped during one (logged). */
    public static void deleteLeftover(Path dir, String fileName) throws IOException {
        Path temp = dir.resolve("temp-rewriteaof-" + fileName);
        if (Files.deleteIfExists(temp)) {
            log.warn("Removed {}, the temporary file of an AOF rewrite the last run did not finish", temp);
        }
    }

    /**
     * The iteration's records to the incr file, as {@link AppendOnlyFile#commit}; true at once
     * when nothing is appended to.
     */
    public boolean commit() {
        return aof == null || aof.commit();
    }

    /** CONFIG SET appendfsync */
    public void setPolicy(FsyncPolicy policy) {
        if (aof != null) {
            aof.setPolicy(policy);
        }
    }

    /**
     * CONFIG SET appendonly yes, Redis's startAppendOnly: the AOF waits for a rewrite, started now
     * unless a BGSAVE or an EXEC runs, when it is scheduled. False (logged) if it could not start.
     */
    public boolean enable() {
        status.setAofState(AofState.WAIT_REWRITE);
        if (running == null && snapshotRunning()) {
            log.warn("AOF was enabled but there is already another background operation. An AOF background was "
                    + "scheduled to start when possible.");
            status.schedule();
            return true;
        }
        if (state.commandLog().inExec()) {
            // The snapshot would hold the transaction's first commands; the cron starts it after.
            log.warn("AOF was enabled during a transaction. An AOF background was scheduled to start when possible.");
            status.schedule();
            return true;
        }
        if (running != null) {
            // Its writes go to an incr file of the manifest's, not to the temporary one.
            log.warn("AOF was enabled but there is already an AOF rewriting in background. Stopping background AOF "
                    + "and starting a rewrite now.");
            stopRewrite();
        }
        if (!startNow(System.currentTimeMillis())) {
            status.setAofState(AofState.OFF);
            log.warn("Redis needs to enable the AOF but can't trigger a background AOF rewrite operation. Check the "
                    + "above logs for more info about the error.");
            return false;
        }
        return true;
    }

    /**
     * CONFIG SET appendonly no, Redis's stopAppendOnly: what is logged is written and synced, the
     * file closed, a rewrite running stopped; nothing is appended from now on.
     */
    public void disable() {
        AofState was = status.aofState();
        status.setAofState(AofState.OFF);
        status.unschedule();
        if (aof != null) {
            aof.writeNow();
            aof.closeWithoutWriting();
            aof = null;
            state.commandLog().setEnabled(false);
        }
        if (running != null) {
            stopRewrite();
        }
        if (was == AofState.WAIT_REWRITE) {
            deleteTempIncr();
        }
    }

    /** A BGSAVE (started, or walking the keyspace) or another snapshot runs: one at a time. */
    private boolean snapshotRunning() {
        return state.rdb().inProgress() || state.databases().snapshotRunning();
    }

    /** Starts a rewrite; false (logged) if none could start. */
    public boolean start() {
        // One snapshot at a time, never inside EXEC: a rewrite asked for then is scheduled (BGREWRITEAOF, enable).
        if (running != null || status.inProgress() || snapshotRunning()) {
            return false;
        }
        return startNow(System.currentTimeMillis());
    }

    private boolean startNow(long now) {
        Path temp = directory.rewriteTempFile();
        boolean rdb = config.aofUseRdbPreamble();
        status.unschedule();
        status.started(now);
        try {
            directory.createIfMissing();
            if (status.aofState() == AofState.WAIT_REWRITE) {
                // The records logged so far are in the snapshot; the temporary incr file gets the later ones.
                aof = directory.openTempIncr(state.commandLog(), FsyncPolicy.named(config.appendfsync()),
                        state.latencyMonitor());
                state.commandLog().setEnabled(true);
                state.commandLog().selectAgain();
            } else if (aof != null) {
                if (!aof.writeNow()) {
                    throw new IOException("the AOF cannot be written: " + state.commandLog().failure());
                }
                aof.switchTo(directory.openNewIncr());
                // As Redis's aof_selected_db = -1: the new incr file starts with a SELECT.
                state.commandLog().selectAgain();
            }
            if (rdb) {
                running = RdbSave.background(state.rdb().aofBaseOptions(temp), state.databases(), loop,
                        written -> ended(written, temp, true))::abort;
            } else {
                running = AofRewrite.start(temp, state.databases(), state.scripting().functionLibraryCodes(),
                        Long.parseLong(config.get(Config.RDB_KEY_SAVE_DELAY)), loop,
                        written -> ended(written, temp, false))::abort;
            }
        } catch (IOException e) {
            log.warn("Can't rewrite append only file in background: {}", e.toString());
            failed(now);
            return false;
        }
        if (aof != null) {
            aof.rewriting(true);
        }
        log.info("Background append only file rewriting started ({} keys)", state.databases().size());
        return true;
    }

    /** The base was written to {@code temp} (or failed): install it as backgroundRewriteDoneHandler does. */
    private void ended(boolean written, Path temp, boolean rdb) {
        running = null;
        if (aof != null) {
            aof.rewriting(false);
        }
        long now = System.currentTimeMillis();
        if (stopping) {
            stopping = false;
            status.stopped();
            return;
        }
        if (!written) {
            log.warn("Background AOF rewrite terminated with error");
            failed(now);
            return;
        }
        log.info("Successfully created the temporary AOF base file {}", temp.getFileName());
        log.info("Background AOF rewrite terminated with success");
        boolean first = status.aofState() == AofState.WAIT_REWRITE;
        long baseSize;
        try {
            baseSize = first ? directory.installBaseAndTempIncr(temp, rdb, state.latencyMonitor())
                    : directory.installBase(temp, rdb, aof != null, state.latencyMonitor());
        } catch (IOException e) {
            deleteQuietly(temp);
            failed(now);
            return;
        }
        if (first) {
            status.setAofState(AofState.ON);
        }
        if (aof != null) {
            aof.rebase(baseSize);
            status.setBaseSize(aof.totalSize());
        }
        directory.deleteHistory();
        status.finished(true, now);
        log.info("Background AOF rewrite finished successfully");
    }

    private void failed(long now) {
        status.finished(false, now);
        lastFailureMs = now;
        if (status.aofState() == AofState.WAIT_REWRITE) {
            // As Redis: the records since the failed start are dropped with the temporary incr
            // file; the next rewrite's snapshot holds them. It starts from the cron.
            if (aof != null) {
                aof.closeWithoutWriting();
                aof = null;
                state.commandLog().setEnabled(false);
            }
            deleteTempIncr();
            status.schedule();
        }
    }

    /** Redis's killAppendOnlyChild, whose log line this keeps; the pid is kvd's own, as in the temporary file's name. */
    private void stopRewrite() {
        log.info("Killing running AOF rewrite child: {}", ProcessHandle.current().pid());
        stopping = true;
        running.run();
    }

    private void deleteTempIncr() {
        Path file = directory.tempIncrFile();
        if (Files.exists(file)) {
            log.info("Removing the temp incr aof file {} in the background", file.getFileName());
            deleteQuietly(file);
        }
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            log.warn("Could not delete the temporary AOF file {}: {}", file, IoErrors.strerror(e));
        }
    }

    /**
     * From the cron: a scheduled rewrite once no BGSAVE runs, or one because the AOF grew enough
     * since the last.
     */
    public void cron(long nowMs) {
        if (running != null || status.inProgress() || snapshotRunning()) {
            return;
        }
        if (status.scheduled()) {
            // A first rewrite that keeps failing (a full disk) is retried at the automatic pace.
            if (status.consecutiveFailures() < 3 || nowMs - lastFailureMs >= AUTO_RETRY_DELAY_MS) {
                start();
            }
            return;
        }
        int percentage = config.autoAofRewritePercentage();
        if (aof == null || percentage == 0 || nowMs - lastFailureMs < AUTO_RETRY_DELAY_MS) {
            return;
        }
        long size = aof.totalSize();
        long base = Math.max(1, status.baseSize());
        if (size > config.autoAofRewriteMinSize() && (size * 100 / base) - 100 >= percentage) {
            log.info("Starting automatic rewriting of AOF on {}% growth", (size * 100 / base) - 100);
            start();
        }
    }

    /** CONFIG SET aof-disable-auto-gc no: the history files kept meanwhile go (updateAofAutoGCEnabled). */
    public void autoGcChanged() {
        directory.deleteHistory();
    }

    /**
     * Shutdown: a running rewrite is abandoned and its temporary file deleted (the manifest keeps
     * the old base), the file written and synced, and the history files being deleted are waited for.
     */
    public void close() {
        if (running != null) {
            stopRewrite();
        }
        if (aof != null) {
            aof.close();
        }
        if (status.aofState() == AofState.WAIT_REWRITE) {
            deleteTempIncr();
        }
        try {
            directory.awaitDeletions();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
