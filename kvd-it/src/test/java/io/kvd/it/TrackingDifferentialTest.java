package io.kvd.it;

import io.kvd.it.support.Escape;
import io.kvd.it.support.KvdProcess;
import io.kvd.it.support.RedisServerProcess;
import io.kvd.it.support.RespConnection;
import io.kvd.it.support.ServerLogsOnFailure;
import io.kvd.it.support.ServerPair;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Client-side caching byte for byte against redis-server: sessions of two or three connections,
 * each step a command on one connection (its reply recorded) or a read of what one connection
 * was sent (an invalidation). Client ids differ between the servers, so a step names another
 * connection's id as {@code {id:N}} and replies show connection N's id as {@code ID<N>}.
 */
@ExtendWith(ServerLogsOnFailure.class)
class TrackingDifferentialTest {
    private static ServerPair servers;
    private static RedisServerProcess redis;
    private static KvdProcess kvd;

    @BeforeAll
    static void start() {
        servers = ServerPair.start("--enable-debug-command", "yes");
        redis = servers.redis();
        kvd = servers.kvd();
    }

    @AfterAll
    static void stop() {
        if (servers != null) {
            servers.close();
        }
    }

    @BeforeEach
    void flush() throws IOException {
        for (int port : new int[] {redis.port(), kvd.port()}) {
            try (RespConnection connection = RespConnection.open(port)) {
                connection.call("FLUSHALL");
            }
        }
    }

    @Test
    void resp3ClientGetsPushesForTheKeysItRead() throws IOException {
        assertSameSession(3,
                on(0, "HELLO", "3"), on(0, "CLIENT", "TRACKING", "ON"),
                on(1, "MSET", "a", "1", "b", "2"),
                on(0, "GET", "a"), on(0, "MGET", "b", "c"), on(0, "HGET", "h", "f"),
                on(1, "SET", "a", "2"), read(0),
                on(1, "DEL", "b", "c"), read(0),
                on(1, "SET", "a", "3"), on(0, "PING"),
                on(0, "HSET", "h", "f", "1"), read(0),
                on(0, "HGET", "h", "f"), on(0, "HDEL", "h", "f"), read(0),
                on(0, "CLIENT", "TRACKINGINFO"), on(0, "CLIENT", "GETREDIR"),
                on(0, "INFO", "stats"));
    }

    @Test
    void ownChangesFollowTheReplyOfTheCommandAndOfExec() throws IOException {
        assertSameSession(2,
                on(0, "HELLO", "3"), on(0, "CLIENT", "TRACKING", "ON"),
                on(0, "MSET", "a", "1", "b", "2"), on(0, "GET", "a"), on(0, "GET", "b"),
                on(0, "MULTI"), on(0, "INCR", "a"), on(0, "GET", "b"), on(0, "EXEC"), read(0),
                on(0, "EVAL", "return redis.call('incr', KEYS[1])", "1", "b"), read(0),
                on(0, "GET", "a"), on(0, "FLUSHDB"), read(0),
                on(0, "CLIENT", "TRACKING", "ON", "NOLOOP"), on(0, "GET", "a"), on(0, "SET", "a", "x"),
                on(1, "SET", "a", "y"), on(0, "GET", "a"), on(1, "SET", "a", "z"), read(0));
    }

    @Test
    void resp2ClientRedirectsToASubscriber() throws IOException {
        assertSameSession(3,
                on(0, "CLIENT", "ID"), on(0, "SUBSCRIBE", "__redis__:invalidate"),
                on(1, "CLIENT", "TRACKING", "ON", "REDIRECT", "{id:0}"),
                on(1, "CLIENT", "TRACKING", "ON", "REDIRECT", "{id:0}", "REDIRECT", "{id:2}"),
                on(1, "CLIENT", "GETREDIR"), on(1, "CLIENT", "TRACKINGINFO"),
                on(1, "GET", "k"), on(1, "GET", "other"),
                on(2, "SET", "k", "v"), read(0),
                on(1, "GET", "k"), on(2, "FLUSHALL"), read(0),
                on(1, "INFO", "clients"));
    }

