package io.kvd.server.config;

import io.kvd.server.cluster.ClusterConfigException;
import io.kvd.server.cluster.ClusterConfigFile;
import io.kvd.server.cluster.ClusterTopology;
import io.kvd.server.store.EncodingLimits;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * The server's directives: a Redis-style file ({@code name value} per line, '#' comments), then
 * {@code --name value} options from the command line, which win. Every directive has a default;
 * config/kvd.conf lists them all with those defaults (a test keeps the two equal).
 *
 * <p>Read and changed (CONFIG SET) on the event loop only.
 */
public final class Config {
    private static final Logger log = LoggerFactory.getLogger(Config.class);
    public static final String PORT = "port";
    public static final String BIND = "bind";
    /** The address a replica connects to its primary from; "" lets the system choose. */
    public static final String BIND_SOURCE_ADDR = "bind-source-addr";
    public static final String TRANSPORT = "transport";
    public static final String HZ = "hz";
    public static final String DIR = "dir";
    public static final String APPENDONLY = "appendonly";
    public static final String AOF_DISABLE_AUTO_GC = "aof-disable-auto-gc";
    public static final String APPENDFILENAME = "appendfilename";
    public static final String APPENDDIRNAME = "appenddirname";
    public static final String AOF_USE_RDB_PREAMBLE = "aof-use-rdb-preamble";
    public static final String AOF_LOAD_TRUNCATED = "aof-load-truncated";
    public static final String APPENDFSYNC = "appendfsync";
    public static final String AUTO_AOF_REWRITE_PERCENTAGE = "auto-aof-rewrite-percentage";
    public static final String AUTO_AOF_REWRITE_MIN_SIZE = "auto-aof-rewrite-min-size";
    public static final String CLIENT_OUTPUT_SOFT_LIMIT = "client-output-soft-limit";
    public static final String CLIENT_QUERY_SLICE = "client-query-slice";
    public static final String PROTO_MAX_BULK_LEN = "proto-max-bulk-len";
    public static final String LOGLEVEL = "loglevel";
    public static final String LOGFILE = "logfile";
    public static final String PIDFILE = "pidfile";
    public static final String DATABASES = "databases";
    public static final String HASH_MAX_LISTPACK_ENTRIES = "hash-max-listpack-entries";
    public static final String HASH_MAX_LISTPACK_VALUE = "hash-max-listpack-value";
    public static final String SET_MAX_INTSET_ENTRIES = "set-max-intset-entries";
    public static final String LIST_MAX_LISTPACK_SIZE = "list-max-listpack-size";
    public static final String LIST_COMPRESS_DEPTH = "list-compress-depth";
    public static final String ZSET_MAX_LISTPACK_ENTRIES = "zset-max-listpack-entries";
    public static final String ZSET_MAX_LISTPACK_VALUE = "zset-max-listpack-value";
    public static final String HLL_SPARSE_MAX_BYTES = "hll-sparse-max-bytes";
    public static final String STREAM_NODE_MAX_BYTES = "stream-node-max-bytes";
    public static final String STREAM_NODE_MAX_ENTRIES = "stream-node-max-entries";
    public static final String BUSY_REPLY_THRESHOLD = "busy-reply-threshold";
    public static final String SAVE = "save";
    public static final String DBFILENAME = "dbfilename";
    public static final String RDBCOMPRESSION = "rdbcompression";
    public static final String RDBCHECKSUM = "rdbchecksum";
    public static final String STOP_WRITES_ON_BGSAVE_ERROR = "stop-writes-on-bgsave-error";
    public static final String RDB_KEY_SAVE_DELAY = "rdb-key-save-delay";
    /** Redis's test knob: microseconds an RDB load waits after each key (negative: 1 µs every that many keys). */
    public static final String KEY_LOAD_DELAY = "key-load-delay";
    public static final String MAXCLIENTS = "maxclients";
    public static final String TIMEOUT = "timeout";
    public static final String CLIENT_QUERY_BUFFER_LIMIT = "client-query-buffer-limit";
    public static final String CLIENT_OUTPUT_BUFFER_LIMIT = "client-output-buffer-limit";
    public static final String REQUIREPASS = "requirepass";
    public static final String ACLFILE = "aclfile";
    public static final String ACLLOG_MAX_LEN = "acllog-max-len";
    public static final String ACL_PUBSUB_DEFAULT = "acl-pubsub-default";
    public static final String PROTECTED_MODE = "protected-mode";
    public static final String CLUSTER_ENABLED = "cluster-enabled";
    public static final String CLUSTER_CONFIG_FILE = "cluster-config-file";
    public static final String CLUSTER_ANNOUNCE_IP = "cluster-announce-ip";
    public static final String TLS_PORT = "tls-port";
    public static final String TLS_CERT_FILE = "tls-cert-file";
    public static final String TLS_KEY_FILE = "tls-key-file";
    public static final String TLS_KEY_FILE_PASS = "tls-key-file-pass";
    public static final String TLS_CA_CERT_FILE = "tls-ca-cert-file";
    public static final String TLS_AUTH_CLIENTS = "tls-auth-clients";
    public static final String TLS_PROTOCOLS = "tls-protocols";
    public static final String NOTIFY_KEYSPACE_EVENTS = "notify-keyspace-events";

