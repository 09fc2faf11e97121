package io.kvd.server;

import io.kvd.codec.RespReply;
import io.kvd.codec.RespReply.BulkString;
import io.kvd.codec.RespReply.SimpleString;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;

/** The server over real TCP on an ephemeral port, in this JVM. */
class ServerTest {
    @RegisterExtension
    final TestServer kvd = new TestServer();

    private int start(String... options) throws Exception {
        return kvd.start(options);
    }

    @Test
    void pipelineOfTwentyThousandCommandsInOneWriteGetsEveryReplyInOrder() throws Exception {
        int port = start();
        ByteArrayOutputStream batch = new ByteArrayOutputStream();
        for (int i = 0; i < 10_000; i++) {
            batch.write(RespConnection.encode("SET", "key:" + i, "value:" + i));
            batch.write(RespConnection.encode("GET", "key:" + i));
        }
        try (RespConnection c = new RespConnection(port)) {
            c.send(batch.toByteArray());
            for (int i = 0; i < 10_000; i++) {
                assertThat(c.read()).isEqualTo(new SimpleString("OK"));
                assertThat(c.read()).isEqualTo(BulkString.of("value:" + i));
            }
        }
    }

    @Test
    void evalOverTheWireRunsTheScriptsCommands() throws Exception {
        int port = start();
        try (RespConnection c = new RespConnection(port)) {
            assertThat(c.call("EVAL", "redis.call('SET', KEYS[1], ARGV[1]) return redis.call('GET', KEYS[1])", "1", "k", "v"))
                    .isEqualTo(BulkString.of("v"));
        }
    }

    @Test
    void eightMegabyteValueRoundTrips() throws Exception {
        int port = start();
        byte[] value = new byte[8 * 1024 * 1024];
        Arrays.fill(value, (byte) 'x');
        value[12345] = '\r';
        value[value.length - 1] = '\n';
        try (RespConnection c = new RespConnection(port)) {
            c.send(encodeBinary("SET", "big", value));
            assertThat(c.read()).isEqualTo(new SimpleString("OK"));
            RespReply reply = c.call("GET", "big");
            assertThat(((BulkString) reply).value()).isEqualTo(value);
        }
    }

    @Test
    void sixteenClientsIncrementingOneKeyLoseNoUpdate() throws Exception {
        int port = start();
        ExecutorService pool = Executors.newFixedThreadPool(16);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < 16; t++) {
                done.add(pool.submit(() -> {
                    try (RespConnection c = new RespConnection(port)) {
                        for (int i = 0; i < 2_000; i++) {
                            assertThat(c.call("INCR", "counter")).isInstanceOf(RespReply.Integer.class);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        try (RespConnection c = new RespConnection(port)) {
            assertThat(c.call("GET", "counter")).isEqualTo(BulkString.of("32000"));
        }
    }

    @Test
    void clientThatDoesNotReadIsPausedAndStillGetsEveryReply() throws Exception {
        int port = start("--client-output-soft-limit", "64kb");
        String value = "v".repeat(1024);
        int gets = 30_000;
        try (RespConnection c = new RespConnection(port)) {
            assertThat(c.call("SET", "k", value)).isEqualTo(new SimpleString("OK"));
            c.sendWithoutReadingThenReadEach(RespConnection.encode("GET", "k"), gets, BulkString.of(value));
            assertThat(c.infoField("stats", "client_output_read_pauses")).isPositive();
        }
    }

    @Test
    void inlineCommandsWorkOverARawSocket() throws Exception {
        int port = start();
        try (RespConnection c = new RespConnection(port)) {
            c.send("PING\r\nSET greeting \"hello world\"\r\nGET greeting\r\n".getBytes(StandardCharsets.US_ASCII));
            assertThat(c.read()).isEqualTo(new SimpleString("PONG"));
            assertThat(c.read()).isEqualTo(new SimpleString("OK"));
            assertThat(c.read()).isEqualTo(BulkString.of("hello world"));
        }
    }

    @Test
    void protocolErrorIsAnsweredAndThenTheConnectionCloses() throws Exception {
        int port = start();
        try (RespConnection c = new RespConnection(port)) {
            c.send("PING\r\n*1\r\n$x\r\nPING\r\n".getBytes(StandardCharsets.US_ASCII));
            assertThat(c.read()).isEqualTo(new SimpleString("PONG"));
            assertThat(c.read()).isEqualTo(new RespReply.Error("ERR Protocol error: invalid bulk length"));
            assertThat(c.closedByServer()).isTrue();
        }
    }

    @Test
    void protoMaxBulkLenSetAtRunTimeAppliesToOpenConnections() throws Exception {
        int port = start();
        try (RespConnection c = new RespConnection(port)) {
            assertThat(c.call("CONFIG", "SET", "proto-max-bulk-len", "1mb")).isEqualTo(new SimpleString("OK"));
            c.send(("*2\r\n$4\r\nECHO\r\n$" + (1024 * 1024 + 1) + "\r\n").getBytes(StandardCharsets.US_ASCII));
            assertThat(c.read()).isEqualTo(new RespReply.Error("ERR Protocol error: invalid bulk length"));
            assertThat(c.closedByServer()).isTrue();
        }
    }

    @Test
    void quitRepliesThenCloses() throws Exception {
        int port = start();
        try (RespConnection c = new RespConnection(port)) {
            c.send("QUIT\r\nPING\r\n".getBytes(StandardCharsets.US_ASCII));
            assertThat(c.read()).isEqualTo(new SimpleString("OK"));
            assertThat(c.closedByServer()).isTrue();
        }
    }

    @Test
    void activeExpiryRemovesKeysNobodyTouches() throws Exception {
        int port = start("--hz", "100");
        try (RespConnection c = new RespConnection(port)) {
            for (int i = 0; i < 1_000; i++) {
                c.call("SET", "temp:" + i, "v", "PX", "50");
            }
            c.call("SET", "kept", "v");
            long deadline = System.nanoTime() + 10_000_000_000L;
            String keyspace;
            do {
                keyspace = ((BulkString) c.call("INFO", "keyspace")).utf8();
            } while (!keyspace.contains("db0:keys=1,") && System.nanoTime() < deadline);
            assertThat(keyspace).contains("db0:keys=1,expires=0");
            assertThat(c.infoField("stats", "expired_keys")).isEqualTo(1000);
        }
    }

    private static byte[] encodeBinary(String command, String key, byte[] value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] header = ("*3\r\n$" + command.length() + "\r\n" + command + "\r\n$" + key.length() + "\r\n" + key
                + "\r\n$" + value.length + "\r\n").getBytes(StandardCharsets.US_ASCII);
        out.writeBytes(header);
        out.writeBytes(value);
        out.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
        return out.toByteArray();
    }
}
