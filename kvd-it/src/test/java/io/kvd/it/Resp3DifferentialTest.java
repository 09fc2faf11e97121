package io.kvd.it;

import io.kvd.it.support.Escape;
import io.kvd.it.support.KvdProcess;
import io.kvd.it.support.RedisServerProcess;
import io.kvd.it.support.RespConnection;
import io.kvd.it.support.ServerLogsOnFailure;
import io.kvd.it.support.ServerPair;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the compat scripts cannot show in RESP3, byte for byte against redis-server: HELLO's forms
 * and the protocol switch (its own reply already in the new protocol), RESET back to RESP2, every
 * RESP3 type DEBUG PROTOCOL sends (attribute and push included), and pub/sub in RESP3: pushes for
 * confirmations and messages, and any command allowed while subscribed.
 */
@ExtendWith(ServerLogsOnFailure.class)
class Resp3DifferentialTest {
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

    @Test
    void helloSwitchesTheProtocolAndResetSwitchesBack() throws IOException {
        assertSameReplies(List.of(
                List.of("HELLO", "4"),
                List.of("HELLO", "1"),
                List.of("HELLO", "three"),
                List.of("HELLO", "3", "SETNAME"),
                List.of("HELLO", "3", "NOPE"),
                List.of("HGETALL", "missing"),
                List.of("HELLO", "3", "SETNAME", "resp3-client"),
                List.of("HGETALL", "missing"),
                List.of("GET", "missing"),
                List.of("CLIENT", "GETNAME"),
                List.of("HELLO", "2"),
                List.of("HGETALL", "missing"),
                List.of("HELLO", "3"),
                List.of("RESET"),
                List.of("HGETALL", "missing"),
                List.of("LPOP", "missing", "2")));
    }

    @Test
    void debugProtocolSendsEveryResp3Type() throws IOException {
        List<List<String>> commands = new ArrayList<>();
        commands.add(List.of("HELLO", "3"));
        for (String type : List.of("string", "integer", "double", "bignum", "null", "array", "set", "map", "attrib",
                "push", "verbatim", "true", "false", "nope")) {
            commands.add(List.of("DEBUG", "PROTOCOL", type));
            if (type.equals("push")) {
                // The push, then the command's own reply, read without sending anything.
                commands.add(List.of());
            }
        }
        commands.add(List.of("HELLO", "2"));
        for (String type : List.of("double", "bignum", "null", "set", "map", "attrib", "push", "verbatim", "true")) {
            commands.add(List.of("DEBUG", "PROTOCOL", type));
        }
        assertSameReplies(commands);
    }

    /** redis.setresp(3): RESP3's types as Lua sees them, and as the script returns them to RESP2 and RESP3 callers. */
    @Test
    void scriptsReadResp3AfterSetresp() throws IOException {
        List<List<String>> commands = new ArrayList<>();
        commands.add(List.of("DEL", "script:h", "script:s", "script:z"));
        commands.add(List.of("HSET", "script:h", "f", "v"));
        commands.add(List.of("SADD", "script:s", "a"));
        commands.add(List.of("ZADD", "script:z", "1.5", "m"));
        List<String> scripts = List.of(
                "local r = redis.call('hgetall', KEYS[1]); return {type(r.map), r.map.f}",
                "local r = redis.call('smembers', KEYS[2]); return {type(r.set), tostring(r.set.a)}",
                "local r = redis.call('zscore', KEYS[3], 'm'); return {type(r), tostring(r.double)}",
                "local r = redis.call('info', 'keyspace'); return {r.verbatim_string.format, type(r.verbatim_string.string)}",
                "return {type(redis.call('get', 'script:none')), true, false}",
                "return redis.call('hgetall', KEYS[1])",
                "return redis.call('smembers', KEYS[2])",
                "return redis.call('zrange', KEYS[3], 0, -1, 'withscores')",
                "redis.setresp(2); return {redis.call('hgetall', KEYS[1]), false}");
        for (String protocol : List.of("2", "3")) {
            commands.add(List.of("HELLO", protocol));
            commands.add(List.of("EVAL", "return {true, false}", "0"));
            for (String script : scripts) {
                commands.add(List.of("EVAL", "redis.setresp(3); " + script, "3", "script:h", "script:s", "script:z"));
            }
        }
        commands.add(List.of("EVAL", "redis.setresp(4)", "0"));
        commands.add(List.of("EVAL", "redis.setresp()", "0"));
        assertSameReplies(commands);
    }

