package io.kvd.server.command;

import io.kvd.server.config.Config;
import io.kvd.server.protocol.Args;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;

import static io.kvd.server.command.CommandFixture.bulk;
import static io.kvd.server.command.CommandFixture.integer;
import static io.kvd.server.command.CommandFixture.record;
import static org.assertj.core.api.Assertions.assertThat;

class PersistenceCommandsTest {
    /** redis-server 7.0.15's DUMP of the string "bar". */
    private static final String BAR = "00036261720a00e6be4960ee66fd17";

    @TempDir
    Path dir;

    private CommandFixture kvd() throws Exception {
        return new CommandFixture(Config.load(null, List.of("--dir", dir.toString(), "--enable-debug-command", "yes")));
    }

    /** RESTORE with a binary payload, through the table as the decoder would hand it over. */
    private static String restore(CommandFixture kvd, String key, String ttl, byte[] payload, String... options) {
        byte[][] argv = new byte[4 + options.length][];
        argv[0] = Args.bytes("RESTORE");
        argv[1] = Args.bytes(key);
        argv[2] = Args.bytes(ttl);
        argv[3] = payload;
        for (int i = 0; i < options.length; i++) {
            argv[4 + i] = Args.bytes(options[i]);
        }
        kvd.commands.call(kvd.client, argv);
        return kvd.pending(kvd.client);
    }

    @Test
    void dumpOfAStringIsRedisPayloadAndOfAMissingKeyNull() throws Exception {
        CommandFixture kvd = kvd();
        kvd.call("SET", "foo", "bar");
        byte[] reply = kvd.callRaw("DUMP", "foo");
        byte[] payload = HexFormat.of().parseHex(BAR);
        assertThat(new String(reply, StandardCharsets.ISO_8859_1))
                .isEqualTo("$" + payload.length + "\r\n" + new String(payload, StandardCharsets.ISO_8859_1) + "\r\n");
        assertThat(kvd.call("DUMP", "nosuch")).isEqualTo("$-1\r\n");
    }

    @Test
    void restoreSetsTheIdleTimeOrTheFrequencyThePolicyReads() throws Exception {
        CommandFixture kvd = kvd();
        byte[] payload = HexFormat.of().parseHex(BAR);
        kvd.call("CONFIG", "SET", "maxmemory-policy", "allkeys-lru");
        assertThat(restore(kvd, "idle", "0", payload, "IDLETIME", "1000")).isEqualTo("+OK\r\n");
        assertThat(kvd.call("OBJECT", "IDLETIME", "idle")).isEqualTo(integer(1000));
        kvd.call("CONFIG", "SET", "maxmemory-policy", "allkeys-lfu");
        assertThat(restore(kvd, "hot", "0", payload, "FREQ", "100")).isEqualTo("+OK\r\n");
        assertThat(kvd.call("OBJECT", "FREQ", "hot")).isEqualTo(integer(100));
        assertThat(kvd.call("GET", "hot")).isEqualTo(bulk("bar"));
    }

    @Test
    void restoreRefusesAsRedisDoesInItsOrder() throws Exception {
        CommandFixture kvd = kvd();
        byte[] payload = HexFormat.of().parseHex(BAR);
        kvd.call("SET", "taken", "v");
        assertThat(restore(kvd, "taken", "0", payload)).isEqualTo("-BUSYKEY Target key name already exists.\r\n");
        assertThat(restore(kvd, "k", "-1", payload)).isEqualTo("-ERR Invalid TTL value, must be >= 0\r\n");
        assertThat(restore(kvd, "k", "x", payload)).isEqualTo("-ERR value is not an integer or out of range\r\n");
        assertThat(restore(kvd, "k", "0", payload, "IDLETIME", "-1")).isEqualTo("-ERR Invalid IDLETIME value, must be >= 0\r\n");
        assertThat(restore(kvd, "k", "0", payload, "FREQ", "256"))
                .isEqualTo("-ERR Invalid FREQ value, must be >= 0 and <= 255\r\n");
        assertThat(restore(kvd, "k", "0", payload, "FREQ", "1", "IDLETIME", "1")).isEqualTo("-ERR syntax error\r\n");
        byte[] corrupt = payload.clone();
        corrupt[2] ^= 1;
        assertThat(restore(kvd, "k", "0", corrupt)).isEqualTo("-ERR DUMP payload version or checksum are wrong\r\n");
        // A valid footer over a body that is no value: a set claiming a member it does not hold.
        byte[] body = {2, 1};
        byte[] bad = new byte[body.length + 10];
        System.arraycopy(body, 0, bad, 0, body.length);
        bad[body.length] = 10;
        long crc = io.kvd.server.rdb.Crc64.of(bad, body.length + 2);
        for (int i = 0; i < 8; i++) {
            bad[body.length + 2 + i] = (byte) (crc >>> (8 * i));
        }
        assertThat(restore(kvd, "k", "0", bad)).isEqualTo("-ERR Bad data format\r\n");
        assertThat(kvd.call("EXISTS", "k")).isEqualTo(integer(0));
    }

