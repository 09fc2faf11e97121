package io.kvd.server.command;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static io.kvd.server.command.CommandFixture.bulk;
import static io.kvd.server.command.CommandFixture.record;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * List commands as Redis 7.0 answers them: each expected reply is redis-server 7.0.15's, bytes
 * for bytes, every error path included.
 */
class ListCommandsTest {
    private static final String CROSSSLOT = "-CROSSSLOT Keys in request don't hash to the same slot\r\n";

    @TempDir
    Path dir;

    private final CommandFixture kvd = new CommandFixture();

    private static String[] command(String name, String key, List<String> elements) {
        List<String> argv = new ArrayList<>(List.of(name, key));
        argv.addAll(elements);
        return argv.toArray(String[]::new);
    }

    @Test
    void lpushPutsEachElementAtTheHeadInTurnAndRepliesTheLength() {
        assertThat(kvd.call("RPUSH", "l", "c")).isEqualTo(":1\r\n");
        assertThat(kvd.call("LPUSH", "l", "b", "a")).isEqualTo(":3\r\n");
        assertThat(kvd.call("LRANGE", "l", "0", "-1")).isEqualTo("*3\r\n$1\r\na\r\n$1\r\nb\r\n$1\r\nc\r\n");
        assertThat(kvd.call("RPUSH", "l", "d", "e")).isEqualTo(":5\r\n");
        assertThat(kvd.call("LRANGE", "l", "0", "-1")).isEqualTo("*5\r\n$1\r\na\r\n$1\r\nb\r\n$1\r\nc\r\n$1\r\nd\r\n$1\r\ne\r\n");
    }

    @Test
    void pushesOntoAMissingKeyOnlyCreateWithoutX() {
        assertThat(kvd.call("LPUSHX", "l", "a")).isEqualTo(":0\r\n");
        assertThat(kvd.call("RPUSHX", "l", "a")).isEqualTo(":0\r\n");
        assertThat(kvd.call("EXISTS", "l")).isEqualTo(":0\r\n");
        kvd.call("RPUSH", "l", "a");
        assertThat(kvd.call("LPUSHX", "l", "b", "c")).isEqualTo(":3\r\n");
        assertThat(kvd.call("RPUSHX", "l", "d")).isEqualTo(":4\r\n");
        assertThat(kvd.call("LRANGE", "l", "0", "-1")).isEqualTo("*4\r\n$1\r\nc\r\n$1\r\nb\r\n$1\r\na\r\n$1\r\nd\r\n");
    }

    @Test
    void aListIsTypedListAndEncodedQuicklist() {
        kvd.call("RPUSH", "l", "a");
        assertThat(kvd.call("TYPE", "l")).isEqualTo("+list\r\n");
        assertThat(kvd.call("OBJECT", "ENCODING", "l")).isEqualTo("$9\r\nquicklist\r\n");
    }

    @Test
    void popWithoutACountRepliesABulkOrNil() {
        kvd.call("RPUSH", "l", "a", "b", "c");
        assertThat(kvd.call("LPOP", "l")).isEqualTo("$1\r\na\r\n");
        assertThat(kvd.call("RPOP", "l")).isEqualTo("$1\r\nc\r\n");
        assertThat(kvd.call("LPOP", "missing")).isEqualTo("$-1\r\n");
        assertThat(kvd.call("RPOP", "missing")).isEqualTo("$-1\r\n");
    }

    @Test
    void popWithACountRepliesAnArrayAndNullArrayForAMissingKey() {
        kvd.call("RPUSH", "l", "a", "b", "c", "d");
        assertThat(kvd.call("LPOP", "l", "2")).isEqualTo("*2\r\n$1\r\na\r\n$1\r\nb\r\n");
        assertThat(kvd.call("RPOP", "l", "0")).isEqualTo("*0\r\n");
        assertThat(kvd.call("RPOP", "l", "5")).isEqualTo("*2\r\n$1\r\nd\r\n$1\r\nc\r\n");
        assertThat(kvd.call("EXISTS", "l")).isEqualTo(":0\r\n");
        assertThat(kvd.call("LPOP", "missing", "0")).isEqualTo("*-1\r\n");
        assertThat(kvd.call("RPOP", "missing", "3")).isEqualTo("*-1\r\n");
    }

