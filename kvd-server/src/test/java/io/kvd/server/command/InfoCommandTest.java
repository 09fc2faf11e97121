package io.kvd.server.command;

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
    void clientsSectionCountsConnectedClients() {
        kvd.newClient();
        assertThat(info("clients")).startsWith("# Clients\r\nconnected_clients:2\r\nblocked_clients:0\r\n");
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
