package io.kvd.server.command;

import io.kvd.server.acl.AccessControl;
import io.kvd.server.acl.AclLog;
import io.kvd.server.client.Client;
import io.kvd.server.client.Dispatcher;
import io.kvd.server.client.Transaction;
import io.kvd.server.client.WatchedKeys;
import io.kvd.server.propagate.CommandLog;
import io.kvd.server.protocol.CommandError;
/**
 * MULTI, EXEC, DISCARD, WATCH, UNWATCH (Redis 7.0's multi.c). Queuing itself is the dispatcher's
 * ({@link CommandTable#call}), since the checks made before a command is queued are its checks.
 */
final class TransactionCommands {
    static final String EXECABORT = "EXECABORT Transaction discarded because of previous errors.";

    private TransactionCommands() {
    }

    /** MULTI */
    static void multi(Client client, byte[][] argv) {
        if (client.transaction() != null) {
            throw new CommandError("ERR MULTI calls can not be nested");
        }
        client.beginTransaction();
        client.reply().ok();
    }

    /**
     * EXEC: null array if a watched key changed, EXECABORT if a command was refused while
     * queuing, else the array of the queued commands' replies, each written by the command as it
     * runs (its errors are elements too).
     */
    static void exec(Client client, byte[][] argv) {
        Transaction transaction = client.transaction();
        if (transaction == null) {
            throw new CommandError("ERR EXEC without MULTI");
        }
        WatchedKeys watched = client.server().watchedKeys();
        if (watched.anyExpired(client)) {
            client.watchedKeyChanged();
        }
        if (transaction.isRefused() || client.isWatchedKeyChanged()) {
            client.discardTransaction();
            if (transaction.isRefused()) {
                client.reply().error(EXECABORT);
            } else {
                client.reply().nullArray();
            }
            return;
        }
        // As Redis: the watches go before the commands run, the transaction (CLIENT LIST's x) after.
        watched.unwatchAll(client);
        CommandLog log = client.server().commandLog();
        log.beginTransaction();
        try {
            client.reply().arrayHeader(transaction.queued().size());
            for (Transaction.Queued queued : transaction.queued()) {
                // As Redis's execCommand: the rules are checked again, in case they changed since queuing.
                byte[][] queuedArgv = queued.argv();
                AccessControl.Denial denial = Dispatcher.checkAccess(client, client,
                        queued.command().lookedUp(queuedArgv), queuedArgv, AclLog.Context.MULTI);
                if (denial != null) {
                    client.reply().error("NOPERM ACLs rules changed between the moment the transaction was accumulated"
                            + " and the EXEC call. This command is no longer allowed for the following reason: "
                            + switch (denial.reason()) {
                                case COMMAND -> "no permission to execute the command or subcommand";
                                case KEY -> "no permission to touch the specified keys";
                                default -> "no permission to access one of the channels used as arguments";
                            });
                } else {
                    Dispatcher.run(client, queued.command(), queuedArgv);
                }
            }
        } finally {
            client.discardTransaction();
            log.endTransaction();
        }
    }

    /** DISCARD */
    static void discard(Client client, byte[][] argv) {
        if (client.transaction() == null) {
            throw new CommandError("ERR DISCARD without MULTI");
        }
        client.discardTransaction();
        client.reply().ok();
    }

    /** WATCH key [key ...] */
    static void watch(Client client, byte[][] argv) {
        if (client.transaction() != null) {
            throw new CommandError("ERR WATCH inside MULTI is not allowed");
        }
        // As Redis: once a watched key changed, watching more cannot make EXEC succeed.
        if (!client.isWatchedKeyChanged()) {
            for (int i = 1; i < argv.length; i++) {
                client.server().watchedKeys().watch(client, argv[i]);
            }
        }
        client.reply().ok();
    }

    /** UNWATCH */
    static void unwatch(Client client, byte[][] argv) {
        client.server().watchedKeys().unwatchAll(client);
        client.clearWatchedKeyChanged();
        client.reply().ok();
    }
}
