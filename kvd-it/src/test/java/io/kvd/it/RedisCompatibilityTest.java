package io.kvd.it;

import io.kvd.it.support.Escape;
import io.kvd.it.support.KvdProcess;
import io.kvd.it.support.RedisServerProcess;
import io.kvd.it.support.RespConnection;
import io.kvd.it.support.ServerLogsOnFailure;
import io.kvd.it.support.Tools;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

/**
 * Every command of every {@code compat/*.txt} script gets the same reply bytes from kvd as from
 * redis-server, up to the order of elements where the script's line marks it unordered, once with
 * every connection in RESP2 and once with each switched to RESP3 by HELLO 3 first. Each script
 * runs against fresh servers, so scripts may reuse key names.
 */
@ExtendWith(ServerLogsOnFailure.class)
class RedisCompatibilityTest {
    private static final String DID_NOT_BLOCK = "(did not block)";

    @TestFactory
    Stream<DynamicTest> everyScriptGetsRedisReplies() {
        Tools.require("redis-server");
        List<CompatScript> scripts = CompatScript.all();
        assertThat(scripts).as("compat/*.txt scripts").isNotEmpty();
        return scripts.stream().map(script -> dynamicTest(script.name(), () -> assertSameReplies(script, 2)));
    }

    @TestFactory
    Stream<DynamicTest> everyScriptGetsRedisRepliesInResp3() {
        Tools.require("redis-server");
        return CompatScript.all().stream()
                .map(script -> dynamicTest(script.name() + " in RESP3", () -> assertSameReplies(script, 3)));
    }

    private static void assertSameReplies(CompatScript script, int protocol) throws IOException {
        List<String> mismatches = new ArrayList<>();
        Path kvdDir;
        try (RedisServerProcess redis = RedisServerProcess.start();
             KvdProcess kvd = KvdProcess.start();
             Clients toRedis = new Clients(redis.port(), protocol);
             Clients toKvd = new Clients(kvd.port(), protocol)) {
            kvdDir = kvd.dir();
            for (CompatScript.Line line : script.lines()) {
                Outcome expected = Outcome.of(toRedis, line);
                Outcome actual = Outcome.of(toKvd, line);
                if (!expected.shown().equals(actual.shown())) {
                    mismatches.add(script.name() + ":" + line.number() + ": " + line.text()
                            + "\n  redis: " + expected.shown() + "\n  kvd:   " + actual.shown());
                }
                if (expected.shown().equals(DID_NOT_BLOCK)) {
                    mismatches.add(script.name() + ":" + line.number() + ": " + line.text()
                            + "\n  redis-server did not block: the line should not end in &");
                }
                if (expected.failed() || actual.failed()) {
                    mismatches.add(script.name() + ": stopped at line " + line.number() + ", a connection failed");
                    break;
                }
            }
        }
        if (!mismatches.isEmpty()) {
            throw new AssertionError(script.name() + " (" + script.lines().size() + " commands, RESP" + protocol + ")"
                    + " differs from redis-server:\n" + String.join("\n", mismatches)
                    + "\n(kvd's log is in " + kvdDir + ")");
        }
    }

    /**
     * A script's connections to one server, opened as lines name them, and one more that checks
     * which of them are blocked (CLIENT LIST's flag b), so a line sent on another connection
     * after a blocking one reaches the server after it has blocked.
     */
    private static final class Clients implements AutoCloseable {
        private static final Duration BLOCK_DEADLINE = Duration.ofSeconds(10);
        private final int port;
        private final int protocol;
        private final Map<Integer, RespConnection> connections = new HashMap<>();
        private final Map<Integer, String> ids = new HashMap<>();
        private RespConnection control;

        Clients(int port, int protocol) {
            this.port = port;
            this.protocol = protocol;
        }

        RespConnection get(int number) throws IOException {
            RespConnection connection = connections.get(number);
            if (connection == null) {
                connection = RespConnection.open(port);
                connections.put(number, connection);
                if (protocol == 3) {
                    connection.call("HELLO", "3");
                }
                String id = connection.call("CLIENT", "ID");
                ids.put(number, id.substring(1, id.length() - 2));
            }
            return connection;
        }

        /** Waits until the server lists connection {@code number} as blocked; false at the deadline. */
        boolean awaitBlocked(int number) throws IOException {
            if (control == null) {
                control = RespConnection.open(port);
            }
            String wanted = "id=" + ids.get(number) + " ";
            long deadline = System.nanoTime() + BLOCK_DEADLINE.toNanos();
            while (System.nanoTime() < deadline) {
                for (String client : control.call("CLIENT", "LIST").split("\n")) {
                    if (client.startsWith(wanted) && client.matches(".* flags=[a-zA-Z]*b.*")) {
                        return true;
                    }
                }
                Thread.onSpinWait();
            }
            return false;
        }

        @Override
        public void close() throws IOException {
            for (RespConnection connection : connections.values()) {
                connection.close();
            }
            if (control != null) {
                control.close();
            }
        }
    }

    /**
     * A reply in the line's canonical order, escaped as a quoted string, or the failure to get one
     * (after which the connection is useless). A blocking line shows whether the client blocked.
     */
    private record Outcome(String shown, boolean failed) {
        static Outcome of(Clients clients, CompatScript.Line line) {
            try {
                RespConnection connection = clients.get(line.connection());
                if (line.action() == CompatScript.Action.BLOCK) {
                    connection.send(line.args());
                    return new Outcome(clients.awaitBlocked(line.connection()) ? "(blocked)" : DID_NOT_BLOCK, false);
                }
                if (line.action() == CompatScript.Action.CALL) {
                    connection.send(line.args());
                }
                return new Outcome(Escape.bytes(line.order().canonical(connection.readReply())), false);
            } catch (IOException | RuntimeException e) {
                return new Outcome("(" + e + ")", true);
            }
        }
    }
}
