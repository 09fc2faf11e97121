package io.kvd.server;

/**
 * A port that could not be bound: Redis's "Failed listening on port ... aborting", which scripts
 * and Redis's own test harness read to retry on another port.
 */
public final class ListenFailedException extends IllegalStateException {
    ListenFailedException(String message, Throwable cause) {
        super(message, cause);
    }
}
