package io.kvd.it;

import io.kvd.it.support.AcknowledgedWriters;
import io.kvd.it.support.KvdProcess;
import io.kvd.it.support.RespConnection;
import io.kvd.it.support.ServerLogsOnFailure;
import io.kvd.it.support.WorkDir;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * kvd killed with SIGKILL while AOF rewrites run back to back (while a new incr file is opened and
 * listed, while the base is written, while the new manifest replaces the old and the history is
 * deleted), with the base as RDB and as commands in turn: after a restart every acknowledged write
 * is there, and the preloaded snapshot too.
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
            crashRound(random.nextInt(0, 1500), round % 2 == 0 ? "yes" : "no");
        }
    }

    private static void crashRound(int killAfterMs, String rdbPreamble) throws Exception {
        Path dir = WorkDir.create("kvd-rewrite-crash");
        KvdProcess kvd = KvdProcess.startIn(dir, "--appendfsync", "always", "--aof-use-rdb-preamble", rdbPreamble);
        preload(kvd.port());
        ExecutorService rewriter = Executors.newSingleThreadExecutor();
        try (AcknowledgedWriters writers = new AcknowledgedWriters(kvd.port(), WRITERS)) {
            Future<Integer> rewrites = rewriter.submit(() -> rewriteUntilKilled(kvd.port()));
            writers.awaitFirstAcknowledgement();
            Thread.sleep(killAfterMs);
            kvd.kill();
            System.out.println("AofRewriteCrashTest: killed " + killAfterMs + " ms after the first write (aof-use-rdb-preamble "
                    + rdbPreamble + "), " + rewrites.get() + " rewrites started, " + writers.total() + " writes acknowledged");
            try (KvdProcess restarted = KvdProcess.startIn(dir, "--appendfsync", "always");
                 RespConnection c = RespConnection.open(restarted.port())) {
                assertThat(c.call("GET", "pre:" + (PRELOADED - 1))).isEqualTo(bulk("p" + (PRELOADED - 1)));
                writers.assertEveryAcknowledgedWriteIn(c, "kill after " + killAfterMs + " ms");
            }
        } finally {
            rewriter.shutdownNow();
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

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String bulk(String value) {
        return "$" + value.length() + "\r\n" + value + "\r\n";
    }
}
