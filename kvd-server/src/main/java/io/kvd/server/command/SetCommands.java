package io.kvd.server.command;

import io.kvd.server.client.Client;
import io.kvd.server.propagate.LogRecords;
import io.kvd.server.protocol.Args;
import io.kvd.server.protocol.CommandError;
import io.kvd.server.protocol.Errors;
import io.kvd.server.protocol.Reply;
import io.kvd.server.store.Keyspace;
import io.kvd.server.store.SetValue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import static io.kvd.server.config.KeyspaceEventTypes.GENERIC;
import static io.kvd.server.config.KeyspaceEventTypes.SET;
/**
 * Set commands (Redis 7.0's t_set.c). A key with an empty set does not exist: {@link SetValue}
 * deletes the key with its last member. Members are compared as bytes; a byte[] is wrapped in a
 * {@link ByteBuffer} wherever it must be a hash key, since arrays hash by identity.
 */
final class SetCommands {
    private static final String MUST_BE_POSITIVE = "ERR value is out of range, must be positive";
    private static final String COUNT_OUT_OF_RANGE =
            "ERR value is out of range, value must between -9223372036854775807 and 9223372036854775807";
    private static final String NUMKEYS_NOT_POSITIVE = "ERR numkeys should be greater than 0";
    private static final String NUMKEYS_PAST_ARGS = "ERR Number of keys can't be greater than number of args";
    private static final String LIMIT_NEGATIVE = "ERR LIMIT can't be negative";
    private static final byte[] SREM = Args.bytes("SREM");
    private static final byte[] ZERO = Args.bytes("0");
    /** SPOP pops one member at a time while more than a fifth of them stay (Redis's SPOP_MOVE_STRATEGY_MUL). */
    private static final int SPOP_MOVE_STRATEGY_MUL = 5;
    /** SRANDMEMBER drops members from the whole set rather than draw them when it wants over a third of it. */
    private static final int SRANDMEMBER_SUB_STRATEGY_MUL = 3;

    private SetCommands() {
    }

    /** SADD key member [member ...] */
    static void sadd(Client client, byte[][] argv) {
        int added = client.keyspace().setForWrite(argv[1]).addAll(argv, 2);
        if (added > 0) {
            client.events().notify(SET, "sadd", argv[1], client.db());
        }
        client.reply().integer(added);
    }

    /** SREM key member [member ...] */
    static void srem(Client client, byte[][] argv) {
        SetValue set = client.keyspace().set(argv[1]);
        int removed = 0;
        for (int i = 2; set != null && i < argv.length; i++) {
            if (set.remove(argv[i])) {
                removed++;
            }
        }
        if (removed > 0) {
            client.events().notify(SET, "srem", argv[1], client.db());
            deletedIfEmpty(client, argv[1], set);
        }
        client.reply().integer(removed);
    }

    /** SMEMBERS key: a set in RESP3, as the other commands answering members (Redis's addReplySetLen). */
    static void smembers(Client client, byte[][] argv) {
        SetValue set = client.keyspace().set(argv[1]);
        if (set == null) {
            client.reply().setHeader(0);
            return;
        }
        client.reply().setHeader(set.size());
        set.forEach(client.reply()::bulk);
    }

    /** SISMEMBER key member */
    static void sismember(Client client, byte[][] argv) {
        SetValue set = client.keyspace().set(argv[1]);
        client.reply().integer(set != null && set.contains(argv[2]) ? 1 : 0);
    }

    /** SMISMEMBER key member [member ...]: a missing key is an empty set, so all zeros. */
    static void smismember(Client client, byte[][] argv) {
        SetValue set = client.keyspace().set(argv[1]);
        client.reply().arrayHeader(argv.length - 2);
        for (int i = 2; i < argv.length; i++) {
            client.reply().integer(set != null && set.contains(argv[i]) ? 1 : 0);
        }
    }

    /** SCARD key */
    static void scard(Client client, byte[][] argv) {
        SetValue set = client.keyspace().set(argv[1]);
        client.reply().integer(set == null ? 0 : set.size());
    }

    /** SPOP key [count]: logged as SREM of the members popped (DEL when all went), never as SPOP. */
    static void spop(Client client, byte[][] argv) {
        if (argv.length > 3) {
            throw new CommandError(Errors.SYNTAX);
        }
        if (argv.length == 3) {
            spopWithCount(client, argv);
            return;
        }
        SetValue set = client.keyspace().set(argv[1]);
        if (set == null) {
            client.reply().nullBulk();
            return;
        }
        byte[] member = set.randomMember();
        set.remove(member);
        client.events().notify(SET, "spop", argv[1], client.db());
        deletedIfEmpty(client, argv[1], set);
        client.logAs(SREM, argv[1], member);
        client.reply().bulk(member);
    }

