package io.kvd.server.client;

import io.kvd.server.acl.User;
import io.kvd.server.monitor.Monitors;
import io.kvd.server.protocol.Reply;
import io.kvd.server.pubsub.KeyspaceEvents;
import io.kvd.server.pubsub.PubSub;
import io.kvd.server.pubsub.Subscriber;
import io.kvd.server.replication.ConnectedReplica;
import io.kvd.server.replication.ReplicaAnnouncement;
import io.kvd.server.replication.ReplicaOutput;
import io.kvd.server.store.Keyspace;
import io.kvd.server.tracking.Tracking;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongConsumer;

/**
 * One connected client as commands see it: its identity (CLIENT ID/SETNAME/SETINFO), its pending
 * replies and the server around it. The connection it came in on stays behind {@link Connection}.
 */
public final class Client implements Monitors.Monitor, Subscriber, Tracking.Client {
    /** What commands may do to the connection itself. */
    public interface Connection {
        String remoteAddress();

        String localAddress();

        /** Bytes received and not yet run as commands (CLIENT LIST's qbuf). */
        int queryBufferBytes();

        /**
         * CLIENT LIST's argv-mem: the running command's arguments, and the arguments (with their
         * headers) already parsed of a command still arriving.
         */
        default long argvBytes() {
            return 0;
        }

        /**
         * Memory the query buffer holds beyond {@link #queryBufferBytes}: the rest of a big bulk
         * whose header arrived, which Redis allocates at once (CLIENT LIST's qbuf-free).
         */
        default long queryBufferReserved() {
            return 0;
        }

        /** Replies handed to the socket and not yet taken by it. */
        default long socketPendingBytes() {
            return 0;
        }

        /** Closes the connection now, dropping unsent replies (CLIENT KILL). */
        void close();

        /** The client blocked in a command: run none of its further commands until {@link #unblocked}. */
        void blocked();

        /** The blocked client got its reply: send it, then go on with the commands that wait. */
        void unblocked();

        /**
         * Output was added to the client's reply outside its own command (a published message):
         * the connection joins this iteration's flush and checks its output-buffer limit.
         */
        void outputAdded();

        /**
         * Called before a command that runs Lua: true if the connection put it off to a task of
         * this iteration and runs it from there, because the loop is in its I/O phase, from which
         * a script past busy-reply-threshold could not let other clients in. Where no loop
         * serves other clients (the AOF's replay) nothing is put off.
         */
        default boolean putOffScript(byte[][] argv) {
            return false;
        }

        /**
         * The connection as a replica's (PSYNC): the replication stream written past the reply
         * buffer. Null where no replica can be (the AOF's replay, the link to a primary).
         */
        default ReplicaOutput replicaOutput() {
            return null;
        }

        /** A UNIX domain socket's connection (CLIENT LIST's flag U). */
        default boolean isUnixSocket() {
            return false;
        }

        /** CLIENT PAUSE holds {@code argv}: run none of the client's commands until {@link #runPostponed}. */
        void postpone(byte[][] argv);

        /** The pause ended: run the held command, then the ones that arrived behind it. */
        void runPostponed();
    }

