package io.kvd.it;

import io.kvd.it.support.DifferentialRun;
import io.kvd.it.support.RespConnection;
import io.kvd.it.support.ServerLogsOnFailure;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * A seeded random walk of HyperLogLog commands over a few keys, each sent to redis-server and to
 * kvd: every reply is the same, and so are the HLL strings' bytes (GET after the writes). PFADDs
 * of a few and of hundreds of elements cross the sparse-to-dense switch, hll-sparse-max-bytes
 * changes under way, PFMERGE mixes encodings, and Redis's own bytes are copied into kvd by SET.
 */
@ExtendWith(ServerLogsOnFailure.class)
class HyperLogLogDifferentialTest {
    private static final int STEPS = 3_000;
    private static final int KEYS = 6;
    private static final String[] SPARSE_MAX_BYTES = {"3000", "3000", "200", "1000", "0", "5000"};

    @Test
    void aRandomWalkOfHyperLogLogCommandsGetsRedisRepliesAndBytes() throws IOException {
        try (DifferentialRun run = DifferentialRun.start(getClass(), 20261203L)) {
            for (int step = 0; step < STEPS; step++) {
                run.assertSameReply(next(run.random(), run.redis()));
            }
        }
    }

    /** The next command; a SET copies a key's bytes as redis-server holds them. */
    private static byte[][] next(SplittableRandom random, RespConnection toRedis) throws IOException {
        int pick = random.nextInt(100);
        if (pick < 30) {
            // Mostly a few elements; sometimes hundreds, which crosses the switch to dense at once.
            int count = random.nextInt(10) == 0 ? random.nextInt(100, 800) : random.nextInt(0, 6);
            byte[][] argv = new byte[2 + count][];
            argv[0] = bytes("PFADD");
            argv[1] = bytes(key(random));
            for (int i = 0; i < count; i++) {
                argv[2 + i] = bytes("e" + random.nextInt(1_000_000));
            }
            return argv;
        }
        if (pick < 45) {
            return args("GET", key(random));
        }
        if (pick < 60) {
            return args("PFCOUNT", key(random));
        }
        if (pick < 68) {
            return args("PFCOUNT", key(random), key(random), key(random));
        }
        if (pick < 78) {
            byte[][] argv = new byte[2 + random.nextInt(4)][];
            argv[0] = bytes("PFMERGE");
            for (int i = 1; i < argv.length; i++) {
                argv[i] = bytes(key(random));
            }
            return argv;
        }
        if (pick < 84) {
            return args("PFDEBUG", random.nextBoolean() ? "ENCODING" : "DECODE", key(random));
        }
        if (pick < 86) {
            return args("PFDEBUG", "TODENSE", key(random));
        }
        if (pick < 89) {
            return args("CONFIG", "SET", "hll-sparse-max-bytes", SPARSE_MAX_BYTES[random.nextInt(SPARSE_MAX_BYTES.length)]);
        }
        if (pick < 92) {
            return args("DEL", key(random));
        }
        if (pick < 94) {
            return args("SET", key(random), "not an hll");
        }
        String source = key(random);
        toRedis.send(args("GET", source));
        byte[] value = bulkValue(toRedis.readReply());
        return value == null ? args("EXISTS", source) : new byte[][] {bytes("SET"), bytes(key(random)), value};
    }

    private static String key(SplittableRandom random) {
        return "hll:" + random.nextInt(KEYS);
    }

    /** The contents of a bulk string reply, or null for a null bulk or another reply. */
    private static byte[] bulkValue(byte[] reply) {
        if (reply.length == 0 || reply[0] != '$' || reply[1] == '-') {
            return null;
        }
        int header = 0;
        while (reply[header] != '\r') {
            header++;
        }
        return Arrays.copyOfRange(reply, header + 2, reply.length - 2);
    }

    private static byte[][] args(String... args) {
        return Arrays.stream(args).map(HyperLogLogDifferentialTest::bytes).toArray(byte[][]::new);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
