package io.kvd.server.command;

/** Commands on keys of any type (Redis's db.c). */
final class KeyCommands {
    private KeyCommands() {
    }

    /** DEL key [key ...] */
    static void del(Client client, byte[][] argv) {
        int removed = 0;
        for (int i = 1; i < argv.length; i++) {
            if (client.keyspace().remove(argv[i])) {
                removed++;
            }
        }
        client.reply().integer(removed);
    }
}
