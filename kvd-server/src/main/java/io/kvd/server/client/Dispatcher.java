package io.kvd.server.client;

import io.kvd.server.acl.AccessControl;
import io.kvd.server.acl.AclLog;
import io.kvd.server.acl.User;
import io.kvd.server.client.Command.Flag;
import io.kvd.server.cluster.ClusterTopology;
import io.kvd.server.config.Config;
import io.kvd.server.config.KeyspaceEventTypes;
import io.kvd.server.evict.Eviction;
import io.kvd.server.latency.LatencyMonitor;
import io.kvd.server.monitor.Monitors;
import io.kvd.server.propagate.CommandLog;
import io.kvd.server.protocol.Args;
import io.kvd.server.protocol.CommandError;
import io.kvd.server.protocol.Errors;
import io.kvd.server.rdb.RdbPersistence;
import io.kvd.server.replication.Replication;
import io.kvd.server.stats.CommandStats;
import io.kvd.server.store.WrongTypeException;
import io.kvd.server.tracking.Tracking;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import static io.kvd.server.client.Command.Flag.*;

/**
 * The way every command goes once looked up, from a client, EXEC, a script or the AOF's replay:
 * Redis's processCommand (the checks that may refuse it, queuing inside MULTI) and call()
 * (running it, then its counters, slow log, latency sample, monitors and propagation).
 */
public final class Dispatcher {
    private Dispatcher() {
    }

    /**
     * Runs {@code command}, looked up for {@code argv[0]}, for the client, replying with Redis's
     * error for a wrong argument count or any other refusal. Returns the command that ran, or null.
     */
    public static Command call(Client client, Command command, byte[][] argv) {
        client.beforeCommand();
        Tracking tracking = client.server().tracking();
        Tracking.Client previous = tracking.current(client);
        try {
            return checkAndRun(client, command, argv);
        } finally {
            client.afterCommand();
            endCaching(client, command);
            tracking.current(previous);
        }
    }

    /** Answers a request naming no command Redis's error, which inside MULTI makes EXEC fail. */
    public static void refuseUnknown(Client client, byte[][] argv) {
        client.beforeCommand();
        refuse(client, null, argv, unknownCommand(argv));
        client.afterCommand();
        endCaching(client, null);
    }

    /**
     * Redis's resetClient: CLIENT CACHING's flag lasts for the next command (or transaction) only,
     * CLIENT's subcommands aside.
     */
    private static void endCaching(Client client, Command command) {
        Tracking.Mode mode = client.trackingMode();
        if (mode != null && mode.caching() && client.transaction() == null
                && (command == null || !command.name().equals("client"))) {
            mode.caching(false);
        }
    }