    @Test
    void popsCountIsReadBeforeTheKey() {
        kvd.call("RPUSH", "l", "a");
        assertThat(kvd.call("LPOP", "l", "-1")).isEqualTo("-ERR value is out of range, must be positive\r\n");
        assertThat(kvd.call("LPOP", "l", "x")).isEqualTo("-ERR value is out of range, must be positive\r\n");
        assertThat(kvd.call("RPOP", "missing", "x")).isEqualTo("-ERR value is out of range, must be positive\r\n");
        assertThat(kvd.call("LPOP", "l", "1", "2")).isEqualTo("-ERR wrong number of arguments for 'lpop' command\r\n");
        assertThat(kvd.call("RPOP", "l", "1", "2")).isEqualTo("-ERR wrong number of arguments for 'rpop' command\r\n");
    }

    @Test
    void llenCountsAndMissingIsZero() {
        kvd.call("RPUSH", "l", "a", "b");
        assertThat(kvd.call("LLEN", "l")).isEqualTo(":2\r\n");
        assertThat(kvd.call("LLEN", "missing")).isEqualTo(":0\r\n");
    }

    @Test
    void lindexCountsFromEitherEndAndReadsTheKeyFirst() {
        kvd.call("RPUSH", "l", "a", "b", "c");
        assertThat(kvd.call("LINDEX", "l", "0")).isEqualTo("$1\r\na\r\n");
        assertThat(kvd.call("LINDEX", "l", "-1")).isEqualTo("$1\r\nc\r\n");
        assertThat(kvd.call("LINDEX", "l", "3")).isEqualTo("$-1\r\n");
        assertThat(kvd.call("LINDEX", "l", "-4")).isEqualTo("$-1\r\n");
        assertThat(kvd.call("LINDEX", "l", "x")).isEqualTo("-ERR value is not an integer or out of range\r\n");
        assertThat(kvd.call("LINDEX", "missing", "x")).isEqualTo("$-1\r\n");
    }

    @Test
    void lsetReplacesAndFailsOutOfRangeOrWithoutTheKey() {
        kvd.call("RPUSH", "l", "a", "b", "c");
        assertThat(kvd.call("LSET", "l", "1", "B")).isEqualTo("+OK\r\n");
        assertThat(kvd.call("LSET", "l", "-1", "C")).isEqualTo("+OK\r\n");
        assertThat(kvd.call("LRANGE", "l", "0", "-1")).isEqualTo("*3\r\n$1\r\na\r\n$1\r\nB\r\n$1\r\nC\r\n");
        assertThat(kvd.call("LSET", "l", "3", "v")).isEqualTo("-ERR index out of range\r\n");
        assertThat(kvd.call("LSET", "l", "-4", "v")).isEqualTo("-ERR index out of range\r\n");
        assertThat(kvd.call("LSET", "l", "x", "v")).isEqualTo("-ERR value is not an integer or out of range\r\n");
        assertThat(kvd.call("LSET", "missing", "0", "v")).isEqualTo("-ERR no such key\r\n");
        assertThat(kvd.call("LSET", "missing", "x", "v")).isEqualTo("-ERR no such key\r\n");
    }

    @Test
    void linsertFindsTheFirstPivot() {
        kvd.call("RPUSH", "l", "a", "b", "c", "b");
        assertThat(kvd.call("LINSERT", "l", "before", "b", "x")).isEqualTo(":5\r\n");
        assertThat(kvd.call("LINSERT", "l", "AFTER", "b", "y")).isEqualTo(":6\r\n");
        assertThat(kvd.call("LRANGE", "l", "0", "-1")).isEqualTo("*6\r\n$1\r\na\r\n$1\r\nx\r\n$1\r\nb\r\n$1\r\ny\r\n$1\r\nc\r\n$1\r\nb\r\n");
        assertThat(kvd.call("LINSERT", "l", "before", "zz", "x")).isEqualTo(":-1\r\n");
        assertThat(kvd.call("LINSERT", "missing", "before", "a", "b")).isEqualTo(":0\r\n");
        assertThat(kvd.call("LINSERT", "l", "middle", "b", "x")).isEqualTo("-ERR syntax error\r\n");
        assertThat(kvd.call("LINSERT", "missing", "middle", "b", "x")).isEqualTo("-ERR syntax error\r\n");
    }