    public static final String REPLICAOF = "replicaof";
    public static final String REPL_BACKLOG_SIZE = "repl-backlog-size";
    public static final String REPL_BACKLOG_TTL = "repl-backlog-ttl";
    public static final String REPL_TIMEOUT = "repl-timeout";
    public static final String REPL_PING_REPLICA_PERIOD = "repl-ping-replica-period";
    public static final String REPL_DISKLESS_SYNC = "repl-diskless-sync";
    public static final String REPL_DISKLESS_SYNC_DELAY = "repl-diskless-sync-delay";
    public static final String REPL_DISKLESS_SYNC_MAX_REPLICAS = "repl-diskless-sync-max-replicas";
    public static final String REPL_DISKLESS_LOAD = "repl-diskless-load";
    public static final String REPLICA_READ_ONLY = "replica-read-only";
    public static final String REPLICA_SERVE_STALE_DATA = "replica-serve-stale-data";
    public static final String REPLICA_PRIORITY = "replica-priority";
    public static final String REPLICA_IGNORE_MAXMEMORY = "replica-ignore-maxmemory";
    public static final String MIN_REPLICAS_TO_WRITE = "min-replicas-to-write";
    public static final String MIN_REPLICAS_MAX_LAG = "min-replicas-max-lag";
    public static final String ENABLE_DEBUG_COMMAND = "enable-debug-command";
    public static final String DAEMONIZE = "daemonize";
    public static final String UNIXSOCKET = "unixsocket";
    public static final String UNIXSOCKETPERM = "unixsocketperm";
    public static final String LATENCY_TRACKING = "latency-tracking";
    /** Defined in {@link AcceptedDirectives}' table, for Redis's order; client-side caching acts on it. */
    public static final String TRACKING_TABLE_MAX_KEYS = "tracking-table-max-keys";
    public static final String LATENCY_TRACKING_INFO_PERCENTILES = "latency-tracking-info-percentiles";
    public static final String SLOWLOG_LOG_SLOWER_THAN = "slowlog-log-slower-than";
    public static final String SLOWLOG_MAX_LEN = "slowlog-max-len";
    public static final String LATENCY_MONITOR_THRESHOLD = "latency-monitor-threshold";
    public static final String MAXMEMORY = "maxmemory";
    public static final String MAXMEMORY_CLIENTS = "maxmemory-clients";
    public static final String MAXMEMORY_POLICY = "maxmemory-policy";
    public static final String MAXMEMORY_SAMPLES = "maxmemory-samples";
    public static final String MAXMEMORY_EVICTION_TENACITY = "maxmemory-eviction-tenacity";
    public static final String LFU_LOG_FACTOR = "lfu-log-factor";
    public static final String LFU_DECAY_TIME = "lfu-decay-time";

    private static final Map<String, Directive> DIRECTIVES = new LinkedHashMap<>();
    /** Older names Redis 7.0 still accepts, to the directive they name. */
    private static final Map<String, String> ALIASES = new LinkedHashMap<>();
    /** The directives of {@link AcceptedDirectives}: read and shown, acting on nothing. */
    private static final Set<String> INERT = new HashSet<>();
    /** Redis's PROTECTED_CONFIG: CONFIG SET refuses them unless enable-protected-configs allows it. */
    private static final Set<String> PROTECTED = Set.of(DIR, DBFILENAME);
    /** As Redis's HIDDEN_CONFIG: test knobs CONFIG GET answers by name but no pattern matches. */
    private static final Set<String> HIDDEN = Set.of(RDB_KEY_SAVE_DELAY, KEY_LOAD_DELAY,
            "loading-process-events-interval-bytes");
    /**
     * Directives Redis 7.0 lets CONFIG SET change (or, transport, kvd's own) that kvd reads only at
     * start: CONFIG SET takes their present value as no change, so that a tool setting back what
     * CONFIG GET * gave (Redis's own test suite does) meets only Redis's immutable directives.
     */
    private static final Set<String> FIXED_AT_START = Set.of(TRANSPORT, CLUSTER_ANNOUNCE_IP, TLS_PORT, TLS_CERT_FILE,
            TLS_KEY_FILE, TLS_KEY_FILE_PASS, TLS_CA_CERT_FILE, TLS_AUTH_CLIENTS, TLS_PROTOCOLS);

