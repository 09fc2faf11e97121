package io.kvd.server.command;

import io.kvd.server.client.Client;
import io.kvd.server.numeric.LongDouble;
import io.kvd.server.protocol.Args;
import io.kvd.server.protocol.CommandError;
import io.kvd.server.store.ListValue;
import io.kvd.server.store.ValueType;
import io.kvd.server.store.WrongTypeException;
import io.kvd.server.store.ZSetValue;

import java.util.Arrays;

/**
 * BLPOP BRPOP BLMOVE BRPOPLPUSH BLMPOP BZPOPMIN BZPOPMAX BZMPOP, as Redis 7.0's t_list.c and
 * t_zset.c: the first key holding a value is popped at once, exactly as the non-blocking form
 * (and logged as it); with none the client waits in {@link BlockedClients}, unless it may not
 * block (inside MULTI, or the AOF's replay), when it gets the timeout's reply at once. A key of
 * another type on the way is WRONGTYPE. Served later, the client gets the same reply and the
 * AOF the same record.
 */
final class BlockingCommands {
    private static final byte[] LPOP = Args.bytes("LPOP");
    private static final byte[] RPOP = Args.bytes("RPOP");
    private static final byte[] LMOVE = Args.bytes("LMOVE");
    private static final byte[] RPOPLPUSH = Args.bytes("RPOPLPUSH");

    private BlockingCommands() {
    }

    /** BLPOP key [key ...] timeout */
    static void blpop(Client client, byte[][] argv) {
        long deadline = deadline(client, argv[argv.length - 1]);
        popOrBlock(client, Arrays.copyOfRange(argv, 1, argv.length - 1), deadline, true, -1);
    }

    /** BRPOP key [key ...] timeout */
    static void brpop(Client client, byte[][] argv) {
        long deadline = deadline(client, argv[argv.length - 1]);
        popOrBlock(client, Arrays.copyOfRange(argv, 1, argv.length - 1), deadline, false, -1);
    }

    /** BLMPOP timeout numkeys key [key ...] LEFT|RIGHT [COUNT count]: the arguments are checked before the timeout. */
    static void blmpop(Client client, byte[][] argv) {
        MultiPop request = MultiPop.parse(argv, 2, "left", "right");
        long deadline = deadline(client, argv[1]);
        popOrBlock(client, Arrays.copyOfRange(argv, request.firstKey(), request.keysEnd()), deadline,
                !request.fromEnd(), request.count());
    }

    /**
     * Redis's blockingPopGenericCommand. {@code count} -1 replies [key, element] and is logged as
     * LPOP/RPOP key (BLPOP, BRPOP); otherwise LMPOP's reply and record (BLMPOP).
     */
    private static void popOrBlock(Client client, byte[][] keys, long deadline, boolean head, long count) {
        for (byte[] key : keys) {
            ListValue list = client.keyspace().list(key);
            if (list != null) {
                pop(client, key, list, head, count);
                return;
            }
        }
        if (!client.mayBlock()) {
            client.reply().nullArray();
            return;
        }
        client.server().blockedClients().block(client, keys, ValueType.LIST, deadline, (waiter, key) -> {
            ListValue list = waiter.keyspace().list(key);
            if (list == null) {
                return false;
            }
            pop(waiter, key, list, head, count);
            return true;
        });
    }

    private static void pop(Client client, byte[] key, ListValue list, boolean head, long count) {
        if (count >= 0) {
            ListCommands.popRange(client, key, list, head, count);
            return;
        }
        byte[] element = list.pop(head);
        ListCommands.popped(client, key, list, head);
        client.reply().arrayHeader(2);
        client.reply().bulk(key);
        client.reply().bulk(element);
        client.logAs(head ? LPOP : RPOP, key);
    }

    /** BLMOVE source destination LEFT|RIGHT LEFT|RIGHT timeout: logged as the LMOVE it did. */
    static void blmove(Client client, byte[][] argv) {
        boolean fromHead = ListCommands.side(argv[3]);
        boolean toHead = ListCommands.side(argv[4]);
        long deadline = deadline(client, argv[5]);
        byte[][] record = {LMOVE, argv[1].clone(), argv[2].clone(), argv[3].clone(), argv[4].clone()};
        moveOrBlock(client, argv[1], argv[2], fromHead, toHead, deadline, record);
    }

