package io.kvd.server.command;

import io.kvd.server.client.Client;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;

import static io.kvd.server.command.CommandFixture.START_MS;
import static io.kvd.server.command.CommandFixture.array;
import static io.kvd.server.command.CommandFixture.bulk;
import static io.kvd.server.command.CommandFixture.integer;
import static io.kvd.server.command.CommandFixture.record;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Stream commands without sockets: replies as redis-server 7.0.15 sends them, node splitting,
 * deletion and trimming, the AOF records, XREAD BLOCK. Replies of every option and error against
 * redis-server itself are in kvd-it's compat/streams.txt.
 */
class StreamCommandsTest {
    private static final String NULL_ARRAY = "*-1\r\n";
    private final CommandFixture kvd = new CommandFixture();

    /** One entry's reply: [id, [field, value, ...]]. */
    private static String entry(String id, String... fieldsAndValues) {
        return "*2\r\n" + bulk(id) + array(fieldsAndValues);
    }

    private void addEntries(String key, int from, int to) {
        for (int i = from; i <= to; i++) {
            kvd.call("XADD", key, i + "-1", "f", "v" + i);
        }
    }

    /** XINFO STREAM's field {@code name}'s reply. */
    private String info(String key, String name) {
        String reply = kvd.call("XINFO", "STREAM", key);
        int at = reply.indexOf(bulk(name)) + bulk(name).length();
        int end = reply.indexOf("\r\n", at) + 2;
        return reply.charAt(at) == '$' ? reply.substring(at, reply.indexOf("\r\n", end) + 2) : reply.substring(at, end);
    }

    @Test
    void xaddAppendsWithTheGivenIdAndAnswersIt() {
        assertThat(kvd.call("XADD", "s", "1-1", "a", "1", "b", "2")).isEqualTo(bulk("1-1"));
        assertThat(kvd.call("XADD", "s", "1-*", "a", "3")).isEqualTo(bulk("1-2"));
        assertThat(kvd.call("XADD", "s", "5-*", "a", "4")).isEqualTo(bulk("5-0"));
        assertThat(kvd.call("XLEN", "s")).isEqualTo(integer(3));
        assertThat(kvd.call("TYPE", "s")).isEqualTo("+stream\r\n");
        assertThat(kvd.call("OBJECT", "ENCODING", "s")).isEqualTo(bulk("stream"));
        assertThat(kvd.call("XRANGE", "s", "-", "+")).isEqualTo("*3\r\n" + entry("1-1", "a", "1", "b", "2")
                + entry("1-2", "a", "3") + entry("5-0", "a", "4"));
    }

    @Test
    void xaddWithAStarUsesTheClockOrTheLastIdsNextSeq() {
        assertThat(kvd.call("XADD", "s", "*", "a", "1")).isEqualTo(bulk(START_MS + "-0"));
        assertThat(kvd.call("XADD", "s", "*", "a", "1")).isEqualTo(bulk(START_MS + "-1"));
        kvd.call("XADD", "s", (START_MS + 10) + "-5", "a", "1");
        assertThat(kvd.call("XADD", "s", "*", "a", "1")).isEqualTo(bulk((START_MS + 10) + "-6"));
    }

