package io.kvd.server.monitor;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The lines MONITOR's clients read, byte for byte as redis-server 7.0.15 writes them. */
class MonitorsTest {
    private static final Instant TIME = Instant.ofEpochSecond(1_700_000_000L, 42_000);

    private static String line(int db, String source, byte[]... argv) {
        ByteBuf out = Unpooled.buffer();
        Monitors.appendLine(out, TIME, db, source, argv);
        return out.toString(StandardCharsets.ISO_8859_1);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }

    @Test
    void aLineIsTheTimeWithSixDigitsOfMicrosTheDbTheSourceAndEachArgumentQuoted() {
        assertThat(line(0, "127.0.0.1:50000", bytes("set"), bytes("foo"), bytes("bar")))
                .isEqualTo("+1700000000.000042 [0 127.0.0.1:50000] \"set\" \"foo\" \"bar\"\r\n");
    }

    @Test
    void scriptsCommandsNameLuaAsTheirSourceAndTheirDatabase() {
        assertThat(line(3, Monitors.LUA, bytes("get"), bytes("k"))).isEqualTo("+1700000000.000042 [3 lua] \"get\" \"k\"\r\n");
    }

    @Test
    void argumentsAreEscapedAsSdscatreprEscapesThem() {
        // Redis 7.0.15 showed SET bin "a\0b\n\r\t\a\b\"\\\xff\x7f z" so.
        byte[] binary = {'a', 0, 'b', '\n', '\r', '\t', 7, '\b', '"', '\\', (byte) 0xff, 0x7f, ' ', 'z'};
        assertThat(line(0, "127.0.0.1:50000", bytes("set"), bytes("bin"), binary))
                .isEqualTo("+1700000000.000042 [0 127.0.0.1:50000] \"set\" \"bin\" \"a\\x00b\\n\\r\\t\\a\\b\\\"\\\\\\xff\\x7f z\"\r\n");
    }

    @Test
    void anEmptyArgumentIsAPairOfQuotes() {
        assertThat(line(0, "127.0.0.1:50000", bytes("get"), new byte[0]))
                .isEqualTo("+1700000000.000042 [0 127.0.0.1:50000] \"get\" \"\"\r\n");
    }

    @Test
    void feedSendsTheSameLineToEveryMonitorUntilItLeaves() {
        Monitors monitors = new Monitors(Clock.fixed(TIME, ZoneOffset.UTC));
        List<String> first = new ArrayList<>();
        List<String> second = new ArrayList<>();
        Monitors.Monitor a = line -> first.add(line.toString(StandardCharsets.ISO_8859_1));
        Monitors.Monitor b = line -> second.add(line.toString(StandardCharsets.ISO_8859_1));
        assertThat(monitors.isEmpty()).isTrue();
        monitors.add(a);
        monitors.add(b);
        monitors.feed(1, "127.0.0.1:50000", new byte[][] {bytes("ping")});
        monitors.remove(a);
        monitors.feed(1, "127.0.0.1:50000", new byte[][] {bytes("echo"), bytes("x")});
        assertThat(first).containsExactly("+1700000000.000042 [1 127.0.0.1:50000] \"ping\"\r\n");
        assertThat(second).containsExactly("+1700000000.000042 [1 127.0.0.1:50000] \"ping\"\r\n",
                "+1700000000.000042 [1 127.0.0.1:50000] \"echo\" \"x\"\r\n");
    }
}