    static {
        ALIASES.put("hash-max-ziplist-entries", HASH_MAX_LISTPACK_ENTRIES);
        ALIASES.put("hash-max-ziplist-value", HASH_MAX_LISTPACK_VALUE);
        ALIASES.put("list-max-ziplist-size", LIST_MAX_LISTPACK_SIZE);
        ALIASES.put("zset-max-ziplist-entries", ZSET_MAX_LISTPACK_ENTRIES);
        ALIASES.put("zset-max-ziplist-value", ZSET_MAX_LISTPACK_VALUE);
        ALIASES.put("lua-time-limit", BUSY_REPLY_THRESHOLD);
        ALIASES.put("slaveof", REPLICAOF);
        define(new Directive(PORT, "6379", true, Directive.integer(0, 65535)));
        define(new Directive(BIND, "127.0.0.1 -::1", true, Directive::words));
        define(new Directive(TRANSPORT, "auto", false, Directive.oneOf("auto", "nio", "epoll", "io_uring", "kqueue")));
        define(new Directive(HZ, "10", true, Directive.integer(1, 500)));
        // kvd takes no command while a script runs, so past this a script that has not written is stopped.
        define(new Directive(BUSY_REPLY_THRESHOLD, "5000", true, Directive.integer(0, Integer.MAX_VALUE)));
        define(new Directive(DIR, ".", false, Directive::single));
        define(new Directive(APPENDONLY, "yes", true, Directive::yesNo));
        define(new Directive(APPENDFILENAME, "appendonly.aof", false, Directive::fileName, Directive.Form.STRING));
        define(new Directive(APPENDDIRNAME, "appendonlydir", false, Directive::dirName, Directive.Form.STRING));
        define(new Directive(AOF_USE_RDB_PREAMBLE, "yes", true, Directive::yesNo));
        define(new Directive(AOF_LOAD_TRUNCATED, "yes", true, Directive::yesNo));
        define(new Directive(APPENDFSYNC, "everysec", true, Directive.oneOf("always", "everysec", "no")));
        define(new Directive(AUTO_AOF_REWRITE_PERCENTAGE, "100", true, Directive.integer(0, Integer.MAX_VALUE)));
        define(new Directive(AUTO_AOF_REWRITE_MIN_SIZE, "64mb", true, Directive.memory(0, Long.MAX_VALUE), Directive.Form.MEMORY));
        define(new Directive(CLIENT_OUTPUT_SOFT_LIMIT, "1mb", true, Directive.memory(1024, Long.MAX_VALUE), Directive.Form.MEMORY));
        define(new Directive(CLIENT_QUERY_SLICE, "16kb", true, Directive.memory(1024, Integer.MAX_VALUE), Directive.Form.MEMORY));
        define(new Directive(PROTO_MAX_BULK_LEN, "512mb", true, Directive.memory(1024 * 1024, Integer.MAX_VALUE), Directive.Form.MEMORY));
        define(new Directive(LOGLEVEL, "notice", true, Directive.oneOf("debug", "verbose", "notice", "warning")));
        define(new Directive(LOGFILE, "\"\"", false, Directive::single, Directive.Form.STRING));
        define(new Directive(PIDFILE, "\"\"", false, Directive::single, Directive.Form.OPTIONAL_STRING));
        define(new Directive(DATABASES, "16", false, Directive.integer(1, 1 << 16)));
        // Redis 7.0's built-in defaults (its sample redis.conf sets 128 hash entries).
        define(new Directive(HASH_MAX_LISTPACK_ENTRIES, "512", true, Directive.integer(0, Integer.MAX_VALUE)));
        define(new Directive(HASH_MAX_LISTPACK_VALUE, "64", true, Directive.memory(0, Integer.MAX_VALUE), Directive.Form.MEMORY));
        define(new Directive(SET_MAX_INTSET_ENTRIES, "512", true, Directive.integer(0, Integer.MAX_VALUE)));
        define(new Directive(LIST_MAX_LISTPACK_SIZE, "-2", true, Directive.integer(Integer.MIN_VALUE, Integer.MAX_VALUE)));
        // Accepted for redis.conf's sake; kvd compresses no list node.
        define(new Directive(LIST_COMPRESS_DEPTH, "0", true, Directive.integer(0, Integer.MAX_VALUE)));
        define(new Directive(ZSET_MAX_LISTPACK_ENTRIES, "128", true, Directive.integer(0, Integer.MAX_VALUE)));
        define(new Directive(ZSET_MAX_LISTPACK_VALUE, "64", true, Directive.memory(0, Integer.MAX_VALUE), Directive.Form.MEMORY));
        define(new Directive(HLL_SPARSE_MAX_BYTES, "3000", true, Directive.memory(0, Long.MAX_VALUE), Directive.Form.MEMORY));
        define(new Directive(STREAM_NODE_MAX_BYTES, "4096", true, Directive.memory(0, Long.MAX_VALUE), Directive.Form.MEMORY));
        define(new Directive(STREAM_NODE_MAX_ENTRIES, "100", true, Directive.integer(0, Long.MAX_VALUE)));
        // Save points (seconds changes ...), checked as Redis checks them. None by default, unlike
        // Redis: kvd's default persistence is the AOF, which Redis's default leaves off.
        define(new Directive(SAVE, "\"\"", true, Directive::savePoints));
        // RDB snapshots: the file in dir, LZF-compressed strings, the CRC-64 at the end, and
        // writes refused after a failed BGSAVE while save points are set.
        define(new Directive(DBFILENAME, "dump.rdb", true, AcceptedDirectives::dbfilename, Directive.Form.STRING));
        define(new Directive(RDBCOMPRESSION, "yes", true, Directive::yesNo));
        define(new Directive(RDBCHECKSUM, "yes", false, Directive::yesNo));
        define(new Directive(STOP_WRITES_ON_BGSAVE_ERROR, "yes", true, Directive::yesNo));
        // Redis's test knob: a BGSAVE writes at most one key per this many microseconds (0: no pause).
        define(new Directive(RDB_KEY_SAVE_DELAY, "0", true, Directive.integer(Integer.MIN_VALUE, Integer.MAX_VALUE)));
        define(new Directive(KEY_LOAD_DELAY, "0", true, Directive.integer(Integer.MIN_VALUE, Integer.MAX_VALUE)));
        // replicaof host port: the primary this server replicates from at start ("" none).
        define(new Directive(REPLICAOF, "\"\"", false, Directive::replicaOf));
        define(new Directive(MAXCLIENTS, "10000", true, Directive.integer(1, 1_000_000)));
        define(new Directive(TIMEOUT, "0", true, Directive.integer(0, Integer.MAX_VALUE)));
        define(new Directive(CLIENT_QUERY_BUFFER_LIMIT, "1gb", true, Directive.memory(1024 * 1024, Long.MAX_VALUE), Directive.Form.MEMORY));
        // Redis's defaults: normal clients unbounded, replicas at 256mb, subscribers at 32mb.
        define(new Directive(CLIENT_OUTPUT_BUFFER_LIMIT, "normal 0 0 0 slave 256mb 64mb 60 pubsub 32mb 8mb 60", true,
                Directive::outputBufferLimit));
        define(new Directive(REQUIREPASS, "\"\"", true, Directive::single, Directive.Form.OPTIONAL_STRING));
        define(new Directive(PROTECTED_MODE, "yes", true, Directive::yesNo));
        define(new Directive(CLUSTER_ENABLED, "no", false, Directive::yesNo));
        define(new Directive(CLUSTER_CONFIG_FILE, "\"\"", false, Directive::single, Directive.Form.STRING));
        define(new Directive(CLUSTER_ANNOUNCE_IP, "\"\"", false, Directive::single, Directive.Form.OPTIONAL_STRING));
        // TLS: read once at start; the files are paths, so none of them changes at run time.
        define(new Directive(TLS_PORT, "0", false, Directive.integer(0, 65535)));
        define(new Directive(TLS_CERT_FILE, "\"\"", false, Directive::single, Directive.Form.OPTIONAL_STRING));
        define(new Directive(TLS_KEY_FILE, "\"\"", false, Directive::single, Directive.Form.OPTIONAL_STRING));
        define(new Directive(TLS_KEY_FILE_PASS, "\"\"", false, Directive::single, Directive.Form.OPTIONAL_STRING));
        define(new Directive(TLS_CA_CERT_FILE, "\"\"", false, Directive::single, Directive.Form.OPTIONAL_STRING));
        define(new Directive(TLS_AUTH_CLIENTS, "yes", false, Directive.oneOf("yes", "no", "optional")));
        define(new Directive(TLS_PROTOCOLS, "\"\"", false, Directive::tlsProtocols, Directive.Form.OPTIONAL_STRING));
        define(new Directive(NOTIFY_KEYSPACE_EVENTS, "\"\"", true,
                words -> KeyspaceEventTypes.format(KeyspaceEventTypes.parse(Directive.single(words)))));
        // The slow log: commands that ran this many microseconds or more (-1 none, 0 all), the newest this many.
        define(new Directive(SLOWLOG_LOG_SLOWER_THAN, "10000", true, Directive.integer(-1, Long.MAX_VALUE)));
        define(new Directive(SLOWLOG_MAX_LEN, "128", true, Directive.integer(0, Long.MAX_VALUE)));
        // The latency monitor: events that took this many milliseconds or more are sampled (0: off).
        define(new Directive(LATENCY_MONITOR_THRESHOLD, "0", true, Directive.integer(0, Long.MAX_VALUE)));
        // As Redis 7.0: DEBUG is refused unless this allows it (local: from a loopback client).
        define(new Directive(ENABLE_DEBUG_COMMAND, "no", false, Directive.oneOf("no", "yes", "local")));
        // yes: the start returns once a detached kvd answers (a new JVM: a JVM cannot fork).
        define(new Directive(DAEMONIZE, "no", false, Directive::yesNo));
        // A UNIX domain socket to listen on beside TCP ("" none), and its permissions (octal; 0 keeps the umask's).
        define(new Directive(UNIXSOCKET, "\"\"", false, Directive::single, Directive.Form.OPTIONAL_STRING));
        define(new Directive(UNIXSOCKETPERM, "0", false, Directive::octalPermissions));
        // INFO latencystats: each command's latency histogram, and the percentiles reported.
        define(new Directive(LATENCY_TRACKING, "yes", true, Directive::yesNo));
        define(new Directive(LATENCY_TRACKING_INFO_PERCENTILES, "50 99 99.9", true, Directive::percentiles));
        AcceptedDirectives.defineAll(d -> {
            define(d);
            INERT.add(d.name());
        }, ALIASES::put);
        // Eviction's directives (evict.Eviction and client.ClientEviction act on them) and client-side caching's stay in
        // Redis's table there, whose order CONFIG REWRITE appends in.
        INERT.removeAll(Set.of(MAXMEMORY, MAXMEMORY_CLIENTS, MAXMEMORY_POLICY, MAXMEMORY_SAMPLES, MAXMEMORY_EVICTION_TENACITY,
                LFU_LOG_FACTOR, LFU_DECAY_TIME, TRACKING_TABLE_MAX_KEYS, REPL_BACKLOG_SIZE, REPL_BACKLOG_TTL, REPL_TIMEOUT,
                REPL_PING_REPLICA_PERIOD, REPLICA_READ_ONLY, REPLICA_SERVE_STALE_DATA, REPLICA_PRIORITY, REPLICA_IGNORE_MAXMEMORY,
                MIN_REPLICAS_TO_WRITE, MIN_REPLICAS_MAX_LAG, "masterauth", "masteruser", "replica-announce-ip",
                "replica-announce-port", BIND_SOURCE_ADDR, REPL_DISKLESS_SYNC, REPL_DISKLESS_SYNC_DELAY,
                REPL_DISKLESS_SYNC_MAX_REPLICAS, REPL_DISKLESS_LOAD));
        // And SHUTDOWN's, which client.Shutdown reads.
        INERT.removeAll(Set.of("shutdown-timeout", "shutdown-on-sigint", "shutdown-on-sigterm"));
        // And the sockets' (KvdServer sets them on the listeners and each connection).
        INERT.removeAll(Set.of("tcp-backlog", "tcp-keepalive"));
        // And the system log's and the supervisor's (Main adds a syslog appender, tells systemd or upstart).
        INERT.removeAll(Set.of("syslog-enabled", "syslog-ident", "syslog-facility", "supervised"));
        // And enable-protected-configs (CONFIG SET of dir and dbfilename).
        INERT.removeAll(Set.of("enable-protected-configs"));
        // So do the ACL's, which acl.AccessControl acts on.
        INERT.removeAll(Set.of(ACLFILE, ACLLOG_MAX_LEN, ACL_PUBSUB_DEFAULT));
        // And the AOF's history collection, which aof.AofPersistence reads.
        INERT.remove(AOF_DISABLE_AUTO_GC);
    }

