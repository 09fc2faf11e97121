package io.kvd.server.command;

import io.kvd.server.client.Client;
import io.kvd.server.cluster.MigrateSockets;
import io.kvd.server.config.Config;
import io.kvd.server.protocol.Args;
import io.kvd.server.protocol.CommandError;
import io.kvd.server.protocol.Errors;
import io.kvd.server.rdb.RdbWriter;
import io.kvd.server.rdb.StoredValues;
import io.kvd.server.store.Keyspace;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static io.kvd.server.config.KeyspaceEventTypes.GENERIC;

/**
 * MIGRATE host port key|"" destination-db timeout [COPY] [REPLACE] [AUTH password | AUTH2
 * username password] [KEYS key [key ...]], as Redis 7.0's migrateCommand (cluster.c): each
 * existing key goes to the target as {@code RESTORE key ttl payload [REPLACE]} (RESTORE-ASKING
 * with cluster-enabled), after AUTH and a SELECT the cached connection does not already have,
 * all in one write; the keys the target acknowledged are deleted here unless COPY, and logged as
 * one DEL.
 *
 * <p>It runs on the event loop and blocks it for up to {@code timeout} ms per step, as Redis
 * blocks its one thread: the command's semantics (the keys gone from here exactly when the reply
 * says so, no other command in between) are Redis's, and the timeout is the operator's bound.
 */
final class MigrateCommand {
    private static final String IOERR_CONNECTING = "IOERR error or timeout connecting to the client";

    private MigrateCommand() {
    }

    static void migrate(Client client, byte[][] argv) {
        boolean copy = false;
        boolean replace = false;
        byte[] username = null;
        byte[] password = null;
        int firstKey = 3;
        int keyCount = 1;
        for (int j = 6; j < argv.length; j++) {
            int more = argv.length - 1 - j;
            if (Args.is(argv[j], "copy")) {
                copy = true;
            } else if (Args.is(argv[j], "replace")) {
                replace = true;
            } else if (Args.is(argv[j], "auth")) {
                if (more < 1) {
                    throw new CommandError(Errors.SYNTAX);
                }
                password = argv[++j];
                client.redactArgument(argv, j);
            } else if (Args.is(argv[j], "auth2")) {
                if (more < 2) {
                    throw new CommandError(Errors.SYNTAX);
                }
                username = argv[++j];
                client.redactArgument(argv, j);
                password = argv[++j];
                client.redactArgument(argv, j);
            } else if (Args.is(argv[j], "keys")) {
                if (argv[3].length != 0) {
                    throw new CommandError("ERR When using MIGRATE KEYS option, the key argument must be set to the empty string");
                }
                firstKey = j + 1;
                keyCount = argv.length - j - 1;
                break;
            } else {
                throw new CommandError(Errors.SYNTAX);
            }
        }
        long timeout = Args.parseLong(argv[5], Errors.NOT_AN_INTEGER);
        long db = Args.parseLong(argv[4], Errors.NOT_AN_INTEGER);
        if (timeout <= 0) {
            timeout = 1000;
        }
        // As Redis: nothing to move is no error (the keys may just have expired).
        Keyspace keyspace = client.keyspace();
        List<byte[]> keys = new ArrayList<>();
        for (int j = 0; j < keyCount; j++) {
            if (keyspace.exists(argv[firstKey + j])) {
                keys.add(argv[firstKey + j]);
            }
        }
        if (keys.isEmpty()) {
            client.reply().simpleString("NOKEY");
            return;
        }
        new Migration(client, new String(argv[1], StandardCharsets.ISO_8859_1),
                new String(argv[2], StandardCharsets.ISO_8859_1), copy, replace, username, password, db, timeout).run(keys);
    }