    @Test
    void xaddRefusesIdsNotAboveTheTopAndBadArguments() {
        kvd.call("XADD", "s", "5-5", "a", "1");
        assertThat(kvd.call("XADD", "s", "5-5", "a", "1"))
                .isEqualTo("-ERR The ID specified in XADD is equal or smaller than the target stream top item\r\n");
        assertThat(kvd.call("XADD", "s", "4-*", "a", "1"))
                .isEqualTo("-ERR The ID specified in XADD is equal or smaller than the target stream top item\r\n");
        assertThat(kvd.call("XADD", "new", "0-0", "a", "1"))
                .isEqualTo("-ERR The ID specified in XADD must be greater than 0-0\r\n");
        assertThat(kvd.call("EXISTS", "new")).isEqualTo(integer(0));
        assertThat(kvd.call("XADD", "s", "6-1", "a", "1", "b"))
                .isEqualTo("-ERR wrong number of arguments for 'xadd' command\r\n");
        assertThat(kvd.call("XADD", "s", "x-1", "a", "1"))
                .isEqualTo("-ERR Invalid stream ID specified as stream command argument\r\n");
        assertThat(kvd.call("XADD", "s", "LIMIT", "5", "*", "a", "1"))
                .isEqualTo("-ERR syntax error, LIMIT cannot be used without specifying a trimming strategy\r\n");
        assertThat(kvd.call("XADD", "s", "MAXLEN", "5", "LIMIT", "5", "*", "a", "1"))
                .isEqualTo("-ERR syntax error, LIMIT cannot be used without the special ~ option\r\n");
        assertThat(kvd.call("XADD", "s", "18446744073709551615-18446744073709551615", "a", "1"))
                .isEqualTo(bulk("18446744073709551615-18446744073709551615"));
        assertThat(kvd.call("XADD", "s", "*", "a", "1"))
                .isEqualTo("-ERR The stream has exhausted the last possible ID, unable to add more items\r\n");
        kvd.call("SET", "str", "x");
        assertThat(kvd.call("XADD", "str", "*", "a", "1")).startsWith("-WRONGTYPE");
    }

    @Test
    void xaddNomkstreamOnAMissingKeyAnswersNilAndCreatesNothing() {
        assertThat(kvd.call("XADD", "s", "NOMKSTREAM", "1-1", "a", "1")).isEqualTo("$-1\r\n");
        assertThat(kvd.call("EXISTS", "s")).isEqualTo(integer(0));
    }

    @Test
    void xrangeTakesExclusiveAndIncompleteBoundsAndCount() {
        addEntries("s", 1, 5);
        assertThat(kvd.call("XRANGE", "s", "(2-1", "4")).isEqualTo("*2\r\n" + entry("3-1", "f", "v3")
                + entry("4-1", "f", "v4"));
        assertThat(kvd.call("XREVRANGE", "s", "+", "(3-1", "COUNT", "1")).isEqualTo("*1\r\n" + entry("5-1", "f", "v5"));
        assertThat(kvd.call("XRANGE", "s", "-", "+", "COUNT", "0")).isEqualTo(NULL_ARRAY);
        assertThat(kvd.call("XRANGE", "missing", "-", "+")).isEqualTo("*0\r\n");
        assertThat(kvd.call("XRANGE", "s", "(18446744073709551615-18446744073709551615", "+"))
                .isEqualTo("-ERR invalid start ID for the interval\r\n");
        assertThat(kvd.call("XRANGE", "s", "-", "(0-0")).isEqualTo("-ERR invalid end ID for the interval\r\n");
        assertThat(kvd.call("XRANGE", "s", "-", "+", "COUNT")).isEqualTo("-ERR syntax error\r\n");
    }

    @Test
    void nodesSplitAtStreamNodeMaxEntriesCountingDeletedEntries() {
        kvd.keyspace.limits().setStreamNodeMaxEntries(3);
        addEntries("s", 1, 3);
        kvd.call("XDEL", "s", "2-1");
        addEntries("s", 4, 7);
        assertThat(info("s", "radix-tree-keys")).isEqualTo(integer(3));
        assertThat(info("s", "length")).isEqualTo(integer(6));
        kvd.keyspace.checkInvariants();
    }

    @Test
    void nodesSplitAtStreamNodeMaxBytesAsRedisListpackCountsThem() {
        kvd.keyspace.limits().setStreamNodeMaxBytes(100);
        // 7 + master entry 10 bytes, then 31 bytes an entry of a 20-byte value: the fourth would pass 100.
        for (int i = 1; i <= 4; i++) {
            kvd.call("XADD", "s", i + "-1", "field", "aaaaaaaaaaaaaaaaaaaa");
        }
        assertThat(info("s", "radix-tree-keys")).isEqualTo(integer(2));
    }

