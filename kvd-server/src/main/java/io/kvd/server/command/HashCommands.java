package io.kvd.server.command;

import io.kvd.server.client.Client;
import io.kvd.server.numeric.LongDouble;
import io.kvd.server.propagate.LogRecords;
import io.kvd.server.protocol.Args;
import io.kvd.server.protocol.CommandError;
import io.kvd.server.protocol.Errors;
import io.kvd.server.store.HashValue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

import static io.kvd.server.config.KeyspaceEventTypes.GENERIC;
import static io.kvd.server.config.KeyspaceEventTypes.HASH;

/**
 * Hash commands (Redis 7.0's t_hash.c). A hash emptied by HDEL is deleted by {@link HashValue}
 * itself; HGETALL, HKEYS and HVALS list the fields in its {@link HashValue#forEach} order.
 */
final class HashCommands {
    private static final String NOT_AN_INTEGER = "ERR hash value is not an integer";
    private static final String NOT_A_FLOAT = "ERR hash value is not a float";
    private static final String OUT_OF_RANGE = "ERR value is out of range";

    private HashCommands() {
    }

    /** HSET key field value [field value ...] */
    static void hset(Client client, byte[][] argv) {
        client.reply().integer(putPairs(client, argv, "hset"));
    }

    /** HMSET key field value [field value ...] */
    static void hmset(Client client, byte[][] argv) {
        putPairs(client, argv, "hmset");
        client.reply().ok();
    }

    /**
     * Sets each field, returning how many were new. Every pair counts as a change, even one that
     * sets a field to the value it has: Redis adds every pair to server.dirty, so the write is logged.
     */
    private static int putPairs(Client client, byte[][] argv, String command) {
        // The table's arity only says "at least 4"; a field without its value is an arity error too.
        if (argv.length % 2 == 1) {
            throw new CommandError(Errors.wrongArity(command));
        }
        int added = client.keyspace().hashForWrite(argv[1]).putAll(argv, 2);
        client.events().notify(HASH, "hset", argv[1], client.db());
        return added;
    }

    /** HSETNX key field value */
    static void hsetnx(Client client, byte[][] argv) {
        HashValue hash = client.keyspace().hashForWrite(argv[1]);
        if (hash.contains(argv[2])) {
            client.reply().integer(0);
            return;
        }
        hash.put(argv[2], argv[3]);
        client.events().notify(HASH, "hset", argv[1], client.db());
        client.reply().integer(1);
    }

    /** HGET key field */
    static void hget(Client client, byte[][] argv) {
        HashValue hash = client.keyspace().hash(argv[1]);
        client.reply().bulk(hash == null ? null : hash.get(argv[2]));
    }

    /** HMGET key field [field ...] */
    static void hmget(Client client, byte[][] argv) {
        // A missing key is an empty hash: one nil per field.
        HashValue hash = client.keyspace().hash(argv[1]);
        client.reply().arrayHeader(argv.length - 2);
        for (int i = 2; i < argv.length; i++) {
            client.reply().bulk(hash == null ? null : hash.get(argv[i]));
        }
    }

    /** HGETALL key */
    static void hgetall(Client client, byte[][] argv) {
        replyWhole(client, argv[1], true, (field, value) -> {
            client.reply().bulk(field);
            client.reply().bulk(value);
        });
    }

    /** HKEYS key */
    static void hkeys(Client client, byte[][] argv) {
        replyWhole(client, argv[1], false, (field, value) -> client.reply().bulk(field));
    }

    /** HVALS key */
    static void hvals(Client client, byte[][] argv) {
        replyWhole(client, argv[1], false, (field, value) -> client.reply().bulk(value));
    }

    /**
     * Every field as {@code writer} writes it, under a map's header (fields and values, as Redis's
     * genericHgetallCommand) or an array's; empty for a missing key.
     */
    private static void replyWhole(Client client, byte[] key, boolean map, BiConsumer<byte[], byte[]> writer) {
        HashValue hash = client.keyspace().hash(key);
        int size = hash == null ? 0 : hash.size();
        if (map) {
            client.reply().mapHeader(size);
        } else {
            client.reply().arrayHeader(size);
        }
        if (hash != null) {
            hash.forEach(writer);
        }
    }

