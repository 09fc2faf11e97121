package io.kvd.server.admin;

import io.kvd.server.client.AofRewriteStatus;
import io.kvd.server.client.Client;
import io.kvd.server.client.ClientBufferPeaks;
import io.kvd.server.client.ScriptEngines;
import io.kvd.server.client.ServerState;
import io.kvd.server.config.Config;
import io.kvd.server.config.Directive;
import io.kvd.server.memory.ServerMemory;
import io.kvd.server.propagate.CommandLog;
import io.kvd.server.protocol.Args;
import io.kvd.server.rdb.RdbPersistence;
import io.kvd.server.replication.ConnectedReplica;
import io.kvd.server.replication.MasterLink;
import io.kvd.server.replication.Replication;
import io.kvd.server.store.Keyspace;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * INFO [section ...]: Redis's text report, one bulk string of "# Section" blocks of
 * {@code field:value} lines separated by an empty line, sections always in Redis's order.
 * kvd reports the fields it can answer truthfully, under Redis's names; an unknown section is
 * empty, as in Redis.
 */
public final class InfoCommand {
    /** Each section's title (INFO takes it in any case) and what writes its fields, in Redis's order. */
    private static final Map<String, BiConsumer<ServerState, Section>> SECTIONS = new LinkedHashMap<>();
    /** The sections only {@code INFO all}, {@code everything} or their own name show, as Redis's. */
    private static final Set<String> NOT_DEFAULT = Set.of("Commandstats", "Latencystats");

    static {
        SECTIONS.put("Server", InfoCommand::server);
        SECTIONS.put("Clients", InfoCommand::clients);
        SECTIONS.put("Memory", InfoCommand::memory);
        SECTIONS.put("Persistence", InfoCommand::persistence);
        SECTIONS.put("Stats", InfoCommand::stats);
        SECTIONS.put("Replication", InfoCommand::replication);
        SECTIONS.put("CPU", InfoCommand::cpu);
        // kvd loads no modules: Redis's section is then its title alone.
        SECTIONS.put("Modules", (server, s) -> { });
        SECTIONS.put("Commandstats", InfoCommand::commandstats);
        SECTIONS.put("Errorstats", InfoCommand::errorstats);
        SECTIONS.put("Latencystats", InfoCommand::latencystats);
        SECTIONS.put("Cluster", InfoCommand::cluster);
        SECTIONS.put("Keyspace", InfoCommand::keyspace);
    }

    private static final String OS = System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
            + ("amd64".equals(System.getProperty("os.arch")) ? "x86_64" : System.getProperty("os.arch"));

    private InfoCommand() {
    }

    /** The lines of one section, each ending in CRLF. */
    private static final class Section {
        private final StringBuilder text;

        Section(StringBuilder text, String title) {
            this.text = text.append("# ").append(title).append("\r\n");
        }

        Section field(String name, Object value) {
            text.append(name).append(':').append(value).append("\r\n");
            return this;
        }
    }

    public static void info(Client client, byte[][] argv) {
        Set<String> wanted = new HashSet<>();
        for (int i = 1; i < argv.length; i++) {
            wanted.add(Args.utf8(argv[i]).toLowerCase(Locale.ROOT));
        }
        boolean all = wanted.contains("all") || wanted.contains("everything");
        boolean defaults = argv.length == 1 || wanted.contains("default");
        StringBuilder text = new StringBuilder();
        SECTIONS.forEach((title, writer) -> {
            if (all || defaults && !NOT_DEFAULT.contains(title) || wanted.contains(title.toLowerCase(Locale.ROOT))) {
                if (!text.isEmpty()) {
                    text.append("\r\n");
                }
                writer.accept(client.server(), new Section(text, title));
            }
        });
        client.reply().verbatim(text.toString());
    }

