package io.kvd.bench;

import io.kvd.codec.KeySlot;
import io.kvd.codec.RespReply;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A Redis Cluster's slot map as its CLUSTER SLOTS reply gives it, routing each key to the master that
 * serves the key's slot. Static: the map is read once, before the run, and a MOVED reply during the
 * run counts as an error, as any other.
 */
final class SlotMap implements KeyRouter {
    private static final int UNASSIGNED = -1;

    private final List<ServerAddress> masters;
    /** Per slot, the index of its master in {@link #masters}. */
    private final int[] masterOfSlot;

    private SlotMap(List<ServerAddress> masters, int[] masterOfSlot) {
        this.masters = List.copyOf(masters);
        this.masterOfSlot = masterOfSlot;
    }

    /** Asks {@code node} for CLUSTER SLOTS. @throws IOException if it cannot, or the map leaves a slot unserved */
    static SlotMap discover(ServerAddress node) throws IOException {
        RespReply reply;
        try (RespClient client = RespClient.connect(node)) {
            reply = client.call("CLUSTER", "SLOTS");
        } catch (IOException e) {
            throw new IOException("cannot ask " + node + " for CLUSTER SLOTS: " + e.getMessage(), e);
        }
        return parse(reply, node);
    }

    /**
     * Reads a CLUSTER SLOTS reply: one entry per slot range, {@code [first, last, [host, port, id...],
     * replicas...]}. A master whose host is empty or {@code ?} (unknown to the cluster) is reached at the
     * host of {@code node}, the one that was asked, as Redis's clients do.
     */
    static SlotMap parse(RespReply reply, ServerAddress node) throws IOException {
        if (!(reply instanceof RespReply.Array ranges) || ranges.elements() == null) {
            throw new IOException("CLUSTER SLOTS on " + node + " answered " + reply);
        }
        List<ServerAddress> masters = new ArrayList<>();
        int[] masterOfSlot = new int[KeySlot.SLOTS];
        Arrays.fill(masterOfSlot, UNASSIGNED);
        for (RespReply range : ranges.elements()) {
            List<RespReply> fields = elements(range, 3);
            long first = integer(fields.get(0));
            long last = integer(fields.get(1));
            ServerAddress master = address(elements(fields.get(2), 2), node);
            if (first < 0 || last >= KeySlot.SLOTS || first > last) {
                throw new IOException("CLUSTER SLOTS range " + first + "-" + last + " is not within 0-" + (KeySlot.SLOTS - 1));
            }
            if (!masters.contains(master)) {
                masters.add(master);
            }
            Arrays.fill(masterOfSlot, (int) first, (int) last + 1, masters.indexOf(master));
        }
        for (int slot = 0; slot < KeySlot.SLOTS; slot++) {
            if (masterOfSlot[slot] == UNASSIGNED) {
                throw new IOException("the cluster of " + node + " serves no slot " + slot + " (CLUSTER SLOTS)");
            }
        }
        return new SlotMap(masters, masterOfSlot);
    }

    /** The masters, in the order of their first slot range. */
    List<ServerAddress> masters() {
        return masters;
    }

    /** The index of the master serving {@code slot}. */
    int masterOf(int slot) {
        return masterOfSlot[slot];
    }

    @Override
    public int serverOf(RequestTemplate template, long keyNumber) {
        return masterOfSlot[template.slot(keyNumber)];
    }

    private static ServerAddress address(List<RespReply> node, ServerAddress asked) throws IOException {
        if (!(node.get(0) instanceof RespReply.BulkString host) || host.value() == null) {
            throw new IOException("CLUSTER SLOTS: a node's host is " + node.get(0));
        }
        String name = host.utf8();
        return new ServerAddress(name.isEmpty() || name.equals("?") ? asked.host() : name, (int) integer(node.get(1)));
    }

    private static List<RespReply> elements(RespReply reply, int atLeast) throws IOException {
        if (reply instanceof RespReply.Array array && array.elements() != null && array.elements().size() >= atLeast) {
            return array.elements();
        }
        throw new IOException("CLUSTER SLOTS: expected an array of at least " + atLeast + " elements, not " + reply);
    }

    private static long integer(RespReply reply) throws IOException {
        if (reply instanceof RespReply.Integer integer) {
            return integer.value();
        }
        throw new IOException("CLUSTER SLOTS: expected an integer, not " + reply);
    }
}
