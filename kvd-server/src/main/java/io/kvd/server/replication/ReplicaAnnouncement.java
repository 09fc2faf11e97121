package io.kvd.server.replication;

/**
 * What a connecting replica says of itself with REPLCONF before its PSYNC: the port it listens
 * on, the address to announce, and what it can take.
 */
public final class ReplicaAnnouncement {
    int listeningPort;
    String ip;
    boolean psync2;

    public void listeningPort(int port) {
        this.listeningPort = port;
    }

    public void ip(String ip) {
        this.ip = ip;
    }

    /** REPLCONF capa: psync2 lets +CONTINUE name the primary's replication id. */
    public void capability(String capa) {
        if (capa.equalsIgnoreCase("psync2")) {
            psync2 = true;
        }
    }
}