    /** HDEL key field [field ...] */
    static void hdel(Client client, byte[][] argv) {
        HashValue hash = client.keyspace().hash(argv[1]);
        int deleted = 0;
        if (hash != null) {
            for (int i = 2; i < argv.length; i++) {
                if (hash.remove(argv[i])) {
                    deleted++;
                    // The last field took the key with it; Redis stops there too.
                    if (hash.size() == 0) {
                        break;
                    }
                }
            }
        }
        if (deleted > 0) {
            client.events().notify(HASH, "hdel", argv[1], client.db());
            if (hash.size() == 0) {
                client.events().notify(GENERIC, "del", argv[1], client.db());
            }
        }
        client.reply().integer(deleted);
    }

    /** HLEN key */
    static void hlen(Client client, byte[][] argv) {
        HashValue hash = client.keyspace().hash(argv[1]);
        client.reply().integer(hash == null ? 0 : hash.size());
    }

    /** HEXISTS key field */
    static void hexists(Client client, byte[][] argv) {
        HashValue hash = client.keyspace().hash(argv[1]);
        client.reply().integer(hash != null && hash.contains(argv[2]) ? 1 : 0);
    }

    /** HSTRLEN key field */
    static void hstrlen(Client client, byte[][] argv) {
        HashValue hash = client.keyspace().hash(argv[1]);
        byte[] value = hash == null ? null : hash.get(argv[2]);
        client.reply().integer(value == null ? 0 : value.length);
    }

    /** HINCRBY key field increment */
    static void hincrby(Client client, byte[][] argv) {
        // As Redis: the increment is read before the key's type is checked.
        long increment = Args.parseLong(argv[3]);
        HashValue hash = client.keyspace().hashForWrite(argv[1]);
        byte[] old = hash.get(argv[2]);
        long value = old == null ? 0 : Args.parseLong(old, NOT_AN_INTEGER);
        long sum = value + increment;
        if (((value ^ sum) & (increment ^ sum)) < 0) {
            throw new CommandError(Errors.OVERFLOW);
        }
        hash.put(argv[2], Long.toString(sum).getBytes(StandardCharsets.US_ASCII));
        client.events().notify(HASH, "hincrby", argv[1], client.db());
        client.reply().integer(sum);
    }

    /** HINCRBYFLOAT key field increment */
    static void hincrbyfloat(Client client, byte[][] argv) {
        // As Redis: the increment is read and checked before the key's type is.
        LongDouble increment = LongDouble.parse(argv[3]);
        if (increment == null) {
            throw new CommandError(Errors.NOT_A_FLOAT);
        }
        if (increment.isInfinite()) {
            throw new CommandError("ERR value is NaN or Infinity");
        }
        HashValue hash = client.keyspace().hashForWrite(argv[1]);
        byte[] old = hash.get(argv[2]);
        LongDouble value = old == null ? LongDouble.ZERO : LongDouble.parse(old);
        if (value == null) {
            throw new CommandError(NOT_A_FLOAT);
        }
        // A stored "inf" is a float to Redis; only the sum is refused.
        LongDouble sum = value.plus(increment);
        if (sum.isInfinite()) {
            throw new CommandError(Errors.NAN_OR_INFINITY_RESULT);
        }
        byte[] text = sum.toHumanString().getBytes(StandardCharsets.US_ASCII);
        hash.put(argv[2], text);
        client.events().notify(HASH, "hincrbyfloat", argv[1], client.db());
        // Logged as HSET of the result, as Redis propagates it: replay must not depend on long double rounding.
        client.logAs(LogRecords.hset(argv[1], argv[2], text));
        client.reply().bulk(text);
    }

