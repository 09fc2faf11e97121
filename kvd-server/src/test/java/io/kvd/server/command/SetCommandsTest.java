package io.kvd.server.command;

import io.kvd.codec.RespReply;
import io.kvd.codec.RespReplyParser;
import io.kvd.server.config.Config;
import io.kvd.server.config.ConfigBuilder;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static io.kvd.server.command.CommandFixture.array;
import static io.kvd.server.command.CommandFixture.bulk;
import static io.kvd.server.command.CommandFixture.integer;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Set commands as Redis 7.0 answers them; each expected reply was checked against redis-server
 * 7.0.15. Random commands run on the fixture's seeded keyspace and are checked for their shape.
 */
class SetCommandsTest {
    private static final String NIL = "$-1\r\n";
    private static final String EMPTY = "*0\r\n";
    private static final String EMPTY_SCAN = "*2\r\n$1\r\n0\r\n*0\r\n";
    private static final String SYNTAX = "-ERR syntax error\r\n";
    private static final String NOT_AN_INTEGER = "-ERR value is not an integer or out of range\r\n";
    private static final String WRONGTYPE = "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n";
    private static final String MUST_BE_POSITIVE = "-ERR value is out of range, must be positive\r\n";
    private static final String COUNT_OUT_OF_RANGE =
            "-ERR value is out of range, value must between -9223372036854775807 and 9223372036854775807\r\n";
    private static final String NUMKEYS_NOT_POSITIVE = "-ERR numkeys should be greater than 0\r\n";
    private static final String NUMKEYS_PAST_ARGS = "-ERR Number of keys can't be greater than number of args\r\n";
    private static final String LIMIT_NEGATIVE = "-ERR LIMIT can't be negative\r\n";
    private static final String CROSSSLOT = "-CROSSSLOT Keys in request don't hash to the same slot\r\n";

    @TempDir
    Path dir;

    private final CommandFixture kvd = new CommandFixture();

    /** An AOF record as RESP. */
    private static String record(String... argv) {
        return array(argv);
    }

    /** The bulk strings of an array reply, in order. */
    private static List<String> elements(String reply) {
        RespReply parsed = RespReplyParser.parse(Unpooled.wrappedBuffer(reply.getBytes(StandardCharsets.UTF_8)));
        assertThat(parsed).as(reply).isInstanceOf(RespReply.Array.class);
        return ((RespReply.Array) parsed).elements().stream()
                .map(element -> ((RespReply.BulkString) element).utf8()).collect(Collectors.toList());
    }

    private static String[] range(int from, int to) {
        return IntStream.rangeClosed(from, to).mapToObj(Integer::toString).toArray(String[]::new);
    }

    private static String[] command(String name, String key, String... members) {
        String[] argv = new String[members.length + 2];
        argv[0] = name;
        argv[1] = key;
        System.arraycopy(members, 0, argv, 2, members.length);
        return argv;
    }

    private String encoding(String key) {
        return kvd.keyspace.objectEncoding(key.getBytes(StandardCharsets.UTF_8));
    }

    private Set<String> members(String key) {
        return new HashSet<>(elements(kvd.call("SMEMBERS", key)));
    }

    // SADD, SREM

    @Test
    void saddCountsOnlyNewMembers() {
        assertThat(kvd.call("SADD", "s", "3", "1", "2")).isEqualTo(integer(3));
        assertThat(kvd.call("SADD", "s", "1", "4", "4")).isEqualTo(integer(1));
    }

    @Test
    void saddWithoutAMemberIsAnArityError() {
        assertThat(kvd.call("SADD", "s")).isEqualTo("-ERR wrong number of arguments for 'sadd' command\r\n");
    }

    @Test
    void sremCountsRemovedMembersAndDeletesTheEmptiedSet() {
        kvd.call("SADD", "s", "1", "2", "3", "4");
        assertThat(kvd.call("SREM", "s", "9")).isEqualTo(integer(0));
        assertThat(kvd.call("SREM", "s", "1", "2", "3", "4", "1")).isEqualTo(integer(4));
        assertThat(kvd.call("EXISTS", "s")).isEqualTo(integer(0));
    }

    @Test
    void sremOfAMissingKeyIsZero() {
        assertThat(kvd.call("SREM", "s", "a")).isEqualTo(integer(0));
    }

    // Types

    @Test
    void everySetCommandOnAStringIsWrongtype() {
        kvd.call("SET", "str", "v");
        kvd.call("SADD", "s", "1");
        String[][] commands = {
                {"SADD", "str", "a"}, {"SREM", "str", "a"}, {"SMEMBERS", "str"}, {"SISMEMBER", "str", "a"},
                {"SMISMEMBER", "str", "a"}, {"SCARD", "str"}, {"SPOP", "str"}, {"SPOP", "str", "0"},
                {"SRANDMEMBER", "str"}, {"SRANDMEMBER", "str", "0"}, {"SMOVE", "str", "s", "1"},
                {"SINTER", "str"}, {"SINTERSTORE", "d", "str"}, {"SINTERCARD", "1", "str"}, {"SUNION", "str"},
                {"SUNIONSTORE", "d", "str"}, {"SDIFF", "str"}, {"SDIFFSTORE", "d", "str"}, {"SSCAN", "str", "0"}};
        for (String[] command : commands) {
            assertThat(kvd.call(command)).as(String.join(" ", command)).isEqualTo(WRONGTYPE);
        }
        assertThat(kvd.call("GET", "str")).isEqualTo(bulk("v"));
    }

