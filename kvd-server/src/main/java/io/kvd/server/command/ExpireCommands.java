package io.kvd.server.command;

import io.kvd.server.client.Client;
import io.kvd.server.propagate.LogRecords;
import io.kvd.server.protocol.Args;
import io.kvd.server.protocol.CommandError;
import io.kvd.server.store.Keyspace;

import static io.kvd.server.config.KeyspaceEventTypes.GENERIC;

/** Commands that set, read or drop a key's time to live (Redis's expire.c). */
final class ExpireCommands {
    private ExpireCommands() {
    }

    /** EXPIRE key seconds [NX|XX|GT|LT] */
    static void expire(Client client, byte[][] argv) {
        setExpiry(client, argv, "expire", client.keyspace().now(), 1000);
    }

    /** PEXPIRE key milliseconds [NX|XX|GT|LT] */
    static void pexpire(Client client, byte[][] argv) {
        setExpiry(client, argv, "pexpire", client.keyspace().now(), 1);
    }

    /** EXPIREAT key unix-time-seconds [NX|XX|GT|LT] */
    static void expireat(Client client, byte[][] argv) {
        setExpiry(client, argv, "expireat", 0, 1000);
    }

    /** PEXPIREAT key unix-time-milliseconds [NX|XX|GT|LT] */
    static void pexpireat(Client client, byte[][] argv) {
        setExpiry(client, argv, "pexpireat", 0, 1);
    }

    /** TTL key */
    static void ttl(Client client, byte[][] argv) {
        replyTime(client, argv[1], false, false);
    }

    /** PTTL key */
    static void pttl(Client client, byte[][] argv) {
        replyTime(client, argv[1], true, false);
    }

    /** EXPIRETIME key */
    static void expiretime(Client client, byte[][] argv) {
        replyTime(client, argv[1], false, true);
    }

    /** PEXPIRETIME key */
    static void pexpiretime(Client client, byte[][] argv) {
        replyTime(client, argv[1], true, true);
    }

    /** PERSIST key */
    static void persist(Client client, byte[][] argv) {
        Keyspace keyspace = client.keyspace();
        boolean hadDeadline = keyspace.deadline(argv[1]) >= 0;
        if (hadDeadline) {
            keyspace.setDeadline(argv[1], Keyspace.PERSISTENT);
            client.events().notify(GENERIC, "persist", argv[1], client.db());
        }
        client.reply().integer(hadDeadline ? 1 : 0);
    }

    /**
     * Redis's expireGenericCommand: options are checked before the time, the time is checked for
     * overflow before the key is looked up, and a deadline not in the future deletes the key.
     */
    private static void setExpiry(Client client, byte[][] argv, String name, long base, long unitMs) {
        ExpiryCondition condition = ExpiryCondition.parse(argv);
        long when = Args.parseLong(argv[2]);
        if (when > Long.MAX_VALUE / unitMs || when < Long.MIN_VALUE / unitMs || when * unitMs > Long.MAX_VALUE - base) {
            throw new CommandError("ERR invalid expire time in '" + name + "' command");
        }
        long deadline = when * unitMs + base;
        Keyspace keyspace = client.keyspace();
        long current = keyspace.deadline(argv[1]);
        if (current == Keyspace.MISSING || !condition.allows(current, deadline)) {
            client.reply().integer(0);
            return;
        }
        if (deadline <= keyspace.now()) {
            keyspace.remove(argv[1]);
            client.events().notify(GENERIC, "del", argv[1], client.db());
            client.logAs(LogRecords.del(argv[1]));
        } else {
            keyspace.setDeadline(argv[1], deadline);
            client.events().notify(GENERIC, "expire", argv[1], client.db());
            client.logAs(LogRecords.pexpireat(argv[1], deadline));
        }
        client.reply().integer(1);
    }

    /** Redis's ttlGenericCommand: -2 missing, -1 no deadline, else ms or seconds rounded to nearest. */
    private static void replyTime(Client client, byte[] key, boolean inMs, boolean absolute) {
        Keyspace keyspace = client.keyspace();
        long deadline = keyspace.deadline(key);
        if (deadline < 0) {
            client.reply().integer(deadline);
            return;
        }
        long time = Math.max(0, absolute ? deadline : deadline - keyspace.now());
        // Unsigned, as Redis's compiled (ttl+500)/1000 behaves for a deadline near Long.MAX_VALUE.
        client.reply().integer(inMs ? time : Long.divideUnsigned(time + 500, 1000));
    }

    /** The NX|XX|GT|LT options of the EXPIRE family (Redis 7's parseExtendedExpireArgumentsOrReply). */
    private record ExpiryCondition(boolean nx, boolean xx, boolean gt, boolean lt) {
        static ExpiryCondition parse(byte[][] argv) {
            boolean nx = false;
            boolean xx = false;
            boolean gt = false;
            boolean lt = false;
            for (int i = 3; i < argv.length; i++) {
                if (Args.is(argv[i], "nx")) {
                    nx = true;
                } else if (Args.is(argv[i], "xx")) {
                    xx = true;
                } else if (Args.is(argv[i], "gt")) {
                    gt = true;
                } else if (Args.is(argv[i], "lt")) {
                    lt = true;
                } else {
                    throw new CommandError("ERR Unsupported option " + Args.utf8(argv[i]));
                }
            }
            if (nx && (xx || gt || lt)) {
                throw new CommandError("ERR NX and XX, GT or LT options at the same time are not compatible");
            }
            if (gt && lt) {
                throw new CommandError("ERR GT and LT options at the same time are not compatible");
            }
            return new ExpiryCondition(nx, xx, gt, lt);
        }

        /** Whether the new deadline may replace {@code current}; no deadline counts as infinite for GT and LT. */
        boolean allows(long current, long deadline) {
            boolean persistent = current == Keyspace.PERSISTENT;
            if (nx && !persistent || xx && persistent) {
                return false;
            }
            if (gt && (persistent || deadline <= current)) {
                return false;
            }
            return !lt || persistent || deadline < current;
        }
    }
}