    private final long id;
    private final ServerState server;
    private final Reply reply;
    private final Connection connection;
    private final long createdAtMs;
    private String name = "";
    private String libName = "";
    private String libVersion = "";
    private String lastCommand = "NULL";
    private long lastInteractionMs;
    private boolean closeAfterReply;
    private boolean authenticated;
    /** The ACL user the client runs as: the default user until AUTH or HELLO names another. */
    private User user;
    private boolean obeysEverySlot;
    private byte[][] logRecord;
    /** The running command's arguments with what it redacted, or null while it redacted nothing (Redis's original_argv). */
    private byte[][] redactedArgv;
    /** In monitor mode (Redis's CLIENT_MONITOR). */
    private boolean monitoring;
    /** What {@link #logAlso} added for the command running, or null. */
    private List<byte[][]> alsoLogged;
    /** The database SELECT chose. */
    private int db;
    /** Between MULTI and EXEC or DISCARD; null otherwise. */
    private Transaction transaction;
    /** The keys WATCH registered (kept by {@link WatchedKeys}); empty until the first WATCH. */
    private final List<WatchedKeys.Watch> watches = new ArrayList<>(0);
    /** A watched key changed since WATCH (Redis's CLIENT_DIRTY_CAS): EXEC answers a null array. */
    private boolean watchedKeyChanged;
    /** What the client waits for in a blocking command; null when it is not blocked. */
    private BlockedClients.Blocked blockedOn;
    /** Blocking commands answer at once, as on timeout (Redis's CLIENT_DENY_BLOCKING): the AOF's replay. */
    private boolean denyBlocking;
    private boolean replayingAof;
    /** What this connection said with REPLCONF before its PSYNC, else null. */
    private ReplicaAnnouncement replicaAnnouncement;
    /** This connection is a replica of this server, from its PSYNC on. */
    private ConnectedReplica replica;
    /** The primary's stream, run by this replica (Redis's CLIENT_MASTER). */
    private boolean master;
    /** The answer of the WAIT this client waits in, else null. */
    private LongConsumer waitingForReplicas;
    /** The client of {@link #forScripts}. */
    private boolean scriptCaller;
    /** CLIENT REPLY's state. */
    private Replies replies = Replies.ON;

    /** CLIENT REPLY: every reply sent, none, or none for the command after this one (SKIP_NEXT, then SKIP). */
    public enum Replies { ON, OFF, SKIP_NEXT, SKIP }
    /** Channels, patterns and shard channels subscribed to (kept by {@link PubSub}); null while none. */
    private PubSub.Subscriptions subscriptions;
    /** CLIENT TRACKING's mode (kept by {@link Tracking}); null while tracking is off. */
    private Tracking.Mode trackingMode;
    /** CLIENT NO-EVICT ON: client eviction passes this client over. */
    private boolean noEvict;
    private final ClientEviction.Entry evictionEntry = new ClientEviction.Entry(this);

    /**
     * A client's memory apart from its buffers: its objects, decoder, reply buffer, and its Netty
     * channel and pipeline, estimated for a 64-bit JVM with compressed references.
     */
    static final long CLIENT_OVERHEAD = 2048;
    /**
     * One entry of a per-client collection (a watched key, a subscription, a tracking prefix):
     * the hash or tree node and its object, estimated as {@link #CLIENT_OVERHEAD}.
     */
    static final long ENTRY_OVERHEAD = 48;
    /** One argument held as a {@code byte[]}: its reference and array header, beside its bytes. */
    public static final long ARGUMENT_OVERHEAD = 24;

    public Client(ServerState server, ByteBufAllocator allocator, Connection connection) {
        this(server, allocator, connection, server.nextClientId());
    }

    private Client(ServerState server, ByteBufAllocator allocator, Connection connection, long id) {
        this.id = id;
        this.server = server;
        this.reply = new Reply(allocator, server.errorStats());
        this.connection = connection;
        this.createdAtMs = server.databases().now();
        this.lastInteractionMs = createdAtMs;
        // As Redis: a client is born authenticated when the default user needs no password; a
        // password set later does not lock out clients already connected.
        this.user = server.acl().defaultUser();
        this.authenticated = !server.acl().authRequired();
    }

    /**
     * The client a script's commands run as (Redis's script caller client): no connection, no id of
     * its own (CLIENT ID of connections is unchanged by scripting), authenticated, never blocking.
     */
    public static Client forScripts(ServerState server, ByteBufAllocator allocator) {
        Client client = new Client(server, allocator, null, 0);
        client.authenticated = true;
        client.denyBlocking = true;
        client.scriptCaller = true;
        return client;
    }

    /** CLIENT REPLY ON, OFF or SKIP (as SKIP_NEXT): what is sent from the command being run on. */
    public void setReplies(Replies replies) {
        if (replies == Replies.SKIP_NEXT && this.replies == Replies.OFF) {
            return;
        }
        this.replies = replies;
        reply.mute(replies == Replies.OFF);
    }

    /**
     * Before a command runs (Redis's resetClient): the command a SKIP named is answered nothing,
     * and no redaction is left from a command that did not end normally.
     */
    void beforeCommand() {
        redactedArgv = null;
        if (replies == Replies.SKIP_NEXT) {
            replies = Replies.SKIP;
            reply.mute(true);
        }
    }

