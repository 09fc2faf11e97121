package io.kvd.server.command;

import io.kvd.codec.RespReply;
import io.kvd.codec.RespReplyParser;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** Replies checked against redis-server 7.0.15. */
class KeyCommandsTest {
    private final CommandFixture kvd = new CommandFixture();

    private void set(String... keys) {
        for (String key : keys) {
            assertThat(kvd.call("SET", key, "v:" + key)).isEqualTo("+OK\r\n");
        }
    }

    private void expireAfterOneMs(String key) {
        assertThat(kvd.call("PEXPIRE", key, "1")).isEqualTo(":1\r\n");
        kvd.setTime(CommandFixture.START_MS + 2);
    }

    private static List<RespReply> elements(String reply) {
        RespReply parsed = RespReplyParser.parse(Unpooled.copiedBuffer(reply, StandardCharsets.UTF_8));
        return ((RespReply.Array) parsed).elements();
    }

    private static Set<String> keysOf(List<RespReply> bulks) {
        Set<String> keys = new HashSet<>();
        for (RespReply bulk : bulks) {
            keys.add(((RespReply.BulkString) bulk).utf8());
        }
        return keys;
    }

    /** Runs SCAN from cursor 0 until the cursor comes back to 0, collecting every key returned. */
    private Set<String> scanAll(String... options) {
        Set<String> keys = new HashSet<>();
        String cursor = "0";
        do {
            String[] argv = new String[2 + options.length];
            argv[0] = "SCAN";
            argv[1] = cursor;
            System.arraycopy(options, 0, argv, 2, options.length);
            List<RespReply> reply = elements(kvd.call(argv));
            cursor = ((RespReply.BulkString) reply.get(0)).utf8();
            keys.addAll(keysOf(((RespReply.Array) reply.get(1)).elements()));
        } while (!cursor.equals("0"));
        return keys;
    }

    @Test
    void delRemovesExistingKeysAndCountsThem() {
        set("a", "b");
        assertThat(kvd.call("DEL", "a", "b", "c")).isEqualTo(":2\r\n");
        assertThat(kvd.call("EXISTS", "a", "b")).isEqualTo(":0\r\n");
    }

    @Test
    void delCountsARepeatedKeyOnce() {
        set("a");
        assertThat(kvd.call("DEL", "a", "a")).isEqualTo(":1\r\n");
    }

    @Test
    void delOfAnExpiredKeyCountsNothing() {
        set("a");
        expireAfterOneMs("a");
        assertThat(kvd.call("DEL", "a")).isEqualTo(":0\r\n");
    }

    @Test
    void unlinkRemovesLikeDel() {
        set("a", "b");
        assertThat(kvd.call("UNLINK", "a", "b", "a", "c")).isEqualTo(":2\r\n");
        assertThat(kvd.call("EXISTS", "a", "b")).isEqualTo(":0\r\n");
    }

    @Test
    void existsCountsARepeatedKeyEachTime() {
        set("a");
        assertThat(kvd.call("EXISTS", "a", "a", "missing")).isEqualTo(":2\r\n");
    }

    @Test
    void existsDoesNotSeeAnExpiredKey() {
        set("a");
        expireAfterOneMs("a");
        assertThat(kvd.call("EXISTS", "a")).isEqualTo(":0\r\n");
    }

    @Test
    void touchCountsExistingKeysLikeExists() {
        set("a");
        assertThat(kvd.call("TOUCH", "a", "a", "missing")).isEqualTo(":2\r\n");
    }

    @Test
    void typeIsStringForAKeyAndNoneForAMissingOne() {
        set("a");
        assertThat(kvd.call("TYPE", "a")).isEqualTo("+string\r\n");
        assertThat(kvd.call("TYPE", "missing")).isEqualTo("+none\r\n");
    }

    @Test
    void renameMovesTheValueAndReplacesTheTarget() {
        set("a", "b");
        assertThat(kvd.call("RENAME", "a", "b")).isEqualTo("+OK\r\n");
        assertThat(kvd.call("GET", "b")).isEqualTo("$3\r\nv:a\r\n");
        assertThat(kvd.call("EXISTS", "a")).isEqualTo(":0\r\n");
    }

    @Test
    void renameOfAMissingKeyIsNoSuchKeyEvenOntoItself() {
        assertThat(kvd.call("RENAME", "missing", "x")).isEqualTo("-ERR no such key\r\n");
        assertThat(kvd.call("RENAME", "missing", "missing")).isEqualTo("-ERR no such key\r\n");
        assertThat(kvd.call("RENAMENX", "missing", "x")).isEqualTo("-ERR no such key\r\n");
    }

    @Test
    void renameOntoItselfIsOkAndKeepsTheKey() {
        set("a");
        assertThat(kvd.call("PEXPIRE", "a", "5000")).isEqualTo(":1\r\n");
        assertThat(kvd.call("RENAME", "a", "a")).isEqualTo("+OK\r\n");
        assertThat(kvd.call("GET", "a")).isEqualTo("$3\r\nv:a\r\n");
        assertThat(kvd.call("PTTL", "a")).isEqualTo(":5000\r\n");
    }

