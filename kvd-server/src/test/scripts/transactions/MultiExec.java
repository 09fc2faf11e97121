import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Pipelined transactions: each connection sends batches of MULTI, SET x 10, EXEC and reads their
 * replies (always the same 150 bytes per transaction), for a fixed time; prints transactions/s.
 * Usage: java MultiExec.java PORT [connections] [transactions per batch] [seconds]
 */
public class MultiExec {
    private static final int REPLY_BYTES = "+OK\r\n".length() + 10 * "+QUEUED\r\n".length()
            + "*10\r\n".length() + 10 * "+OK\r\n".length();

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        int connections = args.length > 1 ? Integer.parseInt(args[1]) : 50;
        int batch = args.length > 2 ? Integer.parseInt(args[2]) : 16;
        long seconds = args.length > 3 ? Long.parseLong(args[3]) : 10;
        AtomicLong done = new AtomicLong();
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        List<Thread> threads = new ArrayList<>();
        for (int c = 0; c < connections; c++) {
            int connection = c;
            Thread t = new Thread(() -> run(port, connection, batch, end, done));
            t.start();
            threads.add(t);
        }
        for (Thread t : threads) {
            t.join();
        }
        System.out.printf("MULTI/SET x10/EXEC, %d connections, %d transactions per batch: %.0f transactions/s%n",
                connections, batch, done.get() / (double) seconds);
    }

    private static void run(int port, int connection, int batch, long end, AtomicLong done) {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setTcpNoDelay(true);
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            StringBuilder request = new StringBuilder();
            for (int t = 0; t < batch; t++) {
                request.append(command("MULTI"));
                for (int i = 0; i < 10; i++) {
                    request.append(command("SET", "key:" + connection + ":" + i, "xxx"));
                }
                request.append(command("EXEC"));
            }
            byte[] bytes = request.toString().getBytes(StandardCharsets.US_ASCII);
            byte[] replies = new byte[REPLY_BYTES * batch];
            while (System.nanoTime() < end) {
                out.write(bytes);
                int read = 0;
                while (read < replies.length) {
                    int n = in.read(replies, read, replies.length - read);
                    if (n < 0) {
                        throw new IllegalStateException("connection closed");
                    }
                    read += n;
                }
                if (replies[replies.length - 3] != 'K') {
                    throw new IllegalStateException("unexpected reply: " + new String(replies, StandardCharsets.US_ASCII));
                }
                done.addAndGet(batch);
            }
        } catch (Exception e) {
            throw new RuntimeException(e);
        }
    }

    private static String command(String... args) {
        StringBuilder out = new StringBuilder("*").append(args.length).append("\r\n");
        for (String a : args) {
            out.append('$').append(a.length()).append("\r\n").append(a).append("\r\n");
        }
        return out.toString();
    }
}
