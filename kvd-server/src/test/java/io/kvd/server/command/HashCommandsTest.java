package io.kvd.server.command;

import io.kvd.codec.RespReply;
import io.kvd.codec.RespReplyParser;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static io.kvd.server.command.CommandFixture.array;
import static io.kvd.server.command.CommandFixture.bulk;
import static io.kvd.server.command.CommandFixture.integer;
import static io.kvd.server.command.CommandFixture.START_MS;
import static org.assertj.core.api.Assertions.assertThat;

/** Hash commands as Redis 7.0 answers them; each expected reply was checked against redis-server 7.0.15. */
class HashCommandsTest {
    private static final String OK = "+OK\r\n";
    private static final String NIL = "$-1\r\n";
    private static final String EMPTY_ARRAY = "*0\r\n";
    private static final String EMPTY_SCAN = "*2\r\n$1\r\n0\r\n*0\r\n";
    private static final String SYNTAX = "-ERR syntax error\r\n";
    private static final String WRONGTYPE = "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n";
    private static final String NOT_AN_INTEGER = "-ERR value is not an integer or out of range\r\n";
    private static final String NOT_A_FLOAT = "-ERR value is not a valid float\r\n";
    private static final String HASH_VALUE_NOT_AN_INTEGER = "-ERR hash value is not an integer\r\n";
    private static final String HASH_VALUE_NOT_A_FLOAT = "-ERR hash value is not a float\r\n";
    private static final String OVERFLOW = "-ERR increment or decrement would overflow\r\n";
    private static final String NAN_OR_INFINITY = "-ERR value is NaN or Infinity\r\n";
    private static final String RESULT_NAN_OR_INFINITY = "-ERR increment would produce NaN or Infinity\r\n";
    private static final String OUT_OF_RANGE = "-ERR value is out of range\r\n";
    private static final String INVALID_CURSOR = "-ERR invalid cursor\r\n";

    private final CommandFixture kvd = new CommandFixture();

    private static String wrongArity(String command) {
        return "-ERR wrong number of arguments for '" + command + "' command\r\n";
    }

    /** A record as RESP: an array of bulk strings. */
    private static String record(String... argv) {
        return array(argv);
    }

    private static RespReply parse(String reply) {
        return RespReplyParser.parse(Unpooled.wrappedBuffer(reply.getBytes(StandardCharsets.UTF_8)));
    }

    /** The strings of an array of bulk strings. */
    private static List<String> strings(RespReply array) {
        List<String> out = new ArrayList<>();
        for (RespReply element : ((RespReply.Array) array).elements()) {
            out.add(((RespReply.BulkString) element).utf8());
        }
        return out;
    }

    private static List<String> elements(String reply) {
        return strings(parse(reply));
    }

    private String encoding(String key) {
        return kvd.keyspace.objectEncoding(key.getBytes(StandardCharsets.UTF_8));
    }

    /** Turns the log on and takes its first record, which selects database 0, out of the way. */
    private void enableLog() {
        kvd.server.commandLog().setEnabled(true);
        assertThat(kvd.call("SET", "first", "record")).isEqualTo("+OK\r\n");
        assertThat(kvd.logged()).startsWith("*2\r\n$6\r\nSELECT\r\n$1\r\n0\r\n");
    }

    /** Fields f0..f{n-1}, each with the value v{i}. */
    private void fill(String key, int fields) {
        for (int i = 0; i < fields; i++) {
            kvd.call("HSET", key, "f" + i, "v" + i);
        }
    }

    // HSET, HMSET

    @Test
    void hsetRepliesWithTheNumberOfNewFields() {
        assertThat(kvd.call("HSET", "h", "a", "1", "b", "2")).isEqualTo(integer(2));
        assertThat(kvd.call("HSET", "h", "a", "1", "c", "3")).isEqualTo(integer(1));
        assertThat(kvd.call("HGETALL", "h")).isEqualTo(array("a", "1", "b", "2", "c", "3"));
    }

    @Test
    void hsetOverwritesAnExistingField() {
        kvd.call("HSET", "h", "a", "1");
        assertThat(kvd.call("HSET", "h", "a", "2")).isEqualTo(integer(0));
        assertThat(kvd.call("HGET", "h", "a")).isEqualTo(bulk("2"));
    }

    @Test
    void hsetStoresEmptyFieldsAndValues() {
        assertThat(kvd.call("HSET", "h", "", "")).isEqualTo(integer(1));
        assertThat(kvd.call("HGET", "h", "")).isEqualTo("$0\r\n\r\n");
        assertThat(kvd.call("HSTRLEN", "h", "")).isEqualTo(integer(0));
    }

    @Test
    void hsetWithAFieldWithoutItsValueIsAnArityError() {
        assertThat(kvd.call("HSET", "h", "a", "1", "b")).isEqualTo(wrongArity("hset"));
        assertThat(kvd.call("HSET", "h", "a")).isEqualTo(wrongArity("hset"));
        assertThat(kvd.call("EXISTS", "h")).isEqualTo(integer(0));
    }