    /** After a command: a SKIP has dropped its one reply. */
    void afterCommand() {
        if (replies == Replies.SKIP) {
            replies = Replies.ON;
            reply.mute(false);
        }
    }

    /** True for the client a script's commands run as (Redis's CLIENT_SCRIPT). */
    public boolean isScriptCaller() {
        return scriptCaller;
    }

    public long id() {
        return id;
    }

    public ServerState server() {
        return server;
    }

    /** The database the client's commands run in. */
    public Keyspace keyspace() {
        return server.keyspace(db);
    }

    public int db() {
        return db;
    }

    /** Where the client's commands announce their changes (keyspace notifications). */
    public KeyspaceEvents events() {
        return server.keyspaceEvents();
    }

    /** SELECT: {@code index} must be a database's. */
    public void select(int index) {
        this.db = index;
    }

    @Override
    public Reply reply() {
        return reply;
    }

    public Connection connection() {
        return connection;
    }

    public long createdAtMs() {
        return createdAtMs;
    }

    public String name() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public String libName() {
        return libName;
    }

    public void setLibName(String libName) {
        this.libName = libName;
    }

    public String libVersion() {
        return libVersion;
    }

    public void setLibVersion(String libVersion) {
        this.libVersion = libVersion;
    }

    public String lastCommand() {
        return lastCommand;
    }

    public long lastInteractionMs() {
        return lastInteractionMs;
    }

    /** Records the command about to run, for CLIENT LIST's cmd and idle fields. */
    public void interacted(String command, long nowMs) {
        // Stored only when it changes: storing a reference costs G1 a card-marking barrier, and a
        // pipeline or a replay runs the same command over and over.
        if (lastCommand != command) {
            this.lastCommand = command;
        }
        this.lastInteractionMs = nowMs;
    }

    public boolean isAuthenticated() {
        return authenticated;
    }

    /** The ACL user commands are checked for: the script caller's while a script runs, null for the AOF's replay (no checks). */
    public User user() {
        return user;
    }

    /** AUTH or HELLO authenticated the client as {@code user} (a script's client takes its caller's). */
    public void authenticateAs(User user) {
        this.user = user;
        this.authenticated = true;
    }

    /**
     * As Redis's mustObeyClient: the AOF's replay client runs every record here, whichever node
     * the cluster's slot map gives its keys (a changed map must not drop logged keys).
     */
    public void obeyEverySlot() {
        obeysEverySlot = true;
    }

    public boolean obeysEverySlot() {
        return obeysEverySlot;
    }

    /**
     * The record the AOF gets for the command running, instead of its arguments (Redis's
     * rewriteClientCommandVector): the canonical form, e.g. absolute time for relative.
     */
    public void logAs(byte[]... record) {
        logRecord = record;
    }

    /**
     * Redis's alsoPropagate for a command that logs what it did as other commands (XREADGROUP as
     * XCLAIMs): {@code record} is logged after the command, with the others it adds, instead of it.
     */
    public void logAlso(byte[]... record) {
        neverLogItself();
        alsoLogged.add(record);
    }

    /** Redis's preventCommandPropagation: the command itself is not logged, only what {@link #logAlso} adds. */
    public void neverLogItself() {
        if (alsoLogged == null) {
            alsoLogged = new ArrayList<>();
        }
    }

    /** The records {@link #logAlso} added for the command that just ran, or null if it may log itself; clears them. */
    List<byte[][]> takeAlsoLogged() {
        List<byte[][]> records = alsoLogged;
        alsoLogged = null;
        return records;
    }

    /** The record set by {@link #logAs} for the command that just ran, or null; clears it. */
    byte[][] takeLogRecord() {
        byte[][] record = logRecord;
        logRecord = null;
        return record;
    }

    /**
     * Redis's redactClientCommandArgument: the slow log and MONITOR show {@code argv[index]} of the
     * running command as "(redacted)"; the command itself still sees it.
     */
    public void redactArgument(byte[][] argv, int index) {
        if (redactedArgv == null) {
            redactedArgv = argv.clone();
        }
        redactedArgv[index] = REDACTED;
    }

