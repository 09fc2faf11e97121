package io.kvd.server.replication;

import io.kvd.codec.RespWriter;
import io.kvd.server.config.Config;
import io.kvd.server.config.Directive;
import io.kvd.server.propagate.CommandLog;
import io.kvd.server.rdb.RdbPersistence;
import io.kvd.server.rdb.RdbSave;
import io.kvd.server.store.Databases;
import io.kvd.server.store.Keyspace;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.LongConsumer;

/**
 * Redis's replication.c: this server's role, its replication ids and offset (PSYNC2), the
 * backlog, the replicas connected to it (full sync from an RDB snapshot, then the stream of
 * writes, acknowledged by REPLCONF ACK), WAIT, and, as a replica, the link to its primary
 * ({@link MasterLink}).
 *
 * <p>The stream a primary sends is the command log's records, the same bytes the AOF writes,
 * taken once per event-loop iteration ({@link #feedRecords}), plus the PINGs and REPLCONF GETACKs
 * of the stream itself. A replica proxies its primary's stream to its own replicas byte for byte,
 * so offsets agree along a chain, and its own writes (the primary's commands it ran) go only to
 * its AOF. Event loop only.
 */
public final class Replication {
    private static final Logger log = LoggerFactory.getLogger(Replication.class);
    private static final byte[] PING = "*1\r\n$4\r\nPING\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] GETACK = "*3\r\n$8\r\nREPLCONF\r\n$6\r\nGETACK\r\n$1\r\n*\r\n"
            .getBytes(StandardCharsets.US_ASCII);
    private static final String NO_REPLID = "0".repeat(40);
    public static final String READONLY = "READONLY You can't write against a read only replica.";
    public static final String MASTERDOWN = "MASTERDOWN Link with MASTER is down and replica-serve-stale-data is set to 'no'.";
    public static final String NOREPLICAS = "NOREPLICAS Not enough good replicas to write.";
    public static final String LOADING = "LOADING Redis is loading the dataset in memory";
    private static final SecureRandom RANDOM = new SecureRandom();

    /** Redis's failover_state, as INFO's master_failover_state names it. */
    public enum FailoverState {
        NONE("no-failover"), WAIT_FOR_SYNC("waiting-for-sync"), IN_PROGRESS("failover-in-progress");

        public final String infoName;

        FailoverState(String infoName) {
            this.infoName = infoName;
        }
    }

    /** A WAIT waiting for enough replicas to acknowledge {@code offset}. */
    private record Waiter(long offset, int replicas, long deadlineMs, LongConsumer answer) {
    }

    private final Config config;
    private final Databases databases;
    /**
     * Keys clients wrote on this writable replica, by database: its primary knows nothing of them,
     * so their deadlines are this server's to enforce (Redis's slaveKeysWithExpire).
     */
    private final Map<Integer, Set<ByteBuffer>> ownKeys = new HashMap<>();
    private final CommandLog commandLog;
    private final RdbPersistence rdb;
    private String replid = randomId();
    private String replid2 = NO_REPLID;
    private long secondReplidOffset = -1;
    /** master_repl_offset while there is no backlog. */
    private long offsetWithoutBacklog;
    /** The stream's database an RDB loaded at start recorded, else -1. */
    private int restoredStreamDb = -1;
    private ReplicationBacklog backlog;
    private long noReplicasSinceMs = System.currentTimeMillis();
    private final List<ConnectedReplica> replicas = new ArrayList<>();
    private final List<Waiter> waiters = new ArrayList<>();
    private final Consumer<Boolean> pauseWrites;
    private final Runnable disconnectBlockedClients;
    // A FAILOVER in progress (Redis's failover_state and its target)
    private FailoverState failoverState = FailoverState.NONE;
    private String failoverHost;
    private int failoverPort;
    private long failoverEndMs;
    private boolean forceFailover;
    /** The replication save runs for the replicas waiting for its end. */
    private boolean savingForReplicas;
    /** The diskless full sync streaming now, else null. */
    private DisklessTransfer transfer;
    private long syncFull;
    private long syncPartialOk;
    private long syncPartialErr;
    /**
     * As Redis's replicationCron, which pings when its loop count since start is a multiple of
     * repl-ping-replica-period: on the server's schedule, not at once when a replica attaches (a
     * stream read right after SYNC starts with the first write).
     */
    private long lastPingMs = System.currentTimeMillis();
    private long lastNewlineMs;
    /** The link to the primary while this server is a replica, else null. */
    private MasterLink master;
    private MasterLink.Network network;

