package io.kvd.server.aof;

import io.kvd.server.client.AofRewriteStatus;
import io.kvd.server.client.ServerState;
import io.kvd.server.config.Config;
import io.kvd.server.rdb.RdbSave;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ScheduledExecutorService;

/**
 * Starts AOF rewrites, by BGREWRITEAOF or automatically from the cron (Redis's
 * {@code auto-aof-rewrite-percentage} and {@code auto-aof-rewrite-min-size}), one at a time, and
 * reports them in {@link AofRewriteStatus}. Event loop only.
 *
 * <p>As Redis 7's rewriteAppendOnlyFileBackground and backgroundRewriteDoneHandler: at the start
 * the AOF moves to a new incr file, listed in the manifest before anything is appended to it,
 * and the snapshot of the databases is taken in the same loop step, so the snapshot holds exactly
 * what the files before the new incr file hold. The snapshot is written as the new base (RDB with
 * aof-use-rdb-preamble yes, else commands) to a temporary file and forced; then it is renamed
 * into the directory and a new manifest makes it the base, the files it replaces history, which
 * are deleted. A crash at any point leaves a manifest whose files hold every acknowledged write.
 */
public final class AofRewriter {
    private static final Logger log = LoggerFactory.getLogger(AofRewriter.class);
    /** After a failed automatic rewrite the next automatic one waits this long (not BGREWRITEAOF). */
    private static final long AUTO_RETRY_DELAY_MS = 60_000;

    private final Config config;
    private final ServerState state;
    private final AofDirectory directory;
    /** Null when appendonly is off: then the base alone is written, as Redis 7 does. */
    private final AppendOnlyFile aof;
    private final ScheduledExecutorService loop;
    /** Stops the base being written (shutdown); null when no rewrite runs. */
    private Runnable running;
    private long lastFailureMs = Long.MIN_VALUE / 2;

    public AofRewriter(Config config, ServerState state, AofDirectory directory, AppendOnlyFile aof,
                       ScheduledExecutorService loop) {
        this.config = config;
        this.state = state;
        this.directory = directory;
        this.aof = aof;
        this.loop = loop;
        state.aofRewrite().onStart(this::start);
    }

    /** Deletes the temporary file kvd's single-file rewrites left when the server stopped during one (logged). */
    public static void deleteLeftover(Path dir, String fileName) throws IOException {
        Path temp = dir.resolve("temp-rewriteaof-" + fileName);
        if (Files.deleteIfExists(temp)) {
            log.warn("Removed {}, the temporary file of an AOF rewrite the last run did not finish", temp);
        }
    }

    /** Starts a rewrite; false (logged) if none could start. */
    public boolean start() {
        // One snapshot at a time: BGREWRITEAOF waits for a BGSAVE (state.rdb().whenIdle), the cron retries.
        if (running != null || state.aofRewrite().inProgress() || state.databases().snapshotRunning()) {
            return false;
        }
        long now = System.currentTimeMillis();
        if (state.commandLog().holdsTransaction()) {
            // BGREWRITEAOF inside EXEC: a snapshot in the middle would hold the commands before it
            // while the new incr file held the whole transaction, so the rewrite starts once EXEC ended.
            state.aofRewrite().started(now);
            state.commandLog().afterTransaction(() -> startNow(now));
            return true;
        }
        return startNow(now);
    }

    private boolean startNow(long now) {
        Path temp = directory.rewriteTempFile();
        boolean rdb = config.aofUseRdbPreamble();
        state.aofRewrite().started(now);
        try {
            directory.createIfMissing();
            if (aof != null) {
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
                running = AofRewrite.start(temp, state.databases(), state.scripting().functionLibraryCodes(), loop,
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
        if (!written) {
            log.warn("Background AOF rewrite terminated with error");
            failed(now);
            return;
        }
        log.info("Successfully created the temporary AOF base file {}", temp.getFileName());
        log.info("Background AOF rewrite terminated with success");
        long baseSize;
        try {
            baseSize = directory.installBase(temp, rdb, aof != null, state.latencyMonitor());
        } catch (IOException e) {
            deleteQuietly(temp);
            failed(now);
            return;
        }
        if (aof != null) {
            aof.rebase(baseSize);
            state.aofRewrite().setBaseSize(aof.totalSize());
        }
        directory.deleteHistory();
        state.aofRewrite().finished(true, now);
        log.info("Background AOF rewrite finished successfully");
    }

    private void failed(long now) {
        state.aofRewrite().finished(false, now);
        lastFailureMs = now;
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            log.warn("Could not delete the temporary AOF base file {}: {}", file, e.toString());
        }
    }

    /** From the cron: starts a rewrite when the AOF grew enough since the last one. */
    public void cron(long nowMs) {
        int percentage = config.autoAofRewritePercentage();
        if (aof == null || running != null || percentage == 0 || nowMs - lastFailureMs < AUTO_RETRY_DELAY_MS) {
            return;
        }
        long size = aof.totalSize();
        long base = Math.max(1, state.aofRewrite().baseSize());
        if (size > config.autoAofRewriteMinSize() && (size * 100 / base) - 100 >= percentage) {
            log.info("Starting automatic rewriting of AOF on {}% growth", (size * 100 / base) - 100);
            start();
        }
    }

    /**
     * Shutdown: a running rewrite is abandoned and its temporary file deleted (the manifest keeps
     * the old base), and the history files being deleted are waited for.
     */
    public void close() {
        Runnable abort = running;
        if (abort != null) {
            abort.run();
        }
        try {
            directory.awaitDeletions();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