    /** The command that just ran as it may be shown: {@code argv}, or the copy it redacted; clears that copy. */
    byte[][] takeShownArgv(byte[][] argv) {
        byte[][] shown = redactedArgv;
        if (shown == null) {
            return argv;
        }
        redactedArgv = null;
        return shown;
    }

    private static final byte[] REDACTED = "(redacted)".getBytes(StandardCharsets.US_ASCII);

    /** True between MULTI and EXEC or DISCARD. */
    public boolean inTransaction() {
        return transaction != null;
    }

    public Transaction transaction() {
        return transaction;
    }

    public void beginTransaction() {
        transaction = new Transaction();
    }

    /** Redis's discardTransaction: out of MULTI, the queue and the watches dropped. */
    public void discardTransaction() {
        transaction = null;
        watchedKeyChanged = false;
        server.watchedKeys().unwatchAll(this);
    }

    List<WatchedKeys.Watch> watches() {
        return watches;
    }

    public void watchedKeyChanged() {
        watchedKeyChanged = true;
    }

    public boolean isWatchedKeyChanged() {
        return watchedKeyChanged;
    }

    public void clearWatchedKeyChanged() {
        watchedKeyChanged = false;
    }


    /** True while the client waits in a blocking command (CLIENT LIST's flag b). */
    public boolean isBlocked() {
        return blockedOn != null;
    }

    BlockedClients.Blocked blockedOn() {
        return blockedOn;
    }

    void blockedOn(BlockedClients.Blocked blocked) {
        this.blockedOn = blocked;
    }

    /**
     * Marks the AOF's replay client: a blocking command never waits (a hand-written BLPOP answers
     * at once), and a stream trim may name LIMIT without {@code ~}, as Redis trusts its AOF client,
     * which is authenticated and has no user, so no ACL rule refuses it.
     */
    public void replayAof() {
        authenticated = true;
        user = null;
        replayingAof = true;
        denyBlocking = true;
    }

    public boolean isReplayingAof() {
        return replayingAof;
    }

    /** REPLCONF's announcement of a connecting replica, made at its first REPLCONF. */
    public ReplicaAnnouncement replicaAnnouncement() {
        if (replicaAnnouncement == null) {
            replicaAnnouncement = new ReplicaAnnouncement();
        }
        return replicaAnnouncement;
    }

    /** The announcement so far, or null if none was made. */
    public ReplicaAnnouncement announcedReplica() {
        return replicaAnnouncement;
    }

    /** This connection's replica after its PSYNC, else null. */
    public ConnectedReplica replica() {
        return replica;
    }

    public void becomeReplica(ConnectedReplica replica) {
        this.replica = replica;
    }

    /** Marks the client that runs the primary's stream on a replica: its writes pass read-only and memory checks. */
    public void becomeMaster() {
        master = true;
        denyBlocking = true;
    }

    public boolean isMaster() {
        return master;
    }

    /** WAIT: the client waits for replicas, answered by {@code answer} (or forgotten if it goes). */
    public void waitForReplicas(LongConsumer answer) {
        this.waitingForReplicas = answer;
    }

    public boolean isWaitingForReplicas() {
        return waitingForReplicas != null;
    }

    /** The WAIT this client waits in ends with {@code error} instead of a count. */
    void answerWaitWithError(String error) {
        server.replication().cancelWait(waitingForReplicas);
        waitingForReplicas = null;
        reply.error(error);
        connection.unblocked();
    }


    /** Whether a blocking command may wait: not inside MULTI/EXEC, not replaying the AOF. */
    public boolean mayBlock() {
        return !denyBlocking && transaction == null;
    }

    /**
     * The connection closed: the client's watches and subscriptions go, its transaction, and its
     * wait in a blocking command.
     */
    public void disconnected() {
        server.clientEviction().forget(this);
        if (replica != null) {
            server.replication().replicaGone(replica);
        }
        if (waitingForReplicas != null) {
            server.replication().cancelWait(waitingForReplicas);
        }
        stopMonitoring();
        transaction = null;
        server.watchedKeys().unwatchAll(this);
        server.pubSub().forget(this);
        server.tracking().disable(this);
        server.blockedClients().disconnected(this);
        server.pause().disconnected(this);
        server.shutdownSequence().disconnected(this);
    }

