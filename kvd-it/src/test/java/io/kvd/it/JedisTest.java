package io.kvd.it;

import io.kvd.it.support.ServerLogsOnFailure;
import io.kvd.it.support.SharedKvd;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.JedisPooled;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Jedis, with its default handshake (CLIENT SETINFO on every new connection, whose error reply it
 * ignores), stores, reads, counts and deletes through kvd.
 */
@ExtendWith(ServerLogsOnFailure.class)
class JedisSmokeTest {
    @RegisterExtension
    static final SharedKvd kvd = new SharedKvd();

    @Test
    void setGetIncrDel() {
        try (JedisPooled jedis = new JedisPooled("127.0.0.1", kvd.port())) {
            assertThat(jedis.set("jedis:k", "v")).isEqualTo("OK");
            assertThat(jedis.get("jedis:k")).isEqualTo("v");
            assertThat(jedis.incr("jedis:n")).isEqualTo(1);
            assertThat(jedis.incr("jedis:n")).isEqualTo(2);
            assertThat(jedis.del("jedis:k", "jedis:n", "jedis:missing")).isEqualTo(2);
            assertThat(jedis.get("jedis:k")).isNull();
        }
    }
}
