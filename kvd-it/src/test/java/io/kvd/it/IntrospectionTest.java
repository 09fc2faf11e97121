package io.kvd.it;

import io.kvd.it.support.ServerLogsOnFailure;
import io.kvd.it.support.SharedKvd;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.RedisProtocol;
import redis.clients.jedis.util.SafeEncoder;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

/**
 * What clients and tools ask a server about itself, asked through real clients: HELLO with its
 * options, CLIENT INFO and LIST, CONFIG GET of what redis-benchmark and managers read, INFO fields.
 */
@ExtendWith(ServerLogsOnFailure.class)
class IntrospectionTest {
    /** CLIENT LIST's fields, in Redis's order (7.2's: 7.0's and then lib-name and lib-ver). */
    private static final List<String> CLIENT_FIELDS = List.of("id", "addr", "laddr", "fd", "name", "age", "idle",
            "flags", "db", "sub", "psub", "ssub", "multi", "qbuf", "qbuf-free", "argv-mem", "multi-mem", "rbs", "rbp",
            "obl", "oll", "omem", "tot-mem", "events", "cmd", "user", "redir", "resp", "lib-name", "lib-ver");

    /** Stated, so that CONFIG GET appendonly has a known answer whatever the default becomes. */
    @RegisterExtension
    static final SharedKvd kvd = new SharedKvd("--appendonly", "no");

    /** Jedis with a RESP version and a user sends HELLO 2 AUTH user password, then CLIENT SETNAME. */
    @Test
    void jedisHandshakeWithHelloAuthAndANameSucceedsWithoutAPasswordConfigured() {
        JedisClientConfig config = DefaultJedisClientConfig.builder().protocol(RedisProtocol.RESP2)
                .user("default").password("anything").clientName("jedis-hello").build();
        try (Jedis jedis = jedis(config)) {
            assertThat(jedis.clientInfo()).contains(" name=jedis-hello ").contains(" resp=2 ").contains(" user=default ");
        }
    }

    @Test
    void helloTwoWithAuthAndSetnameRepliesWithTheServersDescriptionAndNamesTheConnection() {
        try (Jedis jedis = jedis(DefaultJedisClientConfig.builder().build())) {
            long id = jedis.clientId();
            List<?> reply = (List<?>) jedis.sendCommand(Protocol.Command.HELLO,
                    "2", "AUTH", "default", "secret", "SETNAME", "hello-name");

            assertThat(pairs(reply)).containsExactly(entry("server", "redis"), entry("version", "7.0.15"),
                    entry("proto", 2L), entry("id", id), entry("mode", "standalone"), entry("role", "master"),
                    entry("modules", List.of()));
            assertThat(jedis.clientGetname()).isEqualTo("hello-name");
        }
    }

    /** Jedis asked for RESP3 says HELLO 3 and reads RESP3's maps, sets and doubles as their types. */
    @Test
    void jedisInRespThreeReadsMapsSetsAndDoubles() {
        JedisClientConfig config = DefaultJedisClientConfig.builder().protocol(RedisProtocol.RESP3)
                .clientName("jedis-resp3").build();
        try (Jedis jedis = jedis(config)) {
            jedis.del("resp3:h", "resp3:s", "resp3:z");
            jedis.hset("resp3:h", Map.of("a", "1", "b", "2"));
            jedis.sadd("resp3:s", "x", "y");
            jedis.zadd("resp3:z", 1.5, "m");

            assertThat(jedis.hgetAll("resp3:h")).containsOnly(entry("a", "1"), entry("b", "2"));
            assertThat(jedis.smembers("resp3:s")).containsExactlyInAnyOrder("x", "y");
            assertThat(jedis.zscore("resp3:z", "m")).isEqualTo(1.5);
            assertThat(jedis.clientInfo()).contains(" name=jedis-resp3 ").contains(" resp=3 ");
        }
    }

    @Test
    void clientInfoHasRedisFieldsInRedisOrder() {
        try (Jedis jedis = jedis(DefaultJedisClientConfig.builder().clientName("info-fields").build())) {
            Map<String, String> fields = clientFields(jedis.clientInfo().strip());

            assertThat(fields.keySet()).containsExactlyElementsOf(CLIENT_FIELDS);
            assertThat(fields).contains(entry("id", String.valueOf(jedis.clientId())),
                    entry("laddr", "127.0.0.1:" + kvd.port()), entry("name", "info-fields"), entry("db", "0"),
                    entry("flags", "N"), entry("cmd", "client|info"), entry("user", "default"), entry("resp", "2"),
                    entry("lib-name", "jedis"));
            assertThat(fields.get("addr")).matches("127\\.0\\.0\\.1:\\d+");
            // As Redis, which runs a command in place in its query buffer: CLIENT INFO's own 26 bytes.
            assertThat(fields).contains(entry("qbuf", String.valueOf("*2\r\n$6\r\nCLIENT\r\n$4\r\nINFO\r\n".length())));
        }
    }