    @Test
    void restoreWithARelativeTtlIsLoggedAsAbsoluteWithAbsttl() throws Exception {
        CommandFixture kvd = kvd();
        kvd.server.commandLog().setEnabled(true);
        assertThat(restore(kvd, "k", "5000", HexFormat.of().parseHex(BAR))).isEqualTo("+OK\r\n");
        assertThat(kvd.call("GET", "k")).isEqualTo(bulk("bar"));
        assertThat(kvd.call("PEXPIRETIME", "k")).isEqualTo(integer(CommandFixture.START_MS + 5000));
        String logged = kvd.logged();
        assertThat(logged).startsWith(record("SELECT", "0") + "*5\r\n$7\r\nRESTORE\r\n$1\r\nk\r\n"
                + bulk(Long.toString(CommandFixture.START_MS + 5000))).endsWith(bulk("ABSTTL"));
    }

    @Test
    void restoreOfAKeyAlreadyExpiredReplacingOneDeletesItAndLogsDel() throws Exception {
        CommandFixture kvd = kvd();
        kvd.call("SET", "k", "old");
        kvd.server.commandLog().setEnabled(true);
        assertThat(restore(kvd, "k", "1", HexFormat.of().parseHex(BAR), "ABSTTL", "REPLACE")).isEqualTo("+OK\r\n");
        assertThat(kvd.call("EXISTS", "k")).isEqualTo(integer(0));
        assertThat(kvd.logged()).isEqualTo(record("SELECT", "0") + record("DEL", "k"));
    }

    @Test
    void saveWritesDumpRdbAndDebugReloadLoadsItBack() throws Exception {
        CommandFixture kvd = kvd();
        kvd.call("SET", "s", "v");
        kvd.call("RPUSH", "l", "a", "b");
        kvd.call("SELECT", "3");
        kvd.call("ZADD", "z", "1.5", "m");
        assertThat(kvd.call("SAVE")).isEqualTo("+OK\r\n");
        assertThat(Files.exists(dir.resolve("dump.rdb"))).isTrue();
        assertThat(kvd.call("INFO", "persistence")).contains("rdb_changes_since_last_save:0\r\n", "rdb_saves:1\r\n");
        kvd.call("SET", "later", "x");
        assertThat(kvd.call("DEBUG", "RELOAD", "NOSAVE")).isEqualTo("+OK\r\n");
        assertThat(kvd.call("EXISTS", "later")).isEqualTo(integer(0));
        assertThat(kvd.call("ZSCORE", "z", "m")).isEqualTo(bulk("1.5"));
        kvd.call("SELECT", "0");
        assertThat(kvd.call("LRANGE", "l", "0", "-1")).isEqualTo("*2\r\n" + bulk("a") + bulk("b"));
        assertThat(kvd.call("DEBUG", "RELOAD", "NOFLUSH")).isEqualTo(
                "-ERR Error trying to load the RDB dump, check server logs.\r\n");
        assertThat(kvd.call("DEBUG", "RELOAD", "NOFLUSH", "MERGE")).isEqualTo("+OK\r\n");
        assertThat(kvd.call("DEBUG", "RELOAD", "SOON")).isEqualTo(
                "-ERR DEBUG RELOAD only supports the MERGE, NOFLUSH and NOSAVE options.\r\n");
    }

    @Test
    void saveThatCannotWriteAnswersErrAndLastsaveStays() throws Exception {
        CommandFixture kvd = kvd();
        String before = kvd.call("LASTSAVE");
        Files.createDirectory(dir.resolve("temp-" + ProcessHandle.current().pid() + ".rdb"));
        assertThat(kvd.call("SAVE")).isEqualTo("-ERR\r\n");
        assertThat(kvd.call("LASTSAVE")).isEqualTo(before);
    }

    @Test
    void bgsaveTakesOnlyScheduleAndSaveIsRefusedInMulti() throws Exception {
        CommandFixture kvd = kvd();
        assertThat(kvd.call("BGSAVE", "NOW")).isEqualTo("-ERR syntax error\r\n");
        assertThat(kvd.call("BGSAVE", "SCHEDULE", "X")).isEqualTo("-ERR syntax error\r\n");
        kvd.call("MULTI");
        assertThat(kvd.call("SAVE")).isEqualTo("-ERR Command not allowed inside a transaction\r\n");
    }
}