    private static void server(ServerState server, Section s) {
        long uptimeSeconds = (System.currentTimeMillis() - server.startedAtMs()) / 1000;
        Instant now = Instant.now();
        s.field("redis_version", Version.REDIS)
                .field("kvd_version", Version.KVD)
                .field("redis_git_sha1", "00000000")
                .field("redis_git_dirty", 0)
                .field("redis_mode", server.config().cluster() != null ? "cluster" : "standalone")
                .field("os", OS)
                .field("arch_bits", System.getProperty("sun.arch.data.model", "64"))
                .field("multiplexing_api", server.transport())
                .field("process_id", ProcessHandle.current().pid())
                .field("run_id", server.runId())
                .field("tcp_port", server.tcpPort())
                .field("server_time_usec", now.getEpochSecond() * 1_000_000 + now.getNano() / 1000)
                .field("uptime_in_seconds", uptimeSeconds)
                .field("uptime_in_days", uptimeSeconds / 86400)
                .field("hz", server.config().hz())
                .field("configured_hz", server.config().hz())
                // The process's program: the JVM, which runs kvd.jar (Redis's is redis-server).
                .field("executable", ProcessHandle.current().info().command().orElse(""))
                .field("config_file", server.config().configFile() == null ? "" : server.config().configFile())
                // Every client's reads and writes are the event loop's: kvd has no I/O threads.
                .field("io_threads_active", 0);
        long shutdownIn = server.shutdownSequence().millisecondsLeft(System.currentTimeMillis());
        if (shutdownIn >= 0) {
            s.field("shutdown_in_milliseconds", shutdownIn);
        }
    }

    private static void clients(ServerState server, Section s) {
        ClientBufferPeaks peaks = server.clientBufferPeaks();
        // As Redis: replicas are counted apart, in connected_slaves.
        s.field("connected_clients", server.clients().size() - server.replication().replicaCount())
                // Redis's count of cluster bus links; kvd's static cluster has no bus.
                .field("cluster_connections", 0)
                .field("maxclients", server.config().maxclients())
                .field("client_recent_max_input_buffer", peaks.recentMaxInput())
                .field("client_recent_max_output_buffer", peaks.recentMaxOutput())
                .field("blocked_clients", server.blockedClientCount())
                .field("tracking_clients", server.tracking().clientCount())
                .field("clients_in_timeout_table", server.blockedClients().withDeadlineCount());
    }

    /**
     * Redis 7.0's memory fields that kvd's figures give ({@link MemoryCommand#overhead}, the same as
     * MEMORY STATS), in Redis's order.
     */
    private static void memory(ServerState server, Section s) {
        ServerMemory.Overhead o = MemoryCommand.overhead(server);
        Replication replication = server.replication();
        s.field("used_memory", o.total()).field("used_memory_human", bytesToHuman(o.total()))
                .field("used_memory_rss", o.rss()).field("used_memory_rss_human", bytesToHuman(o.rss()))
                .field("used_memory_peak", o.peak()).field("used_memory_peak_human", bytesToHuman(o.peak()))
                .field("used_memory_peak_perc", twoDecimals(o.peakPercentage()) + "%")
                .field("used_memory_overhead", o.overheadTotal())
                .field("used_memory_startup", o.startup())
                .field("used_memory_dataset", o.dataset())
                .field("used_memory_dataset_perc", twoDecimals(o.datasetPercentage()) + "%")
                .field("allocator_allocated", o.allocated())
                .field("allocator_active", o.active())
                .field("allocator_resident", o.resident());
        long total = ManagementFactory.getPlatformMXBean(com.sun.management.OperatingSystemMXBean.class)
                .getTotalMemorySize();
        s.field("total_system_memory", total)
                .field("total_system_memory_human", bytesToHuman(total));
        scripting(server, s);
        long maxmemory = server.eviction().maxmemory();
        s.field("maxmemory", maxmemory)
                .field("maxmemory_human", bytesToHuman(maxmemory))
                .field("maxmemory_policy", server.config().get(Config.MAXMEMORY_POLICY))
                .field("allocator_frag_ratio", twoDecimals(o.allocatorFragmentation()))
                .field("allocator_frag_bytes", o.allocatorFragmentationBytes())
                .field("allocator_rss_ratio", twoDecimals(o.allocatorRss()))
                .field("allocator_rss_bytes", o.allocatorRssBytes())
                .field("rss_overhead_ratio", twoDecimals(o.rssOverhead()))
                .field("rss_overhead_bytes", o.rssOverheadBytes())
                .field("mem_fragmentation_ratio", twoDecimals(o.fragmentation()))
                .field("mem_fragmentation_bytes", o.fragmentationBytes())
                // Everything but the store: maxmemory bounds the store alone (docs/configuration.md).
                .field("mem_not_counted_for_evict", o.clientsNormal() + o.aofBuffer())
                .field("mem_replication_backlog", replication.backlogMemory())
                // Redis's replicas share one buffer with the backlog; kvd's backlog is a ring of its own.
                .field("mem_total_replication_buffers", replication.backlogMemory() + replication.replicaOutputMemory())
                .field("mem_clients_slaves", replication.replicaOutputMemory())
                .field("mem_clients_normal", o.clientsNormal())
                .field("mem_cluster_links", 0)
                .field("mem_aof_buffer", o.aofBuffer())
                // FLUSHALL ASYNC drops the store's arrays whole: nothing waits to be freed by a thread.
                .field("lazyfree_pending_objects", 0)
                .field("lazyfreed_objects", 0);
    }

