package io.kvd.server.cluster;

/**
 * One node of the static topology, as the cluster file names it.
 *
 * @param id    Redis's 40-hex-digit node id
 * @param host  the address clients are sent to (MOVED, CLUSTER SLOTS)
 * @param epoch its config epoch: its position in the file, 1 for the first, as
 *              {@code redis-cli --cluster create} numbers a new cluster's masters
 */
public record ClusterNode(String id, String host, int port, int epoch) {
    /** {@code host:port}, as MOVED names the node. */
    public String address() {
        return host + ":" + port;
    }
}