    @Test
    void renameCarriesTheTtlAlong() {
        set("a");
        assertThat(kvd.call("PEXPIRE", "a", "5000")).isEqualTo(":1\r\n");
        assertThat(kvd.call("RENAME", "a", "b")).isEqualTo("+OK\r\n");
        assertThat(kvd.call("PTTL", "b")).isEqualTo(":5000\r\n");
    }

    @Test
    void renameDropsTheTargetsOwnTtl() {
        set("a", "b");
        assertThat(kvd.call("EXPIRE", "b", "100")).isEqualTo(":1\r\n");
        assertThat(kvd.call("RENAME", "a", "b")).isEqualTo("+OK\r\n");
        assertThat(kvd.call("TTL", "b")).isEqualTo(":-1\r\n");
    }

    @Test
    void renameOfAnExpiredKeyIsNoSuchKey() {
        set("a");
        expireAfterOneMs("a");
        assertThat(kvd.call("RENAME", "a", "b")).isEqualTo("-ERR no such key\r\n");
    }

    @Test
    void renamenxRenamesOntoAMissingKey() {
        set("a");
        assertThat(kvd.call("RENAMENX", "a", "b")).isEqualTo(":1\r\n");
        assertThat(kvd.call("GET", "b")).isEqualTo("$3\r\nv:a\r\n");
        assertThat(kvd.call("EXISTS", "a")).isEqualTo(":0\r\n");
    }

    @Test
    void renamenxLeavesBothKeysWhenTheTargetExists() {
        set("a", "b");
        assertThat(kvd.call("RENAMENX", "a", "b")).isEqualTo(":0\r\n");
        assertThat(kvd.call("GET", "a")).isEqualTo("$3\r\nv:a\r\n");
        assertThat(kvd.call("GET", "b")).isEqualTo("$3\r\nv:b\r\n");
    }

    @Test
    void renamenxOntoItselfIsZero() {
        set("a");
        assertThat(kvd.call("RENAMENX", "a", "a")).isEqualTo(":0\r\n");
    }

    @Test
    void keysReturnsTheMatchingKeys() {
        set("user:1", "user:2", "order:1");
        assertThat(kvd.call("KEYS", "order:*")).isEqualTo("*1\r\n$7\r\norder:1\r\n");
        assertThat(keysOf(elements(kvd.call("KEYS", "user:?")))).containsExactlyInAnyOrder("user:1", "user:2");
        assertThat(kvd.call("KEYS", "none*")).isEqualTo("*0\r\n");
    }

    @Test
    void keysStarListsTheEmptyKeyButDoubleStarDoesNot() {
        set("");
        assertThat(kvd.call("KEYS", "*")).isEqualTo("*1\r\n$0\r\n\r\n");
        assertThat(kvd.call("KEYS", "**")).isEqualTo("*0\r\n");
    }

    @Test
    void keysSkipsExpiredKeys() {
        set("a", "b");
        expireAfterOneMs("a");
        assertThat(kvd.call("KEYS", "*")).isEqualTo("*1\r\n$1\r\nb\r\n");
    }

    @Test
    void scanOfASmallKeyspaceReturnsCursorZeroAsABulkString() {
        set("a");
        assertThat(kvd.call("SCAN", "0")).isEqualTo("*2\r\n$1\r\n0\r\n*1\r\n$1\r\na\r\n");
    }

    @Test
    void scanFromZeroToZeroReturnsEveryKey() {
        Set<String> expected = new HashSet<>();
        for (int i = 0; i < 1000; i++) {
            set("key:" + i);
            expected.add("key:" + i);
        }
        assertThat(scanAll()).isEqualTo(expected);
        assertThat(scanAll("COUNT", "3")).isEqualTo(expected);
    }

    @Test
    void scanCountBoundsOneCall() {
        for (int i = 0; i < 1000; i++) {
            set("key:" + i);
        }
        List<RespReply> reply = elements(kvd.call("SCAN", "0", "COUNT", "1"));
        assertThat(((RespReply.BulkString) reply.get(0)).utf8()).isNotEqualTo("0");
        assertThat(((RespReply.Array) reply.get(1)).elements()).hasSizeLessThan(20);
    }

    @Test
    void scanMatchFiltersKeys() {
        for (int i = 0; i < 100; i++) {
            set("user:" + i, "order:" + i);
        }
        Set<String> users = scanAll("MATCH", "user:*");
        assertThat(users).hasSize(100).allMatch(key -> key.startsWith("user:"));
    }

    @Test
    void scanTypeStringMatchesInAnyCaseAndOtherTypesMatchNothing() {
        set("a");
        assertThat(kvd.call("SCAN", "0", "TYPE", "STRING")).isEqualTo("*2\r\n$1\r\n0\r\n*1\r\n$1\r\na\r\n");
        assertThat(kvd.call("SCAN", "0", "TYPE", "list")).isEqualTo("*2\r\n$1\r\n0\r\n*0\r\n");
        assertThat(kvd.call("SCAN", "0", "TYPE", "nosuchtype")).isEqualTo("*2\r\n$1\r\n0\r\n*0\r\n");
    }

