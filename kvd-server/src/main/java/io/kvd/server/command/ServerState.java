package io.kvd.server.command;

import io.kvd.server.config.Config;
import io.kvd.server.config.KeyspaceEventTypes;
import io.kvd.server.latency.LatencyMonitor;
import io.kvd.server.memory.ServerMemory;
import io.kvd.server.monitor.Monitors;
import io.kvd.server.rdb.RdbFormatException;
import io.kvd.server.rdb.RdbLoader;
import io.kvd.server.rdb.RdbPersistence;
import io.kvd.server.slowlog.SlowLog;
import io.kvd.server.stats.CommandStats;
import io.kvd.server.stats.ErrorStats;
import io.kvd.server.store.ActiveExpiryCycle;
import io.kvd.server.store.Databases;
import io.kvd.server.store.Keyspace;

import java.io.IOException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;

/**
 * Everything commands may see beyond their own client: the keyspace, the configuration, the
 * connected clients and the counters INFO reports. Owned by the event loop thread.
 */
public final class ServerState {
    private final Databases databases;
    private final ActiveExpiryCycle expiryCycle;
    private final Config config;
    private final CommandLog commandLog = new CommandLog();
    private final KeyWatchers keyWatchers;
    private final PubSub pubSub = new PubSub();
    private final KeyspaceEvents keyspaceEvents;
    private final AofRewriteStatus aofRewrite = new AofRewriteStatus();
    private final RdbPersistence rdb;
    private final Map<Long, Client> clients = new LinkedHashMap<>();
    private final Stats stats = new Stats();
    private final ErrorStats errorStats = new ErrorStats();
    private final CommandStats commandStats = new CommandStats(errorStats);
    private final ClientPause pause = new ClientPause(this);
    private final InstantaneousMetric opsPerSecond = new InstantaneousMetric();
    private final InstantaneousMetric inputBytesPerSecond = new InstantaneousMetric();
    private final InstantaneousMetric outputBytesPerSecond = new InstantaneousMetric();
    private final ClientBufferPeaks clientBufferPeaks = new ClientBufferPeaks();
    private final SlowLog slowLog = new SlowLog();
    private final Monitors monitors = new Monitors();
    private final LatencyMonitor latencyMonitor = new LatencyMonitor();
    private final long startedAtMs = System.currentTimeMillis();
    /** Redis's run_id: 40 random hex digits made at start, naming this run of the server. */
    private final String runId = randomHex40();
    /** Commands that changed the keyspace since start, the AOF's replayed ones included (RESETSTAT keeps them). */
    private long changingWrites;
    private final ServerMemory memory = new ServerMemory();
    /** Redis's master_replid: made at start (changeReplicationId), new on DEBUG CHANGE-REPL-ID. */
    private String replicationId = randomHex40();
    private final Runnable shutdown;
    private boolean shutdownRequested;
    /** Handles other clients' I/O from inside a long script; nothing until the server sets it. */
    private Runnable eventsWhileBlocked = () -> { };
    /** The interpreter whose script ran past busy-reply-threshold, null when none has. */
    private LuaScripts busyScript;
    private long nextClientId = 1;
    /** The Lua interpreter and script cache, made at the first script. */
    private LuaScripts scripts;
    private final FunctionLibraries functions = new FunctionLibraries(this);
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
     * @param shutdown called by SHUTDOWN, on the event loop: stops the server and ends the process
     */
    public ServerState(Databases databases, Config config, Runnable shutdown) {
        this.databases = databases;
        databases.useLatencyMonitor(latencyMonitor);
        this.expiryCycle = new ActiveExpiryCycle(databases);
        this.keyspaceEvents = new KeyspaceEvents(pubSub, databases);
        keyspaceEvents.configure(config.notifyKeyspaceEvents());
        latencyMonitor.setThreshold(config.latencyMonitorThreshold());
        config.onChange(name -> {
            if (name.equals(Config.NOTIFY_KEYSPACE_EVENTS)) {
                keyspaceEvents.configure(config.notifyKeyspaceEvents());
            } else if (name.equals(Config.LATENCY_MONITOR_THRESHOLD)) {
                latencyMonitor.setThreshold(config.latencyMonitorThreshold());
            }
        });
        // Lazy and active expiry alike: logged as a DEL, announced as Redis's deleteExpiredKeyAndPropagate does.
        databases.onExpired((db, key) -> {
            commandLog.expired(db, key);
            keyspaceEvents.notify(KeyspaceEventTypes.EXPIRED, "expired", key, db);
        });
        this.keyWatchers = new KeyWatchers(databases);
        keyWatchers.blocked().logTo(commandLog);
        this.config = config;
        this.shutdown = shutdown;
        this.rdb = new RdbPersistence(config, databases, this::functionLibraryCodes, () -> changingWrites, memory::used);
    }

