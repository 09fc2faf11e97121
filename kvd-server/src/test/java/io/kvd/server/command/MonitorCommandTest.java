package io.kvd.server.command;

import io.kvd.server.client.Client;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * MONITOR: which commands its clients see, when, and as what; and what a monitoring client may
 * still do. Streams checked against redis-server 7.0.15 (times replaced by {@code T}).
 */
class MonitorCommandTest {
    private static final String ADDR = "127.0.0.1:50000";

    private final CommandFixture kvd = new CommandFixture();
    private final Client monitor = kvd.newClient();

    MonitorCommandTest() {
        assertThat(kvd.callAs(monitor, "monitor")).isEqualTo("+OK\r\n");
    }

    /** What the monitor was sent since last asked, with each line's time as T. */
    private String seen() {
        return timesAsT(kvd.pendingOutput(monitor));
    }

    private static String timesAsT(String output) {
        return output.replaceAll("(?m)^\\+\\d+\\.\\d{6} ", "+T ");
    }

    private static String line(int db, String source, String args) {
        return "+T [" + db + " " + source + "] " + args + "\r\n";
    }

    @Test
    void eachCommandIsShownOnceItRanWithItsDatabase() {
        kvd.call("set", "foo", "bar");
        kvd.call("select", "1");
        kvd.call("get", "foo");
        assertThat(seen()).isEqualTo(line(0, ADDR, "\"set\" \"foo\" \"bar\"") + line(1, ADDR, "\"select\" \"1\"")
                + line(1, ADDR, "\"get\" \"foo\""));
    }

    @Test
    void aCommandThatRanAndFailedIsShownOneRefusedBeforeRunningIsNot() {
        kvd.call("set", "foo", "bar");
        kvd.call("incr", "foo");
        kvd.call("get");
        kvd.call("nosuch", "x");
        kvd.call("client", "NOSUCH");
        assertThat(seen()).isEqualTo(line(0, ADDR, "\"set\" \"foo\" \"bar\"") + line(0, ADDR, "\"incr\" \"foo\""));
    }

    @Test
    void adminCommandsAreNotShown() {
        kvd.call("config", "GET", "maxmemory");
        kvd.call("client", "LIST");
        kvd.call("slowlog", "LEN");
        kvd.call("client", "setname", "worker");
        kvd.call("monitor");
        assertThat(seen()).isEqualTo(line(0, ADDR, "\"client\" \"setname\" \"worker\""));
    }

    @Test
    void aTransactionShowsMultiThenItsCommandsAsExecRunsThemThenExec() {
        kvd.call("multi");
        kvd.call("set", "a", "1");
        kvd.call("incr", "a");
        assertThat(seen()).isEqualTo(line(0, ADDR, "\"multi\""));
        kvd.call("exec");
        assertThat(seen()).isEqualTo(line(0, ADDR, "\"set\" \"a\" \"1\"") + line(0, ADDR, "\"incr\" \"a\"")
                + line(0, ADDR, "\"exec\""));
    }

    @Test
    void aTransactionAbortedByARefusedCommandShowsMultiAndExecOnly() {
        kvd.call("multi");
        kvd.call("get");
        kvd.call("exec");
        assertThat(seen()).isEqualTo(line(0, ADDR, "\"multi\"") + line(0, ADDR, "\"exec\""));
    }

    @Test
    void aScriptIsShownBeforeItsCommandsWhichComeFromLua() {
        kvd.call("select", "2");
        kvd.call("eval", "redis.call('set', KEYS[1], ARGV[1]) return redis.call('get', 'x')", "1", "k", "v");
        kvd.call("eval", "return redis.call('get')", "0");
        assertThat(seen()).isEqualTo(line(2, ADDR, "\"select\" \"2\"")
                + line(2, ADDR, "\"eval\" \"redis.call('set', KEYS[1], ARGV[1]) return redis.call('get', 'x')\" \"1\" \"k\" \"v\"")
                + line(2, "lua", "\"set\" \"k\" \"v\"") + line(2, "lua", "\"get\" \"x\"")
                + line(2, ADDR, "\"eval\" \"return redis.call('get')\" \"0\""));
    }