    /** printf's "%.2f": the exact binary value rounded, half to even. */
    private static String twoDecimals(double value) {
        if (!Double.isFinite(value)) {
            return Double.isNaN(value) ? "nan" : value > 0 ? "inf" : "-inf";
        }
        return new BigDecimal(value).setScale(2, RoundingMode.HALF_EVEN).toPlainString();
    }

    /** Redis 7.0's Lua fields of INFO memory: EVAL's interpreter, then the functions' (theirs is 0 until one loaded). */
    private static void scripting(ServerState server, Section s) {
        ScriptEngines scripting = server.scripting();
        long eval = scripting.evalMemoryBytes();
        long vmFunctions = scripting.functionsMemoryBytes();
        s.field("used_memory_lua", eval)
                .field("used_memory_vm_eval", eval)
                .field("used_memory_lua_human", bytesToHuman(eval))
                .field("number_of_cached_scripts", scripting.cachedScripts())
                .field("number_of_functions", scripting.functionCount())
                .field("number_of_libraries", scripting.libraryCount())
                .field("used_memory_vm_functions", vmFunctions)
                .field("used_memory_vm_total", eval + vmFunctions)
                .field("used_memory_vm_total_human", bytesToHuman(eval + vmFunctions));
    }

    /**
     * Redis's RDB and AOF fields; the AOF file's own (size, buffer, fsync) only while the AOF is
     * on, as Redis. kvd forks no child, so the copy-on-write figures stay 0.
     */
    private static void persistence(ServerState server, Section s) {
        CommandLog log = server.commandLog();
        AofRewriteStatus rewrite = server.aofRewrite();
        RdbPersistence rdb = server.rdb();
        boolean aofOn = rewrite.aofState() != AofRewriteStatus.AofState.OFF;
        long now = System.currentTimeMillis();
        s.field("loading", server.replication().loading() ? 1 : 0)
                .field("async_loading", server.replication().asyncLoading() ? 1 : 0)
                .field("current_cow_peak", 0)
                .field("current_cow_size", 0)
                .field("current_cow_size_age", 0)
                .field("current_fork_perc", "0.00")
                .field("current_save_keys_processed", 0)
                .field("current_save_keys_total", 0)
                .field("rdb_changes_since_last_save", rdb.changesSinceLastSave())
                .field("rdb_bgsave_in_progress", rdb.inProgress() ? 1 : 0)
                .field("rdb_last_save_time", rdb.lastSaveSeconds())
                .field("rdb_last_bgsave_status", rdb.lastBgsaveOk() ? "ok" : "err")
                .field("rdb_last_bgsave_time_sec", rdb.lastBgsaveSeconds())
                .field("rdb_current_bgsave_time_sec", rdb.currentBgsaveSeconds(now))
                .field("rdb_saves", rdb.saves())
                .field("rdb_last_cow_size", 0)
                .field("rdb_last_load_keys_expired", rdb.lastLoadExpired())
                .field("rdb_last_load_keys_loaded", rdb.lastLoadKeys())
                .field("aof_enabled", aofOn ? 1 : 0)
                .field("aof_rewrite_in_progress", rewrite.inProgress() ? 1 : 0)
                .field("aof_rewrite_scheduled", rewrite.scheduled() ? 1 : 0)
                .field("aof_last_rewrite_time_sec", rewrite.lastDurationSec())
                .field("aof_current_rewrite_time_sec", rewrite.currentDurationSec(now))
                .field("aof_last_bgrewrite_status", rewrite.lastSucceeded() ? "ok" : "err")
                .field("aof_rewrites", rewrite.rewrites())
                .field("aof_rewrites_consecutive_failures", rewrite.consecutiveFailures())
                .field("aof_last_write_status", log.failure() == null ? "ok" : "err");
        if (aofOn) {
            s.field("aof_current_size", log.fileSize())
                    .field("aof_base_size", rewrite.baseSize())
                    .field("aof_buffer_length", log.records().readableBytes())
                    .field("aof_pending_bio_fsync", log.fsyncInProgress() ? 1 : 0)
                    .field("aof_delayed_fsync", log.delayedFsyncs());
        }
    }

