package io.kvd.server.command;

import io.kvd.server.client.Client;
import io.kvd.server.protocol.Args;
import io.kvd.server.protocol.CommandError;
import io.kvd.server.protocol.Errors;
import io.kvd.server.protocol.Reply;
import io.kvd.server.store.Keyspace;
import io.kvd.server.store.ListValue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;

import static io.kvd.server.config.KeyspaceEventTypes.GENERIC;
import static io.kvd.server.config.KeyspaceEventTypes.LIST;

/**
 * List commands (Redis 7.0's t_list.c), blocking ones aside. A key with an empty list does not
 * exist: {@link ListValue} deletes the key with its last element. Arguments are checked in
 * Redis's order, which decides which error wins (LRANGE reads its indexes before the key, LINDEX
 * after it).
 */
final class ListCommands {
    private static final String MUST_BE_POSITIVE = "ERR value is out of range, must be positive";
    private static final String INDEX_OUT_OF_RANGE = "ERR index out of range";
    private static final String RANK_ZERO = "ERR RANK can't be zero: use 1 to start from the first match, "
            + "2 from the second ... or use negative to start from the end of the list";
    private static final String COUNT_NEGATIVE = "ERR COUNT can't be negative";
    private static final String MAXLEN_NEGATIVE = "ERR MAXLEN can't be negative";
    private static final byte[] LPOP = Args.bytes("LPOP");
    private static final byte[] RPOP = Args.bytes("RPOP");

    private ListCommands() {
    }

    /** LPUSH key element [element ...] */
    static void lpush(Client client, byte[][] argv) {
        client.reply().integer(pushAll(client, client.keyspace().listForWrite(argv[1]), argv, true));
    }

    /** RPUSH key element [element ...] */
    static void rpush(Client client, byte[][] argv) {
        client.reply().integer(pushAll(client, client.keyspace().listForWrite(argv[1]), argv, false));
    }

    /** LPUSHX key element [element ...]: only onto a list that exists. */
    static void lpushx(Client client, byte[][] argv) {
        ListValue list = client.keyspace().list(argv[1]);
        client.reply().integer(list == null ? 0 : pushAll(client, list, argv, true));
    }

    /** RPUSHX key element [element ...] */
    static void rpushx(Client client, byte[][] argv) {
        ListValue list = client.keyspace().list(argv[1]);
        client.reply().integer(list == null ? 0 : pushAll(client, list, argv, false));
    }

    private static long pushAll(Client client, ListValue list, byte[][] argv, boolean head) {
        long length = list.pushAll(argv, 2, head);
        client.events().notify(LIST, head ? "lpush" : "rpush", argv[1], client.db());
        return length;
    }

    /** LPOP key [count] */
    static void lpop(Client client, byte[][] argv) {
        pop(client, argv, true);
    }

    /** RPOP key [count] */
    static void rpop(Client client, byte[][] argv) {
        pop(client, argv, false);
    }

    /**
     * Redis's popGenericCommand: the count is read before the key (any bad count is "must be
     * positive"); with a count a missing key is a null array and a count of 0 an empty one.
     * Logged as sent.
     */
    private static void pop(Client client, byte[][] argv, boolean head) {
        if (argv.length > 3) {
            throw new CommandError(Errors.wrongArity(Args.utf8(argv[0]).toLowerCase(Locale.ROOT)));
        }
        long count = -1;
        if (argv.length == 3) {
            count = Args.parseLong(argv[2], MUST_BE_POSITIVE);
            if (count < 0) {
                throw new CommandError(MUST_BE_POSITIVE);
            }
        }
        ListValue list = client.keyspace().list(argv[1]);
        Reply reply = client.reply();
        if (list == null) {
            if (count < 0) {
                reply.nullBulk();
            } else {
                reply.nullArray();
            }
            return;
        }
        if (count < 0) {
            reply.bulk(list.pop(head));
            popped(client, argv[1], list, head);
            return;
        }
        reply.arrayHeader((int) Math.min(count, list.size()));
        list.pop(head, count, reply::bulk);
        if (count > 0) {
            popped(client, argv[1], list, head);
        }
    }

    /** The events of a pop from {@code list}: lpop or rpop, then del if it took the last element. */
    static void popped(Client client, byte[] key, ListValue list, boolean head) {
        client.events().notify(LIST, head ? "lpop" : "rpop", key, client.db());
        if (list.size() == 0) {
            client.events().notify(GENERIC, "del", key, client.db());
        }
    }

    /** LLEN key */
    static void llen(Client client, byte[][] argv) {
        ListValue list = client.keyspace().list(argv[1]);
        client.reply().integer(list == null ? 0 : list.size());
    }

    /** LINDEX key index: the key first, so a missing key answers nil whatever the index. */
    static void lindex(Client client, byte[][] argv) {
        ListValue list = client.keyspace().list(argv[1]);
        if (list == null) {
            client.reply().nullBulk();
            return;
        }
        client.reply().bulk(list.get(Args.parseLong(argv[2])));
    }

