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
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisAccessControlException;
import redis.clients.jedis.exceptions.JedisDataException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * ACL against redis-server 7.0.15, reply for reply: SETUSER's rules and errors, GETUSER and LIST
 * (rules whose description names at most one single command per selector, since Redis lists
 * single commands in its hash table's order), CAT (as sets, for the same reason), DRYRUN, WHOAMI,
 * AUTH with users, the NOPERM refusals of commands, keys and channels for a read-only user, a
 * key-prefix user, a channel user and a user with selectors, and ACL LOG's entries by shape (their
 * age and client line are the servers' own). Then Jedis authenticating as a user.
 */
@ExtendWith(ServerLogsOnFailure.class)
class AclDifferentialTest {
    private static ServerPair servers;
    private static RedisServerProcess redis;
    private static KvdProcess kvd;

    @BeforeAll
    static void start() {
        servers = ServerPair.start();
        redis = servers.redis();
        kvd = servers.kvd();
    }

    @AfterAll
    static void stop() {
        if (servers != null) {
            servers.close();
        }
    }

    /** Each test starts from the default user alone and an empty log, on both servers. */
    @BeforeEach
    void onlyTheDefaultUser() throws IOException {
        for (int port : new int[] {redis.port(), kvd.port()}) {
            try (RespConnection admin = RespConnection.open(port)) {
                for (String user : elements(admin, "ACL", "USERS")) {
                    if (!user.equals("default")) {
                        admin.call("ACL", "DELUSER", user);
                    }
                }
                admin.call("ACL", "LOG", "RESET");
            }
        }
    }

    @Test
    void setuserGetuserAndListDescribeUsersAsRedis() throws IOException {
        assertSameReplies(List.of(
                admin("ACL", "SETUSER", "reader", "on", ">secret", "+@read", "~*", "&*"),
                admin("ACL", "SETUSER", "cache", "on", "#" + "a".repeat(64), "-@all", "+@string", "-append",
                        "~cache:*", "%R~shared:*", "%W~out:*"),
                admin("ACL", "SETUSER", "news", "on", "nopass", "resetchannels", "&news.*", "&alerts", "+@pubsub"),
                admin("ACL", "SETUSER", "sel", "on", "nopass", "+get", "~g*", "(+set ~s*)", "(", "+@hash", "%R~h*", ")"),
                admin("ACL", "SETUSER", "admin", "on", "nopass", "+@all", "-@dangerous", "-@keyspace", "allkeys"),
                admin("ACL", "SETUSER", "rw", "on", "nopass", "-@all", "+@read", "+@write", "-set", "allkeys"),
                admin("ACL", "SETUSER", "hashes", "on", "nopass", "-@all", "+@hash", "+@set", "-hset"),
                admin("ACL", "SETUSER", "cfg", "+config|get", "resetpass", "off"),
                admin("ACL", "SETUSER", "db0", "+select|0"),
                admin("ACL", "GETUSER", "reader"),
                admin("ACL", "GETUSER", "cache"),
                admin("ACL", "GETUSER", "news"),
                admin("ACL", "GETUSER", "sel"),
                admin("ACL", "GETUSER", "admin"),
                admin("ACL", "GETUSER", "rw"),
                admin("ACL", "GETUSER", "hashes"),
                admin("ACL", "GETUSER", "cfg"),
                admin("ACL", "GETUSER", "db0"),
                admin("ACL", "GETUSER", "nobody"),
                admin("ACL", "LIST"),
                admin("ACL", "USERS"),
                admin("ACL", "SETUSER", "cfg", "reset"),
                admin("ACL", "GETUSER", "cfg"),
                admin("ACL", "DELUSER", "cfg", "nobody"),
                admin("ACL", "DELUSER", "default"),
                admin("ACL", "WHOAMI"),
                admin("ACL", "CAT"),
                admin("ACL", "CAT", "nosuch"),
                admin("ACL", "HELP")));
    }

    @Test
    void malformedRulesAreRefusedWithRedisReasons() throws IOException {
        List<Step> steps = new ArrayList<>();
        for (List<String> rules : List.of(List.of("allkeys", "~a"), List.of("allchannels", "&a"), List.of("<nopass"),
                List.of("!" + "b".repeat(64)), List.of("#abc"), List.of("#" + "A".repeat(64)), List.of("+nosuch"),
                List.of("-@nosuch"), List.of("+config|get|x"), List.of("+get|"), List.of("bogus"), List.of("%X~a"), List.of("%~a"), List.of("%"),
                List.of("~a b"), List.of("(+get", "~x"), List.of("(+nosuch)"), List.of("+client|nosuch"))) {
            List<String> command = new ArrayList<>(List.of("ACL", "SETUSER", "bad"));
            command.addAll(rules);
            steps.add(admin(command.toArray(new String[0])));
        }
        steps.add(admin("ACL", "SETUSER", "a b"));
        steps.add(admin("ACL", "GETUSER", "bad"));
        steps.add(admin("ACL", "GENPASS", "0"));
        steps.add(admin("ACL", "GENPASS", "x"));
        steps.add(admin("ACL", "LOG", "x"));
        steps.add(admin("ACL", "LOAD"));
        steps.add(admin("ACL", "SAVE"));
        steps.add(admin("ACL", "CAT", "a", "b"));
        steps.add(admin("ACL", "NOSUCH"));
        assertSameReplies(steps);
    }

    @Test
    void rulesAreReadUpToANulWhereRedisReadsThemAsCStrings() throws IOException {
        assertSameReplies(List.of(
                admin("ACL", "SETUSER", "nul1", "on\0x", "allkeys\0", "+get\0x", "(+set\0 ~x)", "(\0)"),
                admin("ACL", "SETUSER", "nul2", "resetkeys\0junk", "+@all\0x", "-@read\0", "&*\0y"),
                admin("ACL", "SETUSER", "nul3", "+select|a\0b", ">pw\0"),
                admin("ACL", "SETUSER", "nul4", "+config|get\0"),
                admin("ACL", "GETUSER", "nul1"),
                admin("ACL", "GETUSER", "nul2"),
                admin("ACL", "GETUSER", "nul3"),
                admin("ACL", "GETUSER", "nul4"),
                admin("ACL", "SETUSER", "bad", "~a\0b"),
                admin("ACL", "SETUSER", "bad", "&a\0b"),
                admin("ACL", "SETUSER", "bad", "%R\0~x"),
                admin("ACL", "SETUSER", "bad", "#" + "a".repeat(64) + "\0"),
                admin("ACL", "SETUSER", "bad", "+select|\0"),
                admin("ACL", "SETUSER", "bad", "+@nosuch\0x"),
                admin("ACL", "SETUSER", "bad", "\0"),
                admin("ACL", "SETUSER", "bad", "(\0x"),
                admin("ACL", "LIST")));
    }

    @Test
    void categoriesListTheSameCommands() throws IOException {
        try (RespConnection toRedis = RespConnection.open(redis.port());
             RespConnection toKvd = RespConnection.open(kvd.port())) {
            for (String category : List.of("keyspace", "read", "write", "string", "hash", "pubsub", "admin",
                    "dangerous", "connection", "transaction", "scripting", "blocking", "fast")) {
                List<String> inRedis = elements(toRedis, "ACL", "CAT", category);
                List<String> inKvd = new ArrayList<>(elements(toKvd, "ACL", "CAT", category));
                // kvd implements a subset of Redis's commands, and Redis 7.2's CLIENT SETINFO: every
                // other one it lists is in Redis's list.
                inKvd.remove("client|setinfo");
                assertThat(inRedis).as(category).containsAll(inKvd);
                assertThat(inKvd).as(category).isNotEmpty();
            }
        }
    }

    @Test
    void usersAreRefusedCommandsKeysAndChannelsAsRedisRefusesThem() throws IOException {
        assertSameReplies(List.of(
                admin("ACL", "SETUSER", "ro", "on", ">pw", "+@read", "+@connection", "%R~*"),
                admin("ACL", "SETUSER", "app", "on", ">pw", "+@read", "+@write", "+@connection", "~app:*"),
                admin("ACL", "SETUSER", "pub", "on", ">pw", "+@all", "allkeys", "resetchannels", "&news.*"),
                admin("ACL", "SETUSER", "two", "on", ">pw", "+@connection", "(+get ~g*)", "(+set ~s*)"),
                admin("ACL", "SETUSER", "off", "off", ">pw", "+@all"),
                user("AUTH", "ro", "wrong"),
                user("AUTH", "off", "pw"),
                user("AUTH", "nobody", "pw"),
                user("AUTH", "ro", "pw"),
                user("ACL", "WHOAMI"),
                user("GET", "k"),
                user("SET", "k", "v"),
                user("COPY", "a", "b"),
                user("CONFIG", "GET", "hz"),
                user("MULTI"),
                user("GET", "k"),
                user("SET", "k", "v"),
                user("EXEC"),
                user("AUTH", "app", "pw"),
                user("SET", "app:1", "v"),
                user("GET", "app:1"),
                user("SET", "other", "v"),
                user("MSET", "app:2", "v", "other", "v"),
                user("RENAME", "app:1", "app:3"),
                user("FLUSHALL"),
                user("AUTH", "pub", "pw"),
                user("PUBLISH", "news.today", "x"),
                user("PUBLISH", "sports", "x"),
                user("SUBSCRIBE", "sports"),
                user("PSUBSCRIBE", "news.today"),
                user("AUTH", "two", "pw"),
                user("GET", "g1"),
                user("GET", "s1"),
                user("SET", "s1", "v"),
                user("SET", "g1", "v"),
                user("DEL", "g1"),
                admin("ACL", "DRYRUN", "ro", "SET", "k", "v"),
                admin("ACL", "DRYRUN", "ro", "GET", "k"),
                admin("ACL", "DRYRUN", "app", "GET", "other"),
                admin("ACL", "DRYRUN", "pub", "PUBLISH", "sports", "x"),
                admin("ACL", "DRYRUN", "two", "SET", "g1", "v"),
                admin("ACL", "DRYRUN", "nobody", "GET", "k"),
                admin("ACL", "DRYRUN", "ro", "NOSUCH"),
                admin("ACL", "DRYRUN", "ro", "GET"),
                admin("ACL", "DRYRUN", "ro", "CONFIG", "NOSUCH"),
                admin("EVAL", "return redis.call('get', 'k')", "0")));
    }

    @Test
    void theLogRecordsRefusalsAsRedisDoes() throws IOException {
        List<Step> steps = List.of(
                admin("ACL", "LOG", "RESET"),
                admin("ACL", "SETUSER", "logged", "on", ">pw", "+get", "+eval", "+multi", "+exec", "~k*",
                        "resetchannels", "&c"),
                user("AUTH", "logged", "nope"),
                user("AUTH", "logged", "pw"),
                user("SET", "k1", "v"),
                user("SET", "k1", "v"),
                user("GET", "x1"),
                user("PUBLISH", "c", "m"),
                user("EVAL", "return redis.call('get', 'x2')", "0"),
                user("EVAL", "return redis.call('set', 'k2', 'v')", "0"),
                user("MULTI"),
                user("GET", "x3"),
                user("EXEC"),
                admin("ACL", "LOG", "20"),
                admin("ACL", "LOG", "2"),
                admin("ACL", "LOG", "RESET"),
                admin("ACL", "LOG"));
        assertSameReplies(steps);
    }

    @Test
    void jedisAuthenticatesAsAUser() throws IOException {
        try (RespConnection admin = RespConnection.open(kvd.port())) {
            assertThat(admin.call("ACL", "SETUSER", "jedis", "on", ">jpw", "+@all", "-flushall", "~jedis:*"))
                    .isEqualTo("+OK\r\n");
        }
        DefaultJedisClientConfig config = DefaultJedisClientConfig.builder().user("jedis").password("jpw").build();
        try (Jedis jedis = new Jedis(new HostAndPort("127.0.0.1", kvd.port()), config)) {
            assertThat(jedis.aclWhoAmI()).isEqualTo("jedis");
            assertThat(jedis.set("jedis:k", "v")).isEqualTo("OK");
            assertThat(jedis.get("jedis:k")).isEqualTo("v");
            assertThatThrownBy(() -> jedis.get("other")).isInstanceOf(JedisDataException.class)
                    .hasMessage("NOPERM this user has no permissions to access one of the keys used as arguments");
            assertThatThrownBy(jedis::flushAll).isInstanceOf(JedisDataException.class)
                    .hasMessage("NOPERM this user has no permissions to run the 'flushall' command");
        }
        DefaultJedisClientConfig wrong = DefaultJedisClientConfig.builder().user("jedis").password("no").build();
        assertThatThrownBy(() -> {
            try (Jedis jedis = new Jedis(new HostAndPort("127.0.0.1", kvd.port()), wrong)) {
                jedis.ping();
            }
        }).isInstanceOf(JedisAccessControlException.class)
                .hasMessage("WRONGPASS invalid username-password pair or user is disabled.");
    }

    /** A command, sent as the administrator (the default user) or as the test's user connection. */
    private record Step(boolean asAdmin, List<String> command) {
    }

    private static Step admin(String... command) {
        return new Step(true, List.of(command));
    }

    private static Step user(String... command) {
        return new Step(false, List.of(command));
    }

    /** Each step's reply from both servers, the same but for ACL LOG's age and client line. */
    private static void assertSameReplies(List<Step> steps) throws IOException {
        List<String> mismatches = new ArrayList<>();
        try (RespConnection redisAdmin = RespConnection.open(redis.port());
             RespConnection redisUser = RespConnection.open(redis.port());
             RespConnection kvdAdmin = RespConnection.open(kvd.port());
             RespConnection kvdUser = RespConnection.open(kvd.port())) {
            for (Step step : steps) {
                String expected = shape(reply(step.asAdmin() ? redisAdmin : redisUser, step.command()));
                String actual = shape(reply(step.asAdmin() ? kvdAdmin : kvdUser, step.command()));
                if (!expected.equals(actual)) {
                    mismatches.add(String.join(" ", step.command()) + "\n  redis: " + expected + "\n  kvd:   " + actual);
                }
            }
        }
        assertThat(mismatches).as("replies that differ from redis-server's").isEmpty();
    }

    private static byte[] reply(RespConnection connection, List<String> command) throws IOException {
        connection.send(command.stream().map(a -> a.getBytes(StandardCharsets.UTF_8)).toArray(byte[][]::new));
        return connection.readReply();
    }

    /** The reply escaped, ACL LOG's age-seconds and client-info values replaced by their names. */
    private static String shape(byte[] reply) {
        String text = new String(reply, StandardCharsets.ISO_8859_1)
                .replaceAll("\\$11\r\nage-seconds\r\n\\$\\d+\r\n[0-9.e-]+\r\n", "age-seconds AGE ")
                .replaceAll("\\$11\r\nclient-info\r\n\\$\\d+\r\nid=[^\r]*\r\n", "client-info INFO ");
        return Escape.bytes(text.getBytes(StandardCharsets.ISO_8859_1));
    }

    private static List<String> elements(RespConnection connection, String... command) throws IOException {
        String reply = new String(reply(connection, Arrays.asList(command)), StandardCharsets.UTF_8);
        List<String> elements = new ArrayList<>();
        String[] lines = reply.split("\r\n");
        for (int i = 2; i < lines.length; i += 2) {
            elements.add(lines[i]);
        }
        return elements;
    }
}