    @Test
    void resp3ClientIsToldItsRedirectionBroke() throws IOException {
        assertSameSession(3,
                on(0, "HELLO", "3"), on(0, "CLIENT", "TRACKING", "ON", "REDIRECT", "{id:1}"),
                on(0, "GET", "k"), on(2, "CLIENT", "KILL", "ID", "{id:1}"),
                on(2, "SET", "k", "v"), on(0, "PING"), read(0),
                on(0, "CLIENT", "TRACKINGINFO"));
    }

    @Test
    void bcastSendsTheKeysUnderEachPrefixOncePerIteration() throws IOException {
        assertSameSession(3,
                on(0, "CLIENT", "ID"), on(0, "SUBSCRIBE", "__redis__:invalidate"),
                on(1, "CLIENT", "TRACKING", "ON", "BCAST", "REDIRECT", "{id:0}", "PREFIX", "a:", "PREFIX", "b:"),
                on(2, "MULTI"), on(2, "INCR", "a:1"), on(2, "INCR", "b:2"), on(2, "INCR", "a:2"),
                on(2, "INCR", "c:1"), on(2, "EXEC"), read(0), read(0),
                on(1, "CLIENT", "TRACKING", "ON", "BCAST", "PREFIX", "a"),
                // Redis answers an overlap past the first prefix given, then enables tracking all the same.
                on(1, "CLIENT", "TRACKING", "ON", "BCAST", "PREFIX", "x", "PREFIX", "y", "PREFIX", "yz"), read(1),
                on(1, "CLIENT", "TRACKING", "ON"),
                on(1, "CLIENT", "TRACKING", "ON", "BCAST", "OPTIN"),
                on(1, "CLIENT", "TRACKING", "ON", "BCAST", "REDIRECT", "{id:0}", "PREFIX", "c:"),
                on(2, "SET", "c:9", "1"), read(0),
                on(1, "CLIENT", "TRACKINGINFO"), on(1, "INFO", "stats"));
    }

    @Test
    void bcastNoloopLeavesOutTheClientsOwnChangesButNotExpiryNorItsScripts() throws IOException {
        assertSameSession(2,
                on(0, "HELLO", "3"), on(0, "CLIENT", "TRACKING", "ON", "BCAST", "NOLOOP"),
                on(1, "SET", "other", "1"), read(0),
                on(0, "SET", "mine", "1"), on(1, "SET", "other2", "1"), read(0),
                // A script's writes are its own client's, which NOLOOP does not leave out (as Redis 7.0).
                on(0, "EVAL", "redis.call('set', 'scripted', '1')", "0"), read(0),
                on(0, "DEBUG", "SET-ACTIVE-EXPIRE", "0"),
                on(0, "MULTI"), on(0, "SET", "gone", "v", "PX", "1"), on(0, "SET", "kept", "v"), on(0, "EXEC"),
                on(0, "DEBUG", "SLEEP", "0.01"), on(0, "GET", "gone"), read(0),
                on(0, "DEBUG", "SET-ACTIVE-EXPIRE", "1"));
    }

    @Test
    void optinTracksAfterCachingYesAndOptoutNotAfterCachingNo() throws IOException {
        assertSameSession(2,
                on(0, "HELLO", "3"), on(0, "CLIENT", "CACHING", "YES"),
                on(0, "CLIENT", "TRACKING", "ON", "OPTIN", "OPTOUT"),
                on(0, "CLIENT", "TRACKING", "ON", "OPTIN"), on(0, "CLIENT", "CACHING", "NO"),
                on(0, "GET", "a"), on(0, "CLIENT", "CACHING", "YES"), on(0, "CLIENT", "TRACKINGINFO"),
                on(0, "GET", "b"), on(0, "CLIENT", "TRACKINGINFO"), on(0, "GET", "c"),
                on(1, "MSET", "a", "1", "b", "1", "c", "1"), read(0),
                on(0, "CLIENT", "TRACKING", "ON", "OPTOUT"), on(0, "CLIENT", "TRACKING", "OFF"),
                on(0, "CLIENT", "TRACKING", "ON", "OPTOUT"), on(0, "CLIENT", "CACHING", "NO"),
                on(0, "GET", "a"), on(0, "GET", "b"),
                on(1, "MSET", "a", "2", "b", "2"), read(0));
    }

