package io.kvd.server;

import io.kvd.codec.RespReply;
import io.kvd.codec.RespReply.BulkString;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.CountDownLatch;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code client-query-slice}: one connection's share of an event-loop iteration. */
class QuerySliceTest {
    private static final int INCRS = 400;

    @RegisterExtension
    final TestServer kvd = new TestServer();

    @Test
    void pipelineBeyondItsSliceRunsInLaterIterationsWithNothingMoreSent() throws Exception {
        int port = kvd.start("--client-query-slice", "1kb");
        try (RespConnection c = new RespConnection(port)) {
            c.send(incrs(INCRS));
            for (int i = 1; i <= INCRS; i++) {
                assertThat(c.read()).isEqualTo(new RespReply.Integer(i));
            }
            // 400 INCRs are ~11 KB: whatever the socket reads delivered, at least one slice ended
            // with complete commands left over, and they ran without the client sending more.
            assertThat(c.infoField("stats", "client_query_slice_yields")).isPositive();
        }
    }

    /**
     * Under epoll and NIO one read event reads all 11 KB of the INCRs (Netty reads on while the
     * buffer fills), so without the slice the GET would see all 400; io_uring completes one read
     * per submission and interleaves the two on its own.
     */
    @ParameterizedTest
    @EnumSource(Transport.class)
    void anotherClientReadyInTheSameIterationIsServedBeforeTheRestOfAPipeline(Transport transport) throws Exception {
        Assumptions.assumeTrue(transport.unavailabilityCause() == null, transport + " is not available here");
        int port = kvd.start("--client-query-slice", "1kb", "--transport", transport.configName());
        try (RespConnection loader = new RespConnection(port); RespConnection other = new RespConnection(port)) {
            assertThat(other.call("PING")).isEqualTo(new RespReply.SimpleString("PONG"));
            CountDownLatch release = new CountDownLatch(1);
            kvd.holdLoop(release);
            // Both requests wait in their sockets while the loop is held, so the next iteration
            // finds both connections ready: the GET runs after at most one slice of the INCRs.
            loader.send(incrs(INCRS));
            other.sendCommand("GET", "counter");
            release.countDown();

            String seen = ((BulkString) other.read()).utf8();
            for (int i = 1; i <= INCRS; i++) {
                assertThat(loader.read()).isEqualTo(new RespReply.Integer(i));
            }
            long counter = seen == null ? 0 : Long.parseLong(seen);
            assertThat(counter).isLessThan(INCRS);
        }
    }

    /**
     * A paused connection reads no more: its unrun input stays within a read or two of its slice
     * while the client keeps 4 MB of requests coming (under io_uring it once grew by megabytes an
     * iteration, each copied again into the growing buffer).
     */
    @ParameterizedTest
    @EnumSource(Transport.class)
    void aLoaderAheadOfItsSlicesKeepsLittleUnrunInputInTheServer(Transport transport) throws Exception {
        Assumptions.assumeTrue(transport.unavailabilityCause() == null, transport + " is not available here");
        int port = kvd.start("--client-query-slice", "1kb", "--transport", transport.configName());
        int incrs = 150_000;
        try (RespConnection loader = new RespConnection(port); RespConnection observer = new RespConnection(port)) {
            assertThat(loader.call("CLIENT", "SETNAME", "loader")).isEqualTo(new RespReply.SimpleString("OK"));
            Thread reader = new Thread(() -> {
                try {
                    for (int i = 1; i <= incrs; i++) {
                        assertThat(loader.read()).isEqualTo(new RespReply.Integer(i));
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            reader.start();
            loader.send(incrs(incrs));
            long largest = 0;
            while (reader.isAlive()) {
                largest = Math.max(largest, queryBuffer(observer, "loader"));
            }
            reader.join();
            assertThat(largest).isLessThan(1024 * 1024);
        }
    }

    /** CLIENT LIST's qbuf of the client named {@code name}, 0 once it is gone. */
    private static long queryBuffer(RespConnection observer, String name) throws IOException {
        String list = ((BulkString) observer.call("CLIENT", "LIST")).utf8();
        for (String line : list.split("\n")) {
            if (line.contains(" name=" + name + " ")) {
                String qbuf = line.substring(line.indexOf(" qbuf=") + 6);
                return Long.parseLong(qbuf.substring(0, qbuf.indexOf(' ')));
            }
        }
        return 0;
    }

    private static byte[] incrs(int count) {
        ByteArrayOutputStream batch = new ByteArrayOutputStream();
        byte[] incr = RespConnection.encode("INCR", "counter");
        for (int i = 0; i < count; i++) {
            batch.writeBytes(incr);
        }
        return batch.toByteArray();
    }
}
