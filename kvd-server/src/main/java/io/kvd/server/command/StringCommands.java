package io.kvd.server.command;

import io.kvd.server.store.Keyspace;

import java.nio.charset.StandardCharsets;

/** String commands (Redis's t_string.c). */
final class StringCommands {
    private StringCommands() {
    }

    /** GET key */
    static void get(Client client, byte[][] argv) {
        client.reply().bulk(client.keyspace().get(argv[1]));
    }

    /** SET key value */
    static void set(Client client, byte[][] argv) {
        client.keyspace().put(argv[1], argv[2], Keyspace.PERSISTENT);
        client.reply().ok();
    }

    /** INCR key */
    static void incr(Client client, byte[][] argv) {
        Keyspace keyspace = client.keyspace();
        byte[] old = keyspace.get(argv[1]);
        long value = old == null ? 0 : Args.parseLong(old);
        if (value == Long.MAX_VALUE) {
            throw new CommandError(Errors.OVERFLOW);
        }
        value++;
        keyspace.putKeepingDeadline(argv[1], Long.toString(value).getBytes(StandardCharsets.US_ASCII));
        client.reply().integer(value);
    }
}