    /** LSET key index element */
    static void lset(Client client, byte[][] argv) {
        ListValue list = client.keyspace().list(argv[1]);
        if (list == null) {
            throw new CommandError(Errors.NO_SUCH_KEY);
        }
        if (!list.set(Args.parseLong(argv[2]), argv[3])) {
            throw new CommandError(INDEX_OUT_OF_RANGE);
        }
        client.events().notify(LIST, "lset", argv[1], client.db());
        client.reply().ok();
    }

    /** LINSERT key BEFORE|AFTER pivot element: the new length, -1 without the pivot, 0 without the key. */
    static void linsert(Client client, byte[][] argv) {
        boolean after;
        if (Args.is(argv[2], "after")) {
            after = true;
        } else if (Args.is(argv[2], "before")) {
            after = false;
        } else {
            throw new CommandError(Errors.SYNTAX);
        }
        ListValue list = client.keyspace().list(argv[1]);
        long length = list == null ? 0 : list.insert(argv[3], argv[4], after);
        if (length > 0) {
            client.events().notify(LIST, "linsert", argv[1], client.db());
        }
        client.reply().integer(length);
    }

    /** LRANGE key start stop: the indexes first, then the key. */
    static void lrange(Client client, byte[][] argv) {
        long start = Args.parseLong(argv[2]);
        long stop = Args.parseLong(argv[3]);
        ListValue list = client.keyspace().list(argv[1]);
        Reply reply = client.reply();
        if (list == null) {
            reply.arrayHeader(0);
            return;
        }
        long[] range = clamp(start, stop, list.size());
        if (range == null) {
            reply.arrayHeader(0);
            return;
        }
        long length = range[1] - range[0] + 1;
        reply.arrayHeader((int) length);
        long[] left = {length};
        list.walk(range[0], false, (bytes, offset, elementLength) -> {
            reply.bulk(bytes, offset, elementLength);
            return --left[0] > 0;
        });
    }

    /** LTRIM key start stop: OK whatever it removed; the emptied list is deleted. */
    static void ltrim(Client client, byte[][] argv) {
        long start = Args.parseLong(argv[2]);
        long stop = Args.parseLong(argv[3]);
        ListValue list = client.keyspace().list(argv[1]);
        if (list != null) {
            long[] range = clamp(start, stop, list.size());
            if (range == null) {
                list.trim(1, 0);
            } else {
                list.trim(range[0], range[1]);
            }
            // As Redis: announced even when nothing was trimmed.
            client.events().notify(LIST, "ltrim", argv[1], client.db());
            if (list.size() == 0) {
                client.events().notify(GENERIC, "del", argv[1], client.db());
            }
        }
        client.reply().ok();
    }

    /**
     * LRANGE's and LTRIM's indexes as Redis reads them: negative from the tail, the start at
     * least 0, the stop at most the last; {@code {start, stop}}, or null when no element is in range.
     */
    private static long[] clamp(long start, long stop, long size) {
        long from = start < 0 ? Math.max(size + start, 0) : start;
        long to = stop < 0 ? size + stop : stop;
        if (from > to || from >= size) {
            return null;
        }
        return new long[] {from, Math.min(to, size - 1)};
    }

    /** LREM key count element: from the head for count > 0, the tail for count < 0, all for 0. */
    static void lrem(Client client, byte[][] argv) {
        long count = Args.parseLong(argv[2]);
        ListValue list = client.keyspace().list(argv[1]);
        long removed = list == null ? 0 : list.remove(count, argv[3]);
        if (removed > 0) {
            client.events().notify(LIST, "lrem", argv[1], client.db());
            if (list.size() == 0) {
                client.events().notify(GENERIC, "del", argv[1], client.db());
            }
        }
        client.reply().integer(removed);
    }

    /**
     * LPOS key element [RANK rank] [COUNT num-matches] [MAXLEN len]: the options are all read
     * before the key. A negative rank walks from the tail (Redis negates it; LONG_MIN stays
     * negative there, and here, so it matches from the first one met).
     */
    static void lpos(Client client, byte[][] argv) {
        long rank = 1;
        long count = -1;
        long maxlen = 0;
        for (int i = 3; i < argv.length; i++) {
            boolean more = i + 1 < argv.length;
            if (Args.is(argv[i], "rank") && more) {
                rank = Args.parseLong(argv[++i]);
                if (rank == 0) {
                    throw new CommandError(RANK_ZERO);
                }
            } else if (Args.is(argv[i], "count") && more) {
                count = nonNegative(argv[++i], COUNT_NEGATIVE);
            } else if (Args.is(argv[i], "maxlen") && more) {
                maxlen = nonNegative(argv[++i], MAXLEN_NEGATIVE);
            } else {
                throw new CommandError(Errors.SYNTAX);
            }
        }
        ListValue list = client.keyspace().list(argv[1]);
        Reply reply = client.reply();
        if (list == null) {
            if (count >= 0) {
                reply.arrayHeader(0);
            } else {
                reply.nullBulk();
            }
            return;
        }
        boolean reverse = rank < 0;
        boolean all = count >= 0;
        long wanted = reverse ? -rank : rank;
        long size = list.size();
        long limit = maxlen == 0 ? size : Math.min(maxlen, size);
        long[] matches = new long[(int) Math.min(count <= 0 ? limit : count, limit)];
        int[] found = {0};
        long[] seen = {0};
        long[] index = {0};
        byte[] element = argv[2];
        list.walk(reverse ? size - 1 : 0, reverse, (bytes, offset, length) -> {
            if (index[0] >= limit) {
                return false;
            }
            if (ListValue.equal(bytes, offset, length, element) && ++seen[0] >= wanted) {
                matches[found[0]++] = reverse ? size - 1 - index[0] : index[0];
                if (!all || found[0] == matches.length) {
                    return false;
                }
            }
            index[0]++;
            return true;
        });
        if (count < 0) {
            if (found[0] == 0) {
                reply.nullBulk();
            } else {
                reply.integer(matches[0]);
            }
            return;
        }
        reply.arrayHeader(found[0]);
        for (int i = 0; i < found[0]; i++) {
            reply.integer(matches[i]);
        }
    }

