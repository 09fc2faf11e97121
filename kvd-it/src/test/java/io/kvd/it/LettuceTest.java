package io.kvd.it;

import io.kvd.it.support.Poll;
import io.kvd.it.support.ServerLogsOnFailure;
import io.kvd.it.support.SharedKvd;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.KeyValue;
import io.lettuce.core.LettuceFutures;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanIterator;
import io.lettuce.core.SetArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.api.reactive.RedisReactiveCommands;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.protocol.ProtocolVersion;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Lettuce 7.7 through kvd: its default handshake (HELLO 3, so RESP3 from then on), the
 * synchronous, asynchronous (pipelined) and reactive APIs, client names, SCAN iteration, expiry.
 */
@ExtendWith(ServerLogsOnFailure.class)
class LettuceTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final int PIPELINED = 1_000;
    private static final int SCANNED_KEYS = 300;

    @RegisterExtension
    static final SharedKvd kvd = new SharedKvd();

    private static RedisClient client;

    @BeforeAll
    static void createClient() {
        client = RedisClient.create(uri().build());
    }

    @AfterAll
    static void shutdownClient() {
        client.shutdown();
    }

    /** Lettuce's default handshake starts with HELLO 3, which kvd takes as Redis does. */
    @Test
    void defaultHandshakeSpeaksResp3() {
        withConnection(ClientOptions.create(), redis -> {
            assertThat(redis.clientInfo()).contains(" resp=3 ");
            assertThat(redis.ping()).isEqualTo("PONG");
        });
    }

    @Test
    void handshakeAnnouncesTheLibraryWithClientSetinfo() {
        withConnection(ClientOptions.create(), redis ->
                assertThat(redis.clientInfo()).contains(" lib-name=Lettuce ").containsPattern(" lib-ver=\\S+"));
    }

    @Test
    void syncSetGetIncrDelAfterTheDefaultHandshake() {
        withConnection(ClientOptions.create(), redis -> assertSetGetIncrDel(redis, "lettuce:default:"));
    }

    /** With RESP2 configured, Lettuce sends no HELLO at all. */
    @Test
    void syncSetGetIncrDelWithResp2Configured() {
        withConnection(ClientOptions.builder().protocolVersion(ProtocolVersion.RESP2).build(),
                redis -> assertSetGetIncrDel(redis, "lettuce:resp2:"));
    }

    @Test
    void asyncCommandsPipelinedInOneFlushAllComplete() {
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            RedisAsyncCommands<String, String> redis = connection.async();
            connection.setAutoFlushCommands(false);
            List<RedisFuture<String>> sets = new ArrayList<>();
            for (int i = 0; i < PIPELINED; i++) {
                sets.add(redis.set("lettuce:async:" + i, "value:" + i));
            }
            connection.flushCommands();
            assertThat(LettuceFutures.awaitAll(TIMEOUT, sets.toArray(new RedisFuture[0]))).isTrue();
            assertThat(sets).allSatisfy(set -> assertThat(set.toCompletableFuture().getNow(null)).isEqualTo("OK"));

            List<RedisFuture<String>> gets = new ArrayList<>();
            for (int i = 0; i < PIPELINED; i++) {
                gets.add(redis.get("lettuce:async:" + i));
            }
            connection.flushCommands();
            assertThat(LettuceFutures.awaitAll(TIMEOUT, gets.toArray(new RedisFuture[0]))).isTrue();
            for (int i = 0; i < PIPELINED; i++) {
                assertThat(gets.get(i).toCompletableFuture().getNow(null)).isEqualTo("value:" + i);
            }
        }
    }

    @Test
    void reactiveCommandsChainAndStream() {
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            RedisReactiveCommands<String, String> redis = connection.reactive();

            String value = redis.set("lettuce:reactive:a", "1")
                    .then(redis.incrby("lettuce:reactive:a", 41))
                    .then(redis.get("lettuce:reactive:a"))
                    .block(TIMEOUT);
            assertThat(value).isEqualTo("42");

            List<KeyValue<String, String>> values = redis.mget("lettuce:reactive:a", "lettuce:reactive:missing")
                    .collectList().block(TIMEOUT);
            assertThat(values).containsExactly(KeyValue.just("lettuce:reactive:a", "42"),
                    KeyValue.empty("lettuce:reactive:missing"));
        }
    }

    @Test
    void clientNameSetThroughTheApiIsReadBack() {
        withConnection(ClientOptions.create(), redis -> {
            assertThat(redis.clientGetname()).isNull();
            assertThat(redis.clientSetname("lettuce-api")).isEqualTo("OK");
            assertThat(redis.clientGetname()).isEqualTo("lettuce-api");
            assertThat(redis.clientList()).contains(" name=lettuce-api ");
        });
    }

    /** The name in the URI goes into the handshake: HELLO 3 ... SETNAME, then CLIENT SETNAME after the fallback. */
    @Test
    void clientNameFromTheUriIsSetByTheHandshake() {
        RedisClient named = RedisClient.create(uri().withClientName("lettuce-uri").build());
        try (StatefulRedisConnection<String, String> connection = named.connect()) {
            assertThat(connection.sync().clientGetname()).isEqualTo("lettuce-uri");
            assertThat(connection.sync().clientInfo()).contains(" name=lettuce-uri ");
        } finally {
            named.shutdown();
        }
    }

    @Test
    void scanIteratorVisitsEveryMatchingKeyOnce() {
        withConnection(ClientOptions.create(), redis -> {
            Map<String, String> keys = new HashMap<>();
            for (int i = 0; i < SCANNED_KEYS; i++) {
                keys.put("lettuce:scan:" + i, "v");
                keys.put("lettuce:other:" + i, "v");
            }
            redis.mset(keys);

            List<String> scanned = new ArrayList<>();
            ScanIterator.scan(redis, ScanArgs.Builder.matches("lettuce:scan:*").limit(20)).forEachRemaining(scanned::add);

            assertThat(scanned).hasSize(SCANNED_KEYS).doesNotHaveDuplicates().allMatch(k -> k.startsWith("lettuce:scan:"));
        });
    }

    @Test
    void expireTtlAndPersist() {
        withConnection(ClientOptions.create(), redis -> {
            redis.set("lettuce:expire", "v");
            assertThat(redis.ttl("lettuce:expire")).isEqualTo(-1);
            assertThat(redis.expire("lettuce:expire", 100)).isTrue();
            assertThat(redis.ttl("lettuce:expire")).isBetween(1L, 100L);
            assertThat(redis.pttl("lettuce:expire")).isBetween(1L, 100_000L);
            assertThat(redis.persist("lettuce:expire")).isTrue();
            assertThat(redis.ttl("lettuce:expire")).isEqualTo(-1);
            assertThat(redis.expire("lettuce:missing", 100)).isFalse();
            assertThat(redis.ttl("lettuce:missing")).isEqualTo(-2);
        });
    }

    @Test
    void expireatIsReadBackByExpiretime() {
        withConnection(ClientOptions.create(), redis -> {
            redis.set("lettuce:expireat", "v", SetArgs.Builder.exAt(4_102_444_800L));
            assertThat(redis.expiretime("lettuce:expireat")).isEqualTo(4_102_444_800L);
        });
    }

    @Test
    void aKeyWithAShortTtlIsGoneOnceItExpires() {
        withConnection(ClientOptions.create(), redis -> {
            assertThat(redis.psetex("lettuce:short", 50, "v")).isEqualTo("OK");
            Poll.until(TIMEOUT, "lettuce:short to expire", () -> redis.get("lettuce:short") == null ? true : null);
            assertThat(redis.exists("lettuce:short")).isZero();
        });
    }

    private static RedisURI.Builder uri() {
        return RedisURI.Builder.redis("127.0.0.1", kvd.port()).withTimeout(TIMEOUT);
    }

    private static void withConnection(ClientOptions options, Consumer<RedisCommands<String, String>> test) {
        client.setOptions(options);
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            test.accept(connection.sync());
        }
    }

    private static void assertSetGetIncrDel(RedisCommands<String, String> redis, String prefix) {
        assertThat(redis.set(prefix + "k", "v")).isEqualTo("OK");
        assertThat(redis.get(prefix + "k")).isEqualTo("v");
        assertThat(redis.incr(prefix + "n")).isEqualTo(1);
        assertThat(redis.incr(prefix + "n")).isEqualTo(2);
        assertThat(redis.del(prefix + "k", prefix + "n", prefix + "missing")).isEqualTo(2);
        assertThat(redis.get(prefix + "k")).isNull();
    }
}