    @Test
    void stringCommandsOnASetAreWrongtype() {
        kvd.call("SADD", "s", "1");
        assertThat(kvd.call("GET", "s")).isEqualTo(WRONGTYPE);
        assertThat(kvd.call("APPEND", "s", "x")).isEqualTo(WRONGTYPE);
        assertThat(kvd.call("INCR", "s")).isEqualTo(WRONGTYPE);
        assertThat(kvd.call("TYPE", "s")).isEqualTo("+set\r\n");
    }

    // Encodings

    @Test
    void integersMakeAnIntsetListedAscending() {
        kvd.call("SADD", "s", "3", "-9223372036854775808", "1", "9223372036854775807", "2");
        assertThat(encoding("s")).isEqualTo("intset");
        assertThat(kvd.call("SMEMBERS", "s"))
                .isEqualTo(array("-9223372036854775808", "1", "2", "3", "9223372036854775807"));
    }

    @Test
    void aNonIntegerMemberMakesTheIntsetAHashtable() {
        kvd.call("SADD", "s", "1", "2");
        kvd.call("SADD", "s", "a");
        assertThat(encoding("s")).isEqualTo("hashtable");
        assertThat(members("s")).containsExactlyInAnyOrder("1", "2", "a");
    }

    @Test
    void membersThatAreNotCanonicalLongsAreNotIntegers() {
        for (String member : new String[]{"9223372036854775808", "01", "+1", "-0", " 1", ""}) {
            kvd.call("DEL", "s");
            kvd.call("SADD", "s", member);
            assertThat(encoding("s")).as(member).isEqualTo("hashtable");
        }
    }

    @Test
    void anIntsetBecomesAHashtablePastSetMaxIntsetEntriesAndStaysOne() {
        kvd.keyspace.limits().setSetMaxIntsetEntries(4);
        kvd.call("SADD", "s", "1", "2", "3", "4");
        assertThat(encoding("s")).isEqualTo("intset");
        kvd.call("SADD", "s", "5");
        assertThat(encoding("s")).isEqualTo("hashtable");
        kvd.call("SREM", "s", "5", "4");
        assertThat(encoding("s")).isEqualTo("hashtable");
    }

    @Test
    void aSetPastSetMaxIntsetEntriesKeepsEveryMember() {
        kvd.call(command("SADD", "s", range(1, 1000)));
        assertThat(encoding("s")).isEqualTo("hashtable");
        assertThat(kvd.call("SCARD", "s")).isEqualTo(integer(1000));
        assertThat(members("s")).containsExactlyInAnyOrder(range(1, 1000));
    }

    // SMEMBERS, SISMEMBER, SMISMEMBER, SCARD

    @Test
    void smembersOfAMissingKeyIsAnEmptyArray() {
        assertThat(kvd.call("SMEMBERS", "s")).isEqualTo(EMPTY);
    }

    @Test
    void sismemberAnswersOneOrZero() {
        kvd.call("SADD", "s", "a", "1");
        assertThat(kvd.call("SISMEMBER", "s", "a")).isEqualTo(integer(1));
        assertThat(kvd.call("SISMEMBER", "s", "b")).isEqualTo(integer(0));
        assertThat(kvd.call("SISMEMBER", "missing", "a")).isEqualTo(integer(0));
    }

    @Test
    void sismemberComparesAnIntsetsMembersAsText() {
        kvd.call("SADD", "s", "1");
        assertThat(kvd.call("SISMEMBER", "s", "01")).isEqualTo(integer(0));
        assertThat(kvd.call("SISMEMBER", "s", "1")).isEqualTo(integer(1));
    }

    @Test
    void smismemberAnswersEachMemberAndZerosForAMissingKey() {
        kvd.call("SADD", "s", "a", "b");
        assertThat(kvd.call("SMISMEMBER", "s", "a", "x", "b")).isEqualTo("*3\r\n:1\r\n:0\r\n:1\r\n");
        assertThat(kvd.call("SMISMEMBER", "missing", "a", "b")).isEqualTo("*2\r\n:0\r\n:0\r\n");
    }

    @Test
    void scardCountsMembersAndIsZeroForAMissingKey() {
        kvd.call("SADD", "s", "a", "b", "1");
        assertThat(kvd.call("SCARD", "s")).isEqualTo(integer(3));
        assertThat(kvd.call("SCARD", "missing")).isEqualTo(integer(0));
    }

    // SPOP

    @Test
    void spopOfAMissingKeyIsNil() {
        assertThat(kvd.call("SPOP", "s")).isEqualTo(NIL);
    }

    @Test
    void spopRemovesTheMemberItReturnsAndTheEmptiedKey() {
        kvd.call("SADD", "s", "a");
        assertThat(kvd.call("SPOP", "s")).isEqualTo(bulk("a"));
        assertThat(kvd.call("EXISTS", "s")).isEqualTo(integer(0));
    }

