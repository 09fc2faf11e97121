import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Pub/sub against one server on 127.0.0.1 (kvd or redis-server alike), no dependencies:
 *
 * <pre>
 * java FanOut.java fanout PORT SUBSCRIBERS MESSAGES   # one publisher, SUBSCRIBERS on one channel, 64-byte messages
 * java FanOut.java patterns PORT PATTERNS PUBLISHES   # PATTERNS patterns subscribed, PUBLISH round trips one at a time
 * </pre>
 *
 * fanout prints messages delivered per second: SUBSCRIBERS x MESSAGES frames, from the first
 * PUBLISH until every subscriber has read every frame (one thread reads all subscribers through a
 * selector; the publisher pipelines with at most 64 PUBLISHes unanswered). patterns prints the
 * median and 99th percentile of one PUBLISH's round trip with PATTERNS patterns to match (none
 * matches: the cost is the walk over the patterns).
 */
public class FanOut {
    private static final byte[] CHANNEL = "fanout".getBytes(StandardCharsets.US_ASCII);
    private static final int WINDOW = 64;

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[1]);
        int n = Integer.parseInt(args[2]);
        int count = Integer.parseInt(args[3]);
        if (args[0].equals("fanout")) {
            fanOut(port, n, count);
        } else {
            patterns(port, n, count);
        }
    }

    private static void fanOut(int port, int subscribers, int messages) throws Exception {
        byte[] payload = new byte[64];
        Arrays.fill(payload, (byte) 'm');
        long frameBytes = frame("message", CHANNEL, payload).length;
        long confirmationBytes = frame("subscribe", CHANNEL, null).length + 4; // ":1\r\n"
        Selector selector = Selector.open();
        List<SocketChannel> channels = new ArrayList<>();
        for (int i = 0; i < subscribers; i++) {
            SocketChannel channel = SocketChannel.open(new InetSocketAddress("127.0.0.1", port));
            channel.write(ByteBuffer.wrap(command("SUBSCRIBE".getBytes(), CHANNEL)));
            channels.add(channel);
        }
        ByteBuffer buffer = ByteBuffer.allocateDirect(256 * 1024);
        // Confirmations first, read blocking; then the channels go non-blocking into the selector.
        for (SocketChannel channel : channels) {
            long read = 0;
            while (read < confirmationBytes) {
                buffer.clear();
                read += channel.read(buffer);
            }
            channel.configureBlocking(false);
            channel.register(selector, SelectionKey.OP_READ);
        }
        long expected = frameBytes * messages * subscribers;
        Thread publisher = new Thread(() -> publish(port, payload, messages));
        long start = System.nanoTime();
        publisher.start();
        long received = 0;
        while (received < expected) {
            selector.select();
            for (SelectionKey key : selector.selectedKeys()) {
                SocketChannel channel = (SocketChannel) key.channel();
                int r;
                do {
                    buffer.clear();
                    r = channel.read(buffer);
                    if (r < 0) {
                        throw new IOException("a subscriber was disconnected");
                    }
                    received += r;
                } while (r == buffer.capacity());
            }
            selector.selectedKeys().clear();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        publisher.join();
        System.out.printf("fanout subscribers=%d messages=%d delivered_per_sec=%.0f seconds=%.3f%n",
                subscribers, messages, (double) messages * subscribers / seconds, seconds);
        for (SocketChannel channel : channels) {
            channel.close();
        }
    }

    private static void publish(int port, byte[] payload, int messages) {
        byte[] request = command("PUBLISH".getBytes(), CHANNEL, payload);
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setTcpNoDelay(true);
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            int unanswered = 0;
            for (int sent = 0; sent < messages; sent++) {
                out.write(request);
                if (++unanswered == WINDOW || sent == messages - 1) {
                    out.flush();
                    readIntegerReplies(in, unanswered);
                    unanswered = 0;
                }
            }
        } catch (IOException e) {
            throw new RuntimeException(e);
        }
    }

    private static void patterns(int port, int patterns, int publishes) throws IOException {
        try (Socket subscriber = new Socket("127.0.0.1", port); Socket publisher = new Socket("127.0.0.1", port)) {
            subscriber.setTcpNoDelay(true);
            publisher.setTcpNoDelay(true);
            OutputStream out = subscriber.getOutputStream();
            int batch = 1000;
            for (int i = 0; i < patterns; i += batch) {
                List<byte[]> args = new ArrayList<>();
                args.add("PSUBSCRIBE".getBytes());
                for (int j = i; j < Math.min(patterns, i + batch); j++) {
                    args.add(("pattern:" + j + ":*").getBytes(StandardCharsets.US_ASCII));
                }
                out.write(command(args.toArray(new byte[0][])));
            }
            out.flush();
            // The last confirmation carries the full count.
            byte[] last = (":" + patterns + "\r\n").getBytes(StandardCharsets.US_ASCII);
            readUntil(subscriber.getInputStream(), last);
            byte[] request = command("PUBLISH".getBytes(), "some:channel:name".getBytes(), "x".getBytes());
            OutputStream pubOut = publisher.getOutputStream();
            InputStream pubIn = publisher.getInputStream();
            long[] nanos = new long[publishes];
            for (int i = 0; i < publishes; i++) {
                long t = System.nanoTime();
                pubOut.write(request);
                pubOut.flush();
                readIntegerReplies(pubIn, 1);
                nanos[i] = System.nanoTime() - t;
            }
            // The first half warms up (the JIT); the second half is measured.
            long[] measured = Arrays.copyOfRange(nanos, publishes / 2, publishes);
            Arrays.sort(measured);
            System.out.printf("patterns=%d publish_median_us=%.1f publish_p99_us=%.1f%n", patterns,
                    measured[measured.length / 2] / 1e3, measured[(int) (measured.length * 0.99)] / 1e3);
        }
    }

    private static void readIntegerReplies(InputStream in, int replies) throws IOException {
        int lines = 0;
        while (lines < replies) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("closed");
            }
            if (b == '\n') {
                lines++;
            }
        }
    }

    private static void readUntil(InputStream in, byte[] end) throws IOException {
        byte[] window = new byte[end.length];
        while (true) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("closed");
            }
            System.arraycopy(window, 1, window, 0, window.length - 1);
            window[window.length - 1] = (byte) b;
            if (Arrays.equals(window, end)) {
                return;
            }
        }
    }

    private static byte[] frame(String kind, byte[] channel, byte[] message) {
        StringBuilder s = new StringBuilder();
        s.append("*3\r\n");
        s.append('$').append(kind.length()).append("\r\n").append(kind).append("\r\n");
        s.append('$').append(channel.length).append("\r\n").append(new String(channel, StandardCharsets.ISO_8859_1)).append("\r\n");
        if (message != null) {
            s.append('$').append(message.length).append("\r\n").append(new String(message, StandardCharsets.ISO_8859_1)).append("\r\n");
        }
        return s.toString().getBytes(StandardCharsets.ISO_8859_1);
    }

    private static byte[] command(byte[]... args) {
        StringBuilder s = new StringBuilder("*").append(args.length).append("\r\n");
        for (byte[] a : args) {
            s.append('$').append(a.length).append("\r\n").append(new String(a, StandardCharsets.ISO_8859_1)).append("\r\n");
        }
        return s.toString().getBytes(StandardCharsets.ISO_8859_1);
    }
}
