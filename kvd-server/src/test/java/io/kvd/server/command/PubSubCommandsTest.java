package io.kvd.server.command;

import io.kvd.server.client.Client;
import io.kvd.server.config.Config;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * SUBSCRIBE, PSUBSCRIBE, SSUBSCRIBE, their UNSUBSCRIBEs, PUBLISH, SPUBLISH, PUBSUB and RESET.
 * Replies checked against redis-server 7.0.15.
 */
class PubSubCommandsTest {
    private static final String NOT_ALLOWED = "only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT / RESET are allowed in this context";

    private final CommandFixture kvd = new CommandFixture();
    private final Client subscriber = kvd.newClient();
    private final Client other = kvd.newClient();

    private String by(Client who, String... argv) {
        return kvd.callAs(who, argv);
    }

    private static String frame(String kind, String name, long count) {
        return "*3\r\n$" + kind.length() + "\r\n" + kind + "\r\n" + bulk(name) + ":" + count + "\r\n";
    }

    private static String message(String channel, String message) {
        return "*3\r\n$7\r\nmessage\r\n" + bulk(channel) + bulk(message);
    }

    private static String pmessage(String pattern, String channel, String message) {
        return "*4\r\n$8\r\npmessage\r\n" + bulk(pattern) + bulk(channel) + bulk(message);
    }

    private static String bulk(String text) {
        return text == null ? "$-1\r\n" : "$" + text.length() + "\r\n" + text + "\r\n";
    }

    @Test
    void subscribeConfirmsEachChannelWithTheSubscriptionCountRepeatsIncluded() {
        assertThat(by(subscriber, "SUBSCRIBE", "a", "b", "a"))
                .isEqualTo(frame("subscribe", "a", 1) + frame("subscribe", "b", 2) + frame("subscribe", "a", 2));
    }

    @Test
    void unsubscribeWithoutArgumentsLeavesEveryChannelInSubscriptionOrder() {
        by(subscriber, "SUBSCRIBE", "b", "a", "c");
        assertThat(by(subscriber, "UNSUBSCRIBE"))
                .isEqualTo(frame("unsubscribe", "b", 2) + frame("unsubscribe", "a", 1) + frame("unsubscribe", "c", 0));
    }

    @Test
    void unsubscribingWithNothingSubscribedAnswersANullNameAndZero() {
        assertThat(kvd.call("UNSUBSCRIBE")).isEqualTo(frame("unsubscribe", null, 0));
        assertThat(kvd.call("PUNSUBSCRIBE")).isEqualTo(frame("punsubscribe", null, 0));
        assertThat(kvd.call("SUNSUBSCRIBE")).isEqualTo(frame("sunsubscribe", null, 0));
        assertThat(kvd.call("GET", "k")).isEqualTo("$-1\r\n");
    }

    @Test
    void unsubscribingFromAChannelNotSubscribedIsConfirmedWithTheCount() {
        by(subscriber, "SUBSCRIBE", "a");
        assertThat(by(subscriber, "UNSUBSCRIBE", "x", "a"))
                .isEqualTo(frame("unsubscribe", "x", 1) + frame("unsubscribe", "a", 0));
    }

    @Test
    void publishSendsAMessageFrameToEverySubscriberAndCountsThem() {
        Client second = kvd.newClient();
        by(subscriber, "SUBSCRIBE", "news");
        by(second, "SUBSCRIBE", "news");
        assertThat(by(other, "PUBLISH", "news", "hello")).isEqualTo(":2\r\n");
        assertThat(kvd.pendingOutput(subscriber)).isEqualTo(message("news", "hello"));
        assertThat(kvd.pendingOutput(second)).isEqualTo(message("news", "hello"));
        assertThat(by(other, "PUBLISH", "sports", "x")).isEqualTo(":0\r\n");
    }

    /** As Redis's CLIENT_PUSHING: confirmations and messages reach a client whose replies are off. */
    @Test
    void confirmationsAndMessagesIgnoreClientReplyOff() {
        assertThat(by(subscriber, "CLIENT", "REPLY", "OFF")).isEmpty();
        assertThat(by(subscriber, "SUBSCRIBE", "news")).isEqualTo(frame("subscribe", "news", 1));
        by(other, "PUBLISH", "news", "hello");
        assertThat(kvd.pendingOutput(subscriber)).isEqualTo(message("news", "hello"));
        assertThat(by(subscriber, "PING")).isEmpty();
    }