    private static void stats(ServerState server, Section s) {
        ServerState.Stats stats = server.stats();
        s.field("total_connections_received", stats.connectionsReceived)
                .field("total_commands_processed", stats.commandsProcessed)
                .field("instantaneous_ops_per_sec", server.opsPerSecond().value())
                .field("total_net_input_bytes", stats.netInputBytes)
                .field("total_net_output_bytes", stats.netOutputBytes)
                .field("instantaneous_input_kbps", kilobytes(server.inputBytesPerSecond().value()))
                .field("instantaneous_output_kbps", kilobytes(server.outputBytesPerSecond().value()))
                .field("rejected_connections", stats.rejectedConnections)
                .field("sync_full", server.replication().syncFull())
                .field("sync_partial_ok", server.replication().syncPartialOk())
                .field("sync_partial_err", server.replication().syncPartialErr())
                .field("expired_keys", server.databases().expiredKeys())
                .field("expired_stale_perc", String.format(Locale.ROOT, "%.2f", server.expiryCycle().stalePercent()))
                .field("expired_time_cap_reached_count", server.expiryCycle().timeCapReachedCount())
                .field("expire_cycle_cpu_milliseconds", server.expiryCycle().cycleMillis())
                .field("evicted_keys", server.eviction().evictedKeys())
                .field("evicted_clients", server.clientEviction().evictedClients())
                .field("total_eviction_exceeded_time", server.eviction().exceededMs())
                .field("current_eviction_exceeded_time", server.eviction().currentExceededMs())
                .field("keyspace_hits", server.databases().keyspaceHits())
                .field("keyspace_misses", server.databases().keyspaceMisses())
                .field("pubsub_channels", server.pubSub().channelCount())
                .field("pubsub_patterns", server.pubSub().patternCount())
                .field("pubsubshard_channels", server.pubSub().shardChannelCount())
                .field("latest_fork_usec", server.databases().latestSnapshotStartMicros())
                .field("total_forks", server.databases().snapshotsStarted())
                .field("migrate_cached_sockets", server.migrateSockets().size())
                .field("tracking_total_keys", server.tracking().totalKeys())
                .field("tracking_total_items", server.tracking().totalItems())
                .field("tracking_total_prefixes", server.tracking().totalPrefixes())
                .field("unexpected_error_replies", 0)
                .field("total_error_replies", server.errorStats().total())
                .field("total_reads_processed", stats.readsProcessed)
                .field("total_writes_processed", stats.writesProcessed)
                .field("io_threaded_reads_processed", 0)
                .field("io_threaded_writes_processed", 0)
                .field("protocol_errors", stats.protocolErrors)
                .field("client_query_buffer_limit_disconnections", stats.queryBufferLimitDisconnections)
                .field("client_output_buffer_limit_disconnections", stats.outputBufferLimitDisconnections)
                .field("client_output_read_pauses", stats.readPauses)
                .field("client_query_slice_yields", stats.querySliceYields);
    }