    /**
     * RESET (Redis's clearClientConnectionState): the connection as it was when it connected,
     * except its id, age and library name: out of MULTI, unwatched, unsubscribed, database 0, no
     * name, RESP2, tracking off, and authenticated only if no password is required.
     */
    public void reset() {
        stopMonitoring();
        discardTransaction();
        server.pubSub().forget(this);
        server.tracking().disable(this);
        db = 0;
        name = "";
        user = server.acl().defaultUser();
        authenticated = !server.acl().authRequired();
        reply.protocol(2);
    }

    /**
     * MONITOR (Redis's CLIENT_SLAVE|CLIENT_MONITOR): the client receives every command run, and
     * may only run commands that touch no key.
     */
    public void startMonitoring() {
        monitoring = true;
        server.monitors().add(this);
    }

    private void stopMonitoring() {
        if (monitoring) {
            monitoring = false;
            server.monitors().remove(this);
        }
    }

    /** In monitor mode (CLIENT LIST's flag O); never idle for {@code timeout}. */
    public boolean isMonitoring() {
        return monitoring;
    }

    @Override
    public PubSub.Subscriptions subscriptions() {
        return subscriptions;
    }

    @Override
    public PubSub.Subscriptions startSubscriptions() {
        subscriptions = new PubSub.Subscriptions();
        return subscriptions;
    }

    @Override
    public void endSubscriptions() {
        subscriptions = null;
    }

    /**
     * Subscribed to any channel, pattern or shard channel (Redis's CLIENT_PUBSUB): only the
     * subscription commands, PING, QUIT and RESET run, and the pubsub output-buffer limit applies.
     */
    public boolean isSubscribed() {
        return subscriptions != null;
    }

    /**
     * A monitor line, copied into this client's replies. Nothing goes to a client that is closing
     * (as Redis's prepareClientToWrite), though it still counts as a receiver; nor a published
     * message ({@link #deliverPush}).
     */
    @Override
    public void deliver(ByteBuf frame) {
        if (closeAfterReply) {
            return;
        }
        reply.frame(frame);
        connection.outputAdded();
    }

    @Override
    public void deliverPush(ByteBuf frame) {
        if (closeAfterReply) {
            return;
        }
        reply.pushFrame(frame);
        connection.outputAdded();
    }

    /** After QUIT or a protocol error: no more commands run; the connection closes once the reply is sent. */
    public void closeAfterReply() {
        closeAfterReply = true;
    }

    public boolean isClosingAfterReply() {
        return closeAfterReply;
    }

    @Override
    public int protocol() {
        return reply.protocol();
    }

    /** CLIENT NO-EVICT ON or OFF. */
    public void noEvict(boolean on) {
        noEvict = on;
    }

    /** CLIENT LIST's flag e. */
    public boolean isNoEvict() {
        return noEvict;
    }

    ClientEviction.Entry evictionEntry() {
        return evictionEntry;
    }

    /**
     * CLIENT LIST's multi-mem: the commands queued in MULTI and the watched keys (Redis's
     * multiStateMemOverhead).
     */
    public long multiMemory() {
        return (transaction == null ? 0 : transaction.memory()) + watches.size() * ENTRY_OVERHEAD;
    }

    /** CLIENT LIST's omem: replies written and not yet taken by the socket. */
    public long outputMemory() {
        return reply.pendingBytes() + connection.socketPendingBytes();
    }

    /**
     * CLIENT LIST's tot-mem, what client eviction counts (Redis's getClientMemoryUsage): the query
     * buffer with what a big bulk in it reserves, the arguments, MULTI's queue and watches, the
     * output, an entry for each subscription and tracking prefix, and {@link #CLIENT_OVERHEAD}.
     */
    public long memoryUsage() {
        long entries = (subscriptions == null ? 0 : subscriptions.count())
                + (trackingMode == null ? 0 : trackingMode.prefixes().size());
        return CLIENT_OVERHEAD + connection.queryBufferBytes() + connection.queryBufferReserved()
                + connection.argvBytes() + multiMemory() + outputMemory() + entries * ENTRY_OVERHEAD;
    }

    @Override
    public Tracking.Mode trackingMode() {
        return trackingMode;
    }

    @Override
    public void trackingMode(Tracking.Mode mode) {
        this.trackingMode = mode;
    }
}