    @Test
    void spopPopsEveryMemberOnceUntilTheSetIsGone() {
        kvd.call(command("SADD", "s", "a", "b", "c", "1", "2"));
        List<String> popped = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            String reply = kvd.call("SPOP", "s");
            popped.add(reply.substring(reply.indexOf("\r\n") + 2, reply.length() - 2));
        }
        assertThat(popped).containsExactlyInAnyOrder("a", "b", "c", "1", "2");
        assertThat(kvd.call("SPOP", "s")).isEqualTo(NIL);
    }

    @Test
    void spopWithMoreThanACountIsASyntaxError() {
        kvd.call("SADD", "s", "a");
        assertThat(kvd.call("SPOP", "s", "1", "2")).isEqualTo(SYNTAX);
    }

    @Test
    void spopCountThatIsNegativeOrNotANumberIsOutOfRangeBeforeTheKeyIsLookedAt() {
        kvd.call("SADD", "s", "a");
        kvd.call("SET", "str", "v");
        assertThat(kvd.call("SPOP", "s", "-1")).isEqualTo(MUST_BE_POSITIVE);
        assertThat(kvd.call("SPOP", "s", "abc")).isEqualTo(MUST_BE_POSITIVE);
        assertThat(kvd.call("SPOP", "missing", "-1")).isEqualTo(MUST_BE_POSITIVE);
        assertThat(kvd.call("SPOP", "str", "-1")).isEqualTo(MUST_BE_POSITIVE);
    }

    @Test
    void spopCountZeroIsAnEmptyArrayAndPopsNothing() {
        kvd.call("SADD", "s", "a");
        assertThat(kvd.call("SPOP", "s", "0")).isEqualTo(EMPTY);
        assertThat(kvd.call("SPOP", "missing", "0")).isEqualTo(EMPTY);
        assertThat(kvd.call("SPOP", "missing", "2")).isEqualTo(EMPTY);
        assertThat(kvd.call("SCARD", "s")).isEqualTo(integer(1));
    }

    @Test
    void spopCountOfAtLeastTheSizePopsEverythingAscendingWhenAllAreIntegers() {
        // A hashtable of integers (its non-integer member removed): Redis replies as SUNION would, from an intset.
        kvd.call("SADD", "s", "30", "20", "10", "5", "100", "7", "a");
        kvd.call("SREM", "s", "a");
        assertThat(kvd.call("SPOP", "s", "9223372036854775807")).isEqualTo(array("5", "7", "10", "20", "30", "100"));
        assertThat(kvd.call("EXISTS", "s")).isEqualTo(integer(0));
    }

    @Test
    void spopCountBelowTheSizePopsThatManyDistinctMembers() {
        kvd.call(command("SADD", "s", range(1, 20)));
        List<String> popped = elements(kvd.call("SPOP", "s", "3"));
        assertThat(popped).hasSize(3).doesNotHaveDuplicates();
        assertThat(List.of(range(1, 20))).containsAll(popped);
        assertThat(kvd.call("SCARD", "s")).isEqualTo(integer(17));
        assertThat(members("s")).doesNotContainAnyElementsOf(popped);
    }

    @Test
    void spopOfMostMembersRepliesInTheSetsOrderAndKeepsTheRest() {
        kvd.call(command("SADD", "s", range(1, 10)));
        List<String> popped = elements(kvd.call("SPOP", "s", "9"));
        assertThat(popped).hasSize(9).isSortedAccordingTo((a, b) -> Long.compare(Long.parseLong(a), Long.parseLong(b)));
        Set<String> all = new HashSet<>(popped);
        all.addAll(members("s"));
        assertThat(all).containsExactlyInAnyOrder(range(1, 10));
    }

    @Test
    void spopOfMostMembersStoresTheRestAsANewSetWithTheSameTtl() {
        kvd.call(command("SADD", "s", range(1, 600)));
        kvd.call("EXPIRE", "s", "100");
        assertThat(encoding("s")).isEqualTo("hashtable");
        assertThat(elements(kvd.call("SPOP", "s", "595"))).hasSize(595).doesNotHaveDuplicates();
        assertThat(encoding("s")).isEqualTo("intset");
        assertThat(kvd.call("SCARD", "s")).isEqualTo(integer(5));
        assertThat(kvd.call("TTL", "s")).isEqualTo(integer(100));
    }

    @Test
    void spopOfFewMembersKeepsTheEncoding() {
        kvd.call(command("SADD", "s", range(1, 600)));
        kvd.call("SPOP", "s", "2");
        assertThat(encoding("s")).isEqualTo("hashtable");
    }

    // SRANDMEMBER

    @Test
    void srandmemberOfAMissingKeyIsNilOrAnEmptyArray() {
        assertThat(kvd.call("SRANDMEMBER", "s")).isEqualTo(NIL);
        assertThat(kvd.call("SRANDMEMBER", "s", "5")).isEqualTo(EMPTY);
        assertThat(kvd.call("SRANDMEMBER", "s", "-5")).isEqualTo(EMPTY);
    }

    @Test
    void srandmemberReturnsAMemberAndKeepsIt() {
        kvd.call("SADD", "s", "a");
        assertThat(kvd.call("SRANDMEMBER", "s")).isEqualTo(bulk("a"));
        assertThat(kvd.call("SCARD", "s")).isEqualTo(integer(1));
    }

    @Test
    void srandmemberWithMoreThanACountIsASyntaxError() {
        assertThat(kvd.call("SRANDMEMBER", "s", "1", "2")).isEqualTo(SYNTAX);
    }

    @Test
    void srandmemberCountMustBeAnIntegerFromMinusLongMaxUp() {
        kvd.call("SET", "str", "v");
        assertThat(kvd.call("SRANDMEMBER", "missing", "abc")).isEqualTo(NOT_AN_INTEGER);
        assertThat(kvd.call("SRANDMEMBER", "missing", "9223372036854775808")).isEqualTo(NOT_AN_INTEGER);
        assertThat(kvd.call("SRANDMEMBER", "missing", "-9223372036854775808")).isEqualTo(COUNT_OUT_OF_RANGE);
        assertThat(kvd.call("SRANDMEMBER", "str", "-9223372036854775808")).isEqualTo(COUNT_OUT_OF_RANGE);
    }

    @Test
    void srandmemberCountZeroIsAnEmptyArray() {
        kvd.call("SADD", "s", "a");
        assertThat(kvd.call("SRANDMEMBER", "s", "0")).isEqualTo(EMPTY);
    }

    @Test
    void srandmemberCountOfAtLeastTheSizeReturnsTheWholeSet() {
        kvd.call("SADD", "s", "3", "1", "2");
        assertThat(kvd.call("SRANDMEMBER", "s", "3")).isEqualTo(array("1", "2", "3"));
        assertThat(kvd.call("SRANDMEMBER", "s", "9223372036854775807")).isEqualTo(array("1", "2", "3"));
    }

    @Test
    void srandmemberPositiveCountReturnsDistinctMembers() {
        kvd.call(command("SADD", "s", range(1, 100)));
        // 10 draws members; 50 (over a third) drops members from the whole set instead.
        for (int count : new int[]{1, 10, 50, 99}) {
            List<String> drawn = elements(kvd.call("SRANDMEMBER", "s", Integer.toString(count)));
            assertThat(drawn).as("count " + count).hasSize(count).doesNotHaveDuplicates();
            assertThat(List.of(range(1, 100))).containsAll(drawn);
        }
        assertThat(kvd.call("SCARD", "s")).isEqualTo(integer(100));
    }

    @Test
    void srandmemberNegativeCountRepeatsMembers() {
        kvd.call("SADD", "s", "a");
        assertThat(kvd.call("SRANDMEMBER", "s", "-3")).isEqualTo(array("a", "a", "a"));
        kvd.call("SADD", "s", "b");
        List<String> drawn = elements(kvd.call("SRANDMEMBER", "s", "-100"));
        assertThat(drawn).hasSize(100).containsOnly("a", "b").contains("a", "b");
    }

    @Test
    void srandmemberHugeNegativeCountStopsAtTheHardOutputLimit() {
        CommandFixture limited = new CommandFixture(ConfigBuilder.forTests()
                .option(Config.CLIENT_OUTPUT_BUFFER_LIMIT, "normal", "1mb", "0", "0").build());
        limited.call("SADD", "s", "a");
        String reply = limited.call("SRANDMEMBER", "s", "-9223372036854775807");
        assertThat(reply).startsWith("*9223372036854775807\r\n$1\r\na\r\n");
        assertThat(reply.length()).isBetween(1 << 20, (1 << 20) + 16);
    }

    // SMOVE

    @Test
    void smoveMovesTheMember() {
        kvd.call("SADD", "s", "1", "2", "3");
        assertThat(kvd.call("SMOVE", "s", "d", "1")).isEqualTo(integer(1));
        assertThat(kvd.call("SMEMBERS", "s")).isEqualTo(array("2", "3"));
        assertThat(kvd.call("SMEMBERS", "d")).isEqualTo(array("1"));
    }

    @Test
    void smoveOfAMemberTheSourceLacksIsZero() {
        kvd.call("SADD", "s", "1");
        assertThat(kvd.call("SMOVE", "s", "d", "9")).isEqualTo(integer(0));
        assertThat(kvd.call("EXISTS", "d")).isEqualTo(integer(0));
    }

    @Test
    void smoveOfAMemberTheDestinationHoldsStillTakesItFromTheSource() {
        kvd.call("SADD", "s", "1", "2");
        kvd.call("SADD", "d", "2");
        assertThat(kvd.call("SMOVE", "s", "d", "2")).isEqualTo(integer(1));
        assertThat(kvd.call("SMEMBERS", "s")).isEqualTo(array("1"));
        assertThat(kvd.call("SMEMBERS", "d")).isEqualTo(array("2"));
    }

    @Test
    void smoveOfTheLastMemberDeletesTheSource() {
        kvd.call("SADD", "s", "a");
        kvd.call("SMOVE", "s", "d", "a");
        assertThat(kvd.call("EXISTS", "s")).isEqualTo(integer(0));
    }

    @Test
    void smoveFromAMissingSourceIsZeroWhateverTheDestination() {
        kvd.call("SET", "str", "v");
        assertThat(kvd.call("SMOVE", "missing", "str", "1")).isEqualTo(integer(0));
        assertThat(kvd.call("SMOVE", "missing", "d", "1")).isEqualTo(integer(0));
    }

    @Test
    void smoveOntoAStringIsWrongtypeEvenForAMemberTheSourceLacks() {
        kvd.call("SADD", "s", "1");
        kvd.call("SET", "str", "v");
        assertThat(kvd.call("SMOVE", "s", "str", "9")).isEqualTo(WRONGTYPE);
        assertThat(kvd.call("SMOVE", "s", "str", "1")).isEqualTo(WRONGTYPE);
        assertThat(kvd.call("SMEMBERS", "s")).isEqualTo(array("1"));
    }

    @Test
    void smoveWithinOneSetAnswersWhetherItHoldsTheMember() {
        kvd.call("SADD", "s", "1");
        assertThat(kvd.call("SMOVE", "s", "s", "1")).isEqualTo(integer(1));
        assertThat(kvd.call("SMOVE", "s", "s", "9")).isEqualTo(integer(0));
        assertThat(kvd.call("SMEMBERS", "s")).isEqualTo(array("1"));
    }

    @Test
    void smoveCreatesTheDestinationInTheMembersEncoding() {
        kvd.call("SADD", "s", "1", "a");
        kvd.call("SMOVE", "s", "ints", "1");
        kvd.call("SMOVE", "s", "other", "a");
        assertThat(encoding("ints")).isEqualTo("intset");
        assertThat(encoding("other")).isEqualTo("hashtable");
    }

    // SINTER, SINTERSTORE, SINTERCARD

    @Test
    void sinterOfIntsetsIsAscending() {
        kvd.call("SADD", "a", "5", "3", "1", "2", "4");
        kvd.call("SADD", "b", "4", "2", "9", "5");
        assertThat(kvd.call("SINTER", "a", "b")).isEqualTo(array("2", "4", "5"));
        assertThat(kvd.call("SINTER", "b", "a")).isEqualTo(array("2", "4", "5"));
    }

    @Test
    void sinterOfMixedSetsHasTheCommonMembers() {
        kvd.call("SADD", "a", "5", "3", "1", "2", "4");
        kvd.call("SADD", "c", "x", "2", "y", "4");
        assertThat(elements(kvd.call("SINTER", "a", "c"))).containsExactlyInAnyOrder("2", "4");
    }

    @Test
    void sinterWithAMissingKeyIsEmpty() {
        kvd.call("SADD", "a", "1");
        assertThat(kvd.call("SINTER", "a", "missing")).isEqualTo(EMPTY);
    }

    @Test
    void sinterIsWrongtypeForAStringEvenAfterAMissingKey() {
        kvd.call("SET", "str", "v");
        assertThat(kvd.call("SINTER", "missing", "str")).isEqualTo(WRONGTYPE);
        assertThat(kvd.call("SINTERSTORE", "d", "missing", "str")).isEqualTo(WRONGTYPE);
        assertThat(kvd.call("SINTERCARD", "2", "missing", "str")).isEqualTo(WRONGTYPE);
    }

    @Test
    void sinterstoreStoresTheIntersectionAndRepliesItsSize() {
        kvd.call("SADD", "a", "5", "3", "1", "2", "4");
        kvd.call("SADD", "b", "4", "2", "9", "5");
        assertThat(kvd.call("SINTERSTORE", "d", "a", "b")).isEqualTo(integer(3));
        assertThat(kvd.call("SMEMBERS", "d")).isEqualTo(array("2", "4", "5"));
    }

    @Test
    void sinterstoreReplacesADestinationOfAnyTypeAndItsTtl() {
        kvd.call("SADD", "a", "1", "2");
        kvd.call("SET", "str", "v", "EX", "100");
        assertThat(kvd.call("SINTERSTORE", "str", "a")).isEqualTo(integer(2));
        assertThat(kvd.call("TYPE", "str")).isEqualTo("+set\r\n");
        assertThat(kvd.call("TTL", "str")).isEqualTo(integer(-1));
    }

    @Test
    void sinterstoreDeletesTheDestinationWhenTheIntersectionIsEmpty() {
        kvd.call("SADD", "a", "1");
        kvd.call("SET", "d", "v");
        assertThat(kvd.call("SINTERSTORE", "d", "a", "missing")).isEqualTo(integer(0));
        assertThat(kvd.call("EXISTS", "d")).isEqualTo(integer(0));
    }

    @Test
    void sinterstoreMayReadItsDestination() {
        kvd.call("SADD", "d", "5", "3", "1", "2", "4");
        kvd.call("SADD", "b", "4", "2", "9", "5");
        assertThat(kvd.call("SINTERSTORE", "d", "d", "b")).isEqualTo(integer(3));
        assertThat(kvd.call("SMEMBERS", "d")).isEqualTo(array("2", "4", "5"));
    }

    @Test
    void sinterstoreStoresAnIntsetWhenTheResultCanBeOne() {
        kvd.call("SADD", "t", "30", "20", "10", "a");
        kvd.call("SREM", "t", "a");
        kvd.call("SINTERSTORE", "u", "t");
        assertThat(encoding("t")).isEqualTo("hashtable");
        assertThat(encoding("u")).isEqualTo("intset");
        assertThat(kvd.call("SMEMBERS", "u")).isEqualTo(array("10", "20", "30"));
    }

    @Test
    void sintercardCountsTheIntersection() {
        kvd.call("SADD", "a", "5", "3", "1", "2", "4");
        kvd.call("SADD", "b", "4", "2", "9", "5");
        assertThat(kvd.call("SINTERCARD", "2", "a", "b")).isEqualTo(integer(3));
        assertThat(kvd.call("SINTERCARD", "2", "a", "missing")).isEqualTo(integer(0));
    }

    @Test
    void sintercardStopsAtItsLimitAndTheLastLimitCounts() {
        kvd.call("SADD", "a", "5", "3", "1", "2", "4");
        kvd.call("SADD", "b", "4", "2", "9", "5");
        assertThat(kvd.call("SINTERCARD", "2", "a", "b", "LIMIT", "2")).isEqualTo(integer(2));
        assertThat(kvd.call("SINTERCARD", "2", "a", "b", "limit", "0")).isEqualTo(integer(3));
        assertThat(kvd.call("SINTERCARD", "2", "a", "b", "LIMIT", "1", "LIMIT", "5")).isEqualTo(integer(3));
    }

    @Test
    void sintercardNumkeysMustBeAPositiveInteger() {
        for (String numkeys : new String[]{"0", "-1", "abc", "01", "9223372036854775808"}) {
            assertThat(kvd.call("SINTERCARD", numkeys, "a")).as(numkeys).isEqualTo(NUMKEYS_NOT_POSITIVE);
        }
    }

    @Test
    void sintercardNumkeysCannotPassTheArguments() {
        assertThat(kvd.call("SINTERCARD", "3", "a", "b")).isEqualTo(NUMKEYS_PAST_ARGS);
        assertThat(kvd.call("SINTERCARD", "2", "a")).isEqualTo(NUMKEYS_PAST_ARGS);
        assertThat(kvd.call("SINTERCARD", "1")).isEqualTo("-ERR wrong number of arguments for 'sintercard' command\r\n");
    }

    @Test
    void sintercardLimitMustNotBeNegativeAndIsCheckedBeforeTheKeys() {
        kvd.call("SET", "str", "v");
        assertThat(kvd.call("SINTERCARD", "1", "str", "LIMIT", "-1")).isEqualTo(LIMIT_NEGATIVE);
        assertThat(kvd.call("SINTERCARD", "1", "str", "LIMIT", "abc")).isEqualTo(LIMIT_NEGATIVE);
        assertThat(kvd.call("SINTERCARD", "1", "str", "LIMIT", "9223372036854775808")).isEqualTo(LIMIT_NEGATIVE);
    }

    @Test
    void sintercardRejectsAnythingButLimitAfterTheKeys() {
        assertThat(kvd.call("SINTERCARD", "2", "a", "b", "FOO")).isEqualTo(SYNTAX);
        assertThat(kvd.call("SINTERCARD", "2", "a", "b", "LIMIT")).isEqualTo(SYNTAX);
        assertThat(kvd.call("SINTERCARD", "1", "a", "b")).isEqualTo(SYNTAX);
    }

    // SUNION, SUNIONSTORE, SDIFF, SDIFFSTORE

    @Test
    void sunionOfIntegersIsAscendingEvenFromAHashtable() {
        kvd.call("SADD", "s", "30", "20", "10", "5", "100", "7", "a");
        kvd.call("SREM", "s", "a");
        kvd.call("SADD", "b", "9", "5");
        assertThat(kvd.call("SUNION", "s", "b")).isEqualTo(array("5", "7", "9", "10", "20", "30", "100"));
        assertThat(kvd.call("SUNION", "s", "missing")).isEqualTo(array("5", "7", "10", "20", "30", "100"));
    }

    @Test
    void sunionWithOtherMembersHasEveryMemberOnce() {
        kvd.call("SADD", "a", "5", "3", "1", "2", "4");
        kvd.call("SADD", "c", "x", "2", "y", "4");
        assertThat(elements(kvd.call("SUNION", "c", "a")))
                .containsExactlyInAnyOrder("1", "2", "3", "4", "5", "x", "y");
    }

    @Test
    void sunionPastSetMaxIntsetEntriesHasEveryMemberOnce() {
        kvd.keyspace.limits().setSetMaxIntsetEntries(4);
        kvd.call("SADD", "a", "1", "2", "3");
        kvd.call("SADD", "b", "3", "4", "5");
        assertThat(elements(kvd.call("SUNION", "a", "b"))).containsExactlyInAnyOrder("1", "2", "3", "4", "5");
    }

    @Test
    void sunionIsWrongtypeForAStringAfterAMissingKey() {
        kvd.call("SADD", "a", "1");
        kvd.call("SET", "str", "v");
        assertThat(kvd.call("SUNION", "a", "missing", "str")).isEqualTo(WRONGTYPE);
        assertThat(kvd.call("SDIFF", "missing", "str")).isEqualTo(WRONGTYPE);
    }

    @Test
    void sdiffKeepsTheFirstSetsMembersNoOtherSetHolds() {
        kvd.call("SADD", "a", "5", "3", "1", "2", "4");
        kvd.call("SADD", "b", "4", "2", "9", "5");
        kvd.call("SADD", "c", "x", "2", "y", "4");
        assertThat(kvd.call("SDIFF", "a", "b")).isEqualTo(array("1", "3"));
        assertThat(kvd.call("SDIFF", "a", "c")).isEqualTo(array("1", "3", "5"));
        assertThat(kvd.call("SDIFF", "a", "missing")).isEqualTo(array("1", "2", "3", "4", "5"));
    }

    @Test
    void sdiffOfAMissingFirstKeyOrOfASetWithItselfIsEmpty() {
        kvd.call("SADD", "a", "1");
        assertThat(kvd.call("SDIFF", "missing", "a")).isEqualTo(EMPTY);
        assertThat(kvd.call("SDIFF", "a", "a")).isEqualTo(EMPTY);
    }

    @Test
    void sunionstoreAndSdiffstoreStoreTheResultAndReplyItsSize() {
        kvd.call("SADD", "a", "5", "3", "1", "2", "4");
        kvd.call("SADD", "c", "x", "2", "y", "4");
        assertThat(kvd.call("SUNIONSTORE", "u", "a", "c")).isEqualTo(integer(7));
        assertThat(members("u")).containsExactlyInAnyOrder("1", "2", "3", "4", "5", "x", "y");
        assertThat(kvd.call("SDIFFSTORE", "d", "a", "c")).isEqualTo(integer(3));
        assertThat(kvd.call("SMEMBERS", "d")).isEqualTo(array("1", "3", "5"));
    }

    @Test
    void sunionstoreAndSdiffstoreReplaceADestinationOfAnyType() {
        kvd.call("SADD", "a", "1");
        kvd.call("SET", "u", "v");
        kvd.call("SET", "d", "v");
        assertThat(kvd.call("SUNIONSTORE", "u", "a")).isEqualTo(integer(1));
        assertThat(kvd.call("SDIFFSTORE", "d", "a")).isEqualTo(integer(1));
        assertThat(kvd.call("TYPE", "u")).isEqualTo("+set\r\n");
        assertThat(kvd.call("TYPE", "d")).isEqualTo("+set\r\n");
    }

    @Test
    void sunionstoreAndSdiffstoreDeleteTheDestinationWhenTheResultIsEmpty() {
        kvd.call("SADD", "a", "1");
        kvd.call("SADD", "u", "x");
        kvd.call("SADD", "d", "x");
        assertThat(kvd.call("SUNIONSTORE", "u", "missing")).isEqualTo(integer(0));
        assertThat(kvd.call("SDIFFSTORE", "d", "a", "a")).isEqualTo(integer(0));
        assertThat(kvd.call("EXISTS", "u", "d")).isEqualTo(integer(0));
    }

    // SSCAN

    @Test
    void sscanOfACompactSetReturnsEverythingWithCursorZeroWhateverTheCursor() {
        kvd.call("SADD", "a", "5", "3", "1", "2", "4");
        String all = "*2\r\n$1\r\n0\r\n" + array("1", "2", "3", "4", "5");
        assertThat(kvd.call("SSCAN", "a", "0")).isEqualTo(all);
        assertThat(kvd.call("SSCAN", "a", "7")).isEqualTo(all);
        assertThat(kvd.call("SSCAN", "a", "-1")).isEqualTo(all);
    }

    @Test
    void sscanMatchFiltersMembers() {
        kvd.call("SADD", "a", "5", "3", "1", "2", "4", "10");
        kvd.call("SADD", "h", "x", "y", "z");
        assertThat(kvd.call("SSCAN", "a", "0", "MATCH", "1*")).isEqualTo("*2\r\n$1\r\n0\r\n" + array("1", "10"));
        assertThat(kvd.call("SSCAN", "h", "0", "MATCH", "x")).isEqualTo("*2\r\n$1\r\n0\r\n" + array("x"));
    }

    @Test
    void sscanOfAMissingKeyIsAnEmptyScanWhateverTheOptions() {
        assertThat(kvd.call("SSCAN", "missing", "0")).isEqualTo(EMPTY_SCAN);
        assertThat(kvd.call("SSCAN", "missing", "0", "COUNT", "0")).isEqualTo(EMPTY_SCAN);
        assertThat(kvd.call("SSCAN", "missing", "0", "FOO")).isEqualTo(EMPTY_SCAN);
    }

    @Test
    void sscanReadsTheCursorBeforeTheKey() {
        kvd.call("SET", "str", "v");
        assertThat(kvd.call("SSCAN", "missing", "abc")).isEqualTo("-ERR invalid cursor\r\n");
        assertThat(kvd.call("SSCAN", "str", "abc")).isEqualTo("-ERR invalid cursor\r\n");
        assertThat(kvd.call("SSCAN", "str", "0", "COUNT", "0")).isEqualTo(WRONGTYPE);
    }

    @Test
    void sscanRejectsTypeAndABadCount() {
        kvd.call("SADD", "a", "1");
        assertThat(kvd.call("SSCAN", "a", "0", "TYPE", "set")).isEqualTo(SYNTAX);
        assertThat(kvd.call("SSCAN", "a", "0", "COUNT", "0")).isEqualTo(SYNTAX);
        assertThat(kvd.call("SSCAN", "a", "0", "COUNT")).isEqualTo(SYNTAX);
    }

    @Test
    void sscanOfAHashtableVisitsEveryMemberOnceAcrossCalls() {
        kvd.call(command("SADD", "s", range(1, 1000)));
        List<String> seen = new ArrayList<>();
        String cursor = "0";
        int calls = 0;
        do {
            String reply = kvd.call("SSCAN", "s", cursor, "COUNT", "20");
            RespReply.Array parsed = (RespReply.Array) RespReplyParser.parse(
                    Unpooled.wrappedBuffer(reply.getBytes(StandardCharsets.UTF_8)));
            cursor = ((RespReply.BulkString) parsed.elements().get(0)).utf8();
            ((RespReply.Array) parsed.elements().get(1)).elements()
                    .forEach(member -> seen.add(((RespReply.BulkString) member).utf8()));
            calls++;
        } while (!cursor.equals("0"));
        assertThat(calls).isGreaterThan(1);
        assertThat(seen).doesNotHaveDuplicates().containsExactlyInAnyOrder(range(1, 1000));
    }

    // AOF records

    @Test
    void spopIsLoggedAsSremOfThePoppedMember() {
        kvd.server.commandLog().setEnabled(true);
        kvd.call("SADD", "s", "a");
        kvd.logged();
        kvd.call("SPOP", "s");
        assertThat(kvd.logged()).isEqualTo(record("SREM", "s", "a"));
    }

    @Test
    void spopWithACountIsLoggedAsOneSremOfThePoppedMembers() {
        kvd.server.commandLog().setEnabled(true);
        kvd.call(command("SADD", "s", range(1, 10)));
        kvd.logged();
        List<String> popped = elements(kvd.call("SPOP", "s", "2"));
        List<String> mostPopped = elements(kvd.call("SPOP", "s", "7"));
        String[] first = command("SREM", "s", popped.toArray(String[]::new));
        String[] second = command("SREM", "s", mostPopped.toArray(String[]::new));
        assertThat(kvd.logged()).isEqualTo(record(first) + record(second));
    }

    @Test
    void spopOfEveryMemberIsLoggedAsDel() {
        kvd.server.commandLog().setEnabled(true);
        kvd.call("SADD", "s", "1", "2");
        kvd.logged();
        kvd.call("SPOP", "s", "2");
        assertThat(kvd.logged()).isEqualTo(record("DEL", "s"));
    }

    @Test
    void setWritesThatChangeNothingAreNotLogged() {
        kvd.server.commandLog().setEnabled(true);
        kvd.call("SADD", "s", "1");
        kvd.logged();
        kvd.call("SADD", "s", "1");
        kvd.call("SREM", "s", "9");
        kvd.call("SPOP", "s", "0");
        kvd.call("SPOP", "missing");
        kvd.call("SMOVE", "s", "d", "9");
        kvd.call("SMOVE", "s", "s", "1");
        kvd.call("SINTERSTORE", "d", "s", "missing");
        assertThat(kvd.logged()).isEmpty();
    }

    @Test
    void smoveAndStoresAreLoggedAsSent() {
        kvd.server.commandLog().setEnabled(true);
        kvd.call("SADD", "s", "1", "2");
        kvd.logged();
        kvd.call("SMOVE", "s", "d", "1");
        kvd.call("SUNIONSTORE", "u", "s", "d");
        kvd.call("SINTERSTORE", "u", "s", "missing");
        assertThat(kvd.logged()).isEqualTo(record("SMOVE", "s", "d", "1") + record("SUNIONSTORE", "u", "s", "d")
                + record("SINTERSTORE", "u", "s", "missing"));
    }

    // Cluster

    @Test
    void sintercardsKeysMustShareASlotThisNodeServes() {
        CommandFixture node = ClusterFixture.nodeA(dir);
        assertThat(node.call("SINTERCARD", "2", "bar", "hello")).isEqualTo(CROSSSLOT);
        assertThat(node.call("SINTERCARD", "1", "foo")).isEqualTo("-MOVED 12182 127.0.0.1:7003\r\n");
        assertThat(node.call("SINTERCARD", "2", "{bar}1", "{bar}2", "LIMIT", "1")).isEqualTo(integer(0));
        assertThat(node.call("SINTERCARD", "1", "bar", "LIMIT", "1")).isEqualTo(integer(0));
    }

    @Test
    void sintercardsKeyCountIsReadAsRedisReadsItForTheSlotCheck() {
        CommandFixture node = ClusterFixture.nodeA(dir);
        // atoi: digits after white space and a sign, up to the first other byte; the low 32 bits of a long.
        assertThat(node.call("SINTERCARD", "2abc", "bar", "hello")).isEqualTo(CROSSSLOT);
        assertThat(node.call("SINTERCARD", " 2", "bar", "hello")).isEqualTo(CROSSSLOT);
        assertThat(node.call("SINTERCARD", "+2", "bar", "hello")).isEqualTo(CROSSSLOT);
        assertThat(node.call("SINTERCARD", "-4294967294", "bar", "hello")).isEqualTo(CROSSSLOT);
        assertThat(node.call("SINTERCARD", "4294967297", "bar", "foo")).isEqualTo(NUMKEYS_PAST_ARGS);
        // No keys found (a count out of range): the command runs and fails on its own.
        assertThat(node.call("SINTERCARD", "99999999999999999999999", "bar", "foo")).isEqualTo(NUMKEYS_NOT_POSITIVE);
        assertThat(node.call("SINTERCARD", "0", "foo")).isEqualTo(NUMKEYS_NOT_POSITIVE);
        assertThat(node.call("SINTERCARD", "3", "bar", "foo")).isEqualTo(NUMKEYS_PAST_ARGS);
    }
}