    @Test
    void hsetArityIsCheckedBeforeTheType() {
        kvd.call("SET", "s", "v");
        assertThat(kvd.call("HSET", "s", "a", "1", "b")).isEqualTo(wrongArity("hset"));
    }

    @Test
    void hsetOnAStringIsWrongType() {
        kvd.call("SET", "s", "v");
        assertThat(kvd.call("HSET", "s", "a", "1")).isEqualTo(WRONGTYPE);
        assertThat(kvd.call("GET", "s")).isEqualTo(bulk("v"));
    }

    @Test
    void hsetKeepsTheKeysTtl() {
        kvd.call("HSET", "h", "a", "1");
        kvd.call("EXPIRE", "h", "100");
        kvd.call("HSET", "h", "b", "2");
        assertThat(kvd.call("TTL", "h")).isEqualTo(integer(100));
    }

    @Test
    void hmsetRepliesOk() {
        assertThat(kvd.call("HMSET", "h", "a", "1", "b", "2")).isEqualTo(OK);
        assertThat(kvd.call("HMSET", "h", "a", "3")).isEqualTo(OK);
        assertThat(kvd.call("HGETALL", "h")).isEqualTo(array("a", "3", "b", "2"));
    }

    @Test
    void hmsetWithAFieldWithoutItsValueNamesHmset() {
        assertThat(kvd.call("HMSET", "h", "a", "1", "b")).isEqualTo(wrongArity("hmset"));
        assertThat(kvd.call("HMSET", "h", "a")).isEqualTo(wrongArity("hmset"));
    }

    // HSETNX

    @Test
    void hsetnxSetsOnlyANewField() {
        assertThat(kvd.call("HSETNX", "h", "f", "v")).isEqualTo(integer(1));
        assertThat(kvd.call("HSETNX", "h", "f", "w")).isEqualTo(integer(0));
        assertThat(kvd.call("HGET", "h", "f")).isEqualTo(bulk("v"));
    }

    @Test
    void hsetnxOnAStringIsWrongType() {
        kvd.call("SET", "s", "v");
        assertThat(kvd.call("HSETNX", "s", "f", "v")).isEqualTo(WRONGTYPE);
    }

    // HGET, HMGET

    @Test
    void hgetOfAMissingKeyOrFieldIsNil() {
        assertThat(kvd.call("HGET", "h", "a")).isEqualTo(NIL);
        kvd.call("HSET", "h", "a", "1");
        assertThat(kvd.call("HGET", "h", "b")).isEqualTo(NIL);
        assertThat(kvd.call("HGET", "h", "a")).isEqualTo(bulk("1"));
    }

    @Test
    void hgetOnAStringIsWrongType() {
        kvd.call("SET", "s", "v");
        assertThat(kvd.call("HGET", "s", "a")).isEqualTo(WRONGTYPE);
    }

    @Test
    void getOnAHashIsWrongType() {
        kvd.call("HSET", "h", "a", "1");
        assertThat(kvd.call("GET", "h")).isEqualTo(WRONGTYPE);
    }

    @Test
    void hgetArityComesFromTheTable() {
        assertThat(kvd.call("HGET", "h")).isEqualTo(wrongArity("hget"));
        assertThat(kvd.call("HGET", "h", "a", "b")).isEqualTo(wrongArity("hget"));
    }

    @Test
    void hmgetRepliesNilForMissingFields() {
        kvd.call("HSET", "h", "a", "1", "b", "2");
        assertThat(kvd.call("HMGET", "h", "a", "z", "b")).isEqualTo("*3\r\n$1\r\n1\r\n$-1\r\n$1\r\n2\r\n");
    }

    @Test
    void hmgetOfAMissingKeyIsAllNil() {
        assertThat(kvd.call("HMGET", "h", "a", "b")).isEqualTo("*2\r\n$-1\r\n$-1\r\n");
    }

    @Test
    void hmgetOnAStringIsWrongType() {
        kvd.call("SET", "s", "v");
        assertThat(kvd.call("HMGET", "s", "a")).isEqualTo(WRONGTYPE);
    }

    // HGETALL, HKEYS, HVALS

    @Test
    void hgetallHkeysAndHvalsListASmallHashInInsertionOrder() {
        kvd.call("HSET", "h", "a", "1", "b", "2", "ab", "3");
        assertThat(kvd.call("HGETALL", "h")).isEqualTo(array("a", "1", "b", "2", "ab", "3"));
        assertThat(kvd.call("HKEYS", "h")).isEqualTo(array("a", "b", "ab"));
        assertThat(kvd.call("HVALS", "h")).isEqualTo(array("1", "2", "3"));
    }