    /**
     * Redis's spopWithCountCommand: the count is checked before the key (any bad count is "must be
     * positive"); popping at least every member replies as SUNION of the set would and deletes it.
     */
    private static void spopWithCount(Client client, byte[][] argv) {
        long count = Args.parseLong(argv[2], MUST_BE_POSITIVE);
        if (count < 0) {
            throw new CommandError(MUST_BE_POSITIVE);
        }
        Keyspace keyspace = client.keyspace();
        SetValue set = keyspace.set(argv[1]);
        if (set == null || count == 0) {
            client.reply().setHeader(0);
            return;
        }
        int size = set.size();
        if (count >= size) {
            List<byte[]> members = members(set);
            keyspace.remove(argv[1]);
            client.events().notify(SET, "spop", argv[1], client.db());
            client.events().notify(GENERIC, "del", argv[1], client.db());
            client.logAs(LogRecords.del(argv[1]));
            replyAsBuiltSet(client, members);
            return;
        }
        int popped = (int) count;
        int remaining = size - popped;
        // One SREM with every member popped; Redis logs one SREM per member inside MULTI/EXEC, to the same effect.
        byte[][] record = new byte[2 + popped][];
        record[0] = SREM;
        record[1] = argv[1];
        client.reply().setHeader(popped);
        if ((long) remaining * SPOP_MOVE_STRATEGY_MUL > popped) {
            for (int i = 0; i < popped; i++) {
                byte[] member = set.randomMember();
                set.remove(member);
                client.reply().bulk(member);
                record[2 + i] = member;
            }
        } else {
            // Most members go: as Redis, draw the ones that stay, reply with the rest in the set's
            // order, and store those that stay as a new set (an intset again if they can be one),
            // keeping the key's TTL as Redis's dbOverwrite does.
            long deadline = keyspace.deadline(argv[1]);
            List<byte[]> kept = new ArrayList<>(remaining);
            for (int i = 0; i < remaining; i++) {
                byte[] member = set.randomMember();
                set.remove(member);
                kept.add(member);
            }
            int[] next = {2};
            set.forEach(member -> {
                client.reply().bulk(member);
                record[next[0]++] = member;
            });
            keyspace.rebuild(argv[1], () -> kept.forEach(keyspace.setForWrite(argv[1])::add));
            if (deadline >= 0) {
                keyspace.setDeadline(argv[1], deadline);
            }
        }
        client.events().notify(SET, "spop", argv[1], client.db());
        client.logAs(record);
    }

    /** SRANDMEMBER key [count] */
    static void srandmember(Client client, byte[][] argv) {
        if (argv.length > 3) {
            throw new CommandError(Errors.SYNTAX);
        }
        if (argv.length == 3) {
            srandmemberWithCount(client, argv);
            return;
        }
        SetValue set = client.keyspace().set(argv[1]);
        client.reply().bulk(set == null ? null : set.randomMember());
    }

    /**
     * Redis's srandmemberWithCountCommand: a negative count may repeat members (its absolute value
     * must fit a long, as Redis 7.0.15 checks), a positive one returns distinct members, at most all.
     */
    private static void srandmemberWithCount(Client client, byte[][] argv) {
        long count = Args.parseLong(argv[2]);
        if (count == Long.MIN_VALUE) {
            throw new CommandError(COUNT_OUT_OF_RANGE);
        }
        SetValue set = client.keyspace().set(argv[1]);
        Reply reply = client.reply();
        if (set == null || count == 0) {
            reply.arrayHeader(0);
            return;
        }
        if (count < 0 || count == 1) {
            repeatRandomMembers(client, set, Math.abs(count));
            return;
        }
        int size = set.size();
        if (count >= size) {
            reply.arrayHeader(size);
            set.forEach(reply::bulk);
            return;
        }
        int wanted = (int) count;
        reply.arrayHeader(wanted);
        if ((long) wanted * SRANDMEMBER_SUB_STRATEGY_MUL > size) {
            Set<ByteBuffer> dropped = distinctRandomMembers(set, size - wanted);
            set.forEach(member -> {
                if (!dropped.contains(ByteBuffer.wrap(member))) {
                    reply.bulk(member);
                }
            });
        } else {
            distinctRandomMembers(set, wanted).forEach(member -> reply.bulk(member.array()));
        }
    }

    /**
     * {@code count} members drawn independently. Redis stops once the client is to be closed for
     * its output; here, once the reply passed the hard output-buffer limit, which closes the
     * client after the command. Without a limit both go on until memory or the reply buffer (2 GB
     * in kvd) runs out.
     */
    private static void repeatRandomMembers(Client client, SetValue set, long count) {
        long hardLimit = client.server().config().outputBufferLimit().hardBytes();
        Reply reply = client.reply();
        reply.arrayHeader(count);
        for (long i = 0; i < count && (hardLimit == 0 || reply.pendingBytes() < hardLimit); i++) {
            reply.bulk(set.randomMember());
        }
    }

