package io.kvd.server.client;

/**
 * Runs one command: arity is already checked; the reply goes to {@code client.reply()}. The
 * arrays of {@code argv} are the caller's once it returns (the AOF replay refills them with the
 * next records), so a command copies what it keeps, as the keyspace does.
 */
@FunctionalInterface
public interface CommandHandler {
    void execute(Client client, byte[][] argv);
}
