package io.kvd.server.client;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * CLIENT PAUSE and UNPAUSE, as Redis 7.0's pauseClients and unpauseClients (networking.c): for
 * a while, every command (ALL) or every command that may write or propagate (WRITE) is held,
 * with the client's later commands behind it, until the pause ends; then the held commands run
 * in the order they were held. While paused, keys are not expired (Redis's
 * checkClientPauseTimeoutAndReturnIfPaused): a write pause must leave the dataset as it is.
 */
public final class ClientPause {
    /** What a pause holds; a later pause keeps the stricter of the two and the later end, as Redis's. */
    public enum Type { OFF, WRITE, ALL }

    private final ServerState server;
    private Type type = Type.OFF;
    private long endMs;
    private final LinkedHashSet<Client> held = new LinkedHashSet<>();
    private ScheduledExecutorService timer;
    private ScheduledFuture<?> end;
    /** A FAILOVER runs: writes wait until it ends, whatever CLIENT PAUSE/UNPAUSE do (Redis's PAUSE_DURING_FAILOVER). */
    private boolean failover;
    /** A SHUTDOWN waits for replicas: likewise (Redis's PAUSE_DURING_SHUTDOWN). */
    private boolean shutdown;

    ClientPause(ServerState server) {
        this.server = server;
    }

    /** The event loop, which ends a pause when its time comes. */
    void useTimer(ScheduledExecutorService timer) {
        this.timer = timer;
    }

    boolean isPaused() {
        return effectiveType() != Type.OFF;
    }

    private Type effectiveType() {
        return (failover || shutdown) && type == Type.OFF ? Type.WRITE : type;
    }

    /** FAILOVER holds writes from its start to its end, or releases them. */
    public void pauseForFailover(boolean paused) {
        failover = paused;
        expiryFollowsPause();
        if (!paused) {
            releaseHeld();
        }
    }

    /** A SHUTDOWN holds writes while it waits for replicas, or releases them when it is cancelled. */
    public void pauseForShutdown(boolean paused) {
        shutdown = paused;
        expiryFollowsPause();
        if (!paused) {
            releaseHeld();
        }
    }

    /** CLIENT PAUSE: until {@code untilMs} (Unix time), or later if a pause already runs longer. */
    public void pause(Type pauseType, long untilMs) {
        if (pauseType.compareTo(type) > 0) {
            type = pauseType;
        }
        expiryFollowsPause();
        if (untilMs > endMs) {
            endMs = untilMs;
            if (end != null) {
                end.cancel(false);
            }
            if (timer != null) {
                long delayMs = Math.max(0, endMs - System.currentTimeMillis());
                end = timer.schedule(this::unpause, delayMs, TimeUnit.MILLISECONDS);
            }
        }
    }

    /** CLIENT UNPAUSE, or the pause's end: the held commands run, in the order they were held. */
    public void unpause() {
        type = Type.OFF;
        endMs = 0;
        expiryFollowsPause();
        if (end != null) {
            end.cancel(false);
            end = null;
        }
        releaseHeld();
    }

    private void expiryFollowsPause() {
        server.databases().pauseExpiry(isPaused());
    }

    /** The held commands run again; any other pause still holds is held again. */
    private void releaseHeld() {
        List<Client> waiting = new ArrayList<>(held);
        held.clear();
        waiting.forEach(client -> client.connection().runPostponed());
    }

    /**
     * Redis's processCommand check: whether {@code command} must wait for the pause to end. Under
     * WRITE, a write, a command that propagates, EXEC of a transaction holding one, and a script
     * that does not declare no-writes wait.
     */
    boolean holds(Client client, Command command, byte[][] argv) {
        Type holding = effectiveType();
        if (holding == Type.OFF || client.connection() == null || client.isReplayingAof() || client.isMaster()) {
            return false;
        }
        if (holding == Type.ALL) {
            return true;
        }
        Transaction transaction = client.transaction();
        if (transaction != null && command.name().equals("exec")) {
            return transaction.queued().stream().anyMatch(q -> mayReplicate(q.command(), q.argv()));
        }
        return mayReplicate(command, argv);
    }

    /** A write or a command that propagates; a script unless it declares no-writes. */
    boolean mayReplicate(Command command, byte[][] argv) {
        return switch (command.name()) {
            case "eval", "evalsha", "fcall" -> server.scripting().mayWrite(command.name(), argv);
            default -> {
                Command looked = command.lookedUp(argv);
                yield looked.has(Command.Flag.WRITE) || looked.has(Command.Flag.MAY_REPLICATE);
            }
        };
    }

    /** The client's command waits for the pause to end; none of its later ones runs before it. */
    void hold(Client client, byte[][] argv) {
        held.add(client);
        client.connection().postpone(argv);
    }

    /** A held client went away. */
    void disconnected(Client client) {
        held.remove(client);
    }

    /** Clients whose command waits for the pause (INFO counts them in blocked_clients, as Redis). */
    int heldCount() {
        return held.size();
    }
}
