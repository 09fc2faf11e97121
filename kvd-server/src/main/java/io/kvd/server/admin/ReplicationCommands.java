package io.kvd.server.admin;

import io.kvd.server.client.Client;
import io.kvd.server.client.ServerState;
import io.kvd.server.protocol.Args;
import io.kvd.server.protocol.CommandError;
import io.kvd.server.protocol.Errors;
import io.kvd.server.protocol.Reply;
import io.kvd.server.replication.ConnectedReplica;
import io.kvd.server.replication.MasterLink;
import io.kvd.server.replication.ReplicaAnnouncement;
import io.kvd.server.replication.ReplicaOutput;
import io.kvd.server.replication.Replication;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.function.LongConsumer;

/** REPLICAOF (SLAVEOF), SYNC, PSYNC, REPLCONF, ROLE, WAIT and FAILOVER, over {@link Replication} (Redis's replication.c). */
public final class ReplicationCommands {
    private static final Logger log = LoggerFactory.getLogger(ReplicationCommands.class);

    private ReplicationCommands() {
    }

    /** REPLICAOF host port | NO ONE */
    public static void replicaof(Client client, byte[][] argv) {
        ServerState server = client.server();
        if (server.config().cluster() != null) {
            throw new CommandError("ERR REPLICAOF not allowed in cluster mode.");
        }
        Replication replication = server.replication();
        if (Args.is(argv[1], "no") && Args.is(argv[2], "one")) {
            if (replication.isReplica()) {
                replication.promote();
                log.info("MASTER MODE enabled (user request from '{}')", client.connection().remoteAddress());
            }
            client.reply().ok();
            return;
        }
        if (client.replica() != null) {
            throw new CommandError("ERR Command is not valid when client is a replica.");
        }
        String host = Args.utf8(argv[1]);
        long port = Args.parseLong(argv[2]);
        if (port < 0 || port > 65535) {
            throw new CommandError("ERR Invalid master port");
        }
        MasterLink master = replication.master();
        if (master != null && master.host().equalsIgnoreCase(host) && master.port() == port) {
            log.info("REPLICAOF would result into synchronization with the master we are already connected with. "
                    + "No operation performed.");
            client.reply().simpleString("OK Already connected to specified master");
            return;
        }
        replication.replicaOf(host, (int) port);
        log.info("REPLICAOF {}:{} enabled (user request from '{}')", host, port, client.connection().remoteAddress());
        client.reply().ok();
    }

    /** SYNC: a full sync, without PSYNC's +FULLRESYNC line. */
    public static void sync(Client client, byte[][] argv) {
        startSync(client, "?", -1, true);
    }

    /** PSYNC replicationid offset [FAILOVER] */
    public static void psync(Client client, byte[][] argv) {
        if (client.replica() != null) {
            return;
        }
        // As Redis's syncCommand: the primary of this replica hands over to it (its FAILOVER).
        if (argv.length > 3 && Args.is(argv[3], "failover")) {
            String refusal = client.server().replication().takeOver(Args.utf8(argv[1]), client.connection().remoteAddress());
            if (refusal != null) {
                throw new CommandError(refusal);
            }
        }
        long offset = Args.parseLong(argv[2]);
        startSync(client, Args.utf8(argv[1]), offset, false);
    }

    /** Redis's syncCommand. */
    private static void startSync(Client client, String replid, long offset, boolean oldSync) {
        if (client.replica() != null) {
            return;
        }
        ServerState server = client.server();
        Replication replication = server.replication();
        if (replication.failoverState() != Replication.FailoverState.NONE) {
            throw new CommandError("NOMASTERLINK Can't SYNC while failing over");
        }
        if (replication.isReplica() && !replication.master().isUp()) {
            throw new CommandError("NOMASTERLINK Can't SYNC while not connected with my master");
        }
        ReplicaOutput output = client.connection().replicaOutput();
        if (output == null || client.reply().pendingBytes() > 0) {
            throw new CommandError("ERR SYNC and PSYNC are invalid with pending output");
        }
        log.info("Replica {} asks for synchronization", client.connection().remoteAddress());
        ConnectedReplica replica = replication.psync(client.id(), output, client.announcedReplica(), replid, offset, oldSync,
                System.currentTimeMillis());
        client.becomeReplica(replica);
    }

