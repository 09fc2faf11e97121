package io.kvd.server.command;

import io.kvd.server.client.Client;
import io.kvd.server.client.Command;
import io.kvd.server.client.Subcommands;
import io.kvd.server.evict.Eviction;
import io.kvd.server.evict.EvictionPolicy;
import io.kvd.server.protocol.Args;
import io.kvd.server.protocol.CommandError;
import io.kvd.server.store.KeyAccess;
import io.kvd.server.store.Keyspace;

import java.util.Set;

/** OBJECT ENCODING|REFCOUNT|IDLETIME|FREQ|HELP key, as Redis 7.0 answers them (object.c). */
public final class ObjectCommand {
    public static final Subcommands SUBCOMMANDS = new Subcommands("object")
            .add("encoding", 3, Set.of(Command.Flag.READONLY), ObjectCommand::encoding,
                    "ENCODING <key>",
                    "    Return the kind of internal representation used in order to store the value",
                    "    associated with a <key>.")
            .add("freq", 3, Set.of(Command.Flag.READONLY), ObjectCommand::freq,
                    "FREQ <key>",
                    "    Return the access frequency index of the <key>. The returned integer is",
                    "    proportional to the logarithm of the recent access frequency of the key.")
            .add("idletime", 3, Set.of(Command.Flag.READONLY), ObjectCommand::idletime,
                    "IDLETIME <key>",
                    "    Return the idle time of the <key>, that is the approximated number of",
                    "    seconds elapsed since the last access to the key.")
            .add("refcount", 3, Set.of(Command.Flag.READONLY), ObjectCommand::refcount,
                    "REFCOUNT <key>",
                    "    Return the number of references of the value associated with the specified",
                    "    <key>.")
            .withHelp();

    private ObjectCommand() {
    }

    static void object(Client client, byte[][] argv) {
        SUBCOMMANDS.dispatch(client, argv);
    }

    /** OBJECT ENCODING key: Redis's names for the encoding in use. */
    private static void encoding(Client client, byte[][] argv) {
        String encoding = client.keyspace().objectEncoding(argv[2]);
        if (encoding == null) {
            client.reply().nullBulk();
        } else {
            client.reply().bulk(encoding);
        }
    }

    /**
     * OBJECT REFCOUNT key: Redis shares the values 0..9999 (refcount INT_MAX) unless maxmemory is
     * set with an LRU or LFU policy, where each key needs its own access stamp
     * (MAXMEMORY_FLAG_NO_SHARED_INTEGERS). Redis decides when the value is stored; kvd, which
     * shares nothing, answers by the settings now.
     */
    private static void refcount(Client client, byte[][] argv) {
        Keyspace keyspace = client.keyspace();
        if (keyspace.type(argv[2]) == null) {
            client.reply().nullBulk();
            return;
        }
        byte[] value = keyspace.getIfString(argv[2]);
        Long number = value == null ? null : Args.toLong(value);
        Eviction eviction = client.server().eviction();
        EvictionPolicy policy = eviction.policy();
        boolean shared = eviction.maxmemory() == 0 || !(policy.isLfu() || policy.isLru());
        client.reply().integer(shared && number != null && number >= 0 && number < 10_000 ? Integer.MAX_VALUE : 1);
    }

    /** OBJECT IDLETIME key: seconds since the key was last accessed; refused under an LFU policy (Redis's texts). */
    private static void idletime(Client client, byte[][] argv) {
        int stamp = client.keyspace().accessStamp(argv[2]);
        if (stamp < 0) {
            client.reply().nullBulk();
            return;
        }
        KeyAccess access = client.keyspace().databases().access();
        if (access.isLfu()) {
            throw new CommandError("ERR An LFU maxmemory policy is selected, idle time not tracked. "
                    + "Please note that when switching between policies at runtime LRU and LFU data will take some "
                    + "time to adjust.");
        }
        client.reply().integer(access.idleMs(stamp) / 1000);
    }

    /** OBJECT FREQ key: the key's LFU counter, decayed to now; only an LFU policy tracks it (Redis's texts). */
    private static void freq(Client client, byte[][] argv) {
        int stamp = client.keyspace().accessStamp(argv[2]);
        if (stamp < 0) {
            client.reply().nullBulk();
            return;
        }
        KeyAccess access = client.keyspace().databases().access();
        if (!access.isLfu()) {
            throw new CommandError("ERR An LFU maxmemory policy is not selected, access frequency not tracked. "
                    + "Please note that when switching between policies at runtime LRU and LFU data will take some "
                    + "time to adjust.");
        }
        client.reply().integer(access.decremented(stamp));
    }
}