    @Test
    void hgetallHkeysAndHvalsOfALargeHashAgree() {
        kvd.keyspace.limits().setHashMaxListpackEntries(4);
        fill("h", 20);
        List<String> all = elements(kvd.call("HGETALL", "h"));
        List<String> keys = elements(kvd.call("HKEYS", "h"));
        List<String> values = elements(kvd.call("HVALS", "h"));
        assertThat(keys).hasSize(20).doesNotHaveDuplicates();
        for (int i = 0; i < keys.size(); i++) {
            assertThat(all.get(2 * i)).isEqualTo(keys.get(i));
            assertThat(all.get(2 * i + 1)).isEqualTo(values.get(i)).isEqualTo("v" + keys.get(i).substring(1));
        }
    }

    @Test
    void hgetallHkeysAndHvalsOfAMissingKeyAreEmpty() {
        assertThat(kvd.call("HGETALL", "h")).isEqualTo(EMPTY_ARRAY);
        assertThat(kvd.call("HKEYS", "h")).isEqualTo(EMPTY_ARRAY);
        assertThat(kvd.call("HVALS", "h")).isEqualTo(EMPTY_ARRAY);
    }

    @Test
    void hgetallHkeysAndHvalsOnAStringAreWrongType() {
        kvd.call("SET", "s", "v");
        assertThat(kvd.call("HGETALL", "s")).isEqualTo(WRONGTYPE);
        assertThat(kvd.call("HKEYS", "s")).isEqualTo(WRONGTYPE);
        assertThat(kvd.call("HVALS", "s")).isEqualTo(WRONGTYPE);
    }

    // HDEL

    @Test
    void hdelCountsTheFieldsItRemoved() {
        kvd.call("HSET", "h", "a", "1", "b", "2", "ab", "3");
        assertThat(kvd.call("HDEL", "h", "z")).isEqualTo(integer(0));
        assertThat(kvd.call("HDEL", "h", "a", "z", "a")).isEqualTo(integer(1));
        assertThat(kvd.call("HKEYS", "h")).isEqualTo(array("b", "ab"));
    }

    @Test
    void hdelOfTheLastFieldDeletesTheKey() {
        kvd.call("HSET", "h", "a", "1", "b", "2");
        assertThat(kvd.call("HDEL", "h", "b", "a", "a", "c")).isEqualTo(integer(2));
        assertThat(kvd.call("EXISTS", "h")).isEqualTo(integer(0));
        assertThat(kvd.call("TYPE", "h")).isEqualTo("+none\r\n");
    }

    @Test
    void hdelOfAMissingKeyIsZero() {
        assertThat(kvd.call("HDEL", "h", "a")).isEqualTo(integer(0));
    }

    @Test
    void hdelOnAStringIsWrongType() {
        kvd.call("SET", "s", "v");
        assertThat(kvd.call("HDEL", "s", "a")).isEqualTo(WRONGTYPE);
    }

    // HLEN, HEXISTS, HSTRLEN

    @Test
    void hlenCountsTheFields() {
        assertThat(kvd.call("HLEN", "h")).isEqualTo(integer(0));
        kvd.call("HSET", "h", "a", "1", "b", "2");
        assertThat(kvd.call("HLEN", "h")).isEqualTo(integer(2));
    }

    @Test
    void hexistsTellsWhetherTheFieldIsThere() {
        assertThat(kvd.call("HEXISTS", "h", "a")).isEqualTo(integer(0));
        kvd.call("HSET", "h", "a", "1");
        assertThat(kvd.call("HEXISTS", "h", "a")).isEqualTo(integer(1));
        assertThat(kvd.call("HEXISTS", "h", "b")).isEqualTo(integer(0));
    }

    @Test
    void hstrlenIsTheValuesLength() {
        assertThat(kvd.call("HSTRLEN", "h", "a")).isEqualTo(integer(0));
        kvd.call("HSET", "h", "a", "hello", "n", "-12345");
        assertThat(kvd.call("HSTRLEN", "h", "a")).isEqualTo(integer(5));
        assertThat(kvd.call("HSTRLEN", "h", "n")).isEqualTo(integer(6));
        assertThat(kvd.call("HSTRLEN", "h", "z")).isEqualTo(integer(0));
    }

    @Test
    void hlenHexistsAndHstrlenOnAStringAreWrongType() {
        kvd.call("SET", "s", "v");
        assertThat(kvd.call("HLEN", "s")).isEqualTo(WRONGTYPE);
        assertThat(kvd.call("HEXISTS", "s", "a")).isEqualTo(WRONGTYPE);
        assertThat(kvd.call("HSTRLEN", "s", "a")).isEqualTo(WRONGTYPE);
    }

    // HINCRBY

    @Test
    void hincrbyStartsAMissingFieldAtZero() {
        assertThat(kvd.call("HINCRBY", "h", "n", "5")).isEqualTo(integer(5));
        assertThat(kvd.call("HINCRBY", "h", "n", "-7")).isEqualTo(integer(-2));
        assertThat(kvd.call("HGET", "h", "n")).isEqualTo(bulk("-2"));
    }

