package io.kvd.server.admin;

import io.kvd.server.client.Client;
import io.kvd.server.client.ServerState;
import io.kvd.server.protocol.Args;
import io.kvd.server.protocol.CommandError;
import io.kvd.server.protocol.Errors;
import io.kvd.server.rdb.RdbFormatException;
import io.kvd.server.rdb.RdbPersistence;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;

/** SAVE, BGSAVE [SCHEDULE], LASTSAVE and DEBUG RELOAD, over {@link RdbPersistence} (Redis's rdb.c and debug.c). */
public final class PersistenceCommands {
    private static final Logger log = LoggerFactory.getLogger(PersistenceCommands.class);
    private static final String BGSAVE_RUNNING = "ERR Background save already in progress";
    /** Redis's shared.bgsaveerr, for writes refused after a failed BGSAVE. */

    private PersistenceCommands() {
    }

    /** SAVE: the snapshot written before the reply, nothing else served meanwhile. */
    public static void save(Client client, byte[][] argv) {
        RdbPersistence rdb = client.server().rdb();
        if (rdb.inProgress()) {
            throw new CommandError(BGSAVE_RUNNING);
        }
        if (!rdb.save()) {
            throw new CommandError("ERR");
        }
        client.reply().ok();
    }

    /** BGSAVE [SCHEDULE]: inside EXEC, or beside an AOF rewrite with SCHEDULE, it waits for its turn. */
    public static void bgsave(Client client, byte[][] argv) {
        boolean schedule = false;
        if (argv.length > 1) {
            if (argv.length != 2 || !Args.is(argv[1], "schedule")) {
                throw new CommandError(Errors.SYNTAX);
            }
            schedule = true;
        }
        RdbPersistence.Start start = client.server().rdb().bgsave(schedule, client.server().commandLog().inExec());
        switch (start) {
            case STARTED -> client.reply().simpleString("Background saving started");
            case SCHEDULED -> client.reply().simpleString("Background saving scheduled");
            case ALREADY_RUNNING -> throw new CommandError(BGSAVE_RUNNING);
            case OTHER_SNAPSHOT_RUNNING -> throw new CommandError("ERR Another child process is active (AOF?): can't "
                    + "BGSAVE right now. Use BGSAVE SCHEDULE in order to schedule a BGSAVE whenever possible.");
        }
    }

    /** LASTSAVE: unix time of the last successful save. */
    public static void lastsave(Client client, byte[][] argv) {
        client.reply().integer(client.server().rdb().lastSaveSeconds());
    }

    /**
     * DEBUG RELOAD [MERGE] [NOFLUSH] [NOSAVE]: save (unless NOSAVE), empty the databases and the
     * function libraries (unless NOFLUSH), load the file again. Without MERGE a key or library
     * still present makes the load fail, as in Redis.
     */
    static void reload(Client client, byte[][] argv) {
        boolean flush = true;
        boolean save = true;
        boolean merge = false;
        for (int i = 2; i < argv.length; i++) {
            if (Args.is(argv[i], "merge")) {
                merge = true;
            } else if (Args.is(argv[i], "noflush")) {
                flush = false;
            } else if (Args.is(argv[i], "nosave")) {
                save = false;
            } else {
                throw new CommandError("ERR DEBUG RELOAD only supports the MERGE, NOFLUSH and NOSAVE options.");
            }
        }
        ServerState server = client.server();
        if (save && !server.rdb().save()) {
            throw new CommandError("ERR");
        }
        if (flush) {
            server.databases().clear();
            // As Redis's emptyData: every tracking client is told that every key is invalid.
            server.tracking().flushed();
            server.scripting().flushFunctions();
        }
        try {
            server.loadRdb(merge);
        } catch (IOException | RdbFormatException e) {
            log.warn("Error trying to load the RDB dump: {}", e.getMessage());
            throw new CommandError("ERR Error trying to load the RDB dump, check server logs.");
        }
        log.warn("DB reloaded by DEBUG RELOAD");
        client.reply().ok();
    }

    /**
     * DEBUG LOADAOF: the AOF written out, the databases emptied, the AOF's files loaded again
     * (a file that does not load stops the server, as in Redis).
     */
    static void loadAof(Client client) {
        ServerState server = client.server();
        server.databases().clear();
        server.tracking().flushed();
        server.scripting().flushFunctions();
        server.aofRewrite().load();
        client.reply().ok();
    }
}