    @Test
    void xdelFlagsEntriesAndANodeWithAllDeletedGoes() {
        kvd.keyspace.limits().setStreamNodeMaxEntries(2);
        addEntries("s", 1, 4);
        assertThat(kvd.call("XDEL", "s", "1-1", "9-9", "3-1")).isEqualTo(integer(2));
        assertThat(info("s", "radix-tree-keys")).isEqualTo(integer(2));
        assertThat(kvd.call("XDEL", "s", "2-1")).isEqualTo(integer(1));
        assertThat(info("s", "radix-tree-keys")).isEqualTo(integer(1));
        assertThat(info("s", "max-deleted-entry-id")).isEqualTo(bulk("3-1"));
        assertThat(info("s", "recorded-first-entry-id")).isEqualTo(bulk("4-1"));
        assertThat(kvd.call("XDEL", "s", "4-1", "bad"))
                .isEqualTo("-ERR Invalid stream ID specified as stream command argument\r\n");
        assertThat(kvd.call("XDEL", "s", "4-1")).isEqualTo(integer(1));
        assertThat(kvd.call("XLEN", "s")).isEqualTo(integer(0));
        assertThat(kvd.call("EXISTS", "s")).isEqualTo(integer(1));
        kvd.keyspace.checkInvariants();
    }

    @Test
    void exactTrimsFlagEntriesAndApproximateOnesTakeWholeNodes() {
        kvd.keyspace.limits().setStreamNodeMaxEntries(3);
        addEntries("s", 1, 7);
        assertThat(kvd.call("XTRIM", "s", "MAXLEN", "~", "5")).isEqualTo(integer(0));
        assertThat(kvd.call("XTRIM", "s", "MAXLEN", "~", "2")).isEqualTo(integer(3));
        assertThat(kvd.call("XTRIM", "s", "MAXLEN", "3")).isEqualTo(integer(1));
        assertThat(kvd.call("XTRIM", "s", "MINID", "7")).isEqualTo(integer(2));
        assertThat(kvd.call("XRANGE", "s", "-", "+")).isEqualTo("*1\r\n" + entry("7-1", "f", "v7"));
        addEntries("s", 8, 20);
        assertThat(kvd.call("XTRIM", "s", "MAXLEN", "~", "0", "LIMIT", "5")).isEqualTo(integer(3));
        kvd.keyspace.checkInvariants();
    }

    @Test
    void anApproximateTrimWithoutLimitStopsAtAHundredNodes() {
        kvd.keyspace.limits().setStreamNodeMaxEntries(1);
        addEntries("s", 1, 150);
        assertThat(kvd.call("XTRIM", "s", "MAXLEN", "~", "0")).isEqualTo(integer(100));
        assertThat(kvd.call("XTRIM", "s", "MAXLEN", "0")).isEqualTo(integer(50));
    }

    @Test
    void xsetidSetsTheCountersAndChecksTheTopItem() {
        kvd.call("XADD", "s", "5-1", "f", "v");
        assertThat(kvd.call("XSETID", "s", "5-0"))
                .isEqualTo("-ERR The ID specified in XSETID is smaller than the target stream top item\r\n");
        assertThat(kvd.call("XSETID", "s", "9-1", "ENTRIESADDED", "0"))
                .isEqualTo("-ERR The entries_added specified in XSETID is smaller than the target stream length\r\n");
        assertThat(kvd.call("XSETID", "s", "9-1", "ENTRIESADDED", "-1")).isEqualTo("-ERR entries_added must be positive\r\n");
        assertThat(kvd.call("XSETID", "missing", "1-1")).isEqualTo("-ERR no such key\r\n");
        assertThat(kvd.call("XSETID", "s", "9-1", "ENTRIESADDED", "7", "MAXDELETEDID", "3-3")).isEqualTo("+OK\r\n");
        assertThat(info("s", "last-generated-id")).isEqualTo(bulk("9-1"));
        assertThat(info("s", "entries-added")).isEqualTo(integer(7));
        assertThat(info("s", "max-deleted-entry-id")).isEqualTo(bulk("3-3"));
    }

