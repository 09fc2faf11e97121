package io.kvd.it;

import io.kvd.it.support.KvdCluster;
import io.kvd.it.support.RespConnection;
import io.kvd.it.support.ServerLogsOnFailure;
import io.kvd.it.support.Tools;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * redis-cli against three kvd nodes: without -c it prints the MOVED error, with -c it follows it
 * to the owner. Keys used: bar is slot 5061 (node 0), foo slot 12182 (node 2). As against
 * redis-server, an error is printed followed by an empty line.
 */
@ExtendWith(ServerLogsOnFailure.class)
class ClusterRedisCliTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    @RegisterExtension
    static final KvdCluster cluster = new KvdCluster();

    @Test
    void withoutClusterModeAKeyOfAnotherNodePrintsMoved() {
        assertThat(cli(0, "get", "foo")).isEqualTo("MOVED 12182 127.0.0.1:" + cluster.port(2) + "\n\n");
    }

    @Test
    void clusterModeFollowsMovedToSetAndGetKeysOfOtherNodes() {
        assertThat(cli(0, "-c", "set", "foo", "on-the-last-node")).isEqualTo("OK\n");
        assertThat(cli(1, "-c", "get", "foo")).isEqualTo("on-the-last-node\n");
        assertThat(cli(2, "get", "foo")).isEqualTo("on-the-last-node\n");
    }

    @Test
    void clusterModeServesKeysOfTheNodeItIsConnectedToWithoutRedirection() throws IOException {
        assertThat(cli(2, "-c", "set", "bar", "on-the-first-node")).isEqualTo("OK\n");
        try (RespConnection first = RespConnection.open(cluster.port(0))) {
            assertThat(first.call("GET", "bar")).isEqualTo("$17\r\non-the-first-node\r\n");
        }
    }

    @Test
    void clusterModeFollowsMovedForConsumerGroupSubcommands() {
        assertThat(cli(0, "xgroup", "create", "foo", "g", "$", "mkstream"))
                .isEqualTo("MOVED 12182 127.0.0.1:" + cluster.port(2) + "\n\n");
        assertThat(cli(0, "-c", "xgroup", "create", "foo", "g", "$", "mkstream")).isEqualTo("OK\n");
        assertThat(cli(1, "-c", "xgroup", "createconsumer", "foo", "g", "c1")).isEqualTo("1\n");
        assertThat(cli(0, "-c", "xinfo", "groups", "foo")).startsWith("name\ng\nconsumers\n1\n");
        assertThat(cli(2, "xinfo", "stream", "foo")).startsWith("length\n0\n");
    }

    @Test
    void hashTaggedKeysGoTogetherToTheirNode() {
        assertThat(cli(0, "-c", "mset", "{foo}a", "1", "{foo}b", "2")).isEqualTo("OK\n");
        assertThat(cli(0, "-c", "mget", "{foo}a", "{foo}b")).isEqualTo("1\n2\n");
    }

    @Test
    void keysOfDifferentSlotsPrintCrossslot() {
        assertThat(cli(0, "-c", "mget", "foo", "bar")).isEqualTo("CROSSSLOT Keys in request don't hash to the same slot\n\n");
    }

    @Test
    void clusterInfoSaysOk() {
        assertThat(cli(1, "cluster", "info")).startsWith("cluster_state:ok\r\ncluster_slots_assigned:16384\r\n");
    }

    /** redis-cli's cluster manager reads CLUSTER NODES and INFO of every node and agrees with the slot map. */
    @Test
    void clusterCheckFindsEverySlotCoveredAndEveryNodeAgreeing() {
        assertThat(cli(0, "--cluster", "check", "127.0.0.1:" + cluster.port(0)))
                .contains("[OK] All nodes agree about slots configuration.")
                .contains("[OK] All 16384 slots covered.")
                .doesNotContain("[ERR]");
    }

    private static String cli(int node, String... args) {
        String[] withPort = new String[args.length + 2];
        withPort[0] = "-p";
        withPort[1] = String.valueOf(cluster.port(node));
        System.arraycopy(args, 0, withPort, 2, args.length);
        Tools.Result result = Tools.run(TIMEOUT, null, "redis-cli", withPort);
        assertThat(result.exitCode()).as("%s", result).isZero();
        return result.stdout();
    }
}