    /** Redis's processCommand: the checks that may refuse a command, then queuing or running it. */
    private static Command checkAndRun(Client client, Command command, byte[][] argv) {
        if (!command.arityMatches(argv.length)) {
            refuse(client, command, argv, Errors.wrongArity(command.name()));
            return null;
        }
        // As Redis's lookupCommand, before any other check: a container's subcommand is a command
        // of its own, refused unknown or with the wrong argument count.
        Subcommands subcommands = command.subcommands();
        if (subcommands != null && argv.length > 1) {
            String refusal = subcommands.refusal(argv);
            if (refusal != null) {
                refuse(client, subcommands.lookup(argv) == null ? null : command, argv, refusal);
                return null;
            }
        }
        if (!client.isAuthenticated() && !command.has(Flag.NO_AUTH) && client.server().acl().authRequired()) {
            refuse(client, command, argv, Authentication.NOAUTH);
            return null;
        }
        Transaction transaction = client.transaction();
        boolean execOfTransaction = transaction != null && isExec(command);
        if (transaction != null && command.has(NO_MULTI)) {
            refuse(client, command, argv, "ERR Command not allowed inside a transaction");
            return null;
        }
        // As Redis's processCommand: the user's ACL rules, after authentication and before the rest.
        User user = client.user();
        if (user != null && !user.allowsEverything()) {
            Command looked = command.lookedUp(argv);
            // As Redis's processCommand, whose lookup made it the client's last command (CLIENT LIST's
            // cmd, in the ACL log's client line too).
            client.interacted(looked.name(), client.keyspace().now());
            AccessControl.Denial denial = checkAccess(client, client, looked, argv,
                    transaction != null ? AclLog.Context.MULTI : AclLog.Context.TOPLEVEL);
            if (denial != null) {
                refuse(client, command, argv, switch (denial.reason()) {
                    case COMMAND -> "NOPERM this user has no permissions to run the '" + looked.name() + "' command";
                    case KEY -> "NOPERM this user has no permissions to access one of the keys used as arguments";
                    default -> "NOPERM this user has no permissions to access one of the channels used as arguments";
                });
                return null;
            }
        }
        // As Redis's processCommand: after authentication, before anything else can refuse.
        ClusterTopology cluster = client.server().config().cluster();
        if (cluster != null && !client.obeysEverySlot()) {
            String redirection = execOfTransaction
                    ? redirection(cluster, transaction) : redirection(cluster, command, argv);
            if (redirection != null) {
                // Redis discards the transaction a redirected EXEC would have run, and answers the redirection.
                if (execOfTransaction) {
                    client.discardTransaction();
                } else if (transaction != null) {
                    transaction.refuseExec();
                }
                client.reply().error(redirection);
                client.server().commandStats().rejected(command.lookedUp(argv).name());
                return null;
            }
        }
        // As Redis's processCommand: with maxmemory, evict first; refuse what may grow memory if
        // nothing more could go. Never the AOF's replay, nor while a busy script lets clients in.
        Eviction eviction = client.server().eviction();
        Replication replication = client.server().replication();
        if (eviction.maxmemory() != 0 && !client.isReplayingAof() && client.server().scripting().busyError() == null
                && !(replication.isReplica() && client.server().config().get(Config.REPLICA_IGNORE_MAXMEMORY).equals("yes"))) {
            boolean outOfMemory = eviction.perform() == Eviction.Result.FAIL;
            if (outOfMemory && !client.isMaster() && deniedOnOom(client, command, argv, transaction)) {
                refuse(client, command, argv, Eviction.OOM);
                return null;
            }
            // Kept for a script's first write, as Redis's server.script_oom: not checked again
            // halfway, when the script's own stack may have filled memory.
            if (runsScript(client, command)) {
                eviction.scriptStarting(outOfMemory);
            }
        }
        // As Redis's processCommand: the tracking table is kept within tracking-table-max-keys.
        Tracking tracking = client.server().tracking();
        if (tracking.clientCount() > 0) {
            tracking.limitUsedSlots();
        }
        CommandLog log = client.server().commandLog();
        // As Redis's processCommand: a failed BGSAVE (with save points and stop-writes-on-bgsave-error)
        // or a failing AOF refuses writes (a write subcommand such as XGROUP CREATE or FUNCTION
        // LOAD, and PING, so monitors notice), EXEC of a transaction with a write among them included.
        String diskError = client.server().rdb().refusesWrites() ? RdbPersistence.BGSAVE_FAILED
                : log.failure() != null ? Errors.aofFailing(log.failure()) : null;
        boolean writes = command.lookedUp(argv).has(WRITE) || execOfTransaction && transaction.hasWrites();
        if (diskError != null && (writes || command.name().equals("ping")) && !client.isMaster()) {
            refuse(client, command, argv, diskError);
            return null;
        }
        // As Redis's processCommand: min-replicas-to-write, a read-only replica, a replica whose
        // link is down with replica-serve-stale-data no; the primary's own stream passes.
        if (writes && !replication.enoughGoodReplicas(System.currentTimeMillis())) {
            refuse(client, command, argv, Replication.NOREPLICAS);
            return null;
        }
        if (writes && replication.isReplica() && !client.isMaster()
                && client.server().config().get(Config.REPLICA_READ_ONLY).equals("yes")) {
            refuse(client, command, argv, Replication.READONLY);
            return null;
        }
        if (replication.isReplica() && !replication.master().isUp()
                && client.server().config().get(Config.REPLICA_SERVE_STALE_DATA).equals("no")
                && (!command.has(STALE) || execOfTransaction && !transaction.allStale())) {
            refuse(client, command, argv, Replication.MASTERDOWN);
            return null;
        }
        // As Redis's processCommand: a load refuses what may not see a half-loaded dataset, an
        // async load what would disturb it (SAVE, REPLICAOF, ...).
        if (replication.loading() && !command.has(LOADING)
                || replication.asyncLoading() && command.has(NO_ASYNC_LOADING)) {
            refuse(client, command, argv, Replication.LOADING);
            return null;
        }
        // As Redis's processCommand for a RESP2 client: subscribed, it may only (un)subscribe, PING, QUIT, RESET.
        if (client.isSubscribed() && !allowedWhileSubscribed(command) && client.reply().protocol() == 2) {
            refuse(client, command, argv, notAllowedWhileSubscribed(command, argv));
            return null;
        }
        // As Redis's processCommand: a monitoring client is a replica to Redis, kept off the keyspace.
        if (client.isMonitoring() && touchesKeyspace(command.lookedUp(argv))) {
            refuse(client, command, argv, "ERR Replica can't interact with the keyspace");
            return null;
        }
        // As Redis's processCommand: past busy-reply-threshold a script lets clients in, but only
        // to stop it, to shut the server down, or to go on with their connection and transaction.
        String busy = client.server().scripting().busyError();
        if (busy != null && !allowedWhileBusy(command, argv)) {
            refuse(client, command, argv, busy);
            return null;
        }
        // As Redis's processCommand: a paused client's command waits, before it could be queued.
        ClientPause pause = client.server().pause();
        if (pause.isPaused() && pause.holds(client, command, argv)) {
            pause.hold(client, argv);
            return null;
        }
        // As Redis's processCommand (not call()): a command EXEC runs leaves CLIENT LIST's cmd at exec.
        client.interacted(command.name(), client.keyspace().now());
        if (transaction != null && !Transaction.runsWhileQueuing(command)) {
            // As Redis 7.0's queueMultiCommand: a transaction EXEC will refuse keeps nothing more.
            if (!transaction.isRefused() && !client.isWatchedKeyChanged()) {
                transaction.queue(command, argv);
            }
            client.reply().simpleString("QUEUED");
            return command;
        }
        if (runsScript(client, command) && client.connection().putOffScript(argv)) {
            return command;
        }
        run(client, command, argv);
        // As Redis's processCommand: clients blocked on keys this command (or EXEC) made ready are served after it.
        BlockedClients blocked = client.server().blockedClients();
        if (!blocked.isEmpty()) {
            blocked.serveReadyKeys();
        }
        return command;
    }

