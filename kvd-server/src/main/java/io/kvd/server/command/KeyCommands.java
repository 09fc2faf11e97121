package io.kvd.server.command;

import io.kvd.server.client.Client;
import io.kvd.server.glob.Glob;
import io.kvd.server.protocol.Args;
import io.kvd.server.protocol.CommandError;
import io.kvd.server.protocol.Errors;
import io.kvd.server.protocol.Reply;
import io.kvd.server.store.Keyspace;
import io.kvd.server.store.ValueType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static io.kvd.server.config.KeyspaceEventTypes.GENERIC;

/** Commands on keys of any type (Redis's db.c). */
final class KeyCommands {

    private KeyCommands() {
    }

    /** DEL key [key ...] */
    static void del(Client client, byte[][] argv) {
        int removed = 0;
        for (int i = 1; i < argv.length; i++) {
            if (client.keyspace().remove(argv[i])) {
                client.events().notify(GENERIC, "del", argv[i], client.db());
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

    /** TOUCH key [key ...]: counts like EXISTS, and stamps each key found as accessed (OBJECT IDLETIME, eviction). */
    static void touch(Client client, byte[][] argv) {
        int touched = 0;
        for (int i = 1; i < argv.length; i++) {
            if (client.keyspace().touch(argv[i])) {
                touched++;
            }
        }
        client.reply().integer(touched);
    }

    /** TYPE key */
    static void type(Client client, byte[][] argv) {
        ValueType type = client.keyspace().type(argv[1]);
        client.reply().simpleString(type == null ? "none" : type.typeName());
    }

    /** RENAME key newkey */
    static void rename(Client client, byte[][] argv) {
        if (renamed(client, argv[1], argv[2], false)) {
            client.reply().ok();
        }
    }

    /** RENAMENX key newkey */
    static void renamenx(Client client, byte[][] argv) {
        client.reply().integer(renamed(client, argv[1], argv[2], true) ? 1 : 0);
    }

    /** KEYS pattern */
    static void keys(Client client, byte[][] argv) {
        byte[] pattern = argv[1];
        boolean all = Scan.isMatchAll(pattern);
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
        long cursor = Scan.parseCursor(argv[1]);
        Scan.Options options = Scan.Options.parse(argv, 2, true);
        Keyspace keyspace = client.keyspace();
        byte[] type = options.type();
        Scan.reply(client, cursor, options, keyspace::scan, 1, key -> options.matches(key)
                && (type == null || isType(keyspace.type(key), type)));
    }

    /** Whether a key scanned (expired since, maybe: then it matches no type) has the type SCAN's TYPE names. */
    private static boolean isType(ValueType actual, byte[] type) {
        return actual != null && Args.is(type, actual.typeName());
    }

    /** MOVE key db */
    static void move(Client client, byte[][] argv) {
        if (client.server().config().cluster() != null) {
            throw new CommandError("ERR MOVE is not allowed in cluster mode");
        }
        Keyspace target = ConnectionCommands.database(client, Args.parseInt(argv[2], Errors.NOT_AN_INTEGER));
        Keyspace source = client.keyspace();
        if (target == source) {
            throw new CommandError(Errors.SAME_OBJECT);
        }
        // As Redis: a key already in the target is left alone, whatever its type.
        boolean moved = source.exists(argv[1]) && !target.exists(argv[1]) && source.move(argv[1], target);
        if (moved) {
            client.events().notify(GENERIC, "move_from", argv[1], source.index());
            client.events().notify(GENERIC, "move_to", argv[1], target.index());
        }
        client.reply().integer(moved ? 1 : 0);
    }

    /** COPY source destination [DB destination-db] [REPLACE] */
    static void copy(Client client, byte[][] argv) {
        Keyspace source = client.keyspace();
        Keyspace target = source;
        boolean replace = false;
        for (int i = 3; i < argv.length; i++) {
            if (Args.is(argv[i], "replace")) {
                replace = true;
            } else if (Args.is(argv[i], "db") && i + 1 < argv.length) {
                target = ConnectionCommands.database(client, Args.parseInt(argv[++i], Errors.NOT_AN_INTEGER));
            } else {
                throw new CommandError(Errors.SYNTAX);
            }
        }
        if (client.server().config().cluster() != null && (source.index() != 0 || target.index() != 0)) {
            throw new CommandError("ERR Copying to another database is not allowed in cluster mode");
        }
        if (source == target && Arrays.equals(argv[1], argv[2])) {
            throw new CommandError(Errors.SAME_OBJECT);
        }
        if (!source.exists(argv[1]) || !replace && target.exists(argv[2])) {
            client.reply().integer(0);
            return;
        }
        source.copy(argv[1], target, argv[2]);
        client.events().notify(GENERIC, "copy_to", argv[2], target.index());
        client.reply().integer(1);
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
    private static boolean renamed(Client client, byte[] from, byte[] to, boolean onlyIfNew) {
        Keyspace keyspace = client.keyspace();
        if (!keyspace.exists(from)) {
            throw new CommandError(Errors.NO_SUCH_KEY);
        }
        if (Arrays.equals(from, to)) {
            return !onlyIfNew;
        }
        if (onlyIfNew && keyspace.exists(to)) {
            return false;
        }
        keyspace.rename(from, to);
        client.events().notify(GENERIC, "rename_from", from, client.db());
        client.events().notify(GENERIC, "rename_to", to, client.db());
        return true;
    }

    private static void replyKeys(Reply reply, List<byte[]> keys) {
        reply.arrayHeader(keys.size());
        for (byte[] key : keys) {
            reply.bulk(key);
        }
    }
}