    private final Map<String, String> values = new LinkedHashMap<>();
    private final List<List<String>> userLines = new ArrayList<>();
    private final List<CommandRename> commandRenames = new ArrayList<>();
    private Supplier<List<String>> users = this::defaultUserLine;
    /** The file kvd was started from, absolute (Redis's server.configfile); null when none. */
    private Path configFile;
    private final List<Consumer<String>> listeners = new ArrayList<>();
    private final Map<String, Runnable> appliers = new HashMap<>();
    // Parsed once per change: the request path reads these for every command.
    private long clientOutputSoftLimit;
    private long clientQuerySlice;
    private long protoMaxBulkLen;
    private OutputBufferLimit outputBufferLimit;
    private OutputBufferLimit pubsubOutputBufferLimit;
    private OutputBufferLimit replicaOutputBufferLimit;
    private byte[] requirepass;
    private int notifyKeyspaceEvents;
    private ClusterTopology cluster;
    private final EncodingLimits encodingLimits = new EncodingLimits();
    private int saveLinesRead;
    private long slowlogLogSlowerThan;
    private boolean latencyTracking;
    private long slowlogMaxLen;
    private long latencyMonitorThreshold;

    /** One class of {@code client-output-buffer-limit <class> <hard> <soft> <seconds>}; 0 disables each part. */
    public record OutputBufferLimit(long hardBytes, long softBytes, long softSeconds) {
    }

    private Config() {
        for (Directive d : DIRECTIVES.values()) {
            values.put(d.name(), merged(d, d.parse(Directive.split(d.defaultText()))));
        }
        parseHotValues();
    }

    /** The built-in defaults. */
    public static Config defaults() {
        return new Config();
    }

    /**
     * Loads a config file (null for none) and then the command-line options
     * ({@code --name value...}), as redis-server does.
     */
    public static Config load(Path file, List<String> options) throws ConfigException {
        Config config = new Config();
        if (file != null) {
            config.configFile = file.toAbsolutePath();
            config.applyFile(file);
        }
        for (String line : commandLineLines(options)) {
            config.applyLine(line, "command line");
        }
        config.checkUserLines();
        config.parseHotValues();
        config.cluster = config.readClusterTopology();
        return config;
    }