    /** HRANDFIELD key [count [WITHVALUES]] */
    static void hrandfield(Client client, byte[][] argv) {
        if (argv.length == 2) {
            HashValue hash = client.keyspace().hash(argv[1]);
            client.reply().bulk(hash == null ? null : hash.randomEntry()[0]);
            return;
        }
        // As Redis: the count and the options are checked before the key, and -count must fit a long.
        long count = Args.parseLong(argv[2]);
        if (count == Long.MIN_VALUE) {
            throw new CommandError("ERR value is out of range, value must between -9223372036854775807 and 9223372036854775807");
        }
        if (argv.length > 4 || (argv.length == 4 && !Args.is(argv[3], "withvalues"))) {
            throw new CommandError(Errors.SYNTAX);
        }
        boolean withValues = argv.length == 4;
        // Redis's bound: the reply's length, two elements per field, must fit a long.
        if (withValues && (count < -Long.MAX_VALUE / 2 || count > Long.MAX_VALUE / 2)) {
            throw new CommandError(OUT_OF_RANGE);
        }
        HashValue hash = client.keyspace().hash(argv[1]);
        if (hash == null || count == 0) {
            client.reply().arrayHeader(0);
            return;
        }
        Consumer<byte[][]> writer = entry -> {
            if (withValues) {
                client.reply().pairStart();
            }
            client.reply().bulk(entry[0]);
            if (withValues) {
                client.reply().bulk(entry[1]);
            }
        };
        long size = hash.size();
        if (count < 0 || count == 1) {
            randomWithRepeats(client, hash, count < 0 ? -count : 1, withValues, writer);
        } else if (count >= size) {
            header(client, size, withValues);
            hash.forEach((field, value) -> writer.accept(new byte[][]{field, value}));
        } else {
            header(client, count, withValues);
            if (count * 3 > size) {
                allButRandom(hash, (int) (size - count), writer);
            } else {
                distinctRandom(hash, (int) count, writer);
            }
        }
    }

    /** HRANDFIELD's array of fields, or of field-value pairs (flat in RESP2, nested in RESP3). */
    private static void header(Client client, long count, boolean withValues) {
        if (withValues) {
            client.reply().pairsHeader(count);
        } else {
            client.reply().arrayHeader(count);
        }
    }

    /** {@code count} independent draws, so a field may come more than once (a negative count, or 1). */
    private static void randomWithRepeats(Client client, HashValue hash, long count, boolean withValues,
                                          Consumer<byte[][]> writer) {
        // kvd's bound, not Redis's: one reply buffer holds at most 2^31 - 1 bytes, so a longer
        // array could never be sent; Redis would build it until memory ran out.
        if (count > Integer.MAX_VALUE / (withValues ? 2 : 1)) {
            throw new CommandError(OUT_OF_RANGE);
        }
        header(client, count, withValues);
        for (long i = 0; i < count; i++) {
            writer.accept(hash.randomEntry());
        }
    }

    /**
     * Redis's CASE 3 (the count is more than a third of the hash): choose the {@code leftOut}
     * fields not to return, then the rest in the hash's order. Drawing the few left out is
     * cheaper than drawing the many kept, whose last ones would take many draws to find.
     */
    private static void allButRandom(HashValue hash, int leftOut, Consumer<byte[][]> writer) {
        Set<ByteBuffer> skipped = new HashSet<>();
        while (skipped.size() < leftOut) {
            skipped.add(ByteBuffer.wrap(hash.randomEntry()[0]));
        }
        hash.forEach((field, value) -> {
            if (!skipped.contains(ByteBuffer.wrap(field))) {
                writer.accept(new byte[][]{field, value});
            }
        });
    }

    /** Redis's CASE 4 (a small count against the hash): draw until {@code count} distinct fields came. */
    private static void distinctRandom(HashValue hash, int count, Consumer<byte[][]> writer) {
        Set<ByteBuffer> seen = new HashSet<>();
        while (seen.size() < count) {
            byte[][] entry = hash.randomEntry();
            if (seen.add(ByteBuffer.wrap(entry[0]))) {
                writer.accept(entry);
            }
        }
    }

    /** HSCAN key cursor [MATCH pattern] [COUNT count] */
    static void hscan(Client client, byte[][] argv) {
        // As Redis: the cursor is read before the key, the options only for a hash that exists.
        long cursor = Scan.parseCursor(argv[2]);
        HashValue hash = client.keyspace().hash(argv[1]);
        if (hash == null) {
            client.reply().arrayHeader(2);
            client.reply().bulk("0");
            client.reply().arrayHeader(0);
            return;
        }
        Scan.Options options = Scan.Options.parse(argv, 3, false);
        Scan.Walk walk = (at, visitor) -> hash.scan(at, (field, value) -> {
            visitor.accept(field);
            visitor.accept(value);
        });
        Scan.reply(client, cursor, options, walk, 2, options::matches);
    }
}