    @Test
    void xinfoStreamAnswersRedisFieldsInOrder() {
        kvd.call("XADD", "s", "1-1", "a", "1");
        kvd.call("XADD", "s", "2-1", "b", "2");
        assertThat(kvd.call("XINFO", "STREAM", "s")).isEqualTo("*20\r\n" + bulk("length") + integer(2)
                + bulk("radix-tree-keys") + integer(1) + bulk("radix-tree-nodes") + integer(2)
                + bulk("last-generated-id") + bulk("2-1") + bulk("max-deleted-entry-id") + bulk("0-0")
                + bulk("entries-added") + integer(2) + bulk("recorded-first-entry-id") + bulk("1-1")
                + bulk("groups") + integer(0) + bulk("first-entry") + entry("1-1", "a", "1")
                + bulk("last-entry") + entry("2-1", "b", "2"));
        assertThat(kvd.call("XINFO", "STREAM", "s", "FULL", "COUNT", "1")).endsWith(bulk("entries") + "*1\r\n"
                + entry("1-1", "a", "1") + bulk("groups") + "*0\r\n");
        assertThat(kvd.call("XINFO", "STREAM", "s", "FOO"))
                .isEqualTo("-ERR unknown subcommand or wrong number of arguments for 'STREAM'. Try XINFO HELP.\r\n");
    }

    @Test
    void writesAreLoggedAsRedisPropagatesThem() {
        kvd.server.commandLog().setEnabled(true);
        kvd.keyspace.limits().setStreamNodeMaxEntries(2);
        kvd.call("XADD", "s", "*", "f", "v");
        kvd.call("XADD", "s", START_MS + "-*", "f", "v");
        kvd.setTime(START_MS + 1);
        kvd.call("XADD", "s", "MAXLEN", "~", "1", "*", "f", "v");
        kvd.call("XADD", "s", "MAXLEN", "~", "1", "LIMIT", "10", "*", "f", "v");
        kvd.call("XTRIM", "s", "MINID", "~", "99999999999999", "LIMIT", "10");
        kvd.call("XTRIM", "s", "MAXLEN", "5");
        kvd.call("XDEL", "s", "1-1");
        kvd.call("XADD", "s", "NOMKSTREAM", "MAXLEN", "0", "99999999999999-1", "f", "v");
        kvd.call("XSETID", "s", "99999999999999-9");
        kvd.call("XADD", "missing", "NOMKSTREAM", "*", "f", "v");
        assertThat(kvd.logged()).isEqualTo(record("SELECT", "0")
                + record("XADD", "s", START_MS + "-0", "f", "v")
                + record("XADD", "s", START_MS + "-1", "f", "v")
                + record("XADD", "s", "MAXLEN", "=", "1", (START_MS + 1) + "-0", "f", "v")
                + record("XADD", "s", "MAXLEN", "=", "2", "LIMIT", "10", (START_MS + 1) + "-1", "f", "v")
                + record("XTRIM", "s", "MINID", "=", "18446744073709551615-18446744073709551615", "LIMIT", "10")
                + record("XADD", "s", "NOMKSTREAM", "MAXLEN", "0", "99999999999999-1", "f", "v")
                + record("XSETID", "s", "99999999999999-9"));
    }

    @Test
    void aTrimLoggedWithLimitReplaysOnTheAofClient() {
        Client replay = kvd.newClient();
        replay.replayAof();
        kvd.callAs(replay, "XADD", "s", "1-1", "f", "v");
        kvd.callAs(replay, "XADD", "s", "2-1", "f", "v");
        assertThat(kvd.callAs(replay, "XTRIM", "s", "MAXLEN", "=", "1", "LIMIT", "10")).isEqualTo(integer(1));
        assertThat(kvd.call("XTRIM", "s", "MAXLEN", "=", "1", "LIMIT", "10"))
                .isEqualTo("-ERR syntax error, LIMIT cannot be used without the special ~ option\r\n");
    }

    @Test
    void keyspaceNotificationsNameEachChange() {
        Client subscriber = kvd.newClient();
        kvd.call("CONFIG", "SET", "notify-keyspace-events", "Et");
        kvd.callAs(subscriber, "SUBSCRIBE", "__keyevent@0__:xadd", "__keyevent@0__:xtrim", "__keyevent@0__:xdel",
                "__keyevent@0__:xsetid");
        kvd.call("XADD", "s", "MAXLEN", "0", "1-1", "f", "v");
        kvd.call("XADD", "s", "2-1", "f", "v");
        kvd.call("XDEL", "s", "2-1");
        kvd.call("XSETID", "s", "3-1");
        String published = kvd.pendingOutput(subscriber);
        assertThat(published.indexOf(":xadd")).isLessThan(published.indexOf(":xtrim"));
        assertThat(published).contains("__keyevent@0__:xdel", "__keyevent@0__:xsetid");
    }