    @Test
    void hincrbyOfAValueThatIsNotAnIntegerIsAnError() {
        kvd.call("HSET", "h", "a", "abc", "b", "-0", "c", "010", "d", " 1", "e", "1.5");
        for (String field : new String[]{"a", "b", "c", "d", "e"}) {
            assertThat(kvd.call("HINCRBY", "h", field, "1")).as(field).isEqualTo(HASH_VALUE_NOT_AN_INTEGER);
        }
    }

    @Test
    void hincrbyIncrementThatIsNotAnIntegerIsCheckedBeforeTheType() {
        kvd.call("SET", "s", "v");
        assertThat(kvd.call("HINCRBY", "s", "a", "x")).isEqualTo(NOT_AN_INTEGER);
        assertThat(kvd.call("HINCRBY", "h", "a", "1.5")).isEqualTo(NOT_AN_INTEGER);
        assertThat(kvd.call("HINCRBY", "s", "a", "1")).isEqualTo(WRONGTYPE);
    }

    @Test
    void hincrbyPastALongIsRefused() {
        kvd.call("HSET", "h", "a", "1");
        assertThat(kvd.call("HINCRBY", "h", "a", "9223372036854775807")).isEqualTo(OVERFLOW);
        assertThat(kvd.call("HINCRBY", "h", "b", "-9223372036854775808")).isEqualTo(integer(Long.MIN_VALUE));
        assertThat(kvd.call("HINCRBY", "h", "b", "-1")).isEqualTo(OVERFLOW);
        assertThat(kvd.call("HGET", "h", "a")).isEqualTo(bulk("1"));
    }

    // HINCRBYFLOAT

    @Test
    void hincrbyfloatPrintsTheSumAsRedisDoes() {
        assertThat(kvd.call("HINCRBYFLOAT", "h", "a", "10.5")).isEqualTo(bulk("10.5"));
        assertThat(kvd.call("HINCRBYFLOAT", "h", "a", "0.1")).isEqualTo(bulk("10.6"));
        assertThat(kvd.call("HINCRBYFLOAT", "h", "b", "5.0e3")).isEqualTo(bulk("5000"));
        assertThat(kvd.call("HINCRBYFLOAT", "h", "b", "2.0e2")).isEqualTo(bulk("5200"));
        assertThat(kvd.call("HINCRBYFLOAT", "h", "c", "1.5")).isEqualTo(bulk("1.5"));
        assertThat(kvd.call("HINCRBYFLOAT", "h", "c", "-1.5")).isEqualTo(bulk("0"));
        assertThat(kvd.call("HINCRBYFLOAT", "h", "d", "0x10")).isEqualTo(bulk("16"));
        assertThat(kvd.call("HGET", "h", "a")).isEqualTo(bulk("10.6"));
    }

    @Test
    void hincrbyfloatAddsInX87LongDouble() {
        String once = "99999999999999999996685879655845645660560099847415567207797047994921734868838061872100126921"
                + "888539320446747225054013223152134749593960583597420814430196418767959100019603190778663109604"
                + "507106667939153395788938914560543563061268364901618630217086589253444881623791300855757318142"
                + "424510452728255046343928578048";
        String twice = "19999999999999999999337175931169129132112019969483113441559409598984346973767612374420025384"
                + "377707864089349445010802644630426949918792116719484162886039283753591820003920638155732621920"
                + "901421333587830679157787782912108712612253672980323726043417317850688976324758260171151463628"
                + "4849020905456510092687857156096";
        assertThat(kvd.call("HINCRBYFLOAT", "h", "c", "1e308")).isEqualTo(bulk(once));
        assertThat(kvd.call("HINCRBYFLOAT", "h", "c", "1e308")).isEqualTo(bulk(twice));
        assertThat(twice).hasSize(309);
    }

    @Test
    void hincrbyfloatAddsToIntegerAndExponentValues() {
        kvd.call("HSET", "h", "i", "10", "e", "1e2");
        assertThat(kvd.call("HINCRBYFLOAT", "h", "i", "0.5")).isEqualTo(bulk("10.5"));
        assertThat(kvd.call("HINCRBYFLOAT", "h", "e", "1")).isEqualTo(bulk("101"));
        assertThat(kvd.call("HINCRBY", "h", "e", "1")).isEqualTo(integer(102));
    }

    @Test
    void hincrbyfloatOfAValueThatIsNotAFloatIsAnError() {
        kvd.call("HSET", "h", "a", "abc", "b", " 1", "c", "1 ");
        for (String field : new String[]{"a", "b", "c"}) {
            assertThat(kvd.call("HINCRBYFLOAT", "h", field, "1")).as(field).isEqualTo(HASH_VALUE_NOT_A_FLOAT);
        }
    }

