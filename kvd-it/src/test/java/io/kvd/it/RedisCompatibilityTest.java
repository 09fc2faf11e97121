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
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

/**
 * Every command of every {@code compat/*.txt} script gets the same reply bytes from kvd as from
 * redis-server, up to the order of elements where the script's line marks it unordered. Each
 * script runs against fresh servers, so scripts may reuse key names.
 */
@ExtendWith(ServerLogsOnFailure.class)
class RedisCompatibilityTest {

    @TestFactory
    Stream<DynamicTest> everyScriptGetsRedisReplies() {
        Tools.require("redis-server");
        List<CompatScript> scripts = CompatScript.all();
        assertThat(scripts).as("compat/*.txt scripts").isNotEmpty();
        return scripts.stream().map(script -> dynamicTest(script.name(), () -> assertSameReplies(script)));
    }

    private static void assertSameReplies(CompatScript script) throws IOException {
        List<String> mismatches = new ArrayList<>();
        Path kvdDir;
        try (RedisServerProcess redis = RedisServerProcess.start();
             KvdProcess kvd = KvdProcess.start();
             RespConnection toRedis = RespConnection.open(redis.port());
             RespConnection toKvd = RespConnection.open(kvd.port())) {
            kvdDir = kvd.dir();
            for (CompatScript.Line line : script.lines()) {
                Outcome expected = Outcome.of(toRedis, line);
                Outcome actual = Outcome.of(toKvd, line);
                if (!expected.shown().equals(actual.shown())) {
                    mismatches.add(script.name() + ":" + line.number() + ": " + line.text()
                            + "\n  redis: " + expected.shown() + "\n  kvd:   " + actual.shown());
                }
                if (expected.failed() || actual.failed()) {
                    mismatches.add(script.name() + ": stopped at line " + line.number() + ", a connection failed");
                    break;
                }
            }
        }
        if (!mismatches.isEmpty()) {
            throw new AssertionError(script.name() + " (" + script.lines().size() + " commands)"
                    + " differs from redis-server:\n" + String.join("\n", mismatches)
                    + "\n(kvd's log is in " + kvdDir + ")");
        }
    }

    /**
     * A reply in the line's canonical order, escaped as a quoted string, or the failure to get one
     * (after which the connection is useless).
     */
    private record Outcome(String shown, boolean failed) {
        static Outcome of(RespConnection connection, CompatScript.Line line) {
            try {
                connection.send(line.args());
                return new Outcome(Escape.bytes(line.order().canonical(connection.readReply())), false);
            } catch (IOException | RuntimeException e) {
                return new Outcome("(" + e + ")", true);
            }
        }
    }
}
