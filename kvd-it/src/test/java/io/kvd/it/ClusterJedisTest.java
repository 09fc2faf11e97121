package io.kvd.it;

import io.kvd.it.support.KvdCluster;
import io.kvd.it.support.ServerLogsOnFailure;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.ConnectionPool;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisCluster;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Jedis 6's JedisCluster against three kvd nodes: it reads the slot map (CLUSTER SLOTS) from one
 * seed node and sends each key to its owner.
 */
@ExtendWith(ServerLogsOnFailure.class)
class ClusterJedisTest {
    private static final int KEYS = 1_000;

    @RegisterExtension
    static final KvdCluster cluster = new KvdCluster();

    private static JedisCluster jedis;

    @BeforeAll
    static void connectThroughTheLastNode() {
        jedis = new JedisCluster(new HostAndPort("127.0.0.1", cluster.port(2)));
    }

    @AfterAll
    static void disconnect() {
        jedis.close();
    }

    @Test
    void discoversEveryNode() {
        Map<String, ConnectionPool> nodes = jedis.getClusterNodes();
        assertThat(nodes.keySet()).containsExactlyInAnyOrder("127.0.0.1:" + cluster.port(0),
                "127.0.0.1:" + cluster.port(1), "127.0.0.1:" + cluster.port(2));
    }

    @Test
    void setGetIncrExpireDelOfKeysOnEveryNode() {
        for (int i = 0; i < KEYS; i++) {
            assertThat(jedis.set("jedis:" + i, "v" + i)).isEqualTo("OK");
        }
        for (int i = 0; i < KEYS; i++) {
            assertThat(jedis.get("jedis:" + i)).isEqualTo("v" + i);
        }
        assertThat(jedis.incr("jedis:counter")).isEqualTo(1);
        assertThat(jedis.incrBy("jedis:counter", 41)).isEqualTo(42);
        assertThat(jedis.expire("jedis:counter", 100)).isEqualTo(1);
        assertThat(jedis.ttl("jedis:counter")).isBetween(1L, 100L);
        assertThat(jedis.del("jedis:counter")).isEqualTo(1);
        for (int i = 0; i < cluster.size(); i++) {
            try (Jedis node = new Jedis("127.0.0.1", cluster.port(i))) {
                assertThat(node.dbSize()).as("keys on node %d", i).isGreaterThan(KEYS / 5);
            }
        }
    }

    @Test
    void multiKeyCommandsOnOneHashTag() {
        assertThat(jedis.mset("{order:7}:id", "7", "{order:7}:total", "19.90")).isEqualTo("OK");
        assertThat(jedis.mget("{order:7}:id", "{order:7}:total")).containsExactly("7", "19.90");
        assertThat(jedis.rename("{order:7}:total", "{order:7}:sum")).isEqualTo("OK");
        assertThat(jedis.exists("{order:7}:id", "{order:7}:sum")).isEqualTo(2);
    }
}