    /** Redis's cmdstat lines: each command or subcommand called, refused or failed since the last RESETSTAT. */
    private static void commandstats(ServerState server, Section s) {
        server.commandStats().byName().forEach((name, entry) -> {
            if (entry.calls() == 0 && entry.failedCalls() == 0 && entry.rejectedCalls() == 0) {
                return;
            }
            double perCall = entry.calls() == 0 ? 0 : (double) entry.micros() / entry.calls();
            s.field("cmdstat_" + name, "calls=" + entry.calls() + ",usec=" + entry.micros()
                    + ",usec_per_call=" + String.format(Locale.ROOT, "%.2f", perCall)
                    + ",rejected_calls=" + entry.rejectedCalls() + ",failed_calls=" + entry.failedCalls());
        });
    }

    private static void errorstats(ServerState server, Section s) {
        server.errorStats().byCode().forEach((code, count) -> s.field("errorstat_" + code, "count=" + count[0]));
    }

    /**
     * Redis's fillPercentileDistributionLatencies: for each command with a latency histogram, the
     * configured percentiles in microseconds ({@code p50=1.003,p99=...}).
     */
    private static void latencystats(ServerState server, Section s) {
        List<String> percentiles = server.config().latencyTrackingInfoPercentiles();
        server.commandStats().byName().forEach((name, entry) -> {
            if (entry.latency() == null) {
                return;
            }
            StringBuilder line = new StringBuilder();
            for (String percentile : percentiles) {
                if (!line.isEmpty()) {
                    line.append(',');
                }
                double micros = entry.latency().getValueAtPercentile(Double.parseDouble(percentile)) / 1000.0;
                line.append('p').append(percentile).append('=').append(String.format(Locale.ROOT, "%.3f", micros));
            }
            s.field("latency_percentiles_usec_" + name, line);
        });
    }

    /** Redis's replication section: the link to the primary on a replica, the replicas, the ids and the backlog. */
    private static void replication(ServerState server, Section s) {
        Replication replication = server.replication();
        MasterLink master = replication.master();
        long now = System.currentTimeMillis();
        s.field("role", master == null ? "master" : "slave");
        if (master != null) {
            s.field("master_host", master.host())
                    .field("master_port", master.port())
                    .field("master_link_status", master.isUp() ? "up" : "down")
                    .field("master_last_io_seconds_ago", master.isUp() ? master.lastIoSecondsAgo(now) : -1)
                    .field("master_sync_in_progress", master.syncInProgress() ? 1 : 0)
                    .field("slave_read_repl_offset", replication.offset())
                    .field("slave_repl_offset", replication.offset());
            if (master.syncInProgress()) {
                long total = master.syncTotalBytes();
                long read = master.syncReadBytes();
                s.field("master_sync_total_bytes", total)
                        .field("master_sync_read_bytes", read)
                        .field("master_sync_left_bytes", total - read)
                        .field("master_sync_perc", String.format(Locale.ROOT, "%.2f", total <= 0 ? 0.0 : read * 100.0 / total))
                        .field("master_sync_last_io_seconds_ago", master.lastIoSecondsAgo(now));
            }
            if (!master.isUp()) {
                s.field("master_link_down_since_seconds", master.downSeconds(now));
            }
            s.field("slave_priority", server.config().get(Config.REPLICA_PRIORITY))
                    .field("slave_read_only", server.config().get(Config.REPLICA_READ_ONLY).equals("yes") ? 1 : 0)
                    .field("replica_announced", server.config().get("replica-announced").equals("yes") ? 1 : 0);
        }
        s.field("connected_slaves", replication.replicas().size());
        int index = 0;
        for (ConnectedReplica replica : replication.replicas()) {
            s.field("slave" + index++, Replication.infoLine(replica, now));
        }
        s.field("master_failover_state", replication.failoverState().infoName)
                .field("master_replid", replication.replid())
                .field("master_replid2", replication.replid2())
                .field("master_repl_offset", replication.offset())
                .field("second_repl_offset", replication.secondReplidOffset())
                .field("repl_backlog_active", replication.backlogActive() ? 1 : 0)
                .field("repl_backlog_size", replication.backlogSizeShown())
                .field("repl_backlog_first_byte_offset", replication.backlogFirstOffset())
                .field("repl_backlog_histlen", replication.backlogHeld());
    }

