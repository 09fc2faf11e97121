package io.kvd.it;

import io.kvd.it.support.ServerLogsOnFailure;
import io.kvd.it.support.SharedKvd;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.TrackingArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.support.caching.CacheAccessor;
import io.lettuce.core.support.caching.CacheFrontend;
import io.lettuce.core.support.caching.ClientSideCaching;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Lettuce 7.7's client-side cache (ClientSideCaching over CLIENT TRACKING, RESP3 pushes) reading
 * through kvd while another connection writes: once a write was answered, and the caching
 * connection has made one round trip (the invalidation was sent before that reply), the cache
 * never serves the old value.
 */
@ExtendWith(ServerLogsOnFailure.class)
class LettuceClientSideCachingTest {
    private static final int WRITES = 200;

    @RegisterExtension
    static final SharedKvd kvd = new SharedKvd();

    private static RedisClient client;

    @BeforeAll
    static void createClient() {
        client = RedisClient.create(RedisURI.Builder.redis("127.0.0.1", kvd.port())
                .withTimeout(Duration.ofSeconds(30)).build());
    }

    @AfterAll
    static void shutdownClient() {
        client.shutdown();
    }

    @Test
    void theCacheServesReadsUntilAWriteInvalidatesThem() {
        Map<String, String> cache = new ConcurrentHashMap<>();
        try (StatefulRedisConnection<String, String> caching = client.connect();
             StatefulRedisConnection<String, String> writing = client.connect()) {
            CacheFrontend<String, String> frontend =
                    ClientSideCaching.enable(CacheAccessor.forMap(cache), caching, TrackingArgs.Builder.enabled());
            RedisCommands<String, String> writer = writing.sync();
            writer.set("csc:key", "0");
            assertThat(frontend.get("csc:key")).isEqualTo("0");
            assertThat(cache).containsEntry("csc:key", "0");
            assertThat(caching.sync().clientInfo()).contains(" flags=t ").contains(" redir=0 ");
            for (int i = 1; i <= WRITES; i++) {
                writer.set("csc:key", String.valueOf(i));
                caching.sync().ping();
                assertThat(cache).doesNotContainKey("csc:key");
                assertThat(frontend.get("csc:key")).isEqualTo(String.valueOf(i));
                assertThat(frontend.get("csc:key")).isEqualTo(String.valueOf(i));
            }
            // Not FLUSHALL: Lettuce's listener fails on its null invalidation, from redis-server alike.
            writer.del("csc:key");
            caching.sync().ping();
            assertThat(cache).isEmpty();
            assertThat(frontend.get("csc:key")).isNull();
            frontend.close();
        }
    }
}