    /**
     * The command line as configuration lines, as Redis 7.0's main() appends it to the file: an
     * argument starting with {@code --} begins a line (its rest taken as written, so
     * {@code "--maxmemory 700mb"} is a whole line), unless it follows a lone option name, whose
     * value it then is ({@code --proc-title-template --my--title}); every other argument is added
     * quoted. A lone {@code --save} before another option or at the end means {@code save ""}.
     */
    static List<String> commandLineLines(List<String> options) {
        List<String> lines = new ArrayList<>();
        StringBuilder line = new StringBuilder();
        boolean valueGiven = true;
        for (int j = 0; j < options.size(); j++) {
            String option = options.get(j);
            if (valueGiven && option.startsWith("--")) {
                if (!line.isEmpty()) {
                    lines.add(line.toString());
                }
                line = new StringBuilder(option.substring(2)).append(' ');
                List<String> words = Directive.split(option);
                valueGiven = words == null || words.size() != 1;
                if (!valueGiven && option.equalsIgnoreCase("--save")
                        && (j == options.size() - 1 || options.get(j + 1).startsWith("--"))) {
                    line.append("\"\"");
                    valueGiven = true;
                }
            } else {
                line.append(Directive.quote(option)).append(' ');
                valueGiven = true;
            }
        }
        if (!line.isEmpty()) {
            lines.add(line.toString());
        }
        return lines;
    }

    public static Collection<Directive> directives() {
        return DIRECTIVES.values();
    }

    /** The directive {@code name} (in any case) names, directly or by an alias; null if none. */
    public static Directive directive(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        return DIRECTIVES.get(ALIASES.getOrDefault(lower, lower));
    }

    /** Every older name Redis 7.0 still reads, each shown by CONFIG GET as Redis shows it. */
    public static Collection<String> aliases() {
        return ALIASES.keySet();
    }

    /** Whether {@code name} is a test knob no CONFIG GET pattern matches (Redis's HIDDEN_CONFIG). */
    public static boolean isHidden(String name) {
        return HIDDEN.contains(name);
    }

    /** Whether CONFIG SET may give {@code name} {@code value}: as it stands, for a directive read only at start. */
    public boolean takesUnchanged(String name, String value) {
        return FIXED_AT_START.contains(name) && get(name).equals(value);
    }

    public static boolean isProtected(String name) {
        return PROTECTED.contains(name);
    }

    /**
     * The directives set away from their defaults that kvd reads but does not act on
     * ({@link AcceptedDirectives}), as {@code name value}: worth a warning at start.
     */
    public List<String> inertSettings() {
        List<String> settings = new ArrayList<>();
        for (String name : INERT) {
            Directive d = DIRECTIVES.get(name);
            String value = values.get(name);
            if (!value.equals(d.defaultValue())) {
                settings.add(name + " " + value);
            }
        }
        settings.sort(null);
        return settings;
    }

    /** The file kvd was started from, as an absolute path (CONFIG REWRITE rewrites it); null when none. */
    public Path configFile() {
        return configFile;
    }

    /** The value as CONFIG GET shows it. */
    public String get(String name) {
        String directive = ALIASES.getOrDefault(name, name);
        // As Redis's, which answers getcwd() after its chdir to dir.
        return directive.equals(DIR) ? workingDirectory().toString() : values.get(directive);
    }

    /** dir as an absolute path, links resolved where it exists (Redis's getcwd()). */
    public Path workingDirectory() {
        try {
            return dir().toRealPath();
        } catch (IOException e) {
            return dir().toAbsolutePath().normalize();
        }
    }

    /**
     * CONFIG SET of one directive: validates and applies its value, then tells the listeners.
     *
     * @throws IllegalArgumentException with the reason, if the value is invalid, cannot take
     *                                  effect, or the directive cannot change at run time
     */
    public void set(String name, String value) {
        setAll(List.of(name), List.of(value));
    }

    /**
     * CONFIG SET of several directives, all or nothing, as Redis's configSetCommand: every value
     * is set, then each directive's {@linkplain #applyWith apply step} runs once; if one fails,
     * the old values come back (and the steps run again with them) and the failure is thrown.
     * Only then are the listeners told.
     *
     * @throws ApplyException naming the directive whose apply step failed, with its reason
     * @throws IllegalArgumentException if a value is invalid or a directive cannot change
     */
    public void setAll(List<String> names, List<String> texts) {
        Map<String, String> old = new LinkedHashMap<>();
        for (int i = 0; i < names.size(); i++) {
            Directive d = directive(names.get(i));
            if (d == null || !d.mutable()) {
                throw new IllegalArgumentException("can't set immutable config");
            }
            String value = merged(d, d.parse(List.of(texts.get(i))));
            old.putIfAbsent(d.name(), values.get(d.name()));
            values.put(d.name(), value);
            keepEventFlags(d, List.of(texts.get(i)));
        }
        parseHotValues();
        List<String> applied = new ArrayList<>();
        for (String name : old.keySet()) {
            Runnable apply = appliers.get(name);
            if (apply == null || old.get(name).equals(values.get(name))) {
                continue;
            }
            // Listed first: a failed step is also run again with the old value (Redis's restoreBackupConfig).
            applied.add(name);
            try {
                apply.run();
            } catch (IllegalArgumentException e) {
                log.warn("Failed applying new configuration. Possibly related to new {} setting. Restoring previous "
                        + "settings.", name);
                old.forEach(values::put);
                parseHotValues();
                for (String done : applied) {
                    try {
                        appliers.get(done).run();
                    } catch (IllegalArgumentException again) {
                        log.warn("Failed applying restored {} configuration: {}", done, again.getMessage());
                    }
                }
                throw new ApplyException(name, e.getMessage());
            }
        }
        old.keySet().forEach(name -> listeners.forEach(l -> l.accept(name)));
    }

    /** A directive's new value could not take effect (Redis's apply function failed). */
    public static final class ApplyException extends IllegalArgumentException {
        private final String directive;

        ApplyException(String directive, String reason) {
            super(reason);
            this.directive = directive;
        }

        public String directive() {
            return directive;
        }
    }

