package io.kvd.server.slowlog;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;

/**
 * Redis 7.0's slow log (slowlog.c): the commands that ran at least slowlog-log-slower-than
 * microseconds, newest first, at most slowlog-max-len of them. An entry keeps at most 32
 * arguments and 128 bytes of each, as Redis's does, so a huge command costs the log little.
 */
public final class SlowLog {
    static final int MAX_ARGC = 32;
    static final int MAX_STRING = 128;

    /** One entry as SLOWLOG GET shows it. */
    public record Entry(long id, long timestampSeconds, long durationMicros, byte[][] argv, String clientAddress,
                        String clientName) {
    }

    private final Deque<Entry> entries = new ArrayDeque<>();
    private long nextId;

    /**
     * Logs a command that took {@code durationMicros}; {@code argv} is the command as the client
     * sent it, with any argument that must not be logged already replaced by "(redacted)" (the
     * command did it, as Redis's redactClientCommandArgument).
     */
    public void push(byte[][] argv, long durationMicros, long timestampSeconds, String clientAddress,
                     String clientName, long maxLength) {
        entries.addFirst(new Entry(nextId++, timestampSeconds, durationMicros, shortened(argv), clientAddress, clientName));
        while (entries.size() > maxLength) {
            entries.removeLast();
        }
    }

    /** The newest {@code count} entries (every one for a negative count), newest first. */
    public List<Entry> newest(long count) {
        List<Entry> newest = new ArrayList<>();
        Iterator<Entry> it = entries.iterator();
        while (it.hasNext() && (count < 0 || newest.size() < count)) {
            newest.add(it.next());
        }
        return newest;
    }

    public int length() {
        return entries.size();
    }

    /** SLOWLOG RESET: the entries go; ids go on from where they were, as in Redis. */
    public void reset() {
        entries.clear();
    }

    private static byte[][] shortened(byte[][] argv) {
        int argc = Math.min(argv.length, MAX_ARGC);
        byte[][] kept = new byte[argc][];
        for (int i = 0; i < argc; i++) {
            if (argc != argv.length && i == argc - 1) {
                kept[i] = ("... (" + (argv.length - argc + 1) + " more arguments)").getBytes(StandardCharsets.US_ASCII);
            } else if (argv[i].length > MAX_STRING) {
                byte[] suffix = ("... (" + (argv[i].length - MAX_STRING) + " more bytes)").getBytes(StandardCharsets.US_ASCII);
                kept[i] = Arrays.copyOf(argv[i], MAX_STRING + suffix.length);
                System.arraycopy(suffix, 0, kept[i], MAX_STRING, suffix.length);
            } else {
                kept[i] = argv[i].clone();
            }
        }
        return kept;
    }
}
