package io.kvd.it;

import io.kvd.it.support.KvdProcess;
import io.kvd.it.support.Poll;
import io.kvd.it.support.RespConnection;
import io.kvd.it.support.ServerLogsOnFailure;
import io.kvd.it.support.WorkDir;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * kvd killed with SIGKILL while AOF rewrites run back to back (before, during and after the
 * switch to the new file): after a restart every acknowledged write is there.
 */
@ExtendWith(ServerLogsOnFailure.class)
class AofRewriteCrashTest {
    private static final int WRITERS = 8;
    private static final int PRELOADED = 50_000;

    @Test
    void everyAcknowledgedWriteSurvivesSigkillDuringRewrites() throws Exception {
        long seed = Long.getLong("kvd.test.seed", 20250303L);
        int rounds = Integer.getInteger("kvd.it.rewriteCrashRounds", 6);
        System.out.println("AofRewriteCrashTest seed " + seed + " (rerun with -Dkvd.test.seed=" + seed + "), "
                + rounds + " rounds");
        SplittableRandom random = new SplittableRandom(seed);
        for (int round = 0; round < rounds; round++) {
            crashRound(random.nextInt(0, 1500));
        }
    }

    private static void crashRound(int killAfterMs) throws Exception {
        Path dir = WorkDir.create("kvd-rewrite-crash");
        KvdProcess kvd = KvdProcess.startIn(dir, "--appendfsync", "always");
        preload(kvd.port());
        ExecutorService pool = Executors.newFixedThreadPool(WRITERS + 1);
        List<Future<Integer>> acknowledged = new ArrayList<>();
        AtomicInteger total = new AtomicInteger();
        try {
            for (int w = 0; w < WRITERS; w++) {
                int writer = w;
                acknowledged.add(pool.submit(() -> writeUntilKilled(kvd.port(), writer, total)));
            }
            Future<Integer> rewrites = pool.submit(() -> rewriteUntilKilled(kvd.port()));
            Poll.until(Duration.ofSeconds(30), "a first acknowledged write", () -> total.get() > 0 ? true : null);
            Thread.sleep(killAfterMs);
            kvd.kill();
            System.out.println("AofRewriteCrashTest: killed " + killAfterMs + " ms after the first write, "
                    + rewrites.get() + " rewrites started, " + total.get() + " writes acknowledged");
            try (KvdProcess restarted = KvdProcess.startIn(dir, "--appendfsync", "always");
                 RespConnection c = RespConnection.open(restarted.port())) {
                assertThat(c.call("GET", "pre:" + (PRELOADED - 1))).isEqualTo(bulk("p" + (PRELOADED - 1)));
                for (int w = 0; w < WRITERS; w++) {
                    int count = acknowledged.get(w).get();
                    for (int i = 0; i < count; i++) {
                        assertThat(c.call("GET", key(w, i))).as("writer %d key %d of %d acknowledged, kill after %d ms",
                                w, i, count, killAfterMs).isEqualTo(bulk("v" + i));
                    }
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** Enough keys that a rewrite takes a while; pipelined. */
    private static void preload(int port) throws IOException {
        try (RespConnection c = RespConnection.open(port)) {
            for (int batch = 0; batch < PRELOADED; batch += 1000) {
                for (int i = batch; i < batch + 1000; i++) {
                    c.send(utf8("SET"), utf8("pre:" + i), utf8("p" + i));
                }
                for (int i = batch; i < batch + 1000; i++) {
                    c.readReply();
                }
            }
        }
    }

    /** Starts a rewrite whenever none runs; returns how many started. */
    private static int rewriteUntilKilled(int port) {
        int started = 0;
        try (RespConnection c = RespConnection.open(port)) {
            while (true) {
                if (c.call("BGREWRITEAOF").startsWith("+Background")) {
                    started++;
                }
            }
        } catch (IOException e) {
            return started;
        }
    }

    /** Writes w:i = vi for i = 0, 1, ... until the connection dies; returns how many were acknowledged. */
    private static int writeUntilKilled(int port, int writer, AtomicInteger total) {
        int acknowledged = 0;
        try (RespConnection c = RespConnection.open(port)) {
            while (true) {
                if (!c.call("SET", key(writer, acknowledged), "v" + acknowledged).equals("+OK\r\n")) {
                    return acknowledged;
                }
                acknowledged++;
                total.incrementAndGet();
            }
        } catch (IOException e) {
            return acknowledged;
        }
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String key(int writer, int i) {
        return "w" + writer + ":" + i;
    }

    private static String bulk(String value) {
        return "$" + value.length() + "\r\n" + value + "\r\n";
    }
}