    @Test
    void lrangeClampsItsIndexes() {
        kvd.call("RPUSH", "l", "a", "b", "c", "d", "e");
        assertThat(kvd.call("LRANGE", "l", "1", "-2")).isEqualTo("*3\r\n$1\r\nb\r\n$1\r\nc\r\n$1\r\nd\r\n");
        assertThat(kvd.call("LRANGE", "l", "-100", "1")).isEqualTo("*2\r\n$1\r\na\r\n$1\r\nb\r\n");
        assertThat(kvd.call("LRANGE", "l", "3", "100")).isEqualTo("*2\r\n$1\r\nd\r\n$1\r\ne\r\n");
        assertThat(kvd.call("LRANGE", "l", "5", "10")).isEqualTo("*0\r\n");
        assertThat(kvd.call("LRANGE", "l", "2", "1")).isEqualTo("*0\r\n");
        assertThat(kvd.call("LRANGE", "l", "-9223372036854775808", "9223372036854775807")).isEqualTo("*5\r\n$1\r\na\r\n$1\r\nb\r\n$1\r\nc\r\n$1\r\nd\r\n$1\r\ne\r\n");
        assertThat(kvd.call("LRANGE", "missing", "0", "-1")).isEqualTo("*0\r\n");
        assertThat(kvd.call("LRANGE", "l", "x", "1")).isEqualTo("-ERR value is not an integer or out of range\r\n");
        assertThat(kvd.call("LRANGE", "missing", "0", "y")).isEqualTo("-ERR value is not an integer or out of range\r\n");
    }

    @Test
    void ltrimKeepsTheRangeAndDeletesAnEmptiedList() {
        kvd.call("RPUSH", "l", "a", "b", "c", "d", "e");
        assertThat(kvd.call("LTRIM", "l", "1", "-2")).isEqualTo("+OK\r\n");
        assertThat(kvd.call("LRANGE", "l", "0", "-1")).isEqualTo("*3\r\n$1\r\nb\r\n$1\r\nc\r\n$1\r\nd\r\n");
        assertThat(kvd.call("LTRIM", "l", "-1", "100")).isEqualTo("+OK\r\n");
        assertThat(kvd.call("LRANGE", "l", "0", "-1")).isEqualTo("*1\r\n$1\r\nd\r\n");
        assertThat(kvd.call("LTRIM", "l", "1", "0")).isEqualTo("+OK\r\n");
        assertThat(kvd.call("EXISTS", "l")).isEqualTo(":0\r\n");
        assertThat(kvd.call("LTRIM", "missing", "0", "1")).isEqualTo("+OK\r\n");
        assertThat(kvd.call("LTRIM", "missing", "x", "1")).isEqualTo("-ERR value is not an integer or out of range\r\n");
        assertThat(kvd.call("LTRIM", "missing", "0", "y")).isEqualTo("-ERR value is not an integer or out of range\r\n");
    }

    @Test
    void lremFromTheHeadTheTailOrAll() {
        kvd.call("RPUSH", "l", "a", "b", "a", "c", "a", "b", "a");
        assertThat(kvd.call("LREM", "l", "2", "a")).isEqualTo(":2\r\n");
        assertThat(kvd.call("LRANGE", "l", "0", "-1")).isEqualTo("*5\r\n$1\r\nb\r\n$1\r\nc\r\n$1\r\na\r\n$1\r\nb\r\n$1\r\na\r\n");
        assertThat(kvd.call("LREM", "l", "-1", "b")).isEqualTo(":1\r\n");
        assertThat(kvd.call("LRANGE", "l", "0", "-1")).isEqualTo("*4\r\n$1\r\nb\r\n$1\r\nc\r\n$1\r\na\r\n$1\r\na\r\n");
        assertThat(kvd.call("LREM", "l", "0", "a")).isEqualTo(":2\r\n");
        assertThat(kvd.call("LRANGE", "l", "0", "-1")).isEqualTo("*2\r\n$1\r\nb\r\n$1\r\nc\r\n");
        assertThat(kvd.call("LREM", "l", "0", "zz")).isEqualTo(":0\r\n");
        assertThat(kvd.call("LREM", "l", "1", "c")).isEqualTo(":1\r\n");
        assertThat(kvd.call("EXISTS", "l")).isEqualTo(":1\r\n");
        assertThat(kvd.call("LREM", "missing", "0", "a")).isEqualTo(":0\r\n");
        assertThat(kvd.call("LREM", "missing", "x", "a")).isEqualTo("-ERR value is not an integer or out of range\r\n");
    }