    /** Process times from /proc (Linux), the event loop thread's own from the JVM. */
    private static void cpu(ServerState server, Section s) {
        long[] userSys = processCpuTicks();
        if (userSys != null) {
            // /proc reports clock ticks of USER_HZ, which Linux fixes at 100 per second for user space.
            s.field("used_cpu_sys", seconds(userSys[1] * 10_000_000L))
                    .field("used_cpu_user", seconds(userSys[0] * 10_000_000L));
        }
        // kvd forks no children (its AOF rewrite runs in a thread).
        s.field("used_cpu_sys_children", seconds(0)).field("used_cpu_user_children", seconds(0));
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long cpuNanos = threads.getCurrentThreadCpuTime();
        long userNanos = threads.getCurrentThreadUserTime();
        if (cpuNanos >= 0 && userNanos >= 0) {
            s.field("used_cpu_sys_main_thread", seconds(cpuNanos - userNanos))
                    .field("used_cpu_user_main_thread", seconds(userNanos));
        }
    }

    private static void cluster(ServerState server, Section s) {
        s.field("cluster_enabled", server.config().cluster() != null ? 1 : 0);
    }

    /** {@code dbN:keys=K,expires=E,avg_ttl=T}, one line per database that has keys. */
    private static void keyspace(ServerState server, Section s) {
        for (int db = 0; db < server.databases().count(); db++) {
            Keyspace keyspace = server.keyspace(db);
            if (keyspace.size() > 0) {
                s.field("db" + db, "keys=" + keyspace.size() + ",expires=" + keyspace.sizeWithDeadline()
                        + ",avg_ttl=" + server.expiryCycle().averageTtlMs(db));
            }
        }
    }

    /** Redis's bytesToHuman: B below 1024, else two decimals of K, M, G, T or P. */
    static String bytesToHuman(long n) {
        String units = "KMGTP";
        if (n < 1024) {
            return n + "B";
        }
        double d = n;
        int unit = -1;
        while (d >= 1024 && unit < units.length() - 1) {
            d /= 1024;
            unit++;
        }
        return twoDecimals(d) + units.charAt(unit);
    }

    /** Redis's "%.2f" of a bytes-per-second rate in KB. */
    private static String kilobytes(long bytesPerSecond) {
        return String.format(Locale.ROOT, "%.2f", bytesPerSecond / 1024.0);
    }

    private static String seconds(long nanos) {
        return String.format(Locale.ROOT, "%d.%06d", nanos / 1_000_000_000L, nanos % 1_000_000_000L / 1000);
    }

    /** utime and stime of /proc/self/stat (fields 14 and 15), or null where there is no such file. */
    private static long[] processCpuTicks() {
        try {
            String stat = Files.readString(Path.of("/proc/self/stat"));
            // The command name (field 2) may hold spaces: count fields from its closing parenthesis.
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return new long[]{Long.parseLong(fields[11]), Long.parseLong(fields[12])};
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
