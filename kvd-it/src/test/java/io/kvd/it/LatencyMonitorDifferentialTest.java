package io.kvd.it;

import io.kvd.it.support.Escape;
import io.kvd.it.support.Poll;
import io.kvd.it.support.RespConnection;
import io.kvd.it.support.ServerLogsOnFailure;
import io.kvd.it.support.ServerPair;
import io.kvd.it.support.Transcript;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;

import static io.kvd.it.support.Transcript.utf8;

/**
 * The latency monitor against redis-server: the same DEBUG SLEEPs past a 50 ms threshold, in two
 * different seconds, must give the same LATEST, HISTORY, GRAPH and DOCTOR replies but for the
 * figures (times, milliseconds, ages), which differ from run to run and are compared as "N".
 */
@ExtendWith(ServerLogsOnFailure.class)
class LatencyMonitorDifferentialTest {
    private static final Duration DEADLINE = Duration.ofSeconds(10);

    private ServerPair servers;

    @BeforeEach
    void startBoth() {
        servers = ServerPair.start("--enable-debug-command", "yes", "--latency-monitor-threshold", "50");
    }

    @AfterEach
    void stopBoth() {
        servers.close();
    }

    @Test
    void slowCommandsInTwoSecondsReadTheSameButForTheFigures() throws IOException {
        servers.assertSameTranscripts((port, t) -> {
            try (RespConnection c = RespConnection.open(port)) {
                t.call("c", c, "LATENCY", "LATEST");
                t.call("c", c, "DEBUG", "SLEEP", "0.06");
                awaitNextSecond(c);
                t.call("c", c, "DEBUG", "SLEEP", "0.12");
                // Not a statistic CONFIG RESETSTAT resets, in Redis.
                t.call("c", c, "CONFIG", "RESETSTAT");
                callShape(t, c, "LATENCY", "LATEST");
                callShape(t, c, "LATENCY", "HISTORY", "command");
                callShape(t, c, "LATENCY", "GRAPH", "command");
                callShape(t, c, "LATENCY", "DOCTOR");
                t.call("c", c, "LATENCY", "GRAPH", "fast-command");
                t.call("c", c, "LATENCY", "RESET", "nosuch", "COMMAND");
                t.call("c", c, "LATENCY", "LATEST");
                t.call("c", c, "LATENCY", "DOCTOR");
                t.call("c", c, "CONFIG", "SET", "latency-monitor-threshold", "0");
                t.call("c", c, "LATENCY", "DOCTOR");
            }
        });
    }

    /** Records the reply with every run of digits as N. */
    private static void callShape(Transcript t, RespConnection c, String... args) throws IOException {
        c.send(utf8(args));
        t.record("c", Escape.bytes(c.readReply()).replaceAll("\\d+", "N"));
    }

    /** Waits until the server's clock (TIME) is in the next second, so the next sample is a new one. */
    private static void awaitNextSecond(RespConnection c) throws IOException {
        String start = seconds(c);
        Poll.until(DEADLINE, "the next second", () -> {
            try {
                return seconds(c).equals(start) ? null : true;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    private static String seconds(RespConnection c) throws IOException {
        return c.call("TIME").split("\r\n")[2];
    }
}