    public Databases databases() {
        return databases;
    }

    /** Database {@code index}. */
    public Keyspace keyspace(int index) {
        return databases.get(index);
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

    WatchedKeys watchedKeys() {
        return keyWatchers.watched();
    }

    BlockedClients blockedClients() {
        return keyWatchers.blocked();
    }

    /** INFO's blocked_clients: clients waiting in a blocking command or for a CLIENT PAUSE to end. */
    public long blockedClientCount() {
        return keyWatchers.blocked().count() + pause.heldCount();
    }

    ClientPause pause() {
        return pause;
    }

    /** Whether a CLIENT PAUSE runs: keys then do not expire actively (Redis pauses its expire cycle). */
    public boolean clientsPaused() {
        return pause.isPaused();
    }

    /** The event loop, where blocked clients' timeouts are scheduled. */
    public void useTimer(ScheduledExecutorService timer) {
        keyWatchers.blocked().useTimer(timer);
        pause.useTimer(timer);
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
        RdbLoader loader = new RdbLoader(databases, merge, code -> {
            try {
                functions.load(code, merge, false);
            } catch (CommandError e) {
                throw new RdbFormatException("Failed loading library: " + e.getMessage());
            }
        }, System.currentTimeMillis());
        RdbLoader.Result result = loader.load(rdb.file());
        rdb.loaded(result);
        return result;
    }

    /** The pub/sub registry; {@link PubSub#publish} sends a message from anywhere on the loop. */
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

    public String replicationId() {
        return replicationId;
    }

    /** DEBUG CHANGE-REPL-ID */
    void changeReplicationId() {
        replicationId = randomHex40();
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
    long changingWrites() {
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


    /** The server stops: the Lua interpreters' native memory goes with them (an embedded server's JVM lives on). */
    public void closeScripts() {
        if (scripts != null) {
            scripts.flush();
        }
        functions.flush();
    }

    /** EVAL's interpreter's memory, 0 before the first script. */
    long scriptMemoryBytes() {
        return scripts == null ? 0 : scripts.memoryBytes();
    }

    int cachedScripts() {
        return scripts == null ? 0 : scripts.cachedScripts();
    }

    FunctionLibraries functions() {
        return functions;
    }

    /** Each function library's code, in load order: an AOF rewrite writes a FUNCTION LOAD of each first. */
    public List<byte[]> functionLibraryCodes() {
        return functions.libraries().stream().map(FunctionLibraries.Library::code).toList();
    }

    LuaScripts scripts() {
        if (scripts == null) {
            scripts = new LuaScripts(this, false);
        }
        return scripts;
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
    boolean shutdownRequested() {
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

    void processEventsWhileBlocked() {
        eventsWhileBlocked.run();
    }

    /** The interpreter running a script past busy-reply-threshold, or null. */
    LuaScripts busyScript() {
        return busyScript;
    }

    void busyScript(LuaScripts scripts) {
        this.busyScript = scripts;
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
