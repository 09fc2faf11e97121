package io.kvd.server.command;

import io.kvd.server.client.Client;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static io.kvd.server.command.CommandFixture.array;
import static io.kvd.server.command.CommandFixture.integer;
import static io.kvd.server.command.CommandFixture.record;
import static org.assertj.core.api.Assertions.assertThat;

/** SORT and SORT_RO as Redis 7.0 answers them; each expected reply was checked against redis-server. */
class SortCommandTest {
    private static final String SYNTAX = "-ERR syntax error\r\n";
    private static final String BAD_SCORES = "-ERR One or more scores can't be converted into double\r\n";
    private static final String WRONGTYPE = "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n";
    private static final String NULL = "$-1\r\n";

    private final CommandFixture kvd = new CommandFixture();

    @Test
    void sortsAListNumericallyAscendingOrDescending() {
        kvd.call("RPUSH", "l", "3", "1", "2", "10", "-5", "2.5");
        assertThat(kvd.call("SORT", "l")).isEqualTo(array("-5", "1", "2", "2.5", "3", "10"));
        assertThat(kvd.call("SORT", "l", "DESC")).isEqualTo(array("10", "3", "2.5", "2", "1", "-5"));
        assertThat(kvd.call("SORT_RO", "l", "desc", "asc")).isEqualTo(array("-5", "1", "2", "2.5", "3", "10"));
    }

    @Test
    void alphaSortsByBytes() {
        kvd.call("RPUSH", "l", "3", "1", "2", "10", "b", "B");
        assertThat(kvd.call("SORT", "l", "ALPHA")).isEqualTo(array("1", "10", "2", "3", "B", "b"));
        assertThat(kvd.call("SORT", "l")).isEqualTo(BAD_SCORES);
    }

    @Test
    void alphaRepliesCompareUpToANulByteButStoredResultsCompareEveryByte() {
        kvd.call("RPUSH", "l", "a\0z", "a\0b", "a");
        assertThat(kvd.call("SORT", "l", "ALPHA")).isEqualTo(array("a\0z", "a\0b", "a"));
        kvd.call("SORT", "l", "ALPHA", "STORE", "d");
        assertThat(kvd.call("LRANGE", "d", "0", "-1")).isEqualTo(array("a", "a\0b", "a\0z"));
    }

    @Test
    void limitClampsItsOffsetAndCount() {
        kvd.call("RPUSH", "l", "3", "1", "2");
        assertThat(kvd.call("SORT", "l", "LIMIT", "1", "1")).isEqualTo(array("2"));
        assertThat(kvd.call("SORT", "l", "LIMIT", "-1", "2")).isEqualTo(array("1", "2"));
        assertThat(kvd.call("SORT", "l", "LIMIT", "1", "-5")).isEqualTo(array("2", "3"));
        assertThat(kvd.call("SORT", "l", "LIMIT", "3", "1")).isEqualTo(array());
        assertThat(kvd.call("SORT", "l", "LIMIT", "2", "9223372036854775807")).isEqualTo(array("3"));
        assertThat(kvd.call("SORT", "l", "LIMIT", "a", "1")).isEqualTo("-ERR value is not an integer or out of range\r\n");
    }

    @Test
    void optionsAreReadBeforeTheKey() {
        kvd.call("SET", "s", "v");
        assertThat(kvd.call("SORT", "s", "foo")).isEqualTo(SYNTAX);
        assertThat(kvd.call("SORT", "s", "LIMIT", "1")).isEqualTo(SYNTAX);
        assertThat(kvd.call("SORT", "s")).isEqualTo(WRONGTYPE);
        assertThat(kvd.call("SORT", "missing")).isEqualTo(array());
    }

    @Test
    void sortRoRefusesStore() {
        kvd.call("RPUSH", "l", "1");
        assertThat(kvd.call("SORT_RO", "l", "STORE", "d")).isEqualTo(SYNTAX);
        assertThat(kvd.call("EXISTS", "d")).isEqualTo(integer(0));
    }

    @Test
    void byAPatternWithoutAStarKeepsTheListOrderAndLimitsIt() {
        kvd.call("RPUSH", "l", "a", "1", "b");
        assertThat(kvd.call("SORT", "l", "BY", "nosort")).isEqualTo(array("a", "1", "b"));
        assertThat(kvd.call("SORT", "l", "BY", "nosort", "DESC", "LIMIT", "1", "5")).isEqualTo(array("1", "a"));
        // A later BY with a '*' does not bring the sorting back.
        assertThat(kvd.call("SORT", "l", "BY", "nosort", "BY", "w_*")).isEqualTo(array("a", "1", "b"));
    }