    @Test
    void scanSkipsExpiredKeysAndRemovesThemAsRedisExpireIfNeeded() {
        set("a", "b");
        expireAfterOneMs("a");
        assertThat(kvd.call("DBSIZE")).isEqualTo(":2\r\n");
        assertThat(kvd.call("SCAN", "0")).isEqualTo("*2\r\n$1\r\n0\r\n*1\r\n$1\r\nb\r\n");
        assertThat(kvd.call("DBSIZE")).isEqualTo(":1\r\n");
    }

    @Test
    void scanCursorIsReadAsStrtoulDoes() {
        String done = "*2\r\n$1\r\n0\r\n*0\r\n";
        assertThat(kvd.call("SCAN", "-1")).isEqualTo(done);
        assertThat(kvd.call("SCAN", "")).isEqualTo(done);
        assertThat(kvd.call("SCAN", "+5")).isEqualTo(done);
        assertThat(kvd.call("SCAN", "007")).isEqualTo(done);
        assertThat(kvd.call("SCAN", "18446744073709551615")).isEqualTo(done);
        assertThat(kvd.call("SCAN", "-18446744073709551615")).isEqualTo(done);
    }

    @Test
    void scanRejectsCursorsStrtoulWouldNotReadWhole() {
        String invalid = "-ERR invalid cursor\r\n";
        assertThat(kvd.call("SCAN", "abc")).isEqualTo(invalid);
        assertThat(kvd.call("SCAN", " 5")).isEqualTo(invalid);
        assertThat(kvd.call("SCAN", "5 ")).isEqualTo(invalid);
        assertThat(kvd.call("SCAN", "+")).isEqualTo(invalid);
        assertThat(kvd.call("SCAN", "18446744073709551616")).isEqualTo(invalid);
    }

    @Test
    void scanChecksTheCursorBeforeTheOptions() {
        assertThat(kvd.call("SCAN", "abc", "foo")).isEqualTo("-ERR invalid cursor\r\n");
    }

    @Test
    void scanCountBelowOneIsASyntaxError() {
        assertThat(kvd.call("SCAN", "0", "COUNT", "0")).isEqualTo("-ERR syntax error\r\n");
        assertThat(kvd.call("SCAN", "0", "COUNT", "-1")).isEqualTo("-ERR syntax error\r\n");
    }

    @Test
    void scanCountMustBeAnInteger() {
        assertThat(kvd.call("SCAN", "0", "COUNT", "abc")).isEqualTo("-ERR value is not an integer or out of range\r\n");
    }

    @Test
    void scanUnknownOrIncompleteOptionIsASyntaxError() {
        assertThat(kvd.call("SCAN", "0", "foo")).isEqualTo("-ERR syntax error\r\n");
        assertThat(kvd.call("SCAN", "0", "MATCH")).isEqualTo("-ERR syntax error\r\n");
    }

    @Test
    void randomkeyOfAnEmptyKeyspaceIsNullBulk() {
        assertThat(kvd.call("RANDOMKEY")).isEqualTo("$-1\r\n");
    }

    @Test
    void randomkeyReturnsTheOnlyLiveKey() {
        set("a", "b");
        expireAfterOneMs("a");
        assertThat(kvd.call("RANDOMKEY")).isEqualTo("$1\r\nb\r\n");
    }

    @Test
    void keyCommandsCheckTheirArity() {
        assertThat(kvd.call("DEL")).isEqualTo("-ERR wrong number of arguments for 'del' command\r\n");
        assertThat(kvd.call("RENAME", "a")).isEqualTo("-ERR wrong number of arguments for 'rename' command\r\n");
        assertThat(kvd.call("TYPE", "a", "b")).isEqualTo("-ERR wrong number of arguments for 'type' command\r\n");
        assertThat(kvd.call("KEYS")).isEqualTo("-ERR wrong number of arguments for 'keys' command\r\n");
        assertThat(kvd.call("SCAN")).isEqualTo("-ERR wrong number of arguments for 'scan' command\r\n");
        assertThat(kvd.call("RANDOMKEY", "x")).isEqualTo("-ERR wrong number of arguments for 'randomkey' command\r\n");
    }

    @Test
    void ttlTypeAndExistsLeaveTheIdleTimeAndTouchResetsIt() {
        kvd.call("SET", "foo", "bar", "EX", "1000");
        kvd.setTime(CommandFixture.START_MS + 3_000);
        kvd.call("TTL", "foo");
        kvd.call("TYPE", "foo");
        kvd.call("EXISTS", "foo");
        assertThat(kvd.call("OBJECT", "IDLETIME", "foo")).isEqualTo(":3\r\n");
        assertThat(kvd.call("TOUCH", "foo", "nosuch")).isEqualTo(":1\r\n");
        assertThat(kvd.call("OBJECT", "IDLETIME", "foo")).isEqualTo(":0\r\n");
    }
}
