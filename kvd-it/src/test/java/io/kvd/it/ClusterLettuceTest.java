package io.kvd.it;

import io.kvd.it.support.KvdCluster;
import io.kvd.it.support.ServerLogsOnFailure;
import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.sync.RedisAdvancedClusterCommands;
import io.lettuce.core.cluster.models.partitions.Partitions;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Lettuce 7.7's RedisClusterClient against three kvd nodes: it discovers the slot map from one
 * node, routes keys to their owners, runs multi-key commands on hash-tagged keys and follows MOVED
 * when its own view of the slots is wrong.
 */
@ExtendWith(ServerLogsOnFailure.class)
class ClusterLettuceTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final int KEYS = 10_000;

    @RegisterExtension
    static final KvdCluster cluster = new KvdCluster();

    private RedisClusterClient client;
    private StatefulRedisClusterConnection<String, String> connection;

    @BeforeEach
    void connectThroughTheFirstNode() {
        client = RedisClusterClient.create(RedisURI.builder().withHost("127.0.0.1").withPort(cluster.port(0))
                .withTimeout(TIMEOUT).build());
        connection = client.connect();
    }

    @AfterEach
    void disconnect() {
        connection.close();
        client.shutdown();
    }

    @Test
    void discoversEveryNodeAndItsSlotsFromOneNode() {
        Partitions partitions = client.getPartitions();
        assertThat(partitions.size()).isEqualTo(3);
        for (int i = 0; i < cluster.size(); i++) {
            RedisClusterNode node = partitions.getPartition("127.0.0.1", cluster.port(i));
            assertThat(node).as("node %d", i).isNotNull();
            assertThat(node.is(RedisClusterNode.NodeFlag.UPSTREAM)).isTrue();
            String[] range = KvdCluster.RANGES[i].split("-");
            assertThat(node.getSlots()).as("slots of node %d", i).hasSize(Integer.parseInt(range[1]) - Integer.parseInt(range[0]) + 1)
                    .startsWith(Integer.parseInt(range[0])).endsWith(Integer.parseInt(range[1]));
        }
    }

    @Test
    void setsAndGetsTenThousandKeysSpreadOverEveryNode() {
        RedisAdvancedClusterCommands<String, String> redis = connection.sync();
        for (int i = 0; i < KEYS; i++) {
            assertThat(redis.set("lettuce:" + i, "value-" + i)).isEqualTo("OK");
        }
        for (int i = 0; i < KEYS; i++) {
            assertThat(redis.get("lettuce:" + i)).isEqualTo("value-" + i);
        }
        for (int i = 0; i < cluster.size(); i++) {
            long keys = connection.getConnection("127.0.0.1", cluster.port(i)).sync().dbsize();
            assertThat(keys).as("keys on node %d", i).isGreaterThan(KEYS / 5);
        }
    }

    @Test
    void multiKeyCommandsOnOneHashTagRunOnItsNode() {
        RedisAdvancedClusterCommands<String, String> redis = connection.sync();
        Map<String, String> values = new LinkedHashMap<>();
        IntStream.range(0, 10).forEach(i -> values.put("{user:42}:field" + i, "v" + i));
        assertThat(redis.mset(values)).isEqualTo("OK");

        List<KeyValue<String, String>> read = redis.mget(values.keySet().toArray(String[]::new));
        List<String> readValues = new ArrayList<>();
        read.forEach(kv -> readValues.add(kv.getValue()));
        assertThat(readValues).containsExactlyElementsOf(values.values());
        assertThat(redis.del(values.keySet().toArray(String[]::new))).isEqualTo(10);
    }

    /** Lettuce splits a multi-key command over slots itself; every part lands on its owner. */
    @Test
    void multiKeyCommandsAcrossSlotsAreSplitByTheClient() {
        RedisAdvancedClusterCommands<String, String> redis = connection.sync();
        Map<String, String> values = new LinkedHashMap<>();
        IntStream.range(0, 30).forEach(i -> values.put("spread:" + i, "v" + i));
        assertThat(redis.mset(values)).isEqualTo("OK");
        assertThat(redis.exists(values.keySet().toArray(String[]::new))).isEqualTo(30);
    }

    /** Every key goes to the first node, which holds only its own third: the rest is found through MOVED. */
    @Test
    void followsMovedWhenItsSlotMapSendsEveryKeyToTheFirstNode() {
        RedisAdvancedClusterCommands<String, String> redis = connection.sync();
        List<String> keys = IntStream.range(0, 100).mapToObj(i -> "moved:" + i).toList();
        keys.forEach(key -> redis.set(key, key));

        Partitions partitions = client.getPartitions();
        RedisClusterNode first = partitions.getPartition("127.0.0.1", cluster.port(0));
        List<Integer> everySlot = IntStream.range(0, 16384).boxed().toList();
        for (RedisClusterNode node : partitions) {
            node.setSlots(node == first ? everySlot : List.of());
        }
        partitions.updateCache();
        assertThat(partitions.getPartitionBySlot(12182)).as("the owner of foo's slot, to Lettuce").isSameAs(first);

        for (String key : keys) {
            assertThat(redis.get(key)).isEqualTo(key);
        }
    }

    @Test
    void aNodeConnectionAnswersMovedForAKeyItDoesNotOwn() {
        StatefulRedisConnection<String, String> firstNode = connection.getConnection("127.0.0.1", cluster.port(0));
        String keyOfTheLastNode = "foo";
        assertThat(connection.sync().clusterKeyslot(keyOfTheLastNode)).isEqualTo(12182);
        assertThat(catchThrowable(() -> firstNode.sync().get(keyOfTheLastNode)))
                .hasMessage("MOVED 12182 127.0.0.1:" + cluster.port(2));
    }
}