    /**
     * Redis's call(): runs a command that passed the checks (or one EXEC runs), logs it if it was a
     * write that changed the keyspace, counts it.
     */
    public static Command run(Client client, Command command, byte[][] argv) {
        Tracking tracking = client.server().tracking();
        Tracking.Client enclosing = tracking.executing(client);
        try {
            return runCommand(client, command, argv, tracking);
        } finally {
            tracking.executed(enclosing);
        }
    }

    private static Command runCommand(Client client, Command command, byte[][] argv, Tracking tracking) {
        CommandLog log = client.server().commandLog();
        boolean write = command.has(WRITE);
        long changesBefore = client.keyspace().changes();
        if (client.events().isEnabled(KeyspaceEventTypes.KEY_MISS)) {
            announceMisses(client, command, argv);
        }
        ServerState server = client.server();
        CommandStats stats = server.commandStats();
        stats.starting();
        // INFO's keyspace hits and misses: a read-only command's lookups, as Redis's lookupKeyRead.
        boolean outerCountsReads = server.databases().countReads(command.has(READONLY));
        // The subcommand when a container ran one: its flags and counters are the ones that count.
        Command looked = command.lookedUp(argv);
        boolean scriptOfTracking = client.trackingMode() != null && callsLua(command);
        if (scriptOfTracking) {
            tracking.scriptDeclares(argv, keyPositions(looked, argv));
        }
        long started = System.nanoTime();
        try {
            command.handler().execute(client, argv);
        } catch (CommandError | WrongTypeException e) {
            client.reply().error(e.getMessage());
        } finally {
            server.databases().countReads(outerCountsReads);
            if (scriptOfTracking) {
                tracking.scriptDeclares(null, null);
            }
        }
        long nanos = System.nanoTime() - started;
        rememberTrackedKeys(client, command, looked, argv, tracking);
        byte[][] shown = client.takeShownArgv(argv);
        BlockedClients.Blocked blocked = client.blockedOn();
        if (blocked == null) {
            logIfSlow(client, command, shown, nanos / 1000);
        } else {
            // As Redis: a command that blocked goes to the slow log once it is answered.
            blocked.ran(command, shown, nanos);
        }
        sampleLatency(client, looked, nanos / 1000);
        // As Redis's call(): not while loading the AOF (isAOFLoadingContext).
        if (!client.isReplayingAof()) {
            stats.ran(stats.of(looked.name()), nanos, client.blockedOn() != null, server.config().latencyTracking());
        }
        // Redis 7.0's call(): monitors see a command once it ran, as redacted, unless it is an
        // admin command or one that feeds them itself (a script, before its commands).
        Monitors monitors = server.monitors();
        if (!monitors.isEmpty() && shownToMonitors(client, looked)) {
            feedMonitors(client, shown);
        }
        // Redis's call(): a command that changed the keyspace is propagated, as rewritten by the
        // command; a read-only one only if it asked to be (PFCOUNT writing its cache back).
        byte[][] record = client.takeLogRecord();
        List<byte[][]> alsoLogged = client.takeAlsoLogged();
        if (alsoLogged != null) {
            log.appendAll(client.db(), alsoLogged);
            server.wroteChanges();
        } else if ((write || record != null) && client.keyspace().changes() != changesBefore) {
            log.append(client.db(), record != null ? record : argv);
            server.wroteChanges();
        }
        // A client's write on a writable replica: its keys' deadlines are the replica's to enforce.
        if (write && !client.isMaster() && server.replication().isReplica()
                && client.keyspace().changes() != changesBefore) {
            server.replication().wroteOnReplica(client.db(), argv, keyPositions(looked, argv));
        }
        // Counted once run, as Redis's call() does: INFO does not count itself, RESETSTAT does.
        client.server().stats().commandsProcessed++;
        return command;
    }

