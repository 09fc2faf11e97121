package io.kvd.it.support;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.SplittableRandom;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.fail;

/**
 * A seeded random differential run: a fresh redis-server and kvd, one connection to each, and
 * every command sent to both must get the same reply. The seed is the system property
 * {@code kvd.test.seed}, else the test's own, and is printed first. A reply that differs fails the
 * test with the seed, the command, both replies and the commands before it, to reproduce it by
 * hand or in a compat script.
 */
public final class DifferentialRun implements AutoCloseable {
    /** Commands shown before the one that differs. */
    private static final int SHOWN_BEFORE = 30;
    /** The commands before it are shortened past these: an HLL value is 12 KB, a PFADD hundreds of elements. */
    private static final int SHOWN_ARGUMENT_BYTES = 40;
    private static final int SHOWN_LINE_CHARS = 400;

    /** Whether the two replies to one command agree, for tests that tolerate some differences. */
    @FunctionalInterface
    public interface Comparison {
        boolean same(byte[] redisReply, byte[] kvdReply) throws IOException;
    }

    private final long seed;
    private final SplittableRandom random;
    private final Deque<String> recent = new ArrayDeque<>();
    private RedisServerProcess redis;
    private KvdProcess kvd;
    private RespConnection toRedis;
    private RespConnection toKvd;
    private int commands;
    /** The database both connections have selected, for the failure message. */
    private String database = "0";

    private DifferentialRun(long seed, String... serverOptions) throws IOException {
        this.seed = seed;
        this.random = new SplittableRandom(seed);
        try {
            redis = RedisServerProcess.startIn(WorkDir.create("redis"), serverOptions);
            kvd = KvdProcess.start(serverOptions);
            toRedis = RespConnection.open(redis.port());
            toKvd = RespConnection.open(kvd.port());
        } catch (Throwable e) {
            try {
                close();
            } catch (Throwable suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /**
     * Starts both servers, each with {@code serverOptions} ({@code "--name", "value"} pairs) after
     * its defaults; skips the test where redis-server is not installed.
     */
    public static DifferentialRun start(Class<?> test, long defaultSeed, String... serverOptions) throws IOException {
        Tools.require("redis-server");
        long seed = Long.getLong("kvd.test.seed", defaultSeed);
        System.out.println(test.getSimpleName() + " seed " + seed + " (rerun with -Dkvd.test.seed=" + seed + ")");
        return new DifferentialRun(seed, serverOptions);
    }

    /** The random source to draw the commands from. */
    public SplittableRandom random() {
        return random;
    }

    /** The connection to redis-server, to read the reference's state without sending anything to kvd. */
    public RespConnection redis() {
        return toRedis;
    }

    /** Sends a command of UTF-8 arguments to both; fails unless the replies are the same bytes. */
    public void assertSameReply(String... args) throws IOException {
        assertSameReply(Arrays::equals, args);
    }

    /** Sends a command of UTF-8 arguments to both; fails unless {@code comparison} finds the replies the same. */
    public void assertSameReply(Comparison comparison, String... args) throws IOException {
        assertSameReply(comparison, Arrays.stream(args).map(a -> a.getBytes(StandardCharsets.UTF_8)).toArray(byte[][]::new));
    }

    /** Sends a command to both; fails unless the replies are the same bytes. */
    public void assertSameReply(byte[]... argv) throws IOException {
        assertSameReply(Arrays::equals, argv);
    }

    private void assertSameReply(Comparison comparison, byte[][] argv) throws IOException {
        commands++;
        byte[] expected = call(toRedis, argv);
        byte[] actual = call(toKvd, argv);
        if (!comparison.same(expected, actual)) {
            fail("seed " + seed + ", command " + commands + ", in database " + database + ": " + shown(argv)
                    + "\n  redis: " + Escape.bytes(expected) + "\n  kvd:   " + Escape.bytes(actual)
                    + "\nthe " + recent.size() + " commands before it:\n  " + String.join("\n  ", recent)
                    + "\n(kvd's log is in " + kvd.dir() + ")");
        }
        if (new String(argv[0], StandardCharsets.UTF_8).equalsIgnoreCase("SELECT")
                && new String(expected, StandardCharsets.UTF_8).equals("+OK\r\n")) {
            database = new String(argv[1], StandardCharsets.UTF_8);
        }
        recent.addLast(commands + ": " + shortened(argv));
        if (recent.size() > SHOWN_BEFORE) {
            recent.removeFirst();
        }
    }

    @Override
    public void close() throws IOException {
        try (RedisServerProcess r = redis; KvdProcess k = kvd; RespConnection a = toRedis; RespConnection b = toKvd) {
            // Closes what was opened, last first, each even when closing another fails; null ones are skipped.
        }
    }

    private static byte[] call(RespConnection connection, byte[][] argv) throws IOException {
        connection.send(argv);
        return connection.readReply();
    }

    /** The command as a compat script line. */
    private static String shown(byte[][] argv) {
        return Arrays.stream(argv).map(DifferentialRun::shown).collect(Collectors.joining(" "));
    }

    /** As {@link #shown(byte[][])}, but long arguments and long lines cut short. */
    private static String shortened(byte[][] argv) {
        String line = Arrays.stream(argv)
                .map(a -> a.length > SHOWN_ARGUMENT_BYTES ? shown(Arrays.copyOf(a, SHOWN_ARGUMENT_BYTES)) + "..." : shown(a))
                .collect(Collectors.joining(" "));
        return line.length() > SHOWN_LINE_CHARS ? line.substring(0, SHOWN_LINE_CHARS) + "..." : line;
    }

    /** An argument as it is, or quoted and escaped where it is empty or holds a blank, a quote or another byte. */
    private static String shown(byte[] arg) {
        String text = new String(arg, StandardCharsets.ISO_8859_1);
        return text.matches("[!#-&(-\\[\\]-~]+") ? text : Escape.bytes(arg);
    }
}