    /**
     * @param pauseWrites holds (true) or releases (false) clients' writes, for FAILOVER
     * @param disconnectBlockedClients answers and closes the clients blocked on keys or in WAIT,
     *                                 when this server turns replica (Redis's disconnectAllBlockedClients)
     */
    public Replication(Config config, Databases databases, CommandLog commandLog, RdbPersistence rdb,
                       Consumer<Boolean> pauseWrites, Runnable disconnectBlockedClients) {
        this.config = config;
        this.databases = databases;
        this.commandLog = commandLog;
        this.rdb = rdb;
        this.pauseWrites = pauseWrites;
        this.disconnectBlockedClients = disconnectBlockedClients;
        rdb.onBackgroundSaveEnded(this::backgroundSaveEnded);
        rdb.useReplicationInfo(this::saveInfo);
        config.onChange(name -> {
            if (name.equals(Config.REPL_BACKLOG_SIZE) && backlog != null) {
                backlog.resize(backlogSize());
            }
        });
    }

    /**
     * How a replica connects to its primary; given once the server has its event loop. A
     * {@code replicaof} directive connects now, continuing the history the RDB loaded at start
     * recorded, if any.
     */
    public void useNetwork(MasterLink.Network network) {
        this.network = network;
        String replicaof = config.get(Config.REPLICAOF);
        if (!replicaof.isEmpty()) {
            if (restoredStreamDb >= 0) {
                network.selectStreamDb(restoredStreamDb);
            }
            String[] hostPort = replicaof.split(" ");
            replicaOf(hostPort[0], Integer.parseInt(hostPort[1]));
        }
    }

    /**
     * The RDB loaded at start recorded where it stood in a replication stream: a server started
     * as a replica continues from there (Redis's loadDataFromDisk and replicationCacheMasterUsingMyself).
     */
    public void restoreFrom(Map<String, String> aux) {
        String id = aux.get("repl-id");
        String offset = aux.get("repl-offset");
        String streamDb = aux.get("repl-stream-db");
        if (config.get(Config.REPLICAOF).isEmpty() || id == null || offset == null || streamDb == null
                || streamDb.equals("-1") || id.length() != NO_REPLID.length()) {
            return;
        }
        replid = id;
        offsetWithoutBacklog = Long.parseLong(offset);
        restoredStreamDb = Integer.parseInt(streamDb);
        log.info("Restored the replication ID and offset from the RDB: {}:{}", replid, offsetWithoutBacklog);
    }

    /** Redis's rdbPopulateSaveInfo: a snapshot stands in the stream of a primary with a backlog, or of a replica. */
    private RdbSave.ReplicationInfo saveInfo() {
        if (master == null && backlog != null) {
            takePendingRecords();
            return new RdbSave.ReplicationInfo(Math.max(commandLog.selectedDb(), 0), replid, offset());
        }
        if (master != null && (backlog != null || restoredStreamDb >= 0)) {
            return new RdbSave.ReplicationInfo(network.streamDb(), replid, offset());
        }
        return null;
    }

