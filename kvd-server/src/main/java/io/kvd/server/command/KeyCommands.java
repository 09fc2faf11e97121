package io.kvd.server.command;

import io.kvd.server.store.Keyspace;
import io.kvd.server.store.ValueType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Commands on keys of any type (Redis's db.c). */
final class KeyCommands {
    /** The only type kvd stores. */
    private static final String STRING_TYPE = "string";
    private static final String INVALID_CURSOR = "ERR invalid cursor";

    private KeyCommands() {
    }

    /** DEL key [key ...] */
    static void del(Client client, byte[][] argv) {
        int removed = 0;
        for (int i = 1; i < argv.length; i++) {
            if (client.keyspace().remove(argv[i])) {
                removed++;
            }
        }
        client.reply().integer(removed);
    }

    /** UNLINK key [key ...]: DEL; kvd has no background freeing to hand the values to. */
    static void unlink(Client client, byte[][] argv) {
        del(client, argv);
    }

    /** EXISTS key [key ...]: a key named twice counts twice. */
    static void exists(Client client, byte[][] argv) {
        client.reply().integer(countExisting(client.keyspace(), argv));
    }

    /** TOUCH key [key ...]: counts like EXISTS; kvd keeps no access times to update. */
    static void touch(Client client, byte[][] argv) {
        client.reply().integer(countExisting(client.keyspace(), argv));
    }

    /** TYPE key */
    static void type(Client client, byte[][] argv) {
        ValueType type = client.keyspace().type(argv[1]);
        client.reply().simpleString(type == null ? "none" : type.typeName());
    }

    /** RENAME key newkey */
    static void rename(Client client, byte[][] argv) {
        if (renamed(client.keyspace(), argv[1], argv[2], false)) {
            client.reply().ok();
        }
    }

    /** RENAMENX key newkey */
    static void renamenx(Client client, byte[][] argv) {
        client.reply().integer(renamed(client.keyspace(), argv[1], argv[2], true) ? 1 : 0);
    }

    /** KEYS pattern */
    static void keys(Client client, byte[][] argv) {
        byte[] pattern = argv[1];
        boolean all = isMatchAll(pattern);
        List<byte[]> found = new ArrayList<>();
        client.keyspace().forEachKey(key -> {
            if (all || Glob.matches(pattern, key)) {
                found.add(key);
            }
        });
        replyKeys(client.reply(), found);
    }

    /**
     * SCAN cursor [MATCH pattern] [COUNT count] [TYPE type]
     *
     * <p>As Redis 7.0: visits buckets until COUNT keys were collected or COUNT*10 more buckets were
     * visited, then filters by pattern and type; an unknown type matches nothing.
     */
    static void scan(Client client, byte[][] argv) {
        long cursor = parseCursor(argv[1]);
        long count = 10;
        byte[] pattern = null;
        byte[] type = null;
        for (int i = 2; i < argv.length; i += 2) {
            boolean hasValue = i + 1 < argv.length;
            if (Args.is(argv[i], "count") && hasValue) {
                count = Args.parseLong(argv[i + 1]);
                if (count < 1) {
                    throw new CommandError(Errors.SYNTAX);
                }
            } else if (Args.is(argv[i], "match") && hasValue) {
                pattern = isMatchAll(argv[i + 1]) ? null : argv[i + 1];
            } else if (Args.is(argv[i], "type") && hasValue) {
                type = argv[i + 1];
            } else {
                throw new CommandError(Errors.SYNTAX);
            }
        }

        Keyspace keyspace = client.keyspace();
        List<byte[]> visited = new ArrayList<>();
        long bucketsLeft = count * 10;
        do {
            cursor = keyspace.scan(cursor, visited::add);
        } while (cursor != 0 && bucketsLeft-- != 0 && visited.size() < count);

        List<byte[]> found = new ArrayList<>(visited.size());
        for (byte[] key : visited) {
            if ((pattern == null || Glob.matches(pattern, key)) && (type == null || Args.is(type, STRING_TYPE))) {
                found.add(key);
            }
        }
        client.reply().arrayHeader(2);
        client.reply().bulk(Long.toUnsignedString(cursor));
        replyKeys(client.reply(), found);
    }

    /** RANDOMKEY */
    static void randomkey(Client client, byte[][] argv) {
        client.reply().bulk(client.keyspace().randomKey());
    }

    private static int countExisting(Keyspace keyspace, byte[][] argv) {
        int count = 0;
        for (int i = 1; i < argv.length; i++) {
            if (keyspace.exists(argv[i])) {
                count++;
            }
        }
        return count;
    }

    /**
     * Redis's renameGenericCommand: a missing source is an error even when both names are the
     * same; renaming a key to itself changes nothing (and RENAMENX says 0). The TTL moves along.
     */
    private static boolean renamed(Keyspace keyspace, byte[] from, byte[] to, boolean onlyIfNew) {
        if (!keyspace.exists(from)) {
            throw new CommandError(Errors.NO_SUCH_KEY);
        }
        if (Arrays.equals(from, to)) {
            return !onlyIfNew;
        }
        if (onlyIfNew && keyspace.exists(to)) {
            return false;
        }
        return keyspace.rename(from, to);
    }

    /** KEYS and SCAN skip matching for a lone {@code *}, which also lists the empty key. */
    private static boolean isMatchAll(byte[] pattern) {
        return pattern.length == 1 && pattern[0] == '*';
    }

    /**
     * Redis's SCAN cursor: strtoul in base 10, so a sign is allowed (not alone) ("-1" wraps around), an empty
     * string is 0, and leading or trailing spaces or values past 2^64-1 are invalid.
     */
    private static long parseCursor(byte[] arg) {
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

    private static void replyKeys(Reply reply, List<byte[]> keys) {
        reply.arrayHeader(keys.size());
        for (byte[] key : keys) {
            reply.bulk(key);
        }
    }
}
