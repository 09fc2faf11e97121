package io.kvd.server.protocol;

/**
 * Thrown by a command to answer with an error reply instead of its result. The dispatcher writes
 * the message and the command has no other effect. No stack trace: it is a reply, not a fault.
 */
public final class CommandError extends RuntimeException {
    public CommandError(String message) {
        super(message, null, false, false);
    }
}
