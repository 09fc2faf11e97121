package io.kvd.server.store;

/**
 * A command met a key holding another type than it works on. Thrown by the keyspace's typed
 * accessors and answered by the dispatcher with Redis's WRONGTYPE error; it carries no stack
 * trace, since it is an answer, not a fault.
 */
public final class WrongTypeException extends RuntimeException {
    public WrongTypeException() {
        super("WRONGTYPE Operation against a key holding the wrong kind of value", null, false, false);
    }
}