    /**
     * Redis's call(): a read-only command's keys may now be in the cache of its client, if it
     * tracks; a script's read makes it the keys its caller declared (EVAL_RO's and FCALL_RO's
     * own run remembers nothing).
     */
    private static void rememberTrackedKeys(Client client, Command command, Command looked, byte[][] argv,
                                            Tracking tracking) {
        if (tracking.clientCount() == 0 || !looked.has(READONLY) || callsLua(command)) {
            return;
        }
        if (client.isScriptCaller()) {
            tracking.scriptRead();
        } else if (client.trackingMode() != null) {
            tracking.rememberKeys(client, argv, keyPositions(looked, argv));
        }
    }

    /**
     * Redis's ACLCheckAllPerm for {@code client}'s user (a script's client has its caller's) and,
     * when refused, addACLLogEntry with {@code logged}'s client info (the script's caller);
     * null if allowed.
     */
    public static AccessControl.Denial checkAccess(Client client, Client logged, Command looked, byte[][] argv,
                                                   AclLog.Context context) {
        User user = client.user();
        if (user == null || user.allowsEverything()) {
            return null;
        }
        AccessControl.Denial denial = client.server().acl().check(user, looked.name(), argv);
        if (denial != null) {
            byte[] object = denial.reason() == AclLog.Reason.COMMAND ? Args.bytes(looked.name()) : argv[denial.index()];
            logDenial(client, logged, denial.reason(), object, user.name(), context);
        }
        return denial;
    }

