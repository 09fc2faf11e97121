package io.kvd.server.replication;

/**
 * What a connecting replica says of itself with REPLCONF before its PSYNC: the port it listens
 * on, the address to announce, and what it can take.
 */
public final class ReplicaAnnouncement {
    int listeningPort;
    String ip;
    boolean psync2;
    boolean eof;

    public void listeningPort(int port) {
        this.listeningPort = port;
    }

    public void ip(String ip) {
        this.ip = ip;
    }

    /**
     * REPLCONF capa: psync2 lets +CONTINUE name the primary's replication id, eof lets a full
     * sync stream the RDB with an EOF mark instead of a length (a diskless sync).
     */
    public void capability(String capa) {
        if (capa.equalsIgnoreCase("psync2")) {
            psync2 = true;
        } else if (capa.equalsIgnoreCase("eof")) {
            eof = true;
        }
    }
}
