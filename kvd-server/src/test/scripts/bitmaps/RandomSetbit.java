import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * SETBIT key at random offsets below a bound, from several connections each sending batches of
 * {@code pipeline} commands and reading their replies (":0" or ":1", 4 bytes each); prints
 * SETBITs/s over the whole run. redis-benchmark cannot do this: its __rand_int__ is zero-padded
 * to 12 digits, which Redis and kvd both refuse as a bit offset.
 * Usage: java RandomSetbit.java PORT KEY OFFSET_BOUND [connections] [requests] [pipeline]
 */
public class RandomSetbit {
    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        String key = args[1];
        long bound = Long.parseLong(args[2]);
        int connections = args.length > 3 ? Integer.parseInt(args[3]) : 50;
        long requests = args.length > 4 ? Long.parseLong(args[4]) : 200_000;
        int pipeline = args.length > 5 ? Integer.parseInt(args[5]) : 1;
        long batchesEach = requests / connections / pipeline;
        List<Thread> threads = new ArrayList<>();
        long start = System.nanoTime();
        for (int c = 0; c < connections; c++) {
            long seed = c;
            Thread t = new Thread(() -> run(port, key, bound, pipeline, batchesEach, seed));
            t.start();
            threads.add(t);
        }
        for (Thread t : threads) {
            t.join();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        System.out.printf("%.0f%n", batchesEach * pipeline * connections / seconds);
    }

    private static void run(int port, String key, long bound, int pipeline, long batches, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setTcpNoDelay(true);
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            byte[] replies = new byte[4 * pipeline];
            for (long b = 0; b < batches; b++) {
                StringBuilder request = new StringBuilder();
                for (int i = 0; i < pipeline; i++) {
                    String offset = Long.toString(random.nextLong(bound));
                    request.append("*4\r\n$6\r\nSETBIT\r\n$").append(key.length()).append("\r\n").append(key)
                            .append("\r\n$").append(offset.length()).append("\r\n").append(offset).append("\r\n$1\r\n1\r\n");
                }
                out.write(request.toString().getBytes(StandardCharsets.US_ASCII));
                int read = 0;
                while (read < replies.length) {
                    int n = in.read(replies, read, replies.length - read);
                    if (n < 0) {
                        throw new IllegalStateException("connection closed");
                    }
                    read += n;
                }
                if (replies[0] != ':') {
                    throw new IllegalStateException("unexpected reply: " + new String(replies, StandardCharsets.US_ASCII));
                }
            }
        } catch (Exception e) {
            throw new RuntimeException(e);
        }
    }
}
