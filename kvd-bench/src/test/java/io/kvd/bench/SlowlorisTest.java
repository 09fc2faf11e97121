package io.kvd.bench;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Slow clients against {@link TinyRespServer}; runs end on counts, never on timings. */
class SlowlorisTest {
    private static final Duration INTERVAL = Duration.ofMillis(1);
    private static final Duration LONG_ENOUGH = Duration.ofMinutes(1);

    @Test
    void eachConnectionSendsSetForItsOwnKey() {
        assertThat(new String(Slowloris.request(7)))
                .isEqualTo("*3\r\n$3\r\nSET\r\n$11\r\nslowloris:7\r\n$1\r\nx\r\n");
    }

    @Test
    void everySetTrickledByteByByteIsAnsweredAndStartedOver() throws Exception {
        try (TinyRespServer server = TinyRespServer.answeringLikeRedis();
             Slowloris slowloris = Slowloris.open("127.0.0.1", server.port(), 3)) {
            CompletableFuture<Void> run = runInBackground(slowloris, false);
            awaitCompleted(slowloris, 6);
            slowloris.stop();
            run.get(1, TimeUnit.MINUTES);

            assertThat(server.received("SET")).isGreaterThanOrEqualTo(slowloris.completed());
            // Each completed command sent all its bytes; the unfinished ones sent part of theirs.
            int requestBytes = Slowloris.request(0).length;
            assertThat(slowloris.sent()).isBetween(slowloris.completed() * requestBytes,
                    (slowloris.completed() + 3) * requestBytes);
        }
    }

    @Test
    void spreadConnectionsCompleteTheirCommandsToo() throws Exception {
        try (TinyRespServer server = TinyRespServer.answeringLikeRedis();
             Slowloris slowloris = Slowloris.open("127.0.0.1", server.port(), 3)) {
            CompletableFuture<Void> run = runInBackground(slowloris, true);
            awaitCompleted(slowloris, 6);
            slowloris.stop();
            run.get(1, TimeUnit.MINUTES);

            assertThat(server.received("SET")).isGreaterThanOrEqualTo(6);
        }
    }

    @Test
    void aReplyOtherThanOkEndsTheRun() throws Exception {
        try (TinyRespServer server = TinyRespServer.answeringEveryRequestWith("ERR no thanks");
             Slowloris slowloris = Slowloris.open("127.0.0.1", server.port(), 1)) {
            assertThatThrownBy(() -> slowloris.run(INTERVAL, LONG_ENOUGH, false))
                    .isInstanceOf(IOException.class).hasMessage("unexpected reply -ERR no thanks\\r\\n");
        }
    }

    @Test
    void aConnectionClosedByTheServerEndsTheRun() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             Slowloris slowloris = Slowloris.open("127.0.0.1", server.getLocalPort(), 1)) {
            server.accept().close();
            assertThatThrownBy(() -> slowloris.run(INTERVAL, LONG_ENOUGH, false))
                    .isInstanceOf(IOException.class).hasMessage("the server closed a slowloris connection");
        }
    }

    @Test
    void theCommandLinePrintsOpenThenTheSummaryThatSlowlorisShParses() throws Exception {
        try (TinyRespServer server = TinyRespServer.answeringLikeRedis()) {
            Cli cli = new Cli();
            int exitCode = cli.run("slowloris", "-p", String.valueOf(server.port()), "-c", "2", "--interval", "1ms",
                    "--duration", "200ms");

            assertThat(exitCode).isZero();
            assertThat(cli.out.toString())
                    .matches("open 2\\R+done: \\d+ commands completed, \\d+ bytes sent by 2 connections\\R");
        }
    }

    private static CompletableFuture<Void> runInBackground(Slowloris slowloris, boolean spread) {
        return CompletableFuture.runAsync(() -> {
            try {
                slowloris.run(INTERVAL, LONG_ENOUGH, spread);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    private static void awaitCompleted(Slowloris slowloris, long commands) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (slowloris.completed() < commands && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(slowloris.completed()).isGreaterThanOrEqualTo(commands);
    }
}
