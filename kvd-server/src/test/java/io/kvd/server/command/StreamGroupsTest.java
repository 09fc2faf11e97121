package io.kvd.server.command;

import io.kvd.server.client.Client;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static io.kvd.server.command.CommandFixture.START_MS;
import static io.kvd.server.command.CommandFixture.array;
import static io.kvd.server.command.CommandFixture.bulk;
import static io.kvd.server.command.CommandFixture.integer;
import static io.kvd.server.command.CommandFixture.record;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Stream consumer groups without sockets: replies as redis-server 7.0.15 sends them (with the
 * fixture's fixed clock, so idle and delivery times too), blocking, the AOF records. Every
 * option and error against redis-server itself is in kvd-it's compat/stream-groups.txt.
 */
class StreamGroupsTest {
    private static final String NULL_ARRAY = "*-1\r\n";
    private final CommandFixture kvd = new CommandFixture();

    private static String entry(String id, String... fieldsAndValues) {
        return "*2\r\n" + bulk(id) + array(fieldsAndValues);
    }

    /** XREADGROUP's reply for one stream. */
    private static String read(String key, String... entries) {
        return "*1\r\n*2\r\n" + bulk(key) + "*" + entries.length + "\r\n" + String.join("", entries);
    }

    @BeforeEach
    void threeEntries() {
        kvd.call("XADD", "s", "1-1", "f", "a");
        kvd.call("XADD", "s", "2-1", "f", "b");
        kvd.call("XADD", "s", "3-1", "f", "c");
    }

    @Test
    void aFailingAofRefusesXgroupWritesButServesXinfoAndHelp() {
        kvd.server.commandLog().setFailure("No space left on device");
        String misconf = "-MISCONF Errors writing to the AOF file: No space left on device\r\n";
        assertThat(kvd.call("XGROUP", "CREATE", "s", "g", "0")).isEqualTo(misconf);
        assertThat(kvd.call("XGROUP", "DESTROY", "s", "g")).isEqualTo(misconf);
        assertThat(kvd.call("XINFO", "GROUPS", "s")).isEqualTo("*0\r\n");
        assertThat(kvd.call("XGROUP", "HELP")).startsWith("*");
    }

    @Test
    void execOfAQueuedXgroupWriteIsRefusedWhileTheAofFails() {
        kvd.call("MULTI");
        assertThat(kvd.call("XGROUP", "CREATE", "s", "g", "0")).isEqualTo("+QUEUED\r\n");
        kvd.server.commandLog().setFailure("No space left on device");
        assertThat(kvd.call("EXEC")).isEqualTo(
                "-EXECABORT Transaction discarded because of: MISCONF Errors writing to the AOF file: No space left on device\r\n");
        assertThat(kvd.call("XINFO", "GROUPS", "s")).isEqualTo("*0\r\n");
    }

    @Test
    void xgroupCreateNeedsTheKeyUnlessMkstreamAndRefusesABusyName() {
        assertThat(kvd.call("XGROUP", "CREATE", "none", "g", "$")).startsWith(
                "-ERR The XGROUP subcommand requires the key to exist. Note that for CREATE you may want");
        assertThat(kvd.call("XGROUP", "CREATE", "none", "g", "$", "MKSTREAM")).isEqualTo("+OK\r\n");
        assertThat(kvd.call("XLEN", "none")).isEqualTo(integer(0));
        assertThat(kvd.call("XGROUP", "CREATE", "s", "g", "0")).isEqualTo("+OK\r\n");
        assertThat(kvd.call("XGROUP", "CREATE", "s", "g", "0"))
                .isEqualTo("-BUSYGROUP Consumer Group name already exists\r\n");
        assertThat(kvd.call("XGROUP", "CREATE", "s", "h", "0", "ENTRIESREAD", "-2"))
                .isEqualTo("-ERR value for ENTRIESREAD must be positive or -1\r\n");
        assertThat(kvd.call("XGROUP", "SETID", "s", "nog", "0"))
                .isEqualTo("-NOGROUP No such consumer group 'nog' for key name 's'\r\n");
        assertThat(kvd.call("XGROUP", "CREATE", "s", "h", "0", "MKSTREAM", "ENTRIESREAD", "1", "x"))
                .isEqualTo("-ERR unknown subcommand or wrong number of arguments for 'CREATE'. Try XGROUP HELP.\r\n");
    }

    @Test
    void xinfoGroupsListsByNameWithEntriesReadAndLag() {
        kvd.call("XGROUP", "CREATE", "s", "late", "$");
        kvd.call("XGROUP", "CREATE", "s", "early", "0");
        kvd.call("XGROUP", "CREATE", "s", "mid", "2-1", "ENTRIESREAD", "2");
        assertThat(kvd.call("XINFO", "GROUPS", "s")).isEqualTo("*3\r\n"
                + "*12\r\n" + bulk("name") + bulk("early") + bulk("consumers") + integer(0) + bulk("pending")
                + integer(0) + bulk("last-delivered-id") + bulk("0-0") + bulk("entries-read") + "$-1\r\n"
                + bulk("lag") + integer(3)
                + "*12\r\n" + bulk("name") + bulk("late") + bulk("consumers") + integer(0) + bulk("pending")
                + integer(0) + bulk("last-delivered-id") + bulk("3-1") + bulk("entries-read") + "$-1\r\n"
                + bulk("lag") + integer(0)
                + "*12\r\n" + bulk("name") + bulk("mid") + bulk("consumers") + integer(0) + bulk("pending")
                + integer(0) + bulk("last-delivered-id") + bulk("2-1") + bulk("entries-read") + integer(2)
                + bulk("lag") + integer(1));
        assertThat(kvd.call("XINFO", "STREAM", "s")).contains(bulk("groups") + integer(3));
    }

    @Test
    void xreadgroupDeliversNewEntriesOnceAndKeepsThemPending() {
        kvd.call("XGROUP", "CREATE", "s", "g", "0");
        assertThat(kvd.call("XREADGROUP", "GROUP", "g", "c1", "COUNT", "2", "STREAMS", "s", ">"))
                .isEqualTo(read("s", entry("1-1", "f", "a"), entry("2-1", "f", "b")));
        assertThat(kvd.call("XREADGROUP", "GROUP", "g", "c2", "STREAMS", "s", ">"))
                .isEqualTo(read("s", entry("3-1", "f", "c")));
        assertThat(kvd.call("XREADGROUP", "GROUP", "g", "c2", "STREAMS", "s", ">")).isEqualTo(NULL_ARRAY);
        assertThat(kvd.call("XPENDING", "s", "g")).isEqualTo("*4\r\n" + integer(3) + bulk("1-1") + bulk("3-1")
                + "*2\r\n" + array("c1", "2") + array("c2", "1"));
        assertThat(kvd.call("XACK", "s", "g", "1-1", "9-9")).isEqualTo(integer(1));
        assertThat(kvd.call("XACK", "s", "g", "1-1", "x"))
                .isEqualTo("-ERR Invalid stream ID specified as stream command argument\r\n");
        assertThat(kvd.call("XPENDING", "s", "g")).startsWith("*4\r\n" + integer(2) + bulk("2-1"));
    }

    @Test
    void xreadgroupWithAnIdRereadsTheConsumersPendingEntriesDeletedOnesAsNull() {
        kvd.call("XGROUP", "CREATE", "s", "g", "0");
        kvd.call("XREADGROUP", "GROUP", "g", "c", "STREAMS", "s", ">");
        kvd.call("XDEL", "s", "2-1");
        kvd.setTime(START_MS + 50);
        assertThat(kvd.call("XREADGROUP", "GROUP", "g", "c", "COUNT", "2", "STREAMS", "s", "0"))
                .isEqualTo(read("s", entry("1-1", "f", "a"), "*2\r\n" + bulk("2-1") + NULL_ARRAY));
        assertThat(kvd.call("XPENDING", "s", "g", "-", "+", "10")).isEqualTo("*3\r\n"
                + "*4\r\n" + bulk("1-1") + bulk("c") + integer(0) + integer(2)
                + "*4\r\n" + bulk("2-1") + bulk("c") + integer(50) + integer(1)
                + "*4\r\n" + bulk("3-1") + bulk("c") + integer(50) + integer(1));
        assertThat(kvd.call("XPENDING", "s", "g", "IDLE", "10", "-", "+", "1", "c"))
                .isEqualTo("*1\r\n*4\r\n" + bulk("2-1") + bulk("c") + integer(50) + integer(1));
        assertThat(kvd.call("XREADGROUP", "GROUP", "g", "other", "STREAMS", "s", "0")).isEqualTo(read("s"));
    }

    @Test
    void xreadgroupRefusesMissingGroupsAndDollar() {
        assertThat(kvd.call("XREADGROUP", "GROUP", "g", "c", "STREAMS", "s", ">"))
                .isEqualTo("-NOGROUP No such key 's' or consumer group 'g' in XREADGROUP with GROUP option\r\n");
        kvd.call("XGROUP", "CREATE", "s", "g", "0");
        assertThat(kvd.call("XREADGROUP", "GROUP", "g", "c", "STREAMS", "s", "$"))
                .startsWith("-ERR The $ ID is meaningless in the context of XREADGROUP");
        assertThat(kvd.call("XREADGROUP", "COUNT", "1", "NOACK", "STREAMS", "s", ">"))
                .isEqualTo("-ERR Missing GROUP option for XREADGROUP\r\n");
    }

    @Test
    void consumersAreCreatedDeletedAndShownWithTheirIdleTime() {
        kvd.call("XGROUP", "CREATE", "s", "g", "0");
        assertThat(kvd.call("XGROUP", "CREATECONSUMER", "s", "g", "b")).isEqualTo(integer(1));
        assertThat(kvd.call("XGROUP", "CREATECONSUMER", "s", "g", "b")).isEqualTo(integer(0));
        kvd.call("XREADGROUP", "GROUP", "g", "a", "COUNT", "2", "STREAMS", "s", ">");
        kvd.setTime(START_MS + 7);
        assertThat(kvd.call("XINFO", "CONSUMERS", "s", "g")).isEqualTo("*2\r\n"
                + "*6\r\n" + bulk("name") + bulk("a") + bulk("pending") + integer(2) + bulk("idle") + integer(7)
                + "*6\r\n" + bulk("name") + bulk("b") + bulk("pending") + integer(0) + bulk("idle") + integer(7));
        assertThat(kvd.call("XGROUP", "DELCONSUMER", "s", "g", "a")).isEqualTo(integer(2));
        assertThat(kvd.call("XPENDING", "s", "g")).isEqualTo("*4\r\n" + integer(0) + "$-1\r\n$-1\r\n" + NULL_ARRAY);
        assertThat(kvd.call("XGROUP", "DESTROY", "s", "g")).isEqualTo(integer(1));
        assertThat(kvd.call("XGROUP", "DESTROY", "s", "g")).isEqualTo(integer(0));
        assertThat(kvd.call("XINFO", "CONSUMERS", "s", "g"))
                .isEqualTo("-NOGROUP No such consumer group 'g' for key name 's'\r\n");
    }

    @Test
    void xinfoStreamFullShowsEachGroupsPendingEntriesAndConsumers() {
        kvd.call("XGROUP", "CREATE", "s", "g", "0");
        kvd.call("XREADGROUP", "GROUP", "g", "c", "COUNT", "1", "STREAMS", "s", ">");
        String full = kvd.call("XINFO", "STREAM", "s", "FULL");
        assertThat(full.substring(full.indexOf(bulk("groups")))).isEqualTo(bulk("groups") + "*1\r\n*14\r\n"
                + bulk("name") + bulk("g") + bulk("last-delivered-id") + bulk("1-1") + bulk("entries-read")
                + integer(1) + bulk("lag") + integer(2) + bulk("pel-count") + integer(1) + bulk("pending")
                + "*1\r\n*4\r\n" + bulk("1-1") + bulk("c") + integer(START_MS) + integer(1)
                + bulk("consumers") + "*1\r\n*8\r\n" + bulk("name") + bulk("c") + bulk("seen-time")
                + integer(START_MS) + bulk("pel-count") + integer(1) + bulk("pending")
                + "*1\r\n*3\r\n" + bulk("1-1") + integer(START_MS) + integer(1));
    }

    @Test
    void xclaimMovesIdleEntriesAndForceCreatesThem() {
        kvd.call("XGROUP", "CREATE", "s", "g", "0");
        kvd.call("XREADGROUP", "GROUP", "g", "a", "COUNT", "2", "STREAMS", "s", ">");
        kvd.setTime(START_MS + 100);
        assertThat(kvd.call("XCLAIM", "s", "g", "b", "200", "1-1")).isEqualTo("*0\r\n");
        assertThat(kvd.call("XCLAIM", "s", "g", "b", "50", "1-1", "3-1"))
                .isEqualTo("*1\r\n" + entry("1-1", "f", "a"));
        assertThat(kvd.call("XCLAIM", "s", "g", "b", "0", "3-1", "FORCE", "JUSTID", "RETRYCOUNT", "5"))
                .isEqualTo("*1\r\n" + bulk("3-1"));
        assertThat(kvd.call("XPENDING", "s", "g", "-", "+", "10", "b")).isEqualTo("*2\r\n"
                + "*4\r\n" + bulk("1-1") + bulk("b") + integer(0) + integer(2)
                + "*4\r\n" + bulk("3-1") + bulk("b") + integer(0) + integer(5));
        assertThat(kvd.call("XCLAIM", "s", "g", "b", "0", "1-1", "BAD"))
                .isEqualTo("-ERR Unrecognized XCLAIM option 'BAD'\r\n");
        kvd.call("XDEL", "s", "2-1");
        assertThat(kvd.call("XCLAIM", "s", "g", "b", "0", "2-1")).isEqualTo("*0\r\n");
        assertThat(kvd.call("XPENDING", "s", "g")).startsWith("*4\r\n" + integer(2));
    }

    @Test
    void xautoclaimWalksThePelFromStartAndReportsDeletedEntries() {
        kvd.call("XGROUP", "CREATE", "s", "g", "0");
        kvd.call("XREADGROUP", "GROUP", "g", "a", "STREAMS", "s", ">");
        kvd.call("XDEL", "s", "2-1");
        assertThat(kvd.call("XAUTOCLAIM", "s", "g", "b", "0", "0", "COUNT", "2"))
                .isEqualTo("*3\r\n" + bulk("3-1") + "*1\r\n" + entry("1-1", "f", "a") + "*1\r\n" + bulk("2-1"));
        assertThat(kvd.call("XAUTOCLAIM", "s", "g", "b", "0", "3-1", "JUSTID"))
                .isEqualTo("*3\r\n" + bulk("0-0") + "*1\r\n" + bulk("3-1") + "*0\r\n");
        assertThat(kvd.call("XAUTOCLAIM", "s", "g", "b", "0", "0", "COUNT", "0"))
                .isEqualTo("-ERR COUNT must be > 0\r\n");
    }

    @Test
    void blockedXreadgroupIsServedByXaddAndAnsweredWhenItsGroupOrKeyGoes() {
        kvd.call("XGROUP", "CREATE", "s", "g", "$");
        Client reader = kvd.newClient();
        assertThat(kvd.callAs(reader, "XREADGROUP", "GROUP", "g", "c", "BLOCK", "0", "STREAMS", "s", ">")).isEmpty();
        kvd.call("XADD", "s", "4-1", "f", "d");
        assertThat(kvd.pending(reader)).isEqualTo(read("s", entry("4-1", "f", "d")));
        assertThat(kvd.call("XPENDING", "s", "g")).startsWith("*4\r\n" + integer(1) + bulk("4-1"));

        kvd.callAs(reader, "XREADGROUP", "GROUP", "g", "c", "BLOCK", "0", "STREAMS", "s", ">");
        kvd.call("XGROUP", "DESTROY", "s", "g");
        assertThat(kvd.pending(reader))
                .isEqualTo("-NOGROUP the consumer group this client was blocked on no longer exists\r\n");

        kvd.call("XGROUP", "CREATE", "s", "g", "$");
        kvd.callAs(reader, "XREADGROUP", "GROUP", "g", "c", "BLOCK", "0", "STREAMS", "s", ">");
        kvd.call("DEL", "s");
        assertThat(kvd.pending(reader)).isEqualTo("-UNBLOCKED the stream key no longer exists\r\n");
        assertThat(reader.isBlocked()).isFalse();

        kvd.call("XGROUP", "CREATE", "s", "g", "$", "MKSTREAM");
        kvd.callAs(reader, "XREADGROUP", "GROUP", "g", "c", "BLOCK", "0", "STREAMS", "s", ">");
        Client popper = kvd.newClient();
        kvd.callAs(popper, "BLPOP", "l", "0");
        kvd.call("FLUSHALL");
        assertThat(kvd.pending(reader)).isEqualTo("-UNBLOCKED the stream key no longer exists\r\n");
        assertThat(popper.isBlocked()).isTrue();
    }

    @Test
    void xreadgroupIsLoggedAsXclaimsAndNoackReadsAsTheGroupsId() {
        kvd.server.commandLog().setEnabled(true);
        kvd.call("XGROUP", "CREATE", "s", "g", "0");
        kvd.call("XREADGROUP", "GROUP", "g", "a", "COUNT", "2", "STREAMS", "s", ">");
        kvd.call("XREADGROUP", "GROUP", "g", "b", "NOACK", "STREAMS", "s", ">");
        kvd.call("XREADGROUP", "GROUP", "g", "a", "STREAMS", "s", "0");
        kvd.call("XACK", "s", "g", "1-1");
        String time = Long.toString(START_MS);
        assertThat(kvd.logged()).isEqualTo(record("SELECT", "0")
                + record("XGROUP", "CREATE", "s", "g", "0")
                + record("MULTI")
                + record("XCLAIM", "s", "g", "a", "0", "1-1", "TIME", time, "RETRYCOUNT", "1", "FORCE", "JUSTID",
                        "LASTID", "1-1")
                + record("XCLAIM", "s", "g", "a", "0", "2-1", "TIME", time, "RETRYCOUNT", "1", "FORCE", "JUSTID",
                        "LASTID", "2-1")
                + record("EXEC")
                + record("MULTI")
                + record("XGROUP", "CREATECONSUMER", "s", "g", "b")
                + record("XGROUP", "SETID", "s", "g", "3-1", "ENTRIESREAD", "3")
                + record("EXEC")
                + record("XACK", "s", "g", "1-1"));
    }

    @Test
    void xclaimAndXautoclaimAreLoggedAsAnXclaimPerEntry() {
        kvd.call("XGROUP", "CREATE", "s", "g", "0");
        kvd.call("XREADGROUP", "GROUP", "g", "a", "COUNT", "1", "STREAMS", "s", ">");
        kvd.server.commandLog().setEnabled(true);
        kvd.call("XCLAIM", "s", "g", "b", "0", "1-1", "LASTID", "2-1");
        kvd.call("XCLAIM", "s", "g", "b", "0", "9-9", "LASTID", "3-1");
        kvd.call("XAUTOCLAIM", "s", "g", "c", "0", "0");
        String time = Long.toString(START_MS);
        assertThat(kvd.logged()).isEqualTo(record("SELECT", "0")
                + record("XCLAIM", "s", "g", "b", "0", "1-1", "TIME", time, "RETRYCOUNT", "2", "FORCE", "JUSTID",
                        "LASTID", "2-1")
                + record("XGROUP", "SETID", "s", "g", "3-1", "ENTRIESREAD", "1")
                + record("XCLAIM", "s", "g", "c", "0", "1-1", "TIME", time, "RETRYCOUNT", "3", "FORCE", "JUSTID",
                        "LASTID", "3-1"));
    }

    @Test
    void groupChangesNotifyAsRedisCallSitesDo() {
        Client subscriber = kvd.newClient();
        kvd.call("CONFIG", "SET", "notify-keyspace-events", "KEA");
        kvd.callAs(subscriber, "PSUBSCRIBE", "__keyevent@0__:*");
        kvd.call("XGROUP", "CREATE", "s", "g", "0");
        kvd.call("XGROUP", "SETID", "s", "g", "0");
        kvd.call("XREADGROUP", "GROUP", "g", "a", "STREAMS", "s", ">");
        kvd.call("XREADGROUP", "GROUP", "g", "a", "STREAMS", "s", "0");
        kvd.call("XCLAIM", "s", "g", "b", "0", "1-1");
        kvd.call("XAUTOCLAIM", "s", "g", "c", "0", "0");
        kvd.call("XACK", "s", "g", "1-1");
        kvd.call("XGROUP", "DELCONSUMER", "s", "g", "c");
        kvd.call("XGROUP", "DESTROY", "s", "g");
        String events = kvd.pendingOutput(subscriber).replaceAll("(?s)\\*1?4\\r\\n\\$8\\r\\npmessage\\r\\n.*?"
                + "__keyevent@0__:([a-z-]+)\\r\\n\\$1\\r\\ns\\r\\n", "$1 ");
        assertThat(events).endsWith("xgroup-create xgroup-setid xgroup-createconsumer xgroup-createconsumer "
                + "xgroup-createconsumer xgroup-delconsumer xgroup-destroy ");
    }

    @Test
    void groupChangesDoNotAbortAWatchAsRedisSignalsNoModifiedKey() {
        kvd.call("XGROUP", "CREATE", "s", "g", "0");
        Client watcher = kvd.newClient();
        kvd.callAs(watcher, "WATCH", "s");
        kvd.call("XREADGROUP", "GROUP", "g", "a", "STREAMS", "s", ">");
        kvd.call("XACK", "s", "g", "1-1");
        kvd.call("XGROUP", "DESTROY", "s", "g");
        kvd.callAs(watcher, "MULTI");
        kvd.callAs(watcher, "PING");
        assertThat(kvd.callAs(watcher, "EXEC")).isEqualTo("*1\r\n+PONG\r\n");
    }

    @Test
    void copyCopiesTheGroupsWhole() {
        kvd.call("XGROUP", "CREATE", "s", "g", "0");
        kvd.call("XREADGROUP", "GROUP", "g", "a", "COUNT", "1", "STREAMS", "s", ">");
        kvd.call("COPY", "s", "t");
        kvd.call("XACK", "s", "g", "1-1");
        assertThat(kvd.call("XPENDING", "t", "g")).isEqualTo("*4\r\n" + integer(1) + bulk("1-1") + bulk("1-1")
                + "*1\r\n" + array("a", "1"));
        assertThat(kvd.call("XPENDING", "s", "g")).startsWith("*4\r\n" + integer(0));
    }
}