    @Test
    void byReadsWeightsFromStringKeysAndHashFieldsMissingOnesWeighZero() {
        kvd.call("RPUSH", "l", "a", "b", "c");
        kvd.call("MSET", "w_a", "3", "w_b", "-1");
        kvd.call("HSET", "h_c", "f", "-2");
        assertThat(kvd.call("SORT", "l", "BY", "w_*")).isEqualTo(array("b", "c", "a"));
        assertThat(kvd.call("SORT", "l", "BY", "h_*->f")).isEqualTo(array("c", "a", "b"));
        assertThat(kvd.call("SORT", "l", "BY", "w_*", "GET", "#", "GET", "w_*", "GET", "h_*->f"))
                .isEqualTo("*9\r\n$1\r\nb\r\n$2\r\n-1\r\n" + NULL + "$1\r\nc\r\n" + NULL + "$2\r\n-2\r\n"
                        + "$1\r\na\r\n$1\r\n3\r\n" + NULL);
    }

    @Test
    void anArrowWithoutAFieldIsPartOfTheKeyName() {
        kvd.call("RPUSH", "l", "b", "a");
        kvd.call("SET", "k_a->", "9");
        assertThat(kvd.call("SORT", "l", "BY", "k_*->")).isEqualTo(array("b", "a"));
    }

    @Test
    void alphaByPutsMissingWeightsFirstAndKeepsTiesInListOrder() {
        kvd.call("RPUSH", "l", "d", "a", "c", "b");
        kvd.call("MSET", "w_a", "x", "w_b", "x", "w_c", "w");
        assertThat(kvd.call("SORT", "l", "BY", "w_*", "ALPHA")).isEqualTo(array("d", "c", "a", "b"));
        assertThat(kvd.call("SORT", "l", "BY", "w_*", "ALPHA", "DESC")).isEqualTo(array("a", "b", "c", "d"));
    }

    @Test
    void weightsAreReadAsStrtodDoes() {
        kvd.call("RPUSH", "l", "", " 1", "0x10", "inf", "-inf", "1\0abc", ".5");
        assertThat(kvd.call("SORT", "l")).isEqualTo(array("-inf", "", ".5", " 1", "1\0abc", "0x10", "inf"));
        for (String bad : new String[] {"1 ", "nan", "1e400", "1e-310", "-", " "}) {
            kvd.call("DEL", "e");
            kvd.call("RPUSH", "e", bad);
            assertThat(kvd.call("SORT", "e")).as(bad).isEqualTo(BAD_SCORES);
        }
        kvd.call("DEL", "e");
        kvd.call("RPUSH", "e", "0x1p-1074", "2.3e-308");
        assertThat(kvd.call("SORT", "e")).isEqualTo(array("0x1p-1074", "2.3e-308"));
    }

    @Test
    void sortedSetsWithoutSortingGiveTheirRankRange() {
        kvd.call("ZADD", "z", "1", "c", "2", "b", "3", "a");
        assertThat(kvd.call("SORT", "z", "ALPHA")).isEqualTo(array("a", "b", "c"));
        assertThat(kvd.call("SORT", "z", "BY", "nosort")).isEqualTo(array("c", "b", "a"));
        assertThat(kvd.call("SORT", "z", "BY", "nosort", "DESC", "LIMIT", "1", "5")).isEqualTo(array("b", "c"));
        assertThat(kvd.call("SORT", "z", "BY", "nosort", "LIMIT", "2", "-1")).isEqualTo(array("a"));
    }

    @Test
    void sortingASortedSetMakesItASkipListQuietly() {
        kvd.call("ZADD", "z", "1", "a");
        kvd.server.commandLog().setEnabled(true);
        kvd.logged();
        kvd.call("WATCH", "z");
        kvd.call("SORT", "z", "ALPHA");
        assertThat(kvd.call("OBJECT", "ENCODING", "z")).isEqualTo(CommandFixture.bulk("skiplist"));
        kvd.call("MULTI");
        kvd.call("PING");
        assertThat(kvd.call("EXEC")).isEqualTo("*1\r\n+PONG\r\n");
        assertThat(kvd.logged()).isEmpty();
    }

    @Test
    void setsAreSortedByTheirMembersWhenStoredOrSortedForAScript() {
        kvd.call("SADD", "s", "pear", "apple", "fig");
        assertThat(kvd.call("SORT", "s", "BY", "nosort", "STORE", "d")).isEqualTo(integer(3));
        assertThat(kvd.call("LRANGE", "d", "0", "-1")).isEqualTo(array("apple", "fig", "pear"));
        assertThat(kvd.call("EVAL", "return redis.call('SORT', KEYS[1], 'BY', 'nosort')", "1", "s"))
                .isEqualTo(array("apple", "fig", "pear"));
    }