    @Test
    void subscribersGetPushesAndMayRunAnyCommand() throws IOException {
        List<String> fromRedis = pubSub(redis.port());
        List<String> fromKvd = pubSub(kvd.port());
        assertThat(fromKvd).isEqualTo(fromRedis);
    }

    /** A RESP3 subscriber's stream while another client publishes, and its own commands in between. */
    private static List<String> pubSub(int port) throws IOException {
        List<String> seen = new ArrayList<>();
        try (RespConnection subscriber = RespConnection.open(port);
             RespConnection publisher = RespConnection.open(port)) {
            subscriber.call("HELLO", "3");
            subscriber.send(bytes("SUBSCRIBE", "news", "sports"));
            seen.add(Escape.bytes(subscriber.readReply()));
            seen.add(Escape.bytes(subscriber.readReply()));
            subscriber.send(bytes("PSUBSCRIBE", "n*"));
            seen.add(Escape.bytes(subscriber.readReply()));
            seen.add(publisher.call("PUBLISH", "news", "hello"));
            seen.add(Escape.bytes(subscriber.readReply()));
            seen.add(Escape.bytes(subscriber.readReply()));
            seen.add(subscriber.call("SET", "k", "v"));
            seen.add(subscriber.call("GET", "k"));
            seen.add(subscriber.call("PING"));
            seen.add(subscriber.call("PING", "x"));
            subscriber.send(bytes("UNSUBSCRIBE", "sports", "news"));
            seen.add(Escape.bytes(subscriber.readReply()));
            seen.add(Escape.bytes(subscriber.readReply()));
            subscriber.send(bytes("PUNSUBSCRIBE", "n*", "other"));
            seen.add(Escape.bytes(subscriber.readReply()));
            seen.add(Escape.bytes(subscriber.readReply()));
            subscriber.send(bytes("UNSUBSCRIBE"));
            seen.add(Escape.bytes(subscriber.readReply()));
        }
        return seen;
    }

    /**
     * Each command's reply from both servers, the same but for HELLO's client id (each server
     * numbers its own connections); an empty command reads a reply without sending.
     */
    private static void assertSameReplies(List<List<String>> commands) throws IOException {
        List<String> mismatches = new ArrayList<>();
        try (RespConnection toRedis = RespConnection.open(redis.port());
             RespConnection toKvd = RespConnection.open(kvd.port())) {
            for (List<String> command : commands) {
                String expected = Escape.bytes(withoutClientId(reply(toRedis, command)));
                String actual = Escape.bytes(withoutClientId(reply(toKvd, command)));
                if (!expected.equals(actual)) {
                    mismatches.add(String.join(" ", command) + "\n  redis: " + expected + "\n  kvd:   " + actual);
                }
            }
        }
        assertThat(mismatches).as("replies that differ from redis-server's").isEmpty();
    }

    private static byte[] reply(RespConnection connection, List<String> command) throws IOException {
        if (!command.isEmpty()) {
            connection.send(bytes(command.toArray(new String[0])));
        }
        return connection.readReply();
    }

    private static byte[] withoutClientId(byte[] reply) {
        return new String(reply, StandardCharsets.ISO_8859_1).replaceFirst("\\$2\r\nid\r\n:\\d+\r\n", "\\$2\r\nid\r\n:ID\r\n")
                .getBytes(StandardCharsets.ISO_8859_1);
    }

    private static byte[][] bytes(String... args) {
        byte[][] argv = new byte[args.length][];
        for (int i = 0; i < args.length; i++) {
            argv[i] = args[i].getBytes(StandardCharsets.UTF_8);
        }
        return argv;
    }
}
