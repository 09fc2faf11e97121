package io.kvd.server.client;

import io.kvd.server.acl.AccessControl;
import io.kvd.server.acl.AclException;
import io.kvd.server.cluster.MigrateSockets;
import io.kvd.server.config.Config;
import io.kvd.server.config.KeyspaceEventTypes;
import io.kvd.server.evict.Eviction;
import io.kvd.server.expire.ActiveExpiryCycle;
import io.kvd.server.latency.LatencyMonitor;
import io.kvd.server.memory.ServerMemory;
import io.kvd.server.monitor.Monitors;
import io.kvd.server.propagate.CommandLog;
import io.kvd.server.protocol.CommandError;
import io.kvd.server.pubsub.KeyspaceEvents;
import io.kvd.server.pubsub.PubSub;
import io.kvd.server.rdb.RdbFormatException;
import io.kvd.server.rdb.RdbLoader;
import io.kvd.server.rdb.RdbPersistence;
import io.kvd.server.replication.Replication;
import io.kvd.server.slowlog.SlowLog;
import io.kvd.server.stats.CommandStats;
import io.kvd.server.stats.ErrorStats;
import io.kvd.server.store.Databases;
import io.kvd.server.store.Keyspace;
import io.kvd.server.tracking.Tracking;

import java.io.IOException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Everything commands may see beyond their own client: the keyspace, the configuration, the
 * connected clients and the counters INFO reports. Owned by the event loop thread.
 */
public final class ServerState {
    private final Databases databases;
    private final AccessControl acl;
    private final ActiveExpiryCycle expiryCycle;
    private final Config config;
    private final CommandLog commandLog = new CommandLog();
    private final KeyWatchers keyWatchers;
    private final Tracking tracking;
    private boolean cronPaused;
    private final PubSub pubSub = new PubSub();
    private final MigrateSockets migrateSockets = new MigrateSockets();
    private final KeyspaceEvents keyspaceEvents;
    private final AofRewriteStatus aofRewrite = new AofRewriteStatus();
    private final RdbPersistence rdb;
    private final Map<Long, Client> clients = new LinkedHashMap<>();
    private final Stats stats = new Stats();
    private final ErrorStats errorStats = new ErrorStats();
    private final CommandStats commandStats = new CommandStats(errorStats);
    private final ClientPause pause = new ClientPause(this);
    private final Shutdown shutdownSequence = new Shutdown(this);
    private final InstantaneousMetric opsPerSecond = new InstantaneousMetric();
    private final InstantaneousMetric inputBytesPerSecond = new InstantaneousMetric();
    private final InstantaneousMetric outputBytesPerSecond = new InstantaneousMetric();
    private final ClientBufferPeaks clientBufferPeaks = new ClientBufferPeaks();
    private final ClientEviction clientEviction;
    private final SlowLog slowLog = new SlowLog();
    private final Monitors monitors = new Monitors();
    private final LatencyMonitor latencyMonitor = new LatencyMonitor();
    private final long startedAtMs = System.currentTimeMillis();
    /** Redis's run_id: 40 random hex digits made at start, naming this run of the server. */
    private final String runId = randomHex40();
    private final Replication replication;
    private static final String UNBLOCKED_BY_ROLE_CHANGE =
            "UNBLOCKED force unblock from blocking operation, instance state changed (master -> replica?)";
    /** Commands that changed the keyspace since start, the AOF's replayed ones included (RESETSTAT keeps them). */
    private long changingWrites;
    private final ServerMemory memory;
    private final Eviction eviction;
    /** Redis's master_replid: made at start (changeReplicationId), new on DEBUG CHANGE-REPL-ID. */
    private final Runnable shutdown;
    private boolean shutdownRequested;
    private final ScriptEngines scripting;
    /** Handles other clients' I/O from inside a long script; nothing until the server sets it. */
    private Runnable eventsWhileBlocked = () -> { };
    private long nextClientId = 1;
    private int tcpPort;
    private String transport = "none";

    /** Counters INFO's stats and clients sections report. */
    public static final class Stats {
        public long commandsProcessed;
        public long connectionsReceived;
        public long readPauses;
        public long querySliceYields;
        public long protocolErrors;
        public long rejectedConnections;
        public long outputBufferLimitDisconnections;
        public long queryBufferLimitDisconnections;
        /** Bytes read from clients' sockets (after TLS), and the reads. */
        public long netInputBytes;
        public long readsProcessed;
        /** Reply bytes handed to clients' sockets, and the writes (one per connection and iteration with output). */
        public long netOutputBytes;
        public long writesProcessed;