    /**
     * Makes CONFIG SET of {@code name} take effect before it answers: {@code apply} reads the new
     * value from this config and throws {@link IllegalArgumentException} with Redis's reason when
     * it cannot (a port already in use).
     */
    public void applyWith(String name, Runnable apply) {
        appliers.put(name, apply);
    }

    /** REPLICAOF changed the primary ("host port", or "" for none): CONFIG GET and CONFIG REWRITE show it. */
    public void replicaOf(String hostPort) {
        values.put(REPLICAOF, hostPort);
    }

    /** Called with a directive's name after CONFIG SET changed it. */
    public void onChange(Consumer<String> listener) {
        listeners.add(listener);
    }

    public int port() {
        return Integer.parseInt(values.get(PORT));
    }

    /** Addresses to listen on; a leading '-' marks one whose bind failure is not fatal. */
    public List<String> bind() {
        return List.of(values.get(BIND).split(" "));
    }

    public String transport() {
        return values.get(TRANSPORT);
    }

    public int databases() {
        return Integer.parseInt(values.get(DATABASES));
    }

    /** The encoding thresholds, one object for the server's life: CONFIG SET updates it in place. */
    public EncodingLimits encodingLimits() {
        return encodingLimits;
    }

    public int hz() {
        return Integer.parseInt(values.get(HZ));
    }

    /** busy-reply-threshold (lua-time-limit) in milliseconds; 0: a script is past it at its first count-hook check, as in Redis. */
    public long busyReplyThresholdMs() {
        return Long.parseLong(values.get(BUSY_REPLY_THRESHOLD));
    }

    public Path dir() {
        return Path.of(values.get(DIR));
    }

    public boolean appendonly() {
        return values.get(APPENDONLY).equals("yes");
    }

    /** appendfilename: the AOF's name in dir before Redis 7, and the prefix of every file in appenddirname. */
    public String appendFilename() {
        return values.get(APPENDFILENAME);
    }

    /** appenddirname in dir: the AOF's base, incr and manifest files. */
    public Path appendDir() {
        return dir().resolve(values.get(APPENDDIRNAME));
    }

    /** aof-load-truncated: an AOF whose last file ends in a torn record is cut there and loaded (yes) or refused. */
    public boolean aofLoadTruncated() {
        return values.get(AOF_LOAD_TRUNCATED).equals("yes");
    }

    /** aof-disable-auto-gc: the history files a rewrite leaves are kept (yes) or deleted. */
    public boolean aofDisableAutoGc() {
        return values.get(AOF_DISABLE_AUTO_GC).equals("yes");
    }

    /** aof-use-rdb-preamble: a rewrite writes the base as RDB (yes) or as commands. */
    public boolean aofUseRdbPreamble() {
        return values.get(AOF_USE_RDB_PREAMBLE).equals("yes");
    }

    public String appendfsync() {
        return values.get(APPENDFSYNC);
    }

    /** Growth over the size after the last rewrite, in percent, that starts a rewrite; 0 never. */
    public int autoAofRewritePercentage() {
        return Integer.parseInt(values.get(AUTO_AOF_REWRITE_PERCENTAGE));
    }

    /** The AOF size below which no automatic rewrite starts. */
    public long autoAofRewriteMinSize() {
        return Long.parseLong(values.get(AUTO_AOF_REWRITE_MIN_SIZE));
    }

    public long clientOutputSoftLimit() {
        return clientOutputSoftLimit;
    }

    /** Request bytes one connection's commands may take per event-loop iteration before the others are served. */
    public long clientQuerySlice() {
        return clientQuerySlice;
    }

    public long protoMaxBulkLen() {
        return protoMaxBulkLen;
    }

    public int maxclients() {
        return Integer.parseInt(values.get(MAXCLIENTS));
    }

    /** Seconds a client may stay idle before it is closed; 0 for never. */
    public int timeout() {
        return Integer.parseInt(values.get(TIMEOUT));
    }

    public long clientQueryBufferLimit() {
        return Long.parseLong(values.get(CLIENT_QUERY_BUFFER_LIMIT));
    }

    /** The limit of the normal class. */
    public OutputBufferLimit outputBufferLimit() {
        return outputBufferLimit;
    }

    /** The limit of the pubsub class: clients subscribed to anything. */
    public OutputBufferLimit pubsubOutputBufferLimit() {
        return pubsubOutputBufferLimit;
    }

    /** The limit of the replica (slave) class: the replicas' stream. */
    public OutputBufferLimit replicaOutputBufferLimit() {
        return replicaOutputBufferLimit;
    }

    /** The default user's password; empty when none is required. */
    public byte[] requirepass() {
        return requirepass;
    }

    public boolean protectedMode() {
        return values.get(PROTECTED_MODE).equals("yes");
    }

    /** The TLS port; 0 when TLS is off. */
    public int tlsPort() {
        return Integer.parseInt(values.get(TLS_PORT));
    }

    /** The server's certificate chain (PEM); empty when not set. */
    public String tlsCertFile() {
        return values.get(TLS_CERT_FILE);
    }

    /** The server's private key (PKCS#8 PEM, encrypted when tls-key-file-pass is set); empty when not set. */
    public String tlsKeyFile() {
        return values.get(TLS_KEY_FILE);
    }

    public String tlsKeyFilePass() {
        return values.get(TLS_KEY_FILE_PASS);
    }

    /** The CA certificates that client certificates are verified against; empty when not set. */
    public String tlsCaCertFile() {
        return values.get(TLS_CA_CERT_FILE);
    }

    /** {@code yes} (a client certificate is required), {@code optional} (verified when sent) or {@code no}. */
    public String tlsAuthClients() {
        return values.get(TLS_AUTH_CLIENTS);
    }

    /** The protocol versions allowed, space-separated; empty for Redis's default, TLSv1.2 and TLSv1.3. */
    public String tlsProtocols() {
        return values.get(TLS_PROTOCOLS);
    }

    /** The {@link KeyspaceEventTypes} flags notifications are published for (0: none). */
    public int notifyKeyspaceEvents() {
        return notifyKeyspaceEvents;
    }

    /** Microseconds from which a command is logged in the slow log; -1 for none. */
    public boolean daemonize() {
        return values.get(DAEMONIZE).equals("yes");
    }