    @Test
    void xreadAnswersTheStreamsWithNewerEntries() {
        addEntries("a", 1, 2);
        addEntries("b", 1, 1);
        assertThat(kvd.call("XREAD", "COUNT", "1", "STREAMS", "a", "b", "0", "1-1")).isEqualTo("*1\r\n*2\r\n"
                + bulk("a") + "*1\r\n" + entry("1-1", "f", "v1"));
        assertThat(kvd.call("XREAD", "STREAMS", "a", "$")).isEqualTo(NULL_ARRAY);
        assertThat(kvd.call("XREAD", "STREAMS", "a", ">")).startsWith("-ERR The > ID can be specified only");
    }

    @Test
    void xreadBlockIsServedAfterTheXaddInTheOrderClientsBlocked() {
        addEntries("s", 1, 1);
        Client first = kvd.newClient();
        Client second = kvd.newClient();
        assertThat(kvd.callAs(first, "XREAD", "BLOCK", "0", "STREAMS", "s", "$")).isEmpty();
        assertThat(kvd.callAs(second, "XREAD", "BLOCK", "0", "COUNT", "1", "STREAMS", "other", "s", "$", "1-1"))
                .isEmpty();
        assertThat(first.isBlocked()).isTrue();

        kvd.call("XADD", "s", "2-1", "f", "v2");
        assertThat(kvd.pending(first)).isEqualTo("*1\r\n*2\r\n" + bulk("s") + "*1\r\n" + entry("2-1", "f", "v2"));
        assertThat(kvd.pending(second)).isEqualTo("*1\r\n*2\r\n" + bulk("s") + "*1\r\n" + entry("2-1", "f", "v2"));
        assertThat(first.isBlocked() || second.isBlocked()).isFalse();
    }

    @Test
    void xreadBlockWaitsForAnEntryAfterItsIdAndSeesATransactionWhole() {
        Client reader = kvd.newClient();
        kvd.callAs(reader, "XREAD", "BLOCK", "0", "STREAMS", "s", "5-0");
        kvd.call("XADD", "s", "4-1", "f", "v");
        assertThat(reader.isBlocked()).isTrue();
        kvd.call("MULTI");
        kvd.call("XADD", "s", "6-1", "f", "a");
        kvd.call("XADD", "s", "7-1", "f", "b");
        kvd.call("EXEC");
        assertThat(kvd.pending(reader)).isEqualTo("*1\r\n*2\r\n" + bulk("s") + "*2\r\n" + entry("6-1", "f", "a")
                + entry("7-1", "f", "b"));
    }

    @Test
    void xreadBlockTimesOutIsUnblockedOrGoesWithItsConnection() {
        Client timed = kvd.newClient();
        Client unblocked = kvd.newClient();
        Client gone = kvd.newClient();
        kvd.callAs(timed, "XREAD", "BLOCK", "500", "STREAMS", "s", "$");
        kvd.callAs(unblocked, "XREAD", "BLOCK", "0", "STREAMS", "s", "$");
        kvd.callAs(gone, "XREAD", "BLOCK", "0", "STREAMS", "s", "$");
        kvd.server.blockedClients().timeOut(START_MS + 499);
        assertThat(timed.isBlocked()).isTrue();
        kvd.server.blockedClients().timeOut(START_MS + 500);
        assertThat(kvd.pending(timed)).isEqualTo(NULL_ARRAY);
        assertThat(kvd.call("CLIENT", "UNBLOCK", Long.toString(unblocked.id()))).isEqualTo(integer(1));
        assertThat(kvd.pending(unblocked)).isEqualTo(NULL_ARRAY);
        gone.disconnected();
        kvd.call("XADD", "s", "1-1", "f", "v");
        assertThat(kvd.server.blockedClients().isEmpty()).isTrue();
    }