    @Test
    void clientListHasOneLineForEveryConnection() {
        try (Jedis first = jedis(DefaultJedisClientConfig.builder().clientName("list-first").build());
             Jedis second = jedis(DefaultJedisClientConfig.builder().clientName("list-second").build())) {
            List<Map<String, String>> lines = first.clientList().lines().map(IntrospectionTest::clientFields).toList();

            assertThat(lines).allSatisfy(line -> assertThat(line.keySet()).containsExactlyElementsOf(CLIENT_FIELDS));
            assertThat(lines).extracting(line -> line.get("name")).contains("list-first", "list-second");
            assertThat(lines).filteredOn(line -> line.get("name").equals("list-second"))
                    .extracting(line -> line.get("id")).containsExactly(String.valueOf(second.clientId()));
        }
    }

    /** redis-benchmark reads save and appendonly; managers and client libraries read databases and maxmemory. */
    @Test
    void configGetAnswersWhatToolsAskFor() {
        try (Jedis jedis = jedis(DefaultJedisClientConfig.builder().build())) {
            assertThat(jedis.configGet("databases")).containsExactly(entry("databases", "16"));
            assertThat(jedis.configGet("save")).containsExactly(entry("save", ""));
            assertThat(jedis.configGet("appendonly")).containsExactly(entry("appendonly", "no"));
            assertThat(jedis.configGet("maxmemory")).containsExactly(entry("maxmemory", "0"));
            assertThat(jedis.configGet("databases", "maxmemory")).containsOnly(entry("databases", "16"), entry("maxmemory", "0"));
        }
    }

    @Test
    void infoHasTheFieldsToolsRead() {
        withLettuce(redis -> {
            Map<String, String> info = infoFields(redis.info());

            assertThat(info).contains(entry("redis_version", "7.0.15"), entry("redis_mode", "standalone"),
                    entry("arch_bits", "64"), entry("process_id", String.valueOf(kvd.pid())),
                    entry("tcp_port", String.valueOf(kvd.port())));
            assertThat(info.get("os")).startsWith(System.getProperty("os.name"));
            assertThat(Long.parseLong(info.get("uptime_in_seconds"))).isNotNegative();
            assertThat(Long.parseLong(info.get("connected_clients"))).isPositive();
            assertThat(Long.parseLong(info.get("used_memory"))).isPositive();
            return null;
        });
    }

    @Test
    void infoKeyspaceCountsKeysAndKeysWithATtl() {
        withLettuce(redis -> {
            redis.flushall();
            assertThat(redis.info("keyspace")).isEqualTo("# Keyspace\r\n");

            redis.set("keyspace:a", "v");
            redis.set("keyspace:b", "v");
            redis.setex("keyspace:c", 100, "v");

            assertThat(redis.info("keyspace")).startsWith("# Keyspace\r\ndb0:keys=3,expires=1,avg_ttl=").endsWith("\r\n");
            return null;
        });
    }

    private static Jedis jedis(JedisClientConfig config) {
        return new Jedis(new HostAndPort("127.0.0.1", kvd.port()), config);
    }

    private static <T> T withLettuce(Function<RedisCommands<String, String>, T> test) {
        RedisClient client = RedisClient.create(RedisURI.create("127.0.0.1", kvd.port()));
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            return test.apply(connection.sync());
        } finally {
            client.shutdown();
        }
    }

    /** HELLO's RESP2 reply, alternating names and values, with bulk strings decoded. */
    private static Map<String, Object> pairs(List<?> reply) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < reply.size(); i += 2) {
            Object value = reply.get(i + 1);
            map.put(SafeEncoder.encode((byte[]) reply.get(i)), value instanceof byte[] b ? SafeEncoder.encode(b) : value);
        }
        return map;
    }

    /** One CLIENT LIST line, {@code name=value} separated by spaces, in order. */
    private static Map<String, String> clientFields(String line) {
        Map<String, String> fields = new LinkedHashMap<>();
        for (String field : line.split(" ")) {
            int eq = field.indexOf('=');
            fields.put(field.substring(0, eq), field.substring(eq + 1));
        }
        return fields;
    }

    /** INFO's {@code name:value} lines; section headers and blank lines skipped. */
    private static Map<String, String> infoFields(String info) {
        Map<String, String> fields = new LinkedHashMap<>();
        Arrays.stream(info.split("\r\n")).filter(line -> !line.isEmpty() && !line.startsWith("#")).forEach(line -> {
            int colon = line.indexOf(':');
            fields.put(line.substring(0, colon), line.substring(colon + 1));
        });
        return fields;
    }
}