    @Test
    void hincrbyfloatIncrementThatIsNotAFloatIsAnError() {
        assertThat(kvd.call("HINCRBYFLOAT", "h", "a", "abc")).isEqualTo(NOT_A_FLOAT);
        assertThat(kvd.call("HINCRBYFLOAT", "h", "a", "nan")).isEqualTo(NOT_A_FLOAT);
        assertThat(kvd.call("HINCRBYFLOAT", "h", "a", "1e5000")).isEqualTo(NOT_A_FLOAT);
        assertThat(kvd.call("EXISTS", "h")).isEqualTo(integer(0));
    }

    @Test
    void hincrbyfloatInfiniteIncrementIsRefusedBeforeTheType() {
        kvd.call("SET", "s", "v");
        assertThat(kvd.call("HINCRBYFLOAT", "h", "a", "inf")).isEqualTo(NAN_OR_INFINITY);
        assertThat(kvd.call("HINCRBYFLOAT", "h", "a", "-inf")).isEqualTo(NAN_OR_INFINITY);
        assertThat(kvd.call("HINCRBYFLOAT", "s", "a", "inf")).isEqualTo(NAN_OR_INFINITY);
        assertThat(kvd.call("HINCRBYFLOAT", "s", "a", "1")).isEqualTo(WRONGTYPE);
        assertThat(kvd.call("EXISTS", "h")).isEqualTo(integer(0));
    }

    @Test
    void hincrbyfloatOfAStoredInfinityIsAnInfiniteResult() {
        kvd.call("HSET", "h", "i", "inf");
        assertThat(kvd.call("HINCRBYFLOAT", "h", "i", "1")).isEqualTo(RESULT_NAN_OR_INFINITY);
        assertThat(kvd.call("HGET", "h", "i")).isEqualTo(bulk("inf"));
    }

    @Test
    void hincrbyfloatPastTheLargestLongDoubleIsRefused() {
        assertThat(kvd.call("HINCRBYFLOAT", "h", "k", "1.18e4932")).startsWith("$4933\r\n11800000000000000000006528");
        assertThat(kvd.call("HINCRBYFLOAT", "h", "k", "1.18e4932")).isEqualTo(RESULT_NAN_OR_INFINITY);
    }

    // HRANDFIELD

    @Test
    void hrandfieldWithoutCountIsOneField() {
        assertThat(kvd.call("HRANDFIELD", "h")).isEqualTo(NIL);
        kvd.call("HSET", "h", "a", "1", "b", "2", "c", "3");
        for (int i = 0; i < 20; i++) {
            assertThat(kvd.call("HRANDFIELD", "h")).isIn(bulk("a"), bulk("b"), bulk("c"));
        }
    }

    @Test
    void hrandfieldWithCountZeroOrOfAMissingKeyIsEmpty() {
        assertThat(kvd.call("HRANDFIELD", "h", "-5")).isEqualTo(EMPTY_ARRAY);
        assertThat(kvd.call("HRANDFIELD", "h", "3", "WITHVALUES")).isEqualTo(EMPTY_ARRAY);
        kvd.call("HSET", "h", "a", "1");
        assertThat(kvd.call("HRANDFIELD", "h", "0")).isEqualTo(EMPTY_ARRAY);
        assertThat(kvd.call("HRANDFIELD", "h", "0", "withvalues")).isEqualTo(EMPTY_ARRAY);
    }

    @Test
    void hrandfieldWithCountAtLeastTheSizeIsTheWholeHash() {
        kvd.call("HSET", "h", "a", "1", "b", "2", "c", "3");
        assertThat(kvd.call("HRANDFIELD", "h", "5")).isEqualTo(array("a", "b", "c"));
        assertThat(kvd.call("HRANDFIELD", "h", "3", "WithValues")).isEqualTo(array("a", "1", "b", "2", "c", "3"));
    }

    @Test
    void hrandfieldWithNegativeCountRepeatsFields() {
        kvd.call("HSET", "h", "only", "1");
        assertThat(kvd.call("HRANDFIELD", "h", "-3")).isEqualTo(array("only", "only", "only"));
        assertThat(kvd.call("HRANDFIELD", "h", "-2", "WITHVALUES")).isEqualTo(array("only", "1", "only", "1"));
    }

    @Test
    void hrandfieldWithNegativeCountDrawsThatMany() {
        fill("h", 3);
        List<String> drawn = elements(kvd.call("HRANDFIELD", "h", "-50"));
        assertThat(drawn).hasSize(50).containsOnly("f0", "f1", "f2");
    }

    @Test
    void hrandfieldWithCountOneIsOneField() {
        kvd.call("HSET", "h", "a", "1", "b", "2");
        assertThat(kvd.call("HRANDFIELD", "h", "1")).isIn(array("a"), array("b"));
        assertThat(kvd.call("HRANDFIELD", "h", "1", "WITHVALUES")).isIn(array("a", "1"), array("b", "2"));
    }