    /** {@code count} distinct members, in the order first drawn; count must not exceed the set's size. */
    private static Set<ByteBuffer> distinctRandomMembers(SetValue set, int count) {
        Set<ByteBuffer> drawn = new LinkedHashSet<>();
        while (drawn.size() < count) {
            drawn.add(ByteBuffer.wrap(set.randomMember()));
        }
        return drawn;
    }

    /** SMOVE source destination member: logged as itself. */
    static void smove(Client client, byte[][] argv) {
        Keyspace keyspace = client.keyspace();
        SetValue source = keyspace.set(argv[1]);
        if (source == null) {
            // As Redis: a missing source answers 0 before the destination's type is looked at.
            client.reply().integer(0);
            return;
        }
        boolean sameKey = Arrays.equals(argv[1], argv[2]);
        // The destination's type is checked even when the member is not in the source.
        keyspace.set(argv[2]);
        if (sameKey) {
            client.reply().integer(source.contains(argv[3]) ? 1 : 0);
            return;
        }
        if (!source.remove(argv[3])) {
            client.reply().integer(0);
            return;
        }
        client.events().notify(SET, "srem", argv[1], client.db());
        deletedIfEmpty(client, argv[1], source);
        keyspace.setForWrite(argv[2]).add(argv[3]);
        client.events().notify(SET, "sadd", argv[2], client.db());
        client.reply().integer(1);
    }

    /** SINTER key [key ...] */
    static void sinter(Client client, byte[][] argv) {
        replyMembers(client, intersection(sets(client.keyspace(), argv, 1, argv.length), 0));
    }

    /** SINTERSTORE destination key [key ...]: logged as itself. */
    static void sinterstore(Client client, byte[][] argv) {
        store(client, argv[1], intersection(sets(client.keyspace(), argv, 2, argv.length), 0), "sinterstore");
    }

    /** SINTERCARD numkeys key [key ...] [LIMIT limit] */
    static void sintercard(Client client, byte[][] argv) {
        long numkeys = Args.parseLong(argv[1], NUMKEYS_NOT_POSITIVE);
        if (numkeys < 1) {
            throw new CommandError(NUMKEYS_NOT_POSITIVE);
        }
        if (numkeys > argv.length - 2) {
            throw new CommandError(NUMKEYS_PAST_ARGS);
        }
        int end = 2 + (int) numkeys;
        long limit = 0;
        for (int i = end; i < argv.length; i++) {
            if (Args.is(argv[i], "limit") && i + 1 < argv.length) {
                limit = Args.parseLong(argv[++i], LIMIT_NEGATIVE);
                if (limit < 0) {
                    throw new CommandError(LIMIT_NEGATIVE);
                }
            } else {
                throw new CommandError(Errors.SYNTAX);
            }
        }
        client.reply().integer(intersection(sets(client.keyspace(), argv, 2, end), limit).size());
    }

    /** SUNION key [key ...] */
    static void sunion(Client client, byte[][] argv) {
        replyAsBuiltSet(client, union(sets(client.keyspace(), argv, 1, argv.length)));
    }

    /** SUNIONSTORE destination key [key ...]: logged as itself. */
    static void sunionstore(Client client, byte[][] argv) {
        store(client, argv[1], union(sets(client.keyspace(), argv, 2, argv.length)), "sunionstore");
    }

    /** SDIFF key [key ...] */
    static void sdiff(Client client, byte[][] argv) {
        replyAsBuiltSet(client, difference(sets(client.keyspace(), argv, 1, argv.length)));
    }

    /** SDIFFSTORE destination key [key ...]: logged as itself. */
    static void sdiffstore(Client client, byte[][] argv) {
        store(client, argv[1], difference(sets(client.keyspace(), argv, 2, argv.length)), "sdiffstore");
    }

    /**
     * SSCAN key cursor [MATCH pattern] [COUNT count]
     *
     * <p>As Redis: the cursor is read before the key is looked up, the options only for a set
     * that exists; an intset (and kvd's packed set) answers whole with cursor 0.
     */
    static void sscan(Client client, byte[][] argv) {
        long cursor = Scan.parseCursor(argv[2]);
        SetValue set = client.keyspace().set(argv[1]);
        if (set == null) {
            client.reply().arrayHeader(2);
            client.reply().bulk(ZERO);
            client.reply().arrayHeader(0);
            return;
        }
        Scan.Options options = Scan.Options.parse(argv, 3, false);
        Scan.reply(client, cursor, options, set::scan, 1, options::matches);
    }

