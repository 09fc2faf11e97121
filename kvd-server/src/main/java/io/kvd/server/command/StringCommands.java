package io.kvd.server.command;

import io.kvd.server.client.Client;
import io.kvd.server.command.StringOptions.Expiry;
import io.kvd.server.numeric.LongDouble;
import io.kvd.server.propagate.LogRecords;
import io.kvd.server.protocol.Args;
import io.kvd.server.protocol.CommandError;
import io.kvd.server.protocol.Errors;
import io.kvd.server.store.Keyspace;
import io.kvd.server.store.StringView;

import java.nio.charset.StandardCharsets;

import static io.kvd.server.config.KeyspaceEventTypes.GENERIC;
import static io.kvd.server.config.KeyspaceEventTypes.STRING;

/**
 * String commands (Redis's t_string.c). SETRANGE and APPEND write into the stored string in place
 * ({@link Keyspace#editString}), and STRLEN and GETRANGE read it where it is ({@link Keyspace#read}),
 * so none of them copies a large string whole.
 */
final class StringCommands {
    private static final byte[] EMPTY = {};

    private StringCommands() {
    }

    /** GET key */
    static void get(Client client, byte[][] argv) {
        client.reply().bulk(client.keyspace().get(argv[1]));
    }

    /** SET key value [NX|XX] [GET] [EX seconds|PX milliseconds|EXAT unix-time-seconds|PXAT unix-time-milliseconds|KEEPTTL] */
    static void set(Client client, byte[][] argv) {
        StringOptions options = StringOptions.ofSet(argv);
        Keyspace keyspace = client.keyspace();
        // As Redis: the time is checked before GET replies, and NX/XX after it.
        long deadline = options.expiry.timed ? options.deadline(keyspace.now(), "set") : Keyspace.PERSISTENT;
        if (options.get) {
            client.reply().bulk(keyspace.get(argv[1]));
        }
        // Only NX and XX look first; the store's own lookup expires a due key either way.
        boolean found = (options.nx || options.xx) && keyspace.exists(argv[1]);
        if ((options.nx && found) || (options.xx && !found)) {
            if (!options.get) {
                client.reply().nullBulk();
            }
            return;
        }
        // A deadline already past is stored as such: Redis 7.0 lets the key expire, it does not delete it.
        if (options.expiry == Expiry.KEEPTTL) {
            keyspace.putKeepingDeadline(argv[1], argv[2]);
        } else {
            keyspace.put(argv[1], argv[2], deadline);
        }
        client.events().notify(STRING, "set", argv[1], client.db());
        if (options.expiry.timed) {
            client.events().notify(GENERIC, "expire", argv[1], client.db());
        }
        if (argv.length > 3) {
            // Logged as its effect: no NX, XX or GET, and an absolute deadline.
            client.logAs(options.expiry == Expiry.KEEPTTL ? LogRecords.setKeepingTtl(argv[1], argv[2])
                    : LogRecords.set(argv[1], argv[2], deadline));
        }
        if (!options.get) {
            client.reply().ok();
        }
    }

    /** SETNX key value */
    static void setnx(Client client, byte[][] argv) {
        Keyspace keyspace = client.keyspace();
        if (keyspace.exists(argv[1])) {
            client.reply().integer(0);
            return;
        }
        keyspace.put(argv[1], argv[2], Keyspace.PERSISTENT);
        client.events().notify(STRING, "set", argv[1], client.db());
        client.logAs(LogRecords.set(argv[1], argv[2], Keyspace.PERSISTENT));
        client.reply().integer(1);
    }

    /** SETEX key seconds value */
    static void setex(Client client, byte[][] argv) {
        setWithTime(client, argv, Expiry.EX, "setex");
    }

    /** PSETEX key milliseconds value */
    static void psetex(Client client, byte[][] argv) {
        setWithTime(client, argv, Expiry.PX, "psetex");
    }

    private static void setWithTime(Client client, byte[][] argv, Expiry expiry, String command) {
        Keyspace keyspace = client.keyspace();
        long deadline = StringOptions.deadline(expiry, argv[2], keyspace.now(), command);
        keyspace.put(argv[1], argv[3], deadline);
        client.events().notify(STRING, "set", argv[1], client.db());
        client.events().notify(GENERIC, "expire", argv[1], client.db());
        client.logAs(LogRecords.set(argv[1], argv[3], deadline));
        client.reply().ok();
    }

    /** GETSET key value */
    static void getset(Client client, byte[][] argv) {
        Keyspace keyspace = client.keyspace();
        client.reply().bulk(keyspace.get(argv[1]));
        keyspace.put(argv[1], argv[2], Keyspace.PERSISTENT);
        client.events().notify(STRING, "set", argv[1], client.db());
        client.logAs(LogRecords.set(argv[1], argv[2], Keyspace.PERSISTENT));
    }