    /** BRPOPLPUSH source destination timeout: logged as the RPOPLPUSH it did. */
    static void brpoplpush(Client client, byte[][] argv) {
        long deadline = deadline(client, argv[3]);
        byte[][] record = {RPOPLPUSH, argv[1].clone(), argv[2].clone()};
        moveOrBlock(client, argv[1], argv[2], false, true, deadline, record);
    }

    /**
     * Redis's blmoveGenericCommand: a source holding a list moves at once; inside MULTI an empty
     * one answers a null bulk (a timeout's reply is a null array). Served later, a destination of
     * another type answers WRONGTYPE and nothing moves.
     */
    private static void moveOrBlock(Client client, byte[] from, byte[] to, boolean fromHead, boolean toHead,
                                    long deadline, byte[][] record) {
        if (client.keyspace().list(from) != null) {
            ListCommands.move(client, from, to, fromHead, toHead);
            client.logAs(record);
            return;
        }
        if (!client.mayBlock()) {
            client.reply().nullBulk();
            return;
        }
        byte[] destination = to.clone();
        client.server().blockedClients().block(client, new byte[][] {from}, ValueType.LIST, deadline, (waiter, key) -> {
            if (waiter.keyspace().list(key) == null) {
                return false;
            }
            try {
                ListCommands.move(waiter, key, destination, fromHead, toHead);
                waiter.logAs(record);
            } catch (WrongTypeException e) {
                waiter.reply().error(e.getMessage());
            }
            return true;
        });
    }

    /** BZPOPMIN key [key ...] timeout */
    static void bzpopmin(Client client, byte[][] argv) {
        long deadline = deadline(client, argv[argv.length - 1]);
        zpopOrBlock(client, Arrays.copyOfRange(argv, 1, argv.length - 1), deadline, false, -1);
    }

    /** BZPOPMAX key [key ...] timeout */
    static void bzpopmax(Client client, byte[][] argv) {
        long deadline = deadline(client, argv[argv.length - 1]);
        zpopOrBlock(client, Arrays.copyOfRange(argv, 1, argv.length - 1), deadline, true, -1);
    }

    /** BZMPOP timeout numkeys key [key ...] MIN|MAX [COUNT count]: the arguments are checked before the timeout. */
    static void bzmpop(Client client, byte[][] argv) {
        MultiPop request = MultiPop.parse(argv, 2, "min", "max");
        long deadline = deadline(client, argv[1]);
        zpopOrBlock(client, Arrays.copyOfRange(argv, request.firstKey(), request.keysEnd()), deadline,
                request.fromEnd(), request.count());
    }

    /**
     * Redis's blockingGenericZpopCommand. {@code count} -1 replies [key, member, score] and is
     * logged as ZPOPMIN/ZPOPMAX key; otherwise ZMPOP's reply and record (BZMPOP).
     */
    private static void zpopOrBlock(Client client, byte[][] keys, long deadline, boolean max, long count) {
        for (byte[] key : keys) {
            ZSetValue zset = client.keyspace().zset(key);
            if (zset != null) {
                zpop(client, key, zset, max, count);
                return;
            }
        }
        if (!client.mayBlock()) {
            client.reply().nullArray();
            return;
        }
        client.server().blockedClients().block(client, keys, ValueType.ZSET, deadline, (waiter, key) -> {
            ZSetValue zset = waiter.keyspace().zset(key);
            if (zset == null) {
                return false;
            }
            zpop(waiter, key, zset, max, count);
            return true;
        });
    }

    private static void zpop(Client client, byte[] key, ZSetValue zset, boolean max, long count) {
        if (count >= 0) {
            SortedSetCommands.popRange(client, key, zset, max, count);
        } else {
            SortedSetCommands.popWithKey(client, key, zset, max);
        }
    }

    /**
     * Redis's getTimeoutFromObjectOrReply in seconds: a long double, times 1000 truncated to
     * milliseconds (so 0.0001 waits forever, as in Redis), made a deadline on the command's clock;
     * 0 for none.
     */
    static long deadline(Client client, byte[] arg) {
        LongDouble seconds = LongDouble.parse(arg);
        if (seconds == null) {
            throw new CommandError("ERR timeout is not a float or out of range");
        }
        long ms = seconds.millisTruncated();
        if (ms < 0) {
            throw new CommandError("ERR timeout is negative");
        }
        if (ms == 0) {
            return 0;
        }
        long now = client.keyspace().now();
        // Redis 7.0 adds without a check: a sum past the largest time never comes, as here.
        return ms > Long.MAX_VALUE - now ? 0 : now + ms;
    }
}
