package io.kvd.it;

import io.kvd.it.support.Escape;
import io.kvd.it.support.Poll;
import io.kvd.it.support.RespConnection;
import io.kvd.it.support.ServerLogsOnFailure;
import io.kvd.it.support.ServerPair;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;

import static io.kvd.it.support.Transcript.utf8;

/**
 * A script past busy-reply-threshold, seen from a second connection: -BUSY for everything but
 * what may stop it, SCRIPT KILL and FUNCTION KILL, the transaction commands and SHUTDOWN NOSAVE.
 * Each scenario runs against redis-server and kvd (fresh ones, threshold 50 ms), and every reply
 * either connection reads must be the same bytes on both.
 */
@ExtendWith(ServerLogsOnFailure.class)
class BusyScriptDifferentialTest {
    private static final Duration DEADLINE = Duration.ofSeconds(30);
    private static final String THRESHOLD_MS = "50";
    private static final String SPIN = "local i = 0 while true do i = i + 1 end";
    private static final String SPIN_LIBRARY =
            "#!lua name=spinning\nredis.register_function('spin', function() local i = 0 while true do i = i + 1 end end)";

    private ServerPair servers;

    @BeforeEach
    void startBoth() {
        servers = ServerPair.start("--busy-reply-threshold", THRESHOLD_MS);
    }

    @AfterEach
    void stopBoth() {
        servers.close();
    }

    @Test
    void scriptKillStopsAScriptThatHasNotWrittenAndTheServerServesAgain() throws IOException {
        servers.assertSameTranscripts((port, t) -> {
            try (RespConnection caller = RespConnection.open(port); RespConnection other = RespConnection.open(port)) {
                caller.send(utf8("EVAL", SPIN, "0"));
                awaitBusy(other);
                t.call("other", other, "PING");
                t.call("other", other, "GET", "k");
                t.call("other", other, "SCRIPT", "LOAD", "return 1");
                t.call("other", other, "SCRIPT", "NOSUCH");
                t.call("other", other, "FUNCTION", "KILL");
                t.call("other", other, "FUNCTION", "STATS");
                t.call("other", other, "SHUTDOWN");
                t.call("other", other, "SCRIPT", "KILL");
                t.read("caller", caller);
                t.call("other", other, "PING");
                t.call("caller", caller, "SCRIPT", "KILL");
            }
        });
    }

    @Test
    void pcallCannotKeepAKilledScriptRunning() throws IOException {
        servers.assertSameTranscripts((port, t) -> {
            try (RespConnection caller = RespConnection.open(port); RespConnection other = RespConnection.open(port)) {
                caller.send(utf8("EVAL", "while true do pcall(function() " + SPIN + " end) end", "0"));
                awaitBusy(other);
                t.call("other", other, "SCRIPT", "KILL");
                t.read("caller", caller);
            }
        });
    }

    @Test
    void functionKillStopsAFunctionAndStatsShowsIt() throws IOException {
        servers.assertSameTranscripts((port, t) -> {
            try (RespConnection caller = RespConnection.open(port); RespConnection other = RespConnection.open(port)) {
                t.call("caller", caller, "FUNCTION", "LOAD", SPIN_LIBRARY);
                caller.send(utf8("FCALL", "spin", "0"));
                awaitBusy(other);
                t.call("other", other, "PING");
                t.call("other", other, "SCRIPT", "KILL");
                other.send(utf8("FUNCTION", "STATS"));
                // It tells how long the function has run: a figure no two runs share.
                t.record("other", Escape.bytes(other.readReply()).replaceAll("duration_ms\\\\r\\\\n:\\d+", "duration_ms:N"));
                t.call("other", other, "FUNCTION", "KILL");
                t.read("caller", caller);
                t.call("other", other, "FUNCTION", "KILL");
            }
        });
    }