    @Test
    void aRespThreeSubscriberGetsPushes() {
        by(subscriber, "HELLO", "3");
        assertThat(by(subscriber, "SUBSCRIBE", "news")).isEqualTo(">" + frame("subscribe", "news", 1).substring(1));
        by(other, "PUBLISH", "news", "hello");
        assertThat(kvd.pendingOutput(subscriber)).isEqualTo(">" + message("news", "hello").substring(1));
        assertThat(by(subscriber, "GET", "missing")).isEqualTo("_\r\n");
    }

    @Test
    void messagesArriveInPublishingOrder() {
        by(subscriber, "SUBSCRIBE", "a", "b");
        by(other, "PUBLISH", "a", "1");
        by(other, "PUBLISH", "b", "2");
        by(other, "PUBLISH", "a", "3");
        assertThat(kvd.pendingOutput(subscriber)).isEqualTo(message("a", "1") + message("b", "2") + message("a", "3"));
    }

    @Test
    void patternSubscribersGetPmessageNamingThePatternMatchedAsKeysGlob() {
        assertThat(by(subscriber, "PSUBSCRIBE", "new?.*", "[a-c]x"))
                .isEqualTo(frame("psubscribe", "new?.*", 1) + frame("psubscribe", "[a-c]x", 2));
        assertThat(by(other, "PUBLISH", "news.tech", "m")).isEqualTo(":1\r\n");
        assertThat(by(other, "PUBLISH", "bx", "n")).isEqualTo(":1\r\n");
        assertThat(by(other, "PUBLISH", "news", "o")).isEqualTo(":0\r\n");
        assertThat(kvd.pendingOutput(subscriber))
                .isEqualTo(pmessage("new?.*", "news.tech", "m") + pmessage("[a-c]x", "bx", "n"));
    }

    @Test
    void aLargeMessageArrivesWholeAndTheNextOneAfterIt() {
        String large = "x".repeat(100_000);
        by(subscriber, "SUBSCRIBE", "a");
        by(other, "PUBLISH", "a", large);
        by(other, "PUBLISH", "a", "small");
        assertThat(kvd.pendingOutput(subscriber)).isEqualTo(message("a", large) + message("a", "small"));
    }

    @Test
    void aChannelAndAMatchingPatternEachDeliverAndCount() {
        by(subscriber, "SUBSCRIBE", "news");
        by(subscriber, "PSUBSCRIBE", "n*");
        assertThat(by(other, "PUBLISH", "news", "x")).isEqualTo(":2\r\n");
        assertThat(kvd.pendingOutput(subscriber)).isEqualTo(message("news", "x") + pmessage("n*", "news", "x"));
    }

    @Test
    void punsubscribeWithoutArgumentsLeavesEveryPatternAndKeepsTheChannelsInTheCount() {
        by(subscriber, "SUBSCRIBE", "c");
        by(subscriber, "PSUBSCRIBE", "a*", "b*");
        assertThat(by(subscriber, "PUNSUBSCRIBE"))
                .isEqualTo(frame("punsubscribe", "a*", 2) + frame("punsubscribe", "b*", 1));
    }

    @Test
    void shardChannelsAreCountedApartAndReachedOnlyBySpublish() {
        by(subscriber, "SUBSCRIBE", "c");
        assertThat(by(subscriber, "SSUBSCRIBE", "s1", "s2"))
                .isEqualTo(frame("ssubscribe", "s1", 1) + frame("ssubscribe", "s2", 2));
        assertThat(by(other, "PUBLISH", "s1", "x")).isEqualTo(":0\r\n");
        assertThat(by(other, "SPUBLISH", "s1", "y")).isEqualTo(":1\r\n");
        assertThat(by(other, "SPUBLISH", "c", "z")).isEqualTo(":0\r\n");
        assertThat(kvd.pendingOutput(subscriber)).isEqualTo("*3\r\n$8\r\nsmessage\r\n$2\r\ns1\r\n$1\r\ny\r\n");
        assertThat(by(subscriber, "SUNSUBSCRIBE"))
                .isEqualTo(frame("sunsubscribe", "s1", 1) + frame("sunsubscribe", "s2", 0));
    }

