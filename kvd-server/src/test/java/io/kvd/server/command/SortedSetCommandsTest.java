package io.kvd.server.command;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static io.kvd.server.command.CommandFixture.array;
import static io.kvd.server.command.CommandFixture.bulk;
import static io.kvd.server.command.CommandFixture.integer;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Sorted set commands as Redis 7.0 answers them; each expected reply was checked against
 * redis-server 7.0.15 (kvd-it's compat/zsets.txt runs the same ground on both encodings).
 */
class SortedSetCommandsTest {
    private static final String NIL = "$-1\r\n";
    private static final String EMPTY = "*0\r\n";
    private static final String SYNTAX = "-ERR syntax error\r\n";
    private static final String NOT_A_FLOAT = "-ERR value is not a valid float\r\n";
    private static final String NOT_AN_INTEGER = "-ERR value is not an integer or out of range\r\n";
    private static final String WRONGTYPE = "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n";

    private final CommandFixture kvd = new CommandFixture();

    private static String error(String text) {
        return "-" + text + "\r\n";
    }

    private String encoding(String key) {
        return kvd.keyspace.objectEncoding(key.getBytes(StandardCharsets.UTF_8));
    }

    // ZADD, ZINCRBY

    @Test
    void zaddCountsNewMembersAndChCountsChangedOnes() {
        assertThat(kvd.call("ZADD", "z", "1", "a", "2", "b")).isEqualTo(integer(2));
        assertThat(kvd.call("ZADD", "z", "5", "a", "2", "b", "3", "c")).isEqualTo(integer(1));
        assertThat(kvd.call("ZADD", "z", "CH", "6", "a", "2", "b", "4", "d")).isEqualTo(integer(2));
    }

    @Test
    void zaddOptionConflictsAreRefusedBeforeAnyScoreIsRead() {
        assertThat(kvd.call("ZADD", "z", "NX", "XX", "x", "a"))
                .isEqualTo(error("ERR XX and NX options at the same time are not compatible"));
        assertThat(kvd.call("ZADD", "z", "GT", "LT", "1", "a"))
                .isEqualTo(error("ERR GT, LT, and/or NX options at the same time are not compatible"));
        assertThat(kvd.call("ZADD", "z", "NX", "GT", "1", "a"))
                .isEqualTo(error("ERR GT, LT, and/or NX options at the same time are not compatible"));
        assertThat(kvd.call("ZADD", "z", "INCR", "1", "a", "2", "b"))
                .isEqualTo(error("ERR INCR option supports a single increment-element pair"));
        assertThat(kvd.call("ZADD", "z", "NX", "1")).isEqualTo(SYNTAX);
        assertThat(kvd.call("ZADD", "z", "1")).isEqualTo(error("ERR wrong number of arguments for 'zadd' command"));
    }

    @Test
    void scoresAreReadAsStrtodReadsThem() {
        for (String bad : new String[] {"abc", "nan", "1e400", "1e-400", " 1", "1 ", ""}) {
            assertThat(kvd.call("ZADD", "z", bad, "a")).as(bad).isEqualTo(NOT_A_FLOAT);
        }
        kvd.call("ZADD", "z", "0x10", "hex", "0x1.8p1", "hexp", "-INFINITY", "ninf", "+inf", "inf", "1e-310", "tiny");
        assertThat(kvd.call("ZSCORE", "z", "hex")).isEqualTo(bulk("16"));
        assertThat(kvd.call("ZSCORE", "z", "hexp")).isEqualTo(bulk("3"));
        assertThat(kvd.call("ZSCORE", "z", "ninf")).isEqualTo(bulk("-inf"));
        assertThat(kvd.call("ZSCORE", "z", "inf")).isEqualTo(bulk("inf"));
        assertThat(kvd.call("ZSCORE", "z", "tiny")).isEqualTo(bulk("9.9999999999999694e-311"));
    }

    @Test
    void scoresPrintAsPercent17g() {
        kvd.call("ZADD", "z", "0.1", "b", "1e17", "c", "1e-5", "d", "2.5", "e", "-0.0", "f");
        assertThat(kvd.call("ZRANGE", "z", "0", "-1", "WITHSCORES")).isEqualTo(array(
                "f", "0", "d", "1.0000000000000001e-05", "b", "0.10000000000000001", "e", "2.5", "c", "1e+17"));
    }

    @Test
    void zscanOfAListpackPrintsScoresAsTheListpackStoresThem() {
        kvd.call("ZADD", "z", "1e17", "a", "1e300", "b", "-1.5", "c");
        assertThat(kvd.call("ZSCAN", "z", "0")).isEqualTo("*2\r\n$1\r\n0\r\n"
                + array("c", "-1.5", "a", "100000000000000000", "b", "1.0000000000000001e+300"));
    }

    @Test
    void zscanOfASkipListPrintsScoresAsPercent17g() {
        kvd.keyspace.limits().setZsetMaxListpackEntries(0);
        kvd.call("ZADD", "z", "1e17", "a");
        kvd.call("ZADD", "y", "-0.0", "a");
        assertThat(kvd.call("ZSCAN", "z", "0")).isEqualTo("*2\r\n$1\r\n0\r\n" + array("a", "1e+17"));
        assertThat(kvd.call("ZSCAN", "y", "0")).isEqualTo("*2\r\n$1\r\n0\r\n" + array("a", "-0"));
    }

    @Test
    void minusZeroSurvivesInASkipListButNotInAListpack() {
        kvd.keyspace.limits().setZsetMaxListpackEntries(2);
        kvd.call("ZADD", "created", "-0", "a", "1", "b", "2", "c");
        kvd.call("ZADD", "grown", "1", "b", "2", "c", "3", "d");
        kvd.call("ZADD", "grown", "-0", "a");
        assertThat(encoding("created")).isEqualTo("skiplist");
        assertThat(kvd.call("ZSCORE", "created", "a")).isEqualTo(bulk("0"));
        assertThat(kvd.call("ZSCORE", "grown", "a")).isEqualTo(bulk("-0"));
    }

    @Test
    void minusZeroAndZeroAreEqualScoresOrderedByMember() {
        kvd.keyspace.limits().setZsetMaxListpackEntries(0);
        kvd.call("ZADD", "z", "-0", "z1", "0", "6", "-0", "-2");
        assertThat(kvd.call("ZRANGE", "z", "0", "-1", "WITHSCORES")).isEqualTo(array("-2", "-0", "6", "0", "z1", "-0"));
    }

    @Test
    void zaddIncrRepliesTheNewScoreOrNilWhenSkipped() {
        assertThat(kvd.call("ZADD", "z", "INCR", "1.5", "a")).isEqualTo(bulk("1.5"));
        assertThat(kvd.call("ZADD", "z", "INCR", "1", "a")).isEqualTo(bulk("2.5"));
        assertThat(kvd.call("ZADD", "z", "NX", "INCR", "1", "a")).isEqualTo(NIL);
        assertThat(kvd.call("ZADD", "z", "XX", "INCR", "1", "new")).isEqualTo(NIL);
        assertThat(kvd.call("ZADD", "z", "GT", "INCR", "-1", "a")).isEqualTo(NIL);
        assertThat(kvd.call("ZADD", "missing", "XX", "INCR", "1", "a")).isEqualTo(NIL);
        assertThat(kvd.call("EXISTS", "missing")).isEqualTo(integer(0));
    }

    @Test
    void anIncrementToNanIsRefusedAndChangesNothing() {
        kvd.call("ZADD", "z", "inf", "a");
        assertThat(kvd.call("ZADD", "z", "INCR", "-inf", "a")).isEqualTo(error("ERR resulting score is not a number (NaN)"));
        assertThat(kvd.call("ZINCRBY", "z", "-inf", "a")).isEqualTo(error("ERR resulting score is not a number (NaN)"));
        assertThat(kvd.call("ZSCORE", "z", "a")).isEqualTo(bulk("inf"));
    }

    @Test
    void gtAndLtUpdateOnlyInTheirDirectionButAddNewMembers() {
        kvd.call("ZADD", "z", "5", "a");
        assertThat(kvd.call("ZADD", "z", "GT", "CH", "1", "a", "9", "b")).isEqualTo(integer(1));
        assertThat(kvd.call("ZADD", "z", "LT", "CH", "1", "a", "10", "b")).isEqualTo(integer(1));
        assertThat(kvd.call("ZRANGE", "z", "0", "-1", "WITHSCORES")).isEqualTo(array("a", "1", "b", "9"));
    }

    @Test
    void zincrbyCreatesTheMemberAndChecksItsIncrement() {
        assertThat(kvd.call("ZINCRBY", "z", "1", "a")).isEqualTo(bulk("1"));
        assertThat(kvd.call("ZINCRBY", "z", "0.1", "a")).isEqualTo(bulk("1.1000000000000001"));
        assertThat(kvd.call("ZINCRBY", "z", "abc", "a")).isEqualTo(NOT_A_FLOAT);
    }

    // ZSCORE, ZMSCORE, ZCARD, ZRANK, ZREM

    @Test
    void readsOfMissingKeysAndMembers() {
        kvd.call("ZADD", "z", "1", "a", "2", "b");
        assertThat(kvd.call("ZSCORE", "z", "x")).isEqualTo(NIL);
        assertThat(kvd.call("ZMSCORE", "z", "b", "x")).isEqualTo("*2\r\n" + bulk("2") + NIL);
        assertThat(kvd.call("ZMSCORE", "missing", "a")).isEqualTo("*1\r\n" + NIL);
        assertThat(kvd.call("ZCARD", "z")).isEqualTo(integer(2));
        assertThat(kvd.call("ZCARD", "missing")).isEqualTo(integer(0));
        assertThat(kvd.call("ZRANK", "z", "b")).isEqualTo(integer(1));
        assertThat(kvd.call("ZREVRANK", "z", "b")).isEqualTo(integer(0));
        assertThat(kvd.call("ZRANK", "z", "x")).isEqualTo(NIL);
    }

    @Test
    void zremCountsRemovalsAndDeletesTheEmptiedKey() {
        kvd.call("ZADD", "z", "1", "a", "2", "b");
        assertThat(kvd.call("ZREM", "z", "a", "x", "a")).isEqualTo(integer(1));
        assertThat(kvd.call("ZREM", "z", "b")).isEqualTo(integer(1));
        assertThat(kvd.call("EXISTS", "z")).isEqualTo(integer(0));
    }

    // Ranges

    @Test
    void zrangeByRankClampsLikeRedis() {
        kvd.call("ZADD", "r", "1", "a", "2", "b", "3", "c", "4", "d");
        assertThat(kvd.call("ZRANGE", "r", "1", "-2")).isEqualTo(array("b", "c"));
        assertThat(kvd.call("ZRANGE", "r", "-100", "100", "REV")).isEqualTo(array("d", "c", "b", "a"));
        assertThat(kvd.call("ZRANGE", "r", "3", "1")).isEqualTo(EMPTY);
        assertThat(kvd.call("ZREVRANGE", "r", "0", "1", "WITHSCORES")).isEqualTo(array("d", "4", "c", "3"));
    }

    @Test
    void zrangeByScoreWithExclusiveBoundsAndLimit() {
        kvd.call("ZADD", "r", "1", "a", "2", "b", "3", "c", "4", "d", "5", "e");
        assertThat(kvd.call("ZRANGE", "r", "(1", "(5", "BYSCORE")).isEqualTo(array("b", "c", "d"));
        assertThat(kvd.call("ZRANGE", "r", "+inf", "-inf", "BYSCORE", "REV", "LIMIT", "1", "2")).isEqualTo(array("d", "c"));
        assertThat(kvd.call("ZRANGEBYSCORE", "r", "-inf", "+inf", "LIMIT", "-1", "2")).isEqualTo(EMPTY);
        assertThat(kvd.call("ZRANGEBYSCORE", "r", "-inf", "+inf", "LIMIT", "3", "-1")).isEqualTo(array("d", "e"));
        assertThat(kvd.call("ZREVRANGEBYSCORE", "r", "4", "2", "WITHSCORES")).isEqualTo(array("d", "4", "c", "3", "b", "2"));
        assertThat(kvd.call("ZRANGEBYSCORE", "r", "", "1")).isEqualTo(array("a"));
        assertThat(kvd.call("ZCOUNT", "r", "(2", "4")).isEqualTo(integer(2));
    }

    @Test
    void zrangeByLex() {
        kvd.call("ZADD", "l", "0", "a", "0", "b", "0", "c", "0", "d");
        assertThat(kvd.call("ZRANGEBYLEX", "l", "[b", "(d")).isEqualTo(array("b", "c"));
        assertThat(kvd.call("ZREVRANGEBYLEX", "l", "+", "-", "LIMIT", "1", "2")).isEqualTo(array("c", "b"));
        assertThat(kvd.call("ZRANGE", "l", "[d", "(a", "BYLEX", "REV")).isEqualTo(array("d", "c", "b"));
        assertThat(kvd.call("ZLEXCOUNT", "l", "(a", "+")).isEqualTo(integer(3));
    }

    @Test
    void rangeOptionErrors() {
        kvd.call("ZADD", "z", "1", "a");
        assertThat(kvd.call("ZRANGE", "z", "a", "b", "BYSCORE")).isEqualTo(error("ERR min or max is not a float"));
        assertThat(kvd.call("ZRANGE", "z", "a", "b", "BYLEX")).isEqualTo(error("ERR min or max not valid string range item"));
        assertThat(kvd.call("ZRANGE", "z", "0", "1", "LIMIT", "0", "1")).isEqualTo(
                error("ERR syntax error, LIMIT is only supported in combination with either BYSCORE or BYLEX"));
        assertThat(kvd.call("ZRANGE", "z", "-", "+", "BYLEX", "WITHSCORES")).isEqualTo(
                error("ERR syntax error, WITHSCORES not supported in combination with BYLEX"));
        assertThat(kvd.call("ZRANGE", "z", "0", "1", "REV", "REV")).isEqualTo(SYNTAX);
        assertThat(kvd.call("ZRANGEBYSCORE", "z", "0", "1", "BYLEX")).isEqualTo(SYNTAX);
        assertThat(kvd.call("ZRANGEBYSCORE", "z", "0", "1", "LIMIT", "0")).isEqualTo(SYNTAX);
        assertThat(kvd.call("ZRANGEBYSCORE", "z", "0", "1", "LIMIT", "a", "b")).isEqualTo(NOT_AN_INTEGER);
        assertThat(kvd.call("ZRANGE", "z", "0", "a")).isEqualTo(NOT_AN_INTEGER);
    }

    @Test
    void zremrangeRemovesTheRangeAndDeletesAnEmptiedKey() {
        kvd.call("ZADD", "r", "1", "a", "2", "b", "3", "c", "4", "d", "5", "e", "6", "f");
        assertThat(kvd.call("ZREMRANGEBYRANK", "r", "1", "2")).isEqualTo(integer(2));
        assertThat(kvd.call("ZREMRANGEBYSCORE", "r", "(4", "+inf")).isEqualTo(integer(2));
        assertThat(kvd.call("ZRANGE", "r", "0", "-1")).isEqualTo(array("a", "d"));
        assertThat(kvd.call("ZREMRANGEBYLEX", "r", "-", "+")).isEqualTo(integer(2));
        assertThat(kvd.call("EXISTS", "r")).isEqualTo(integer(0));
    }

    @Test
    void zrangestoreReplacesTheDestinationAndDeletesItForAnEmptyRange() {
        kvd.call("ZADD", "src", "1", "a", "2", "b", "3", "c");
        kvd.call("SET", "dst", "v");
        assertThat(kvd.call("ZRANGESTORE", "dst", "src", "0", "1", "REV")).isEqualTo(integer(2));
        assertThat(kvd.call("ZRANGE", "dst", "0", "-1", "WITHSCORES")).isEqualTo(array("b", "2", "c", "3"));
        assertThat(kvd.call("ZRANGESTORE", "dst", "src", "5", "6")).isEqualTo(integer(0));
        assertThat(kvd.call("EXISTS", "dst")).isEqualTo(integer(0));
        assertThat(kvd.call("ZRANGESTORE", "dst", "src", "0", "1", "WITHSCORES")).isEqualTo(SYNTAX);
    }

    // ZPOPMIN, ZPOPMAX, ZMPOP, ZRANDMEMBER

    @Test
    void zpopTakesFromEitherEnd() {
        kvd.call("ZADD", "z", "1", "a", "2", "b", "3", "c");
        assertThat(kvd.call("ZPOPMIN", "z")).isEqualTo(array("a", "1"));
        assertThat(kvd.call("ZPOPMAX", "z", "5")).isEqualTo(array("c", "3", "b", "2"));
        assertThat(kvd.call("EXISTS", "z")).isEqualTo(integer(0));
        assertThat(kvd.call("ZPOPMIN", "z")).isEqualTo(EMPTY);
        assertThat(kvd.call("ZPOPMIN", "z", "-1")).isEqualTo(error("ERR value is out of range, must be positive"));
    }

    @Test
    void zmpopRepliesTheKeyAndNestedPairs() {
        kvd.call("ZADD", "z", "1", "a", "2", "b");
        assertThat(kvd.call("ZMPOP", "2", "missing", "z", "MAX", "COUNT", "5")).isEqualTo(
                "*2\r\n" + bulk("z") + "*2\r\n" + array("b", "2") + array("a", "1"));
        assertThat(kvd.call("ZMPOP", "1", "z", "MIN")).isEqualTo("*-1\r\n");
        assertThat(kvd.call("ZMPOP", "0", "z", "MIN")).isEqualTo(error("ERR numkeys should be greater than 0"));
        assertThat(kvd.call("ZMPOP", "1", "z", "MIN", "COUNT", "0")).isEqualTo(error("ERR count should be greater than 0"));
        assertThat(kvd.call("ZMPOP", "1", "z", "FOO")).isEqualTo(SYNTAX);
    }

    @Test
    void zrandmemberOfTheWholeSetListsItHighestFirst() {
        kvd.call("ZADD", "z", "1", "a", "2", "b", "3", "c");
        assertThat(kvd.call("ZRANDMEMBER", "z", "10")).isEqualTo(array("c", "b", "a"));
        assertThat(kvd.call("ZRANDMEMBER", "z", "3", "WITHSCORES")).isEqualTo(array("c", "3", "b", "2", "a", "1"));
        assertThat(kvd.call("ZRANDMEMBER", "z", "-9223372036854775807", "WITHSCORES"))
                .isEqualTo(error("ERR value is out of range"));
        assertThat(kvd.call("ZRANDMEMBER", "z", "1", "FOO")).isEqualTo(SYNTAX);
        assertThat(kvd.call("ZRANDMEMBER", "missing")).isEqualTo(NIL);
        assertThat(kvd.call("ZRANDMEMBER", "missing", "5")).isEqualTo(EMPTY);
    }

    // ZUNION, ZINTER, ZDIFF, ZINTERCARD

    @Test
    void unionWithWeightsAndAggregatesTakesSetsAsScoreOne() {
        kvd.call("ZADD", "a", "1", "x", "2", "y");
        kvd.call("ZADD", "b", "10", "y", "20", "z");
        kvd.call("SADD", "s", "y", "q");
        assertThat(kvd.call("ZUNION", "2", "a", "b", "WEIGHTS", "2", "0.5", "WITHSCORES"))
                .isEqualTo(array("x", "2", "y", "9", "z", "10"));
        assertThat(kvd.call("ZUNION", "3", "a", "b", "s", "AGGREGATE", "MIN", "WITHSCORES"))
                .isEqualTo(array("q", "1", "x", "1", "y", "1", "z", "20"));
        assertThat(kvd.call("ZINTER", "3", "a", "b", "s", "WITHSCORES")).isEqualTo(array("y", "13"));
        assertThat(kvd.call("ZDIFF", "2", "b", "a", "WITHSCORES")).isEqualTo(array("z", "20"));
        assertThat(kvd.call("ZINTERCARD", "2", "a", "b", "LIMIT", "1")).isEqualTo(integer(1));
    }

    @Test
    void oppositeInfinitiesSumToZero() {
        kvd.call("ZADD", "p", "inf", "x");
        kvd.call("ZADD", "n", "-inf", "x");
        assertThat(kvd.call("ZUNION", "2", "p", "n", "WITHSCORES")).isEqualTo(array("x", "0"));
        assertThat(kvd.call("ZUNION", "1", "p", "WEIGHTS", "0", "WITHSCORES")).isEqualTo(array("x", "0"));
    }

    @Test
    void storeVariantsReplaceTheDestination() {
        kvd.call("ZADD", "a", "1", "x", "2", "y");
        kvd.call("ZADD", "b", "10", "y");
        assertThat(kvd.call("ZINTERSTORE", "d", "2", "a", "b", "AGGREGATE", "MAX")).isEqualTo(integer(1));
        assertThat(kvd.call("ZRANGE", "d", "0", "-1", "WITHSCORES")).isEqualTo(array("y", "10"));
        assertThat(kvd.call("ZDIFFSTORE", "d", "2", "a", "a")).isEqualTo(integer(0));
        assertThat(kvd.call("EXISTS", "d")).isEqualTo(integer(0));
        assertThat(kvd.call("ZUNIONSTORE", "d", "1", "a", "WITHSCORES")).isEqualTo(SYNTAX);
    }

    @Test
    void combinationErrors() {
        kvd.call("ZADD", "a", "1", "x");
        assertThat(kvd.call("ZUNION", "0", "a")).isEqualTo(error("ERR at least 1 input key is needed for 'zunion' command"));
        assertThat(kvd.call("ZUNIONSTORE", "d", "0", "a"))
                .isEqualTo(error("ERR at least 1 input key is needed for 'zunionstore' command"));
        assertThat(kvd.call("ZUNION", "2", "a")).isEqualTo(SYNTAX);
        assertThat(kvd.call("ZINTER", "1", "a", "WEIGHTS", "x")).isEqualTo(error("ERR weight value is not a float"));
        assertThat(kvd.call("ZDIFF", "1", "a", "WEIGHTS", "1")).isEqualTo(SYNTAX);
        assertThat(kvd.call("ZINTERCARD", "1", "a", "LIMIT", "-1")).isEqualTo(error("ERR LIMIT can't be negative"));
    }

    // Types, encodings, the log

    @Test
    void everySortedSetCommandOnAStringIsWrongtype() {
        kvd.call("SET", "str", "v");
        String[][] commands = {
                {"ZADD", "str", "1", "a"}, {"ZINCRBY", "str", "1", "a"}, {"ZCARD", "str"}, {"ZSCORE", "str", "a"},
                {"ZMSCORE", "str", "a"}, {"ZRANK", "str", "a"}, {"ZREVRANK", "str", "a"}, {"ZREM", "str", "a"},
                {"ZRANGE", "str", "0", "1"}, {"ZREVRANGE", "str", "0", "1"}, {"ZRANGEBYSCORE", "str", "0", "1"},
                {"ZREVRANGEBYSCORE", "str", "1", "0"}, {"ZRANGEBYLEX", "str", "-", "+"},
                {"ZREVRANGEBYLEX", "str", "+", "-"}, {"ZCOUNT", "str", "0", "1"}, {"ZLEXCOUNT", "str", "-", "+"},
                {"ZPOPMIN", "str"}, {"ZPOPMAX", "str"}, {"ZREMRANGEBYRANK", "str", "0", "1"},
                {"ZREMRANGEBYSCORE", "str", "0", "1"}, {"ZREMRANGEBYLEX", "str", "-", "+"},
                {"ZRANGESTORE", "d", "str", "0", "1"}, {"ZRANDMEMBER", "str"}, {"ZSCAN", "str", "0"},
                {"ZUNION", "1", "str"}, {"ZINTER", "1", "str"}, {"ZDIFF", "1", "str"}, {"ZINTERCARD", "1", "str"},
                {"ZUNIONSTORE", "d", "1", "str"}, {"ZMPOP", "1", "str", "MIN"}};
        for (String[] command : commands) {
            assertThat(kvd.call(command)).as(String.join(" ", command)).isEqualTo(WRONGTYPE);
        }
        kvd.call("ZADD", "z", "1", "a");
        assertThat(kvd.call("GET", "z")).isEqualTo(WRONGTYPE);
        assertThat(kvd.call("TYPE", "z")).isEqualTo("+zset\r\n");
    }

    @Test
    void aSortedSetMovesToASkipListPastTheListpackLimits() {
        kvd.keyspace.limits().setZsetMaxListpackEntries(2);
        kvd.call("ZADD", "z", "1", "a", "2", "b");
        assertThat(encoding("z")).isEqualTo("listpack");
        kvd.call("ZADD", "z", "3", "c");
        assertThat(encoding("z")).isEqualTo("skiplist");
        kvd.keyspace.limits().setZsetMaxListpackEntries(128);
        kvd.keyspace.limits().setZsetMaxListpackValue(3);
        kvd.call("ZADD", "y", "1", "long");
        assertThat(encoding("y")).isEqualTo("skiplist");
    }

    @Test
    void writesAreLoggedAsSentAndZmpopAsTheZpopThatRan() {
        kvd.server.commandLog().setEnabled(true);
        kvd.call("ZADD", "other", "1", "a");
        kvd.logged();
        kvd.call("ZADD", "z", "INCR", "1.5", "a");
        kvd.call("ZINCRBY", "z", "1", "b");
        kvd.call("ZPOPMIN", "z");
        kvd.call("ZMPOP", "1", "z", "MAX", "COUNT", "5");
        assertThat(kvd.logged()).isEqualTo(array("ZADD", "z", "INCR", "1.5", "a") + array("ZINCRBY", "z", "1", "b")
                + array("ZPOPMIN", "z") + array("ZPOPMAX", "z", "1"));
    }

    @Test
    void writesThatChangeNothingAreNotLogged() {
        kvd.server.commandLog().setEnabled(true);
        kvd.call("ZADD", "z", "1", "a");
        kvd.logged();
        kvd.call("ZADD", "z", "1", "a");
        kvd.call("ZADD", "z", "NX", "2", "a");
        kvd.call("ZREM", "z", "x");
        kvd.call("ZPOPMIN", "missing");
        assertThat(kvd.logged()).isEmpty();
    }
}
