import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A consumer group's round trip against one server on 127.0.0.1 (kvd or redis-server alike), no
 * dependencies:
 *
 * <pre>
 * java GroupRoundTrip.java fill PORT ENTRIES                # XADD s * f1 8-bytes f2 8-bytes, pipelined; XGROUP CREATE s g 0
 * java GroupRoundTrip.java consume PORT CONSUMERS COUNT     # prints entries/s
 * </pre>
 *
 * consume runs CONSUMERS connections, one thread each; each loops
 * {@code XREADGROUP GROUP g cN COUNT COUNT STREAMS s >} then {@code XACK s g <the ids read>},
 * one request at a time, until XREADGROUP answers nil (nothing is left undelivered). It prints the
 * entries read and acknowledged per second from the first XREADGROUP to the last XACK, and fails
 * unless every entry was read once and acknowledged and the group has nothing pending.
 */
public class GroupRoundTrip {
    private static final String STREAM = "s";
    private static final String GROUP = "g";
    private static final int FILL_BATCH = 1000;

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[1]);
        if (args[0].equals("fill")) {
            fill(port, Integer.parseInt(args[2]));
        } else {
            consume(port, Integer.parseInt(args[2]), Integer.parseInt(args[3]));
        }
    }

    private static void fill(int port, int entries) throws IOException {
        try (Connection c = new Connection(port)) {
            for (int done = 0; done < entries; ) {
                int batch = Math.min(FILL_BATCH, entries - done);
                for (int i = 0; i < batch; i++) {
                    int n = done + i;
                    c.send("XADD", STREAM, "*", "f1", String.format("%08d", n), "f2", String.format("%08x", n));
                }
                c.flush();
                for (int i = 0; i < batch; i++) {
                    c.read();
                }
                done += batch;
            }
            c.call("XGROUP", "CREATE", STREAM, GROUP, "0");
            long length = (Long) c.call("XLEN", STREAM);
            if (length != entries) {
                throw new IllegalStateException("XLEN " + length + ", expected " + entries);
            }
        }
    }

    private static void consume(int port, int consumers, int count) throws Exception {
        long entries;
        try (Connection c = new Connection(port)) {
            entries = (Long) c.call("XLEN", STREAM);
        }
        AtomicLong acked = new AtomicLong();
        List<Thread> threads = new ArrayList<>();
        List<Throwable> failures = new ArrayList<>();
        long start = System.nanoTime();
        for (int i = 0; i < consumers; i++) {
            String consumer = "c" + i;
            Thread t = new Thread(() -> acked.addAndGet(consumeAll(port, consumer, count)));
            t.setUncaughtExceptionHandler((thread, e) -> {
                synchronized (failures) {
                    failures.add(e);
                }
            });
            t.start();
            threads.add(t);
        }
        for (Thread t : threads) {
            t.join();
        }
        long nanos = System.nanoTime() - start;
        if (!failures.isEmpty()) {
            throw new IllegalStateException("a consumer failed", failures.get(0));
        }
        long pending;
        try (Connection c = new Connection(port)) {
            pending = (Long) ((List<?>) c.call("XPENDING", STREAM, GROUP)).get(0);
        }
        if (acked.get() != entries || pending != 0) {
            throw new IllegalStateException("acknowledged " + acked.get() + " of " + entries + ", pending " + pending);
        }
        System.out.printf("entries=%d consumers=%d count=%d seconds=%.3f entries_per_s=%.0f%n",
                entries, consumers, count, nanos / 1e9, entries / (nanos / 1e9));
    }

    /** One consumer's loop; returns how many entries XACK acknowledged. */
    private static long consumeAll(int port, String consumer, int count) {
        String countArg = Integer.toString(count);
        long acked = 0;
        try (Connection c = new Connection(port)) {
            while (true) {
                Object reply = c.call("XREADGROUP", "GROUP", GROUP, consumer, "COUNT", countArg, "STREAMS", STREAM, ">");
                if (reply == null) {
                    return acked;
                }
                // [[stream, [[id, [field, value, ...]], ...]]]
                List<?> entries = (List<?>) ((List<?>) ((List<?>) reply).get(0)).get(1);
                String[] ack = new String[3 + entries.size()];
                ack[0] = "XACK";
                ack[1] = STREAM;
                ack[2] = GROUP;
                for (int i = 0; i < entries.size(); i++) {
                    ack[3 + i] = new String((byte[]) ((List<?>) entries.get(i)).get(0), StandardCharsets.US_ASCII);
                }
                long n = (Long) c.call((Object[]) ack);
                if (n != entries.size()) {
                    throw new IllegalStateException(consumer + ": XACK acknowledged " + n + " of " + entries.size());
                }
                acked += n;
            }
        } catch (IOException e) {
            throw new RuntimeException(e);
        }
    }

    /** A blocking RESP2 connection: requests written as multibulks, replies parsed into Java values. */
    private static final class Connection implements AutoCloseable {
        private final Socket socket;
        private final OutputStream out;
        private final InputStream in;

        Connection(int port) throws IOException {
            socket = new Socket("127.0.0.1", port);
            socket.setTcpNoDelay(true);
            out = new BufferedOutputStream(socket.getOutputStream(), 64 * 1024);
            in = new BufferedInputStream(socket.getInputStream(), 64 * 1024);
        }

        Object call(Object... args) throws IOException {
            send(args);
            flush();
            return read();
        }

        void send(Object... args) throws IOException {
            out.write(('*' + Integer.toString(args.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
            for (Object arg : args) {
                byte[] bytes = arg.toString().getBytes(StandardCharsets.US_ASCII);
                out.write(('$' + Integer.toString(bytes.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
                out.write(bytes);
                out.write('\r');
                out.write('\n');
            }
        }

        void flush() throws IOException {
            out.flush();
        }

        /** A bulk as byte[], an integer as Long, an array as List, nil as null; an error throws. */
        Object read() throws IOException {
            int type = in.read();
            String line = line();
            switch (type) {
                case '+':
                    return line;
                case '-':
                    throw new IllegalStateException("error reply: " + line);
                case ':':
                    return Long.parseLong(line);
                case '$': {
                    int length = Integer.parseInt(line);
                    if (length < 0) {
                        return null;
                    }
                    byte[] bulk = in.readNBytes(length);
                    in.skipNBytes(2);
                    return bulk;
                }
                case '*': {
                    int length = Integer.parseInt(line);
                    if (length < 0) {
                        return null;
                    }
                    List<Object> array = new ArrayList<>(length);
                    for (int i = 0; i < length; i++) {
                        array.add(read());
                    }
                    return array;
                }
                default:
                    throw new IllegalStateException("unexpected reply type " + type);
            }
        }

        private String line() throws IOException {
            StringBuilder line = new StringBuilder();
            for (int b = in.read(); b != '\r'; b = in.read()) {
                if (b < 0) {
                    throw new IOException("connection closed");
                }
                line.append((char) b);
            }
            in.read();
            return line.toString();
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
