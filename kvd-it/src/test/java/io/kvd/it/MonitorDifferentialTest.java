package io.kvd.it;

import io.kvd.it.support.Escape;
import io.kvd.it.support.RespConnection;
import io.kvd.it.support.ServerLogsOnFailure;
import io.kvd.it.support.ServerPair;
import io.kvd.it.support.Transcript;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import static io.kvd.it.support.Transcript.utf8;

/**
 * MONITOR's stream against redis-server's: a mixed sequence of commands from one connection, and
 * every line the monitoring connection reads must be the same bytes on both, but for the time
 * and the client's port, which are replaced by placeholders.
 */
@ExtendWith(ServerLogsOnFailure.class)
class MonitorDifferentialTest {
    /** The command that ends a scenario: the monitor reads its stream up to this one's line. */
    private static final String[] LAST = {"ECHO", "end of scenario"};

    private ServerPair servers;

    @BeforeEach
    void startBoth() {
        servers = ServerPair.start();
    }

    @AfterEach
    void stopBoth() {
        servers.close();
    }

    @Test
    void theStreamShowsWhatRanInOrderEscapedAndRedactedWithoutAdminCommands() throws IOException {
        servers.assertSameTranscripts((port, t) -> {
            try (RespConnection monitor = RespConnection.open(port);
                 RespConnection client = RespConnection.open(port)) {
                t.call("monitor", monitor, "MONITOR");
                t.call("monitor", monitor, "GET", "k");
                monitor.send(utf8("PING"));
                t.read("monitor", monitor);
                readLine(t, monitor);

                t.call("client", client, "SET", "foo", "bar");
                t.call("client", client, "GET", "foo");
                byte[] binary = {'a', 0, '\n', '\r', '\t', 7, '\b', '"', '\\', (byte) 0xff, 0x7f, ' ', 'z'};
                client.send("SET".getBytes(StandardCharsets.US_ASCII), "bin".getBytes(StandardCharsets.US_ASCII), binary);
                t.read("client", client);
                t.call("client", client, "SELECT", "3");
                t.call("client", client, "INCR", "foo");
                t.call("client", client, "SELECT", "0");
                t.call("client", client, "INCR", "foo");
                t.call("client", client, "MULTI");
                t.call("client", client, "SET", "a", "1");
                t.call("client", client, "INCR", "a");
                t.call("client", client, "EXEC");
                t.call("client", client, "MULTI");
                t.call("client", client, "GET");
                t.call("client", client, "EXEC");
                t.call("client", client, "EVAL", "redis.call('set', KEYS[1], ARGV[1]) return redis.call('get', KEYS[1])",
                        "1", "k", "v");
                t.call("client", client, "AUTH", "secret");
                t.call("client", client, "AUTH", "user", "secret");
                t.call("client", client, "AUTH", "user", "secret", "extra");
                t.call("client", client, "HELLO", "2", "AUTH", "user", "secret");
                t.call("client", client, "CONFIG", "GET", "maxmemory");
                t.call("client", client, "CONFIG", "SET", "requirepass", "");
                t.call("client", client, "CLIENT", "SETNAME", "worker");
                t.call("client", client, "NOSUCH", "x");
                t.call("client", client, LAST);

                String line;
                do {
                    line = readLine(t, monitor);
                } while (!line.contains("\"" + LAST[1] + "\""));
            }
        });
    }

    @Test
    void resetEndsMonitorModeAndQuitClosesAMonitor() throws IOException {
        servers.assertSameTranscripts((port, t) -> {
            try (RespConnection first = RespConnection.open(port);
                 RespConnection second = RespConnection.open(port)) {
                t.call("first", first, "MONITOR");
                t.call("second", second, "MONITOR");
                t.call("first", first, "PING");
                readLine(t, first);
                readLine(t, second);
                // A second MONITOR is answered nothing: the next reply read is RESET's.
                first.send(utf8("MONITOR"));
                t.call("first", first, "RESET");
                readLine(t, second);
                t.call("first", first, "GET", "k");
                readLine(t, second);
                t.call("second", second, "QUIT");
                t.record("second", "closed by the server: " + second.isClosedByServer());
            }
        });
    }

    /** Reads one line of the monitor's stream and records it with its time and client port as placeholders. */
    private static String readLine(Transcript t, RespConnection monitor) throws IOException {
        String line = new String(monitor.readReply(), StandardCharsets.ISO_8859_1)
                .replaceFirst("^\\+\\d+\\.\\d{6} ", "+<time> ")
                .replaceFirst("^(\\+<time> \\[\\d+ 127\\.0\\.0\\.1):\\d+\\]", "$1:<port>]");
        t.record("monitor", Escape.bytes(line.getBytes(StandardCharsets.ISO_8859_1)));
        return line;
    }
}
