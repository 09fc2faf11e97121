package io.kvd.bench;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * Slowloris clients on one thread: each connection sends a valid {@code SET} one byte per interval
 * (a 38-byte SET takes 3.8 s at 100 ms), reads its {@code +OK} and starts over. Every send is due
 * at a fixed time, so a late loop catches up; replies come through a selector, so a connection
 * waiting for its reply costs no system call. Each one-byte send costs what it costs in any
 * language: about three quarters of this thread's CPU is the kernel's loopback TCP path.
 */
final class Slowloris implements AutoCloseable {
    private static final byte[] OK = "+OK\r\n".getBytes(StandardCharsets.US_ASCII);
    /** A reply longer than this without its line end is not Redis's answer to SET. */
    private static final int MAX_REPLY_BYTES = 64;

    private final Selector selector;
    private final Connection[] connections;
    private final ByteBuffer readBuffer = ByteBuffer.allocateDirect(MAX_REPLY_BYTES);
    private volatile boolean stopped;
    private volatile long completed;
    private volatile long sent;

    private Slowloris(Selector selector, Connection[] connections) {
        this.selector = selector;
        this.connections = connections;
    }

    /** Connects {@code count} clients to the server; they send nothing until {@link #run}. */
    static Slowloris open(String host, int port, int count) throws IOException {
        Selector selector = Selector.open();
        Connection[] connections = new Connection[count];
        try {
            for (int i = 0; i < count; i++) {
                SocketChannel channel = SocketChannel.open(new InetSocketAddress(host, port));
                channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
                channel.configureBlocking(false);
                connections[i] = new Connection(channel, request(i));
                channel.register(selector, SelectionKey.OP_READ, connections[i]);
            }
        } catch (IOException e) {
            closeAll(selector, connections);
            throw e;
        }
        return new Slowloris(selector, connections);
    }

    /** Connection {@code i}'s request: {@code SET slowloris:<i> x}. */
    static byte[] request(int i) {
        String key = "slowloris:" + i;
        return ("*3\r\n$3\r\nSET\r\n$" + key.length() + "\r\n" + key + "\r\n$1\r\nx\r\n").getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * Trickles until {@code duration} has passed or {@link #stop} is called. With {@code spread} the
     * connections' sends are spaced evenly over the interval; without, all of them go at each tick
     * together, as slowloris.py sent them.
     *
     * @throws IOException when the server closes a connection or answers anything but {@code +OK}
     */
    void run(Duration interval, Duration duration, boolean spread) throws IOException {
        long intervalNanos = interval.toNanos();
        long start = System.nanoTime();
        long end = start + duration.toNanos();
        int next = 0;
        long round = 0;
        long now;
        while (!stopped && (now = System.nanoTime()) - end < 0) {
            // At most one byte per connection per pass, however late the loop is.
            for (int sends = 0; sends < connections.length; sends++) {
                if (dueAt(start, intervalNanos, spread, round, next) - now > 0) {
                    break;
                }
                trickle(connections[next]);
                if (++next == connections.length) {
                    next = 0;
                    round++;
                }
            }
            long due = dueAt(start, intervalNanos, spread, round, next);
            long waitNanos = (due - end < 0 ? due : end) - System.nanoTime();
            if (waitNanos > 0) {
                selector.select(Math.max(1, TimeUnit.NANOSECONDS.toMillis(waitNanos)));
            } else {
                selector.selectNow();
            }
            for (SelectionKey key : selector.selectedKeys()) {
                receive((Connection) key.attachment());
            }
            selector.selectedKeys().clear();
        }
    }

    /** When connection {@code index} sends its byte of round {@code round}. */
    private long dueAt(long start, long intervalNanos, boolean spread, long round, int index) {
        return start + round * intervalNanos + (spread ? index * intervalNanos / connections.length : 0);
    }

    /** Ends {@link #run} soon; callable from any thread. */
    void stop() {
        stopped = true;
        selector.wakeup();
    }

    long completed() {
        return completed;
    }

    long sent() {
        return sent;
    }

    int connections() {
        return connections.length;
    }

    /** Sends the next byte of the connection's request; nothing while it waits for the reply. */
    private void trickle(Connection c) throws IOException {
        if (c.requestBytesSent == c.request.capacity()) {
            return;
        }
        c.request.limit(c.requestBytesSent + 1).position(c.requestBytesSent);
        if (c.channel.write(c.request) == 1) {
            c.requestBytesSent++;
            sent++;
        }
    }

    private void receive(Connection c) throws IOException {
        readBuffer.clear();
        int read = c.channel.read(readBuffer);
        if (read < 0) {
            throw new IOException("the server closed a slowloris connection");
        }
        readBuffer.flip();
        if (c.replyLength + read > MAX_REPLY_BYTES) {
            throw new IOException("unexpected reply " + printable(c.reply, c.replyLength) + "...");
        }
        readBuffer.get(c.reply, c.replyLength, read);
        c.replyLength += read;
        if (c.replyLength < 2 || c.reply[c.replyLength - 2] != '\r' || c.reply[c.replyLength - 1] != '\n') {
            return;
        }
        if (!Arrays.equals(c.reply, 0, c.replyLength, OK, 0, OK.length)) {
            throw new IOException("unexpected reply " + printable(c.reply, c.replyLength));
        }
        completed++;
        c.requestBytesSent = 0;
        c.replyLength = 0;
    }

    private static String printable(byte[] bytes, int length) {
        return new String(bytes, 0, length, StandardCharsets.US_ASCII).replace("\r", "\\r").replace("\n", "\\n");
    }

    @Override
    public void close() {
        closeAll(selector, connections);
    }

    private static void closeAll(Selector selector, Connection[] connections) {
        for (Connection c : connections) {
            if (c != null) {
                closeQuietly(c.channel);
            }
        }
        closeQuietly(selector);
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception ignored) {
            // Closing at the end of a run: nothing is left to do with a failure.
        }
    }

    /** One slow client: its request (direct, so a one-byte write copies nothing) and the reply so far. */
    private static final class Connection {
        final SocketChannel channel;
        final ByteBuffer request;
        final byte[] reply = new byte[MAX_REPLY_BYTES];
        int requestBytesSent;
        int replyLength;

        Connection(SocketChannel channel, byte[] request) {
            this.channel = channel;
            this.request = ByteBuffer.allocateDirect(request.length).put(request);
        }
    }
}
