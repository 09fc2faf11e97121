package io.kvd.server.admin;

import io.kvd.server.client.Client;
import io.kvd.server.command.CommandFixture;
import io.kvd.server.slowlog.SlowLog;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.kvd.server.command.CommandFixture.bulk;
import static org.assertj.core.api.Assertions.assertThat;

/** SLOWLOG and the slow log the run step feeds, as Redis 7.0's slowlog.c. */
class SlowlogCommandTest {
    private final CommandFixture kvd = new CommandFixture();

    private List<SlowLog.Entry> entries() {
        return kvd.server.slowLog().newest(-1);
    }

    private static String args(SlowLog.Entry entry) {
        StringBuilder out = new StringBuilder();
        for (byte[] arg : entry.argv()) {
            out.append(out.length() == 0 ? "" : " ").append(new String(arg));
        }
        return out.toString();
    }

    @Test
    void aCommandAtTheThresholdIsLoggedNewestFirstWithItsClient() {
        kvd.call("CONFIG", "SET", "slowlog-log-slower-than", "0");
        kvd.call("CLIENT", "SETNAME", "worker");
        kvd.call("SET", "k", "v");
        List<SlowLog.Entry> entries = entries();
        assertThat(entries).extracting(SlowlogCommandTest::args)
                .containsExactly("SET k v", "CLIENT SETNAME worker", "CONFIG SET slowlog-log-slower-than 0");
        assertThat(entries.get(0).id()).isEqualTo(2);
        assertThat(entries.get(0).clientAddress()).isEqualTo("127.0.0.1:50000");
        assertThat(entries.get(0).clientName()).isEqualTo("worker");
        assertThat(entries.get(0).timestampSeconds()).isEqualTo(CommandFixture.START_MS / 1000);
        assertThat(kvd.call("SLOWLOG", "GET", "1")).isEqualTo("*1\r\n*6\r\n:2\r\n:" + CommandFixture.START_MS / 1000
                + "\r\n:" + entries.get(0).durationMicros() + "\r\n*3\r\n" + bulk("SET") + bulk("k") + bulk("v")
                + bulk("127.0.0.1:50000") + bulk("worker"));
    }

    @Test
    void belowTheThresholdOrDisabledNothingIsLogged() {
        // A threshold no command reaches, however slow the machine.
        kvd.call("CONFIG", "SET", "slowlog-log-slower-than", "1000000000000");
        kvd.call("SET", "k", "v");
        kvd.call("CONFIG", "SET", "slowlog-log-slower-than", "-1");
        kvd.call("SET", "k", "v");
        assertThat(kvd.call("SLOWLOG", "LEN")).isEqualTo(":0\r\n");
    }

    @Test
    void passwordsAreRedactedAsRedisRedactsThem() {
        kvd.call("CONFIG", "SET", "slowlog-log-slower-than", "0");
        kvd.call("AUTH", "user", "secret");
        kvd.call("CONFIG", "SET", "requirepass", "", "hz", "10");
        kvd.call("HELLO", "2", "AUTH", "default", "secret");
        assertThat(entries()).extracting(SlowlogCommandTest::args).startsWith(
                "HELLO 2 AUTH (redacted) (redacted)", "CONFIG SET requirepass (redacted) hz 10", "AUTH (redacted) (redacted)");
    }

    @Test
    void argumentsACommandRefusedBeforeRedactingAreLoggedAsSent() {
        // Redis's authCommand answers a syntax error, and helloCommand NOPROTO, before redacting.
        kvd.call("CONFIG", "SET", "slowlog-log-slower-than", "0");
        kvd.call("AUTH", "user", "secret", "extra");
        kvd.call("HELLO", "9", "AUTH", "user", "secret");
        kvd.call("HELLO", "2", "SETNAME", "auth", "AUTH", "user", "secret");
        assertThat(entries()).extracting(SlowlogCommandTest::args).startsWith(
                "HELLO 2 SETNAME auth AUTH (redacted) (redacted)", "HELLO 9 AUTH user secret", "AUTH user secret extra");
    }

    @Test
    void longCommandsKeep32ArgumentsOf128BytesAtMost() {
        kvd.call("CONFIG", "SET", "slowlog-log-slower-than", "0");
        String[] rpush = new String[40];
        rpush[0] = "RPUSH";
        rpush[1] = "l";
        for (int i = 2; i < rpush.length; i++) {
            rpush[i] = i == 2 ? "x".repeat(200) : "e" + i;
        }
        kvd.call(rpush);
        byte[][] logged = entries().get(0).argv();
        assertThat(logged.length).isEqualTo(32);
        assertThat(new String(logged[2])).isEqualTo("x".repeat(128) + "... (72 more bytes)");
        assertThat(new String(logged[31])).isEqualTo("... (9 more arguments)");
    }

    @Test
    void execIsNotLoggedButTheCommandsItRunsAre() {
        kvd.call("CONFIG", "SET", "slowlog-log-slower-than", "-1");
        kvd.call("MULTI");
        kvd.call("CONFIG", "SET", "slowlog-log-slower-than", "0");
        kvd.call("INCR", "n");
        kvd.call("EXEC");
        // The CONFIG SET is logged too: it ran, then was measured against the threshold it set.
        assertThat(entries()).extracting(SlowlogCommandTest::args).containsExactly("INCR n", "CONFIG SET slowlog-log-slower-than 0");
    }

    @Test
    void theLogKeepsTheNewestMaxLenEntriesAndResetEmptiesIt() {
        kvd.call("CONFIG", "SET", "slowlog-max-len", "2", "slowlog-log-slower-than", "0");
        kvd.call("INCR", "a");
        kvd.call("INCR", "b");
        assertThat(entries()).extracting(SlowlogCommandTest::args).containsExactly("INCR b", "INCR a");
        assertThat(kvd.call("SLOWLOG", "RESET")).isEqualTo("+OK\r\n");
        assertThat(kvd.server.slowLog().length()).isEqualTo(1);
        assertThat(entries().get(0).id()).isEqualTo(3);
    }

    @Test
    void getChecksItsCountAndArgumentsAsRedis() {
        assertThat(kvd.call("SLOWLOG", "GET", "-2")).isEqualTo("-ERR count should be greater than or equal to -1\r\n");
        assertThat(kvd.call("SLOWLOG", "GET", "x")).isEqualTo("-ERR count should be greater than or equal to -1\r\n");
        assertThat(kvd.call("SLOWLOG", "GET", "1", "2")).isEqualTo(
                "-ERR unknown subcommand or wrong number of arguments for 'GET'. Try SLOWLOG HELP.\r\n");
        assertThat(kvd.call("SLOWLOG", "NOSUCH")).isEqualTo("-ERR unknown subcommand 'NOSUCH'. Try SLOWLOG HELP.\r\n");
    }

    @Test
    void aCommandThatBlockedIsLoggedWhenItIsAnsweredAsRedisUpdateStatsOnUnblock() {
        kvd.call("CONFIG", "SET", "slowlog-log-slower-than", "0");
        Client waiter = kvd.newClient();
        kvd.callAs(waiter, "BLPOP", "l", "0");
        kvd.call("SLOWLOG", "RESET");
        assertThat(entries()).extracting(SlowlogCommandTest::args).containsExactly("SLOWLOG RESET");
        kvd.call("LPUSH", "l", "x");
        assertThat(entries()).extracting(SlowlogCommandTest::args)
                .containsExactly("BLPOP l 0", "LPUSH l x", "SLOWLOG RESET");
    }
}
