package io.kvd.server.cluster;

import io.kvd.codec.KeySlot;

import java.util.ArrayList;
import java.util.List;

/**
 * The static Redis Cluster topology: which node owns each of the 16384 slots, and which node
 * this server is. Built once from the cluster file ({@link ClusterConfigFile}); never changes.
 */
public final class ClusterTopology {
    public static final String CROSSSLOT = "CROSSSLOT Keys in request don't hash to the same slot";

    private final List<ClusterNode> nodes;
    private final ClusterNode myself;
    private final ClusterNode[] owners;

    /** A run of consecutive slots owned by one node. */
    public record SlotRange(int first, int last, ClusterNode owner) {
    }

    /**
     * @param owners the owner of every slot, indexed by slot (each an element of {@code nodes})
     */
    ClusterTopology(List<ClusterNode> nodes, ClusterNode myself, ClusterNode[] owners) {
        this.nodes = List.copyOf(nodes);
        this.myself = myself;
        this.owners = owners.clone();
    }

    /** Every node, in the file's order. */
    public List<ClusterNode> nodes() {
        return nodes;
    }

    public ClusterNode myself() {
        return myself;
    }

    public boolean ownsSlot(int slot) {
        return owners[slot] == myself;
    }

    /** Every run of slots with one owner, ascending: CLUSTER SLOTS's entries. */
    public List<SlotRange> ranges() {
        return rangesOwnedBy(null);
    }

    /** The node's runs of slots, ascending (adjacent ranges of the file merged, as Redis prints them). */
    public List<SlotRange> rangesOf(ClusterNode node) {
        return rangesOwnedBy(node);
    }

    /**
     * Redis's getNodeByQuery for a command's keys (positions first, first + step, ... up to last;
     * a negative last counts from the end): null when this node serves them all, else the error:
     * CROSSSLOT when two keys hash to different slots (checked before ownership, as Redis does),
     * MOVED naming the slot's owner otherwise. Allocates only for the error.
     */
    public String redirection(byte[][] argv, int firstKey, int lastKey, int step) {
        int last = lastKey < 0 ? argv.length + lastKey : lastKey;
        int slot = KeySlot.of(argv[firstKey]);
        for (int i = firstKey + step; i <= last; i += step) {
            if (KeySlot.of(argv[i]) != slot) {
                return CROSSSLOT;
            }
        }
        return movedUnlessOwned(slot);
    }

    /**
     * The same for keys at {@code positions} (a command with movable keys, as its getkeys_proc
     * found them); a request without keys is served here, as Redis serves it.
     */
    public String redirection(byte[][] argv, int[] positions) {
        if (positions.length == 0) {
            return null;
        }
        int slot = KeySlot.of(argv[positions[0]]);
        for (int i = 1; i < positions.length; i++) {
            if (KeySlot.of(argv[positions[i]]) != slot) {
                return CROSSSLOT;
            }
        }
        return movedUnlessOwned(slot);
    }

    private String movedUnlessOwned(int slot) {
        ClusterNode owner = owners[slot];
        return owner == myself ? null : "MOVED " + slot + " " + owner.address();
    }

    /** Runs of the given owner's slots, or of every owner's when {@code node} is null. */
    private List<SlotRange> rangesOwnedBy(ClusterNode node) {
        List<SlotRange> ranges = new ArrayList<>();
        int start = 0;
        for (int slot = 1; slot <= owners.length; slot++) {
            if (slot == owners.length || owners[slot] != owners[start]) {
                if (node == null || owners[start] == node) {
                    ranges.add(new SlotRange(start, slot - 1, owners[start]));
                }
                start = slot;
            }
        }
        return ranges;
    }
}
