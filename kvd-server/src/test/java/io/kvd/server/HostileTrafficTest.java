package io.kvd.server;

import io.kvd.codec.RespReply;
import io.kvd.server.command.CommandVocabulary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A million random and mutated frames from several connections: the server keeps serving, its
 * keyspace stays consistent and its heap returns near where it started.
 */
class HostileTrafficTest {
    private static final long SEED = Long.getLong("kvd.test.seed", 20261202L);
    private static final int CONNECTIONS = 4;
    private static final int FRAMES = 1_000_000;
    private static final int FRAMES_PER_BATCH = 500;
    /** One batch in this many has a byte flipped: most then end in a protocol error and a reconnect. */
    private static final int MUTATE_ONE_BATCH_IN = 5;

    @RegisterExtension
    final TestServer kvd = new TestServer();

    @Test
    void millionRandomAndMutatedFramesLeaveTheServerHealthy() throws Exception {
        System.out.println("HostileTrafficTest seed=" + SEED);
        int port = kvd.start();
        long heapBefore = usedHeapAfterGc();
        ExecutorService pool = Executors.newFixedThreadPool(CONNECTIONS);
        try {
            List<Future<Integer>> reconnects = new ArrayList<>();
            for (int i = 0; i < CONNECTIONS; i++) {
                SplittableRandom random = new SplittableRandom(SEED + i);
                reconnects.add(pool.submit(() -> sendFrames(port, random, FRAMES / CONNECTIONS)));
            }
            int totalReconnects = 0;
            for (Future<Integer> f : reconnects) {
                totalReconnects += f.get();
            }
            System.out.println("HostileTrafficTest reconnects=" + totalReconnects);
        } finally {
            pool.shutdownNow();
        }
        try (RespConnection c = new RespConnection(port)) {
            assertThat(c.call("PING")).isEqualTo(new RespReply.SimpleString("PONG"));
            long protocolErrors = c.infoField("stats", "protocol_errors");
            System.out.println("HostileTrafficTest protocol_errors=" + protocolErrors);
            assertThat(protocolErrors).as("mutated frames that broke the framing").isPositive();
            assertThat(c.call("FLUSHALL")).isEqualTo(new RespReply.SimpleString("OK"));
        }
        kvd.checkInvariants();
        assertThat(usedHeapAfterGc() - heapBefore).as("heap growth in bytes").isLessThan(64L * 1024 * 1024);
    }

    /** Sends {@code frames} frames in batches, reconnecting whenever the server closes; returns the reconnects. */
    private static int sendFrames(int port, SplittableRandom random, int frames) throws Exception {
        int reconnects = 0;
        Socket socket = connect(port);
        for (int sent = 0; sent < frames; sent += FRAMES_PER_BATCH) {
            byte[] batch = batch(random);
            if (random.nextInt(MUTATE_ONE_BATCH_IN) == 0) {
                batch[random.nextInt(batch.length)] = (byte) random.nextInt(256);
            }
            try {
                socket.getOutputStream().write(batch);
            } catch (IOException closedByServer) {
                socket.close();
                socket = connect(port);
                reconnects++;
            }
        }
        socket.shutdownOutput();
        socket.close();
        return reconnects;
    }

    /** A socket whose replies a daemon thread reads and drops, so the server never waits on us. */
    private static Socket connect(int port) throws IOException {
        Socket socket = new Socket("127.0.0.1", port);
        Thread drain = new Thread(() -> {
            byte[] sink = new byte[64 * 1024];
            try (InputStream in = socket.getInputStream()) {
                int read;
                do {
                    read = in.read(sink);
                } while (read >= 0);
            } catch (IOException ignored) {
                // The socket closed: nothing left to drain.
            }
        });
        drain.setDaemon(true);
        drain.start();
        return socket;
    }

    private static byte[] batch(SplittableRandom random) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < FRAMES_PER_BATCH; i++) {
            frame(random, out);
        }
        return out.toByteArray();
    }

    /** A multibulk or inline request of words and random bytes. */
    private static void frame(SplittableRandom random, OutputStream out) throws IOException {
        int argc = 1 + random.nextInt(5);
        if (random.nextInt(10) == 0) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < argc; i++) {
                line.append(word(random)).append(' ');
            }
            out.write((line + "\r\n").getBytes(StandardCharsets.UTF_8));
            return;
        }
        out.write(("*" + argc + "\r\n").getBytes(StandardCharsets.US_ASCII));
        for (int i = 0; i < argc; i++) {
            byte[] arg = random.nextBoolean() ? word(random).getBytes(StandardCharsets.UTF_8) : randomBytes(random);
            out.write(("$" + arg.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(arg);
            out.write('\r');
            out.write('\n');
        }
    }

    private static String word(SplittableRandom random) {
        String[] words = CommandVocabulary.HARMLESS_WORDS;
        return words[random.nextInt(words.length)];
    }

    private static byte[] randomBytes(SplittableRandom random) {
        byte[] bytes = new byte[random.nextInt(24)];
        random.nextBytes(bytes);
        return bytes;
    }

    private static long usedHeapAfterGc() {
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