    /** GETDEL key */
    static void getdel(Client client, byte[][] argv) {
        Keyspace keyspace = client.keyspace();
        byte[] value = keyspace.get(argv[1]);
        if (value != null) {
            keyspace.remove(argv[1]);
            client.events().notify(GENERIC, "del", argv[1], client.db());
            client.logAs(LogRecords.del(argv[1]));
        }
        client.reply().bulk(value);
    }

    /** GETEX key [EX seconds|PX milliseconds|EXAT unix-time-seconds|PXAT unix-time-milliseconds|PERSIST] */
    static void getex(Client client, byte[][] argv) {
        StringOptions options = StringOptions.ofGetex(argv);
        Keyspace keyspace = client.keyspace();
        byte[] value = keyspace.get(argv[1]);
        if (value == null) {
            // As Redis: a missing key answers nil before the time is checked.
            client.reply().nullBulk();
            return;
        }
        long deadline = options.expiry.timed ? options.deadline(keyspace.now(), "getex") : Keyspace.PERSISTENT;
        client.reply().bulk(value);
        if (options.expiry.timed && !options.expiry.relative && deadline <= keyspace.now()) {
            // Unlike SET, GETEX deletes a key whose EXAT/PXAT time has passed.
            keyspace.remove(argv[1]);
            client.events().notify(GENERIC, "del", argv[1], client.db());
            client.logAs(LogRecords.del(argv[1]));
        } else if (options.expiry.timed) {
            keyspace.setDeadline(argv[1], deadline);
            client.events().notify(GENERIC, "expire", argv[1], client.db());
            client.logAs(LogRecords.pexpireat(argv[1], deadline));
        } else if (options.expiry == Expiry.PERSIST && keyspace.deadline(argv[1]) >= 0) {
            keyspace.setDeadline(argv[1], Keyspace.PERSISTENT);
            client.events().notify(GENERIC, "persist", argv[1], client.db());
            client.logAs(LogRecords.persist(argv[1]));
        }
    }

    /** MGET key [key ...] */
    static void mget(Client client, byte[][] argv) {
        Keyspace keyspace = client.keyspace();
        client.reply().arrayHeader(argv.length - 1);
        for (int i = 1; i < argv.length; i++) {
            // As Redis: a key of another type answers nil, not WRONGTYPE.
            client.reply().bulk(keyspace.getIfString(argv[i]));
        }
    }

    /** MSET key value [key value ...] */
    static void mset(Client client, byte[][] argv) {
        checkPairs(argv, "mset");
        putPairs(client, argv);
        client.reply().ok();
    }

    /** MSETNX key value [key value ...] */
    static void msetnx(Client client, byte[][] argv) {
        checkPairs(argv, "msetnx");
        Keyspace keyspace = client.keyspace();
        for (int i = 1; i < argv.length; i += 2) {
            if (keyspace.exists(argv[i])) {
                client.reply().integer(0);
                return;
            }
        }
        putPairs(client, argv);
        client.logAs(LogRecords.mset(argv));
        client.reply().integer(1);
    }

    /** The table's arity only says "at least 3"; a key without its value is an arity error too. */
    private static void checkPairs(byte[][] argv, String command) {
        if (argv.length % 2 == 0) {
            throw new CommandError(Errors.wrongArity(command));
        }
    }

    private static void putPairs(Client client, byte[][] argv) {
        Keyspace keyspace = client.keyspace();
        for (int i = 1; i < argv.length; i += 2) {
            keyspace.put(argv[i], argv[i + 1], Keyspace.PERSISTENT);
            client.events().notify(STRING, "set", argv[i], client.db());
        }
    }

    /** APPEND key value */
    static void append(Client client, byte[][] argv) {
        Keyspace keyspace = client.keyspace();
        StringView old = keyspace.read(argv[1]);
        byte[] value = argv[2];
        if (old == null) {
            // Redis's appendCommand stores the argument as SET would (int or embstr), not raw.
            keyspace.put(argv[1], value, Keyspace.PERSISTENT);
            client.events().notify(STRING, "append", argv[1], client.db());
            client.reply().integer(value.length);
            return;
        }
        // Only the result of appending is checked: the argument alone was within the limit.
        int oldLength = old.length();
        checkLength(client, oldLength, value.length);
        StringView joined = keyspace.editString(argv[1], oldLength + value.length);
        System.arraycopy(value, 0, joined.bytes(), joined.offset() + oldLength, value.length);
        client.events().notify(STRING, "append", argv[1], client.db());
        client.reply().integer(joined.length());
    }

