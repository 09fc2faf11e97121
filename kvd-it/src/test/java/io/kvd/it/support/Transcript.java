package io.kvd.it.support;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Every reply a scenario's connections read, in order, each labelled with the connection that
 * read it: run against redis-server and against kvd, the two must be the same text.
 */
public final class Transcript {
    private final List<String> lines = new ArrayList<>();

    /** Reads one reply and records it. */
    public void read(String who, RespConnection connection) throws IOException {
        record(who, Escape.bytes(connection.readReply()));
    }

    /** Sends a command and records its reply. */
    public void call(String who, RespConnection connection, String... args) throws IOException {
        connection.send(utf8(args));
        read(who, connection);
    }

    /** Sends a command whose reply is {@code frames} frames (one per channel of a SUBSCRIBE) and records them. */
    public void callFrames(String who, RespConnection connection, int frames, String... args) throws IOException {
        connection.send(utf8(args));
        for (int i = 0; i < frames; i++) {
            read(who, connection);
        }
    }

    /** Records a line of the scenario's own (what it saw other than a reply). */
    public void record(String who, String line) {
        lines.add(who + ": " + line);
    }

    public String text() {
        return String.join("\n", lines);
    }

    public static byte[][] utf8(String... args) {
        byte[][] argv = new byte[args.length][];
        for (int i = 0; i < args.length; i++) {
            argv[i] = args[i].getBytes(StandardCharsets.UTF_8);
        }
        return argv;
    }
}
