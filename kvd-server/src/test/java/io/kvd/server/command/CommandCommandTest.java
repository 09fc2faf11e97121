package io.kvd.server.command;

import io.kvd.codec.RespReply;
import io.kvd.codec.RespReplyParser;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.util.stream.Stream;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class CommandCommandTest {
    /** Redis 7.0.15's reply to COMMAND INFO get. */
    private static final String GET_INFO = "*10\r\n$3\r\nget\r\n:2\r\n*2\r\n+readonly\r\n+fast\r\n:1\r\n:1\r\n:1\r\n"
            + "*3\r\n+@read\r\n+@string\r\n+@fast\r\n*0\r\n*1\r\n*6\r\n$5\r\nflags\r\n*2\r\n+RO\r\n+access\r\n"
            + "$12\r\nbegin_search\r\n*4\r\n$4\r\ntype\r\n$5\r\nindex\r\n$4\r\nspec\r\n*2\r\n$5\r\nindex\r\n:1\r\n"
            + "$9\r\nfind_keys\r\n*4\r\n$4\r\ntype\r\n$5\r\nrange\r\n$4\r\nspec\r\n*6\r\n$7\r\nlastkey\r\n:0\r\n"
            + "$7\r\nkeystep\r\n:1\r\n$5\r\nlimit\r\n:0\r\n*0\r\n";
    /** Redis 7.0.15's reply to COMMAND DOCS get, without the name. */
    private static final String GET_DOCS = "*10\r\n$7\r\nsummary\r\n$22\r\nGet the value of a key\r\n"
            + "$5\r\nsince\r\n$5\r\n1.0.0\r\n$5\r\ngroup\r\n$6\r\nstring\r\n$10\r\ncomplexity\r\n$4\r\nO(1)\r\n"
            + "$9\r\narguments\r\n*1\r\n*6\r\n$4\r\nname\r\n$3\r\nkey\r\n$4\r\ntype\r\n$3\r\nkey\r\n"
            + "$14\r\nkey_spec_index\r\n:0\r\n";

    private final CommandFixture kvd = new CommandFixture();

    private static RespReply parse(String reply) {
        ByteBuf bytes = Unpooled.copiedBuffer(reply, StandardCharsets.UTF_8);
        try {
            RespReply parsed = RespReplyParser.parse(bytes);
            assertThat(bytes.isReadable()).as("bytes after the reply").isFalse();
            return parsed;
        } finally {
            bytes.release();
        }
    }

    private static List<RespReply> elements(String reply) {
        return ((RespReply.Array) parse(reply)).elements();
    }

    @Test
    void countIsTheNumberOfCommandsInTheTable() {
        assertThat(kvd.call("COMMAND", "COUNT")).isEqualTo(":" + CommandTable.all().size() + "\r\n");
    }

    @Test
    void infoOfACommandIsRedisOwnReply() {
        assertThat(kvd.call("COMMAND", "INFO", "GET")).isEqualTo("*1\r\n" + GET_INFO);
    }

    @Test
    void infoOfAnUnknownCommandIsNull() {
        assertThat(kvd.call("COMMAND", "INFO", "nope", "get")).isEqualTo("*2\r\n$-1\r\n" + GET_INFO);
    }

    @Test
    void infoOfASubcommand() {
        assertThat(kvd.call("COMMAND", "INFO", "client|setname")).isEqualTo("*1\r\n*10\r\n$14\r\nclient|setname\r\n:3\r\n"
                + "*3\r\n+noscript\r\n+loading\r\n+stale\r\n:0\r\n:0\r\n:0\r\n*2\r\n+@slow\r\n+@connection\r\n*0\r\n*0\r\n*0\r\n");
    }

    @Test
    void commandAloneDescribesEveryCommand() {
        assertThat(elements(kvd.call("COMMAND"))).hasSize(CommandTable.all().size());
        assertThat(kvd.call("COMMAND", "INFO")).isEqualTo(kvd.call("COMMAND"));
    }

    @Test
    void docsOfACommandIsRedisOwnReply() {
        assertThat(kvd.call("COMMAND", "DOCS", "get")).isEqualTo("*2\r\n$3\r\nget\r\n" + GET_DOCS);
    }

    @Test
    void docsLeavesUnknownCommandsOut() {
        assertThat(kvd.call("COMMAND", "DOCS", "nope")).isEqualTo("*0\r\n");
    }

    /** redis-cli sends COMMAND DOCS when it starts interactively and builds its hints from the reply. */
    @Test
    void docsWithoutNamesParsesAsNameAndDocsForEveryCommand() {
        List<RespReply> reply = elements(kvd.call("COMMAND", "DOCS"));
        assertThat(reply).hasSize(2 * CommandTable.all().size());
        for (int i = 0; i < reply.size(); i += 2) {
            assertThat(reply.get(i)).isInstanceOf(RespReply.BulkString.class);
            assertThat(reply.get(i + 1)).isInstanceOf(RespReply.Array.class);
        }
    }

    @Test
    void docsOfClientIncludeSetinfoAsRedisSevenTwoDocumentsIt() {
        assertThat(kvd.call("COMMAND", "DOCS", "client|setinfo")).contains("$5\r\nsince\r\n$5\r\n7.2.0\r\n");
    }

    @Test
    void listNamesEveryCommandFollowedByItsSubcommands() {
        List<RespReply> names = elements(kvd.call("COMMAND", "LIST"));
        assertThat(names).contains(RespReply.BulkString.of("get"), RespReply.BulkString.of("config|get"));
        assertThat(names.indexOf(RespReply.BulkString.of("config|get")))
                .isGreaterThan(names.indexOf(RespReply.BulkString.of("config")));
    }

    @Test
    void listFilteredByPatternMatchesIgnoringCase() {
        assertThat(elements(kvd.call("COMMAND", "LIST", "FILTERBY", "PATTERN", "CONFIG|[gs]et")))
                .containsExactlyInAnyOrder(RespReply.BulkString.of("config|get"), RespReply.BulkString.of("config|set"));
    }

    @Test
    void listFilteredByAclCategory() {
        assertThat(elements(kvd.call("COMMAND", "LIST", "FILTERBY", "ACLCAT", "string")))
                .containsExactly(Stream.of("get", "set", "setnx", "setex", "psetex", "getset", "getdel", "getex", "mget",
                                "mset", "msetnx", "append", "strlen", "getrange", "substr", "setrange", "incr", "decr",
                                "incrby", "decrby", "incrbyfloat", "lcs")
                        .map(RespReply.BulkString::of).toArray(RespReply[]::new));
    }

    @Test
    void listFilteredByModuleIsEmpty() {
        assertThat(kvd.call("COMMAND", "LIST", "FILTERBY", "MODULE", "json")).isEqualTo("*0\r\n");
    }

    @Test
    void listWithAnIncompleteFilterIsASyntaxError() {
        assertThat(kvd.call("COMMAND", "LIST", "FILTERBY")).isEqualTo("-ERR syntax error\r\n");
        assertThat(kvd.call("COMMAND", "LIST", "FILTERBY", "PATTERN", "a", "b")).isEqualTo("-ERR syntax error\r\n");
        assertThat(kvd.call("COMMAND", "LIST", "FILTERBY", "FOO", "a")).isEqualTo("-ERR syntax error\r\n");
    }

    @Test
    void getkeysandflagsNamesEachKeyWithItsSpecsFlags() {
        assertThat(kvd.call("COMMAND", "GETKEYSANDFLAGS", "LMOVE", "src", "dst", "LEFT", "RIGHT"))
                .isEqualTo("*2\r\n*2\r\n$3\r\nsrc\r\n*3\r\n+RW\r\n+access\r\n+delete\r\n"
                        + "*2\r\n$3\r\ndst\r\n*2\r\n+RW\r\n+insert\r\n");
    }

    @Test
    void getkeysandflagsOfSetDependsOnGet() {
        assertThat(kvd.call("COMMAND", "GETKEYSANDFLAGS", "SET", "k", "v"))
                .isEqualTo("*1\r\n*2\r\n$1\r\nk\r\n*2\r\n+OW\r\n+update\r\n");
        assertThat(kvd.call("COMMAND", "GETKEYSANDFLAGS", "SET", "k", "v", "GET"))
                .isEqualTo("*1\r\n*2\r\n$1\r\nk\r\n*3\r\n+RW\r\n+access\r\n+update\r\n");
    }

    @Test
    void getkeysOfASubcommand() {
        assertThat(kvd.call("COMMAND", "GETKEYS", "XGROUP", "CREATE", "s", "g", "$")).isEqualTo("*1\r\n$1\r\ns\r\n");
    }

    @Test
    void getkeysOfAKeyCountStringToLongRefusesIsTheGetkeysFunctions() {
        assertThat(kvd.call("COMMAND", "GETKEYS", "ZUNIONSTORE", "d", "2", "a", "b")).isEqualTo("*3\r\n$1\r\nd\r\n$1\r\na\r\n$1\r\nb\r\n");
        assertThat(kvd.call("COMMAND", "GETKEYS", "ZUNIONSTORE", "d", "2x", "a", "b")).isEqualTo("*3\r\n$1\r\na\r\n$1\r\nb\r\n$1\r\nd\r\n");
    }

    @Test
    void getkeysErrorsInRedisOrder() {
        assertThat(kvd.call("COMMAND", "GETKEYS", "nosuch", "a")).isEqualTo("-ERR Invalid command specified\r\n");
        assertThat(kvd.call("COMMAND", "GETKEYS", "xinfo", "nosuch")).isEqualTo("-ERR Invalid command specified\r\n");
        assertThat(kvd.call("COMMAND", "GETKEYS", "spublish", "ch", "m")).isEqualTo("-ERR The command has no key arguments\r\n");
        assertThat(kvd.call("COMMAND", "GETKEYS", "get", "a", "b"))
                .isEqualTo("-ERR Invalid number of arguments specified for command\r\n");
        assertThat(kvd.call("COMMAND", "GETKEYSANDFLAGS", "zunion", "0", "a"))
                .isEqualTo("-ERR Invalid arguments specified for command\r\n");
        assertThat(kvd.call("COMMAND", "GETKEYS", "eval", "x", "0")).as("no mandatory keys").isEqualTo("*0\r\n");
    }

    @Test
    void subcommandArityErrorsNameTheSubcommand() {
        assertThat(kvd.call("COMMAND", "COUNT", "x")).isEqualTo("-ERR wrong number of arguments for 'command|count' command\r\n");
    }

    @Test
    void unknownSubcommandPointsToHelp() {
        assertThat(kvd.call("COMMAND", "FOO")).isEqualTo("-ERR unknown subcommand 'FOO'. Try COMMAND HELP.\r\n");
    }
}
