package io.kvd.server.rdb;

/** RDB bytes (a file or a DUMP payload) that are not what Redis writes: truncated, corrupt or unknown. */
public final class RdbFormatException extends RuntimeException {
    public RdbFormatException(String message) {
        super(message, null, false, false);
    }
}
