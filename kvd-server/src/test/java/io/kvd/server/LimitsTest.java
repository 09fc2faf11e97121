package io.kvd.server;

import io.kvd.codec.RespReply;
import io.kvd.codec.RespReply.SimpleString;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** Every client limit over real TCP: the offender is refused or closed, everyone else is served. */
class LimitsTest {
    @RegisterExtension
    final TestServer kvd = new TestServer();

    @Test
    void connectionBeyondMaxclientsGetsTheErrorAndIsClosed() throws Exception {
        int port = kvd.start("--maxclients", "2");
        try (RespConnection first = new RespConnection(port); RespConnection second = new RespConnection(port)) {
            assertThat(first.call("PING")).isEqualTo(new SimpleString("PONG"));
            assertThat(second.call("PING")).isEqualTo(new SimpleString("PONG"));
            try (RespConnection third = new RespConnection(port)) {
                assertThat(third.read()).isEqualTo(new RespReply.Error("ERR max number of clients reached"));
                assertThat(third.closedByServer()).isTrue();
            }
            assertThat(first.infoField("stats", "rejected_connections")).isEqualTo(1);
        }
    }

    @Test
    void idleClientIsClosedAfterTimeout() throws Exception {
        int port = kvd.start("--timeout", "1", "--hz", "100");
        try (RespConnection idle = new RespConnection(port)) {
            assertThat(idle.call("PING")).isEqualTo(new SimpleString("PONG"));
            assertThat(idle.closedByServer()).as("closed by the cron within the read timeout").isTrue();
        }
    }

    @Test
    void replyPastTheHardOutputLimitClosesTheClient() throws Exception {
        int port = kvd.start("--client-output-buffer-limit", "normal 64kb 0 0");
        try (RespConnection c = new RespConnection(port); RespConnection observer = new RespConnection(port)) {
            assertThat(c.call("SET", "big", "x".repeat(100_000))).isEqualTo(new SimpleString("OK"));
            c.sendCommand("GET", "big");
            assertThat(c.closedByServer()).isTrue();
            assertThat(observer.infoField("stats", "client_output_buffer_limit_disconnections")).isEqualTo(1);
        }
    }

    @Test
    void commandGrowingPastTheQueryBufferLimitClosesTheClient() throws Exception {
        int port = kvd.start("--client-query-buffer-limit", "1mb");
        try (RespConnection c = new RespConnection(port); RespConnection observer = new RespConnection(port)) {
            c.send(("*2\r\n$3\r\nSET\r\n$" + 4 * 1024 * 1024 + "\r\n").getBytes(StandardCharsets.US_ASCII));
            byte[] chunk = new byte[64 * 1024];
            assertThat(sendUntilClosed(c, chunk, 2 * 1024 * 1024 / chunk.length)).isTrue();
            assertThat(observer.infoField("stats", "client_query_buffer_limit_disconnections")).isEqualTo(1);
        }
    }

    @Test
    void clientThatHasNotAuthenticatedMaySendOnlySmallRequests() throws Exception {
        int port = kvd.start("--requirepass", "secret");
        try (RespConnection c = new RespConnection(port)) {
            c.send("*11\r\n".getBytes(StandardCharsets.US_ASCII));
            assertThat(c.read()).isEqualTo(new RespReply.Error("ERR Protocol error: unauthenticated multibulk length"));
            assertThat(c.closedByServer()).isTrue();
        }
        try (RespConnection c = new RespConnection(port)) {
            assertThat(c.call("AUTH", "secret")).isEqualTo(new SimpleString("OK"));
            String[] elevenArguments = {"MSET", "a", "1", "b", "2", "c", "3", "d", "4", "e", "5"};
            assertThat(c.call(elevenArguments)).isEqualTo(new SimpleString("OK"));
        }
    }

    /** Writes {@code chunk} up to {@code times} times; true if the server closed the connection by then. */
    private static boolean sendUntilClosed(RespConnection c, byte[] chunk, int times) {
        try {
            for (int i = 0; i < times; i++) {
                c.send(chunk);
            }
            return c.closedByServer();
        } catch (IOException closed) {
            return true;
        }
    }
}