    /** Redis's addACLLogEntry: the refusal, with the client's line as CLIENT LIST shows it. */
    static void logDenial(Client client, Client logged, AclLog.Reason reason, byte[] object, String username,
                          AclLog.Context context) {
        ServerState server = client.server();
        server.acl().log().add(reason, context, object, username, ClientInfo.describe(logged),
                System.currentTimeMillis(), Long.parseLong(server.config().get(Config.ACLLOG_MAX_LEN)));
    }

    /** Sends the command {@code client} runs to the monitoring clients, EVAL and FCALL before their script runs. */
    public static void feedMonitors(Client client, byte[][] argv) {
        Monitors monitors = client.server().monitors();
        if (!monitors.isEmpty()) {
            // As Redis's replicationFeedMonitors: a UNIX socket's client is "unix:<path>".
            String source = client.isScriptCaller() ? Monitors.LUA
                    : client.connection().isUnixSocket() ? "unix:" + client.server().config().unixsocket()
                    : client.connection().remoteAddress();
            monitors.feed(client.db(), source, argv);
        }
    }

    /**
     * Whether monitors see a command (or subcommand) that ran: not ADMIN or SKIP_MONITOR ones,
     * nothing the AOF's replay runs. An unknown subcommand never gets here: it is refused first.
     */
    private static boolean shownToMonitors(Client client, Command looked) {
        return !looked.has(ADMIN) && !looked.has(SKIP_MONITOR) && !client.isReplayingAof();
    }

    /** Redis's read, write and may-replicate commands, which a replica (a monitor) may not send. */
    private static boolean touchesKeyspace(Command command) {
        return command.has(READONLY) || command.has(WRITE) || command.has(MAY_REPLICATE);
    }

    /**
     * Redis's call() and slowlogPushCurrentCommand: a command that ran at least
     * slowlog-log-slower-than microseconds goes to the slow log, unless it is one Redis never logs
     * (EXEC, whose commands are logged one by one) or a script's command (the script is logged).
     */
    static void logIfSlow(Client client, Command command, byte[][] argv, long micros) {
        ServerState server = client.server();
        long threshold = server.config().slowlogLogSlowerThan();
        if (threshold < 0 || micros < threshold || command.has(SKIP_SLOWLOG) || client.isScriptCaller()) {
            return;
        }
        Client.Connection connection = client.connection();
        server.slowLog().push(argv, micros, server.databases().now() / 1000,
                connection == null ? "" : connection.remoteAddress(), client.name(), server.config().slowlogMaxLen());
    }

    /**
     * Redis's call(): every command that ran (EXEC, and a script's commands, too) is a latency
     * sample, "fast-command" for a FAST one (a container's subcommand has its own flags), unless
     * it blocked (Redis samples it when it is served) or is replayed from the AOF.
     */
    private static void sampleLatency(Client client, Command looked, long micros) {
        LatencyMonitor monitor = client.server().latencyMonitor();
        long ms = micros / 1000;
        if (monitor.exceedsThreshold(ms) && !client.isBlocked() && !client.isReplayingAof()) {
            monitor.addSample(looked.has(FAST) ? "fast-command" : "command", ms);
        }
    }