    /** Redis's getPositiveLongFromObjectOrReply with a message: the message for a non-number too. */
    private static long nonNegative(byte[] arg, String error) {
        long value = Args.parseLong(arg, error);
        if (value < 0) {
            throw new CommandError(error);
        }
        return value;
    }

    /** RPOPLPUSH source destination: logged as sent. */
    static void rpoplpush(Client client, byte[][] argv) {
        move(client, argv[1], argv[2], false, true);
    }

    /** LMOVE source destination LEFT|RIGHT LEFT|RIGHT: logged as sent. */
    static void lmove(Client client, byte[][] argv) {
        boolean fromHead = side(argv[3]);
        boolean toHead = side(argv[4]);
        move(client, argv[1], argv[2], fromHead, toHead);
    }

    /** LEFT is the head, RIGHT the tail; anything else a syntax error. */
    static boolean side(byte[] arg) {
        if (Args.is(arg, "left")) {
            return true;
        }
        if (Args.is(arg, "right")) {
            return false;
        }
        throw new CommandError(Errors.SYNTAX);
    }

    /**
     * Redis's lmoveGenericCommand: a missing source answers nil before the destination's type is
     * looked at; the destination's type is checked before the pop. Onto the same key it rotates
     * (a one-element list stays as it is, its TTL too).
     */
    static void move(Client client, byte[] from, byte[] to, boolean fromHead, boolean toHead) {
        Keyspace keyspace = client.keyspace();
        ListValue source = keyspace.list(from);
        if (source == null) {
            client.reply().nullBulk();
            return;
        }
        if (Arrays.equals(from, to)) {
            if (source.size() == 1) {
                client.reply().bulk(source.get(0));
            } else {
                byte[] element = source.pop(fromHead);
                source.push(element, toHead);
                client.reply().bulk(element);
            }
            // As Redis's lmoveGenericCommand: the push, then the pop, a one-element rotation too.
            client.events().notify(LIST, toHead ? "lpush" : "rpush", to, client.db());
            client.events().notify(LIST, fromHead ? "lpop" : "rpop", from, client.db());
            return;
        }
        ListValue destination = keyspace.list(to);
        byte[] element = source.pop(fromHead);
        (destination != null ? destination : keyspace.listForWrite(to)).push(element, toHead);
        // As Redis: the push is announced before the pop that fed it.
        client.events().notify(LIST, toHead ? "lpush" : "rpush", to, client.db());
        popped(client, from, source, fromHead);
        client.reply().bulk(element);
    }

    /**
     * LMPOP numkeys key [key ...] LEFT|RIGHT [COUNT count]: pops from the first key holding a
     * list (a key of another type on the way is WRONGTYPE); replies its name and the elements,
     * and is logged as the LPOP or RPOP with the count it took, as Redis rewrites it.
     */
    static void lmpop(Client client, byte[][] argv) {
        MultiPop request = MultiPop.parse(argv, 1, "left", "right");
        Keyspace keyspace = client.keyspace();
        for (int i = request.firstKey(); i < request.keysEnd(); i++) {
            ListValue list = keyspace.list(argv[i]);
            if (list != null) {
                popRange(client, argv[i], list, !request.fromEnd(), request.count());
                return;
            }
        }
        client.reply().nullArray();
    }

    /** LMPOP's reply from {@code list} under {@code key}: the key and up to {@code count} elements; logged as the pop. */
    static void popRange(Client client, byte[] key, ListValue list, boolean head, long count) {
        long popped = Math.min(count, list.size());
        Reply reply = client.reply();
        reply.arrayHeader(2);
        reply.bulk(key);
        reply.arrayHeader((int) popped);
        list.pop(head, popped, reply::bulk);
        popped(client, key, list, head);
        client.logAs(head ? LPOP : RPOP, key, Long.toString(popped).getBytes(StandardCharsets.US_ASCII));
    }
}