    /**
     * The sets under {@code argv[from..to)}, null for a missing key. Every key is looked up before
     * anything else, as Redis does, so WRONGTYPE for any of them wins over a missing one.
     */
    private static SetValue[] sets(Keyspace keyspace, byte[][] argv, int from, int to) {
        SetValue[] sets = new SetValue[to - from];
        for (int i = from; i < to; i++) {
            sets[i - from] = keyspace.set(argv[i]);
        }
        return sets;
    }

    /**
     * Redis's sinterGenericCommand: empty if any set is missing; else the members of the smallest
     * set (in its order, so ascending for an intset) that every other set holds, at most
     * {@code limit} of them (0: no limit). The sort is stable, as glibc's qsort (a merge sort)
     * leaves sets of equal size in the order given.
     */
    private static List<byte[]> intersection(SetValue[] sets, long limit) {
        List<byte[]> found = new ArrayList<>();
        if (Arrays.asList(sets).contains(null)) {
            return found;
        }
        SetValue[] bySize = sets.clone();
        Arrays.sort(bySize, Comparator.comparingInt(SetValue::size));
        bySize[0].forEach(member -> {
            if (limit != 0 && found.size() >= limit) {
                return;
            }
            for (int i = 1; i < bySize.length; i++) {
                if (!bySize[i].contains(member)) {
                    return;
                }
            }
            found.add(member);
        });
        return found;
    }

    /** Every member of the sets (missing ones are empty), each once. */
    private static List<byte[]> union(SetValue[] sets) {
        Set<ByteBuffer> seen = new HashSet<>();
        List<byte[]> members = new ArrayList<>();
        for (SetValue set : sets) {
            if (set != null) {
                set.forEach(member -> {
                    if (seen.add(ByteBuffer.wrap(member))) {
                        members.add(member);
                    }
                });
            }
        }
        return members;
    }

    /** The members of the first set that no other set holds (a missing set is empty). */
    private static List<byte[]> difference(SetValue[] sets) {
        List<byte[]> members = new ArrayList<>();
        if (sets[0] == null) {
            return members;
        }
        sets[0].forEach(member -> {
            for (int i = 1; i < sets.length; i++) {
                if (sets[i] != null && sets[i].contains(member)) {
                    return;
                }
            }
            members.add(member);
        });
        return members;
    }

    private static List<byte[]> members(SetValue set) {
        List<byte[]> members = new ArrayList<>(set.size());
        set.forEach(members::add);
        return members;
    }

    private static void replyMembers(Client client, List<byte[]> members) {
        client.reply().setHeader(members.size());
        members.forEach(client.reply()::bulk);
    }

    /**
     * Replies with the members in the order of the set Redis builds to hold them (SUNION, SDIFF,
     * SPOP of every member): an intset, so ascending, while they are all integers and no more than
     * set-max-intset-entries; otherwise a hashtable, whose order no client can rely on, and kvd
     * keeps the order found. An integer member's text is exactly its value's decimal form (Redis's
     * string2ll accepts no other), so the sorted values are replied as they print.
     */
    private static void replyAsBuiltSet(Client client, List<byte[]> members) {
        long[] values = members.size() <= client.keyspace().limits().setMaxIntsetEntries() ? integers(members) : null;
        if (values == null) {
            replyMembers(client, members);
            return;
        }
        Arrays.sort(values);
        client.reply().setHeader(values.length);
        for (long value : values) {
            client.reply().bulk(Long.toString(value));
        }
    }

    /** The members' values when every one is an integer as Redis reads it (string2ll), else null. */
    private static long[] integers(List<byte[]> members) {
        long[] values = new long[members.size()];
        for (int i = 0; i < values.length; i++) {
            Long value = Args.toLong(members.get(i));
            if (value == null) {
                return null;
            }
            values[i] = value;
        }
        return values;
    }

    /**
     * The *STORE forms: the destination, whatever it held, is replaced by a new set of the members
     * (no TTL), or deleted when there are none; the reply is the count.
     */
    private static void store(Client client, byte[] destination, List<byte[]> members, String event) {
        Keyspace keyspace = client.keyspace();
        boolean removed = keyspace.rebuild(destination, () -> members.forEach(keyspace.setForWrite(destination)::add));
        if (!members.isEmpty()) {
            client.events().notify(SET, event, destination, client.db());
        } else if (removed) {
            client.events().notify(GENERIC, "del", destination, client.db());
        }
        client.reply().integer(members.size());
    }

    /** The del event of a set whose last member went. */
    private static void deletedIfEmpty(Client client, byte[] key, SetValue set) {
        if (set.size() == 0) {
            client.events().notify(GENERIC, "del", key, client.db());
        }
    }
}
