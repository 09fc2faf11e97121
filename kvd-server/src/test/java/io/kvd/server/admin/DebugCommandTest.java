package io.kvd.server.admin;

import io.kvd.server.command.CommandFixture;
import io.kvd.server.config.Config;
import io.kvd.server.protocol.Args;
import io.kvd.server.config.ConfigException;
import io.kvd.server.store.Keyspace;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** DEBUG as Redis 7.0's debug.c, behind enable-debug-command. */
class DebugCommandTest {
    private static CommandFixture withDebug(String enable) throws ConfigException {
        return new CommandFixture(Config.load(null, List.of("--enable-debug-command", enable)));
    }

    @Test
    void debugIsRefusedUnlessEnableDebugCommandAllowsIt() throws ConfigException {
        assertThat(new CommandFixture().call("DEBUG", "DIGEST")).isEqualTo("-ERR DEBUG command not allowed. If the"
                + " enable-debug-command option is set to \"local\", you can run it from a local connection, otherwise you"
                + " need to set this option in the configuration file, and then restart the server.\r\n");
        // The fixture's clients come from 127.0.0.1.
        assertThat(withDebug("local").call("DEBUG", "DIGEST")).isEqualTo("+" + "0".repeat(40) + "\r\n");
    }

    @Test
    void changeReplIdMakesANewReplicationId() throws ConfigException {
        CommandFixture kvd = withDebug("yes");
        String before = kvd.server.replication().replid();
        assertThat(kvd.call("DEBUG", "CHANGE-REPL-ID")).isEqualTo("+OK\r\n");
        assertThat(kvd.server.replication().replid()).matches("[0-9a-f]{40}").isNotEqualTo(before);
    }

    @Test
    void protocolAnswersRedissTestValuesInTheirResp2Form() throws ConfigException {
        CommandFixture kvd = withDebug("yes");
        // redis-server 7.0.15's replies to a RESP2 client.
        assertThat(kvd.call("DEBUG", "PROTOCOL", "string")).isEqualTo("$11\r\nHello World\r\n");
        assertThat(kvd.call("DEBUG", "PROTOCOL", "integer")).isEqualTo(":12345\r\n");
        assertThat(kvd.call("DEBUG", "PROTOCOL", "double")).isEqualTo("$5\r\n3.141\r\n");
        assertThat(kvd.call("DEBUG", "PROTOCOL", "bignum")).isEqualTo("$37\r\n1234567999999999999999999999999999999\r\n");
        assertThat(kvd.call("DEBUG", "PROTOCOL", "null")).isEqualTo("$-1\r\n");
        assertThat(kvd.call("DEBUG", "PROTOCOL", "set")).isEqualTo("*3\r\n:0\r\n:1\r\n:2\r\n");
        assertThat(kvd.call("DEBUG", "PROTOCOL", "map")).isEqualTo("*6\r\n:0\r\n:0\r\n:1\r\n:1\r\n:2\r\n:0\r\n");
        assertThat(kvd.call("DEBUG", "PROTOCOL", "attrib")).isEqualTo("$39\r\nSome real reply following the attribute\r\n");
        assertThat(kvd.call("DEBUG", "PROTOCOL", "push")).isEqualTo("-ERR RESP2 is not supported by this command\r\n");
        assertThat(kvd.call("DEBUG", "PROTOCOL", "verbatim")).isEqualTo("$25\r\nThis is a verbatim\nstring\r\n");
        assertThat(kvd.call("DEBUG", "PROTOCOL", "true")).isEqualTo(":1\r\n");
        assertThat(kvd.call("DEBUG", "PROTOCOL", "false")).isEqualTo(":0\r\n");
        assertThat(kvd.call("DEBUG", "PROTOCOL", "nosuch")).isEqualTo("-ERR Wrong protocol type name. Please use one of"
                + " the following: string|integer|double|bignum|null|array|set|map|attrib|push|verbatim|true|false\r\n");
    }