    @Test
    void hrandfieldWithCountBelowTheSizeIsDistinctFields() {
        kvd.keyspace.limits().setHashMaxListpackEntries(8);
        for (String key : new String[]{"small", "large"}) {
            fill(key, key.equals("small") ? 6 : 60);
            // 5 of 6 and 40 of 60 leave a few out; 5 of 60 draws a few.
            for (int count : key.equals("small") ? new int[]{2, 5} : new int[]{5, 40, 59}) {
                List<String> drawn = elements(kvd.call("HRANDFIELD", key, Integer.toString(count)));
                assertThat(drawn).as("%s %d", key, count).hasSize(count).doesNotHaveDuplicates()
                        .allMatch(f -> f.matches("f[0-9]+") && Integer.parseInt(f.substring(1)) < (key.equals("small") ? 6 : 60));
            }
        }
    }

    @Test
    void hrandfieldWithValuesPairsEachFieldWithItsValue() {
        kvd.keyspace.limits().setHashMaxListpackEntries(8);
        fill("h", 30);
        // A negative count draws that many; a positive one at most the hash's 30.
        String[][] countAndFields = {{"-40", "40"}, {"3", "3"}, {"25", "25"}, {"31", "30"}};
        for (String[] expected : countAndFields) {
            List<String> drawn = elements(kvd.call("HRANDFIELD", "h", expected[0], "WITHVALUES"));
            assertThat(drawn).hasSize(2 * Integer.parseInt(expected[1]));
            for (int i = 0; i < drawn.size(); i += 2) {
                assertThat(drawn.get(i + 1)).isEqualTo("v" + drawn.get(i).substring(1));
            }
        }
    }

    @Test
    void hrandfieldCountThatIsNotAnIntegerIsCheckedFirst() {
        kvd.call("SET", "s", "v");
        assertThat(kvd.call("HRANDFIELD", "s", "x")).isEqualTo(NOT_AN_INTEGER);
        assertThat(kvd.call("HRANDFIELD", "s", "x", "foo", "bar")).isEqualTo(NOT_AN_INTEGER);
    }

    @Test
    void hrandfieldCountWhoseNegationIsNoLongIsOutOfRange() {
        assertThat(kvd.call("HRANDFIELD", "h", "-9223372036854775808")).isEqualTo(
                "-ERR value is out of range, value must between -9223372036854775807 and 9223372036854775807\r\n");
    }

    @Test
    void hrandfieldOtherThanWithvaluesIsASyntaxError() {
        kvd.call("SET", "s", "v");
        assertThat(kvd.call("HRANDFIELD", "h", "1", "withvalue")).isEqualTo(SYNTAX);
        assertThat(kvd.call("HRANDFIELD", "h", "1", "withvalues", "x")).isEqualTo(SYNTAX);
        assertThat(kvd.call("HRANDFIELD", "s", "1", "foo")).isEqualTo(SYNTAX);
    }

    @Test
    void hrandfieldWithValuesCountMustFitTwiceInALong() {
        assertThat(kvd.call("HRANDFIELD", "h", "-4611686018427387904", "WITHVALUES")).isEqualTo(OUT_OF_RANGE);
        assertThat(kvd.call("HRANDFIELD", "h", "4611686018427387904", "WITHVALUES")).isEqualTo(OUT_OF_RANGE);
        assertThat(kvd.call("HRANDFIELD", "h", "4611686018427387903", "WITHVALUES")).isEqualTo(EMPTY_ARRAY);
    }

    @Test
    void hrandfieldRefusesARepeatingCountNoReplyBufferCanHold() {
        // kvd's bound, not Redis's (which would try to build the reply): 2^31 elements cannot be buffered.
        kvd.call("HSET", "h", "a", "1");
        assertThat(kvd.call("HRANDFIELD", "h", "-2147483648")).isEqualTo(OUT_OF_RANGE);
        assertThat(kvd.call("HRANDFIELD", "h", "-1073741824", "WITHVALUES")).isEqualTo(OUT_OF_RANGE);
        assertThat(kvd.call("HRANDFIELD", "missing", "-2147483648")).isEqualTo(EMPTY_ARRAY);
    }

    @Test
    void hrandfieldOnAStringIsWrongType() {
        kvd.call("SET", "s", "v");
        assertThat(kvd.call("HRANDFIELD", "s")).isEqualTo(WRONGTYPE);
        assertThat(kvd.call("HRANDFIELD", "s", "0")).isEqualTo(WRONGTYPE);
        assertThat(kvd.call("HRANDFIELD", "s", "-3", "WITHVALUES")).isEqualTo(WRONGTYPE);
    }

    // HSCAN

    @Test
    void hscanOfASmallHashReturnsEverythingWithCursorZero() {
        kvd.call("HSET", "h", "a", "1", "b", "2", "ab", "3");
        String all = "*2\r\n$1\r\n0\r\n" + array("a", "1", "b", "2", "ab", "3");
        assertThat(kvd.call("HSCAN", "h", "0")).isEqualTo(all);
        assertThat(kvd.call("HSCAN", "h", "5", "COUNT", "1")).isEqualTo(all);
    }