    @Test
    void aSubscribedClientMayOnlySubscribePingQuitOrReset() {
        by(subscriber, "SSUBSCRIBE", "s");
        assertThat(by(subscriber, "GET", "k")).isEqualTo("-ERR Can't execute 'get': " + NOT_ALLOWED + "\r\n");
        assertThat(by(subscriber, "CLIENT", "LIST")).isEqualTo("-ERR Can't execute 'client|list': " + NOT_ALLOWED + "\r\n");
        assertThat(by(subscriber, "CLIENT", "FOO")).isEqualTo("-ERR unknown subcommand 'FOO'. Try CLIENT HELP.\r\n");
        assertThat(by(subscriber, "PING")).isEqualTo("*2\r\n$4\r\npong\r\n$0\r\n\r\n");
        assertThat(by(subscriber, "PING", "hi")).isEqualTo("*2\r\n$4\r\npong\r\n$2\r\nhi\r\n");
        assertThat(by(subscriber, "PUBLISH", "s", "x")).isEqualTo("-ERR Can't execute 'publish': " + NOT_ALLOWED + "\r\n");
    }

    @Test
    void theLastUnsubscribeOfAnyKindEndsTheSubscribedContext() {
        by(subscriber, "SUBSCRIBE", "c");
        by(subscriber, "SSUBSCRIBE", "s");
        by(subscriber, "UNSUBSCRIBE");
        assertThat(by(subscriber, "GET", "k")).startsWith("-ERR Can't execute 'get'");
        by(subscriber, "SUNSUBSCRIBE", "s");
        assertThat(by(subscriber, "GET", "k")).isEqualTo("$-1\r\n");
        assertThat(by(subscriber, "PING")).isEqualTo("+PONG\r\n");
    }

    @Test
    void pubsubIntrospection() {
        Client second = kvd.newClient();
        by(subscriber, "SUBSCRIBE", "news.a", "sports");
        by(second, "SUBSCRIBE", "news.a");
        by(subscriber, "PSUBSCRIBE", "n*", "m*");
        by(second, "PSUBSCRIBE", "n*");
        by(second, "SSUBSCRIBE", "shard");
        assertThat(kvd.call("PUBSUB", "CHANNELS", "news*")).isEqualTo("*1\r\n$6\r\nnews.a\r\n");
        assertThat(kvd.call("PUBSUB", "NUMSUB", "news.a", "sports", "none"))
                .isEqualTo("*6\r\n$6\r\nnews.a\r\n:2\r\n$6\r\nsports\r\n:1\r\n$4\r\nnone\r\n:0\r\n");
        assertThat(kvd.call("PUBSUB", "NUMSUB")).isEqualTo("*0\r\n");
        assertThat(kvd.call("PUBSUB", "NUMPAT")).isEqualTo(":2\r\n");
        assertThat(kvd.call("PUBSUB", "SHARDCHANNELS")).isEqualTo("*1\r\n$5\r\nshard\r\n");
        assertThat(kvd.call("PUBSUB", "SHARDNUMSUB", "shard")).isEqualTo("*2\r\n$5\r\nshard\r\n:1\r\n");
    }

    @Test
    void pubsubRefusesWrongArgumentsWithRedisTexts() {
        assertThat(kvd.call("PUBSUB", "CHANNELS", "a", "b"))
                .isEqualTo("-ERR unknown subcommand or wrong number of arguments for 'CHANNELS'. Try PUBSUB HELP.\r\n");
        assertThat(kvd.call("PUBSUB", "NUMPAT", "x")).isEqualTo("-ERR wrong number of arguments for 'pubsub|numpat' command\r\n");
        assertThat(kvd.call("PUBSUB", "FOO")).isEqualTo("-ERR unknown subcommand 'FOO'. Try PUBSUB HELP.\r\n");
        assertThat(kvd.call("SUBSCRIBE")).isEqualTo("-ERR wrong number of arguments for 'subscribe' command\r\n");
        assertThat(kvd.call("PUBLISH", "a")).isEqualTo("-ERR wrong number of arguments for 'publish' command\r\n");
    }

