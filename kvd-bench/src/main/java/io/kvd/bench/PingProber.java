package io.kvd.bench;

import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.locks.LockSupport;

/**
 * One connection that sends {@code PING} at each tick of an interval, waits for {@code +PONG} and
 * records the round trip. Ticks count from the first probe. A probe that comes back after the next
 * tick is sent again at once, and the ticks missed meanwhile are skipped: no coordinated-omission
 * correction, so a stall shows as one slow probe and fewer probes in all.
 */
final class PingProber implements AutoCloseable {
    private static final byte[] PING = "*1\r\n$4\r\nPING\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] PONG = "+PONG\r\n".getBytes(StandardCharsets.US_ASCII);
    /** A reply longer than this without its line end is not an answer to PING. */
    private static final int MAX_REPLY_BYTES = 64;

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final long intervalNanos;
    private final Histogram roundTripNanos = new Histogram(LoopStats.SIGNIFICANT_DIGITS);
    private final byte[] reply = new byte[MAX_REPLY_BYTES];
    private long firstSentNanos;
    private long lastSentNanos;
    private volatile boolean stopped;
    /** The thread in {@link #probeUntilStopped}, for {@link #stop} to wake. */
    private volatile Thread prober;

    private PingProber(Socket socket, Duration interval) throws IOException {
        this.socket = socket;
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
        this.intervalNanos = interval.toNanos();
    }

    static PingProber connect(ServerAddress server, Duration interval) throws IOException {
        Socket socket = server.connect();
        try {
            return new PingProber(socket, interval);
        } catch (IOException e) {
            socket.close();
            throw e;
        }
    }

    /** The first probe, sent now; the ticks count from it. */
    void probeFirst() throws IOException {
        firstSentNanos = probe();
    }

    /**
     * Probes at every tick after {@link #probeFirst}'s until {@link #stop}; a probe in flight then is
     * finished and recorded. Runs on one thread, started after {@link #probeFirst} returned.
     *
     * @return every probe's round trip in nanoseconds, the first one's included
     * @throws IOException when a reply is not +PONG, or the connection fails
     */
    Histogram probeUntilStopped() throws IOException {
        prober = Thread.currentThread();
        while (!stopped) {
            long nextTick = firstSentNanos + ((lastSentNanos - firstSentNanos) / intervalNanos + 1) * intervalNanos;
            long wait;
            while (!stopped && (wait = nextTick - System.nanoTime()) > 0) {
                LockSupport.parkNanos(this, wait);
            }
            if (!stopped) {
                probe();
            }
        }
        return roundTripNanos;
    }

    /** Ends {@link #probeUntilStopped} once its probe in flight, if any, is answered; callable from any thread. */
    void stop() {
        stopped = true;
        Thread thread = prober;
        if (thread != null) {
            LockSupport.unpark(thread);
        }
    }

    /** Sends one PING and records its round trip; returns when it was sent. */
    private long probe() throws IOException {
        long sent = System.nanoTime();
        out.write(PING);
        awaitPong();
        roundTripNanos.recordValue(System.nanoTime() - sent);
        lastSentNanos = sent;
        return sent;
    }

    private void awaitPong() throws IOException {
        int length = 0;
        while (length < 2 || reply[length - 2] != '\r' || reply[length - 1] != '\n') {
            if (length == MAX_REPLY_BYTES) {
                throw new IOException("PING answered " + printable(length) + "..., not +PONG");
            }
            int read = in.read(reply, length, MAX_REPLY_BYTES - length);
            if (read < 0) {
                throw new IOException("the server closed the prober's connection");
            }
            length += read;
        }
        if (!Arrays.equals(reply, 0, length, PONG, 0, PONG.length)) {
            throw new IOException("PING answered " + printable(length).strip() + ", not +PONG");
        }
    }

    private String printable(int length) {
        return new String(reply, 0, length, StandardCharsets.US_ASCII);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