    /**
     * Redis's lookupKeyRead announces a key it did not find (keymiss); kvd's keyspace does not know
     * a read from a write, so the keys a command reads that way are looked up here, before it runs:
     * every key of a read-only command, and the sources of the writes that read them so.
     */
    private static void announceMisses(Client client, Command command, byte[][] argv) {
        int[] positions;
        switch (command.name()) {
            case "getex", "copy", "sort" -> positions = new int[] {1};
            // Redis's objectCommandLookup reads with LOOKUP_NONOTIFY; MEMORY USAGE finds its key in the dict.
            case "object", "memory" -> positions = new int[0];
            case "bitop" -> positions = range(3, argv.length - 1, 1);
            case "pfmerge" -> positions = range(1, argv.length - 1, 1);
            case "zrangestore", "geosearchstore" -> positions = new int[] {2};
            case "georadius", "georadiusbymember" -> positions = new int[] {1};
            case "sinterstore", "sunionstore", "sdiffstore" -> positions = range(2, argv.length - 1, 1);
            case "zunionstore", "zinterstore", "zdiffstore" -> {
                // Redis's getkeys function lists the destination last.
                int[] keys = command.movableKeys().positions(argv);
                positions = keys.length == 0 ? keys : Arrays.copyOfRange(keys, 0, keys.length - 1);
            }
            default -> {
                // XINFO's subcommands read their key as XRANGE does.
                Command reader = command.lookedUp(argv);
                if (!reader.has(READONLY)) {
                    return;
                }
                positions = keyPositions(reader, argv);
            }
        }
        for (int position : positions) {
            if (position < argv.length && !client.keyspace().exists(argv[position])) {
                client.events().notify(KeyspaceEventTypes.KEY_MISS, "keymiss", argv[position], client.db());
            }
        }
    }

    /** first, first + step, ... up to last; a loop, not a stream: every tracked read asks for its key's position. */
    private static int[] range(int first, int last, int step) {
        if (last < first) {
            return new int[0];
        }
        int[] positions = new int[(last - first) / step + 1];
        for (int i = 0; i < positions.length; i++) {
            positions[i] = first + i * step;
        }
        return positions;
    }

    /**
     * Redis's rejectCommand: the error reply of a command refused before it ran, which inside MULTI
     * makes EXEC fail. A refused EXEC discards the transaction and says why, as EXECABORT even
     * outside MULTI (Redis's execCommandAbort).
     */
    private static void refuse(Client client, Command command, byte[][] argv, String error) {
        if (command != null) {
            client.server().commandStats().rejected(command.lookedUp(argv).name());
        }
        if (command != null && isExec(command)) {
            client.discardTransaction();
            // A generic error's "ERR " is not part of the reason.
            String reason = error.startsWith("ERR ") ? error.substring(4) : error;
            client.reply().error("EXECABORT Transaction discarded because of: " + reason);
            return;
        }
        if (client.transaction() != null) {
            client.transaction().refuseExec();
        }
        client.reply().error(error);
    }

    /**
     * Redis's reject_cmd_on_oom: a denyoom command (a script's by its shebang's or function's
     * flags), EXEC of a transaction holding one, and inside MULTI anything but what ends it, since
     * queuing itself takes memory.
     */
    private static boolean deniedOnOom(Client client, Command command, byte[][] argv, Transaction transaction) {
        if (isExec(command)) {
            return transaction != null && transaction.queued().stream()
                    .anyMatch(q -> deniedOnOom(client, q.command(), q.argv()));
        }
        if (transaction != null) {
            return switch (command.name()) {
                case "discard", "quit", "reset" -> false;
                default -> true;
            };
        }
        return deniedOnOom(client, command, argv);
    }

    private static boolean deniedOnOom(Client client, Command command, byte[][] argv) {
        return switch (command.name()) {
            case "eval", "evalsha", "fcall" -> client.server().scripting().deniedOnOom(command.name(), argv);
            default -> command.lookedUp(argv).has(DENYOOM);
        };
    }

    /** ALLOW_BUSY commands and subcommands (Redis's lookup refused unknown ones before). */
    private static boolean allowedWhileBusy(Command command, byte[][] argv) {
        return command.has(ALLOW_BUSY) || command.lookedUp(argv).has(ALLOW_BUSY);
    }