    @Test
    void lposFindsByRankCountAndMaxlen() {
        kvd.call("RPUSH", "l", "a", "b", "c", "1", "2", "3", "c", "c");
        assertThat(kvd.call("LPOS", "l", "c")).isEqualTo(":2\r\n");
        assertThat(kvd.call("LPOS", "l", "c", "RANK", "2")).isEqualTo(":6\r\n");
        assertThat(kvd.call("LPOS", "l", "c", "RANK", "-1")).isEqualTo(":7\r\n");
        assertThat(kvd.call("LPOS", "l", "c", "RANK", "-3")).isEqualTo(":2\r\n");
        assertThat(kvd.call("LPOS", "l", "c", "RANK", "4")).isEqualTo("$-1\r\n");
        assertThat(kvd.call("LPOS", "l", "c", "COUNT", "0")).isEqualTo("*3\r\n:2\r\n:6\r\n:7\r\n");
        assertThat(kvd.call("LPOS", "l", "c", "COUNT", "2", "RANK", "-1")).isEqualTo("*2\r\n:7\r\n:6\r\n");
        assertThat(kvd.call("LPOS", "l", "c", "COUNT", "0", "RANK", "2")).isEqualTo("*2\r\n:6\r\n:7\r\n");
        assertThat(kvd.call("LPOS", "l", "c", "COUNT", "0", "MAXLEN", "7")).isEqualTo("*2\r\n:2\r\n:6\r\n");
        assertThat(kvd.call("LPOS", "l", "c", "MAXLEN", "2")).isEqualTo("$-1\r\n");
        assertThat(kvd.call("LPOS", "l", "c", "COUNT", "1", "MAXLEN", "2")).isEqualTo("*0\r\n");
        assertThat(kvd.call("LPOS", "l", "zz")).isEqualTo("$-1\r\n");
        assertThat(kvd.call("LPOS", "l", "zz", "COUNT", "0")).isEqualTo("*0\r\n");
        assertThat(kvd.call("LPOS", "l", "c", "RANK", "-9223372036854775808")).isEqualTo(":7\r\n");
        assertThat(kvd.call("LPOS", "missing", "c")).isEqualTo("$-1\r\n");
        assertThat(kvd.call("LPOS", "missing", "c", "COUNT", "0")).isEqualTo("*0\r\n");
    }

    @Test
    void lposRejectsBadOptionsBeforeLookingAtTheKey() {
        kvd.call("RPUSH", "l", "a");
        assertThat(kvd.call("LPOS", "l", "a", "RANK", "0")).isEqualTo("-ERR RANK can't be zero: use 1 to start from the first match, 2 from the second ... or use negative to start from the end of the list\r\n");
        assertThat(kvd.call("LPOS", "missing", "a", "RANK", "0")).isEqualTo("-ERR RANK can't be zero: use 1 to start from the first match, 2 from the second ... or use negative to start from the end of the list\r\n");
        assertThat(kvd.call("LPOS", "l", "a", "RANK", "x")).isEqualTo("-ERR value is not an integer or out of range\r\n");
        assertThat(kvd.call("LPOS", "l", "a", "COUNT", "-1")).isEqualTo("-ERR COUNT can't be negative\r\n");
        assertThat(kvd.call("LPOS", "l", "a", "COUNT", "x")).isEqualTo("-ERR COUNT can't be negative\r\n");
        assertThat(kvd.call("LPOS", "l", "a", "MAXLEN", "-1")).isEqualTo("-ERR MAXLEN can't be negative\r\n");
        assertThat(kvd.call("LPOS", "l", "a", "MAXLEN", "x")).isEqualTo("-ERR MAXLEN can't be negative\r\n");
        assertThat(kvd.call("LPOS", "l", "a", "FOO")).isEqualTo("-ERR syntax error\r\n");
        assertThat(kvd.call("LPOS", "l", "a", "RANK")).isEqualTo("-ERR syntax error\r\n");
        assertThat(kvd.call("LPOS", "l", "a", "RANK", "9223372036854775808")).isEqualTo("-ERR value is not an integer or out of range\r\n");
    }