    @Test
    void xreadBlockInsideATransactionAnswersAtOnce() {
        kvd.call("MULTI");
        kvd.call("XREAD", "BLOCK", "0", "STREAMS", "s", "$");
        assertThat(kvd.call("EXEC")).isEqualTo("*1\r\n" + NULL_ARRAY);
    }

    @Test
    void keyCommandsMoveAndCopyStreams() {
        addEntries("s", 1, 3);
        kvd.call("COPY", "s", "copy");
        kvd.call("XADD", "copy", "9-1", "f", "v");
        assertThat(kvd.call("XLEN", "s")).isEqualTo(integer(3));
        kvd.call("RENAME", "copy", "renamed");
        assertThat(kvd.call("XLEN", "renamed")).isEqualTo(integer(4));
        kvd.call("MOVE", "renamed", "1");
        kvd.call("SELECT", "1");
        assertThat(kvd.call("XLEN", "renamed")).isEqualTo(integer(4));
        assertThat(kvd.call("SCAN", "0", "TYPE", "stream")).isEqualTo("*2\r\n" + bulk("0") + array("renamed"));
        kvd.call("FLUSHDB");
        assertThat(kvd.call("EXISTS", "renamed")).isEqualTo(integer(0));
    }

    /** Random XADD, XDEL and XTRIM against a model (a sorted map), with ranges compared both ways. */
    @Test
    void randomOperationsMatchASortedMap() {
        long seed = Long.getLong("kvd.test.seed", 20_261_203L);
        System.out.println("StreamCommandsTest seed " + seed + " (override with -Dkvd.test.seed=N)");
        SplittableRandom random = new SplittableRandom(seed);
        kvd.keyspace.limits().setStreamNodeMaxEntries(7);
        TreeMap<Long, String> model = new TreeMap<>();
        long next = 1;
        for (int step = 0; step < 3000; step++) {
            int op = random.nextInt(10);
            if (op < 5) {
                next += 1 + random.nextInt(3);
                String value = "v" + random.nextInt(1000);
                kvd.call("XADD", "s", next + "-0", random.nextBoolean() ? "f" : "g", value);
                model.put(next, value);
            } else if (op < 7 && next > 1) {
                long id = 1 + random.nextLong(next);
                String deleted = kvd.call("XDEL", "s", id + "-0");
                assertThat(deleted).isEqualTo(integer(model.remove(id) == null ? 0 : 1));
            } else if (op == 7) {
                int keep = random.nextInt(50) + 20;
                kvd.call("XTRIM", "s", "MAXLEN", Integer.toString(keep));
                while (model.size() > keep) {
                    model.pollFirstEntry();
                }
            } else {
                long a = random.nextLong(next + 2);
                long b = random.nextLong(next + 2);
                long low = Math.min(a, b);
                long high = Math.max(a, b);
                List<String> expected = new ArrayList<>();
                model.subMap(low, true, high, true).forEach((id, value) -> expected.add(id + "=" + value));
                assertThat(ids(kvd.call("XRANGE", "s", low + "", high + ""))).isEqualTo(expected);
                List<String> reversed = new ArrayList<>(expected);
                Collections.reverse(reversed);
                assertThat(ids(kvd.call("XREVRANGE", "s", high + "", low + ""))).isEqualTo(reversed);
            }
        }
        assertThat(kvd.call("XLEN", "s")).isEqualTo(integer(model.size()));
        kvd.keyspace.checkInvariants();
    }

    /** "ms=value" of each entry of an XRANGE reply whose entries have one field and ids ms-0. */
    private static List<String> ids(String reply) {
        List<String> out = new ArrayList<>();
        String[] lines = reply.split("\r\n");
        for (int i = 1; i < lines.length; i++) {
            if (lines[i].equals("*2") && lines[i + 1].startsWith("$")) {
                String id = lines[i + 2];
                out.add(id.substring(0, id.indexOf('-')) + "=" + lines[i + 7]);
                i += 7;
            }
        }
        return out;
    }
}
