package io.kvd.it;

import io.kvd.it.support.ServerLogsOnFailure;
import io.kvd.it.support.SharedKvd;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.JedisPubSub;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.Response;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Jedis 6 through kvd, with its default handshake (CLIENT SETINFO on every new connection):
 * JedisPooled's commands, SCAN, pipelines, and pub/sub.
 */
@ExtendWith(ServerLogsOnFailure.class)
class JedisTest {
    private static final int PIPELINED = 1_000;
    private static final int SCANNED_KEYS = 300;

    @RegisterExtension
    static final SharedKvd kvd = new SharedKvd();

    private static JedisPooled jedis;

    @BeforeAll
    static void createPool() {
        jedis = new JedisPooled("127.0.0.1", kvd.port());
    }

    @AfterAll
    static void closePool() {
        jedis.close();
    }

    @Test
    void setGetIncrDel() {
        assertThat(jedis.set("jedis:k", "v")).isEqualTo("OK");
        assertThat(jedis.get("jedis:k")).isEqualTo("v");
        assertThat(jedis.incr("jedis:n")).isEqualTo(1);
        assertThat(jedis.incr("jedis:n")).isEqualTo(2);
        assertThat(jedis.del("jedis:k", "jedis:n", "jedis:missing")).isEqualTo(2);
        assertThat(jedis.get("jedis:k")).isNull();
    }

    @Test
    void msetThenMget() {
        assertThat(jedis.mset("jedis:m:a", "1", "jedis:m:b", "2")).isEqualTo("OK");
        assertThat(jedis.mget("jedis:m:a", "jedis:m:missing", "jedis:m:b")).containsExactly("1", null, "2");
    }

    @Test
    void expireTtlAndPersist() {
        jedis.set("jedis:expire", "v");
        assertThat(jedis.expire("jedis:expire", 100)).isEqualTo(1);
        assertThat(jedis.ttl("jedis:expire")).isBetween(1L, 100L);
        assertThat(jedis.persist("jedis:expire")).isEqualTo(1);
        assertThat(jedis.ttl("jedis:expire")).isEqualTo(-1);
        assertThat(jedis.expire("jedis:missing", 100)).isZero();
    }

    @Test
    void scanWithMatchAndCountVisitsEveryMatchingKeyOnce() {
        for (int i = 0; i < SCANNED_KEYS; i++) {
            jedis.mset("jedis:scan:" + i, "v", "jedis:other:" + i, "v");
        }

        List<String> scanned = new ArrayList<>();
        ScanParams params = new ScanParams().match("jedis:scan:*").count(20);
        String cursor = ScanParams.SCAN_POINTER_START;
        do {
            ScanResult<String> page = jedis.scan(cursor, params);
            scanned.addAll(page.getResult());
            cursor = page.getCursor();
        } while (!cursor.equals(ScanParams.SCAN_POINTER_START));

        assertThat(scanned).hasSize(SCANNED_KEYS).doesNotHaveDuplicates().allMatch(k -> k.startsWith("jedis:scan:"));
    }

    @Test
    void pipelineOfSetsThenGetsAnswersEveryCommandInOrder() {
        List<Response<String>> gets = new ArrayList<>();
        try (Pipeline pipeline = jedis.pipelined()) {
            for (int i = 0; i < PIPELINED; i++) {
                pipeline.set("jedis:pipe:" + i, "value:" + i);
            }
            for (int i = 0; i < PIPELINED; i++) {
                gets.add(pipeline.get("jedis:pipe:" + i));
            }
            pipeline.sync();
        }
        for (int i = 0; i < PIPELINED; i++) {
            assertThat(gets.get(i).get()).isEqualTo("value:" + i);
        }
    }

    @Test
    void pipelineCarriesAnErrorReplyInItsPlace() {
        jedis.set("jedis:pipe:text", "abc");
        try (Pipeline pipeline = jedis.pipelined()) {
            Response<Long> incr = pipeline.incr("jedis:pipe:text");
            Response<String> get = pipeline.get("jedis:pipe:text");
            pipeline.sync();
            assertThat(get.get()).isEqualTo("abc");
            assertThatThrownBy(incr::get)
                    .hasMessage("ERR value is not an integer or out of range");
        }
    }

    /**
     * Jedis announces itself with CLIENT SETINFO lib-name and lib-ver on connections made from a
     * client config (those of JedisPooled too); CLIENT LIST shows both.
     */
    @Test
    void clientSetinfoOfTheHandshakeShowsInClientList() {
        try (Jedis single = new Jedis(new HostAndPort("127.0.0.1", kvd.port()), DefaultJedisClientConfig.builder().build())) {
            String id = String.valueOf(single.clientId());
            String ownLine = single.clientList().lines()
                    .filter(line -> line.startsWith("id=" + id + " ")).findFirst().orElseThrow();
            assertThat(ownLine).containsPattern(" lib-name=jedis lib-ver=\\d+\\.\\d+\\.\\d+");
        }
    }

    /** JedisPubSub on its own connection: channel and pattern messages in order, then unsubscribing ends it. */
    @Test
    void pubSubDeliversChannelAndPatternMessagesInOrder() throws Exception {
        List<String> received = new CopyOnWriteArrayList<>();
        CountDownLatch channelSubscribed = new CountDownLatch(1);
        CountDownLatch patternSubscribed = new CountDownLatch(1);
        JedisPubSub listener = new JedisPubSub() {
            @Override
            public void onSubscribe(String channel, int count) {
                channelSubscribed.countDown();
            }

            @Override
            public void onPSubscribe(String pattern, int count) {
                patternSubscribed.countDown();
            }

            @Override
            public void onMessage(String channel, String message) {
                received.add(channel + "=" + message);
            }

            @Override
            public void onPMessage(String pattern, String channel, String message) {
                received.add(pattern + ":" + channel + "=" + message);
                if (message.equals("last")) {
                    punsubscribe();
                    unsubscribe();
                }
            }
        };
        try (Jedis subscriber = new Jedis("127.0.0.1", kvd.port())) {
            CompletableFuture<Void> loop = CompletableFuture.runAsync(() -> subscriber.subscribe(listener, "jedis:news"));
            Duration deadline = Duration.ofSeconds(10);
            // SUBSCRIBE answered: the listener is running and may add a pattern.
            assertThat(channelSubscribed.await(deadline.toSeconds(), TimeUnit.SECONDS)).isTrue();
            listener.psubscribe("jedis:*");
            assertThat(patternSubscribed.await(deadline.toSeconds(), TimeUnit.SECONDS)).isTrue();
            assertThat(jedis.publish("jedis:news", "1")).isEqualTo(2);
            assertThat(jedis.publish("jedis:other", "last")).isEqualTo(1);
            loop.get(deadline.toSeconds(), TimeUnit.SECONDS);
        }
        assertThat(received).containsExactly("jedis:news=1", "jedis:*:jedis:news=1", "jedis:*:jedis:other=last");
        assertThat(jedis.sendCommand(Protocol.Command.PUBSUB, "NUMPAT")).isEqualTo(0L);
    }
}
