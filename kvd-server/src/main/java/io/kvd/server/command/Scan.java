package io.kvd.server.command;

import io.kvd.server.client.Client;
import io.kvd.server.glob.Glob;
import io.kvd.server.protocol.Args;
import io.kvd.server.protocol.CommandError;
import io.kvd.server.protocol.Errors;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Redis's scanGenericCommand, shared by SCAN, HSCAN and SSCAN: the cursor, the MATCH, COUNT and
 * TYPE options, the walk over buckets and the reply. A compact collection answers everything in
 * one call with cursor 0; its caller walks it whole and passes cursor 0 as the next one.
 */
final class Scan {
    private static final String INVALID_CURSOR = "ERR invalid cursor";

    /** One step of a walk: visits what the cursor names and returns the next cursor, 0 when done. */
    interface Walk {
        long step(long cursor, Consumer<byte[]> visitor);
    }

    /** The options after the cursor (from {@code argv[from]}); TYPE only for SCAN itself, as in Redis. */
    record Options(long count, byte[] pattern, byte[] type) {
        static Options parse(byte[][] argv, int from, boolean typeAllowed) {
            long count = 10;
            byte[] pattern = null;
            byte[] type = null;
            for (int i = from; i < argv.length; i += 2) {
                boolean hasValue = i + 1 < argv.length;
                if (Args.is(argv[i], "count") && hasValue) {
                    count = Args.parseLong(argv[i + 1]);
                    if (count < 1) {
                        throw new CommandError(Errors.SYNTAX);
                    }
                } else if (Args.is(argv[i], "match") && hasValue) {
                    pattern = isMatchAll(argv[i + 1]) ? null : argv[i + 1];
                } else if (Args.is(argv[i], "type") && hasValue && typeAllowed) {
                    type = argv[i + 1];
                } else {
                    throw new CommandError(Errors.SYNTAX);
                }
            }
            return new Options(count, pattern, type);
        }

        boolean matches(byte[] element) {
            return pattern == null || Glob.matches(pattern, element);
        }
    }

    private Scan() {
    }

    /**
     * Walks from {@code cursor} until {@code count} elements were collected or 10×count more
     * steps were taken (Redis counts a hash's values as elements too), then replies with the next
     * cursor and the elements whose groups of {@code perItem} (2 for a field and its value) pass
     * {@code keep}, which sees the group's first element.
     */
    static void reply(Client client, long cursor, Options options, Walk walk, int perItem,
                      Predicate<byte[]> keep) {
        List<byte[]> visited = new ArrayList<>();
        long stepsLeft = options.count() * 10;
        do {
            cursor = walk.step(cursor, visited::add);
        } while (cursor != 0 && stepsLeft-- != 0 && visited.size() < options.count());

        List<byte[]> found = new ArrayList<>(visited.size());
        for (int i = 0; i < visited.size(); i += perItem) {
            if (keep.test(visited.get(i))) {
                found.addAll(visited.subList(i, i + perItem));
            }
        }
        client.reply().arrayHeader(2);
        client.reply().bulk(Long.toUnsignedString(cursor));
        client.reply().arrayHeader(found.size());
        for (byte[] element : found) {
            client.reply().bulk(element);
        }
    }

    /** KEYS and SCAN skip matching for a lone {@code *}, which also lists the empty key. */
    static boolean isMatchAll(byte[] pattern) {
        return pattern.length == 1 && pattern[0] == '*';
    }

    /**
     * Redis's SCAN cursor: strtoul in base 10, so a sign is allowed (not alone) ("-1" wraps around), an empty
     * string is 0, and leading or trailing spaces or values past 2^64-1 are invalid.
     */
    static long parseCursor(byte[] arg) {
        int i = 0;
        boolean negative = false;
        if (arg.length > 0 && (arg[0] == '+' || arg[0] == '-')) {
            negative = arg[0] == '-';
            i = 1;
            if (arg.length == 1) {
                // strtoul read no digits: its end pointer stays on the sign.
                throw new CommandError(INVALID_CURSOR);
            }
        }
        long value = 0;
        for (; i < arg.length; i++) {
            int digit = arg[i] - '0';
            if (digit < 0 || digit > 9 || Long.compareUnsigned(value, Long.divideUnsigned(-1L - digit, 10)) > 0) {
                throw new CommandError(INVALID_CURSOR);
            }
            value = value * 10 + digit;
        }
        return negative ? -value : value;
    }
}
