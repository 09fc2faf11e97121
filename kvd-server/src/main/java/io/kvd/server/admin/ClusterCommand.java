package io.kvd.server.admin;

import io.kvd.codec.KeySlot;
import io.kvd.server.client.Client;
import io.kvd.server.client.Subcommands;
import io.kvd.server.cluster.ClusterNode;
import io.kvd.server.cluster.ClusterTopology.SlotRange;
import io.kvd.server.cluster.ClusterTopology;
import io.kvd.server.protocol.Args;
import io.kvd.server.protocol.CommandError;
import io.kvd.server.protocol.Reply;

import java.util.ArrayList;
import java.util.List;

/**
 * CLUSTER INFO | MYID | NODES | SLOTS | SHARDS | KEYSLOT | COUNTKEYSINSLOT | GETKEYSINSLOT | HELP,
 * READONLY and READWRITE: the static topology of cluster-config-file, reported as Redis 7.0
 * reports a healthy cluster of masters without replicas. There is no cluster bus: no messages, no
 * bus port (0), every link "connected".
 */
public final class ClusterCommand {
    private static final String DISABLED = "ERR This instance has cluster support disabled";

    public static final Subcommands SUBCOMMANDS = new Subcommands("cluster")
            .add("countkeysinslot", 3, ClusterCommand::countkeysinslot,
                    "COUNTKEYSINSLOT <slot>",
                    "    Return the number of keys in <slot>.")
            .add("getkeysinslot", 4, ClusterCommand::getkeysinslot,
                    "GETKEYSINSLOT <slot> <count>",
                    "    Return key names stored by current node in a slot.")
            .add("info", 2, ClusterCommand::info,
                    "INFO",
                    "    Return information about the cluster.")
            .add("keyslot", 3, ClusterCommand::keyslot,
                    "KEYSLOT <key>",
                    "    Return the hash slot for <key>.")
            .add("myid", 2, ClusterCommand::myid,
                    "MYID",
                    "    Return the node id.")
            .add("nodes", 2, ClusterCommand::nodes,
                    "NODES",
                    "    Return cluster configuration seen by node. Output format:",
                    "    <id> <ip:port> <flags> <master> <pings> <pongs> <epoch> <link> <slot> ...")
            .add("slots", 2, ClusterCommand::slots,
                    "SLOTS",
                    "    Return information about slots range mappings. Each range is made of:",
                    "    start, end, master and replicas IP addresses, ports and ids")
            .add("shards", 2, ClusterCommand::shards,
                    "SHARDS",
                    "    Return information about slot range mappings and the nodes associated with them.")
            .add("help", 2, ClusterCommand::help,
                    "HELP",
                    "    Prints this help.");

    private ClusterCommand() {
    }

    /** As Redis: a subcommand is looked up and its arity checked before the cluster-disabled error. */
    public static void cluster(Client client, byte[][] argv) {
        SUBCOMMANDS.dispatch(client, argv);
    }

    /** READONLY and READWRITE: every node is a master, so reads are served the same either way. */
    public static void readonlyOrReadwrite(Client client, byte[][] argv) {
        topology(client);
        client.reply().ok();
    }

    private static ClusterTopology topology(Client client) {
        ClusterTopology topology = client.server().config().cluster();
        if (topology == null) {
            throw new CommandError(DISABLED);
        }
        return topology;
    }

    private static void help(Client client, byte[][] argv) {
        topology(client);
        SUBCOMMANDS.help(client, argv);
    }

    /** The fields of Redis's CLUSTER INFO that a static cluster of healthy masters has. */
    private static void info(Client client, byte[][] argv) {
        ClusterTopology topology = topology(client);
        long size = topology.nodes().stream().filter(n -> !topology.rangesOf(n).isEmpty()).count();
        String text = "cluster_state:ok\r\n"
                + "cluster_slots_assigned:" + KeySlot.SLOTS + "\r\n"
                + "cluster_slots_ok:" + KeySlot.SLOTS + "\r\n"
                + "cluster_slots_pfail:0\r\n"
                + "cluster_slots_fail:0\r\n"
                + "cluster_known_nodes:" + topology.nodes().size() + "\r\n"
                + "cluster_size:" + size + "\r\n"
                + "cluster_current_epoch:" + topology.nodes().size() + "\r\n"
                + "cluster_my_epoch:" + topology.myself().epoch() + "\r\n"
                + "cluster_stats_messages_sent:0\r\n"
                + "cluster_stats_messages_received:0\r\n"
                + "total_cluster_links_buffer_limit_exceeded:0\r\n";
        client.reply().verbatim(text);
    }