    @Test
    void scriptsTrackTheirDeclaredKeysOnceTheyRead() throws IOException {
        assertSameSession(2,
                on(0, "HELLO", "3"), on(0, "CLIENT", "TRACKING", "ON"),
                on(0, "EVAL", "redis.call('set', 'k3', 'bar')", "2", "k1", "k2"),
                on(1, "MSET", "k1", "1", "k2", "1"),
                on(0, "EVAL", "redis.call('get', 'k3')", "2", "k1", "k2"),
                on(1, "MSET", "k2", "2", "k1", "2"), read(0), read(0),
                on(0, "EVAL_RO", "redis.call('get', 'k1')", "1", "k2"),
                on(1, "SET", "k2", "3"), read(0));
    }

    @Test
    void clientListShowsTrackingFlagsAndRedirection() throws IOException {
        assertSameSession(2,
                on(0, "CLIENT", "TRACKING", "ON", "BCAST", "REDIRECT", "{id:1}"),
                on(0, "CLIENT", "KILL", "ID", "{id:1}"), on(0, "SET", "x", "1"), on(0, "PING"),
                on(0, "CLIENT", "INFO"));
    }

    private record Step(int connection, List<String> command) {
    }

    private static Step on(int connection, String... command) {
        return new Step(connection, List.of(command));
    }

    /** Reads what the connection was sent, sending nothing. */
    private static Step read(int connection) {
        return new Step(connection, List.of());
    }

    private static void assertSameSession(int connections, Step... steps) throws IOException {
        List<String> fromRedis = session(redis.port(), connections, steps);
        List<String> fromKvd = session(kvd.port(), connections, steps);
        assertThat(String.join("\n", fromKvd)).isEqualTo(String.join("\n", fromRedis));
    }

    private static List<String> session(int port, int count, Step... steps) throws IOException {
        List<String> seen = new ArrayList<>();
        List<RespConnection> connections = new ArrayList<>();
        try {
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                RespConnection connection = RespConnection.open(port);
                connections.add(connection);
                ids.add(connection.call("CLIENT", "ID").replaceAll("\\D", ""));
            }
            for (Step step : steps) {
                RespConnection connection = connections.get(step.connection);
                if (!step.command.isEmpty()) {
                    List<String> args = step.command.stream().map(a -> withIds(a, ids)).toList();
                    connection.send(args.stream().map(a -> a.getBytes(StandardCharsets.UTF_8)).toArray(byte[][]::new));
                }
                String reply = new String(connection.readReply(), StandardCharsets.UTF_8);
                seen.add(step.connection + " " + String.join(" ", step.command) + " -> " + shown(reply, ids));
            }
        } finally {
            for (RespConnection connection : connections) {
                connection.close();
            }
        }
        return seen;
    }

    private static String withIds(String arg, List<String> ids) {
        for (int i = 0; i < ids.size(); i++) {
            arg = arg.replace("{id:" + i + "}", ids.get(i));
        }
        return arg;
    }

    /**
     * The reply with each connection's id as ID&lt;n&gt; where ids are shown, and with what only one server has cut:
     * INFO's fields other than tracking's, CLIENT INFO's fields other than flags and redir.
     */
    private static String shown(String reply, List<String> ids) {
        if (reply.contains("tracking_") || reply.contains("redir=")) {
            StringBuilder kept = new StringBuilder();
            for (String field : reply.split("[\r\n ]+")) {
                if (field.startsWith("tracking_") || field.startsWith("flags=") || field.startsWith("redir=")) {
                    kept.append(field).append(' ');
                }
            }
            reply = kept.toString();
        }
        for (int i = 0; i < ids.size(); i++) {
            String id = ids.get(i);
            // Where an id is shown: CLIENT ID and GETREDIR, HELLO's id, TRACKINGINFO's redirect,
            // the tracking-redir-broken push, CLIENT INFO's redir=.
            reply = reply.replaceAll("^:" + id + "\r\n$", ":ID" + i + "\r\n")
                    .replaceAll("((?:\\$2\r\nid|\\$8\r\nredirect|tracking-redir-broken)\r\n:)" + id + "\r\n",
                            "$1ID" + i + "\r\n")
                    .replaceAll("redir=" + id + "(?=\\s|$)", "redir=ID" + i);
        }
        return Escape.bytes(reply.getBytes(StandardCharsets.UTF_8));
    }
}
