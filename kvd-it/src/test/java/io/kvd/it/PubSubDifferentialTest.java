package io.kvd.it;

import io.kvd.it.support.Poll;
import io.kvd.it.support.RespConnection;
import io.kvd.it.support.ServerLogsOnFailure;
import io.kvd.it.support.ServerPair;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.kvd.it.support.Transcript.utf8;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Pub/sub over several connections: each scenario runs against redis-server and kvd, fresh ones
 * per test, and every reply every connection read must be the same bytes on both.
 */
@ExtendWith(ServerLogsOnFailure.class)
class PubSubDifferentialTest {
    private static final Duration DEADLINE = Duration.ofSeconds(30);

    private ServerPair servers;

    @BeforeEach
    void startBoth() {
        servers = ServerPair.start();
    }

    @AfterEach
    void stopBoth() {
        servers.close();
    }

    @Test
    void confirmationsCountAndMessagesArriveInPublishingOrder() throws IOException {
        servers.assertSameTranscripts((port, t) -> {
            try (RespConnection first = RespConnection.open(port);
                 RespConnection second = RespConnection.open(port);
                 RespConnection publisher = RespConnection.open(port)) {
                t.callFrames("first", first, 3, "SUBSCRIBE", "a", "b", "a");
                t.callFrames("second", second, 1, "SUBSCRIBE", "b");
                for (int i = 0; i < 20; i++) {
                    t.call("publisher", publisher, "PUBLISH", i % 3 == 0 ? "a" : "b", "message " + i);
                }
                for (int i = 0; i < 20; i++) {
                    t.read("first", first);
                }
                for (int i = 0; i < 20; i++) {
                    if (i % 3 != 0) {
                        t.read("second", second);
                    }
                }
                t.callFrames("first", first, 1, "UNSUBSCRIBE", "a");
                t.call("publisher", publisher, "PUBLISH", "a", "nobody");
                t.callFrames("first", first, 1, "UNSUBSCRIBE");
                t.callFrames("first", first, 1, "UNSUBSCRIBE");
            }
        });
    }

    @Test
    void patternAndShardSubscribersGetTheirFrames() throws IOException {
        servers.assertSameTranscripts((port, t) -> {
            try (RespConnection patterns = RespConnection.open(port);
                 RespConnection shard = RespConnection.open(port);
                 RespConnection publisher = RespConnection.open(port)) {
                t.callFrames("patterns", patterns, 3, "PSUBSCRIBE", "news.*", "h?llo", "[xy]z");
                t.callFrames("patterns", patterns, 1, "SUBSCRIBE", "hello");
                t.callFrames("shard", shard, 2, "SSUBSCRIBE", "s1", "hello");
                t.call("publisher", publisher, "PUBLISH", "news.tech", "1");
                t.call("publisher", publisher, "PUBLISH", "hello", "2");
                t.call("publisher", publisher, "PUBLISH", "yz", "3");
                t.call("publisher", publisher, "PUBLISH", "news", "none");
                t.call("publisher", publisher, "SPUBLISH", "hello", "4");
                for (int i = 0; i < 3; i++) {
                    t.read("patterns", patterns);
                }
                t.read("patterns", patterns);
                t.read("shard", shard);
                t.callFrames("patterns", patterns, 3, "PUNSUBSCRIBE");
                t.callFrames("shard", shard, 1, "SUNSUBSCRIBE", "s1");
            }
        });
    }

    @Test
    void aSubscribedConnectionIsRefusedOtherCommandsWithRedisText() throws IOException {
        servers.assertSameTranscripts((port, t) -> {
            try (RespConnection c = RespConnection.open(port)) {
                t.callFrames("c", c, 1, "PSUBSCRIBE", "p*");
                t.call("c", c, "GET", "k");
                t.call("c", c, "CLIENT", "LIST");
                t.call("c", c, "PUBSUB", "NUMPAT");
                t.call("c", c, "MULTI");
                t.call("c", c, "PING");
                t.call("c", c, "PING", "hi");
                t.call("c", c, "PING", "a", "b");
                t.callFrames("c", c, 1, "PUNSUBSCRIBE", "p*");
                t.call("c", c, "PING");
                t.call("c", c, "QUIT");
            }
        });
    }

    @Test
    void pubsubIntrospectionReplies() throws IOException {
        servers.assertSameTranscripts((port, t) -> {
            try (RespConnection a = RespConnection.open(port);
                 RespConnection b = RespConnection.open(port);
                 RespConnection asker = RespConnection.open(port)) {
                t.callFrames("a", a, 2, "SUBSCRIBE", "news.a", "sports");
                t.callFrames("a", a, 2, "PSUBSCRIBE", "n*", "m*");
                t.callFrames("b", b, 1, "PSUBSCRIBE", "n*");
                t.callFrames("b", b, 1, "SSUBSCRIBE", "shard");
                t.call("asker", asker, "PUBSUB", "CHANNELS", "news*");
                t.call("asker", asker, "PUBSUB", "NUMSUB", "news.a", "sports", "none");
                t.call("asker", asker, "PUBSUB", "NUMSUB");
                t.call("asker", asker, "PUBSUB", "NUMPAT");
                t.call("asker", asker, "PUBSUB", "SHARDCHANNELS");
                t.call("asker", asker, "PUBSUB", "SHARDNUMSUB", "shard", "x");
                t.call("asker", asker, "PUBSUB", "CHANNELS", "a", "b");
                t.call("asker", asker, "PUBSUB", "HELP");
                t.call("asker", asker, "PUBSUB", "NOPE");
                t.call("asker", asker, "CONFIG", "GET", "client-output-buffer-limit");
            }
        });
    }

