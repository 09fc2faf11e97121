package io.kvd.bench;

import io.kvd.codec.RespReply;
import io.kvd.codec.RespWriter;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The checker: the only client of {@code soak:check:<n>} (1,000 keys) and {@code soak:check:counter}.
 * It writes values of random bytes, as long as the load's, and reads them back: GET, MSET and MGET
 * in one pipeline, DEL (which must count the key if it holds a value), INCR (which must count on
 * from its last reply). A reply that differs from what was written is a mismatch, which fails the
 * soak. A key whose write went unanswered (the connection failed) is unknown until written again,
 * and so is every key at the start: the server may hold them from an earlier run.
 */
final class SoakChecker extends SoakRole {
    private static final int KEYS = 1000;
    private static final int MOST_MSET_KEYS = 6;
    private static final byte[] SET = ascii("SET");
    private static final byte[] GET = ascii("GET");
    private static final byte[] DEL = ascii("DEL");
    private static final byte[] INCR = ascii("INCR");
    private static final byte[] MSET = ascii("MSET");
    private static final byte[] MGET = ascii("MGET");
    private static final byte[] COUNTER = ascii("soak:check:counter");

    private final SplittableRandom random;
    private final ByteBuf requests = Unpooled.buffer();
    /** While {@code known[key]}: the value the key holds, null for none. */
    private final byte[][] expected = new byte[KEYS][];
    private final boolean[] known = new boolean[KEYS];
    private boolean counterKnown;
    private long counter;

    SoakChecker(Soak soak, SplittableRandom random) {
        super(soak, "checker");
        this.random = random;
    }

    /** Out of 100: INCR 5, MSET and MGET 15, SET 30, GET 40, DEL 10; an unknown key is SET first. */
    @Override
    void step() throws IOException, InterruptedException {
        if (!counterKnown) {
            resetCounter();
            return;
        }
        int draw = random.nextInt(100);
        if (draw < 5) {
            incr();
        } else if (draw < 20) {
            msetThenMget();
        } else {
            int key = random.nextInt(KEYS);
            if (!known[key] || draw < 50) {
                set(key);
            } else if (draw < 90) {
                RespReply reply = call(GET, keyBytes(key));
                compare("GET", key, reply);
            } else {
                del(key);
            }
        }
    }

    private void resetCounter() throws IOException, InterruptedException {
        RespReply reply = call(SET, COUNTER, ascii("0"));
        if (isOk(reply)) {
            counter = 0;
            counterKnown = true;
        } else {
            soak.tally().error(name() + ": SET soak:check:counter answered " + Soak.brief(reply));
        }
    }

    private void incr() throws IOException, InterruptedException {
        counterKnown = false;
        RespReply reply = call(INCR, COUNTER);
        if (!(reply instanceof RespReply.Integer value)) {
            soak.tally().error(name() + ": INCR soak:check:counter answered " + Soak.brief(reply));
            return;
        }
        if (value.value() == counter + 1) {
            soak.tally().verified(1);
        } else {
            soak.tally().mismatch("INCR soak:check:counter returned " + value.value() + ", not " + (counter + 1));
        }
        counter = value.value();
        counterKnown = true;
    }

    private void set(int key) throws IOException, InterruptedException {
        byte[] value = randomValue();
        known[key] = false;
        RespReply reply = call(SET, keyBytes(key), value);
        if (isOk(reply)) {
            expected[key] = value;
            known[key] = true;
        } else {
            soak.tally().error(name() + ": SET " + keyName(key) + " answered " + Soak.brief(reply));
        }
    }

    private void del(int key) throws IOException, InterruptedException {
        known[key] = false;
        RespReply reply = call(DEL, keyBytes(key));
        if (!(reply instanceof RespReply.Integer count)) {
            soak.tally().error(name() + ": DEL " + keyName(key) + " answered " + Soak.brief(reply));
            return;
        }
        long existed = expected[key] == null ? 0 : 1;
        if (count.value() == existed) {
            soak.tally().verified(1);
        } else {
            soak.tally().mismatch("DEL " + keyName(key) + " returned " + count.value() + ", not " + existed);
        }
        expected[key] = null;
        known[key] = true;
    }

