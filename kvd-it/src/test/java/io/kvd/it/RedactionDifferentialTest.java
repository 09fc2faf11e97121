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
import java.util.List;

import static io.kvd.it.support.Transcript.utf8;

/**
 * Secrets against redis-server's redaction: the commands that carry a password (AUTH, HELLO's AUTH,
 * ACL SETUSER, MIGRATE's AUTH and AUTH2, CONFIG SET of requirepass, masterauth and masteruser),
 * passed or failed, as MONITOR shows them and as SLOWLOG GET keeps them (every command logged,
 * slowlog-log-slower-than 0); the same bytes from both, but for times, durations, ids and client
 * addresses, compared by shape.
 */
@ExtendWith(ServerLogsOnFailure.class)
class RedactionDifferentialTest {
    /** The command that ends the scenario: the monitor reads its stream up to this one's line. */
    private static final String[] LAST = {"ECHO", "end of scenario"};
    private static final List<List<String>> SECRETS = List.of(
            List.of("AUTH", "wrong"),
            List.of("AUTH", "default", "wrong"),
            List.of("AUTH", "nobody", "pw"),
            List.of("AUTH", "a", "b", "c"),
            List.of("HELLO", "2", "AUTH", "default", "wrong"),
            List.of("HELLO", "2", "AUTH", "default", "any", "SETNAME", "named"),
            List.of("HELLO", "2", "AUTH"),
            List.of("ACL", "SETUSER", "u1", "on", ">pw1", "~*", "+@all"),
            List.of("ACL", "SETUSER", "u2", "#" + "a".repeat(64), "<nosuch"),
            List.of("AUTH", "u1", "pw1"),
            List.of("MIGRATE", "127.0.0.1", "1", "nokey", "0", "1000", "AUTH", "pw"),
            List.of("MIGRATE", "127.0.0.1", "1", "nokey", "0", "1000", "COPY", "AUTH2", "user", "pw"),
            List.of("MIGRATE", "127.0.0.1", "1", "", "0", "1000", "AUTH2", "user", "pw", "KEYS", "a", "b"),
            List.of("MIGRATE", "127.0.0.1", "1", "nokey", "0", "1000", "REPLACE", "AUTH"),
            List.of("CONFIG", "SET", "masterauth", "mpw"),
            List.of("CONFIG", "SET", "masteruser", "mu", "maxmemory-samples", "5"),
            List.of("CONFIG", "SET", "requirepass", "rpw"),
            List.of("AUTH", "rpw"),
            List.of("CONFIG", "SET", "requirepass", ""));

    private ServerPair servers;

    @BeforeEach
    void startBoth() {
        servers = ServerPair.start("--slowlog-log-slower-than", "0", "--slowlog-max-len", "1000");
    }

    @AfterEach
    void stopBoth() {
        servers.close();
    }

    @Test
    void passwordsAreRedactedFromMonitorAndTheSlowLogAsInRedis() throws IOException {
        servers.assertSameTranscripts((port, t) -> {
            try (RespConnection monitor = RespConnection.open(port);
                 RespConnection client = RespConnection.open(port)) {
                t.call("monitor", monitor, "MONITOR");
                t.call("client", client, "SLOWLOG", "RESET");
                for (List<String> command : SECRETS) {
                    // HELLO's reply holds the client's id, which the servers number each their own way.
                    client.send(utf8(command.toArray(new String[0])));
                    String reply = new String(client.readReply(), StandardCharsets.ISO_8859_1)
                            .replaceFirst("\\$2\r\nid\r\n:\\d+\r\n", "\\$2\r\nid\r\n:<id>\r\n");
                    t.record("client", Escape.bytes(reply.getBytes(StandardCharsets.ISO_8859_1)));
                }
                t.call("client", client, LAST);
                String line;
                do {
                    line = new String(monitor.readReply(), StandardCharsets.ISO_8859_1)
                            .replaceFirst("^\\+\\d+\\.\\d{6} \\[0 127\\.0\\.0\\.1:\\d+\\]", "+<time> [0 <addr>]");
                    t.record("monitor", Escape.bytes(line.getBytes(StandardCharsets.ISO_8859_1)));
                } while (!line.contains("\"" + LAST[1] + "\""));
                client.send(utf8("SLOWLOG", "GET", "-1"));
                t.record("slowlog", slowlogShape(client.readReply()));
            }
        });
    }

    /** SLOWLOG GET's reply with its integers (ids, times, durations) and client addresses as placeholders. */
    private static String slowlogShape(byte[] reply) {
        String text = new String(reply, StandardCharsets.ISO_8859_1)
                .replaceAll("(?<=\n):\\d+(?=\r\n)", ":<n>")
                .replaceAll("\\$\\d+\r\n127\\.0\\.0\\.1:\\d+\r\n", "<addr>\r\n");
        return Escape.bytes(text.getBytes(StandardCharsets.ISO_8859_1)).replace("\\r\\n", "\\r\\n\n  ");
    }
}
