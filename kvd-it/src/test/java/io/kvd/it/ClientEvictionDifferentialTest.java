package io.kvd.it;

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
import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.kvd.it.support.Transcript.utf8;

/**
 * maxmemory-clients and CLIENT NO-EVICT against redis-server: the directive's and the command's
 * replies byte for byte, and what each server does with a client whose query buffer or output
 * grows past the limit (evicted, counted in evicted_clients) and with one that ran CLIENT
 * NO-EVICT ON (kept, however large). Sizes differ between the two (each measures its own
 * memory), so the scenarios record what happened, not the sizes.
 */
@ExtendWith(ServerLogsOnFailure.class)
class ClientEvictionDifferentialTest {
    private static final Duration DEADLINE = Duration.ofSeconds(20);
    private static final Pattern TOTAL_MEMORY = Pattern.compile(" tot-mem=(\\d+) ");

    private ServerPair servers;

    @BeforeEach
    void startBoth() {
        servers = ServerPair.start("--appendonly", "no");
    }

    @AfterEach
    void stopBoth() {
        servers.close();
    }

    @Test
    void theDirectiveAndNoEvictAnswerAsRedis() throws IOException {
        servers.assertSameTranscripts((port, t) -> {
            try (RespConnection c = RespConnection.open(port)) {
                for (String value : new String[] {"3mb", "10%", "0%", "101%", "-1", "-5%", "1kb", "lots", "0"}) {
                    t.call("c", c, "CONFIG", "SET", "maxmemory-clients", value);
                    t.call("c", c, "CONFIG", "GET", "maxmemory-clients");
                }
                t.call("c", c, "CLIENT", "NO-EVICT", "on");
                t.call("c", c, "CLIENT", "NO-EVICT", "OFF");
                t.call("c", c, "CLIENT", "NO-EVICT", "maybe");
                t.call("c", c, "CLIENT", "NO-EVICT");
                t.call("c", c, "CLIENT", "NO-EVICT", "on", "off");
            }
        });
    }

    /**
     * A client announcing a 2 MB argument under a 1 MB limit is evicted (both reserve a big
     * argument whole at its header); one with CLIENT NO-EVICT ON sending the same stays, though
     * the clients are then over the limit.
     */
    @Test
    void aGrowingQueryBufferIsEvictedUnlessTheClientAskedNoEvict() throws IOException {
        servers.assertSameTranscripts((port, t) -> {
            try (RespConnection control = RespConnection.open(port);
                 RespConnection growing = RespConnection.open(port);
                 RespConnection kept = RespConnection.open(port)) {
                t.call("control", control, "CLIENT", "NO-EVICT", "on");
                t.call("control", control, "CONFIG", "SET", "maxmemory-clients", "1mb");
                t.call("growing", growing, "CLIENT", "SETNAME", "growing");
                t.call("kept", kept, "CLIENT", "SETNAME", "kept");
                t.call("kept", kept, "CLIENT", "NO-EVICT", "on");

                growing.sendRaw("*1\r\n$2000000\r\n" + "v".repeat(100_000));
                Poll.until(DEADLINE, "the growing client to be evicted", () -> line(control, "growing") == null ? true : null);
                t.record("growing", "closed by the server: " + closed(growing));
                t.record("control", evictedClients(control));

                kept.sendRaw("*1\r\n$2000000\r\n" + "v".repeat(1_500_000));
                Poll.until(DEADLINE, "the kept client's query buffer", () -> {
                    String line = line(control, "kept");
                    return line != null && totalMemory(line) > 1_500_000 ? true : null;
                });
                t.record("kept", "listed: " + (line(control, "kept") != null));
                t.record("control", evictedClients(control));
            }
        });
    }

    /** A client that sends GETs of a 100 KB value and never reads is evicted once its output passes the limit. */
    @Test
    void aClientThatDoesNotReadItsRepliesIsEvicted() throws IOException {
        servers.assertSameTranscripts((port, t) -> {
            try (RespConnection control = RespConnection.open(port);
                 RespConnection stalled = RespConnection.open(port)) {
                t.call("control", control, "CLIENT", "NO-EVICT", "on");
                t.call("control", control, "SET", "k", "x".repeat(100_000));
                t.call("control", control, "CONFIG", "SET", "maxmemory-clients", "1mb");
                t.call("stalled", stalled, "CLIENT", "SETNAME", "stalled");
                Poll.until(DEADLINE, "the stalled client to be evicted", () -> {
                    try {
                        for (int i = 0; i < 20; i++) {
                            stalled.send(utf8("GET", "k"));
                        }
                    } catch (IOException e) {
                        // The server closed it while the GETs were being sent.
                    }
                    return line(control, "stalled") == null ? true : null;
                });
                t.record("control", evictedClients(control));
            }
        });
    }

    /** The CLIENT LIST line of the client named {@code name}, or null. */
    private static String line(RespConnection control, String name) {
        try {
            String list = control.call("CLIENT", "LIST");
            return Arrays.stream(list.split("\n")).filter(l -> l.contains(" name=" + name + " ")).findFirst().orElse(null);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static long totalMemory(String line) {
        Matcher m = TOTAL_MEMORY.matcher(line);
        return m.find() ? Long.parseLong(m.group(1)) : -1;
    }

    private static String evictedClients(RespConnection control) {
        try {
            return Arrays.stream(control.call("INFO", "stats").split("\r\n"))
                    .filter(l -> l.startsWith("evicted_clients:")).findFirst().orElse("no evicted_clients");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Whether the server closed the connection: end of stream, or a reset (it closed with input unread). */
    private static boolean closed(RespConnection connection) {
        try {
            return connection.isClosedByServer();
        } catch (IOException e) {
            return true;
        }
    }
}