    @Test
    void rpoplpushAndLmoveMoveOneElement() {
        kvd.call("RPUSH", "s", "a", "b", "c");
        assertThat(kvd.call("RPOPLPUSH", "s", "d")).isEqualTo("$1\r\nc\r\n");
        assertThat(kvd.call("LMOVE", "s", "d", "LEFT", "RIGHT")).isEqualTo("$1\r\na\r\n");
        assertThat(kvd.call("LMOVE", "s", "d", "left", "left")).isEqualTo("$1\r\nb\r\n");
        assertThat(kvd.call("LRANGE", "d", "0", "-1")).isEqualTo("*3\r\n$1\r\nb\r\n$1\r\nc\r\n$1\r\na\r\n");
        assertThat(kvd.call("EXISTS", "s")).isEqualTo(":0\r\n");
        assertThat(kvd.call("RPOPLPUSH", "missing", "d")).isEqualTo("$-1\r\n");
        assertThat(kvd.call("LMOVE", "missing", "d", "LEFT", "RIGHT")).isEqualTo("$-1\r\n");
        assertThat(kvd.call("LMOVE", "s", "d", "UP", "LEFT")).isEqualTo("-ERR syntax error\r\n");
        assertThat(kvd.call("LMOVE", "s", "d", "LEFT", "DOWN")).isEqualTo("-ERR syntax error\r\n");
    }

    @Test
    void lmoveOntoItsOwnKeyRotates() {
        kvd.call("RPUSH", "l", "a", "b", "c");
        assertThat(kvd.call("LMOVE", "l", "l", "LEFT", "RIGHT")).isEqualTo("$1\r\na\r\n");
        assertThat(kvd.call("LRANGE", "l", "0", "-1")).isEqualTo("*3\r\n$1\r\nb\r\n$1\r\nc\r\n$1\r\na\r\n");
        assertThat(kvd.call("RPOPLPUSH", "l", "l")).isEqualTo("$1\r\na\r\n");
        assertThat(kvd.call("LRANGE", "l", "0", "-1")).isEqualTo("*3\r\n$1\r\na\r\n$1\r\nb\r\n$1\r\nc\r\n");
        kvd.call("RPUSH", "one", "x");
        assertThat(kvd.call("LMOVE", "one", "one", "RIGHT", "LEFT")).isEqualTo("$1\r\nx\r\n");
        assertThat(kvd.call("LRANGE", "one", "0", "-1")).isEqualTo("*1\r\n$1\r\nx\r\n");
    }

    @Test
    void lmpopPopsFromTheFirstNonEmptyList() {
        kvd.call("RPUSH", "l", "a", "b", "c", "d");
        assertThat(kvd.call("LMPOP", "1", "l", "LEFT")).isEqualTo("*2\r\n$1\r\nl\r\n*1\r\n$1\r\na\r\n");
        assertThat(kvd.call("LMPOP", "1", "l", "RIGHT", "COUNT", "2")).isEqualTo("*2\r\n$1\r\nl\r\n*2\r\n$1\r\nd\r\n$1\r\nc\r\n");
        assertThat(kvd.call("LMPOP", "2", "missing", "l", "LEFT", "COUNT", "10")).isEqualTo("*2\r\n$1\r\nl\r\n*1\r\n$1\r\nb\r\n");
        assertThat(kvd.call("EXISTS", "l")).isEqualTo(":0\r\n");
        assertThat(kvd.call("LMPOP", "2", "missing", "l", "LEFT")).isEqualTo("*-1\r\n");
    }

    @Test
    void lmpopsArgumentsAreCheckedInRedisOrder() {
        kvd.call("RPUSH", "l", "a");
        assertThat(kvd.call("LMPOP", "0", "l", "LEFT")).isEqualTo("-ERR numkeys should be greater than 0\r\n");
        assertThat(kvd.call("LMPOP", "-1", "l", "LEFT")).isEqualTo("-ERR numkeys should be greater than 0\r\n");
        assertThat(kvd.call("LMPOP", "x", "l", "LEFT")).isEqualTo("-ERR numkeys should be greater than 0\r\n");
        assertThat(kvd.call("LMPOP", "2", "l", "LEFT")).isEqualTo("-ERR syntax error\r\n");
        assertThat(kvd.call("LMPOP", "9223372036854775807", "l", "LEFT")).isEqualTo("-ERR syntax error\r\n");
        assertThat(kvd.call("LMPOP", "1", "l", "UP")).isEqualTo("-ERR syntax error\r\n");
        assertThat(kvd.call("LMPOP", "1", "l", "LEFT", "COUNT", "0")).isEqualTo("-ERR count should be greater than 0\r\n");
        assertThat(kvd.call("LMPOP", "1", "l", "LEFT", "COUNT", "-1")).isEqualTo("-ERR count should be greater than 0\r\n");
        assertThat(kvd.call("LMPOP", "1", "l", "LEFT", "COUNT", "x")).isEqualTo("-ERR count should be greater than 0\r\n");
        assertThat(kvd.call("LMPOP", "1", "l", "LEFT", "COUNT", "1", "COUNT", "1")).isEqualTo("-ERR syntax error\r\n");
        assertThat(kvd.call("LMPOP", "1", "l", "LEFT", "FOO")).isEqualTo("-ERR syntax error\r\n");
        assertThat(kvd.call("LMPOP", "1", "l", "LEFT", "COUNT")).isEqualTo("-ERR syntax error\r\n");
    }