    @Test
    void subscribeInsideMultiRunsAtExecAndSsubscribeIsRefusedThere() {
        kvd.call("MULTI");
        assertThat(kvd.call("SSUBSCRIBE", "s")).isEqualTo("+QUEUED\r\n");
        assertThat(kvd.call("SUBSCRIBE", "a")).isEqualTo("+QUEUED\r\n");
        assertThat(kvd.call("EXEC")).isEqualTo("*2\r\n-ERR SSUBSCRIBE isn't allowed for a DENY BLOCKING client\r\n"
                + frame("subscribe", "a", 1));
        assertThat(kvd.call("PING")).isEqualTo("*2\r\n$4\r\npong\r\n$0\r\n\r\n");
    }

    @Test
    void aClosedConnectionLeavesNothingSubscribed() {
        by(subscriber, "SUBSCRIBE", "a");
        by(subscriber, "PSUBSCRIBE", "a*");
        by(subscriber, "SSUBSCRIBE", "s");
        subscriber.disconnected();
        assertThat(kvd.call("PUBSUB", "CHANNELS")).isEqualTo("*0\r\n");
        assertThat(kvd.call("PUBSUB", "NUMPAT")).isEqualTo(":0\r\n");
        assertThat(kvd.call("PUBSUB", "SHARDCHANNELS")).isEqualTo("*0\r\n");
        assertThat(kvd.call("PUBLISH", "a", "x")).isEqualTo(":0\r\n");
        assertThat(kvd.server.pubSub().hasSubscribers()).isFalse();
    }

    @Test
    void resetUnsubscribesUnwatchesDiscardsAndForgetsDatabaseAndName() {
        by(subscriber, "SELECT", "3");
        by(subscriber, "CLIENT", "SETNAME", "n");
        by(subscriber, "WATCH", "k");
        by(subscriber, "MULTI");
        assertThat(by(subscriber, "RESET")).isEqualTo("+RESET\r\n");
        assertThat(by(subscriber, "EXEC")).isEqualTo("-ERR EXEC without MULTI\r\n");
        assertThat(by(subscriber, "CLIENT", "INFO")).contains(" name= ", " db=0 ", " flags=N ");
        by(subscriber, "SUBSCRIBE", "a");
        by(subscriber, "PSUBSCRIBE", "b*");
        assertThat(by(subscriber, "RESET")).isEqualTo("+RESET\r\n");
        assertThat(kvd.call("PUBLISH", "a", "x")).isEqualTo(":0\r\n");
        assertThat(kvd.call("PUBSUB", "NUMPAT")).isEqualTo(":0\r\n");
        assertThat(by(subscriber, "GET", "k")).isEqualTo("$-1\r\n");
    }

    @Test
    void resetArityIsChecked() {
        assertThat(kvd.call("RESET", "x")).isEqualTo("-ERR wrong number of arguments for 'reset' command\r\n");
    }

    @Test
    void resetLeavesTheClientUnauthenticatedWhenAPasswordIsRequired() throws Exception {
        CommandFixture locked = new CommandFixture(Config.load(null, List.of("--requirepass", "secret")));
        assertThat(locked.call("AUTH", "secret")).isEqualTo("+OK\r\n");
        assertThat(locked.call("RESET")).isEqualTo("+RESET\r\n");
        assertThat(locked.call("GET", "k")).isEqualTo("-NOAUTH Authentication required.\r\n");
    }

    @Test
    void clientListShowsSubscriptionCountsAndThePFlag() {
        by(subscriber, "SUBSCRIBE", "a", "b");
        by(subscriber, "PSUBSCRIBE", "c*");
        by(subscriber, "SSUBSCRIBE", "s");
        String list = by(other, "CLIENT", "LIST", "TYPE", "pubsub");
        assertThat(list).contains("id=" + subscriber.id() + " ", " flags=P db=0 sub=2 psub=1 ssub=1 ");
        assertThat(list).doesNotContain("id=" + other.id() + " ");
        assertThat(by(other, "CLIENT", "LIST", "TYPE", "normal")).doesNotContain("id=" + subscriber.id() + " ");
        assertThat(by(other, "CLIENT", "INFO")).contains(" flags=N db=0 sub=0 psub=0 ssub=0 ");
    }