    /** Whether running {@code command} now runs Lua: a script or a function, or EXEC of a transaction holding one. */
    private static boolean runsScript(Client client, Command command) {
        if (isExec(command)) {
            Transaction transaction = client.transaction();
            return transaction != null && transaction.queued().stream().anyMatch(q -> callsLua(q.command()));
        }
        return callsLua(command);
    }

    private static boolean callsLua(Command command) {
        return switch (command.name()) {
            case "eval", "evalsha", "eval_ro", "evalsha_ro", "fcall", "fcall_ro" -> true;
            default -> false;
        };
    }

    private static boolean allowedWhileSubscribed(Command command) {
        return switch (command.name()) {
            case "subscribe", "unsubscribe", "psubscribe", "punsubscribe", "ssubscribe", "sunsubscribe", "ping",
                 "quit", "reset" -> true;
            default -> false;
        };
    }

    /**
     * Redis's refusal of a command in the subscribed context, naming a subcommand as
     * {@code client|list}; an unknown subcommand or its wrong arity is refused as such first.
     */
    private static String notAllowedWhileSubscribed(Command command, byte[][] argv) {
        String name = command.name();
        Subcommands subcommands = command.subcommands();
        if (subcommands != null) {
            String refusal = subcommands.refusal(argv);
            if (refusal != null) {
                return refusal;
            }
            name += "|" + Args.utf8(argv[1]).toLowerCase(Locale.ROOT);
        }
        return "ERR Can't execute '" + name + "': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT / RESET"
                + " are allowed in this context";
    }

    /** Redis's getNodeByQuery for EXEC: the keys of every queued command together, one slot served here. */
    private static String redirection(ClusterTopology cluster, Transaction transaction) {
        List<byte[]> keys = new ArrayList<>();
        for (Transaction.Queued queued : transaction.queued()) {
            byte[][] argv = queued.argv();
            for (int position : keyPositions(queued.command().lookedUp(argv), argv)) {
                keys.add(argv[position]);
            }
        }
        return keys.isEmpty() ? null : cluster.redirection(keys.toArray(new byte[0][]), 0, -1, 1);
    }

    /**
     * The slot check's error for the command's keys, found in the request (as Redis's getkeys_proc
     * does where COMMAND INFO's positions miss some, SORT's STORE) or at fixed positions; null if
     * served here.
     */
    public static String redirection(ClusterTopology cluster, Command request, byte[][] argv) {
        Command command = request.lookedUp(argv);
        if (command.movableKeys() != null) {
            return cluster.redirection(argv, command.movableKeys().positions(argv));
        }
        // SUNSUBSCRIBE without arguments names no shard channel.
        return command.firstKey() > 0 && argv.length > command.firstKey()
                ? cluster.redirection(argv, command.firstKey(), command.lastKey(), command.step()) : null;
    }
    /** Where a request's keys are: its command's key finder's positions, or COMMAND INFO's first, last and step. */
    private static int[] keyPositions(Command command, byte[][] argv) {
        if (command.movableKeys() != null) {
            return command.movableKeys().positions(argv);
        }
        return command.firstKey() > 0 ? range(command.firstKey(),
                command.lastKey() < 0 ? argv.length + command.lastKey() : command.lastKey(), command.step())
                : new int[0];
    }

    /** Redis's text: the name and the first arguments, each cut so the list stays near 128 bytes. */
    private static String unknownCommand(byte[][] argv) {
        StringBuilder args = new StringBuilder();
        for (int i = 1; i < argv.length && args.length() < 128; i++) {
            String arg = Args.utf8(argv[i]);
            args.append('\'').append(arg, 0, Math.min(arg.length(), 128 - args.length())).append("' ");
        }
        String name = Args.utf8(argv[0]);
        return "ERR unknown command '" + name.substring(0, Math.min(name.length(), 128))
                + "', with args beginning with: " + args;
    }

    /** EXEC, whose checks look at the transaction it would run. */
    private static boolean isExec(Command command) {
        return command.name().equals("exec");
    }
}
