package io.kvd.it;

import io.kvd.codec.RespWriter;
import io.kvd.it.support.RespConnection;
import io.kvd.it.support.ServerLogsOnFailure;
import io.kvd.it.support.SharedKvd;
import io.kvd.it.support.Tools;
import io.kvd.it.support.WorkDir;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * redis-cli against kvd: one-shot commands print what they print against redis-server 7.0.15 (raw
 * output, as when stdout is not a terminal), and {@code --pipe} mass insertion sees no error.
 */
@ExtendWith(ServerLogsOnFailure.class)
class RedisCliTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final int MASS_INSERTION_COMMANDS = 100_000;

    @RegisterExtension
    static final SharedKvd kvd = new SharedKvd();

    @Test
    void setPrintsOk() {
        assertThat(cli("set", "cli:set", "v")).isEqualTo("OK\n");
    }

    @Test
    void getPrintsTheValue() {
        cli("set", "cli:get", "hello world");
        assertThat(cli("get", "cli:get")).isEqualTo("hello world\n");
    }

    @Test
    void getOfMissingKeyPrintsAnEmptyLine() {
        assertThat(cli("get", "cli:missing")).isEqualTo("\n");
    }

    @Test
    void incrPrintsTheNewValue() {
        cli("incr", "cli:counter");
        assertThat(cli("incr", "cli:counter")).isEqualTo("2\n");
    }

    @Test
    void delPrintsHowManyKeysItRemoved() {
        cli("set", "cli:del", "v");
        assertThat(cli("del", "cli:del", "cli:del-missing")).isEqualTo("1\n");
    }

    @Test
    void errorReplyIsPrintedFollowedByABlankLine() {
        cli("set", "cli:not-a-number", "abc");
        assertThat(cli("incr", "cli:not-a-number")).isEqualTo("ERR value is not an integer or out of range\n\n");
    }

    @Test
    void pipeInsertsEveryCommandWithoutErrors() throws IOException {
        Path commands = WorkDir.create("pipe").resolve("commands.resp");
        writeMassInsertion(commands);

        Tools.Result result = Tools.run(TIMEOUT, commands, "redis-cli", "-p", String.valueOf(kvd.port()), "--pipe");

        assertThat(result.exitCode()).as("%s", result).isZero();
        assertThat(result.stdout()).isEqualTo("""
                All data transferred. Waiting for the last reply...
                Last reply received from server.
                errors: 0, replies: %d
                """.formatted(MASS_INSERTION_COMMANDS));
        try (RespConnection connection = RespConnection.open(kvd.port())) {
            assertThat(connection.call("GET", "pipe:" + (MASS_INSERTION_COMMANDS - 1)))
                    .isEqualTo("$11\r\nvalue:99999\r\n");
        }
    }

    /** {@code SET pipe:<i> value:<i>} for every i, as RESP requests: the input redis-cli --pipe expects. */
    private static void writeMassInsertion(Path file) throws IOException {
        ByteBuf request = Unpooled.buffer();
        try (OutputStream out = Files.newOutputStream(file)) {
            for (int i = 0; i < MASS_INSERTION_COMMANDS; i++) {
                request.clear();
                RespWriter.writeCommand(request, bytes("SET"), bytes("pipe:" + i), bytes("value:" + i));
                request.readBytes(out, request.readableBytes());
            }
        } finally {
            request.release();
        }
    }

    /** Runs {@code redis-cli -p <kvd> args...} and returns what it printed; it must exit 0. */
    private static String cli(String... args) {
        String[] withPort = new String[args.length + 2];
        withPort[0] = "-p";
        withPort[1] = String.valueOf(kvd.port());
        System.arraycopy(args, 0, withPort, 2, args.length);
        Tools.Result result = Tools.run(TIMEOUT, null, "redis-cli", withPort);
        assertThat(result.exitCode()).as("%s", result).isZero();
        return result.stdout();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
