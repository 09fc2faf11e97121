package io.kvd.server.admin;

import io.kvd.server.client.Client;
import io.kvd.server.client.Command;
import io.kvd.server.client.Subcommands;
import io.kvd.server.protocol.Args;
import io.kvd.server.protocol.CommandError;
import io.kvd.server.protocol.Reply;
import io.kvd.server.slowlog.SlowLog;

import java.util.List;
import java.util.Set;

/** SLOWLOG GET | LEN | RESET | HELP over the server's {@link SlowLog}, as Redis 7.0's slowlog.c. */
public final class SlowlogCommand {
    public static final Subcommands SUBCOMMANDS = new Subcommands("slowlog")
            .add("get", -2, Set.of(Command.Flag.ADMIN), SlowlogCommand::get,
                    "GET [<count>]",
                    "    Return top <count> entries from the slowlog (default: 10, -1 mean all).",
                    "    Entries are made of:",
                    "    id, timestamp, time in microseconds, arguments array, client IP and port,",
                    "    client name")
            .add("len", 2, Set.of(Command.Flag.ADMIN), SlowlogCommand::len,
                    "LEN",
                    "    Return the length of the slowlog.")
            .add("reset", 2, Set.of(Command.Flag.ADMIN), SlowlogCommand::reset,
                    "RESET",
                    "    Reset the slowlog.")
            .withHelp();

    private SlowlogCommand() {
    }

    public static void slowlog(Client client, byte[][] argv) {
        SUBCOMMANDS.dispatch(client, argv);
    }

    /** SLOWLOG GET [count]: the newest count entries (10 by default, -1 all), newest first. */
    private static void get(Client client, byte[][] argv) {
        if (argv.length > 3) {
            throw new CommandError("ERR unknown subcommand or wrong number of arguments for '" + Args.utf8(argv[1])
                    + "'. Try SLOWLOG HELP.");
        }
        long count = 10;
        if (argv.length == 3) {
            count = Args.parseLong(argv[2], "ERR count should be greater than or equal to -1");
            if (count < -1) {
                throw new CommandError("ERR count should be greater than or equal to -1");
            }
        }
        List<SlowLog.Entry> entries = client.server().slowLog().newest(count);
        Reply reply = client.reply();
        reply.arrayHeader(entries.size());
        for (SlowLog.Entry entry : entries) {
            reply.arrayHeader(6);
            reply.integer(entry.id());
            reply.integer(entry.timestampSeconds());
            reply.integer(entry.durationMicros());
            reply.arrayHeader(entry.argv().length);
            for (byte[] arg : entry.argv()) {
                reply.bulk(arg);
            }
            reply.bulk(entry.clientAddress());
            reply.bulk(entry.clientName());
        }
    }

    private static void len(Client client, byte[][] argv) {
        client.reply().integer(client.server().slowLog().length());
    }

    private static void reset(Client client, byte[][] argv) {
        client.server().slowLog().reset();
        client.reply().ok();
    }
}