        /** CONFIG RESETSTAT */
        public void reset() {
            commandsProcessed = 0;
            connectionsReceived = 0;
            readPauses = 0;
            querySliceYields = 0;
            protocolErrors = 0;
            rejectedConnections = 0;
            outputBufferLimitDisconnections = 0;
            queryBufferLimitDisconnections = 0;
            netInputBytes = 0;
            readsProcessed = 0;
            netOutputBytes = 0;
            writesProcessed = 0;
        }
    }

    /**
     * @param scripting makes the Lua engines for this state (the scripting package's, given the command table)
     * @param shutdown called by SHUTDOWN, on the event loop: stops the server and ends the process
     * @param commandNames every top-level command of the table, which ACL rules name
     */
    public ServerState(Databases databases, Config config, Function<ServerState, ScriptEngines> scripting,
                       Runnable shutdown, List<String> commandNames) {
        this.databases = databases;
        this.acl = accessControl(config, commandNames);
        config.describeUsersWith(() -> acl.users().stream().map(AccessControl::describe).toList());
        this.memory = new ServerMemory(databases);
        this.clientEviction = new ClientEviction(config, clients.values());
        databases.useLatencyMonitor(latencyMonitor);
        this.expiryCycle = new ActiveExpiryCycle(databases);
        this.keyspaceEvents = new KeyspaceEvents(pubSub, databases);
        keyspaceEvents.configure(config.notifyKeyspaceEvents());
        latencyMonitor.setThreshold(config.latencyMonitorThreshold());
        // The first CLIENT TRACKING ON registers the keyspaces' change hook.
        this.tracking = new Tracking(this::trackingTarget, this::keyListenersChanged);
        tracking.maxKeys(Long.parseLong(config.get(Config.TRACKING_TABLE_MAX_KEYS)));
        config.onChange(name -> {
            if (name.equals(Config.NOTIFY_KEYSPACE_EVENTS)) {
                keyspaceEvents.configure(config.notifyKeyspaceEvents());
            } else if (name.equals(Config.REQUIREPASS)) {
                acl.setDefaultPassword(config.requirepass());
            } else if (name.equals(Config.LATENCY_MONITOR_THRESHOLD)) {
                latencyMonitor.setThreshold(config.latencyMonitorThreshold());
            } else if (name.equals(Config.TRACKING_TABLE_MAX_KEYS)) {
                tracking.maxKeys(Long.parseLong(config.get(Config.TRACKING_TABLE_MAX_KEYS)));
            }
        });
        // Lazy and active expiry alike: logged as a DEL, announced as Redis's deleteExpiredKeyAndPropagate does.
        databases.onExpired((db, key) -> {
            commandLog.expired(db, key);
            keyspaceEvents.notify(KeyspaceEventTypes.EXPIRED, "expired", key, db);
        });
        // As Redis's performEvictions: an evicted key is logged as DEL and announced.
        this.eviction = new Eviction(databases, config, latencyMonitor, this::clientsPaused, (db, key) -> {
            commandLog.expired(db, key);
            keyspaceEvents.notify(KeyspaceEventTypes.EVICTED, "evicted", key, db);
        });
        this.keyWatchers = new KeyWatchers(databases, tracking);
        keyWatchers.blocked().logTo(commandLog);
        this.config = config;
        this.shutdown = shutdown;
        this.scripting = scripting.apply(this);
        this.rdb = new RdbPersistence(config, databases, this.scripting::functionLibraryCodes, () -> changingWrites,
                memory::used);
        this.replication = new Replication(config, databases, commandLog, rdb, pause::pauseForFailover,
                this::disconnectBlockedClients);
    }

    /**
     * The users as Redis's ACLInit and ACLLoadUsersAtStartup make them: the default user takes
     * requirepass, then the configuration's {@code user} lines or the aclfile's (a refused rule
     * stops the start with Redis's text).
     */
    private static AccessControl accessControl(Config config, List<String> commandNames) {
        AccessControl acl = new AccessControl(commandNames,
                () -> config.get(Config.ACL_PUBSUB_DEFAULT).equals("allchannels"));
        acl.setDefaultPassword(config.requirepass());
        acl.loadConfigured(config.userLines());
        String file = config.get(Config.ACLFILE);
        if (!file.isEmpty()) {
            try {
                acl.loadFile(config.dir().resolve(file), file);
            } catch (AclException e) {
                throw new AclException("Aborting Redis startup because of ACL errors: " + e.getMessage());
            }
        }
        return acl;
    }

    public AccessControl acl() {
        return acl;
    }

    public Databases databases() {
        return databases;
    }

    /** Database {@code index}. */
    public Keyspace keyspace(int index) {
        return databases.get(index);
    }

    /** maxmemory's eviction: run before denyoom commands, read by INFO. */
    public Eviction eviction() {
        return eviction;
    }