    @Test
    void errorAnswersTheStringAsAnErrorNoStatisticCounts() throws ConfigException {
        CommandFixture kvd = withDebug("yes");
        assertThat(kvd.call("DEBUG", "ERROR", "FOO bar")).isEqualTo("-FOO bar\r\n");
        assertThat(kvd.server.errorStats().total()).isZero();
    }

    @Test
    void listpackAnswersForAListpackEncodedValueOnly() throws ConfigException {
        CommandFixture kvd = withDebug("yes");
        kvd.call("HSET", "h", "f", "v");
        kvd.call("RPUSH", "l", "a");
        assertThat(kvd.call("DEBUG", "LISTPACK", "h")).isEqualTo("+Listpack structure printed on stdout\r\n");
        assertThat(kvd.call("DEBUG", "LISTPACK", "l")).isEqualTo("-ERR Not a listpack encoded object.\r\n");
        assertThat(kvd.call("DEBUG", "LISTPACK", "nokey")).isEqualTo("-ERR no such key\r\n");
    }

    @Test
    void digestIsRedissForTheSameData() throws ConfigException {
        CommandFixture kvd = withDebug("yes");
        kvd.call("HSET", "ha", "f1", "v1");
        kvd.call("RPUSH", "l", "a", "b");
        // redis-server 7.0.15's DEBUG DIGEST and DIGEST-VALUE of the same two keys.
        assertThat(kvd.call("DEBUG", "DIGEST")).isEqualTo("+9eac5baf2e8734a708dc3835d53ecf24b9885dcd\r\n");
        assertThat(kvd.call("DEBUG", "DIGEST-VALUE", "ha", "nokey")).isEqualTo(
                "*2\r\n+75b5bdb1966cd0b6f35aac02c5c85dc8498c33b9\r\n+" + "0".repeat(40) + "\r\n");
    }

    @Test
    void objectNamesTheEncodingAndAnAddressAnInPlaceChangeKeeps() throws ConfigException {
        CommandFixture kvd = withDebug("yes");
        kvd.call("SET", "n", "20000");
        kvd.call("INCR", "n");
        String before = kvd.call("DEBUG", "OBJECT", "n");
        kvd.call("INCR", "n");
        assertThat(before).startsWith("+Value at:0x").contains(" encoding:int ");
        assertThat(kvd.call("DEBUG", "OBJECT", "n").split(" ")[1]).isEqualTo(before.split(" ")[1]);
        assertThat(kvd.call("DEBUG", "OBJECT", "nokey")).isEqualTo("-ERR no such key\r\n");
    }

    @Test
    void objectFindsAKeyPastItsDeadlineAndLeavesItWithItsIdleTime() throws ConfigException {
        CommandFixture kvd = withDebug("yes");
        kvd.call("SET", "k", "value", "PX", "1000");
        kvd.setTime(CommandFixture.START_MS + 5_000);
        // As Redis's dictFind: found, not expired by the look (a replica keeps it for its primary's DEL).
        assertThat(kvd.call("DEBUG", "OBJECT", "k")).contains(" encoding:embstr serializedlength:5 ")
                .endsWith(" lru_seconds_idle:5\r\n");
        assertThat(kvd.keyspace.holds(Args.bytes("k"), true)).isTrue();
        assertThat(kvd.call("EXISTS", "k")).isEqualTo(":0\r\n");
    }

    @Test
    void populateCreatesTheMissingKeysOnly() throws ConfigException {
        CommandFixture kvd = withDebug("yes");
        kvd.call("SET", "key:1", "mine");
        assertThat(kvd.call("DEBUG", "POPULATE", "3")).isEqualTo("+OK\r\n");
        assertThat(kvd.call("MGET", "key:0", "key:1", "key:2")).isEqualTo(
                "*3\r\n$7\r\nvalue:0\r\n$4\r\nmine\r\n$7\r\nvalue:2\r\n");
        assertThat(kvd.call("DEBUG", "POPULATE", "1", "p", "10")).isEqualTo("+OK\r\n");
        assertThat(kvd.call("GET", "p:0")).isEqualTo("$10\r\nvalue:0\0\0\0\r\n");
        assertThat(kvd.call("DEBUG", "POPULATE", "-1")).isEqualTo("-ERR value is out of range, must be positive\r\n");
    }