    @Test
    void aClosedConnectionLeavesNoSubscriptionBehind() throws IOException {
        servers.assertSameTranscripts((port, t) -> {
            try (RespConnection asker = RespConnection.open(port)) {
                try (RespConnection leaving = RespConnection.open(port)) {
                    t.callFrames("leaving", leaving, 1, "SUBSCRIBE", "gone");
                    t.callFrames("leaving", leaving, 1, "PSUBSCRIBE", "go*");
                    t.callFrames("leaving", leaving, 1, "SSUBSCRIBE", "gone");
                    t.call("asker", asker, "PUBLISH", "gone", "x");
                }
                // The server learns of the close when it reads the end of the stream.
                Poll.until(DEADLINE, "the closed subscriber to leave", () -> is(asker, ":0\r\n", "PUBSUB", "NUMPAT"));
                t.call("asker", asker, "PUBSUB", "NUMSUB", "gone");
                t.call("asker", asker, "PUBSUB", "SHARDNUMSUB", "gone");
                t.call("asker", asker, "PUBLISH", "gone", "x");
                t.call("asker", asker, "SPUBLISH", "gone", "x");
            }
        });
    }

    @Test
    void resetReturnsAFreshConnection() throws IOException {
        servers.assertSameTranscripts((port, t) -> {
            try (RespConnection c = RespConnection.open(port);
                 RespConnection publisher = RespConnection.open(port)) {
                t.call("c", c, "SELECT", "3");
                t.call("c", c, "CLIENT", "SETNAME", "named");
                t.call("c", c, "WATCH", "k");
                t.call("c", c, "MULTI");
                t.call("c", c, "SET", "k", "v");
                t.call("c", c, "RESET");
                t.call("c", c, "EXEC");
                t.call("c", c, "CLIENT", "GETNAME");
                t.call("c", c, "DBSIZE");
                t.callFrames("c", c, 2, "SUBSCRIBE", "a", "b");
                t.callFrames("c", c, 1, "PSUBSCRIBE", "a*");
                t.call("c", c, "RESET");
                t.call("publisher", publisher, "PUBLISH", "a", "x");
                t.call("c", c, "GET", "k");
                t.call("c", c, "RESET", "x");
            }
        });
    }

    @Test
    void subscribeInsideMultiRunsAtExec() throws IOException {
        servers.assertSameTranscripts((port, t) -> {
            try (RespConnection c = RespConnection.open(port);
                 RespConnection publisher = RespConnection.open(port)) {
                t.call("c", c, "MULTI");
                t.call("c", c, "SSUBSCRIBE", "s");
                t.call("c", c, "SUBSCRIBE", "a");
                // EXEC's array of two elements: SSUBSCRIBE's refusal and SUBSCRIBE's confirmation frame.
                t.call("c", c, "EXEC");
                t.call("publisher", publisher, "PUBLISH", "a", "after exec");
                t.read("c", c);
                t.call("c", c, "PING");
            }
        });
    }

    /**
     * A subscriber that stops reading is closed once its output passes the pubsub class's hard
     * limit, while another subscriber of the same channel gets every message, the last one
     * included. The publisher keeps publishing until the server has dropped the stalled subscriber.
     */
    @Test
    void aSubscriberThatStopsReadingIsClosedByThePubsubLimitWhileAnotherStillReceives() throws Exception {
        for (int port : new int[]{servers.redis().port(), servers.kvd().port()}) {
            String server = port == servers.redis().port() ? "redis-server" : "kvd";
            try (RespConnection publisher = RespConnection.open(port);
                 RespConnection stalled = RespConnection.open(port);
                 RespConnection reading = RespConnection.open(port)) {
                assertThat(publisher.call("CONFIG", "SET", "client-output-buffer-limit", "pubsub 256kb 0 0"))
                        .as(server).isEqualTo("+OK\r\n");
                stalled.call("SUBSCRIBE", "feed");
                reading.call("SUBSCRIBE", "feed");
                CompletableFuture<Integer> received = CompletableFuture.supplyAsync(() -> readUntilLast(reading));
                String payload = "x".repeat(4096);
                Poll.until(DEADLINE, server + " to close the stalled subscriber", () -> {
                    publishBatch(publisher, payload, 64);
                    return is(publisher, "*2\r\n$4\r\nfeed\r\n:1\r\n", "PUBSUB", "NUMSUB", "feed");
                });
                publisher.call("PUBLISH", "feed", "last");
                assertThat(received.get(DEADLINE.toSeconds(), TimeUnit.SECONDS)).as(server).isPositive();
                assertThat(publisher.call("CLIENT", "LIST", "TYPE", "pubsub")).as(server).containsOnlyOnce("id=");
            }
        }
    }

    /** PUBLISHes {@code count} messages in one pipeline and reads their replies. */
    private static void publishBatch(RespConnection publisher, String payload, int count) {
        try {
            for (int i = 0; i < count; i++) {
                publisher.send(utf8("PUBLISH", "feed", payload));
            }
            for (int i = 0; i < count; i++) {
                publisher.readReply();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Reads message frames until the one whose message is {@code last}; returns how many came before it. */
    private static int readUntilLast(RespConnection subscriber) {
        byte[] last = "$4\r\nlast\r\n".getBytes(StandardCharsets.UTF_8);
        try {
            for (int count = 0; ; count++) {
                String frame = new String(subscriber.readReply(), StandardCharsets.ISO_8859_1);
                if (frame.endsWith(new String(last, StandardCharsets.ISO_8859_1))) {
                    return count;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** True if {@code command} answers {@code expected}, else null (for {@link Poll#until}). */
    private static Boolean is(RespConnection connection, String expected, String... command) {
        try {
            return connection.call(command).equals(expected) ? true : null;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