    /** MSET of distinct keys and MGET of the same keys, sent together: the MGET must see the MSET. */
    private void msetThenMget() throws IOException, InterruptedException {
        int[] keys = random.ints(0, KEYS).distinct().limit(random.nextInt(2, MOST_MSET_KEYS + 1)).toArray();
        byte[][] values = new byte[keys.length][];
        byte[][] msetArgv = new byte[1 + 2 * keys.length][];
        byte[][] mgetArgv = new byte[1 + keys.length][];
        msetArgv[0] = MSET;
        mgetArgv[0] = MGET;
        for (int i = 0; i < keys.length; i++) {
            values[i] = randomValue();
            known[keys[i]] = false;
            msetArgv[1 + 2 * i] = keyBytes(keys[i]);
            msetArgv[2 + 2 * i] = values[i];
            mgetArgv[1 + i] = keyBytes(keys[i]);
        }
        RespClient connection = connection();
        soak.pacer().await(2);
        requests.clear();
        RespWriter.writeCommand(requests, msetArgv);
        RespWriter.writeCommand(requests, mgetArgv);
        connection.send(requests);
        RespReply msetReply = connection.read();
        RespReply mgetReply = connection.read();
        soak.tally().replies(2);
        if (!isOk(msetReply)) {
            soak.tally().error(name() + ": MSET answered " + Soak.brief(msetReply));
            return;
        }
        for (int i = 0; i < keys.length; i++) {
            expected[keys[i]] = values[i];
            known[keys[i]] = true;
        }
        if (!(mgetReply instanceof RespReply.Array array && array.elements() != null
                && array.elements().size() == keys.length)) {
            soak.tally().error(name() + ": MGET of " + keys.length + " keys answered " + Soak.brief(mgetReply));
            return;
        }
        List<RespReply> elements = array.elements();
        for (int i = 0; i < keys.length; i++) {
            compare("MGET", keys[i], elements.get(i));
        }
    }

    /** Checks a GET's (or an MGET element's) reply against the value the key holds. */
    private void compare(String command, int key, RespReply reply) {
        if (reply instanceof RespReply.Error error) {
            soak.tally().error(name() + ": " + command + " " + keyName(key) + ": -" + error.message());
            return;
        }
        byte[] want = expected[key];
        if (reply instanceof RespReply.BulkString value && Arrays.equals(value.value(), want)) {
            soak.tally().verified(1);
            return;
        }
        String wanted = want == null ? "no value (deleted)" : "the " + want.length + " bytes written";
        soak.tally().mismatch(command + " " + keyName(key) + " returned " + describe(reply, want) + ", not " + wanted);
    }

    /** What came back, with where it first differs when it has the written length. */
    private static String describe(RespReply reply, byte[] want) {
        if (!(reply instanceof RespReply.BulkString bulk)) {
            return Soak.brief(reply);
        }
        byte[] got = bulk.value();
        if (got == null) {
            return "no value";
        }
        if (want == null || got.length != want.length) {
            return got.length + " bytes";
        }
        return got.length + " bytes, the first wrong at index " + Arrays.mismatch(got, want);
    }

    private RespReply call(byte[]... argv) throws IOException, InterruptedException {
        RespClient connection = connection();
        soak.pacer().await(1);
        requests.clear();
        RespWriter.writeCommand(requests, argv);
        connection.send(requests);
        RespReply reply = connection.read();
        soak.tally().replies(1);
        return reply;
    }

    private byte[] randomValue() {
        byte[] value = new byte[SoakValues.randomLength(random)];
        random.nextBytes(value);
        return value;
    }

    private static boolean isOk(RespReply reply) {
        return reply instanceof RespReply.SimpleString status && status.value().equals("OK");
    }

    private static String keyName(int key) {
        return "soak:check:" + key;
    }

    private static byte[] keyBytes(int key) {
        return ascii(keyName(key));
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