    /** One MIGRATE's transfer: Redis's try_again and socket_err labels as a loop of at most two attempts. */
    private record Migration(Client client, String host, String port, boolean copy, boolean replace,
                             byte[] username, byte[] password, long db, long timeout) {
        private static final byte[] DEL = Args.bytes("DEL");

        void run(List<byte[]> keys) {
            MigrateSockets sockets = client.server().migrateSockets();
            boolean mayRetry = true;
            while (true) {
                MigrateSockets.Target target;
                try {
                    target = sockets.get(host, port, timeout, System.currentTimeMillis());
                } catch (IOException e) {
                    client.reply().error(IOERR_CONNECTING);
                    return;
                }
                boolean select = target.lastDb() != db;
                List<byte[]> sent = new ArrayList<>();
                byte[] request = request(keys, select, sent);
                boolean writing = true;
                try {
                    target.write(request, timeout);
                    writing = false;
                    String authReply = password == null ? null : readLine(target);
                    String selectReply = select ? readLine(target) : null;
                    restoreReplies(target, sent, authReply, selectReply, mayRetry);
                    return;
                } catch (IOException e) {
                    sockets.close(host, port);
                    // Retry once on a fresh connection (the cached one may have been closed by the
                    // target), never after a timeout: the target may still be working on it.
                    if (!(e instanceof SocketTimeoutException) && mayRetry) {
                        mayRetry = false;
                        continue;
                    }
                    client.reply().error("IOERR error or timeout " + (writing ? "writing" : "reading") + " to target instance");
                    return;
                }
            }
        }

        /**
         * Reads one reply per RESTORE sent, deleting each acknowledged key unless COPY, and
         * answers; throws (nothing answered, nothing deleted) when the first reply could not be
         * read and a retry is allowed.
         */
        private void restoreReplies(MigrateSockets.Target target, List<byte[]> sent, String authReply,
                                       String selectReply, boolean mayRetry) throws IOException {
            boolean errorFromTarget = false;
            IOException socketError = null;
            List<byte[]> deleted = new ArrayList<>();
            int j;
            for (j = 0; j < sent.size(); j++) {
                String reply;
                try {
                    reply = readLine(target);
                } catch (IOException e) {
                    socketError = e;
                    break;
                }
                String error = authReply != null && authReply.startsWith("-") ? authReply
                        : selectReply != null && selectReply.startsWith("-") ? selectReply
                        : reply.startsWith("-") ? reply : null;
                if (error != null) {
                    if (!errorFromTarget) {
                        target.lastDb(-1);
                        errorFromTarget = true;
                        client.reply().error("ERR Target instance replied with error: " + error.substring(1));
                    }
                } else if (!copy) {
                    byte[] key = sent.get(j);
                    client.keyspace().remove(key);
                    client.events().notify(GENERIC, "del", key, client.db());
                    deleted.add(key);
                }
            }
            if (!errorFromTarget && socketError != null && j == 0 && mayRetry
                    && !(socketError instanceof SocketTimeoutException)) {
                throw socketError;
            }
            if (!deleted.isEmpty()) {
                byte[][] record = new byte[deleted.size() + 1][];
                record[0] = DEL;
                for (int i = 0; i < deleted.size(); i++) {
                    record[i + 1] = deleted.get(i);
                }
                client.logAs(record);
            }
            if (socketError != null) {
                // No retry: some keys may have moved already. A target's error was answered.
                client.server().migrateSockets().close(host, port);
                if (!errorFromTarget) {
                    client.reply().error("IOERR error or timeout reading to target instance");
                }
                return;
            }
            if (!errorFromTarget) {
                target.lastDb(db);
                client.reply().ok();
            }
        }

        /** The pipelined AUTH, SELECT and RESTOREs; {@code sent} gets the keys a RESTORE was written for. */
        private byte[] request(List<byte[]> keys, boolean select, List<byte[]> sent) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            if (password != null) {
                if (username != null) {
                    command(out, Args.bytes("AUTH"), username, password);
                } else {
                    command(out, Args.bytes("AUTH"), password);
                }
            }
            if (select) {
                command(out, Args.bytes("SELECT"), decimal(db));
            }
            Keyspace keyspace = client.keyspace();
            boolean compression = "yes".equals(client.server().config().get(Config.RDBCOMPRESSION));
            byte[] restore = Args.bytes("yes".equals(client.server().config().get(Config.CLUSTER_ENABLED))
                    ? "RESTORE-ASKING" : "RESTORE");
            for (byte[] key : keys) {
                long deadline = keyspace.deadline(key);
                if (deadline == Keyspace.MISSING) {
                    continue;
                }
                long ttl = deadline == Keyspace.PERSISTENT ? 0 : Math.max(1, deadline - keyspace.now());
                byte[] payload = RdbWriter.dumpPayload(StoredValues.read(keyspace, key), keyspace.limits(), compression);
                if (replace) {
                    command(out, restore, key, decimal(ttl), payload, Args.bytes("REPLACE"));
                } else {
                    command(out, restore, key, decimal(ttl), payload);
                }
                sent.add(key);
            }
            return out.toByteArray();
        }

        private String readLine(MigrateSockets.Target target) throws IOException {
            String line = target.readLine(timeout);
            if (line == null) {
                throw new IOException("empty reply line");
            }
            return line;
        }

        private static void command(ByteArrayOutputStream out, byte[]... args) {
            out.writeBytes(("*" + args.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
            for (byte[] arg : args) {
                out.writeBytes(("$" + arg.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
                out.writeBytes(arg);
                out.writeBytes(new byte[] {'\r', '\n'});
            }
        }

        private static byte[] decimal(long value) {
            return Long.toString(value).getBytes(StandardCharsets.US_ASCII);
        }
    }
}
