package io.kvd.server.command;

import io.kvd.server.admin.ClientCommand;
import io.kvd.server.admin.Version;
import io.kvd.server.client.Client;
import io.kvd.server.client.Authentication;
import io.kvd.server.protocol.Args;
import io.kvd.server.protocol.CommandError;
import io.kvd.server.protocol.Errors;
import io.kvd.server.protocol.Reply;
import io.kvd.server.store.Keyspace;

/** Commands about the connection itself (Redis's PING, ECHO, QUIT, SELECT, HELLO). */
final class ConnectionCommands {
    private ConnectionCommands() {
    }

    private static final byte[] PONG = Args.bytes("pong");

    /** PING [message]: a subscribed RESP2 client gets a two-element array, {@code pong} and the message or "". */
    static void ping(Client client, byte[][] argv) {
        if (argv.length > 2) {
            throw new CommandError(Errors.wrongArity("ping"));
        }
        if (client.isSubscribed() && client.reply().protocol() == 2) {
            client.reply().arrayHeader(2);
            client.reply().bulk(PONG);
            client.reply().bulk(argv.length == 2 ? argv[1] : new byte[0]);
        } else if (argv.length == 2) {
            client.reply().bulk(argv[1]);
        } else {
            client.reply().pong();
        }
    }

    /** ECHO message */
    static void echo(Client client, byte[][] argv) {
        client.reply().bulk(argv[1]);
    }

    /** QUIT: +OK, then the connection closes once that reply is sent. */
    static void quit(Client client, byte[][] argv) {
        client.reply().ok();
        client.closeAfterReply();
    }

    /** RESET: the connection back to how it started ({@link Client#reset}); runs at once inside MULTI. */
    static void reset(Client client, byte[][] argv) {
        client.reset();
        client.reply().simpleString("RESET");
    }

    /** SELECT index: with cluster-enabled, database 0 only, as Redis. */
    static void select(Client client, byte[][] argv) {
        int index = Args.parseInt(argv[1], Errors.NOT_AN_INTEGER);
        if (index != 0 && client.server().config().cluster() != null) {
            throw new CommandError("ERR SELECT is not allowed in cluster mode");
        }
        client.select(database(client, index).index());
        client.reply().ok();
    }

    /** Database {@code index}, else Redis's out-of-range error. */
    static Keyspace database(Client client, int index) {
        if (index < 0 || index >= client.server().databases().count()) {
            throw new CommandError(Errors.DB_INDEX_OUT_OF_RANGE);
        }
        return client.server().keyspace(index);
    }

    /** AUTH [username] password */
    static void auth(Client client, byte[][] argv) {
        if (argv.length > 3) {
            throw new CommandError(Errors.SYNTAX);
        }
        // As Redis's authCommand: the password (and user name) never reach the slow log or MONITOR.
        for (int i = 1; i < argv.length; i++) {
            client.redactArgument(argv, i);
        }
        if (argv.length == 2 && !Authentication.passwordRequired(client)) {
            throw new CommandError("ERR AUTH <password> called without any password configured for the default user. "
                    + "Are you sure your configuration is correct?");
        }
        byte[] username = argv.length == 3 ? argv[1] : Args.bytes("default");
        Authentication.authenticate(client, username, argv[argv.length - 1], argv[0]);
        client.reply().ok();
    }

    /**
     * HELLO [protover [AUTH username password] [SETNAME clientname]]: switches the connection to
     * RESP2 or RESP3, after authenticating it if asked; answers the server's facts as a map, in the
     * protocol just chosen.
     */
    static void hello(Client client, byte[][] argv) {
        long version = 0;
        if (argv.length >= 2) {
            version = Args.parseLong(argv[1], "ERR Protocol version is not an integer or out of range");
            if (version < 2 || version > 3) {
                throw new CommandError("NOPROTO unsupported protocol version");
            }
        }
        byte[] username = null;
        byte[] password = null;
        byte[] name = null;
        for (int i = 2; i < argv.length; i++) {
            int more = argv.length - 1 - i;
            if (Args.is(argv[i], "AUTH") && more >= 2) {
                client.redactArgument(argv, i + 1);
                client.redactArgument(argv, i + 2);
                username = argv[i + 1];
                password = argv[i + 2];
                i += 2;
            } else if (Args.is(argv[i], "SETNAME") && more >= 1) {
                name = argv[++i];
                ClientCommand.validateName(name);
            } else {
                throw new CommandError("ERR Syntax error in HELLO option '" + Args.utf8(argv[i]) + "'");
            }
        }
        if (username != null) {
            Authentication.authenticate(client, username, password, argv[0]);
        } else if (!client.isAuthenticated()) {
            throw new CommandError("NOAUTH HELLO must be called with the client already authenticated, otherwise the "
                    + "HELLO AUTH <user> <pass> option can be used to authenticate the client and select "
                    + "the RESP protocol version at the same time");
        }
        if (name != null) {
            client.setName(Args.utf8(name));
        }
        Reply reply = client.reply();
        if (version != 0) {
            reply.protocol((int) version);
        }
        reply.mapHeader(7);
        reply.bulk("server");
        reply.bulk("redis");
        reply.bulk("version");
        reply.bulk(Version.REDIS);
        reply.bulk("proto");
        reply.integer(reply.protocol());
        reply.bulk("id");
        reply.integer(client.id());
        reply.bulk("mode");
        reply.bulk("standalone");
        reply.bulk("role");
        reply.bulk("master");
        reply.bulk("modules");
        reply.arrayHeader(0);
    }
}