    @Test
    void aFunctionCallIsShownBeforeItsCommands() {
        kvd.call("function", "load", "#!lua name=lib\nredis.register_function('f', function() return redis.call('set', 'a', 'b') end)");
        seen();
        kvd.call("fcall", "f", "0");
        assertThat(seen()).isEqualTo(line(0, ADDR, "\"fcall\" \"f\" \"0\"") + line(0, "lua", "\"set\" \"a\" \"b\""));
    }

    @Test
    void passwordsAreRedactedWhereRedisRedactsThem() {
        kvd.call("auth", "secret");
        kvd.call("auth", "user", "secret");
        kvd.call("auth", "user", "secret", "extra");
        kvd.call("hello", "2", "AUTH", "user", "secret");
        kvd.call("hello", "2", "SETNAME", "auth", "AUTH", "user", "secret");
        kvd.call("hello", "9", "AUTH", "user", "secret");
        assertThat(seen()).isEqualTo(line(0, ADDR, "\"auth\" \"(redacted)\"")
                + line(0, ADDR, "\"auth\" \"(redacted)\" \"(redacted)\"")
                + line(0, ADDR, "\"auth\" \"user\" \"secret\" \"extra\"")
                + line(0, ADDR, "\"hello\" \"2\" \"AUTH\" \"(redacted)\" \"(redacted)\"")
                + line(0, ADDR, "\"hello\" \"2\" \"SETNAME\" \"auth\" \"AUTH\" \"(redacted)\" \"(redacted)\"")
                + line(0, ADDR, "\"hello\" \"9\" \"AUTH\" \"user\" \"secret\""));
    }

    @Test
    void migratesPasswordsAreRedacted() {
        kvd.call("migrate", "h", "p", "k", "0", "1000", "AUTH", "secret");
        kvd.call("migrate", "h", "p", "k", "0", "1000", "COPY", "AUTH2", "user", "secret", "KEYS");
        assertThat(seen()).isEqualTo(line(0, ADDR, "\"migrate\" \"h\" \"p\" \"k\" \"0\" \"1000\" \"AUTH\" \"(redacted)\"")
                + line(0, ADDR, "\"migrate\" \"h\" \"p\" \"k\" \"0\" \"1000\" \"COPY\" \"AUTH2\" \"(redacted)\" \"(redacted)\" \"KEYS\""));
    }

    @Test
    void aMonitoringClientMayNotTouchTheKeyspaceButSeesWhatItMayRun() {
        String refused = "-ERR Replica can't interact with the keyspace\r\n";
        assertThat(kvd.callAs(monitor, "get", "k")).isEqualTo(refused);
        assertThat(kvd.callAs(monitor, "set", "k", "v")).isEqualTo(refused);
        assertThat(kvd.callAs(monitor, "object", "ENCODING", "k")).isEqualTo(refused);
        assertThat(kvd.callAs(monitor, "publish", "c", "m")).isEqualTo(refused);
        assertThat(kvd.callAs(monitor, "eval", "return 1", "0")).isEqualTo(refused);
        assertThat(timesAsT(kvd.callAs(monitor, "ping"))).isEqualTo("+PONG\r\n" + line(0, ADDR, "\"ping\""));
    }

    @Test
    void aSecondMonitorIsAnsweredNothing() {
        assertThat(kvd.callAs(monitor, "monitor")).isEmpty();
    }

    @Test
    void clientListFlagsAMonitorWithO() {
        assertThat(kvd.call("client", "LIST")).contains(" flags=O ");
    }

    @Test
    void resetEndsMonitorModeAfterBeingShownToOthers() {
        Client other = kvd.newClient();
        kvd.callAs(other, "monitor");
        assertThat(kvd.callAs(monitor, "reset")).isEqualTo("+RESET\r\n");
        assertThat(timesAsT(kvd.pendingOutput(other))).isEqualTo(line(0, ADDR, "\"reset\""));
        assertThat(kvd.callAs(monitor, "get", "k")).isEqualTo("$-1\r\n");
        kvd.call("set", "k", "v");
        assertThat(kvd.pendingOutput(monitor)).isEmpty();
    }

    @Test
    void monitorQueuedInATransactionIsRefusedByExec() {
        Client other = kvd.newClient();
        kvd.callAs(other, "multi");
        assertThat(kvd.callAs(other, "monitor")).isEqualTo("+QUEUED\r\n");
        assertThat(kvd.callAs(other, "exec")).isEqualTo("*1\r\n-ERR MONITOR isn't allowed for DENY BLOCKING client\r\n");
    }
}