    private static String randomId() {
        byte[] bytes = new byte[20];
        RANDOM.nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    private long backlogSize() {
        return Directive.memtoll(config.get(Config.REPL_BACKLOG_SIZE));
    }

    // ---- roles

    public boolean isReplica() {
        return master != null;
    }

    /** A diskless load that refuses clients runs (Redis's server.loading without async_loading). */
    public boolean loading() {
        return master != null && master.loading();
    }

    /** A diskless load that serves the old data meanwhile runs (Redis's async_loading). */
    public boolean asyncLoading() {
        return master != null && master.asyncLoading();
    }

    public MasterLink master() {
        return master;
    }

    /** DEBUG CHANGE-REPL-ID */
    public void changeReplicationId() {
        replid = randomId();
    }

    public String replid() {
        return replid;
    }

    public String replid2() {
        return replid2;
    }

    public long secondReplidOffset() {
        return secondReplidOffset;
    }

    /** master_repl_offset */
    public long offset() {
        return backlog == null ? offsetWithoutBacklog : backlog.endOffset();
    }

    /**
     * REPLICAOF host port: drops the link to any primary and connects. A primary turning replica
     * keeps its own history as the one to continue (Redis's replicationCacheMasterUsingMyself),
     * so the PSYNC to its successor can be partial. This server's replicas stay: as in Redis 7.0,
     * they are dropped only when the history changes (a full sync, or a new id from +CONTINUE).
     */
    public void replicaOf(String host, int port) {
        takePendingRecords();
        if (master != null) {
            master.close();
        }
        disconnectBlockedClients.run();
        config.replicaOf(host + " " + port);
        network.followPrimary(true);
        commandLog.setReplicating(false);
        master = new MasterLink(host, port, this, config, network);
        master.connect();
    }

    /**
     * REPLICAOF NO ONE: the link is dropped, the history so far becomes the secondary one (Redis's
     * shiftReplicationId), so replicas of the old primary can continue with this server by PSYNC.
     */
    public void promote() {
        if (master == null) {
            return;
        }
        // The records logged so far are the old primary's commands, already in the backlog as it sent them.
        feedRecords();
        master.close();
        master = null;
        ownKeys.clear();
        config.replicaOf("");
        network.followPrimary(false);
        keepRecordsForReplicas();
        replid2 = replid;
        secondReplidOffset = offset() + 1;
        replid = randomId();
        // The stream restarts from here with this server's own writes: the next names its database.
        commandLog.selectAgain();
        disconnectReplicas();
        log.info("MASTER MODE enabled");
    }

    private void disconnectReplicas() {
        for (ConnectedReplica replica : List.copyOf(replicas)) {
            replica.output.close();
        }
    }

    // ---- the stream

    /**
     * The end of an event-loop iteration (and any point the stream must be current): the records
     * the commands logged since the last call go to the backlog and the replicas. A replica's own
     * records are for its AOF only.
     */
    public void feedRecords() {
        ByteBuf records = commandLog.takeUnreplicated();
        if (records.isReadable() && master == null && backlog != null) {
            feed(records);
        }
    }

    /**
     * The command log keeps records for the stream only on a primary with a backlog: a replica's
     * stream is its primary's bytes, and its own records are for its AOF alone.
     */
    private void keepRecordsForReplicas() {
        commandLog.setReplicating(master == null && backlog != null);
    }

    private void takePendingRecords() {
        feedRecords();
    }

    /** What a replica received from its primary and ran: the same bytes go on to its own replicas. */
    void proxy(ByteBuf bytes) {
        if (backlog != null) {
            feed(bytes);
        }
    }

    private void feed(ByteBuf bytes) {
        backlog.append(bytes);
        if (replicas.isEmpty()) {
            return;
        }
        // One copy for every replica: the command log reuses its buffer before the sockets take it.
        ByteBuf copy = Unpooled.copiedBuffer(bytes);
        for (ConnectedReplica replica : replicas) {
            replica.feed(copy);
        }
        copy.release();
        checkOutputLimits();
    }

    private void feedOwn(byte[] command) {
        if (master != null || backlog == null) {
            return;
        }
        takePendingRecords();
        feed(Unpooled.wrappedBuffer(command));
    }

    /**
     * DEBUG REPLICATE command args...: the command goes to the replicas only, unrun and not
     * logged, in the database the stream has selected (a test's way to send a replica anything).
     */
    public void replicateOnly(byte[][] argv) {
        ByteBuf command = Unpooled.buffer();
        RespWriter.writeCommand(command, argv);
        feedOwn(ByteBufUtil.getBytes(command));
    }

    /**
     * A client's write on this writable replica (Redis's rememberSlaveKeyWithExpire): its keys
     * are watched by the cron, which removes them once their deadline passes.
     */
    public void wroteOnReplica(int db, byte[][] argv, int[] keyPositions) {
        Set<ByteBuffer> keys = ownKeys.computeIfAbsent(db, d -> new HashSet<>());
        for (int position : keyPositions) {
            if (position < argv.length) {
                keys.add(ByteBuffer.wrap(argv[position].clone()));
            }
        }
    }

    /**
     * Redis's expireSlaveKeys: the keys clients wrote here whose deadline passed are removed (a
     * lookup outside the primary's stream and outside a read removes an expired key); keys gone
     * or without a deadline are forgotten.
     */
    private void expireOwnKeys() {
        for (Iterator<Map.Entry<Integer, Set<ByteBuffer>>> dbs = ownKeys.entrySet().iterator(); dbs.hasNext(); ) {
            Map.Entry<Integer, Set<ByteBuffer>> entry = dbs.next();
            Keyspace keyspace = databases.get(entry.getKey());
            entry.getValue().removeIf(key -> {
                long deadline = keyspace.deadline(key.array());
                return deadline == Keyspace.MISSING || deadline == Keyspace.PERSISTENT;
            });
            if (entry.getValue().isEmpty()) {
                dbs.remove();
            }
        }
    }

    /** client-output-buffer-limit replica: Redis closes a replica whose buffer passed the hard limit. */
    private void checkOutputLimits() {
        Config.OutputBufferLimit limit = config.replicaOutputBufferLimit();
        if (limit.hardBytes() == 0) {
            return;
        }
        for (ConnectedReplica replica : List.copyOf(replicas)) {
            if (replica.outputBytes() > limit.hardBytes()) {
                log.warn("Client id={} scheduled to be closed ASAP for overcoming of output buffer limits.", replica.clientId);
                replica.output.close();
            }
        }
    }

    // ---- the primary's side

    /**
     * PSYNC replid offset (SYNC is PSYNC ? -1): continues from the backlog when it can (Redis's
     * masterTryPartialResynchronization), else registers the replica for a full sync. Returns it.
     */
    public ConnectedReplica psync(long clientId, ReplicaOutput output, ReplicaAnnouncement announced,
                                  String askedReplid, long askedOffset, boolean oldSync, long nowMs) {
        takePendingRecords();
        ConnectedReplica replica = new ConnectedReplica(clientId, output, nowMs);
        boolean psync2 = announced != null && announced.psync2;
        if (announced != null) {
            replica.listeningPort = announced.listeningPort;
            replica.announcedIp = announced.ip;
            replica.eofCapable = announced.eof;
        }
        replica.oldSync = oldSync;
        boolean historyMatches = askedReplid.equals(replid)
                || askedReplid.equals(replid2) && askedOffset <= secondReplidOffset;
        if (historyMatches && backlog != null && backlog.covers(askedOffset)) {
            String reply = psync2 ? "+CONTINUE " + replid + "\r\n" : "+CONTINUE\r\n";
            output.write(Unpooled.copiedBuffer(reply, StandardCharsets.US_ASCII));
            ByteBuf missing = backlog.since(askedOffset);
            log.info("Partial resynchronization request from replica accepted. Sending {} bytes of backlog starting "
                    + "from offset {}.", missing.readableBytes(), askedOffset);
            output.write(missing);
            replica.state = ConnectedReplica.State.ONLINE;
            replica.ackOffset = askedOffset - 1;
            replicas.add(replica);
            syncPartialOk++;
            return replica;
        }
        syncFull++;
        if (!askedReplid.equals("?")) {
            syncPartialErr++;
            log.info("Partial resynchronization not accepted: {}", historyMatches
                    ? "the backlog does not hold offset " + askedOffset
                    : "Replication ID mismatch (Replica asked for '" + askedReplid + "', my replication IDs are '"
                    + replid + "' and '" + replid2 + "')");
        }
        if (backlog == null) {
            // As Redis's syncCommand for the first replica: a new history starts with the backlog.
            replid = randomId();
            replid2 = NO_REPLID;
            secondReplidOffset = -1;
            backlog = new ReplicationBacklog(backlogSize(), offsetWithoutBacklog);
            keepRecordsForReplicas();
        }
        replica.state = ConnectedReplica.State.WAIT_BGSAVE_START;
        replicas.add(replica);
        if (transfer != null) {
            log.info("Current BGSAVE has socket target. Waiting for next BGSAVE for SYNC");
        } else if (disklessSync() && replica.eofCapable && delayMs() > 0) {
            log.info("Delay next BGSAVE for diskless SYNC");
        }
        startFullSyncIfDue();
        return replica;
    }

    private boolean disklessSync() {
        return "yes".equals(config.get(Config.REPL_DISKLESS_SYNC));
    }

    private long delayMs() {
        return Long.parseLong(config.get(Config.REPL_DISKLESS_SYNC_DELAY)) * 1000;
    }

    /**
     * Starts the snapshot the replicas waiting for one are sent, unless a BGSAVE already runs (it
     * is retried when it ends). With repl-diskless-sync, it waits until the first of them waited
     * repl-diskless-sync-delay, or repl-diskless-sync-max-replicas are waiting (Redis's
     * shouldStartChildForReplication), and streams to their sockets if all of them announced
     * capa eof, else goes through the disk. Its +FULLRESYNC names the offset the snapshot stands for.
     */
    private void startFullSyncIfDue() {
        List<ConnectedReplica> waiting = new ArrayList<>();
        long longestWaitMs = 0;
        long nowMs = System.currentTimeMillis();
        for (ConnectedReplica replica : replicas) {
            if (replica.state == ConnectedReplica.State.WAIT_BGSAVE_START) {
                waiting.add(replica);
                longestWaitMs = Math.max(longestWaitMs, nowMs - replica.requestedMs);
            }
        }
        if (waiting.isEmpty() || rdb.inProgress() || databases.snapshotRunning()) {
            return;
        }
        long maxReplicas = Long.parseLong(config.get(Config.REPL_DISKLESS_SYNC_MAX_REPLICAS));
        if (disklessSync() && !(maxReplicas > 0 && waiting.size() >= maxReplicas) && longestWaitMs < delayMs()) {
            return;
        }
        boolean toSockets = disklessSync() && waiting.stream().allMatch(r -> r.eofCapable);
        log.info("Starting BGSAVE for SYNC with target: {}", toSockets ? "replicas sockets" : "disk");
        takePendingRecords();
        if (toSockets) {
            transfer = new DisklessTransfer(waiting, randomId().getBytes(StandardCharsets.US_ASCII));
            rdb.bgsaveTo(transfer, this::transferEnded);
            // Redis names its child; kvd's snapshot runs in this process.
            log.info("Background RDB transfer started by pid {}", ProcessHandle.current().pid());
        } else if (rdb.bgsave(false, false) != RdbPersistence.Start.STARTED) {
            return;
        } else {
            savingForReplicas = true;
        }
        // The stream after the snapshot starts with a SELECT, whatever the last record selected.
        commandLog.selectAgain();
        String reply = "+FULLRESYNC " + replid + " " + offset() + "\r\n";
        for (ConnectedReplica replica : waiting) {
            replica.state = ConnectedReplica.State.WAIT_BGSAVE_END;
            // SYNC, the protocol before PSYNC, gets the RDB without this line.
            if (!replica.oldSync) {
                replica.output.write(Unpooled.copiedBuffer(reply, StandardCharsets.US_ASCII));
            }
            if (toSockets) {
                replica.diskless = true;
                replica.stalledSinceMs = nowMs;
                // Written before the save's first chunk, which the writer thread hands over later.
                replica.output.write(transfer.preamble());
            }
        }
    }

    /**
     * Redis's updateSlavesWaitingBgsave for a socket target: the replicas that took the whole RDB
     * are online, their stream held until their first REPLCONF ACK; if it failed, they are dropped.
     */
    private void transferEnded(boolean succeeded) {
        DisklessTransfer ended = transfer;
        transfer = null;
        long alive = ended.replicas().stream().filter(replicas::contains).count();
        if (succeeded) {
            // Redis's rdbPipeReadHandler at the pipe's end: the snapshot's last byte went to the sockets.
            log.info("Diskless rdb transfer, done reading from pipe, {} replicas still up.", alive);
            log.info("Background RDB transfer terminated with success");
        } else {
            log.warn("Background transfer error");
        }
        for (ConnectedReplica replica : ended.replicas()) {
            if (!replicas.contains(replica) || replica.state != ConnectedReplica.State.WAIT_BGSAVE_END) {
                continue;
            }
            if (!succeeded) {
                replica.output.close();
                continue;
            }
            log.info("Streamed RDB transfer with replica {} succeeded (socket). Waiting for REPLCONF ACK from slave to "
                    + "enable streaming", replicaName(replica));
            replica.state = ConnectedReplica.State.ONLINE;
            replica.streamOnAck = true;
            replica.ackTimeMs = System.currentTimeMillis();
        }
        startFullSyncIfDue();
    }

    /** Redis's updateSlavesWaitingBgsave: the snapshot's replicas get the file, or are dropped if it failed. */
    private void backgroundSaveEnded(boolean succeeded) {
        if (!savingForReplicas) {
            startFullSyncIfDue();
            return;
        }
        savingForReplicas = false;
        for (ConnectedReplica replica : List.copyOf(replicas)) {
            if (replica.state != ConnectedReplica.State.WAIT_BGSAVE_END) {
                continue;
            }
            if (!succeeded) {
                log.warn("SYNC failed. BGSAVE child returned an error");
                replica.output.close();
                continue;
            }
            replica.state = ConnectedReplica.State.SEND_BULK;
            Path file = rdb.file();
            try {
                long size = Files.size(file);
                replica.output.sendFile(Unpooled.copiedBuffer("$" + size + "\r\n", StandardCharsets.US_ASCII), file,
                        () -> {
                            log.info("Synchronization with replica {} succeeded", replicaName(replica));
                            replica.ackTimeMs = System.currentTimeMillis();
                            replica.online();
                        });
            } catch (IOException e) {
                log.warn("SYNC failed. Can't open/stat DB after BGSAVE: {}", e.toString());
                replica.output.close();
            }
        }
        startFullSyncIfDue();
    }

    private static String replicaName(ConnectedReplica replica) {
        return replica.ip() + ":" + replica.listeningPort;
    }

    /**
     * PSYNC replid offset FAILOVER, from this replica's primary: it asks this server to take over,
     * if it follows the primary's history. Returns Redis's error, or null once promoted.
     */
    public String takeOver(String askedReplid, String from) {
        log.warn("Failover request received for replid {}.", askedReplid);
        if (master == null) {
            return "ERR PSYNC FAILOVER can't be sent to a master.";
        }
        if (!askedReplid.equalsIgnoreCase(replid)) {
            return "ERR PSYNC FAILOVER replid must match my replid.";
        }
        promote();
        log.info("MASTER MODE enabled (failover request from '{}')", from);
        return null;
    }

    /**
     * The connection of a replica closed. A diskless transfer none of whose replicas is left is
     * stopped (Redis kills the fork child).
     */
    public void replicaGone(ConnectedReplica replica) {
        if (replicas.remove(replica)) {
            replica.release();
            log.info("Connection with replica {} lost.", replicaName(replica));
            if (replicas.isEmpty()) {
                noReplicasSinceMs = System.currentTimeMillis();
            }
            if (transfer != null && transfer.replicas().stream().noneMatch(replicas::contains)) {
                log.warn("Diskless rdb transfer, last replica dropped, killing fork child.");
                rdb.close();
            }
        }
    }

    /** REPLCONF ACK offset: the replica has everything up to {@code offset}. */
    public void acknowledged(ConnectedReplica replica, long offset, long nowMs) {
        replica.ackTimeMs = nowMs;
        if (replica.streamOnAck) {
            // Redis's replicaStartCommandStream: the replica found the EOF mark, the stream may follow.
            replica.online();
            log.info("Synchronization with replica {} succeeded", replicaName(replica));
        }
        if (offset > replica.ackOffset) {
            replica.ackOffset = offset;
        }
        if (!waiters.isEmpty()) {
            answerWaiters(nowMs);
        }
        updateFailover(nowMs);
    }

    /**
     * Redis's checkGoodReplicasStatus: with min-replicas-to-write and min-replicas-max-lag set, a
     * primary takes writes only while that many replicas acknowledged within the lag.
     */
    public boolean enoughGoodReplicas(long nowMs) {
        long needed = Long.parseLong(config.get(Config.MIN_REPLICAS_TO_WRITE));
        long maxLagSeconds = Long.parseLong(config.get(Config.MIN_REPLICAS_MAX_LAG));
        if (master != null || needed == 0 || maxLagSeconds == 0) {
            return true;
        }
        long good = replicas.stream().filter(r -> r.state == ConnectedReplica.State.ONLINE
                && (nowMs - r.ackTimeMs) / 1000 <= maxLagSeconds).count();
        return good >= needed;
    }

    /** Replicas that acknowledged {@code offset} or more. */
    private int replicasAt(long offset) {
        int count = 0;
        for (ConnectedReplica replica : replicas) {
            if (replica.state == ConnectedReplica.State.ONLINE && replica.ackOffset >= offset) {
                count++;
            }
        }
        return count;
    }

    /** Replicas connected, in any state. */
    public int replicaCount() {
        return replicas.size();
    }

    /**
     * The replicas that have not acknowledged every write so far, each as Redis's finishShutdown
     * describes one: "ip:port reported offset N behind master, lag=S, state=online".
     */
    public List<String> laggingReplicas() {
        long offset = offsetWithPending();
        long nowMs = System.currentTimeMillis();
        List<String> lagging = new ArrayList<>();
        for (ConnectedReplica replica : replicas) {
            if (replica.ackOffset < offset) {
                long lag = replica.state == ConnectedReplica.State.ONLINE ? (nowMs - replica.ackTimeMs) / 1000 : 0;
                lagging.add(replicaName(replica) + " reported offset " + (offset - replica.ackOffset)
                        + " behind master, lag=" + lag + ", state=" + replica.state.infoName);
            }
        }
        return lagging;
    }

    /** REPLCONF GETACK * to every replica, so they acknowledge without waiting for their second's ACK. */
    public void requestAcknowledgements() {
        if (!replicas.isEmpty()) {
            feedOwn(GETACK);
        }
    }

    /** The offset a WAIT issued now waits for: every write so far, those not yet fed included. */
    public long offsetWithPending() {
        return offset() + commandLog.unreplicatedBytes();
    }

    /**
     * WAIT numreplicas timeout: how many replicas already acknowledged {@code offset} if that is
     * enough (or {@code mayBlock} is false), else -1 and {@code answer} is called later with the count.
     */
    public long await(long offset, int numReplicas, long timeoutMs, boolean mayBlock, long nowMs, LongConsumer answer) {
        int acked = replicasAt(offset);
        if (acked >= numReplicas || !mayBlock) {
            return acked;
        }
        waiters.add(new Waiter(offset, numReplicas, timeoutMs == 0 ? Long.MAX_VALUE : nowMs + timeoutMs, answer));
        // Redis asks before its loop sleeps; at once is as good, and needs no hook.
        feedOwn(GETACK);
        return -1;
    }

    private void answerWaiters(long nowMs) {
        for (Iterator<Waiter> it = waiters.iterator(); it.hasNext(); ) {
            Waiter waiter = it.next();
            int acked = replicasAt(waiter.offset);
            if (acked >= waiter.replicas || nowMs >= waiter.deadlineMs) {
                it.remove();
                waiter.answer.accept(acked);
            }
        }
    }

    /** A WAIT's client went away or was unblocked otherwise. */
    public void cancelWait(LongConsumer answer) {
        waiters.removeIf(w -> w.answer == answer);
    }

    /**
     * Redis's replicationCron, every 100 ms: PINGs in the stream every repl-ping-replica-period,
     * newlines to replicas waiting for their snapshot, replicas silent past repl-timeout dropped,
     * the backlog freed after repl-backlog-ttl without replicas, WAIT's deadlines, and a replica's
     * own link kept up.
     */
    public void cron(long nowMs) {
        long timeoutMs = Long.parseLong(config.get(Config.REPL_TIMEOUT)) * 1000;
        if (master != null) {
            master.cron(nowMs, timeoutMs);
            if (!ownKeys.isEmpty()) {
                expireOwnKeys();
            }
        }
        long pingPeriodMs = Long.parseLong(config.get(Config.REPL_PING_REPLICA_PERIOD)) * 1000;
        if (!replicas.isEmpty() && master == null && nowMs - lastPingMs >= pingPeriodMs) {
            lastPingMs = nowMs;
            feedOwn(PING);
        }
        if (nowMs - lastNewlineMs >= 1000) {
            lastNewlineMs = nowMs;
            for (ConnectedReplica replica : replicas) {
                // Not into a streamed RDB, which the replica reads to its mark.
                if (replica.state == ConnectedReplica.State.WAIT_BGSAVE_START
                        || replica.state == ConnectedReplica.State.WAIT_BGSAVE_END && !replica.diskless) {
                    replica.output.write(Unpooled.wrappedBuffer(new byte[] {'\n'}));
                }
            }
        }
        for (ConnectedReplica replica : List.copyOf(replicas)) {
            if (replica.state == ConnectedReplica.State.ONLINE && nowMs - replica.ackTimeMs > timeoutMs) {
                log.warn("Disconnecting timedout replica (streaming sync): {}", replicaName(replica));
                replica.output.close();
            } else if (replica.diskless && replica.state == ConnectedReplica.State.WAIT_BGSAVE_END
                    && replica.transferStalledMs(nowMs) > timeoutMs) {
                // It holds the transfer back for every replica: Redis drops it as soon as repl-timeout passed.
                log.warn("Disconnecting timedout replica (full sync): {}", replicaName(replica));
                replica.output.close();
            }
        }
        long ttlMs = Long.parseLong(config.get(Config.REPL_BACKLOG_TTL)) * 1000;
        if (backlog != null && master == null && replicas.isEmpty() && ttlMs > 0 && nowMs - noReplicasSinceMs > ttlMs) {
            // As Redis's freeReplicationBacklog: a new history starts when the next replica comes.
            offsetWithoutBacklog = backlog.endOffset();
            backlog = null;
            keepRecordsForReplicas();
            log.info("Replication backlog freed after {} seconds without connected replicas.", ttlMs / 1000);
        }
        if (!waiters.isEmpty()) {
            answerWaiters(nowMs);
        }
        updateFailover(nowMs);
        // A replica serves its own replicas' full syncs too (a chain).
        if (!replicas.isEmpty()) {
            startFullSyncIfDue();
        }
    }

    // ---- FAILOVER (Redis's failoverCommand and updateFailoverStatus)

    public FailoverState failoverState() {
        return failoverState;
    }

    /**
     * FAILOVER [TO host port [FORCE]] [TIMEOUT ms]: writes are held until a replica (the named one)
     * has acknowledged everything, then this server becomes its replica with PSYNC ... FAILOVER,
     * which promotes it. Returns Redis's error text, or null once started.
     */
    public String startFailover(String host, int port, long timeoutMs, boolean force, long nowMs) {
        if (failoverState != FailoverState.NONE) {
            return "ERR FAILOVER already in progress.";
        }
        if (master != null) {
            return "ERR FAILOVER is not valid when server is a replica.";
        }
        if (replicas.isEmpty()) {
            return "ERR FAILOVER requires connected replicas.";
        }
        if (force && (timeoutMs == 0 || host == null)) {
            return "ERR FAILOVER with force option requires both a timeout and target HOST and IP.";
        }
        if (host != null) {
            ConnectedReplica target = findReplica(host, port);
            if (target == null) {
                return "ERR FAILOVER target HOST and PORT is not a replica.";
            }
            if (target.state != ConnectedReplica.State.ONLINE) {
                return "ERR FAILOVER target replica is not online.";
            }
            log.info("FAILOVER requested to {}:{}.", host, port);
        } else {
            log.info("FAILOVER requested to any replica.");
        }
        failoverHost = host;
        failoverPort = port;
        failoverEndMs = timeoutMs == 0 ? 0 : nowMs + timeoutMs;
        forceFailover = force;
        failoverState = FailoverState.WAIT_FOR_SYNC;
        pauseWrites.accept(true);
        return null;
    }

    /** FAILOVER ABORT, or a failover that could not complete; false if none runs. */
    public boolean abortFailover(String reason) {
        if (failoverState == FailoverState.NONE) {
            return false;
        }
        log.info("FAILOVER to {} aborted: {}", failoverHost == null ? "any replica" : failoverHost + ":" + failoverPort,
                reason);
        if (failoverState == FailoverState.IN_PROGRESS) {
            promote();
        }
        clearFailover();
        return true;
    }

    private void clearFailover() {
        failoverState = FailoverState.NONE;
        failoverHost = null;
        failoverPort = 0;
        failoverEndMs = 0;
        forceFailover = false;
        pauseWrites.accept(false);
    }

    private ConnectedReplica findReplica(String host, int port) {
        for (ConnectedReplica replica : replicas) {
            if (replica.ip().equalsIgnoreCase(host) && replica.listeningPort == port) {
                return replica;
            }
        }
        return null;
    }

    /** Redis's updateFailoverStatus: the target caught up (or the time is up): it becomes our primary. */
    private void updateFailover(long nowMs) {
        if (failoverState != FailoverState.WAIT_FOR_SYNC) {
            return;
        }
        if (failoverEndMs != 0 && failoverEndMs <= nowMs) {
            if (forceFailover) {
                log.info("FAILOVER to {}:{} time out exceeded, failing over.", failoverHost, failoverPort);
                failoverState = FailoverState.IN_PROGRESS;
                replicaOf(failoverHost, failoverPort);
            } else {
                abortFailover("Replica never caught up before timeout");
            }
            return;
        }
        takePendingRecords();
        ConnectedReplica target = null;
        if (failoverHost != null) {
            target = findReplica(failoverHost, failoverPort);
        } else {
            for (ConnectedReplica replica : replicas) {
                if (replica.ackOffset == offset()) {
                    target = replica;
                    failoverHost = replica.ip();
                    failoverPort = replica.listeningPort;
                    break;
                }
            }
        }
        if (target != null && target.ackOffset == offset()) {
            failoverState = FailoverState.IN_PROGRESS;
            log.info("Failover target {}:{} is synced, failing over.", failoverHost, failoverPort);
            replicaOf(failoverHost, failoverPort);
        }
    }

    /** The new primary answered the PSYNC ... FAILOVER: the failover is done, or undone if it refused. */
    void failoverPsyncAnswered(boolean accepted) {
        if (failoverState != FailoverState.IN_PROGRESS) {
            return;
        }
        if (accepted) {
            clearFailover();
        } else {
            abortFailover("Failover target rejected psync request");
        }
    }

    /** Whether this replica's PSYNC asks its primary to take over (FAILOVER in progress). */
    boolean failingOver() {
        return failoverState == FailoverState.IN_PROGRESS;
    }

    // ---- the replica's side, from its MasterLink

    /** The primary sent +FULLRESYNC replid offset and the snapshot was loaded: its history is ours. */
    void fullySynced(String masterReplid, long masterOffset) {
        replid = masterReplid;
        replid2 = NO_REPLID;
        secondReplidOffset = -1;
        backlog = new ReplicationBacklog(backlogSize(), masterOffset);
        network.selectStreamDb(0);
        // Sub-replicas hold a dataset from before: they must sync again, fully.
        disconnectReplicas();
    }

    /** The primary answered +CONTINUE, naming its current history, which may be new (a promotion). */
    void continued(String masterReplid) {
        if (masterReplid != null && !masterReplid.equals(replid)) {
            replid2 = replid;
            secondReplidOffset = offset() + 1;
            replid = masterReplid;
            disconnectReplicas();
        }
        if (backlog == null) {
            backlog = new ReplicationBacklog(backlogSize(), offsetWithoutBacklog);
        }
    }

    /** The history to ask the primary to continue: this server's id and next offset, or null for a full sync. */
    String[] psyncArguments() {
        if (backlog == null && offsetWithoutBacklog == 0 && restoredStreamDb < 0) {
            return new String[] {"?", "-1"};
        }
        return new String[] {replid, Long.toString(offset() + 1)};
    }

    /** REPLCONF ACK with this replica's offset, as Redis's replicationSendAck. */
    static ByteBuf ack(long offset) {
        ByteBuf buf = Unpooled.buffer(64);
        RespWriter.writeCommand(buf, "REPLCONF".getBytes(StandardCharsets.US_ASCII),
                "ACK".getBytes(StandardCharsets.US_ASCII), Long.toString(offset).getBytes(StandardCharsets.US_ASCII));
        return buf;
    }

    // ---- what INFO and ROLE show

    /** INFO's sync_full: full syncs served. */
    public long syncFull() {
        return syncFull;
    }

    /** INFO's sync_partial_ok: PSYNCs continued from the backlog. */
    public long syncPartialOk() {
        return syncPartialOk;
    }

    /** INFO's sync_partial_err: PSYNCs that had to become full syncs. */
    public long syncPartialErr() {
        return syncPartialErr;
    }

    /** CONFIG RESETSTAT */
    public void resetStats() {
        syncFull = 0;
        syncPartialOk = 0;
        syncPartialErr = 0;
    }

    public List<ConnectedReplica> replicas() {
        return replicas;
    }

    public boolean backlogActive() {
        return backlog != null;
    }

    public long backlogSizeShown() {
        return backlog == null ? backlogSize() : backlog.size();
    }

    public long backlogFirstOffset() {
        return backlog == null ? 0 : backlog.firstOffset();
    }

    public long backlogHeld() {
        return backlog == null ? 0 : backlog.held();
    }

    /** INFO's mem_replication_backlog: the backlog's ring, allocated whole at its size. */
    public long backlogMemory() {
        return backlog == null ? 0 : backlog.size();
    }

    /**
     * INFO's mem_clients_slaves: the stream and snapshot bytes queued for replicas and not yet
     * taken by their sockets (in Redis 7.0, their share of the replication buffer).
     */
    public long replicaOutputMemory() {
        long bytes = 0;
        for (ConnectedReplica replica : replicas) {
            bytes += replica.outputBytes();
        }
        return bytes;
    }

    /** One {@code slaveN} value of INFO replication. */
    public static String infoLine(ConnectedReplica replica, long nowMs) {
        return "ip=" + replica.ip() + ",port=" + replica.listeningPort + ",state=" + replica.state.infoName
                + ",offset=" + replica.ackOffset + ",lag=" + (nowMs - replica.ackTimeMs) / 1000;
    }
}