    public ActiveExpiryCycle expiryCycle() {
        return expiryCycle;
    }

    public Config config() {
        return config;
    }

    public CommandLog commandLog() {
        return commandLog;
    }

    public WatchedKeys watchedKeys() {
        return keyWatchers.watched();
    }

    /**
     * The client invalidations for {@code id} go to: none once it closes after its reply (QUIT),
     * which Redis frees as soon as that reply is written.
     */
    private Client trackingTarget(long id) {
        Client client = clients.get(id);
        return client == null || client.isClosingAfterReply() ? null : client;
    }

    /** DEBUG PAUSE-CRON: while paused, the cron does nothing (Redis's server.pause_cron). */
    public void pauseCron(boolean paused) {
        this.cronPaused = paused;
    }

    public boolean isCronPaused() {
        return cronPaused;
    }

    private void keyListenersChanged() {
        keyWatchers.listenersChanged();
    }

    /** Client-side caching: CLIENT TRACKING's clients and the keys they may cache. */
    public Tracking tracking() {
        return tracking;
    }

    public BlockedClients blockedClients() {
        return keyWatchers.blocked();
    }

    /** INFO's blocked_clients: clients waiting in a blocking command or for a CLIENT PAUSE to end. */
    public long blockedClientCount() {
        return keyWatchers.blocked().count() + pause.heldCount() + shutdownSequence.waitingCount();
    }

    public ClientPause pause() {
        return pause;
    }

    /** SHUTDOWN and the stop signals, with their wait for replicas. */
    public Shutdown shutdownSequence() {
        return shutdownSequence;
    }

    /** Whether a CLIENT PAUSE runs: keys then do not expire actively (Redis pauses its expire cycle). */
    public boolean clientsPaused() {
        return pause.isPaused();
    }

    /** The event loop, where blocked clients' timeouts are scheduled. */
    public void useTimer(ScheduledExecutorService timer) {
        keyWatchers.blocked().useTimer(timer);
        tracking.useLoop(timer);
        pause.useTimer(timer);
        // Scheduled, not executed: Netty runs queued tasks (and those they queue) for up to a
        // second before the I/O waiting; a scheduled one waits for the next iteration's turn.
        eviction.useExecutor(task -> timer.schedule(task, 0, TimeUnit.MICROSECONDS));
        rdb.useLoop(timer);
    }

    /** SAVE, BGSAVE and the save points: the snapshots of dir/dbfilename. */
    public RdbPersistence rdb() {
        return rdb;
    }

    /**
     * Loads dir/dbfilename (at start, DEBUG RELOAD); its function libraries load as FUNCTION
     * LOAD's do. {@code merge}: a key or library already present is replaced, not refused.
     */
    public RdbLoader.Result loadRdb(boolean merge) throws IOException {
        // As Redis's rdbLoad: only a primary skips keys past their deadline; a replica keeps them
        // for its primary's DEL, as it keeps them in memory.
        long skipExpiredBefore = replication.isReplica() ? 0 : System.currentTimeMillis();
        RdbLoader.Result result = rdbLoader(merge, skipExpiredBefore).load(rdb.file());
        rdb.loaded(result);
        return result;
    }

    /**
     * Loads an AOF's RDB base or preamble: no key skipped as expired (Redis's
     * RDBFLAGS_AOF_PREAMBLE; the load's sweep removes them, logging DELs), and the RDB statistics
     * left alone. The result says where the RDB ends, for an old-style file's AOF tail.
     */
    public RdbLoader.Result loadAofRdbPart(Path file) throws IOException {
        return rdbLoader(false, 0).load(file);
    }

    private RdbLoader rdbLoader(boolean merge, long nowMs) {
        return new RdbLoader(databases, merge, code -> {
            try {
                scripting.loadFunctionLibrary(code, merge);
            } catch (CommandError e) {
                throw new RdbFormatException("Failed loading library: " + e.getMessage());
            }
        }, nowMs).keyLoadDelay(Integer.parseInt(config.get(Config.KEY_LOAD_DELAY)));
    }

    /** The pub/sub registry; {@link PubSub#publish} sends a message from anywhere on the loop. */
    /** MIGRATE's cached connections to its targets. */
    public MigrateSockets migrateSockets() {
        return migrateSockets;
    }

    public PubSub pubSub() {
        return pubSub;
    }

    /** Keyspace notifications; commands call {@link KeyspaceEvents#notify} where they change a key. */
    public KeyspaceEvents keyspaceEvents() {
        return keyspaceEvents;
    }

    public AofRewriteStatus aofRewrite() {
        return aofRewrite;
    }

