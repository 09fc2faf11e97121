package io.kvd.server.command;

/** Runs one command: arity is already checked; the reply goes to {@code client.reply()}. */
@FunctionalInterface
public interface CommandHandler {
    void execute(Client client, byte[][] argv);
}