    private static void myid(Client client, byte[][] argv) {
        client.reply().bulk(topology(client).myself().id());
    }

    /** {@code <id> <host>:<port>@<bus port> <flags> - <ping sent> <pong received> <epoch> connected <slots>}, a line per node. */
    private static void nodes(Client client, byte[][] argv) {
        ClusterTopology topology = topology(client);
        StringBuilder text = new StringBuilder();
        for (ClusterNode node : topology.nodes()) {
            text.append(node.id()).append(' ').append(node.address()).append("@0 ")
                    .append(node == topology.myself() ? "myself,master" : "master")
                    .append(" - 0 0 ").append(node.epoch()).append(" connected");
            for (SlotRange range : topology.rangesOf(node)) {
                text.append(' ').append(range.first());
                if (range.last() != range.first()) {
                    text.append('-').append(range.last());
                }
            }
            text.append('\n');
        }
        client.reply().verbatim(text.toString());
    }

    /** Each run of slots: start, end, then its master as host, port, id and (Redis 7) an empty metadata map. */
    private static void slots(Client client, byte[][] argv) {
        List<SlotRange> ranges = topology(client).ranges();
        Reply reply = client.reply();
        reply.arrayHeader(ranges.size());
        for (SlotRange range : ranges) {
            reply.arrayHeader(3);
            reply.integer(range.first());
            reply.integer(range.last());
            reply.arrayHeader(4);
            reply.bulk(range.owner().host());
            reply.integer(range.owner().port());
            reply.bulk(range.owner().id());
            reply.arrayHeader(0);
        }
    }

    /** A shard per node: its slot ranges as start/end pairs, and the node itself, in Redis 7.0's field order. */
    private static void shards(Client client, byte[][] argv) {
        ClusterTopology topology = topology(client);
        Reply reply = client.reply();
        reply.arrayHeader(topology.nodes().size());
        for (ClusterNode node : topology.nodes()) {
            List<SlotRange> ranges = topology.rangesOf(node);
            reply.mapHeader(2);
            reply.bulk("slots");
            reply.arrayHeader(ranges.size() * 2);
            for (SlotRange range : ranges) {
                reply.integer(range.first());
                reply.integer(range.last());
            }
            reply.bulk("nodes");
            reply.arrayHeader(1);
            reply.mapHeader(7);
            reply.bulk("id");
            reply.bulk(node.id());
            reply.bulk("port");
            reply.integer(node.port());
            reply.bulk("ip");
            reply.bulk(node.host());
            reply.bulk("endpoint");
            reply.bulk(node.host());
            reply.bulk("role");
            reply.bulk("master");
            reply.bulk("replication-offset");
            reply.integer(0);
            reply.bulk("health");
            reply.bulk("online");
        }
    }

    private static void keyslot(Client client, byte[][] argv) {
        topology(client);
        client.reply().integer(KeySlot.of(argv[2]));
    }

    /**
     * The live keys of the slot. kvd keeps no per-slot index (it would cost memory on every key):
     * this walks the whole keyspace, O(keys), hashing each.
     */
    private static void countkeysinslot(Client client, byte[][] argv) {
        topology(client);
        long slot = Args.parseLong(argv[2]);
        if (slot < 0 || slot >= KeySlot.SLOTS) {
            throw new CommandError("ERR Invalid slot");
        }
        long[] count = {0};
        client.keyspace().forEachKey(key -> {
            if (KeySlot.of(key) == slot) {
                count[0]++;
            }
        });
        client.reply().integer(count[0]);
    }

    /** Up to count live keys of the slot; like COUNTKEYSINSLOT a walk of the whole keyspace. */
    private static void getkeysinslot(Client client, byte[][] argv) {
        topology(client);
        long slot = Args.parseLong(argv[2]);
        long count = Args.parseLong(argv[3]);
        if (slot < 0 || slot >= KeySlot.SLOTS || count < 0) {
            throw new CommandError("ERR Invalid slot or number of keys");
        }
        List<byte[]> keys = new ArrayList<>();
        client.keyspace().forEachKey(key -> {
            if (keys.size() < count && KeySlot.of(key) == slot) {
                keys.add(key);
            }
        });
        client.reply().arrayHeader(keys.size());
        keys.forEach(client.reply()::bulk);
    }
}