    @Test
    void listCommandsOnAStringAreWrongtype() {
        kvd.call("SET", "s", "v");
        assertThat(kvd.call("LPUSH", "s", "a")).isEqualTo("-WRONGTYPE Operation against a key holding the wrong kind of value\r\n");
        assertThat(kvd.call("RPUSH", "s", "a")).isEqualTo("-WRONGTYPE Operation against a key holding the wrong kind of value\r\n");
        assertThat(kvd.call("LPUSHX", "s", "a")).isEqualTo("-WRONGTYPE Operation against a key holding the wrong kind of value\r\n");
        assertThat(kvd.call("RPUSHX", "s", "a")).isEqualTo("-WRONGTYPE Operation against a key holding the wrong kind of value\r\n");
        assertThat(kvd.call("LPOP", "s")).isEqualTo("-WRONGTYPE Operation against a key holding the wrong kind of value\r\n");
        assertThat(kvd.call("RPOP", "s", "0")).isEqualTo("-WRONGTYPE Operation against a key holding the wrong kind of value\r\n");
        assertThat(kvd.call("LLEN", "s")).isEqualTo("-WRONGTYPE Operation against a key holding the wrong kind of value\r\n");
        assertThat(kvd.call("LINDEX", "s", "0")).isEqualTo("-WRONGTYPE Operation against a key holding the wrong kind of value\r\n");
        assertThat(kvd.call("LINDEX", "s", "x")).isEqualTo("-WRONGTYPE Operation against a key holding the wrong kind of value\r\n");
        assertThat(kvd.call("LSET", "s", "0", "v")).isEqualTo("-WRONGTYPE Operation against a key holding the wrong kind of value\r\n");
        assertThat(kvd.call("LINSERT", "s", "before", "a", "b")).isEqualTo("-WRONGTYPE Operation against a key holding the wrong kind of value\r\n");
        assertThat(kvd.call("LRANGE", "s", "0", "-1")).isEqualTo("-WRONGTYPE Operation against a key holding the wrong kind of value\r\n");
        assertThat(kvd.call("LTRIM", "s", "0", "-1")).isEqualTo("-WRONGTYPE Operation against a key holding the wrong kind of value\r\n");
        assertThat(kvd.call("LREM", "s", "0", "a")).isEqualTo("-WRONGTYPE Operation against a key holding the wrong kind of value\r\n");
        assertThat(kvd.call("LPOS", "s", "a")).isEqualTo("-WRONGTYPE Operation against a key holding the wrong kind of value\r\n");
        assertThat(kvd.call("RPOPLPUSH", "s", "l")).isEqualTo("-WRONGTYPE Operation against a key holding the wrong kind of value\r\n");
        assertThat(kvd.call("LMOVE", "s", "l", "LEFT", "LEFT")).isEqualTo("-WRONGTYPE Operation against a key holding the wrong kind of value\r\n");
        assertThat(kvd.call("LMPOP", "1", "s", "LEFT")).isEqualTo("-WRONGTYPE Operation against a key holding the wrong kind of value\r\n");
    }

    @Test
    void aMissingSourceAnswersNilBeforeTheDestinationsType() {
        kvd.call("SET", "s", "v");
        assertThat(kvd.call("RPOPLPUSH", "missing", "s")).isEqualTo("$-1\r\n");
        assertThat(kvd.call("LMOVE", "missing", "s", "LEFT", "LEFT")).isEqualTo("$-1\r\n");
        assertThat(kvd.call("LMPOP", "2", "missing", "s", "LEFT")).isEqualTo("-WRONGTYPE Operation against a key holding the wrong kind of value\r\n");
    }

