package io.kvd.server.aof;

import io.kvd.server.client.AofRewriteStatus;
import io.kvd.server.client.ServerState;
import io.kvd.server.config.Config;
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
 */
public final class AofRewriter {
    private static final Logger log = LoggerFactory.getLogger(AofRewriter.class);
    /** After a failed automatic rewrite the next automatic one waits this long (not BGREWRITEAOF). */
    private static final long AUTO_RETRY_DELAY_MS = 60_000;

    private final Config config;
    private final ServerState state;
    /** Null when appendonly is off. */
    private final AppendOnlyFile aof;
    private final ScheduledExecutorService loop;
    private AofRewrite running;
    private long lastFailureMs = Long.MIN_VALUE / 2;

    public AofRewriter(Config config, ServerState state, AppendOnlyFile aof, ScheduledExecutorService loop) {
        this.config = config;
        this.state = state;
        this.aof = aof;
        this.loop = loop;
        if (aof != null) {
            state.aofRewrite().setBaseSize(aof.size());
        }
        state.aofRewrite().onStart(this::start);
    }

    /** Deletes the temporary file a rewrite left when the server stopped during it (logged). */
    public static void deleteLeftover(Path aofFile) throws IOException {
        Path temp = AofRewrite.tempFile(aofFile);
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
            // while the delta held the whole transaction, so the rewrite starts once EXEC ended.
            state.aofRewrite().started(now);
            state.commandLog().afterTransaction(() -> startNow(now));
            return true;
        }
        return startNow(now);
    }

    private boolean startNow(long now) {
        try {
            state.commandLog().selectAgain();
            running = AofRewrite.start(config.appendFile(), state.databases(), state.scripting().functionLibraryCodes(), aof,
                    state.commandLog().records().readableBytes(), loop, state.latencyMonitor(), this::ended);
        } catch (IOException e) {
            log.warn("Can't start the AOF rewrite: {}", e.toString());
            state.aofRewrite().started(now);
            ended(false);
            return false;
        }
        state.aofRewrite().started(now);
        return true;
    }

    private void ended(boolean succeeded) {
        running = null;
        long now = System.currentTimeMillis();
        state.aofRewrite().finished(succeeded, now);
        if (succeeded && aof != null) {
            state.aofRewrite().setBaseSize(aof.size());
        }
        if (!succeeded) {
            lastFailureMs = now;
        }
    }

    /** From the cron: starts a rewrite when the AOF grew enough since the last one. */
    public void cron(long nowMs) {
        int percentage = config.autoAofRewritePercentage();
        if (aof == null || running != null || percentage == 0 || nowMs - lastFailureMs < AUTO_RETRY_DELAY_MS) {
            return;
        }
        long size = aof.size();
        long base = Math.max(1, state.aofRewrite().baseSize());
        if (size > config.autoAofRewriteMinSize() && (size * 100 / base) - 100 >= percentage) {
            log.info("Starting automatic rewriting of AOF on {}% growth", (size * 100 / base) - 100);
            start();
        }
    }

    /** Shutdown: a running rewrite is abandoned and its temporary file deleted. */
    public void close() {
        AofRewrite rewrite = running;
        if (rewrite != null) {
            rewrite.abort();
            try {
                rewrite.awaitWriter();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
