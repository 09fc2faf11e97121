package io.kvd.server.client;

import java.util.Set;

/**
 * One row of the command table, as Redis's COMMAND INFO describes it.
 *
 * @param name     lower-case name
 * @param arity    exact argument count including the name, or -N for "at least N"
 * @param flags    Redis's command flags
 * @param firstKey position of the first key (0: no keys)
 * @param lastKey  position of the last key (-1: the last argument)
 * @param step     distance between keys
 * @param movableKeys where the keys are in a request, for a command whose keys move (MOVABLE_KEYS,
 *                 no fixed positions); null for the others
 * @param subcommands a container's subcommands (CLIENT's, XGROUP's), null for any other command
 */
public record Command(String name, int arity, Set<Flag> flags, int firstKey, int lastKey, int step,
                      CommandHandler handler, KeyFinder movableKeys, Subcommands subcommands) {

    /** Redis's getkeys_proc: the positions of a request's keys, none when its key count is invalid. */
    @FunctionalInterface
    public interface KeyFinder {
        int[] positions(byte[][] argv);
    }

    public Command {
        // Without its finder a MOVABLE_KEYS command would skip the cluster slot check unnoticed.
        if (flags.contains(Flag.MOVABLE_KEYS) != (movableKeys != null)) {
            throw new IllegalArgumentException(name + ": a key finder goes with MOVABLE_KEYS, and only with it");
        }
    }

    /** A command whose keys, if any, are at fixed positions. */
    public Command(String name, int arity, Set<Flag> flags, int firstKey, int lastKey, int step,
                   CommandHandler handler) {
        this(name, arity, flags, firstKey, lastKey, step, handler, null, null);
    }

    public enum Flag {
        WRITE, READONLY, DENYOOM, ADMIN, PUBSUB, NOSCRIPT, BLOCKING, LOADING, STALE, SKIP_MONITOR,
        SKIP_SLOWLOG, ASKING, FAST, NO_AUTH, MAY_REPLICATE, SENTINEL, ONLY_SENTINEL, NO_MANDATORY_KEYS,
        PROTECTED, NO_ASYNC_LOADING, NO_MULTI, MOVABLE_KEYS, ALLOW_BUSY;

        /** The name COMMAND INFO prints, e.g. {@code skip_monitor}. */
        public String replyName() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    public boolean arityMatches(int argc) {
        return arity >= 0 ? argc == arity : argc >= -arity;
    }

    public boolean has(Flag flag) {
        return flags.contains(flag);
    }

    /**
     * The command Redis's lookupCommand finds, whose flags, keys and counters count: a container's
     * subcommand (XGROUP CREATE is a write naming a key, XGROUP HELP neither), or the command
     * itself (a container named alone or with an unknown subcommand).
     */
    public Command lookedUp(byte[][] argv) {
        Command sub = subcommands == null || argv.length < 2 ? null : subcommands.lookup(argv);
        return sub == null ? this : sub;
    }
}
