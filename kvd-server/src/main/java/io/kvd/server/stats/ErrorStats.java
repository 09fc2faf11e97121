package io.kvd.server.stats;

import java.util.Map;
import java.util.TreeMap;

/**
 * Error replies, as Redis 7.0's afterErrorReply counts them: every error a client (a script's
 * included) is sent, by its code, the first word ({@code errorstat_WRONGTYPE:count=3}), and in
 * total ({@code total_error_replies}). INFO errorstats lists the codes in byte order, as
 * Redis's rax of them.
 */
public final class ErrorStats {
    /** Redis looks for the space ending the code in the first 32 bytes; without one the code is ERR. */
    private static final int CODE_SEARCH_LENGTH = 32;

    private final Map<String, long[]> byCode = new TreeMap<>();
    private long total;
    /**
     * Errors a command failed with whose reply was not counted again, because the error was
     * counted when it happened (a script raising what redis.call returned): Redis's
     * ERR_REPLY_FLAG_NO_STATS_UPDATE, which still marks the command failed.
     */
    private long countedBefore;

    /** An error reply of {@code message} ("CODE text") is sent, or raised inside a script. */
    public void count(String message) {
        total++;
        int space = message.indexOf(' ');
        String code = space > 0 && space < CODE_SEARCH_LENGTH ? message.substring(0, space) : "ERR";
        byCode.computeIfAbsent(code, c -> new long[1])[0]++;
    }

    /** An error reply is sent that was counted when it happened: it fails the command but counts nothing. */
    public void sentCountedBefore() {
        countedBefore++;
    }

    /** total_error_replies */
    public long total() {
        return total;
    }

    /** What {@link CommandStats} compares before and after a command to find whether it failed. */
    long failures() {
        return total + countedBefore;
    }

    /** The count of each error code, in byte order of the codes. */
    public Map<String, long[]> byCode() {
        return byCode;
    }

    /** CONFIG RESETSTAT */
    public void reset() {
        byCode.clear();
        total = 0;
        countedBefore = 0;
    }
}
