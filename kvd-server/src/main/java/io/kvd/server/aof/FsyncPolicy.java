package io.kvd.server.aof;

import java.util.Locale;

/** appendfsync: when the AOF is forced to disk. */
public enum FsyncPolicy {
    /** After every write, before the replies leave: an acknowledged write is on disk. */
    ALWAYS,
    /** About once a second, on a background thread. */
    EVERYSEC,
    /** Never explicitly; the kernel writes back when it likes. */
    NO;

    /** The policy named as the directive's value ({@code always}, {@code everysec}, {@code no}). */
    public static FsyncPolicy named(String value) {
        return valueOf(value.toUpperCase(Locale.ROOT));
    }
}
