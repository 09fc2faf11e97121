package io.kvd.server.command;

/** Commands about the connection itself (Redis's PING, ECHO, QUIT, SELECT). */
final class ConnectionCommands {
    private ConnectionCommands() {
    }

    /** PING [message] */
    static void ping(Client client, byte[][] argv) {
        if (argv.length > 2) {
            throw new CommandError(Errors.wrongArity("ping"));
        }
        if (argv.length == 2) {
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

    /** SELECT index: kvd has database 0 only. */
    static void select(Client client, byte[][] argv) {
        long index = Args.parseLong(argv[1], "ERR value is not an integer or out of range");
        if (index != 0) {
            throw new CommandError(Errors.DB_INDEX_OUT_OF_RANGE);
        }
        client.reply().ok();
    }
}