    @Test
    void aTransactionQueuedMeanwhileIsAbortedAndWatchIsAllowed() throws IOException {
        servers.assertSameTranscripts((port, t) -> {
            try (RespConnection caller = RespConnection.open(port); RespConnection other = RespConnection.open(port)) {
                caller.send(utf8("EVAL", SPIN, "0"));
                awaitBusy(other);
                t.call("other", other, "WATCH", "k");
                t.call("other", other, "MULTI");
                t.call("other", other, "SET", "k", "v");
                t.call("other", other, "EXEC");
                t.call("other", other, "SCRIPT", "KILL");
                t.read("caller", caller);
                t.call("other", other, "GET", "k");
            }
        });
    }

    @Test
    void commandsPipelinedBehindTheScriptRunAfterIt() throws IOException {
        servers.assertSameTranscripts((port, t) -> {
            try (RespConnection caller = RespConnection.open(port); RespConnection other = RespConnection.open(port)) {
                caller.send(utf8("EVAL", SPIN, "0"));
                caller.send(utf8("SET", "after", "1"));
                caller.send(utf8("EVAL", "return redis.call('GET', 'after')", "0"));
                awaitBusy(other);
                t.call("other", other, "GET", "after");
                t.call("other", other, "SCRIPT", "KILL");
                t.read("caller", caller);
                t.read("caller", caller);
                t.read("caller", caller);
            }
        });
    }

    @Test
    void theServerOutlivesACallerThatLeavesWhileItsScriptRuns() throws IOException {
        servers.assertSameTranscripts((port, t) -> {
            try (RespConnection other = RespConnection.open(port)) {
                RespConnection caller = RespConnection.open(port);
                caller.send(utf8("EVAL", SPIN, "0"));
                awaitBusy(other);
                caller.close();
                t.call("other", other, "SCRIPT", "KILL");
                // Redis may still answer -BUSY to a PING sent at once: it lets clients in a few times per check.
                awaitPong(other);
                t.call("other", other, "PING");
            }
        });
    }

    @Test
    void aScriptThatHasWrittenIsUnkillableAndShutdownNosaveEndsTheServer() throws IOException {
        servers.assertSameTranscripts((port, t) -> {
            try (RespConnection caller = RespConnection.open(port); RespConnection other = RespConnection.open(port)) {
                caller.send(utf8("EVAL", "redis.call('SET', 'k', 'v') " + SPIN, "0"));
                awaitBusy(other);
                t.call("other", other, "SCRIPT", "KILL");
                t.call("other", other, "FUNCTION", "KILL");
                t.call("other", other, "SHUTDOWN");
                other.send(utf8("SHUTDOWN", "NOSAVE"));
                t.record("other", isClosed(other) ? "closed" : "open");
                t.record("caller", isClosed(caller) ? "closed" : "open");
            }
        });
    }

    @Test
    void aScriptThatRanAWriteSubcommandIsUnkillable() throws IOException {
        servers.assertSameTranscripts((port, t) -> {
            try (RespConnection caller = RespConnection.open(port); RespConnection other = RespConnection.open(port)) {
                caller.send(utf8("EVAL", "redis.call('XGROUP', 'CREATE', 's', 'g', '$', 'MKSTREAM') " + SPIN, "0"));
                awaitBusy(other);
                t.call("other", other, "SCRIPT", "KILL");
                other.send(utf8("SHUTDOWN", "NOSAVE"));
                t.record("other", isClosed(other) ? "closed" : "open");
            }
        });
    }

    /** PING until it is answered -BUSY: the script started, and passed the threshold. */
    static void awaitBusy(RespConnection connection) {
        Poll.until(DEADLINE, "a -BUSY reply", () -> {
            try {
                return connection.call("PING").startsWith("-BUSY") ? true : null;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    /** PING until it is answered +PONG: the killed script has ended. */
    private static void awaitPong(RespConnection connection) {
        Poll.until(DEADLINE, "a PONG", () -> {
            try {
                return connection.call("PING").equals("+PONG\r\n") ? true : null;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    static boolean isClosed(RespConnection connection) {
        try {
            return connection.isClosedByServer();
        } catch (IOException e) {
            return true;
        }
    }
}
