package io.kvd.it;

import io.kvd.it.support.ServerLogsOnFailure;
import io.kvd.it.support.SharedKvd;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.protocol.ProtocolVersion;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/** Lettuce stores, reads, counts and deletes through kvd with its synchronous API. */
@ExtendWith(ServerLogsOnFailure.class)
class LettuceSmokeTest {
    @RegisterExtension
    static final SharedKvd kvd = new SharedKvd();

    /** Lettuce's default handshake starts with HELLO 3 and falls back to RESP2 when it is refused. */
    @Test
    void setGetIncrDelAfterTheDefaultHandshake() {
        assertSetGetIncrDel(ClientOptions.create(), "lettuce:default:");
    }

    /** With RESP2 configured, Lettuce sends no HELLO at all. */
    @Test
    void setGetIncrDelWithResp2Configured() {
        assertSetGetIncrDel(ClientOptions.builder().protocolVersion(ProtocolVersion.RESP2).build(), "lettuce:resp2:");
    }

    private static void assertSetGetIncrDel(ClientOptions options, String prefix) {
        RedisClient client = RedisClient.create(RedisURI.create("127.0.0.1", kvd.port()));
        client.setOptions(options);
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            RedisCommands<String, String> redis = connection.sync();
            assertThat(redis.set(prefix + "k", "v")).isEqualTo("OK");
            assertThat(redis.get(prefix + "k")).isEqualTo("v");
            assertThat(redis.incr(prefix + "n")).isEqualTo(1);
            assertThat(redis.incr(prefix + "n")).isEqualTo(2);
            assertThat(redis.del(prefix + "k", prefix + "n", prefix + "missing")).isEqualTo(2);
            assertThat(redis.get(prefix + "k")).isNull();
        } finally {
            client.shutdown();
        }
    }
}