    /** REPLCONF option value [option value ...] */
    public static void replconf(Client client, byte[][] argv) {
        if (argv.length % 2 == 0) {
            throw new CommandError(Errors.SYNTAX);
        }
        for (int i = 1; i < argv.length; i += 2) {
            String option = Args.utf8(argv[i]);
            byte[] value = argv[i + 1];
            switch (option.toLowerCase(java.util.Locale.ROOT)) {
                case "listening-port" -> client.replicaAnnouncement().listeningPort((int) Args.parseLong(value));
                case "ip-address" -> client.replicaAnnouncement().ip(Args.utf8(value));
                case "capa" -> client.replicaAnnouncement().capability(Args.utf8(value));
                case "ack" -> {
                    // No reply: the replica's stream of acknowledgements is one-way.
                    ConnectedReplica replica = client.replica();
                    if (replica != null) {
                        client.server().replication().acknowledged(replica, Args.parseLong(value), System.currentTimeMillis());
                    }
                    return;
                }
                case "getack" -> {
                    // Answered by the replica's link itself, which counts the offset.
                    return;
                }
                case "rdb-only", "rdb-filter-only" -> {
                    // A full sync's RDB is all such a client (redis-cli --rdb) reads: nothing to change.
                }
                default -> throw new CommandError("ERR Unrecognized REPLCONF option: " + option);
            }
        }
        client.reply().ok();
    }

    /** ROLE */
    public static void role(Client client, byte[][] argv) {
        Replication replication = client.server().replication();
        Reply reply = client.reply();
        MasterLink master = replication.master();
        if (master == null) {
            List<ConnectedReplica> online = replication.replicas();
            reply.arrayHeader(3);
            reply.bulk("master");
            reply.integer(replication.offset());
            reply.arrayHeader(online.size());
            for (ConnectedReplica replica : online) {
                reply.arrayHeader(3);
                reply.bulk(replica.ip());
                reply.bulk(Integer.toString(replica.listeningPort()));
                reply.bulk(Long.toString(replica.ackOffset()));
            }
            return;
        }
        reply.arrayHeader(5);
        reply.bulk("slave");
        reply.bulk(master.host());
        reply.integer(master.port());
        reply.bulk(master.state().roleName);
        reply.integer(master.isUp() ? replication.offset() : -1);
    }

    /** FAILOVER [TO host port [FORCE]] [ABORT] [TIMEOUT milliseconds] */
    public static void failover(Client client, byte[][] argv) {
        ServerState server = client.server();
        if (server.config().cluster() != null) {
            throw new CommandError("ERR FAILOVER not allowed in cluster mode. Use CLUSTER FAILOVER command instead.");
        }
        Replication replication = server.replication();
        if (argv.length == 2 && Args.is(argv[1], "abort")) {
            if (!replication.abortFailover("Failover manually aborted")) {
                throw new CommandError("ERR No failover in progress.");
            }
            client.reply().ok();
            return;
        }
        long timeoutMs = 0;
        boolean force = false;
        String host = null;
        long port = 0;
        for (int i = 1; i < argv.length; i++) {
            if (Args.is(argv[i], "timeout") && i + 1 < argv.length && timeoutMs == 0) {
                timeoutMs = Args.parseLong(argv[++i]);
                if (timeoutMs <= 0) {
                    throw new CommandError("ERR FAILOVER timeout must be greater than 0");
                }
            } else if (Args.is(argv[i], "to") && i + 2 < argv.length && host == null) {
                port = Args.parseLong(argv[i + 2]);
                host = Args.utf8(argv[i + 1]);
                i += 2;
            } else if (Args.is(argv[i], "force") && !force) {
                force = true;
            } else {
                throw new CommandError(Errors.SYNTAX);
            }
        }
        String refusal = replication.startFailover(host, (int) port, timeoutMs, force, System.currentTimeMillis());
        if (refusal != null) {
            throw new CommandError(refusal);
        }
        client.reply().ok();
    }

    /** WAIT numreplicas timeout */
    public static void await(Client client, byte[][] argv) {
        Replication replication = client.server().replication();
        if (replication.isReplica()) {
            throw new CommandError("ERR WAIT cannot be used with replica instances. Please also note that since Redis 4.0 "
                    + "if a replica is configured to be writable (which is not the default) writes to replicas are just "
                    + "local and are not propagated.");
        }
        long replicas = Args.parseLong(argv[1]);
        long timeoutMs = Args.parseLong(argv[2], "ERR timeout is not an integer or out of range");
        if (timeoutMs < 0) {
            throw new CommandError("ERR timeout is negative");
        }
        long now = System.currentTimeMillis();
        LongConsumer[] answer = new LongConsumer[1];
        answer[0] = acked -> {
            client.waitForReplicas(null);
            client.reply().integer(acked);
            client.connection().unblocked();
        };
        long acked = replication.await(replication.offsetWithPending(), (int) Math.min(replicas, Integer.MAX_VALUE),
                timeoutMs, client.mayBlock(), now, answer[0]);
        if (acked >= 0) {
            client.reply().integer(acked);
            return;
        }
        client.waitForReplicas(answer[0]);
        client.connection().blocked();
    }
}
