package io.kvd.server;

import io.kvd.codec.RespReply;
import io.kvd.codec.RespReply.Error;
import io.kvd.codec.RespReply.SimpleString;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * SHUTDOWN waiting for its replicas, after Redis's integration/shutdown: a fake replica (a
 * socket that asked for a sync and acknowledges only when told) lags behind the primary.
 */
class ShutdownTest {
    private static final long DEADLINE_NANOS = 20_000_000_000L;

    @RegisterExtension
    final TestServer kvd = new TestServer();
    private int port;

    @BeforeEach
    void start() throws Exception {
        port = kvd.start("--shutdown-timeout", "300");
    }

    /** A connection that registered as a replica and never acknowledges by itself. */
    private RespConnection laggingReplica() throws IOException {
        RespConnection replica = new RespConnection(port);
        assertThat(replica.call("REPLCONF", "listening-port", "1")).isEqualTo(new SimpleString("OK"));
        replica.sendCommand("SYNC");
        return replica;
    }

    private static void awaitShutdownInProgress(RespConnection admin) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + DEADLINE_NANOS;
        while (!((RespReply.BulkString) admin.call("INFO", "server")).utf8().contains("shutdown_in_milliseconds:")) {
            assertThat(System.nanoTime()).as("a shutdown in progress within 20 s").isLessThan(deadline);
            Thread.sleep(5);
        }
    }

    @Test
    void withoutReplicasShutdownStopsAtOnceAndAbortFindsNothing() throws Exception {
        try (RespConnection client = new RespConnection(port)) {
            assertThat(client.call("SHUTDOWN", "ABORT")).isEqualTo(new Error("ERR No shutdown in progress."));
            assertThat(client.call("SHUTDOWN", "ABORT", "NOW")).isEqualTo(new Error("ERR syntax error"));
            client.sendCommand("SHUTDOWN");
            assertThat(client.closedByServer()).isTrue();
        }
    }

    @Test
    void aLaggingReplicaHoldsTheShutdownAndWritesUntilAbort() throws Exception {
        try (RespConnection admin = new RespConnection(port); RespConnection replica = laggingReplica();
             RespConnection first = new RespConnection(port); RespConnection second = new RespConnection(port);
             RespConnection writer = new RespConnection(port)) {
            admin.call("INCR", "k");
            first.sendCommand("SHUTDOWN");
            awaitShutdownInProgress(admin);
            second.sendCommand("SHUTDOWN");
            writer.sendCommand("INCR", "k");
            long deadline = System.nanoTime() + DEADLINE_NANOS;
            while (admin.infoField("clients", "blocked_clients") != 3) {
                assertThat(System.nanoTime()).as("two SHUTDOWNs and a write waiting").isLessThan(deadline);
                Thread.sleep(5);
            }
            assertThat(admin.call("SHUTDOWN", "ABORT")).isEqualTo(new SimpleString("OK"));
            Error failed = new Error("ERR Errors trying to SHUTDOWN. Check logs.");
            assertThat(first.read()).isEqualTo(failed);
            assertThat(second.read()).isEqualTo(failed);
            assertThat(writer.read()).isEqualTo(new RespReply.Integer(2));
            assertThat(((RespReply.BulkString) admin.call("INFO", "server")).utf8()).doesNotContain("shutdown_in");
        }
    }

    @Test
    void theShutdownEndsOnceTheReplicaAcknowledgesEverything() throws Exception {
        try (RespConnection admin = new RespConnection(port); RespConnection replica = laggingReplica();
             RespConnection client = new RespConnection(port)) {
            admin.call("SET", "k", "v");
            client.sendCommand("SHUTDOWN");
            awaitShutdownInProgress(admin);
            // As a replica would: acknowledge the primary's offset (which the shutdown's GETACK
            // and the stream's PINGs move on) until the primary stops.
            long deadline = System.nanoTime() + DEADLINE_NANOS;
            try {
                while (true) {
                    long offset = admin.infoField("replication", "master_repl_offset");
                    replica.sendCommand("REPLCONF", "ACK", Long.toString(offset));
                    assertThat(System.nanoTime()).as("the shutdown ended within 20 s").isLessThan(deadline);
                    Thread.sleep(20);
                }
            } catch (IOException stopped) {
                assertThat(client.closedByServer()).isTrue();
            }
        }
    }
}
