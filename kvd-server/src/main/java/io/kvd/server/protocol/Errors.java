package io.kvd.server.protocol;

/** Error replies shared by several commands, with Redis 7's exact texts (server.c's shared objects). */
public final class Errors {
    public static final String SYNTAX = "ERR syntax error";
    public static final String NOT_AN_INTEGER = "ERR value is not an integer or out of range";
    public static final String NOT_A_FLOAT = "ERR value is not a valid float";
    public static final String OVERFLOW = "ERR increment or decrement would overflow";
    public static final String NAN_OR_INFINITY_RESULT = "ERR increment would produce NaN or Infinity";
    public static final String NO_SUCH_KEY = "ERR no such key";
    public static final String DB_INDEX_OUT_OF_RANGE = "ERR DB index is out of range";
    public static final String SAME_OBJECT = "ERR source and destination objects are the same";

    private Errors() {
    }

    public static String wrongArity(String commandName) {
        return "ERR wrong number of arguments for '" + commandName + "' command";
    }

    /** Redis's writeCommandsGetDiskErrorMessage for a failing AOF; {@code reason} is the system's message. */
    public static String aofFailing(String reason) {
        return "MISCONF Errors writing to the AOF file: " + reason;
    }

    public static String invalidExpireTime(String commandName) {
        return "ERR invalid expire time in '" + commandName + "' command";
    }
}
