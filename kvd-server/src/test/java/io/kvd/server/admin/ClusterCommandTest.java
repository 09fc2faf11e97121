package io.kvd.server.admin;

import io.kvd.server.command.ClusterFixture;
import io.kvd.server.command.CommandFixture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static io.kvd.server.command.ClusterFixture.ID_A;
import static io.kvd.server.command.ClusterFixture.ID_B;
import static io.kvd.server.command.ClusterFixture.ID_C;
import static org.assertj.core.api.Assertions.assertThat;

/** CLUSTER's subcommands, READONLY and READWRITE on node a of {@link ClusterFixture}, and without cluster. */
class ClusterCommandTest {
    private static final String DISABLED = "-ERR This instance has cluster support disabled\r\n";

    @TempDir
    Path dir;

    private static String bulk(String text) {
        return "$" + text.getBytes(StandardCharsets.UTF_8).length + "\r\n" + text + "\r\n";
    }

    private CommandFixture nodeA() {
        return ClusterFixture.nodeA(dir);
    }

    @Test
    void myidIsThisNodesId() {
        assertThat(nodeA().call("CLUSTER", "MYID")).isEqualTo(bulk(ID_A));
    }

    @Test
    void nodesListsEveryNodeAsAConnectedMasterWithItsSlots() {
        assertThat(nodeA().call("CLUSTER", "NODES")).isEqualTo(bulk(
                ID_A + " 127.0.0.1:7001@0 myself,master - 0 0 1 connected 0-5460\n"
                        + ID_B + " 127.0.0.1:7002@0 master - 0 0 2 connected 5461-10922\n"
                        + ID_C + " 127.0.0.1:7003@0 master - 0 0 3 connected 10923-16383\n"));
    }

    @Test
    void slotsListsEachRangeWithItsMasterInSlotOrder() {
        assertThat(nodeA().call("CLUSTER", "SLOTS")).isEqualTo("*3\r\n"
                + "*3\r\n:0\r\n:5460\r\n*4\r\n" + bulk("127.0.0.1") + ":7001\r\n" + bulk(ID_A) + "*0\r\n"
                + "*3\r\n:5461\r\n:10922\r\n*4\r\n" + bulk("127.0.0.1") + ":7002\r\n" + bulk(ID_B) + "*0\r\n"
                + "*3\r\n:10923\r\n:16383\r\n*4\r\n" + bulk("127.0.0.1") + ":7003\r\n" + bulk(ID_C) + "*0\r\n");
    }

    @Test
    void shardsDescribeEachNodeWithItsSlotsInRedisFieldOrder() {
        assertThat(nodeA().call("CLUSTER", "SHARDS")).isEqualTo("*3\r\n"
                + shard(0, 5460, ID_A, 7001) + shard(5461, 10922, ID_B, 7002) + shard(10923, 16383, ID_C, 7003));
    }

    private static String shard(int first, int last, String id, int port) {
        return "*4\r\n" + bulk("slots") + "*2\r\n:" + first + "\r\n:" + last + "\r\n" + bulk("nodes") + "*1\r\n*14\r\n"
                + bulk("id") + bulk(id) + bulk("port") + ":" + port + "\r\n" + bulk("ip") + bulk("127.0.0.1")
                + bulk("endpoint") + bulk("127.0.0.1") + bulk("role") + bulk("master")
                + bulk("replication-offset") + ":0\r\n" + bulk("health") + bulk("online");
    }

    @Test
    void infoReportsAHealthyClusterOfThreeMasters() {
        assertThat(nodeA().call("CLUSTER", "INFO")).isEqualTo(bulk("cluster_state:ok\r\n"
                + "cluster_slots_assigned:16384\r\n"
                + "cluster_slots_ok:16384\r\n"
                + "cluster_slots_pfail:0\r\n"
                + "cluster_slots_fail:0\r\n"
                + "cluster_known_nodes:3\r\n"
                + "cluster_size:3\r\n"
                + "cluster_current_epoch:3\r\n"
                + "cluster_my_epoch:1\r\n"
                + "cluster_stats_messages_sent:0\r\n"
                + "cluster_stats_messages_received:0\r\n"
                + "total_cluster_links_buffer_limit_exceeded:0\r\n"));
    }

    @Test
    void keyslotHashesTheKeyOrItsHashTag() {
        CommandFixture kvd = nodeA();
        assertThat(kvd.call("CLUSTER", "KEYSLOT", "foo")).isEqualTo(":12182\r\n");
        assertThat(kvd.call("CLUSTER", "KEYSLOT", "{bar}foo")).isEqualTo(":5061\r\n");
    }

    @Test
    void countkeysinslotCountsThisNodesKeysOfTheSlot() {
        CommandFixture kvd = nodeA();
        kvd.call("MSET", "bar", "1", "{bar}1", "2");
        kvd.call("SET", "hello", "3");
        assertThat(kvd.call("CLUSTER", "COUNTKEYSINSLOT", "5061")).isEqualTo(":2\r\n");
        assertThat(kvd.call("CLUSTER", "COUNTKEYSINSLOT", "12182")).isEqualTo(":0\r\n");
    }

