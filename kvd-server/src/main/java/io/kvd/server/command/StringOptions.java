package io.kvd.server.command;

import io.kvd.server.protocol.Args;
import io.kvd.server.protocol.CommandError;
import io.kvd.server.protocol.Errors;
/**
 * The options of SET and GETEX, read as Redis's parseExtendedStringArgumentsOrReply reads them:
 * in any order, repeats allowed (the last time given wins), two different expiry options or NX
 * with XX a syntax error. Also the absolute deadline an expiry option asks for, shared with
 * SETEX and PSETEX.
 */
final class StringOptions {
    /** How the expiry is given; the timed ones take the next argument. */
    enum Expiry {
        NONE(false, 0, false), KEEPTTL(false, 0, false), PERSIST(false, 0, false),
        EX(true, 1000, true), PX(true, 1, true), EXAT(true, 1000, false), PXAT(true, 1, false);

        final boolean timed;
        final long unitMs;
        final boolean relative;

        Expiry(boolean timed, long unitMs, boolean relative) {
            this.timed = timed;
            this.unitMs = unitMs;
            this.relative = relative;
        }
    }

    boolean nx;
    boolean xx;
    boolean get;
    Expiry expiry = Expiry.NONE;
    /** The argument after a timed expiry option, not yet checked. */
    byte[] time;

    private StringOptions() {
    }

    /** The options after {@code SET key value}. */
    static StringOptions ofSet(byte[][] argv) {
        return parse(argv, 3, true);
    }

    /** The options after {@code GETEX key}. */
    static StringOptions ofGetex(byte[][] argv) {
        return parse(argv, 2, false);
    }

    private static StringOptions parse(byte[][] argv, int from, boolean set) {
        StringOptions options = new StringOptions();
        for (int i = from; i < argv.length; i++) {
            byte[] option = argv[i];
            Expiry timed = timedExpiry(option);
            if (set && Args.is(option, "NX") && !options.xx) {
                options.nx = true;
            } else if (set && Args.is(option, "XX") && !options.nx) {
                options.xx = true;
            } else if (set && Args.is(option, "GET")) {
                options.get = true;
            } else if (set && Args.is(option, "KEEPTTL") && options.allows(Expiry.KEEPTTL)) {
                options.expiry = Expiry.KEEPTTL;
            } else if (!set && Args.is(option, "PERSIST") && options.allows(Expiry.PERSIST)) {
                options.expiry = Expiry.PERSIST;
            } else if (timed != null && options.allows(timed) && i + 1 < argv.length) {
                options.expiry = timed;
                options.time = argv[++i];
            } else {
                throw new CommandError(Errors.SYNTAX);
            }
        }
        return options;
    }

    private static Expiry timedExpiry(byte[] option) {
        if (Args.is(option, "EX")) {
            return Expiry.EX;
        } else if (Args.is(option, "PX")) {
            return Expiry.PX;
        } else if (Args.is(option, "EXAT")) {
            return Expiry.EXAT;
        } else if (Args.is(option, "PXAT")) {
            return Expiry.PXAT;
        }
        return null;
    }

    /** Redis lets an expiry option repeat but not meet a different one. */
    private boolean allows(Expiry next) {
        return expiry == Expiry.NONE || expiry == next;
    }

    /** The absolute deadline (ms) of the timed expiry option; see {@link #deadline(Expiry, byte[], long, String)}. */
    long deadline(long nowMs, String command) {
        return deadline(expiry, time, nowMs, command);
    }

    /**
     * The absolute deadline in ms that {@code time} in the expiry's unit means at {@code nowMs}.
     * As Redis's getExpireMillisecondsOrReply: not an integer, not positive, or overflowing when
     * converted to absolute milliseconds is an error naming the command.
     */
    static long deadline(Expiry expiry, byte[] time, long nowMs, String command) {
        long value = Args.parseLong(time);
        if (value <= 0 || value > Long.MAX_VALUE / expiry.unitMs) {
            throw new CommandError(Errors.invalidExpireTime(command));
        }
        long ms = value * expiry.unitMs;
        if (!expiry.relative) {
            return ms;
        }
        if (ms > Long.MAX_VALUE - nowMs) {
            throw new CommandError(Errors.invalidExpireTime(command));
        }
        return ms + nowMs;
    }
}
