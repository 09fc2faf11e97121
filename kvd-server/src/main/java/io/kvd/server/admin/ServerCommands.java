package io.kvd.server.admin;

import io.kvd.server.client.AofRewriteStatus;
import io.kvd.server.client.Client;
import io.kvd.server.client.Shutdown;
import io.kvd.server.protocol.Args;
import io.kvd.server.protocol.CommandError;
import io.kvd.server.protocol.Errors;
import io.kvd.server.rdb.RdbPersistence;
import io.kvd.server.store.Databases;

import java.time.Instant;

/** Whole-server commands: TIME, DBSIZE, FLUSHDB, FLUSHALL, SHUTDOWN, BGREWRITEAOF, MONITOR. */
public final class ServerCommands {

    private ServerCommands() {
    }

    /** TIME: unix seconds and microseconds, as two bulk strings, read fresh as Redis does. */
    public static void time(Client client, byte[][] argv) {
        Instant now = Instant.now();
        client.reply().arrayHeader(2);
        client.reply().bulk(Long.toString(now.getEpochSecond()));
        client.reply().bulk(Long.toString(now.getNano() / 1000));
    }

    public static void dbsize(Client client, byte[][] argv) {
        client.reply().integer(client.keyspace().size());
    }

    /**
     * FLUSHDB [ASYNC|SYNC]: both modes empty the database before replying, in O(1) whatever its
     * size (the store's arrays are dropped whole, and the collector frees them concurrently).
     */
    public static void flushdb(Client client, byte[][] argv) {
        checkFlushMode(argv);
        client.keyspace().clear();
        client.server().tracking().flushed();
        client.reply().ok();
    }

    /**
     * FLUSHALL [ASYNC|SYNC]: every database, as FLUSHDB. As Redis's flushallCommand, a running
     * BGSAVE is abandoned (its data is gone) and, with save points set, the empty dataset saved.
     */
    public static void flushall(Client client, byte[][] argv) {
        checkFlushMode(argv);
        client.server().databases().clear();
        client.server().tracking().flushed();
        RdbPersistence rdb = client.server().rdb();
        rdb.close();
        if (rdb.hasSavePoints()) {
            rdb.saveFlushed();
        }
        client.reply().ok();
    }

    private static void checkFlushMode(byte[][] argv) {
        if (argv.length > 2 || argv.length == 2 && !Args.is(argv[1], "async") && !Args.is(argv[1], "sync")) {
            throw new CommandError(Errors.SYNTAX);
        }
    }

    /** SWAPDB index1 index2: clients stay on their database numbers and see the other contents. */
    public static void swapdb(Client client, byte[][] argv) {
        if (client.server().config().cluster() != null) {
            throw new CommandError("ERR SWAPDB is not allowed in cluster mode");
        }
        int first = Args.parseInt(argv[1], "ERR invalid first DB index");
        int second = Args.parseInt(argv[2], "ERR invalid second DB index");
        Databases databases = client.server().databases();
        if (first < 0 || first >= databases.count() || second < 0 || second >= databases.count()) {
            throw new CommandError(Errors.DB_INDEX_OUT_OF_RANGE);
        }
        databases.swap(first, second);
        client.reply().ok();
    }

    /**
     * SHUTDOWN [NOSAVE|SAVE] [NOW] [FORCE] [ABORT], as Redis 7.0's shutdownCommand: no reply when it
     * succeeds (the connection closes with the server); while the server waits for its replicas
     * ({@link Shutdown}) the client waits too, and ABORT ends the wait.
     */
    public static void shutdown(Client client, byte[][] argv) {
        boolean save = false;
        boolean nosave = false;
        boolean now = false;
        boolean force = false;
        boolean abort = false;
        for (int i = 1; i < argv.length; i++) {
            if (Args.is(argv[i], "nosave")) {
                nosave = true;
            } else if (Args.is(argv[i], "save")) {
                save = true;
            } else if (Args.is(argv[i], "now")) {
                now = true;
            } else if (Args.is(argv[i], "force")) {
                force = true;
            } else if (Args.is(argv[i], "abort")) {
                abort = true;
            } else {
                throw new CommandError(Errors.SYNTAX);
            }
        }
        if (save && nosave || abort && (save || nosave || now || force)) {
            throw new CommandError(Errors.SYNTAX);
        }
        Shutdown shutdown = client.server().shutdownSequence();
        if (abort) {
            if (!shutdown.abort()) {
                throw new CommandError("ERR No shutdown in progress.");
            }
            client.reply().ok();
            return;
        }
        if (!now && !client.mayBlock()) {
            throw new CommandError("ERR SHUTDOWN without NOW or ABORT isn't allowed for DENY BLOCKING client");
        }
        // As Redis: a script past busy-reply-threshold is only abandoned without saving.
        String busy = client.server().scripting().busyError();
        if (busy != null && !nosave) {
            throw new CommandError(busy);
        }
        shutdown.requestedBy(client, new Shutdown.Flags(save, nosave, now, force));
    }

    /**
     * BGREWRITEAOF: starts rewriting the AOF from the keyspace and replies at once; the rewrite
     * runs in steps between commands. As Redis 7, it runs with appendonly off too (the file is
     * written, not used).
     */
    public static void bgrewriteaof(Client client, byte[][] argv) {
        AofRewriteStatus rewrite = client.server().aofRewrite();
        if (rewrite.inProgress()) {
            throw new CommandError("ERR Background append only file rewriting already in progress");
        }
        // As Redis with a child running or inside EXEC: the rewrite starts once the BGSAVE or
        // the transaction ended (a snapshot in the middle of EXEC would hold half of it).
        RdbPersistence rdb = client.server().rdb();
        if (rdb.inProgress() || client.server().commandLog().inExec()) {
            rewrite.schedule();
            client.reply().simpleString("Background append only file rewriting scheduled");
            return;
        }
        if (!rewrite.start()) {
            throw new CommandError("ERR Can't execute an AOF background rewriting. "
                    + "Please check the server logs for more information.");
        }
        client.reply().simpleString("Background append only file rewriting started");
    }

    /**
     * MONITOR: from now on the client receives every command run ({@link Dispatcher#run}). As
     * Redis's monitorCommand: refused where a reply per command is expected (inside EXEC), and
     * silent, without a reply, for a client already monitoring.
     */
    public static void monitor(Client client, byte[][] argv) {
        if (!client.mayBlock()) {
            throw new CommandError("ERR MONITOR isn't allowed for DENY BLOCKING client");
        }
        if (client.isMonitoring()) {
            return;
        }
        client.startMonitoring();
        client.reply().ok();
    }
}
