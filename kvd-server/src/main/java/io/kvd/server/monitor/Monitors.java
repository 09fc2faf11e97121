package io.kvd.server.monitor;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Redis's MONITOR (replicationFeedMonitors): the clients in monitor mode, and the line each
 * command run sends them, {@code +<seconds>.<micros> [<db> <source>] "arg" ...}, with every
 * argument quoted and escaped as Redis's sdscatrepr does.
 */
public final class Monitors {
    /**
     * A client in monitor mode, as the feed sees it: the dispatcher's client, which this package
     * cannot name, since the arrows point from the dispatcher down.
     */
    public interface Monitor {
        /** Adds an encoded line (a heap buffer) to the client's output, to leave with the iteration's flush. */
        void deliver(ByteBuf line);
    }

    /** The source Redis names for a script's commands. */
    public static final String LUA = "lua";

    private final List<Monitor> monitors = new ArrayList<>();
    private final Clock clock;

    public Monitors() {
        this(Clock.systemUTC());
    }

    Monitors(Clock clock) {
        this.clock = clock;
    }

    /** True while no client monitors: the run step's one check. */
    public boolean isEmpty() {
        return monitors.isEmpty();
    }

    /** MONITOR: the client receives every command run from now on, in the order they ran. */
    public void add(Monitor monitor) {
        monitors.add(monitor);
    }

    /** RESET or a closed connection: the client leaves monitor mode. */
    public void remove(Monitor monitor) {
        monitors.remove(monitor);
    }

    /**
     * Sends the line of a command that ran in database {@code db} for {@code source} (the client's
     * address, or {@link #LUA}) to every monitoring client; {@code argv} as it may be shown.
     */
    public void feed(int db, String source, byte[][] argv) {
        ByteBuf line = Unpooled.buffer(64);
        appendLine(line, clock.instant(), db, source, argv);
        for (Monitor monitor : monitors) {
            monitor.deliver(line);
        }
    }

    /** Redis's replicationFeedMonitors line, the status reply MONITOR's client reads. */
    static void appendLine(ByteBuf out, Instant time, int db, String source, byte[][] argv) {
        String head = String.format("+%d.%06d [%d %s] ", time.getEpochSecond(), time.getNano() / 1000, db, source);
        out.writeBytes(head.getBytes(StandardCharsets.UTF_8));
        for (int i = 0; i < argv.length; i++) {
            if (i > 0) {
                out.writeByte(' ');
            }
            appendRepr(out, argv[i]);
        }
        out.writeByte('\r').writeByte('\n');
    }

    /** Redis's sdscatrepr: quoted, with C's escapes and \xHH for what C's isprint refuses. */
    static void appendRepr(ByteBuf out, byte[] text) {
        out.writeByte('"');
        for (byte b : text) {
            switch (b) {
                case '\\', '"' -> out.writeByte('\\').writeByte(b);
                case '\n' -> out.writeByte('\\').writeByte('n');
                case '\r' -> out.writeByte('\\').writeByte('r');
                case '\t' -> out.writeByte('\\').writeByte('t');
                case 7 -> out.writeByte('\\').writeByte('a');
                case '\b' -> out.writeByte('\\').writeByte('b');
                default -> {
                    if (b >= ' ' && b <= '~') {
                        out.writeByte(b);
                    } else {
                        out.writeByte('\\').writeByte('x');
                        out.writeByte(HEX[(b >> 4) & 0xf]).writeByte(HEX[b & 0xf]);
                    }
                }
            }
        }
        out.writeByte('"');
    }

    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
}
