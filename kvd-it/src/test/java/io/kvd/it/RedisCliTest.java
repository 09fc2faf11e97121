package io.kvd.it;

import io.kvd.codec.RespWriter;
import io.kvd.server.command.CommandTable;
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
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * redis-cli against kvd: one-shot commands of every family print what they print against
 * redis-server 7.0.15 (raw output, as when stdout is not a terminal); {@code --scan} finds every
 * matching key and {@code --pipe} mass insertion sees no error.
 */
@ExtendWith(ServerLogsOnFailure.class)
class RedisCliTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final int MASS_INSERTION_COMMANDS = 100_000;
    private static final int SCANNED_KEYS = 500;

    @RegisterExtension
    static final SharedKvd kvd = new SharedKvd();

    // connection

    @Test
    void pingPrintsPong() {
        assertThat(cli("ping")).isEqualTo("PONG\n");
    }

    @Test
    void echoPrintsItsArgument() {
        assertThat(cli("echo", "hello world")).isEqualTo("hello world\n");
    }

    @Test
    void selectOfDatabaseZeroPrintsOk() {
        assertThat(cli("select", "0")).isEqualTo("OK\n");
    }

    @Test
    void clientGetnameOfAnUnnamedConnectionPrintsAnEmptyLine() {
        assertThat(cli("client", "getname")).isEqualTo("\n");
    }

    // strings

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
    void mgetPrintsOneLinePerKeyAndAnEmptyLineForAMissingOne() {
        assertThat(cli("mset", "cli:mget:a", "1", "cli:mget:b", "2")).isEqualTo("OK\n");
        assertThat(cli("mget", "cli:mget:a", "cli:mget:missing", "cli:mget:b")).isEqualTo("1\n\n2\n");
    }

    @Test
    void incrPrintsTheNewValue() {
        cli("incr", "cli:counter");
        assertThat(cli("incr", "cli:counter")).isEqualTo("2\n");
    }

    @Test
    void incrbyfloatPrintsTheNewValue() {
        assertThat(cli("incrbyfloat", "cli:float", "10.5")).isEqualTo("10.5\n");
    }

    @Test
    void appendPrintsTheNewLengthAndGetrangeASlice() {
        cli("set", "cli:append", "hello");
        assertThat(cli("append", "cli:append", " world")).isEqualTo("11\n");
        assertThat(cli("getrange", "cli:append", "-5", "-1")).isEqualTo("world\n");
    }

    @Test
    void errorReplyIsPrintedFollowedByABlankLine() {
        cli("set", "cli:not-a-number", "abc");
        assertThat(cli("incr", "cli:not-a-number")).isEqualTo("ERR value is not an integer or out of range\n\n");
    }

    // keys

    @Test
    void delPrintsHowManyKeysItRemoved() {
        cli("set", "cli:del", "v");
        assertThat(cli("del", "cli:del", "cli:del-missing")).isEqualTo("1\n");
    }

    @Test
    void existsPrintsHowManyOfTheKeysExist() {
        cli("set", "cli:exists", "v");
        assertThat(cli("exists", "cli:exists", "cli:exists", "cli:exists-missing")).isEqualTo("2\n");
    }

    @Test
    void typePrintsStringOrNone() {
        cli("set", "cli:type", "v");
        assertThat(cli("type", "cli:type")).isEqualTo("string\n");
        assertThat(cli("type", "cli:type-missing")).isEqualTo("none\n");
    }

    @Test
    void renameMovesTheValue() {
        cli("set", "cli:rename:from", "v");
        assertThat(cli("rename", "cli:rename:from", "cli:rename:to")).isEqualTo("OK\n");
        assertThat(cli("get", "cli:rename:to")).isEqualTo("v\n");
    }

    @Test
    void renameOfAMissingKeyPrintsTheError() {
        assertThat(cli("rename", "cli:rename:missing", "cli:rename:other")).isEqualTo("ERR no such key\n\n");
    }

    @Test
    void keysPrintsEveryMatchingNameOnItsOwnLine() {
        cli("mset", "cli:keys:1", "v", "cli:keys:2", "v", "cli:keysx", "v");
        assertThat(cli("keys", "cli:keys:*").lines().sorted()).containsExactly("cli:keys:1", "cli:keys:2");
    }

    @Test
    void scanPrintsTheNextCursorThenTheKeys() {
        cli("set", "cli:scan:only", "v");
        // A COUNT beyond the keyspace's size visits every bucket in one call: the cursor is back to 0.
        assertThat(cli("scan", "0", "match", "cli:scan:*", "count", "1000000")).isEqualTo("0\ncli:scan:only\n");
    }

    // expiry

    @Test
    void expireatSetsTheDeadlineThatExpiretimePrints() {
        cli("set", "cli:expireat", "v");
        assertThat(cli("expireat", "cli:expireat", "4102444800")).isEqualTo("1\n");
        assertThat(cli("expiretime", "cli:expireat")).isEqualTo("4102444800\n");
        assertThat(cli("pexpiretime", "cli:expireat")).isEqualTo("4102444800000\n");
    }

    @Test
    void persistRemovesTheTtl() {
        cli("set", "cli:persist", "v", "ex", "100");
        assertThat(cli("persist", "cli:persist")).isEqualTo("1\n");
        assertThat(cli("ttl", "cli:persist")).isEqualTo("-1\n");
    }

    @Test
    void ttlOfAMissingKeyIsMinusTwo() {
        assertThat(cli("ttl", "cli:ttl-missing")).isEqualTo("-2\n");
    }

    // server

    @Test
    void configGetPrintsNameThenValue() {
        assertThat(cli("config", "get", "hz")).isEqualTo("hz\n10\n");
    }

    @Test
    void infoServerNamesTheRedisVersionAndMode() {
        assertThat(cli("info", "server")).startsWith("# Server\r\n")
                .contains("\r\nredis_version:7.0.15\r\n").contains("\r\nredis_mode:standalone\r\n");
    }

    @Test
    void dbsizePrintsANumber() {
        assertThat(cli("dbsize")).matches("\\d+\n");
    }

    @Test
    void timePrintsSecondsThenMicroseconds() {
        assertThat(cli("time")).matches("\\d{10}\n\\d{1,6}\n");
    }

    @Test
    void commandCountPrintsHowManyCommandsTheTableHas() {
        assertThat(cli("command", "count")).isEqualTo(CommandTable.all().size() + "\n");
    }

    // redis-cli's own modes

    @Test
    void scanModePrintsEveryMatchingKeyOnce() throws IOException {
        List<String> keys = new ArrayList<>();
        try (RespConnection connection = RespConnection.open(kvd.port())) {
            for (int i = 0; i < SCANNED_KEYS; i++) {
                keys.add("scanmode:" + i);
                assertThat(connection.call("MSET", "scanmode:" + i, "v", "scanmodex:" + i, "v")).isEqualTo("+OK\r\n");
            }
        }

        String printed = cli("--scan", "--pattern", "scanmode:*");

        assertThat(printed.lines()).hasSize(SCANNED_KEYS).containsExactlyInAnyOrderElementsOf(keys);
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