    @Test
    void hscanMatchFiltersOnTheField() {
        kvd.call("HSET", "h", "a", "1", "b", "a", "ab", "3");
        assertThat(kvd.call("HSCAN", "h", "0", "MATCH", "a*")).isEqualTo("*2\r\n$1\r\n0\r\n" + array("a", "1", "ab", "3"));
        assertThat(kvd.call("HSCAN", "h", "0", "match", "a*", "count", "1", "match", "b*"))
                .isEqualTo("*2\r\n$1\r\n0\r\n" + array("b", "a"));
    }

    @Test
    void hscanOfALargeHashVisitsEveryFieldOnce() {
        kvd.keyspace.limits().setHashMaxListpackEntries(8);
        fill("h", 200);
        Set<String> seen = new HashSet<>();
        String cursor = "0";
        do {
            List<RespReply> reply = ((RespReply.Array) parse(kvd.call("HSCAN", "h", cursor, "COUNT", "7"))).elements();
            cursor = ((RespReply.BulkString) reply.get(0)).utf8();
            List<String> pairs = strings(reply.get(1));
            for (int i = 0; i < pairs.size(); i += 2) {
                String field = pairs.get(i);
                assertThat(pairs.get(i + 1)).isEqualTo("v" + field.substring(1));
                assertThat(seen.add(field)).as("%s returned once", field).isTrue();
            }
        } while (!cursor.equals("0"));
        assertThat(seen).hasSize(200);
    }

    @Test
    void hscanOptionErrorsAreSyntaxErrors() {
        kvd.call("HSET", "h", "a", "1");
        assertThat(kvd.call("HSCAN", "h", "0", "COUNT", "0")).isEqualTo(SYNTAX);
        assertThat(kvd.call("HSCAN", "h", "0", "COUNT")).isEqualTo(SYNTAX);
        assertThat(kvd.call("HSCAN", "h", "0", "TYPE", "string")).isEqualTo(SYNTAX);
        assertThat(kvd.call("HSCAN", "h", "0", "COUNT", "x")).isEqualTo(NOT_AN_INTEGER);
    }

    @Test
    void hscanOfAMissingKeyIsEmptyWhateverTheOptions() {
        assertThat(kvd.call("HSCAN", "h", "0")).isEqualTo(EMPTY_SCAN);
        assertThat(kvd.call("HSCAN", "h", "0", "foo")).isEqualTo(EMPTY_SCAN);
    }

    @Test
    void hscanCursorIsCheckedBeforeTheKey() {
        kvd.call("SET", "s", "v");
        assertThat(kvd.call("HSCAN", "h", "x")).isEqualTo(INVALID_CURSOR);
        assertThat(kvd.call("HSCAN", "s", "x")).isEqualTo(INVALID_CURSOR);
    }

    @Test
    void hscanOnAStringIsWrongTypeBeforeTheOptions() {
        kvd.call("SET", "s", "v");
        assertThat(kvd.call("HSCAN", "s", "0")).isEqualTo(WRONGTYPE);
        assertThat(kvd.call("HSCAN", "s", "0", "foo")).isEqualTo(WRONGTYPE);
    }

    // Encodings (OBJECT ENCODING's names)

    @Test
    void aSmallHashIsAListpack() {
        kvd.call("HSET", "h", "a", "1");
        assertThat(encoding("h")).isEqualTo("listpack");
    }

    @Test
    void aHashPastTheEntriesLimitBecomesAHashtableAndStaysOne() {
        kvd.keyspace.limits().setHashMaxListpackEntries(2);
        kvd.call("HSET", "h", "a", "1", "b", "2");
        assertThat(encoding("h")).isEqualTo("listpack");
        kvd.call("HSET", "h", "c", "3");
        assertThat(encoding("h")).isEqualTo("hashtable");
        kvd.call("HDEL", "h", "c", "b");
        assertThat(encoding("h")).isEqualTo("hashtable");
        assertThat(kvd.call("HGETALL", "h")).isEqualTo(array("a", "1"));
    }

    @Test
    void aHashWithNoListpackEntriesAllowedIsAHashtableFromItsFirstField() {
        kvd.keyspace.limits().setHashMaxListpackEntries(0);
        kvd.call("HSET", "h", "a", "1");
        assertThat(encoding("h")).isEqualTo("hashtable");
    }

    @Test
    void aValueOrFieldPastTheValueLimitMakesAHashtable() {
        kvd.keyspace.limits().setHashMaxListpackValue(3);
        kvd.call("HSET", "v", "a", "123");
        assertThat(encoding("v")).isEqualTo("listpack");
        kvd.call("HSET", "v", "a", "1234");
        assertThat(encoding("v")).isEqualTo("hashtable");
        kvd.call("HSET", "f", "long", "1");
        assertThat(encoding("f")).isEqualTo("hashtable");
    }