    @Test
    void countkeysinslotRefusesASlotOutOfRange() {
        CommandFixture kvd = nodeA();
        assertThat(kvd.call("CLUSTER", "COUNTKEYSINSLOT", "16384")).isEqualTo("-ERR Invalid slot\r\n");
        assertThat(kvd.call("CLUSTER", "COUNTKEYSINSLOT", "-1")).isEqualTo("-ERR Invalid slot\r\n");
        assertThat(kvd.call("CLUSTER", "COUNTKEYSINSLOT", "x"))
                .isEqualTo("-ERR value is not an integer or out of range\r\n");
    }

    @Test
    void getkeysinslotReturnsAtMostCountKeysOfTheSlot() {
        CommandFixture kvd = nodeA();
        kvd.call("MSET", "bar", "1", "{bar}1", "2", "{bar}2", "3");
        kvd.call("SET", "hello", "4");
        assertThat(kvd.call("CLUSTER", "GETKEYSINSLOT", "5061", "2")).startsWith("*2\r\n");
        assertThat(kvd.call("CLUSTER", "GETKEYSINSLOT", "5061", "10"))
                .startsWith("*3\r\n").contains(bulk("bar"), bulk("{bar}1"), bulk("{bar}2"));
        assertThat(kvd.call("CLUSTER", "GETKEYSINSLOT", "5061", "0")).isEqualTo("*0\r\n");
    }

    @Test
    void getkeysinslotRefusesABadSlotOrCount() {
        CommandFixture kvd = nodeA();
        assertThat(kvd.call("CLUSTER", "GETKEYSINSLOT", "5061", "-1")).isEqualTo("-ERR Invalid slot or number of keys\r\n");
        assertThat(kvd.call("CLUSTER", "GETKEYSINSLOT", "16384", "1")).isEqualTo("-ERR Invalid slot or number of keys\r\n");
        assertThat(kvd.call("CLUSTER", "GETKEYSINSLOT", "x", "1"))
                .isEqualTo("-ERR value is not an integer or out of range\r\n");
    }

    @Test
    void helpListsTheSubcommandsKvdHasInRedisOrder() {
        assertThat(nodeA().call("CLUSTER", "HELP")).startsWith("*21\r\n"
                + "+CLUSTER <subcommand> [<arg> [value] [opt] ...]. Subcommands are:\r\n"
                + "+COUNTKEYSINSLOT <slot>\r\n").endsWith("+HELP\r\n+    Prints this help.\r\n");
    }

    @Test
    void unknownSubcommandPointsToHelp() {
        assertThat(nodeA().call("CLUSTER", "ADDSLOTS", "1")).isEqualTo("-ERR unknown subcommand 'ADDSLOTS'. Try CLUSTER HELP.\r\n");
    }

    @Test
    void subcommandArityErrorNamesTheSubcommand() {
        assertThat(nodeA().call("CLUSTER", "KEYSLOT")).isEqualTo("-ERR wrong number of arguments for 'cluster|keyslot' command\r\n");
    }

    @Test
    void readonlyAndReadwriteAreAccepted() {
        CommandFixture kvd = nodeA();
        assertThat(kvd.call("READONLY")).isEqualTo("+OK\r\n");
        assertThat(kvd.call("READWRITE")).isEqualTo("+OK\r\n");
    }

    @Test
    void infoSaysClusterModeWhenEnabled() {
        CommandFixture kvd = nodeA();
        assertThat(kvd.call("INFO", "cluster")).isEqualTo(bulk("# Cluster\r\ncluster_enabled:1\r\n"));
        assertThat(kvd.call("INFO", "server")).contains("\r\nredis_mode:cluster\r\n");
    }

    @Test
    void selectOfAnotherDatabaseIsNotAllowedInClusterMode() {
        CommandFixture kvd = nodeA();
        assertThat(kvd.call("SELECT", "1")).isEqualTo("-ERR SELECT is not allowed in cluster mode\r\n");
        assertThat(kvd.call("SELECT", "0")).isEqualTo("+OK\r\n");
    }

    @Test
    void withoutClusterEverySubcommandIsRefused() {
        CommandFixture kvd = new CommandFixture();
        assertThat(kvd.call("CLUSTER", "INFO")).isEqualTo(DISABLED);
        assertThat(kvd.call("CLUSTER", "KEYSLOT", "foo")).isEqualTo(DISABLED);
        assertThat(kvd.call("CLUSTER", "HELP")).isEqualTo(DISABLED);
        assertThat(kvd.call("READONLY")).isEqualTo(DISABLED);
        assertThat(kvd.call("READWRITE")).isEqualTo(DISABLED);
    }

    @Test
    void withoutClusterSubcommandsAreStillLookedUpAndArityChecked() {
        CommandFixture kvd = new CommandFixture();
        assertThat(kvd.call("CLUSTER", "FOO")).isEqualTo("-ERR unknown subcommand 'FOO'. Try CLUSTER HELP.\r\n");
        assertThat(kvd.call("CLUSTER", "KEYSLOT")).isEqualTo("-ERR wrong number of arguments for 'cluster|keyslot' command\r\n");
    }

    @Test
    void withoutClusterKeysAreServedWhateverTheirSlot() {
        CommandFixture kvd = new CommandFixture();
        assertThat(kvd.call("MSET", "foo", "1", "bar", "2")).isEqualTo("+OK\r\n");
    }
}
