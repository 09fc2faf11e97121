package io.kvd.server;

import io.kvd.codec.RespReply;
import io.kvd.codec.RespReply.BulkString;
import io.kvd.codec.RespReply.SimpleString;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

/** CLIENT PAUSE and UNPAUSE over real connections, after Redis's unit/pause. */
class ClientPauseTest {
    @RegisterExtension
    final TestServer kvd = new TestServer();
    private int port;

    @BeforeEach
    void start() throws Exception {
        port = kvd.start();
    }

    /** Polls INFO until {@code count} clients wait (blocked or held); a generous deadline for a busy machine. */
    private static void awaitBlockedClients(RespConnection admin, long count) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (admin.infoField("clients", "blocked_clients") != count) {
            assertThat(System.nanoTime()).as("%d blocked clients in 20 s", count).isLessThan(deadline);
            Thread.sleep(5);
        }
    }

    @Test
    void writeIsHeldUntilUnpauseWhileReadsRun() throws Exception {
        try (RespConnection admin = new RespConnection(port); RespConnection writer = new RespConnection(port)) {
            assertThat(admin.call("CLIENT", "PAUSE", "100000", "WRITE")).isEqualTo(new SimpleString("OK"));
            writer.sendCommand("SET", "foo", "bar");
            awaitBlockedClients(admin, 1);
            assertThat(admin.call("GET", "foo")).isEqualTo(new BulkString(null));
            assertThat(admin.call("CLIENT", "UNPAUSE")).isEqualTo(new SimpleString("OK"));
            assertThat(writer.read()).isEqualTo(new SimpleString("OK"));
            assertThat(admin.call("GET", "foo")).isEqualTo(BulkString.of("bar"));
            assertThat(admin.infoField("clients", "blocked_clients")).isZero();
        }
    }

    @Test
    void aReadDuringAPauseSeesAnExpiredKeyMissingAndLeavesItUntilThePauseEnds() throws Exception {
        try (RespConnection admin = new RespConnection(port)) {
            long expiredBefore = admin.infoField("stats", "expired_keys");
            admin.call("SET", "foo", "bar", "PX", "10");
            admin.call("CLIENT", "PAUSE", "100000", "WRITE");
            long deadline = System.nanoTime() + 20_000_000_000L;
            while (!admin.call("GET", "foo").equals(new BulkString(null))) {
                assertThat(System.nanoTime()).as("foo logically expired within 20 s").isLessThan(deadline);
                Thread.sleep(5);
            }
            assertThat(admin.infoField("stats", "expired_keys")).isEqualTo(expiredBefore);
            admin.call("CLIENT", "UNPAUSE");
            assertThat(admin.call("GET", "foo")).isEqualTo(new BulkString(null));
            assertThat(admin.infoField("stats", "expired_keys")).isEqualTo(expiredBefore + 1);
        }
    }

    @Test
    void publishAndPfcountAreHeldByAWritePause() throws Exception {
        try (RespConnection admin = new RespConnection(port); RespConnection a = new RespConnection(port);
             RespConnection b = new RespConnection(port)) {
            admin.call("PFADD", "hll", "x");
            admin.call("CLIENT", "PAUSE", "100000", "WRITE");
            a.sendCommand("PFCOUNT", "hll");
            b.sendCommand("PUBLISH", "ch", "m");
            awaitBlockedClients(admin, 2);
            admin.call("CLIENT", "UNPAUSE");
            assertThat(a.read()).isEqualTo(new RespReply.Integer(1));
            assertThat(b.read()).isEqualTo(new RespReply.Integer(0));
        }
    }

    @Test
    void theCommandsBehindAHeldOneWaitAndRunInOrder() throws Exception {
        try (RespConnection admin = new RespConnection(port); RespConnection writer = new RespConnection(port)) {
            admin.call("CLIENT", "PAUSE", "100000", "WRITE");
            writer.send(concat(RespConnection.encode("SET", "k", "1"), RespConnection.encode("GET", "k")));
            awaitBlockedClients(admin, 1);
            admin.call("CLIENT", "UNPAUSE");
            assertThat(writer.read()).isEqualTo(new SimpleString("OK"));
            assertThat(writer.read()).isEqualTo(BulkString.of("1"));
        }
    }

    @Test
    void anAllPauseHoldsReadsAndEndsByItself() throws Exception {
        try (RespConnection admin = new RespConnection(port); RespConnection reader = new RespConnection(port)) {
            admin.call("SET", "k", "v");
            admin.call("CLIENT", "PAUSE", "200");
            reader.sendCommand("GET", "k");
            assertThat(reader.read()).isEqualTo(BulkString.of("v"));
        }
    }

    @Test
    void scriptsThatDeclareNoWritesRunAndOthersWait() throws Exception {
        try (RespConnection admin = new RespConnection(port); RespConnection scripter = new RespConnection(port)) {
            admin.call("CLIENT", "PAUSE", "100000", "WRITE");
            assertThat(admin.call("EVAL", "#!lua flags=no-writes\nreturn 1", "0")).isEqualTo(new RespReply.Integer(1));
            assertThat(admin.call("EVAL_RO", "return 2", "0")).isEqualTo(new RespReply.Integer(2));
            scripter.sendCommand("EVAL", "return 3", "0");
            awaitBlockedClients(admin, 1);
            admin.call("CLIENT", "UNPAUSE");
            assertThat(scripter.read()).isEqualTo(new RespReply.Integer(3));
        }
    }

    @Test
    void execWaitsOnlyWhenItHoldsAWrite() throws Exception {
        try (RespConnection admin = new RespConnection(port); RespConnection tx = new RespConnection(port)) {
            admin.call("SET", "foo", "bar");
            tx.call("MULTI");
            tx.call("SET", "foo", "baz");
            admin.call("CLIENT", "PAUSE", "100000", "WRITE");
            RespConnection reads = new RespConnection(port);
            reads.call("MULTI");
            reads.call("GET", "foo");
            assertThat(reads.call("EXEC")).isEqualTo(RespReply.Array.of(BulkString.of("bar")));
            reads.close();
            tx.sendCommand("EXEC");
            awaitBlockedClients(admin, 1);
            admin.call("CLIENT", "UNPAUSE");
            assertThat(tx.read()).isEqualTo(RespReply.Array.of(new SimpleString("OK")));
        }
    }

    @Test
    void aRefusedCommandIsAnsweredAtOnce() throws Exception {
        try (RespConnection admin = new RespConnection(port)) {
            admin.call("CLIENT", "PAUSE", "100000", "WRITE");
            assertThat(admin.call("SET", "foo"))
                    .isEqualTo(new RespReply.Error("ERR wrong number of arguments for 'set' command"));
            admin.call("CLIENT", "UNPAUSE");
        }
    }

    @Test
    void argumentsAreCheckedAsRedisChecksThem() throws Exception {
        try (RespConnection admin = new RespConnection(port)) {
            assertThat(admin.call("CLIENT", "PAUSE", "abc"))
                    .isEqualTo(new RespReply.Error("ERR timeout is not an integer or out of range"));
            assertThat(admin.call("CLIENT", "PAUSE", "-1")).isEqualTo(new RespReply.Error("ERR timeout is negative"));
            assertThat(admin.call("CLIENT", "PAUSE", "10", "foo"))
                    .isEqualTo(new RespReply.Error("ERR CLIENT PAUSE mode must be WRITE or ALL"));
            assertThat(admin.call("client", "pause", "10", "write", "extra")).isEqualTo(new RespReply.Error(
                    "ERR unknown subcommand or wrong number of arguments for 'pause'. Try CLIENT HELP."));
            assertThat(admin.call("CLIENT", "UNPAUSE", "x"))
                    .isEqualTo(new RespReply.Error("ERR wrong number of arguments for 'client|unpause' command"));
        }
    }

    @Test
    void aHeldClientThatDisconnectsIsForgotten() throws Exception {
        try (RespConnection admin = new RespConnection(port)) {
            admin.call("CLIENT", "PAUSE", "100000", "WRITE");
            try (RespConnection writer = new RespConnection(port)) {
                writer.sendCommand("SET", "foo", "bar");
                awaitBlockedClients(admin, 1);
            }
            awaitBlockedClients(admin, 0);
            admin.call("CLIENT", "UNPAUSE");
            assertThat(admin.call("GET", "foo")).isEqualTo(new BulkString(null));
        }
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