    @Test
    void hincrbyAndHincrbyfloatConvertForALongFieldOrResult() {
        kvd.keyspace.limits().setHashMaxListpackValue(3);
        kvd.call("HINCRBY", "i", "longfield", "1");
        assertThat(encoding("i")).isEqualTo("hashtable");
        kvd.call("HINCRBYFLOAT", "f", "a", "1.2345");
        assertThat(encoding("f")).isEqualTo("hashtable");
    }

    @Test
    void hsetnxOfAnExistingFieldDoesNotConvert() {
        kvd.keyspace.limits().setHashMaxListpackValue(3);
        kvd.call("HSET", "h", "a", "1");
        kvd.call("HSETNX", "h", "a", "12345");
        assertThat(encoding("h")).isEqualTo("listpack");
        kvd.call("HSETNX", "h", "b", "12345");
        assertThat(encoding("h")).isEqualTo("hashtable");
    }

    @Test
    void aHashtableHashAnswersLikeAListpackOne() {
        kvd.keyspace.limits().setHashMaxListpackEntries(1);
        kvd.call("HSET", "h", "a", "1", "b", "2", "c", "3");
        assertThat(encoding("h")).isEqualTo("hashtable");
        assertThat(kvd.call("HGET", "h", "b")).isEqualTo(bulk("2"));
        assertThat(kvd.call("HMGET", "h", "c", "z")).isEqualTo("*2\r\n$1\r\n3\r\n$-1\r\n");
        assertThat(kvd.call("HLEN", "h")).isEqualTo(integer(3));
        assertThat(kvd.call("HINCRBY", "h", "a", "9")).isEqualTo(integer(10));
        assertThat(kvd.call("HDEL", "h", "a", "b", "c")).isEqualTo(integer(3));
        assertThat(kvd.call("EXISTS", "h")).isEqualTo(integer(0));
    }

    // Expiry

    @Test
    void anExpiredHashIsMissing() {
        kvd.call("HSET", "h", "a", "1");
        kvd.call("PEXPIRE", "h", "100");
        kvd.setTime(START_MS + 101);
        assertThat(kvd.call("HGET", "h", "a")).isEqualTo(NIL);
        assertThat(kvd.call("HLEN", "h")).isEqualTo(integer(0));
        assertThat(kvd.call("HSET", "h", "b", "2")).isEqualTo(integer(1));
        assertThat(kvd.call("HGETALL", "h")).isEqualTo(array("b", "2"));
        assertThat(kvd.call("TTL", "h")).isEqualTo(integer(-1));
    }

    // AOF records

    @Test
    void hsetHmsetHdelAndHincrbyAreLoggedAsSent() {
        enableLog();
        kvd.call("HSET", "h", "a", "1", "b", "2");
        kvd.call("hmset", "h", "c", "3");
        kvd.call("HDEL", "h", "b", "z");
        kvd.call("HINCRBY", "h", "a", "5");
        kvd.call("HSETNX", "h", "d", "4");
        assertThat(kvd.logged()).isEqualTo(record("HSET", "h", "a", "1", "b", "2")
                + record("hmset", "h", "c", "3")
                + record("HDEL", "h", "b", "z")
                + record("HINCRBY", "h", "a", "5")
                + record("HSETNX", "h", "d", "4"));
    }

    @Test
    void hsetOfTheSameValueIsStillLogged() {
        enableLog();
        kvd.call("HSET", "h", "a", "1");
        kvd.call("HSET", "h", "a", "1");
        kvd.call("HINCRBY", "h", "a", "0");
        assertThat(kvd.logged()).isEqualTo(record("HSET", "h", "a", "1")
                + record("HSET", "h", "a", "1")
                + record("HINCRBY", "h", "a", "0"));
    }

    @Test
    void writesThatChangedNothingAreNotLogged() {
        enableLog();
        kvd.call("HSET", "h", "a", "1");
        kvd.logged();
        kvd.call("HSETNX", "h", "a", "2");
        kvd.call("HDEL", "h", "z");
        kvd.call("HDEL", "missing", "a");
        kvd.call("HINCRBY", "h", "a", "x");
        kvd.call("HINCRBYFLOAT", "h", "a", "inf");
        kvd.call("HSET", "h", "a");
        assertThat(kvd.logged()).isEmpty();
    }

    @Test
    void hincrbyfloatIsLoggedAsHsetOfTheResult() {
        enableLog();
        kvd.call("HINCRBYFLOAT", "h", "a", "1");
        kvd.call("HINCRBYFLOAT", "h", "a", "0");
        kvd.call("HINCRBYFLOAT", "h", "a", "1.5");
        assertThat(kvd.logged()).isEqualTo(record("HSET", "h", "a", "1")
                + record("HSET", "h", "a", "1")
                + record("HSET", "h", "a", "2.5"));
    }

    @Test
    void hdelOfTheLastFieldIsLoggedAsSent() {
        enableLog();
        kvd.call("HSET", "h", "a", "1");
        kvd.logged();
        kvd.call("HDEL", "h", "a", "b");
        assertThat(kvd.logged()).isEqualTo(record("HDEL", "h", "a", "b"));
    }
}
