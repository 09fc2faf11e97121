package io.kvd.server.aof;

/** Bytes in an AOF that are not a record (garbage, not a torn end): loading stops there. */
public final class AofFormatException extends Exception {
    private final long offset;
    private final long validUpTo;

    AofFormatException(String problem, long offset, long validUpTo) {
        super(problem + " at offset " + offset);
        this.offset = offset;
        this.validUpTo = validUpTo;
    }

    /** The first byte that is wrong. */
    public long offset() {
        return offset;
    }

    /** The end of the last complete record before it: where {@code --check-aof --fix} truncates. */
    public long validUpTo() {
        return validUpTo;
    }
}
