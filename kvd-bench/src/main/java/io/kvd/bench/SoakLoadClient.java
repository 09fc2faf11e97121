package io.kvd.bench;

import io.kvd.codec.RespReply;
import io.kvd.codec.RespWriter;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

import java.io.IOException;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A load client of the soak: batches of SET, GET, DEL, INCR, EXPIRE, MGET and MSET on
 * {@code soak:key:<n>} (INCR on {@code soak:counter:<n>}, where no SET writes a string that is not a
 * number), as many per batch as its pipeline depth. The client draws a depth (1 half of the time,
 * else 2 to 64) and a number of batches (1 to 1,000), sends them, closes its connection (one time
 * in four with a reset) and draws again on a new one. Every reply must be of the command's
 * type, and every value read one that {@link SoakValues} hands out.
 */
final class SoakLoadClient extends SoakRole {
    private static final int MAX_DEPTH = 64;
    private static final int MAX_BATCHES_PER_CONNECTION = 1000;
    private static final int COUNTERS = 100;
    private static final int MAX_MGET_KEYS = 16;
    private static final int MAX_MSET_PAIRS = 8;
    private static final int MAX_DEL_KEYS = 3;
    private static final int MAX_TTL_SECONDS = 30;

    private enum Command { GET, SET, DEL, INCR, EXPIRE, MGET, MSET }

    private final SplittableRandom random;
    private final ByteBuf requests = Unpooled.buffer();
    /** Per request of the batch: the command and the soak:key keys it names. */
    private final Command[] sent = new Command[MAX_DEPTH];
    private final int[][] keys = new int[MAX_DEPTH][MAX_MGET_KEYS];
    private final int[] keyCounts = new int[MAX_DEPTH];
    private int depth;
    private int batchesLeft;

    SoakLoadClient(Soak soak, String name, SplittableRandom random) {
        super(soak, name);
        this.random = random;
    }

    @Override
    void step() throws IOException, InterruptedException {
        if (batchesLeft == 0) {
            depth = random.nextBoolean() ? 1 : random.nextInt(2, MAX_DEPTH + 1);
            batchesLeft = random.nextInt(1, MAX_BATCHES_PER_CONNECTION + 1);
        }
        RespClient connection = connection();
        soak.pacer().await(depth);
        requests.clear();
        for (int i = 0; i < depth; i++) {
            writeRandomCommand(i);
        }
        connection.send(requests);
        for (int i = 0; i < depth; i++) {
            check(i, connection.read());
        }
        soak.tally().replies(depth);
        if (--batchesLeft == 0) {
            closeConnection(random.nextInt(4) == 0);
        }
    }

    /** Out of 100: GET 35, SET 25, INCR 10, EXPIRE 10, MGET 10, MSET 5, DEL 5. */
    private void writeRandomCommand(int i) {
        int draw = random.nextInt(100);
        keyCounts[i] = 0;
        if (draw < 35) {
            begin(i, Command.GET, 2);
            writeKey(i);
        } else if (draw < 60) {
            begin(i, Command.SET, 3);
            writeKey(i);
            writeValue();
        } else if (draw < 70) {
            begin(i, Command.INCR, 2);
            RespWriter.writeBulk(requests, "soak:counter:" + random.nextInt(COUNTERS));
        } else if (draw < 80) {
            begin(i, Command.EXPIRE, 3);
            writeKeyOrCounter();
            RespWriter.writeBulk(requests, String.valueOf(random.nextInt(1, MAX_TTL_SECONDS + 1)));
        } else if (draw < 90) {
            int count = random.nextInt(2, MAX_MGET_KEYS + 1);
            begin(i, Command.MGET, 1 + count);
            for (int k = 0; k < count; k++) {
                writeKey(i);
            }
        } else if (draw < 95) {
            int pairs = random.nextInt(2, MAX_MSET_PAIRS + 1);
            begin(i, Command.MSET, 1 + 2 * pairs);
            for (int k = 0; k < pairs; k++) {
                writeKey(i);
                writeValue();
            }
        } else {
            int count = random.nextInt(1, MAX_DEL_KEYS + 1);
            begin(i, Command.DEL, 1 + count);
            for (int k = 0; k < count; k++) {
                writeKeyOrCounter();
            }
        }
    }

    /** Starts request {@code i}: its array header and command name. */
    private void begin(int i, Command command, int arguments) {
        sent[i] = command;
        RespWriter.writeArrayHeader(requests, arguments);
        RespWriter.writeBulk(requests, command.name());
    }

    /** A random {@code soak:key:<n>}, remembered as one of request {@code i}'s keys. */
    private void writeKey(int i) {
        int key = random.nextInt(soak.settings().keyRange());
        keys[i][keyCounts[i]++] = key;
        RespWriter.writeBulk(requests, "soak:key:" + key);
    }

    private void writeKeyOrCounter() {
        RespWriter.writeBulk(requests, random.nextInt(4) == 0 ? "soak:counter:" + random.nextInt(COUNTERS)
                : "soak:key:" + random.nextInt(soak.settings().keyRange()));
    }

    private void writeValue() {
        RespWriter.writeBulk(requests, soak.values().block(), 0, SoakValues.randomLength(random));
    }

    private void check(int i, RespReply reply) {
        Command command = sent[i];
        if (reply instanceof RespReply.Error error) {
            soak.tally().error(name() + ": " + command + ": -" + error.message());
            return;
        }
        boolean expectedType = switch (command) {
            case GET -> reply instanceof RespReply.BulkString;
            case MGET -> reply instanceof RespReply.Array array && array.elements() != null
                    && array.elements().size() == keyCounts[i]
                    && array.elements().stream().allMatch(RespReply.BulkString.class::isInstance);
            case SET, MSET -> reply instanceof RespReply.SimpleString status && status.value().equals("OK");
            case DEL, INCR, EXPIRE -> reply instanceof RespReply.Integer;
        };
        if (!expectedType) {
            soak.tally().error(name() + ": " + command + " answered " + Soak.brief(reply));
        } else if (command == Command.GET) {
            checkValue((RespReply.BulkString) reply, keys[i][0]);
        } else if (command == Command.MGET) {
            List<RespReply> elements = ((RespReply.Array) reply).elements();
            for (int k = 0; k < elements.size(); k++) {
                checkValue((RespReply.BulkString) elements.get(k), keys[i][k]);
            }
        }
    }

    private void checkValue(RespReply.BulkString value, int key) {
        if (value.value() != null && !soak.values().isPrefix(value.value())) {
            soak.tally().mismatch(name() + ": soak:key:" + key + " held " + value.value().length
                    + " bytes that no SET wrote");
        }
    }
}