    /**
     * Redis's disconnectAllBlockedClients, when a primary turns replica: what they wait for will
     * now come from another primary's stream, so each blocked client (on keys or in WAIT) is
     * answered -UNBLOCKED and closed.
     */
    private void disconnectBlockedClients() {
        for (Client client : List.copyOf(clients.values())) {
            if (client.blockedOn() != null || client.isWaitingForReplicas()) {
                client.closeAfterReply();
                if (client.blockedOn() != null) {
                    blockedClients().unblockEarly(client, UNBLOCKED_BY_ROLE_CHANGE);
                } else {
                    client.answerWaitWithError(UNBLOCKED_BY_ROLE_CHANGE);
                }
            }
        }
    }

    /** The role, the replication ids and offset, the backlog, the replicas and the link to a primary. */
    public Replication replication() {
        return replication;
    }

    /** A command changed the keyspace (and was logged for the AOF). */
    void wroteChanges() {
        changingWrites++;
    }

    /**
     * INFO's rdb_changes_since_last_save: kvd takes no snapshot, so every write since start, as
     * Redis reports with none saved. Redis counts some commands more than once (one per element
     * RPUSH pushes); kvd counts commands.
     */
    public long changingWrites() {
        return changingWrites;
    }

    /** INFO's run_id. */
    public String runId() {
        return runId;
    }

    /** 40 random hex digits, as Redis's getRandomHexChars. */
    private static String randomHex40() {
        byte[] random = new byte[20];
        new SecureRandom().nextBytes(random);
        return HexFormat.of().formatHex(random);
    }

    /** INFO errorstats and total_error_replies. */
    public ErrorStats errorStats() {
        return errorStats;
    }

    /** INFO commandstats and latencystats. */
    public CommandStats commandStats() {
        return commandStats;
    }

    public Stats stats() {
        return stats;
    }

    public SlowLog slowLog() {
        return slowLog;
    }

    /** The clients in monitor mode; the run step feeds them every command it runs. */
    public Monitors monitors() {
        return monitors;
    }

    /** The latency monitor the run step, expiry, served blocked clients and the AOF sample; LATENCY reads it. */
    public LatencyMonitor latencyMonitor() {
        return latencyMonitor;
    }

    public InstantaneousMetric opsPerSecond() {
        return opsPerSecond;
    }

    /** INFO's instantaneous_input_kbps, in bytes per second. */
    public InstantaneousMetric inputBytesPerSecond() {
        return inputBytesPerSecond;
    }

    /** INFO's instantaneous_output_kbps, in bytes per second. */
    public InstantaneousMetric outputBytesPerSecond() {
        return outputBytesPerSecond;
    }

    /** The cron samples the three instantaneous rates, at most every 100 ms each. */
    public void sampleRates(long nowMs) {
        opsPerSecond.sample(nowMs, stats.commandsProcessed);
        inputBytesPerSecond.sample(nowMs, stats.netInputBytes);
        outputBytesPerSecond.sample(nowMs, stats.netOutputBytes);
    }

    /** INFO's client_recent_max_input_buffer and client_recent_max_output_buffer. */
    public ClientBufferPeaks clientBufferPeaks() {
        return clientBufferPeaks;
    }


    /** maxmemory-clients: the clients' memory and their eviction. */
    public ClientEviction clientEviction() {
        return clientEviction;
    }

    /** The Lua engines: EVAL's scripts and the function libraries. */
    public ScriptEngines scripting() {
        return scripting;
    }

    public Map<Long, Client> clients() {
        return clients;
    }

    public long nextClientId() {
        return nextClientId++;
    }

    /** The heap's figures (INFO memory, MEMORY); the cron samples its peak. */
    public ServerMemory memory() {
        return memory;
    }

    public long startedAtMs() {
        return startedAtMs;
    }

    public void shutdown() {
        shutdownRequested = true;
        shutdown.run();
    }

    /** SHUTDOWN ran: a script still running stops at its next count-hook check. */
    public boolean shutdownRequested() {
        return shutdownRequested;
    }

    /**
     * Sets what Redis's processEventsWhileBlocked does for a script past busy-reply-threshold:
     * handle the other clients' ready I/O (their commands answered -BUSY but those that may stop
     * the script) and send their replies.
     */
    public void onEventsWhileBlocked(Runnable eventsWhileBlocked) {
        this.eventsWhileBlocked = eventsWhileBlocked;
    }

    public void processEventsWhileBlocked() {
        eventsWhileBlocked.run();
    }

    public int tcpPort() {
        return tcpPort;
    }

    public String transport() {
        return transport;
    }

    /** Set once the listening sockets are bound. */
    public void listening(int tcpPort, String transport) {
        this.tcpPort = tcpPort;
        this.transport = transport;
    }
}
