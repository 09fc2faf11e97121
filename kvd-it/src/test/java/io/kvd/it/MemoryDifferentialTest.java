package io.kvd.it;

import io.kvd.codec.RespReply;
import io.kvd.codec.RespReplyParser;
import io.kvd.it.support.RespConnection;
import io.kvd.it.support.ServerLogsOnFailure;
import io.kvd.it.support.ServerPair;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * MEMORY's measurements against redis-server's: the figures differ (kvd's are the JVM's heap and
 * its store's estimate), so what must match is the shape: MEMORY STATS's field names, their order
 * and each value's type, and MEMORY USAGE's integer for every type of value. The replies that are
 * not measurements are byte for byte in compat/memory.txt.
 */
@ExtendWith(ServerLogsOnFailure.class)
class MemoryDifferentialTest {
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
    void statsHaveRedisFieldsInOrderWithValuesOfRedisTypes() throws IOException {
        String redis = statsShape(servers.redis().port());
        String kvd = statsShape(servers.kvd().port());
        assertThat(kvd).isEqualTo(redis);
        assertThat(kvd).contains("db.0=[overhead.hashtable.main=integer", "db.5=[", "dataset.percentage=bulk");
    }

    @Test
    void usageIsAPositiveIntegerForEveryTypeAndEncoding() throws IOException {
        for (int port : new int[] {servers.redis().port(), servers.kvd().port()}) {
            try (RespConnection connection = RespConnection.open(port)) {
                fill(connection);
                for (String key : List.of("string", "int", "hash", "bighash", "set", "intset", "bigset", "list",
                        "biglist", "zset", "bigzset", "stream")) {
                    RespReply usage = parse(connection.call("MEMORY", "USAGE", key));
                    assertThat(usage).as(key + " on port " + port).isInstanceOf(RespReply.Integer.class);
                    assertThat(((RespReply.Integer) usage).value()).as(key).isPositive();
                    assertThat(parse(connection.call("MEMORY", "USAGE", key, "SAMPLES", "0")))
                            .isInstanceOf(RespReply.Integer.class);
                }
            }
        }
    }

    private static void fill(RespConnection connection) throws IOException {
        connection.call("SET", "string", "a string value");
        connection.call("SET", "int", "12345");
        connection.call("HSET", "hash", "f", "v");
        connection.call("SADD", "set", "a", "b");
        connection.call("SADD", "intset", "1", "2");
        connection.call("RPUSH", "list", "a", "b");
        connection.call("ZADD", "zset", "1", "a");
        connection.call("XADD", "stream", "1-1", "f", "v");
        connection.call("XGROUP", "CREATE", "stream", "g", "0");
        connection.call("XREADGROUP", "GROUP", "g", "alice", "STREAMS", "stream", ">");
        for (int i = 0; i < 600; i++) {
            connection.call("HSET", "bighash", "field" + i, "value" + i);
            connection.call("SADD", "bigset", "member" + i);
            connection.call("RPUSH", "biglist", "element" + i);
            connection.call("ZADD", "bigzset", String.valueOf(i), "member" + i);
        }
    }

    private static String statsShape(int port) throws IOException {
        try (RespConnection connection = RespConnection.open(port)) {
            connection.call("SET", "a", "1");
            connection.call("SELECT", "5");
            connection.call("SET", "b", "2", "EX", "100");
            return shape(parse(connection.call("MEMORY", "STATS")));
        }
    }

    /** A map's field names in order, each with its value's type (a nested map's shape in brackets). */
    private static String shape(RespReply reply) {
        List<RespReply> elements = ((RespReply.Array) reply).elements();
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < elements.size(); i += 2) {
            out.append(((RespReply.BulkString) elements.get(i)).utf8()).append('=');
            RespReply value = elements.get(i + 1);
            out.append(value instanceof RespReply.Array ? "[" + shape(value) + "]"
                    : value instanceof RespReply.Integer ? "integer" : "bulk").append(i + 2 < elements.size() ? "," : "");
        }
        return out.toString();
    }

    private static RespReply parse(String reply) {
        return RespReplyParser.parse(Unpooled.wrappedBuffer(reply.getBytes(StandardCharsets.UTF_8)));
    }
}
