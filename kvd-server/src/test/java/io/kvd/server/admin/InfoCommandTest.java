package io.kvd.server.admin;

import io.kvd.server.client.ServerState;
import io.kvd.server.command.CommandFixture;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class InfoCommandTest {
    private final CommandFixture kvd = new CommandFixture();

    /** The bulk string's text, after checking that its length header is right. */
    private String info(String... sections) {
        String[] argv = new String[sections.length + 1];
        argv[0] = "INFO";
        System.arraycopy(sections, 0, argv, 1, sections.length);
        String reply = kvd.call(argv);
        int headerEnd = reply.indexOf("\r\n");
        String text = reply.substring(headerEnd + 2, reply.length() - 2);
        assertThat(reply.substring(0, headerEnd)).isEqualTo("$" + text.length());
        return text;
    }

    private static List<String> titles(String info) {
        List<String> titles = new ArrayList<>();
        for (String line : info.split("\r\n")) {
            if (line.startsWith("# ")) {
                titles.add(line.substring(2));
            }
        }
        return titles;
    }

    @Test
    void defaultSectionsComeInRedisOrderSeparatedByEmptyLines() {
        String info = info();
        assertThat(titles(info)).containsExactly("Server", "Clients", "Memory", "Persistence", "Stats",
                "Replication", "CPU", "Modules", "Errorstats", "Cluster", "Keyspace");
        assertThat(info).contains("\r\n\r\n# Clients\r\n").endsWith("# Keyspace\r\n");
        assertThat(titles(info("default"))).isEqualTo(titles(info));
    }

    @Test
    void allAndEverythingAddCommandstatsAndLatencystats() {
        List<String> all = List.of("Server", "Clients", "Memory", "Persistence", "Stats", "Replication", "CPU",
                "Modules", "Commandstats", "Errorstats", "Latencystats", "Cluster", "Keyspace");
        assertThat(titles(info("all"))).isEqualTo(all);
        assertThat(titles(info("everything"))).isEqualTo(all);
        assertThat(titles(info("cpu", "all"))).isEqualTo(all);
    }

    @Test
    void serverSectionNamesTheRedisVersionKvdFollowsAndItsOwn() {
        assertThat(info("server"))
                .startsWith("# Server\r\nredis_version:7.0.15\r\nkvd_version:" + Version.KVD + "\r\n")
                .contains("\r\nredis_mode:standalone\r\n", "\r\narch_bits:64\r\n", "\r\nhz:10\r\n")
                .containsPattern("\r\nos:\\S+ \\S+ \\S+\r\n")
                .containsPattern("\r\nprocess_id:\\d+\r\n")
                .containsPattern("\r\nuptime_in_seconds:\\d+\r\n");
    }

    @Test
    void sectionNamesAreCaseInsensitiveAndComeInRedisOrder() {
        assertThat(titles(info("KEYSPACE", "server"))).containsExactly("Server", "Keyspace");
    }

    @Test
    void unknownSectionIsEmpty() {
        assertThat(kvd.call("INFO", "foo")).isEqualTo("$0\r\n\r\n");
    }

    @Test
    void emptyKeyspaceSectionHasOnlyItsTitle() {
        assertThat(kvd.call("INFO", "keyspace")).isEqualTo("$12\r\n# Keyspace\r\n\r\n");
    }

    @Test
    void keyspaceSectionCountsKeysOfDatabaseZero() {
        kvd.call("SET", "a", "1");
        kvd.call("SET", "b", "2");
        assertThat(info("keyspace")).isEqualTo("# Keyspace\r\ndb0:keys=2,expires=0,avg_ttl=0\r\n");
    }

    @Test
    void statsCountCommandsConnectionsAndExpiredKeys() {
        kvd.server.stats().connectionsReceived = 3;
        kvd.call("PING");
        assertThat(info("stats"))
                .contains("\r\ntotal_connections_received:3\r\n", "\r\ntotal_commands_processed:1\r\n",
                        "\r\ninstantaneous_ops_per_sec:0\r\n", "\r\nexpired_keys:0\r\n");
    }

    @Test
    void serverSectionNamesThisRunTheProgramAndNoIoThreads() {
        String server = info("server");
        assertThat(server)
                .containsPattern("\r\nprocess_id:\\d+\r\nrun_id:[0-9a-f]{40}\r\ntcp_port:")
                .containsPattern("\r\nconfigured_hz:10\r\nexecutable:\\S+\r\nconfig_file:\r\nio_threads_active:0\r\n$");
        // A run is not a replication history: Redis makes the two ids apart.
        assertThat(server).doesNotContain("run_id:" + kvd.server.replication().replid());
    }

    @Test
    void clientsSectionHasRedisFieldsInRedisOrder() {
        kvd.newClient();
        assertThat(info("clients")).isEqualTo("# Clients\r\nconnected_clients:2\r\ncluster_connections:0\r\n"
                + "maxclients:10000\r\nclient_recent_max_input_buffer:0\r\nclient_recent_max_output_buffer:0\r\n"
                + "blocked_clients:0\r\ntracking_clients:0\r\nclients_in_timeout_table:0\r\n");
    }

    @Test
    void clientsInTimeoutTableCountsBlockedClientsWithATimeout() {
        kvd.callAs(kvd.newClient(), "BLPOP", "q", "0");
        kvd.callAs(kvd.newClient(), "BLPOP", "q", "5");
        assertThat(info("clients")).contains("\r\nblocked_clients:2\r\n", "\r\nclients_in_timeout_table:1\r\n");
    }

    @Test
    void clientsSectionReportsTheRecentBufferPeaks() {
        kvd.server.clientBufferPeaks().input(CommandFixture.START_MS, 20_480);
        kvd.server.clientBufferPeaks().output(CommandFixture.START_MS, 512);
        assertThat(info("clients"))
                .contains("\r\nclient_recent_max_input_buffer:20480\r\nclient_recent_max_output_buffer:512\r\n");
    }

    @Test
    void persistenceReportsTheRdbFieldsOfAServerThatNeverSaved() {
        kvd.call("SET", "a", "1");
        kvd.call("SET", "a", "2", "NX");
        kvd.call("GET", "a");
        kvd.call("DEL", "a", "b");
        assertThat(info("persistence")).startsWith("# Persistence\r\nloading:0\r\nasync_loading:0\r\n"
                + "current_cow_peak:0\r\ncurrent_cow_size:0\r\ncurrent_cow_size_age:0\r\ncurrent_fork_perc:0.00\r\n"
                + "current_save_keys_processed:0\r\ncurrent_save_keys_total:0\r\n"
                + "rdb_changes_since_last_save:2\r\nrdb_bgsave_in_progress:0\r\n"
                + "rdb_last_save_time:" + kvd.server.rdb().lastSaveSeconds() + "\r\nrdb_last_bgsave_status:ok\r\n"
                + "rdb_last_bgsave_time_sec:-1\r\nrdb_current_bgsave_time_sec:-1\r\nrdb_saves:0\r\n"
                + "rdb_last_cow_size:0\r\nrdb_last_load_keys_expired:0\r\nrdb_last_load_keys_loaded:0\r\naof_enabled:");
    }

    @Test
    void keyspaceHitsAndMissesCountLookupsOfReadCommandsOnly() {
        kvd.call("SET", "a", "1");
        kvd.call("GET", "a");
        kvd.call("GET", "missing");
        kvd.call("MGET", "a", "missing", "missing");
        kvd.call("EXISTS", "a");
        kvd.call("APPEND", "a", "2");
        kvd.call("HDEL", "missing", "f");
        kvd.call("MULTI");
        kvd.call("GET", "a");
        kvd.call("EXEC");
        // As redis-server 7.0.15 counts the same commands.
        assertThat(info("stats")).contains("\r\nkeyspace_hits:4\r\nkeyspace_misses:3\r\n");
        kvd.call("CONFIG", "RESETSTAT");
        assertThat(info("stats")).contains("\r\nkeyspace_hits:0\r\nkeyspace_misses:0\r\n");
    }

    @Test
    void statsReportNetworkBytesAndRatesReadsAndWrites() {
        ServerState.Stats stats = kvd.server.stats();
        stats.netInputBytes = 749;
        stats.netOutputBytes = 14_074;
        stats.readsProcessed = 38;
        stats.writesProcessed = 22;
        kvd.server.inputBytesPerSecond().sample(0, 0);
        // 16 KB a second for a full window of 16 samples: a mean of 1 KB a second.
        kvd.server.inputBytesPerSecond().sample(1000, 16 * 1024);
        assertThat(info("stats"))
                .contains("\r\ntotal_net_input_bytes:749\r\ntotal_net_output_bytes:14074\r\n"
                        + "instantaneous_input_kbps:1.00\r\ninstantaneous_output_kbps:0.00\r\nrejected_connections:")
                .contains("\r\ntotal_error_replies:0\r\ntotal_reads_processed:38\r\ntotal_writes_processed:22\r\n"
                        + "io_threaded_reads_processed:0\r\nio_threaded_writes_processed:0\r\n")
                .contains("\r\npubsubshard_channels:0\r\nlatest_fork_usec:0\r\ntotal_forks:0\r\nmigrate_cached_sockets:0\r\n"
                        + "tracking_total_keys:0\r\ntracking_total_items:0\r\n"
                        + "tracking_total_prefixes:0\r\n");
        kvd.call("CONFIG", "RESETSTAT");
        assertThat(info("stats")).contains("\r\ntotal_net_input_bytes:0\r\n", "\r\ninstantaneous_input_kbps:0.00\r\n",
                "\r\ntotal_reads_processed:0\r\n");
    }

    @Test
    void expiredStalePercentWeighsEachCycleFivePercent() {
        for (int i = 0; i < 40; i++) {
            kvd.call("SET", "k" + i, "v", "PX", "10");
        }
        assertThat(info("stats")).contains("\r\nexpired_keys:0\r\nexpired_stale_perc:0.00\r\n");
        // Every key sampled had expired: the estimate moves 5% of the way to 100%.
        kvd.server.expiryCycle().runSlow(CommandFixture.START_MS + 100, 10);
        assertThat(info("stats")).contains("\r\nexpired_keys:40\r\nexpired_stale_perc:5.00\r\n");
        kvd.server.expiryCycle().runSlow(CommandFixture.START_MS + 200, 10);
        assertThat(info("stats")).contains("\r\nexpired_stale_perc:4.75\r\n");
    }

    @Test
    void memorySectionReportsNoLimit() {
        assertThat(info("memory"))
                .containsPattern("^# Memory\r\nused_memory:\\d+\r\nused_memory_human:[\\d.]+[BKMGTP]\r\n")
                .contains("\r\nmaxmemory:0\r\nmaxmemory_human:0B\r\nmaxmemory_policy:noeviction\r\n");
    }

    @Test
    void replicationAndClusterDescribeAStandaloneMaster() {
        assertThat(info("replication", "cluster"))
                .matches("# Replication\r\nrole:master\r\nconnected_slaves:0\r\nmaster_failover_state:no-failover\r\n"
                        + "master_replid:[0-9a-f]{40}\r\nmaster_replid2:0{40}\r\nmaster_repl_offset:0\r\n"
                        + "second_repl_offset:-1\r\nrepl_backlog_active:0\r\nrepl_backlog_size:1048576\r\n"
                        + "repl_backlog_first_byte_offset:0\r\nrepl_backlog_histlen:0\r\n\r\n"
                        + "# Cluster\r\ncluster_enabled:0\r\n");
    }

    @Test
    void cpuTimesHaveSixDecimals() {
        assertThat(info("cpu")).containsPattern("\r\nused_cpu_user_main_thread:\\d+\\.\\d{6}\r\n");
    }

    @Test
    void bytesToHumanFormatsAsRedis() {
        assertThat(InfoCommand.bytesToHuman(200)).isEqualTo("200B");
        assertThat(InfoCommand.bytesToHuman(941_160)).isEqualTo("919.10K");
        assertThat(InfoCommand.bytesToHuman(6_946_816)).isEqualTo("6.62M");
        assertThat(InfoCommand.bytesToHuman(25_275_953_152L)).isEqualTo("23.54G");
    }
}