    /** The path of the UNIX domain socket to listen on, or "" for none. */
    public String unixsocket() {
        return values.get(UNIXSOCKET);
    }

    /** unixsocketperm: the socket file's permission bits, 0 to leave them to the umask. */
    public int unixsocketPerm() {
        return Integer.parseInt(values.get(UNIXSOCKETPERM), 8);
    }

    /** Whether each command's latency goes to its histogram (INFO latencystats). */
    public boolean latencyTracking() {
        return latencyTracking;
    }

    /** The percentiles INFO latencystats reports (each 0 to 100), as CONFIG GET shows them: {@code 50}, {@code 99.9}. */
    public List<String> latencyTrackingInfoPercentiles() {
        String percentiles = values.get(LATENCY_TRACKING_INFO_PERCENTILES);
        return percentiles.isEmpty() ? List.of() : List.of(percentiles.split(" "));
    }

    public long slowlogLogSlowerThan() {
        return slowlogLogSlowerThan;
    }

    public long slowlogMaxLen() {
        return slowlogMaxLen;
    }

    /** Milliseconds from which the latency monitor samples an event; 0 when it is off. */
    public long latencyMonitorThreshold() {
        return latencyMonitorThreshold;
    }

    /** enable-debug-command: {@code no}, {@code yes} or {@code local}. */
    public String enableDebugCommand() {
        return values.get(ENABLE_DEBUG_COMMAND);
    }

    public String loglevel() {
        return values.get(LOGLEVEL);
    }

    /** The log file, a relative path taken from dir as Redis's after its chdir; null for standard output. */
    public Path logfile() {
        String logfile = values.get(LOGFILE);
        return logfile.isEmpty() ? null : dir().resolve(logfile);
    }

    /** The file kvd writes its process id to while it runs, relative to dir as logfile; null for none. */
    public Path pidfile() {
        String pidfile = values.get(PIDFILE);
        return pidfile.isEmpty() ? null : dir().resolve(pidfile);
    }

    /** The static slot map of cluster-config-file with cluster-enabled yes; null with cluster-enabled no. */
    public ClusterTopology cluster() {
        return cluster;
    }

    /** Validated with the rest of the configuration: a node refuses to start on a bad slot map. */
    private ClusterTopology readClusterTopology() throws ConfigException {
        if (!values.get(CLUSTER_ENABLED).equals("yes")) {
            return null;
        }
        String file = values.get(CLUSTER_CONFIG_FILE);
        if (file.isEmpty()) {
            throw new ConfigException(CLUSTER_ENABLED + " yes needs " + CLUSTER_CONFIG_FILE + ", the file of the slot map");
        }
        if (port() == 0) {
            throw new ConfigException(CLUSTER_ENABLED + " yes needs a fixed port, the one the cluster file names");
        }
        String announced = values.get(CLUSTER_ANNOUNCE_IP);
        List<String> ownHosts = new ArrayList<>();
        if (!announced.isEmpty()) {
            ownHosts.add(announced);
        } else {
            bind().forEach(address -> ownHosts.add(address.startsWith("-") ? address.substring(1) : address));
        }
        try {
            return ClusterConfigFile.read(Path.of(file), port(), ownHosts);
        } catch (ClusterConfigException e) {
            throw new ConfigException(e.getMessage());
        }
    }

    private void parseHotValues() {
        encodingLimits.setHashMaxListpackEntries(Integer.parseInt(values.get(HASH_MAX_LISTPACK_ENTRIES)));
        encodingLimits.setHashMaxListpackValue(Integer.parseInt(values.get(HASH_MAX_LISTPACK_VALUE)));
        encodingLimits.setSetMaxIntsetEntries(Integer.parseInt(values.get(SET_MAX_INTSET_ENTRIES)));
        encodingLimits.setListMaxListpackSize(Integer.parseInt(values.get(LIST_MAX_LISTPACK_SIZE)));
        encodingLimits.setZsetMaxListpackEntries(Integer.parseInt(values.get(ZSET_MAX_LISTPACK_ENTRIES)));
        encodingLimits.setZsetMaxListpackValue(Integer.parseInt(values.get(ZSET_MAX_LISTPACK_VALUE)));
        encodingLimits.setHllSparseMaxBytes(Long.parseLong(values.get(HLL_SPARSE_MAX_BYTES)));
        encodingLimits.setStreamNodeMaxBytes(Long.parseLong(values.get(STREAM_NODE_MAX_BYTES)));
        encodingLimits.setStreamNodeMaxEntries(Long.parseLong(values.get(STREAM_NODE_MAX_ENTRIES)));
        clientOutputSoftLimit = Long.parseLong(values.get(CLIENT_OUTPUT_SOFT_LIMIT));
        clientQuerySlice = Long.parseLong(values.get(CLIENT_QUERY_SLICE));
        protoMaxBulkLen = Long.parseLong(values.get(PROTO_MAX_BULK_LEN));
        String[] limit = values.get(CLIENT_OUTPUT_BUFFER_LIMIT).split(" ");
        outputBufferLimit = outputBufferLimit(limit, "normal");
        pubsubOutputBufferLimit = outputBufferLimit(limit, "pubsub");
        replicaOutputBufferLimit = outputBufferLimit(limit, "slave");
        requirepass = values.get(REQUIREPASS).getBytes(StandardCharsets.UTF_8);
        slowlogLogSlowerThan = Long.parseLong(values.get(SLOWLOG_LOG_SLOWER_THAN));
        slowlogMaxLen = Long.parseLong(values.get(SLOWLOG_MAX_LEN));
        latencyTracking = values.get(LATENCY_TRACKING).equals("yes");
        latencyMonitorThreshold = Long.parseLong(values.get(LATENCY_MONITOR_THRESHOLD));
    }

    /** The limit of {@code clientClass} in client-output-buffer-limit's words (every class, in order). */
    private static OutputBufferLimit outputBufferLimit(String[] words, String clientClass) {
        int i = 4 * Directive.CLIENT_CLASSES.indexOf(clientClass);
        return new OutputBufferLimit(Long.parseLong(words[i + 1]), Long.parseLong(words[i + 2]), Long.parseLong(words[i + 3]));
    }