    @Test
    void storeReplacesTheDestinationWithAListWithoutTtl() {
        kvd.call("RPUSH", "l", "2", "1");
        kvd.call("SET", "d", "v", "EX", "100");
        assertThat(kvd.call("SORT", "l", "STORE", "d")).isEqualTo(integer(2));
        assertThat(kvd.call("LRANGE", "d", "0", "-1")).isEqualTo(array("1", "2"));
        assertThat(kvd.call("TTL", "d")).isEqualTo(integer(-1));
    }

    @Test
    void storeWritesMissingGetsAsEmptyStrings() {
        kvd.call("RPUSH", "l", "a", "b");
        kvd.call("SET", "w_a", "x");
        assertThat(kvd.call("SORT", "l", "BY", "nosort", "GET", "w_*", "GET", "#", "STORE", "d")).isEqualTo(integer(4));
        assertThat(kvd.call("LRANGE", "d", "0", "-1")).isEqualTo(array("x", "a", "", "b"));
    }

    @Test
    void anEmptyResultDeletesTheDestination() {
        kvd.call("RPUSH", "l", "1");
        kvd.call("SET", "d", "v");
        assertThat(kvd.call("SORT", "l", "LIMIT", "0", "0", "STORE", "d")).isEqualTo(integer(0));
        assertThat(kvd.call("EXISTS", "d")).isEqualTo(integer(0));
    }

    @Test
    void storeIsLoggedAsSentAndOnlyWhenItChangedSomething() {
        kvd.call("RPUSH", "l", "1");
        kvd.server.commandLog().setEnabled(true);
        kvd.call("SORT", "l");
        kvd.call("SORT", "missing", "STORE", "d");
        kvd.call("SORT", "l", "STORE", "d");
        kvd.call("SORT", "missing", "STORE", "d");
        assertThat(kvd.logged()).isEqualTo(record("SELECT", "0") + record("SORT", "l", "STORE", "d")
                + record("SORT", "missing", "STORE", "d"));
    }

    @Test
    void storeAnnouncesSortstoreOrDel() {
        Client subscriber = kvd.newClient();
        kvd.call("CONFIG", "SET", "notify-keyspace-events", "Egl");
        kvd.callAs(subscriber, "PSUBSCRIBE", "__keyevent*");
        kvd.pendingOutput(subscriber);
        kvd.call("RPUSH", "l", "1");
        kvd.pendingOutput(subscriber);
        kvd.call("SORT", "l", "STORE", "d");
        assertThat(kvd.pendingOutput(subscriber)).contains("__keyevent@0__:sortstore").doesNotContain(":del");
        kvd.call("SORT", "missing", "STORE", "d");
        assertThat(kvd.pendingOutput(subscriber)).contains("__keyevent@0__:del");
    }

    @Test
    void keysAreTheSortedKeyAndTheLastStoreDestination() {
        assertThat(kvd.call("COMMAND", "GETKEYS", "SORT", "k")).isEqualTo("*1\r\n$1\r\nk\r\n");
        assertThat(kvd.call("COMMAND", "GETKEYS", "SORT", "k", "STORE", "a", "LIMIT", "0", "1", "STORE", "b"))
                .isEqualTo("*2\r\n$1\r\nk\r\n$1\r\nb\r\n");
        // GET's pattern is skipped, so a pattern named "store" is no option.
        assertThat(kvd.call("COMMAND", "GETKEYS", "SORT", "k", "GET", "store", "x")).isEqualTo("*1\r\n$1\r\nk\r\n");
        assertThat(kvd.call("COMMAND", "GETKEYS", "SORT", "k", "STORE")).isEqualTo("*1\r\n$1\r\nk\r\n");
        assertThat(kvd.call("COMMAND", "GETKEYS", "SORT_RO", "k", "STORE", "a")).isEqualTo("*1\r\n$1\r\nk\r\n");
    }

    /** Cluster mode, on node a of {@link ClusterFixture}: "bar" and "hello" are its slots, "foo" node c's. */
    @Test
    void clusterModeRefusesPatternsAndChecksTheDestinationsSlot(@TempDir Path dir) {
        CommandFixture node = ClusterFixture.nodeA(dir);
        node.call("RPUSH", "bar", "1");
        assertThat(node.call("SORT", "bar", "BY", "w_*")).isEqualTo("-ERR BY option of SORT denied in Cluster mode.\r\n");
        assertThat(node.call("SORT", "bar", "GET", "#")).isEqualTo("-ERR GET option of SORT denied in Cluster mode.\r\n");
        assertThat(node.call("SORT", "bar", "BY", "nosort")).isEqualTo(array("1"));
        assertThat(node.call("SORT", "bar", "STORE", "foo")).isEqualTo("-CROSSSLOT Keys in request don't hash to the same slot\r\n");
        assertThat(node.call("SORT", "{bar}x", "STORE", "{bar}y")).isEqualTo(integer(0));
    }
}