    @Test
    void infoCountsChannelsAndPatternsOnce() {
        Client second = kvd.newClient();
        by(subscriber, "SUBSCRIBE", "a", "b");
        by(second, "SUBSCRIBE", "a");
        by(subscriber, "PSUBSCRIBE", "p*");
        by(second, "PSUBSCRIBE", "p*");
        by(second, "SSUBSCRIBE", "s");
        assertThat(kvd.call("INFO", "stats")).contains("pubsub_channels:2\r\npubsub_patterns:1\r\npubsubshard_channels:1\r\n");
    }

    @Test
    void theServerPublishesWithOneCall() {
        by(subscriber, "PSUBSCRIBE", "__keyspace@0__:*");
        assertThat(kvd.server.pubSub().publish("__keyspace@0__:k".getBytes(), "set".getBytes())).isEqualTo(1);
        assertThat(kvd.pendingOutput(subscriber)).isEqualTo(pmessage("__keyspace@0__:*", "__keyspace@0__:k", "set"));
    }

    @Test
    void aClientClosingAfterItsReplyCountsButIsSentNothing() {
        by(subscriber, "SUBSCRIBE", "a");
        by(subscriber, "QUIT");
        assertThat(by(other, "PUBLISH", "a", "x")).isEqualTo(":1\r\n");
        assertThat(kvd.pendingOutput(subscriber)).isEmpty();
    }

    @Test
    void outputBufferLimitShowsEveryClassAndChangesOnlyTheOnesNamed() {
        assertThat(kvd.call("CONFIG", "GET", "client-output-buffer-limit")).isEqualTo("*2\r\n$26\r\nclient-output-buffer-limit\r\n"
                + "$67\r\nnormal 0 0 0 slave 268435456 67108864 60 pubsub 33554432 8388608 60\r\n");
        assertThat(kvd.call("CONFIG", "SET", "client-output-buffer-limit", "pubsub 1mb 2mb 3")).isEqualTo("+OK\r\n");
        assertThat(kvd.call("CONFIG", "GET", "client-output-buffer-limit")).contains(
                "normal 0 0 0 slave 268435456 67108864 60 pubsub 1048576 2097152 3\r\n");
        assertThat(kvd.config.pubsubOutputBufferLimit()).isEqualTo(new Config.OutputBufferLimit(1048576, 2097152, 3));
        assertThat(kvd.call("CONFIG", "SET", "client-output-buffer-limit", "foo 1 1 1")).isEqualTo("-ERR CONFIG SET failed "
                + "(possibly related to argument 'client-output-buffer-limit') - Invalid client class specified in buffer limit configuration.\r\n");
        assertThat(kvd.call("CONFIG", "SET", "client-output-buffer-limit", "pubsub 1 1")).isEqualTo("-ERR CONFIG SET failed "
                + "(possibly related to argument 'client-output-buffer-limit') - Wrong number of arguments in buffer limit configuration.\r\n");
    }

    @Test
    void clusterChecksTheShardChannelsSlots(@TempDir Path dir) {
        CommandFixture node = ClusterFixture.nodeA(dir);
        assertThat(node.call("SSUBSCRIBE", "bar", "hello"))
                .isEqualTo("-CROSSSLOT Keys in request don't hash to the same slot\r\n");
        assertThat(node.call("SSUBSCRIBE", "foo")).isEqualTo("-MOVED 12182 127.0.0.1:7003\r\n");
        assertThat(node.call("SPUBLISH", "foo", "x")).isEqualTo("-MOVED 12182 127.0.0.1:7003\r\n");
        assertThat(node.call("SUNSUBSCRIBE")).isEqualTo(frame("sunsubscribe", null, 0));
        assertThat(node.call("SSUBSCRIBE", "bar")).isEqualTo(frame("ssubscribe", "bar", 1));
        assertThat(node.call("PUBLISH", "foo", "x")).startsWith("-ERR Can't execute 'publish'");
    }
}