    @Test
    void aListDestinationOfAnotherTypeIsWrongtypeAndPopsNothing() {
        kvd.call("SET", "s", "v");
        kvd.call("RPUSH", "l", "a");
        assertThat(kvd.call("RPOPLPUSH", "l", "s")).isEqualTo("-WRONGTYPE Operation against a key holding the wrong kind of value\r\n");
        assertThat(kvd.call("LMOVE", "l", "s", "LEFT", "LEFT")).isEqualTo("-WRONGTYPE Operation against a key holding the wrong kind of value\r\n");
        assertThat(kvd.call("LRANGE", "l", "0", "-1")).isEqualTo("*1\r\n$1\r\na\r\n");
        assertThat(kvd.call("LMPOP", "2", "l", "s", "LEFT")).isEqualTo("*2\r\n$1\r\nl\r\n*1\r\n$1\r\na\r\n");
    }

    @Test
    void otherTypesCommandsOnAListAreWrongtype() {
        kvd.call("RPUSH", "l", "a");
        assertThat(kvd.call("GET", "l")).isEqualTo("-WRONGTYPE Operation against a key holding the wrong kind of value\r\n");
        assertThat(kvd.call("INCR", "l")).isEqualTo("-WRONGTYPE Operation against a key holding the wrong kind of value\r\n");
        assertThat(kvd.call("APPEND", "l", "x")).isEqualTo("-WRONGTYPE Operation against a key holding the wrong kind of value\r\n");
        assertThat(kvd.call("SADD", "l", "a")).isEqualTo("-WRONGTYPE Operation against a key holding the wrong kind of value\r\n");
        assertThat(kvd.call("HSET", "l", "f", "v")).isEqualTo("-WRONGTYPE Operation against a key holding the wrong kind of value\r\n");
        assertThat(kvd.call("SMEMBERS", "l")).isEqualTo("-WRONGTYPE Operation against a key holding the wrong kind of value\r\n");
        assertThat(kvd.call("HGETALL", "l")).isEqualTo("-WRONGTYPE Operation against a key holding the wrong kind of value\r\n");
    }

    @Test
    void listCommandsCheckTheirArity() {
        assertThat(kvd.call("LPUSH", "l")).isEqualTo("-ERR wrong number of arguments for 'lpush' command\r\n");
        assertThat(kvd.call("RPUSH", "l")).isEqualTo("-ERR wrong number of arguments for 'rpush' command\r\n");
        assertThat(kvd.call("LPUSHX", "l")).isEqualTo("-ERR wrong number of arguments for 'lpushx' command\r\n");
        assertThat(kvd.call("LPOP")).isEqualTo("-ERR wrong number of arguments for 'lpop' command\r\n");
        assertThat(kvd.call("LLEN")).isEqualTo("-ERR wrong number of arguments for 'llen' command\r\n");
        assertThat(kvd.call("LINDEX", "l")).isEqualTo("-ERR wrong number of arguments for 'lindex' command\r\n");
        assertThat(kvd.call("LSET", "l", "0")).isEqualTo("-ERR wrong number of arguments for 'lset' command\r\n");
        assertThat(kvd.call("LINSERT", "l", "before", "x")).isEqualTo("-ERR wrong number of arguments for 'linsert' command\r\n");
        assertThat(kvd.call("LRANGE", "l", "0")).isEqualTo("-ERR wrong number of arguments for 'lrange' command\r\n");
        assertThat(kvd.call("LTRIM", "l", "0")).isEqualTo("-ERR wrong number of arguments for 'ltrim' command\r\n");
        assertThat(kvd.call("LREM", "l", "0")).isEqualTo("-ERR wrong number of arguments for 'lrem' command\r\n");
        assertThat(kvd.call("LPOS", "l")).isEqualTo("-ERR wrong number of arguments for 'lpos' command\r\n");
        assertThat(kvd.call("LMOVE", "l", "d", "left")).isEqualTo("-ERR wrong number of arguments for 'lmove' command\r\n");
        assertThat(kvd.call("RPOPLPUSH", "l")).isEqualTo("-ERR wrong number of arguments for 'rpoplpush' command\r\n");
        assertThat(kvd.call("LMPOP", "1", "l")).isEqualTo("-ERR wrong number of arguments for 'lmpop' command\r\n");
    }

    // A list past one node

