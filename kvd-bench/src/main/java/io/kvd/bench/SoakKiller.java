package io.kvd.bench;

import io.kvd.codec.RespReply;
import io.kvd.codec.RespWriter;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * Clients that leave without waiting: every 50 to 300 ms one connects and, three times in four,
 * asks for 1 MB values (a GET of one, an MGET of 2 to 4) and closes before reading the reply, at
 * once or 1 to 20 ms later when the server is writing it; else it sends part of a SET (its value
 * up to 1 MB, the request cut anywhere) and closes. Half the closes are resets. The 1 MB values
 * are {@code soak:big:<n>}, written at the start.
 */
final class SoakKiller extends SoakRole {
    private static final int BIG_KEYS = 8;
    private static final int MOST_KEYS_ASKED = 4;
    private static final long SHORTEST_PAUSE_MS = 50;
    private static final long LONGEST_PAUSE_MS = 300;
    private static final long LONGEST_WAIT_FOR_THE_REPLY_MS = 20;

    private final SplittableRandom random;
    private final ByteBuf request = Unpooled.buffer();
    private boolean bigValuesWritten;

    SoakKiller(Soak soak, SplittableRandom random) {
        super(soak, "killer");
        this.random = random;
    }

    @Override
    void step() throws IOException, InterruptedException {
        if (!bigValuesWritten) {
            writeBigValues();
            bigValuesWritten = true;
        }
        TimeUnit.MILLISECONDS.sleep(random.nextLong(SHORTEST_PAUSE_MS, LONGEST_PAUSE_MS + 1));
        request.clear();
        boolean midReply = random.nextInt(4) != 0;
        if (midReply) {
            writeBigRead();
        } else {
            writePartOfASet();
        }
        RespClient victim = soak.connect();
        try {
            victim.send(request);
        } catch (IOException e) {
            soak.close(victim, true);
            throw e;
        }
        try {
            if (midReply && random.nextBoolean()) {
                TimeUnit.MILLISECONDS.sleep(random.nextLong(1, LONGEST_WAIT_FOR_THE_REPLY_MS + 1));
            }
        } finally {
            Soak.closeQuietly(victim, random.nextBoolean());
            if (midReply) {
                soak.tally().connectionKilledMidReply();
            } else {
                soak.tally().connectionKilledMidRequest();
            }
        }
    }

    private void writeBigValues() throws IOException {
        RespClient client = soak.connect();
        try {
            for (int i = 0; i < BIG_KEYS; i++) {
                request.clear();
                RespWriter.writeCommand(request, ascii("SET"), bigKey(i), soak.values().block());
                client.send(request);
                RespReply reply = client.read();
                soak.tally().replies(1);
                if (!(reply instanceof RespReply.SimpleString ok && ok.value().equals("OK"))) {
                    soak.tally().error(name() + ": SET soak:big:" + i + " answered " + Soak.brief(reply));
                }
            }
        } finally {
            soak.close(client, false);
        }
    }

    /** A GET of one 1 MB value or an MGET of several. */
    private void writeBigRead() {
        int count = random.nextInt(1, MOST_KEYS_ASKED + 1);
        byte[][] argv = new byte[1 + count][];
        argv[0] = ascii(count == 1 ? "GET" : "MGET");
        for (int i = 1; i <= count; i++) {
            argv[i] = bigKey(random.nextInt(BIG_KEYS));
        }
        RespWriter.writeCommand(request, argv);
    }

    /** A SET of {@code soak:half}, cut short of its end: the server never has a whole command to run. */
    private void writePartOfASet() {
        int length = random.nextBoolean() ? SoakValues.LARGEST : SoakValues.randomLength(random);
        RespWriter.writeCommand(request, ascii("SET"), ascii("soak:half"), Arrays.copyOf(soak.values().block(), length));
        request.writerIndex(random.nextInt(1, request.readableBytes()));
    }

    private static byte[] bigKey(int i) {
        return ascii("soak:big:" + i);
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
