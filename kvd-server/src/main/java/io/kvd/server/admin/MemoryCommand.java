package io.kvd.server.admin;

import io.kvd.server.client.Client;
import io.kvd.server.client.Command;
import io.kvd.server.client.ServerState;
import io.kvd.server.client.Subcommands;
import io.kvd.server.memory.ServerMemory;
import io.kvd.server.protocol.Args;
import io.kvd.server.protocol.CommandError;
import io.kvd.server.protocol.Errors;
import io.kvd.server.protocol.Reply;
import io.kvd.server.store.Keyspace;

import java.util.Set;

/**
 * MEMORY USAGE|STATS|DOCTOR|MALLOC-STATS|PURGE|HELP, as Redis 7.0's memoryCommand (object.c)
 * replies, with kvd's figures: a key's cost is the store's estimate of the heap it holds
 * ({@link Keyspace#memoryUsage}), the server's are {@link ServerMemory}'s.
 */
public final class MemoryCommand {
    public static final Subcommands SUBCOMMANDS = new Subcommands("memory")
            .add("doctor", 2, MemoryCommand::doctor,
                    "DOCTOR",
                    "    Return memory problems reports.")
            .add("malloc-stats", 2, MemoryCommand::mallocStats,
                    "MALLOC-STATS",
                    "    Return internal statistics report from the memory allocator.")
            .add("purge", 2, MemoryCommand::purge,
                    "PURGE",
                    "    Attempt to purge dirty pages for reclamation by the allocator.")
            .add("stats", 2, MemoryCommand::stats,
                    "STATS",
                    "    Return information about the memory usage of the server.")
            .add("usage", -3, Set.of(Command.Flag.READONLY), MemoryCommand::usage,
                    "USAGE <key> [SAMPLES <count>]",
                    "    Return memory in bytes used by <key> and its value. Nested values are",
                    "    sampled up to <count> times (default: 5, 0 means sample all).")
            .withHelp();

    private MemoryCommand() {
    }

    public static void memory(Client client, byte[][] argv) {
        SUBCOMMANDS.dispatch(client, argv);
    }

    /** MEMORY USAGE key [SAMPLES count]: a negative count or any other argument is a syntax error, as Redis's. */
    private static void usage(Client client, byte[][] argv) {
        long samples = Keyspace.DEFAULT_MEMORY_SAMPLES;
        for (int i = 3; i < argv.length; i++) {
            if (!Args.is(argv[i], "samples") || i + 1 == argv.length) {
                throw new CommandError(Errors.SYNTAX);
            }
            samples = Args.parseLong(argv[++i]);
            if (samples < 0) {
                throw new CommandError(Errors.SYNTAX);
            }
            if (samples == 0) {
                samples = Long.MAX_VALUE;
            }
        }
        long bytes = client.keyspace().memoryUsage(argv[2], samples);
        if (bytes == 0) {
            client.reply().nullBulk();
        } else {
            client.reply().integer(bytes);
        }
    }

    /** MEMORY STATS: Redis 7.0's map of fields, in its order (a flat array in RESP2). */
    private static void stats(Client client, byte[][] argv) {
        ServerMemory.Overhead o = overhead(client.server());
        Reply reply = client.reply();
        reply.mapHeader(27 + o.databases().size());
        field(reply, "peak.allocated", o.peak());
        field(reply, "total.allocated", o.total());
        field(reply, "startup.allocated", o.startup());
        field(reply, "replication.backlog", 0);
        field(reply, "clients.slaves", 0);
        field(reply, "clients.normal", o.clientsNormal());
        field(reply, "cluster.links", 0);
        field(reply, "aof.buffer", o.aofBuffer());
        field(reply, "lua.caches", o.luaCaches());
        field(reply, "functions.caches", o.functionsCaches());
        for (ServerMemory.DatabaseOverhead db : o.databases()) {
            reply.bulk("db." + db.index());
            reply.mapHeader(3);
            field(reply, "overhead.hashtable.main", db.mainBytes());
            field(reply, "overhead.hashtable.expires", db.expiresBytes());
            // kvd keeps no per-slot key lists (COUNTKEYSINSLOT walks the keyspace).
            field(reply, "overhead.hashtable.slot-to-keys", 0);
        }
        field(reply, "overhead.total", o.overheadTotal());
        field(reply, "keys.count", o.keys());
        field(reply, "keys.bytes-per-key", o.bytesPerKey());
        field(reply, "dataset.bytes", o.dataset());
        field(reply, "dataset.percentage", o.datasetPercentage());
        field(reply, "peak.percentage", o.peakPercentage());
        field(reply, "allocator.allocated", o.allocated());
        field(reply, "allocator.active", o.active());
        field(reply, "allocator.resident", o.resident());
        field(reply, "allocator-fragmentation.ratio", o.allocatorFragmentation());
        field(reply, "allocator-fragmentation.bytes", o.allocatorFragmentationBytes());
        field(reply, "allocator-rss.ratio", o.allocatorRss());
        field(reply, "allocator-rss.bytes", o.allocatorRssBytes());
        field(reply, "rss-overhead.ratio", o.rssOverhead());
        field(reply, "rss-overhead.bytes", o.rssOverheadBytes());
        field(reply, "fragmentation", o.fragmentation());
        field(reply, "fragmentation.bytes", o.fragmentationBytes());
    }

    private static void field(Reply reply, String name, long value) {
        reply.bulk(name);
        reply.integer(value);
    }

    /** Redis's ratios are floats, replied as doubles (addReplyDouble: "%.17g" of the widened float). */
    private static void field(Reply reply, String name, float value) {
        reply.bulk(name);
        reply.doubleValue(value);
    }

    /** The figures of MEMORY STATS, DOCTOR and INFO memory. */
    static ServerMemory.Overhead overhead(ServerState server) {
        long clientBuffers = 0;
        for (Client client : server.clients().values()) {
            Client.Connection connection = client.connection();
            clientBuffers += client.reply().pendingBytes() + (connection == null ? 0 : connection.queryBufferBytes());
        }
        return server.memory().overhead(clientBuffers,
                server.commandLog().records().readableBytes(), server.scripting().evalMemoryBytes(),
                server.scripting().functionsMemoryBytes());
    }

    private static void doctor(Client client, byte[][] argv) {
        ServerState server = client.server();
        client.reply().verbatim(ServerMemory.doctor(overhead(server), server.clients().size(), server.scripting().cachedScripts()));
    }

    private static void mallocStats(Client client, byte[][] argv) {
        client.reply().verbatim(ServerMemory.mallocStats());
    }

    /**
     * MEMORY PURGE: Redis asks jemalloc to return dirty pages. The heap's free memory goes back
     * to the system as G1 shrinks it after a collection and the C heap is trimmed periodically
     * (HeapTuning); forcing a collection here would stop every client, so it does nothing.
     */
    private static void purge(Client client, byte[][] argv) {
        client.reply().ok();
    }
}