    /** STRLEN key */
    static void strlen(Client client, byte[][] argv) {
        StringView value = client.keyspace().read(argv[1]);
        client.reply().integer(value == null ? 0 : value.length());
    }

    /** GETRANGE key start end (also SUBSTR key start end) */
    static void getrange(Client client, byte[][] argv) {
        long start = Args.parseLong(argv[2]);
        long end = Args.parseLong(argv[3]);
        StringView value = client.keyspace().read(argv[1]);
        // Redis's clamping: both negative and reversed is empty; negative counts from the end.
        if (value == null || (start < 0 && end < 0 && start > end)) {
            client.reply().bulk(EMPTY);
            return;
        }
        int length = value.length();
        if (start < 0) {
            start = Math.max(length + start, 0);
        }
        if (end < 0) {
            end = Math.max(length + end, 0);
        }
        end = Math.min(end, length - 1L);
        if (start > end || length == 0) {
            client.reply().bulk(EMPTY);
        } else {
            client.reply().bulk(value.bytes(), value.offset() + (int) start, (int) (end - start + 1));
        }
    }

    /** SETRANGE key offset value */
    static void setrange(Client client, byte[][] argv) {
        long offset = Args.parseLong(argv[2]);
        if (offset < 0) {
            throw new CommandError("ERR offset is out of range");
        }
        Keyspace keyspace = client.keyspace();
        StringView old = keyspace.read(argv[1]);
        byte[] patch = argv[3];
        if (patch.length == 0) {
            // Nothing to write: the length as it is, and no key created.
            client.reply().integer(old == null ? 0 : old.length());
            return;
        }
        checkLength(client, offset, patch.length);
        StringView value = keyspace.editString(argv[1], (int) offset + patch.length);
        System.arraycopy(patch, 0, value.bytes(), value.offset() + (int) offset, patch.length);
        client.events().notify(STRING, "setrange", argv[1], client.db());
        client.reply().integer(value.length());
    }

    /** Redis's checkStringLength: a string grown past proto-max-bulk-len (or past a long) is refused. */
    private static void checkLength(Client client, long length, long added) {
        if (added > client.server().config().protoMaxBulkLen() - length) {
            throw new CommandError("ERR string exceeds maximum allowed size (proto-max-bulk-len)");
        }
    }

    /** INCR key */
    static void incr(Client client, byte[][] argv) {
        incrementBy(client, argv[1], 1);
    }

    /** DECR key */
    static void decr(Client client, byte[][] argv) {
        incrementBy(client, argv[1], -1);
    }

    /** INCRBY key increment */
    static void incrby(Client client, byte[][] argv) {
        incrementBy(client, argv[1], Args.parseLong(argv[2]));
    }

    /** DECRBY key decrement */
    static void decrby(Client client, byte[][] argv) {
        long decrement = Args.parseLong(argv[2]);
        if (decrement == Long.MIN_VALUE) {
            throw new CommandError("ERR decrement would overflow");
        }
        incrementBy(client, argv[1], -decrement);
    }

    /** Adds to the integer a key holds (0 if missing), keeping its TTL, and replies with the sum. */
    private static void incrementBy(Client client, byte[] key, long increment) {
        Keyspace keyspace = client.keyspace();
        byte[] old = keyspace.get(key);
        long value = old == null ? 0 : Args.parseLong(old);
        long sum = value + increment;
        if (((value ^ sum) & (increment ^ sum)) < 0) {
            throw new CommandError(Errors.OVERFLOW);
        }
        keyspace.putKeepingDeadline(key, Long.toString(sum).getBytes(StandardCharsets.US_ASCII));
        client.events().notify(STRING, "incrby", key, client.db());
        client.reply().integer(sum);
    }

    /** INCRBYFLOAT key increment */
    static void incrbyfloat(Client client, byte[][] argv) {
        Keyspace keyspace = client.keyspace();
        byte[] old = keyspace.get(argv[1]);
        LongDouble value = old == null ? LongDouble.ZERO : LongDouble.parse(old);
        LongDouble increment = LongDouble.parse(argv[2]);
        if (value == null || increment == null) {
            throw new CommandError(Errors.NOT_A_FLOAT);
        }
        LongDouble sum = value.plus(increment);
        if (sum.isInfinite()) {
            throw new CommandError(Errors.NAN_OR_INFINITY_RESULT);
        }
        byte[] text = sum.toHumanString().getBytes(StandardCharsets.US_ASCII);
        keyspace.putKeepingDeadline(argv[1], text);
        client.events().notify(STRING, "incrbyfloat", argv[1], client.db());
        // The result, not the increment: replay must not depend on long double rounding.
        client.logAs(LogRecords.setKeepingTtl(argv[1], text));
        client.reply().bulk(text);
    }
}
