package io.kvd.server.client;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What a client queued between MULTI and EXEC (Redis's multiState), and whether a command was
 * refused meanwhile (CLIENT_DIRTY_EXEC), which makes EXEC answer EXECABORT.
 */
public final class Transaction {
    /** One queued command, its arguments copied: the caller's arrays are reused once a command returns. */
    public record Queued(Command command, byte[][] argv) {
    }

    private final List<Queued> queued = new ArrayList<>();
    private boolean refusedCommand;
    private boolean writes;
    /** What the queue holds, as {@link #memory} reports it. */
    private long memory;

    /** A queued command's own object and argument array, estimated for a 64-bit JVM. */
    private static final long QUEUED_OVERHEAD = 32;

    void queue(Command command, byte[][] argv) {
        byte[][] copy = new byte[argv.length][];
        memory += QUEUED_OVERHEAD;
        for (int i = 0; i < argv.length; i++) {
            copy[i] = Arrays.copyOf(argv[i], argv[i].length);
            memory += Client.ARGUMENT_OVERHEAD + argv[i].length;
        }
        queued.add(new Queued(command, copy));
        writes |= command.lookedUp(argv).has(Command.Flag.WRITE);
    }

    /** The memory of the queued commands' copies (Redis's mstate.argv_len_sums and multiCmd array). */
    long memory() {
        return memory;
    }

    public List<Queued> queued() {
        return queued;
    }

    /** A command was refused while queuing: EXEC will discard the transaction (Redis's flagTransaction). */
    void refuseExec() {
        refusedCommand = true;
    }

    public boolean isRefused() {
        return refusedCommand;
    }

    /** True if a queued command is a write: EXEC then counts as one (the AOF failure check). */
    boolean hasWrites() {
        return writes;
    }

    /** True if every queued command may run on a replica cut from its primary (Redis's cmd_inv_flags lacks STALE). */
    boolean allStale() {
        return queued.stream().allMatch(q -> q.command().lookedUp(q.argv()).has(Command.Flag.STALE));
    }

    /** Commands that run at once inside MULTI instead of being queued (Redis's processCommand). */
    public static boolean runsWhileQueuing(Command command) {
        return switch (command.name()) {
            case "exec", "discard", "multi", "watch", "quit", "reset" -> true;
            default -> false;
        };
    }
}
