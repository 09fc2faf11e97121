package io.kvd.it;

import io.kvd.server.KvdServer;
import io.kvd.server.config.ConfigBuilder;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.exceptions.JedisConnectionException;

import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * kvd inside the test JVM, as a project's JUnit 5 test runs it (docs/embedding.md shows this class's
 * setup): no process, no native binary; the server on a free port, clients pointed at it.
 */
class EmbeddedKvdTest {
    @TempDir
    static Path dir;

    static KvdServer kvd;
    static JedisPooled jedis;

    @BeforeAll
    static void startKvd() throws InterruptedException {
        kvd = KvdServer.start(ConfigBuilder.forTests().dir(dir).build());
        jedis = new JedisPooled("127.0.0.1", kvd.port());
    }

    @AfterAll
    static void stopKvd() {
        jedis.close();
        kvd.close();
    }

    @Test
    void servesJedisOnTheFreePortItPicked() {
        assertThat(kvd.port()).isPositive();
        jedis.set("embedded:k", "v");
        assertThat(jedis.get("embedded:k")).isEqualTo("v");
    }

    @Test
    void servesLettuceToo() {
        RedisClient client = RedisClient.create(RedisURI.create("127.0.0.1", kvd.port()));
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            assertThat(connection.sync().incrby("embedded:counter", 5)).isEqualTo(5);
        } finally {
            client.shutdown();
        }
    }

    @Test
    void configBuilderOptionsApply() throws InterruptedException {
        try (KvdServer fast = KvdServer.start(ConfigBuilder.forTests().dir(dir).option("hz", "100").build());
             Jedis client = new Jedis("127.0.0.1", fast.port())) {
            assertThat(client.configGet("hz")).isEqualTo(Map.of("hz", "100"));
        }
    }

    @Test
    void serversInOneJvmHaveTheirOwnKeyspaces() throws InterruptedException {
        try (KvdServer other = KvdServer.start(ConfigBuilder.forTests().dir(dir).build());
             JedisPooled client = new JedisPooled("127.0.0.1", other.port())) {
            jedis.set("embedded:mine", "v");
            assertThat(client.exists("embedded:mine")).isFalse();
        }
    }

    @Test
    void closeStopsServing() throws InterruptedException {
        KvdServer closed = KvdServer.start(ConfigBuilder.forTests().dir(dir).build());
        int port = closed.port();
        closed.close();

        assertThat(closed.closed()).isDone();
        try (JedisPooled client = new JedisPooled("127.0.0.1", port)) {
            assertThatThrownBy(client::ping).isInstanceOf(JedisConnectionException.class);
        }
    }
}
