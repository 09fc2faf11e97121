package io.kvd.server.client;

import io.kvd.server.latency.LatencyMonitor;
import io.kvd.server.propagate.CommandLog;
import io.kvd.server.store.Databases;
import io.kvd.server.store.Keyspace;
import io.kvd.server.store.ValueType;
import io.kvd.server.tracking.Tracking;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Clients blocked on keys (BLPOP and the other blocking pops), as Redis 7.0's blocked.c: the
 * clients waiting on each (database, key) in the order they blocked, the keys that became ready,
 * and the deadlines in order.
 *
 * <p>A change to a key someone waits on marks it ready (through {@link KeyWatchers}); the
 * waiters are served by {@link #serveReadyKeys} once the command that changed it has finished,
 * or the whole EXEC, so a client never sees an intermediate state. A served client's pop is
 * logged as the pop it did. Timeouts need no timer per client: one scheduled task waits for the
 * earliest deadline, and a client that blocks with a later one changes nothing.
 */
public final class BlockedClients {
    /** Tries to serve a blocked client from {@code key}; true when it replied (with data or an error). */
    @FunctionalInterface
    public interface Servant {
        boolean serve(Client client, byte[] key);

        /**
         * The key is gone or holds another type; true when that answered the client (XREADGROUP's
         * UNBLOCKED error), false to keep waiting.
         */
        default boolean keyGone(Client client, byte[] key) {
            return false;
        }
    }

    /** One blocked client: its database, keys, the type it pops, when it gives up (0: never). */
    static final class Blocked {
        final Client client;
        final int db;
        final byte[][] keys;
        final ValueType type;
        final long deadlineMs;
        final long order;
        final Servant servant;
        /** The blocking command, as INFO commandstats names it, and when it blocked. */
        final String command;
        final long blockedAtNanos;
        /** The command as the slow log shows it and what its first run took: logged once it is answered. */
        private Command ran;
        private byte[][] shownArgv;
        private long ranNanos;

        Blocked(Client client, int db, byte[][] keys, ValueType type, long deadlineMs, long order, Servant servant) {
            this.client = client;
            this.db = db;
            this.keys = keys;
            this.type = type;
            this.deadlineMs = deadlineMs;
            this.order = order;
            this.servant = servant;
            this.command = client.lastCommand();
            this.blockedAtNanos = System.nanoTime();
        }

        /** The dispatcher's account of the run that blocked, for the slow log. */
        void ran(Command command, byte[][] shownArgv, long nanos) {
            this.ran = command;
            this.shownArgv = shownArgv;
            this.ranNanos = nanos;
        }
    }

    private static final Comparator<Blocked> BY_DEADLINE =
            Comparator.<Blocked>comparingLong(b -> b.deadlineMs).thenComparingLong(b -> b.order);

    private final Databases databases;
    private final KeyWatchers listeners;
    private final Map<DbKey, LinkedHashSet<Blocked>> waiting = new HashMap<>();
    private final LinkedHashSet<DbKey> readyKeys = new LinkedHashSet<>();
    private final TreeSet<Blocked> byDeadline = new TreeSet<>(BY_DEADLINE);
    private CommandLog log;
    private ScheduledExecutorService timer;
    private ScheduledFuture<?> timeoutTask;
    private long timeoutTaskAtMs;
    private long blockedCount;
    private long nextOrder;

    BlockedClients(Databases databases, KeyWatchers listeners) {
        this.databases = databases;
        this.listeners = listeners;
    }

    /** Where served clients' pops are logged. */
    void logTo(CommandLog log) {
        this.log = log;
    }

    /** The event loop, which runs the timeouts; without one they run only when {@link #timeOut} is called. */
    void useTimer(ScheduledExecutorService timer) {
        this.timer = timer;
    }

    public boolean isEmpty() {
        return blockedCount == 0;
    }

    /** INFO's blocked_clients. */
    long count() {
        return blockedCount;
    }

    /** INFO's clients_in_timeout_table: the blocked clients that have a deadline. */
    public long withDeadlineCount() {
        return byDeadline.size();
    }

    /**
     * Redis's blockForKeys: {@code client} waits on {@code keys} of its database until one holds a
     * {@code type} value that {@code servant} can take, or {@code deadlineMs} passes (0: forever).
     * Its connection stops running commands until then.
     */
    public void block(Client client, byte[][] keys, ValueType type, long deadlineMs, Servant servant) {
        byte[][] copies = new byte[keys.length][];
        for (int i = 0; i < keys.length; i++) {
            copies[i] = keys[i].clone();
        }
        Blocked blocked = new Blocked(client, client.db(), copies, type, deadlineMs, nextOrder++, servant);
        for (byte[] key : copies) {
            // A key named twice waits once, as Redis's per-client dict of blocked keys.
            waiting.computeIfAbsent(new DbKey(blocked.db, key), k -> new LinkedHashSet<>()).add(blocked);
        }
        if (deadlineMs > 0) {
            byDeadline.add(blocked);
            scheduleTimeouts();
        }
        blockedCount++;
        client.blockedOn(blocked);
        client.connection().blocked();
        listeners.listenersChanged();
    }

    /** A change to a key: ready if anyone waits on it. */
    void modified(int db, byte[] key) {
        DbKey dbKey = new DbKey(db, key);
        if (waiting.containsKey(dbKey)) {
            readyKeys.add(new DbKey(db, key.clone()));
        }
    }

    /**
     * SWAPDB gives database {@code emptied} other contents, or FLUSHDB/FLUSHALL empties it
     * ({@code replacedWith} null): every key waited on there may be ready, or gone (a blocked
     * XREADGROUP is answered then).
     */
    void replacing(Keyspace emptied, Keyspace replacedWith) {
        for (DbKey key : waiting.keySet()) {
            if (key.db() == emptied.index()) {
                readyKeys.add(key);
            }
        }
    }

    /**
     * Redis's handleClientsBlockedOnKeys, after a command or EXEC: each ready key serves its
     * waiters in the order they blocked while it holds what they pop. Serving may make other keys
     * ready (BLMOVE pushes): those are served in the next round.
     */
    void serveReadyKeys() {
        while (!readyKeys.isEmpty()) {
            List<DbKey> keys = new ArrayList<>(readyKeys);
            readyKeys.clear();
            for (DbKey key : keys) {
                serve(key);
            }
        }
    }

    private void serve(DbKey key) {
        LinkedHashSet<Blocked> clients = waiting.get(key);
        if (clients == null) {
            return;
        }
        Keyspace keyspace = databases.get(key.db());
        for (Blocked blocked : List.copyOf(clients)) {
            long errorsBefore = errorsSent(blocked);
            LatencyMonitor latency = blocked.client.server().latencyMonitor();
            long started = latency.isOn() ? System.nanoTime() : 0;
            ValueType type = keyspace.type(key.key());
            // The served client runs its command now: invalidations it causes itself follow its reply.
            Tracking tracking = blocked.client.server().tracking();
            Tracking.Client previous = tracking.current(blocked.client);
            Tracking.Client enclosing = tracking.executing(blocked.client);
            boolean served;
            try {
                served = type == blocked.type ? blocked.servant.serve(blocked.client, key.key())
                        : blocked.servant.keyGone(blocked.client, key.key());
            } finally {
                tracking.executed(enclosing);
                tracking.current(previous);
            }
            if (!served) {
                continue;
            }
            // Redis's updateStatsOnUnblock: the reply to a served client is sampled as "command-unblocking".
            long answerNanos = System.nanoTime() - started;
            if (latency.isOn()) {
                latency.addSampleIfNeeded("command-unblocking", answerNanos / 1_000_000);
            }
            unblock(blocked);
            answered(blocked, errorsBefore, answerNanos);
            byte[][] record = blocked.client.takeLogRecord();
            List<byte[][]> alsoLogged = blocked.client.takeAlsoLogged();
            if (alsoLogged != null && log != null) {
                log.appendAll(blocked.db, alsoLogged);
            } else if (record != null && log != null) {
                log.append(blocked.db, record);
            }
            blocked.client.connection().unblocked();
        }
    }

    /** Redis's CLIENT UNBLOCK: answers a blocked client as a timeout would, or with {@code error}; false if it is not blocked. */
    public boolean unblockEarly(Client client, String error) {
        Blocked blocked = client.blockedOn();
        if (blocked == null) {
            return false;
        }
        unblock(blocked);
        long errorsBefore = errorsSent(blocked);
        if (error == null) {
            client.reply().nullArray();
        } else {
            client.reply().error(error);
        }
        answered(blocked, errorsBefore, 0);
        client.connection().unblocked();
        return true;
    }

    /** The client's connection closed: it waits for nothing any more. */
    void disconnected(Client client) {
        Blocked blocked = client.blockedOn();
        if (blocked != null) {
            unblock(blocked);
        }
    }

    /** Answers every client whose deadline has come by {@code nowMs} with a null array, as Redis's timeout. */
    public void timeOut(long nowMs) {
        while (!byDeadline.isEmpty() && byDeadline.first().deadlineMs <= nowMs) {
            Blocked blocked = byDeadline.first();
            unblock(blocked);
            blocked.client.reply().nullArray();
            answered(blocked, errorsSent(blocked), 0);
            blocked.client.connection().unblocked();
        }
    }

    private static long errorsSent(Blocked blocked) {
        return blocked.client.server().errorStats().total();
    }

    /**
     * Redis's updateStatsOnUnblock: the blocked command's time grows by the wait, its latency is
     * tracked whole, and an error answer (CLIENT UNBLOCK ... ERROR) fails it; the slow log gets it
     * now, with what its runs took, not the wait.
     */
    private static void answered(Blocked blocked, long errorsBefore, long answerNanos) {
        ServerState server = blocked.client.server();
        server.commandStats().unblocked(blocked.command, System.nanoTime() - blocked.blockedAtNanos,
                errorsSent(blocked) != errorsBefore, server.config().latencyTracking());
        if (blocked.ran != null) {
            Dispatcher.logIfSlow(blocked.client, blocked.ran, blocked.shownArgv,
                    (blocked.ranNanos + answerNanos) / 1000);
        }
    }

    private void unblock(Blocked blocked) {
        for (byte[] key : blocked.keys) {
            DbKey dbKey = new DbKey(blocked.db, key);
            LinkedHashSet<Blocked> clients = waiting.get(dbKey);
            if (clients != null && clients.remove(blocked) && clients.isEmpty()) {
                waiting.remove(dbKey);
            }
        }
        if (blocked.deadlineMs > 0) {
            byDeadline.remove(blocked);
        }
        blockedCount--;
        blocked.client.blockedOn(null);
        if (blockedCount == 0) {
            readyKeys.clear();
            listeners.listenersChanged();
        }
    }

    /** Keeps one task scheduled for the earliest deadline; only an earlier one replaces it. */
    private void scheduleTimeouts() {
        if (timer == null || byDeadline.isEmpty()) {
            return;
        }
        long earliest = byDeadline.first().deadlineMs;
        if (timeoutTask != null && timeoutTaskAtMs <= earliest) {
            return;
        }
        if (timeoutTask != null) {
            timeoutTask.cancel(false);
        }
        timeoutTaskAtMs = earliest;
        long delayMs = Math.max(0, earliest - System.currentTimeMillis());
        timeoutTask = timer.schedule(() -> {
            timeoutTask = null;
            timeOut(System.currentTimeMillis());
            scheduleTimeouts();
        }, delayMs, TimeUnit.MILLISECONDS);
    }
}
