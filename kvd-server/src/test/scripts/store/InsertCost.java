import io.kvd.server.store.Keyspace;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Bulk insert into a fresh Keyspace, in process: nanoseconds per insert and the longest single
 * put, for each key count given, median of 11 runs (a 100 K fill is ~20 ms of work, so a few runs
 * are noise). Keys "key:%012d" (16 bytes), 16-byte values.
 * Run from the repository root after `mvn package`:
 *   java -Xms2g -Xmx2g -cp kvd-server/target/classes kvd-server/src/test/scripts/store/InsertCost.java 100000 1600000 5000000
 */
public class InsertCost {
    public static void main(String[] args) {
        byte[] value = "vvvvvvvvvvvvvvvv".getBytes(StandardCharsets.US_ASCII);
        // Warm-up (JIT) with the first count, untimed.
        fill(keys(Integer.parseInt(args[0])), value);
        for (String arg : args) {
            int n = Integer.parseInt(arg);
            byte[][] keys = keys(n);
            int runs = 11;
            double[] nsPerInsert = new double[runs];
            long[] longest = new long[runs];
            for (int run = 0; run < runs; run++) {
                Keyspace keyspace = new Keyspace(run);
                System.gc();
                long start = System.nanoTime();
                long max = 0;
                for (byte[] key : keys) {
                    long t = System.nanoTime();
                    keyspace.put(key, value, Keyspace.PERSISTENT);
                    max = Math.max(max, System.nanoTime() - t);
                }
                nsPerInsert[run] = (System.nanoTime() - start) / (double) n;
                longest[run] = max;
            }
            Arrays.sort(nsPerInsert);
            Arrays.sort(longest);
            System.out.printf("%,d keys: %.0f ns/insert (median of %d; min %.0f, max %.0f), longest single put median %.2f ms, worst %.2f ms%n",
                    n, nsPerInsert[runs / 2], runs, nsPerInsert[0], nsPerInsert[runs - 1],
                    longest[runs / 2] / 1e6, longest[runs - 1] / 1e6);
        }
    }

    private static byte[][] keys(int n) {
        byte[][] keys = new byte[n][];
        for (int i = 0; i < n; i++) {
            keys[i] = String.format("key:%012d", i).getBytes(StandardCharsets.US_ASCII);
        }
        return keys;
    }

    private static void fill(byte[][] keys, byte[] value) {
        Keyspace keyspace = new Keyspace(0);
        for (byte[] key : keys) {
            keyspace.put(key, value, Keyspace.PERSISTENT);
        }
    }
}
