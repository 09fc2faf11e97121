package io.kvd.server.aof;

/** Bytes in an AOF that are not a record (garbage, not a torn end): loading stops there. */
public final class AofFormatException extends Exception {
    private final long offset;
    private final long validUpTo;
    /** The name of a command kvd does not know, or null for bytes that are not a record. */
    private final String unknownCommand;

    AofFormatException(String problem, long offset, long validUpTo) {
        this(problem, offset, validUpTo, null);
    }

    private AofFormatException(String problem, long offset, long validUpTo, String unknownCommand) {
        super(problem + " at offset " + offset);
        this.offset = offset;
        this.validUpTo = validUpTo;
        this.unknownCommand = unknownCommand;
    }

    static AofFormatException unknownCommand(String name, long offset) {
        return new AofFormatException("unknown command '" + name + "'", offset, offset, name);
    }

    String unknownCommand() {
        return unknownCommand;
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