    @Test
    void setActiveExpireZeroLeavesExpiredKeysToLookups() throws ConfigException {
        CommandFixture kvd = withDebug("yes");
        kvd.call("SET", "k", "v", "PX", "10");
        assertThat(kvd.call("DEBUG", "SET-ACTIVE-EXPIRE", "0")).isEqualTo("+OK\r\n");
        long later = CommandFixture.START_MS + 1000;
        assertThat(kvd.server.expiryCycle().runSlow(later, 10)).isZero();
        assertThat(kvd.keyspace.sizeWithDeadline()).isEqualTo(1);
        kvd.call("DEBUG", "SET-ACTIVE-EXPIRE", "1");
        assertThat(kvd.server.expiryCycle().runSlow(later, 10)).isEqualTo(1);
        assertThat(kvd.keyspace.deadline("k".getBytes())).isEqualTo(Keyspace.MISSING);
    }

    @Test
    void anUnknownSubcommandOrArityPointsToHelp() throws ConfigException {
        CommandFixture kvd = withDebug("yes");
        assertThat(kvd.call("DEBUG", "nosuch")).isEqualTo(
                "-ERR unknown subcommand or wrong number of arguments for 'nosuch'. Try DEBUG HELP.\r\n");
        assertThat(kvd.call("DEBUG", "OBJECT")).isEqualTo(
                "-ERR unknown subcommand or wrong number of arguments for 'OBJECT'. Try DEBUG HELP.\r\n");
        assertThat(kvd.call("DEBUG", "HELP")).startsWith("*49\r\n+DEBUG <subcommand> [<arg> [value] [opt] ...]."
                + " Subcommands are:\r\n");
    }

    @Test
    void replyBufferIsCheckedAsRedisChecksItAndAccepted() throws ConfigException {
        CommandFixture kvd = withDebug("yes");
        assertThat(kvd.call("DEBUG", "REPLYBUFFER", "RESIZING", "0")).isEqualTo("+OK\r\n");
        assertThat(kvd.call("DEBUG", "replybuffer", "peak-reset-time", "never")).isEqualTo("+OK\r\n");
        assertThat(kvd.call("DEBUG", "REPLYBUFFER", "PEAK-RESET-TIME", "100")).isEqualTo("+OK\r\n");
        assertThat(kvd.call("DEBUG", "REPLYBUFFER", "PEAK-RESET-TIME", "abc"))
                .isEqualTo("-ERR value is not an integer or out of range\r\n");
        assertThat(kvd.call("DEBUG", "REPLYBUFFER", "FOO", "1")).isEqualTo(
                "-ERR unknown subcommand or wrong number of arguments for 'REPLYBUFFER'. Try DEBUG HELP.\r\n");
        assertThat(kvd.call("DEBUG", "REPLYBUFFER", "RESIZING")).isEqualTo(
                "-ERR unknown subcommand or wrong number of arguments for 'REPLYBUFFER'. Try DEBUG HELP.\r\n");
    }

    @Test
    void pauseCronStopsTheCronUntilResumed() throws ConfigException {
        CommandFixture kvd = withDebug("yes");
        assertThat(kvd.call("DEBUG", "PAUSE-CRON", "1")).isEqualTo("+OK\r\n");
        assertThat(kvd.server.isCronPaused()).isTrue();
        assertThat(kvd.call("DEBUG", "PAUSE-CRON", "0")).isEqualTo("+OK\r\n");
        assertThat(kvd.server.isCronPaused()).isFalse();
    }

    @Test
    void configRewriteForceAllWithoutAFileFailsAsRedisDoes() throws ConfigException {
        assertThat(withDebug("yes").call("DEBUG", "CONFIG-REWRITE-FORCE-ALL"))
                .isEqualTo("-ERR CONFIG-REWRITE-FORCE-ALL failed: Bad address\r\n");
    }
}
