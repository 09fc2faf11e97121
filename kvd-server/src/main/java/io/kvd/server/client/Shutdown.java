package io.kvd.server.client;

import io.kvd.server.config.Config;
import io.kvd.server.rdb.RdbPersistence;
import io.kvd.server.replication.Replication;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * SHUTDOWN, SIGTERM and SIGINT, as Redis 7.0's prepareForShutdown, finishShutdown and
 * abortShutdown (server.c). Unless NOW is given or {@code shutdown-timeout} is 0, a primary whose
 * replicas have not all acknowledged its stream pauses writes, asks them for acknowledgements and
 * waits up to shutdown-timeout seconds, looked at again by the cron; then it saves if it must and
 * stops. SHUTDOWN's clients wait with it and are answered only if it fails or SHUTDOWN ABORT
 * ends it. Event loop only.
 */
public final class Shutdown {
    private static final Logger log = LoggerFactory.getLogger(Shutdown.class);
    private static final String FAILED = "ERR Errors trying to SHUTDOWN. Check logs.";

    /** SHUTDOWN's options, or the shutdown-on-sigterm/-sigint directive's. */
    public record Flags(boolean save, boolean nosave, boolean now, boolean force) {
        /** A directive's value: "default", or some of save, nosave, now and force. */
        static Flags of(String words) {
            List<String> flags = List.of(words.toLowerCase(Locale.ROOT).split(" "));
            return new Flags(flags.contains("save"), flags.contains("nosave"), flags.contains("now"), flags.contains("force"));
        }
    }

    private final ServerState server;
    private Flags flags;
    /** When the wait for replicas ends (Redis's shutdown_mstime); 0 when no shutdown waits. */
    private long deadlineMs;
    private final Set<Client> waiting = new LinkedHashSet<>();

    Shutdown(ServerState server) {
        this.server = server;
    }

    /**
     * SHUTDOWN from {@code client}: the server stops, or waits for its replicas with the client
     * blocked, or (a save failed) the client is answered Redis's error.
     */
    public void requestedBy(Client client, Flags requested) {
        waiting.add(client);
        client.connection().blocked();
        if (deadlineMs == 0) {
            prepare(requested);
        }
    }

    /** SIGTERM or SIGINT, with the flags of shutdown-on-sigterm or -sigint. */
    public void signalled(String signal) {
        log.warn("Received {} scheduling shutdown...", signal);
        if (deadlineMs != 0) {
            return;
        }
        String directive = signal.equals("SIGINT") ? "shutdown-on-sigint" : "shutdown-on-sigterm";
        prepare(Flags.of(server.config().get(directive)));
    }

    /** Redis's prepareForShutdown: waits for lagging replicas (unless NOW or no timeout), else finishes. */
    private void prepare(Flags requested) {
        this.flags = requested;
        log.warn("User requested shutdown...");
        long timeoutSeconds = Long.parseLong(server.config().get("shutdown-timeout"));
        if (!requested.now() && timeoutSeconds != 0 && !replicasCaughtUp()) {
            deadlineMs = System.currentTimeMillis() + timeoutSeconds * 1000;
            server.replication().requestAcknowledgements();
            server.pause().pauseForShutdown(true);
            log.info("Waiting for replicas before shutting down.");
            return;
        }
        finish();
    }

    /** The cron's look: finishes once the replicas caught up or the time is up. */
    public void cron(long nowMs) {
        if (deadlineMs != 0 && (nowMs >= deadlineMs || replicasCaughtUp())) {
            finish();
        }
    }

    /** SHUTDOWN ABORT: false when no shutdown is in progress. */
    public boolean abort() {
        if (deadlineMs == 0) {
            return false;
        }
        cancel();
        log.info("Shutdown manually aborted.");
        return true;
    }

    /** INFO's shutdown_in_milliseconds, or -1 when no shutdown waits. */
    public long millisecondsLeft(long nowMs) {
        return deadlineMs == 0 ? -1 : Math.max(0, deadlineMs - nowMs);
    }

    /** SHUTDOWN clients waiting (INFO counts them in blocked_clients, as Redis). */
    int waitingCount() {
        return waiting.size();
    }

    void disconnected(Client client) {
        waiting.remove(client);
    }

    /** Redis's isReadyToShutdown: every replica acknowledged the whole stream. */
    private boolean replicasCaughtUp() {
        return server.replication().laggingReplicas().isEmpty();
    }

    /** Redis's finishShutdown: lagging replicas logged, the final save if due, then the stop. */
    private void finish() {
        Replication replication = server.replication();
        List<String> lagging = replication.laggingReplicas();
        lagging.forEach(description -> log.warn("Lagging replica {}.", description));
        int replicas = replication.replicaCount();
        if (replicas > 0) {
            log.info("{} of {} replicas are in sync when shutting down.", replicas - lagging.size(), replicas);
        }
        AofRewriteStatus aof = server.aofRewrite();
        if (aof.aofState() == AofRewriteStatus.AofState.WAIT_REWRITE && aof.inProgress()) {
            // The AOF switched on is not complete until its first rewrite ends.
            if (!flags.force()) {
                refuse("Writing initial AOF, can't exit.");
                return;
            }
            log.warn("Writing initial AOF. Exit anyway.");
        }
        RdbPersistence rdb = server.rdb();
        // A running BGSAVE is abandoned; with save points (unless NOSAVE) or SAVE the final snapshot
        // is written, or the shutdown refused unless FORCE.
        rdb.close();
        if (flags.save() || rdb.hasSavePoints() && !flags.nosave()) {
            log.info("Saving the final RDB snapshot before exiting.");
            if (!rdb.save()) {
                if (!flags.force()) {
                    refuse("Error trying to save the DB, can't exit.");
                    return;
                }
                log.warn("Error trying to save the DB. Exit anyway.");
            }
        }
        log.warn("kvd is now ready to exit, bye bye...");
        deadlineMs = 0;
        waiting.clear();
        server.shutdown();
    }

    private void refuse(String why) {
        log.warn(why);
        log.warn("Errors trying to shut down the server. Check the logs for more information.");
        cancel();
    }

    /** Redis's cancelShutdown: the waiting SHUTDOWN clients get the error, writes run again. */
    private void cancel() {
        deadlineMs = 0;
        List<Client> answered = new ArrayList<>(waiting);
        waiting.clear();
        for (Client client : answered) {
            client.reply().error(FAILED);
            client.connection().unblocked();
        }
        server.pause().pauseForShutdown(false);
    }
}