    /** A new value of a directive as it is kept: client-output-buffer-limit changes only the classes it names. */
    private String merged(Directive d, String parsed) {
        return d.name().equals(CLIENT_OUTPUT_BUFFER_LIMIT)
                ? Directive.mergeOutputBufferLimits(values.get(CLIENT_OUTPUT_BUFFER_LIMIT), parsed) : parsed;
    }

    /**
     * Redis's ACLLoadUsersAtStartup refuses {@code user} lines beside an aclfile: the users live
     * in one place or the other. The lines' rules are checked when the users are made.
     */
    private void checkUserLines() throws ConfigException {
        if (!userLines.isEmpty() && !values.get(ACLFILE).isEmpty()) {
            throw new ConfigException("Configuring Redis with users defined in redis.conf and at the same setting an"
                    + " ACL file path is invalid. This setup is very likely to lead to configuration errors and"
                    + " security holes, please define either an ACL file or declare users directly in your"
                    + " redis.conf, but not both.");
        }
    }

    /**
     * The users as {@code user} lines (ACL LIST's), for CONFIG REWRITE: the server's ACL once it
     * runs; before, the default user requirepass describes.
     */
    public List<String> users() {
        return users.get();
    }

    /** Where CONFIG REWRITE finds the users from now on. */
    public void describeUsersWith(Supplier<List<String>> users) {
        this.users = users;
    }

    private List<String> defaultUserLine() {
        String password = values.get(REQUIREPASS);
        String secret = password.isEmpty() ? "nopass" : "#" + ConfigRewrite.sha256(password);
        return List.of("user default on " + secret + " ~* &* +@all");
    }

    /** The {@code user} lines read, each its words after the directive (the name, then the rules), in order. */
    /**
     * A {@code rename-command name new-name} line: the command is known by the new name only,
     * or by none when it is "" (Redis's way to disable one).
     *
     * @param where the file and line, for the error that a bad rename stops the start with
     */
    public record CommandRename(String name, String newName, String where) {
    }

    /** The rename-command lines, in the file's order. */
    public List<CommandRename> commandRenames() {
        return List.copyOf(commandRenames);
    }

    public List<List<String>> userLines() {
        return List.copyOf(userLines);
    }

    /** Applies a file's lines in order, as Redis's loadServerConfig; a missing file stops the start with Redis's text. */
    private void applyFile(Path file) throws ConfigException {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new ConfigException("Fatal error, can't open config file '" + file + "': " + IoErrors.strerror(e));
        }
        for (int i = 0; i < lines.size(); i++) {
            applyLine(lines.get(i), file + ":" + (i + 1));
        }
    }

    /**
     * {@code include path}: the files it names are read in its place, a relative path from the
     * working directory. A path with glob characters names the files it matches, in order, and
     * none is no error (Redis's include of an empty conf.d); a plain path must exist.
     */
    private void include(String path) throws ConfigException {
        if (path.indexOf('*') < 0 && path.indexOf('?') < 0 && path.indexOf('[') < 0) {
            applyFile(Path.of(path));
            return;
        }
        Path pattern = Path.of(path);
        List<Path> matches = List.of(pattern.isAbsolute() ? pattern.getRoot() : Path.of(""));
        for (Path component : pattern) {
            PathMatcher matcher = FileSystems.getDefault().getPathMatcher("glob:" + component);
            List<Path> next = new ArrayList<>();
            for (Path base : matches) {
                // As glob(3): a wildcard does not match a leading dot.
                try (Stream<Path> entries = Files.list(base.toString().isEmpty() ? Path.of(".") : base)) {
                    entries.map(Path::getFileName)
                            .filter(name -> matcher.matches(name) && (!name.toString().startsWith(".")
                                    || component.toString().startsWith(".")))
                            .sorted()
                            .forEach(name -> next.add(base.resolve(name)));
                } catch (IOException e) {
                    // An unreadable directory matches nothing, as glob(3) without GLOB_ERR.
                }
            }
            matches = next;
        }
        for (Path match : matches) {
            applyFile(match);
        }
    }

    private void applyLine(String line, String where) throws ConfigException {
        String trimmed = line.strip();
        if (trimmed.isEmpty() || trimmed.startsWith("#")) {
            return;
        }
        List<String> words = Directive.split(trimmed);
        if (words == null) {
            throw new ConfigException(where + ": Unbalanced quotes in configuration line");
        }
        String name = words.get(0).toLowerCase(Locale.ROOT);
        if (name.equals("user")) {
            userLines.add(List.copyOf(words.subList(1, words.size())));
            return;
        }
        if (name.equals("rename-command")) {
            if (words.size() != 3) {
                throw new ConfigException(where + ": Bad directive or wrong number of arguments");
            }
            commandRenames.add(new CommandRename(words.get(1), words.get(2), where));
            return;
        }
        if (name.equals("include")) {
            if (words.size() != 2) {
                throw new ConfigException(where + ": include: wrong number of arguments");
            }
            include(words.get(1));
            return;
        }
        Directive d = directive(name);
        if (d == null) {
            throw new ConfigException(where + ": unknown directive '" + name + "'");
        }
        try {
            String parsed = d.parse(words.subList(1, words.size()));
            // As Redis reads a file: the first save line replaces the default, the next ones add to it.
            if (d.name().equals(SAVE) && saveLinesRead++ > 0 && !parsed.isEmpty() && !values.get(SAVE).isEmpty()) {
                parsed = values.get(SAVE) + " " + parsed;
            }
            values.put(d.name(), merged(d, parsed));
            keepEventFlags(d, words.subList(1, words.size()));
        } catch (IllegalArgumentException e) {
            // The line as read, as Redis's ">>> 'line'" shows it.
            throw new ConfigException(where + ": '" + trimmed + "': " + e.getMessage());
        }
    }

    /**
     * notify-keyspace-events' flags come from the words given, not from the form CONFIG GET prints,
     * which (as Redis's) drops n beside A.
     */
    private void keepEventFlags(Directive d, List<String> words) {
        if (d.name().equals(NOTIFY_KEYSPACE_EVENTS)) {
            notifyKeyspaceEvents = KeyspaceEventTypes.parse(Directive.single(words));
        }
    }

    private static void define(Directive d) {
        DIRECTIVES.put(d.name(), d);
    }
}