    @Test
    void aListOfManyNodesAnswersAtBothEndsAndInTheMiddle() {
        List<String> elements = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            elements.add("element-" + i);
        }
        assertThat(kvd.call(command("RPUSH", "l", elements))).isEqualTo(":20000\r\n");
        assertThat(kvd.call("LINDEX", "l", "0")).isEqualTo(bulk("element-0"));
        assertThat(kvd.call("LINDEX", "l", "-1")).isEqualTo(bulk("element-19999"));
        assertThat(kvd.call("LINDEX", "l", "12345")).isEqualTo(bulk("element-12345"));
        assertThat(kvd.call("LSET", "l", "10000", "middle")).isEqualTo("+OK\r\n");
        assertThat(kvd.call("LPOS", "l", "middle")).isEqualTo(":10000\r\n");
        assertThat(kvd.call("LRANGE", "l", "9999", "10001"))
                .isEqualTo("*3\r\n" + bulk("element-9999") + bulk("middle") + bulk("element-10001"));
        assertThat(kvd.call("LTRIM", "l", "100", "-101")).isEqualTo("+OK\r\n");
        assertThat(kvd.call("LLEN", "l")).isEqualTo(":19800\r\n");
        assertThat(kvd.call("LPOP", "l")).isEqualTo(bulk("element-100"));
        assertThat(kvd.call("RPOP", "l")).isEqualTo(bulk("element-19899"));
        assertThat(kvd.call("OBJECT", "ENCODING", "l")).isEqualTo(bulk("quicklist"));
        kvd.keyspace.checkInvariants();
    }

    // AOF records

    @Test
    void pushesPopsAndMovesAreLoggedAsSent() {
        kvd.server.commandLog().setEnabled(true);
        kvd.call("SELECT", "0");
        kvd.logged();
        kvd.call("RPUSH", "l", "a", "b", "c");
        kvd.call("LPOP", "l", "1");
        kvd.call("RPOPLPUSH", "l", "d");
        kvd.call("LMOVE", "l", "d", "LEFT", "LEFT");
        assertThat(kvd.logged()).endsWith(record("RPUSH", "l", "a", "b", "c") + record("LPOP", "l", "1")
                + record("RPOPLPUSH", "l", "d") + record("LMOVE", "l", "d", "LEFT", "LEFT"));
    }

    @Test
    void lmpopIsLoggedAsThePopItDid() {
        kvd.server.commandLog().setEnabled(true);
        kvd.call("RPUSH", "l", "a", "b", "c");
        kvd.logged();
        kvd.call("LMPOP", "2", "missing", "l", "RIGHT", "COUNT", "2");
        kvd.call("LMPOP", "1", "l", "LEFT", "COUNT", "10");
        assertThat(kvd.logged()).isEqualTo(record("RPOP", "l", "2") + record("LPOP", "l", "1"));
        assertThat(kvd.call("EXISTS", "l")).isEqualTo(":0\r\n");
    }

    @Test
    void listWritesThatChangeNothingAreNotLogged() {
        kvd.server.commandLog().setEnabled(true);
        kvd.call("RPUSH", "l", "a", "b");
        kvd.logged();
        kvd.call("LPUSHX", "missing", "a");
        kvd.call("LPOP", "missing");
        kvd.call("LPOP", "l", "0");
        kvd.call("LREM", "l", "0", "zz");
        kvd.call(command("RPUSH", "long", List.of("x".repeat(5000), "y".repeat(5000))));
        kvd.logged();
        kvd.call("LREM", "long", "0", "zz");
        kvd.call("LTRIM", "long", "0", "-1");
        kvd.call("LPOP", "long", "0");
        kvd.call("LTRIM", "l", "0", "-1");
        kvd.call("LINSERT", "l", "before", "zz", "x");
        kvd.call("LMPOP", "1", "missing", "LEFT");
        kvd.call("RPOPLPUSH", "missing", "l");
        assertThat(kvd.logged()).isEmpty();
    }

    // Cluster

    @Test
    void lmpopsKeysMustShareASlotThisNodeServes() {
        CommandFixture node = ClusterFixture.nodeA(dir);
        assertThat(node.call("LMPOP", "2", "bar", "hello", "LEFT")).isEqualTo(CROSSSLOT);
        assertThat(node.call("LMPOP", "1", "foo", "LEFT")).isEqualTo("-MOVED 12182 127.0.0.1:7003\r\n");
        assertThat(node.call("LMPOP", "2", "{bar}1", "{bar}2", "LEFT")).isEqualTo("*-1\r\n");
    }
}
